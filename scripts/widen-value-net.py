#!/usr/bin/env python3
"""A value-network file (`csb-value-net 1` or `2`, src/bot/value_net/file.rs) of a narrower
first layer, widened with zeros to the binary's `HIDDEN1`, so that today's binary plays an older
generation: `python3 scripts/widen-value-net.py IN OUT [WIDTH]` (WIDTH 64 by default).

The added first-layer outputs have zero weights and a zero bias (their ReLU is 0) and zero
weights into the second layer, so every logit is the narrow network's: the first layer's scale
is its largest weight, which the zeros do not change, and the later sums only gain zero terms.
Checked on moves: generation 1 (16 wide, `learn/generations/gen-001/network.txt` at 86e77fe)
widened to 64 and played by `--net-file` gives the moves of 86e77fe's build (docs/strength.md,
row R11)."""
import sys

HIDDEN2 = 8
FEATURES = {"csb-value-net 1": 56, "csb-value-net 2": 58}

if len(sys.argv) not in (3, 4):
    sys.exit("usage: scripts/widen-value-net.py IN OUT [WIDTH]")
width = int(sys.argv[3]) if len(sys.argv) == 4 else 64
lines = open(sys.argv[1]).read().split("\n")
magic = lines[0].strip()
if magic not in FEATURES:
    sys.exit(f"widen-value-net: {sys.argv[1]} does not start with a value network's magic line")
features = FEATURES[magic]
tensors = [line.split() for line in lines[1:] if line.strip()]
if len(tensors) != 6 or len(tensors[0]) % features != 0:
    sys.exit(f"widen-value-net: {sys.argv[1]} does not hold the 6 tensors of a value network")
narrow = len(tensors[0]) // features
if width < narrow or len(tensors[1]) != narrow or len(tensors[2]) != narrow * HIDDEN2:
    sys.exit(f"widen-value-net: a {narrow}-wide network does not widen to {width}")
pad = width - narrow
first = []
for row in range(features):
    first += tensors[0][narrow * row:narrow * (row + 1)] + ["0"] * pad
widened = [first, tensors[1] + ["0"] * pad, tensors[2] + ["0"] * (pad * HIDDEN2)] + tensors[3:]
with open(sys.argv[2], "w") as out:
    out.write("\n".join([magic] + [" ".join(tensor) for tensor in widened]) + "\n")
