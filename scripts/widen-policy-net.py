#!/usr/bin/env python3
"""A policy-network file (`csb-policy-net 1`, src/bot/policy_net/file.rs) widened with zero
hidden units: `python3 scripts/widen-policy-net.py IN OUT WIDTH`, so that a build whose policy
is wider (`HIDDEN` in src/bot/policy_net/network.rs) plays a narrower generation's priors.

The added hidden units have zero weights in and out and a zero bias (their ReLU is 0), so every
logit is the narrow network's. Checked on moves (docs/learning.md, screen S3): generation 1's
32-wide policy widened to 128 and played by a 128-wide build gives the default's moves
(md5 cb4f1fb2... at 2,000 iterations, seed 1, cg-demo)."""
import sys

MAGIC = "csb-policy-net 1"
NAMES = ["input.weight", "input.bias", "heads.weight", "heads.bias"]


def fail(message, code=1):
    print(f"widen-policy-net: {message}", file=sys.stderr)
    sys.exit(code)


if len(sys.argv) != 4 or not sys.argv[3].isdigit():
    fail("usage: scripts/widen-policy-net.py IN OUT WIDTH (a whole number)", 2)
width = int(sys.argv[3])
try:
    lines = [line for line in open(sys.argv[1]).read().split("\n") if line.strip()]
except (OSError, UnicodeDecodeError) as error:
    fail(f"cannot read {sys.argv[1]}: {error}")
if len(lines) != 6 or lines[0].strip() != MAGIC or lines[1].split()[:1] != ["shape"]:
    fail(f"{sys.argv[1]} is not a policy network file ({MAGIC}, a shape, four tensors)")
try:
    inputs, narrow, outputs = map(int, lines[1].split()[1:])
except ValueError:
    fail(f"{sys.argv[1]}: the shape line is not three whole numbers")
tensors = {line.split()[0]: line.split()[1:] for line in lines[2:]}
sizes = [inputs * narrow, narrow, narrow * outputs, outputs]
if [len(tensors.get(name, [])) for name in NAMES] != sizes:
    fail(f"{sys.argv[1]}: the tensors are not those of shape {inputs} {narrow} {outputs}")
if width < narrow:
    fail(f"a {narrow}-wide network does not widen to {width}")
pad = width - narrow
first = []
for row in range(inputs):
    first += tensors["input.weight"][narrow * row:narrow * (row + 1)] + ["0.0"] * pad
widened = [
    MAGIC,
    f"shape {inputs} {width} {outputs}",
    "input.weight " + " ".join(first),
    "input.bias " + " ".join(tensors["input.bias"] + ["0.0"] * pad),
    "heads.weight " + " ".join(tensors["heads.weight"] + ["0.0"] * (pad * outputs)),
    "heads.bias " + " ".join(tensors["heads.bias"]),
]
try:
    with open(sys.argv[2], "w") as out:
        out.write("\n".join(widened) + "\n")
except OSError as error:
    fail(f"cannot write {sys.argv[2]}: {error}")
