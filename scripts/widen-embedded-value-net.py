#!/usr/bin/env python3
"""The embedded value network (src/bot/value_net/weights.rs) widened with zeros to WIDTH
first-layer outputs, in place, for measuring what a wider network costs the bundle (issue 51's
table in bundler/README.md); a scratch change, reverted after:

    sed -i 's/^pub const HIDDEN1: usize = 64;/pub const HIDDEN1: usize = 144;/' src/bot/value_net/shape.rs
    python3 scripts/widen-embedded-value-net.py 144
    make bundle
    git checkout src/bot/value_net/shape.rs src/bot/value_net/weights.rs

WIDTH must be a multiple of 32 (the AVX2 kernel sums eight registers of eight outputs a group, over both views). The layout is that of
scripts/widen-value-net.py (first tensor: one row of HIDDEN1 weights per feature; then HIDDEN1
biases; then HIDDEN1 rows of HIDDEN2), the zero weight being the level-0 character of codec.rs
(U+4E00 + MAX_LEVEL); the scales do not change, so the widened network plays the same moves
(checked: the Legend md5 on cg-demo stays aaa94e049edc1bb26c51a1de1b6ccc1c at 144 and 576 before the eight-register groups, at 512 and 544 after)."""
import re
import sys

PATH = "src/bot/value_net/weights.rs"
NARROW = 64
FEATURES = 58
HIDDEN2 = 8
ZERO = chr(0x4E00 + 4231)

if len(sys.argv) != 2 or not sys.argv[1].isdigit() or int(sys.argv[1]) % 32 or int(sys.argv[1]) < NARROW:
    sys.exit("usage: scripts/widen-embedded-value-net.py WIDTH (a multiple of 32, at least 64)")
width = int(sys.argv[1])
text = open(PATH, encoding="utf-8").read()
found = re.search(r'pub const WEIGHTS: &str = "([^"]*)";', text)
if not found:
    sys.exit(f"widen-embedded-value-net: no WEIGHTS string in {PATH}")
weights = found.group(1)
expected = FEATURES * NARROW + NARROW + NARROW * HIDDEN2 + 2 * HIDDEN2 + 1
if len(weights) != expected:
    sys.exit(f"widen-embedded-value-net: {len(weights)} weights, not the {expected} of a 64-wide network")
pad = width - NARROW
parts = []
at = 0
for row in range(FEATURES + 1):
    parts.append(weights[at:at + NARROW] + ZERO * pad)
    at += NARROW
parts.append(weights[at:at + NARROW * HIDDEN2] + ZERO * (pad * HIDDEN2))
at += NARROW * HIDDEN2
parts.append(weights[at:])
widened = "".join(parts)
with open(PATH, "w", encoding="utf-8") as out:
    out.write(text[:found.start(1)] + widened + text[found.end(1):])
print(f"{len(weights)} -> {len(widened)} weights")
