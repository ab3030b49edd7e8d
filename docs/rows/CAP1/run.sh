#!/bin/sh
# Row CAP1: the policy of 64 action units (64 / 64 with a context layer, 21 inputs per action,
# trained cold on 1,200 games of today's default, mirrored, annealed, tempered to generation 7's
# spread: docs/rows/CAP/policy-a64-1200.txt) against the default (generation 7's embedded
# policy), generation 7's value network in both, at the real control (50 ms a turn, 500 ms the
# first, time scale 1, one game at a time), alone on the machine; one binary. R = a build of
# 28ac0f3 (or any later commit with Legend md5 d9f9b0f8 and 64 action units).
R=${R:-/work/runs/cap1}
SPRT="0 30" ARENA=$R/arena scripts/row.sh docs/rows/CAP1 8 --p1 "$R/csb --policy-net docs/rows/CAP/policy-a64-1200.txt" --p2 "$R/csb" --games 200 --seed 3812 --threads 1 --time-scale 1
