#!/bin/sh
# Row DEEP1: the policy with a second action layer (row DEEP: 64 / 64 with a context layer and
# a second action layer of 64, 21 inputs per action, trained cold on 1,200 games of today's
# default, mirrored, annealed, 50.9% of its test split's gap; tempered to generation 7's spread:
# docs/rows/DEEP/policy-middle64.txt) against the default (generation 7's embedded policy),
# generation 7's value network in both, at the real control (50 ms a turn, 500 ms the first,
# time scale 1, one game at a time), alone on the machine; one binary. R = a build of 8f7f675
# (or any later commit with Legend md5 d9f9b0f8 and ACTION_MIDDLE 64).
R=${R:-/work/runs/deep1}
SPRT="0 30" ARENA=$R/arena scripts/row.sh docs/rows/DEEP1 8 --p1 "$R/csb --policy-net docs/rows/DEEP/policy-middle64.txt" --p2 "$R/csb" --games 200 --seed 3813 --threads 1 --time-scale 1
