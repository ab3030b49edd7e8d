#!/usr/bin/env python3
"""Writes the stdin CodinGame gave player 0 in the viewer demo game (../shared/data/cg-replays).

Usage: scripts/cg-demo-input.py > replays/inputs/cg-demo.p0.txt   (no arguments; runs from anywhere)
Init: laps (5 in that contest-era game: floor(15 / 3)), checkpoints; then per turn the four pod
lines `x y vx vy angle nextCheckPointId` with the angle shown as csb-rules.md §3.2 says.
"""
import json
import math
import os
import sys

if sys.argv[1:] in (["-h"], ["--help"]):
    print(__doc__.strip())
    sys.exit(0)
if sys.argv[1:]:
    print(f"cg-demo-input.py: takes no arguments, got {' '.join(sys.argv[1:])} (see --help)",
          file=sys.stderr)
    sys.exit(2)
here = os.path.dirname(os.path.abspath(__file__))
path = os.path.normpath(
    os.path.join(here, "..", "..", "shared", "data", "cg-replays", "csb-viewer-demo-game.json"))
try:
    frames = json.load(open(path))["frames"]
except OSError as error:
    sys.exit(f"cg-demo-input.py: cannot read the demo game {path}: {error.strerror} "
             "(it lives in ../shared/data/cg-replays next to the repository)")
except (ValueError, KeyError, TypeError):
    sys.exit(f"cg-demo-input.py: {path} is not a CodinGame viewer replay with \"frames\"")
checkpoints = list(map(int, frames[0][3].split()))
count = len(checkpoints) // 2
out = [str(15 // count), str(count)]
out += [f"{checkpoints[2 * i]} {checkpoints[2 * i + 1]}" for i in range(count)]


def shown_angle(text):
    if text == "null":
        return -1
    a = float(text)
    normalised = ((math.fmod(a, 2 * math.pi)) + 2 * math.pi) % (2 * math.pi)
    return math.floor(normalised * 180 / math.pi + 0.5)


key_frames = [frames[0][4:]] + [f for i, f in enumerate(frames) if i > 0 and i % 2 == 0]
for frame in key_frames[:-1]:  # the last state is the end: nobody is asked to move
    for pod in range(4):
        f = frame[1 + 2 * pod].split()
        out.append(f"{int(float(f[0]))} {int(float(f[1]))} {f[2]} {f[3]} {shown_angle(f[8])} {f[10]}")
sys.stdout.write("\n".join(out) + "\n")
