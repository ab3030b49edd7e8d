#!/usr/bin/env python3
"""Median search iterations a turn of each bot in arena replays, from the `iterations=` of the
bots' diagnostic lines (their stderr, kept in each replay's turns), the first turn left out (it
has 500 ms): `python3 scripts/replay-iterations.py DIR...`, DIR an arena match's replay folder
(`replays/matches/...`). One line per bot command: the median, the turns counted, the command.
What a row's bots reached on its machine, so that a control's cost can be compared."""
import glob
import json
import re
import statistics
import sys

if len(sys.argv) < 2:
    sys.exit("usage: scripts/replay-iterations.py DIR... (arena replay folders)")
iterations = {}
for folder in sys.argv[1:]:
    paths = sorted(glob.glob(folder + "/game-*.json"))
    if not paths:
        sys.exit(f"replay-iterations: no game-*.json in {folder}")
    for path in paths:
        with open(path) as file:
            replay = json.load(file)
        commands = [player["command"] for player in replay["players"]]
        for turn in replay["turns"]:
            if turn["turn"] == 1:
                continue
            for seat, text in enumerate(turn.get("stderr") or []):
                found = re.search(r"iterations=(\d+)", text or "")
                if found:
                    iterations.setdefault(commands[seat], []).append(int(found.group(1)))
for command, counts in iterations.items():
    print(f"{statistics.median(counts):.0f} median iterations a turn ({len(counts)} turns): {command}")
