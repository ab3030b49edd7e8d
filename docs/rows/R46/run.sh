#!/bin/sh
# Row R46: --net-weight 0.7 (the value network's share of each leaf score) against the default
# 0.6 in Legend, generation 7's networks, at the real control (50 ms a turn, 500 ms the first,
# time scale 1, one game at a time), alone on the machine; one binary. R = the build of f0d275e.
R=${R:-/work/runs/r44}
SPRT="0 30" ARENA=$R/arena scripts/row.sh docs/rows/R46 8 --p1 "$R/csb --net-weight 0.7" --p2 "$R/csb" --games 200 --seed 3646 --threads 1 --time-scale 1
