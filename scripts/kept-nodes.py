#!/usr/bin/env python3
"""Tree reuse in a match's replays: how much of each own pod's tree `csb --reuse-tree 1` kept.

Reads every replay of a run directory of `arena match` and the diagnostic lines the bots wrote
(`turn N: iterations=... nodes=... ms=...`, plus ` kept=POD0,POD1` from a bot with reuse on).
Prints, over turns 2 and later: the own trees seen, the mean and median nodes kept per tree, the
share started fresh (kept=0), and for the bots with and without reuse the mean iterations per
turn and the mean size of their largest tree.

Usage: scripts/kept-nodes.py RUN_DIR   (e.g. /tmp/reuse-replays/1795605706-s1717)
"""
import glob
import json
import os
import re
import statistics
import sys

if sys.argv[1:] in (["-h"], ["--help"]):
    print(__doc__.strip())
    sys.exit(0)
if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
    print("kept-nodes.py: expects one run directory of arena replays (see --help)", file=sys.stderr)
    sys.exit(2)

DIAGNOSTIC = re.compile(r"iterations=(\d+) .*nodes=(\d+)")
KEPT = re.compile(r"kept=(\d+),(\d+)")

kept = []
iterations = {True: [], False: []}
largest_tree = {True: [], False: []}
replays = sorted(glob.glob(os.path.join(sys.argv[1], "*.json")))
for path in replays:
    with open(path) as file:
        game = json.load(file)
    for turn in game["turns"][1:]:
        for text in turn.get("stderr") or []:
            for line in (text or "").splitlines():
                counts = DIAGNOSTIC.search(line)
                if not counts:
                    continue
                reuse = KEPT.search(line)
                iterations[bool(reuse)].append(int(counts.group(1)))
                largest_tree[bool(reuse)].append(int(counts.group(2)))
                if reuse:
                    kept.extend(int(nodes) for nodes in reuse.groups())

if not kept:
    print(f"kept-nodes.py: no kept= in the {len(replays)} replays of {sys.argv[1]}", file=sys.stderr)
    sys.exit(1)
fresh = sum(1 for nodes in kept if nodes == 0)
print(
    f"{len(replays)} replays; own trees (turns 2+): {len(kept)}; nodes kept per tree: "
    f"mean {statistics.mean(kept):.0f}, median {statistics.median(kept):.0f}; "
    f"started fresh {100 * fresh / len(kept):.1f}%"
)
for reuse in (True, False):
    if iterations[reuse]:
        print(
            f"reuse {'on ' if reuse else 'off'}: mean iterations per turn "
            f"{statistics.mean(iterations[reuse]):.0f}, mean largest tree "
            f"{statistics.mean(largest_tree[reuse]):.0f} nodes"
        )
