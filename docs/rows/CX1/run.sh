#!/bin/sh
# Row CX1: the context policy (docs/rows/CX/policy-ctx.txt: generation 7's policy trained further
# with the context layer on 800 games of today's default, tempered to generation 7's spread)
# against the default (generation 7's embedded policy), generation 7's value network in both, at
# the real control (50 ms a turn, 500 ms the first, time scale 1, one game at a time), alone on
# the machine; one binary. R = a build of 25392aa (its src/ is dafa70d's).
R=${R:-/work/runs/cxs}
SPRT="0 30" ARENA=$R/arena scripts/row.sh docs/rows/CX1 8 --p1 "$R/csb --policy-net docs/rows/CX/policy-ctx.txt" --p2 "$R/csb" --games 200 --seed 3747 --threads 1 --time-scale 1
