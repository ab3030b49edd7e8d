#!/bin/sh
# Row WM1: the wide policy (64 / 32 with a context layer, 21 inputs per action, trained cold on
# 960 games of today's default with mirrored games and an annealed rate, tempered to generation
# 7's spread: docs/rows/WM/policy-21in-960.txt) against the default (generation 7's embedded
# policy), generation 7's value network in both, at the real control (50 ms a turn, 500 ms the
# first, time scale 1, one game at a time), alone on the machine; one binary. R = a build of
# 5fec91a (or any later commit with Legend md5 d9f9b0f8).
R=${R:-/work/runs/wm1}
SPRT="0 30" ARENA=$R/arena scripts/row.sh docs/rows/WM1 8 --p1 "$R/csb --policy-net docs/rows/WM/policy-21in-960.txt" --p2 "$R/csb" --games 200 --seed 3811 --threads 1 --time-scale 1
