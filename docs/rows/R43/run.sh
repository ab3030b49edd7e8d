#!/bin/sh
# Row R43: --net-weight 0.6 (the network's share of each leaf score) against the default 0.5,
# generation 7's networks, at the real control (50 ms a turn, 500 ms the first, time scale 1,
# one game at a time), alone on the machine. R = a build of 5247c25 (the default's src/).
R=${R:-/work/runs/r43}
SPRT="0 30" ARENA=$R/arena scripts/row.sh docs/rows/R43 8 --p1 "$R/csb --net-weight 0.6" --p2 "$R/csb" --games 200 --seed 3643 --threads 1 --time-scale 1
