#!/bin/sh
# Row GN3: Gold at --net-weight 0.6 (Legend's share since f0d275e) against Gold's default 0.5,
# generation 7's networks, at the real control in Gold (50 ms a turn, 500 ms the first, time
# scale 1, one game at a time), alone on the machine. R = the build of f0d275e.
R=${R:-/work/runs/r44}
SPRT="0 50" ARENA=$R/arena scripts/row.sh docs/rows/GN3 8 --p1 "$R/csb --league gold --net-weight 0.6" --p2 "$R/csb --league gold" --league gold --games 200 --seed 3603 --threads 1 --time-scale 1
