#!/bin/sh
# Row R44 (issue 53's goal row): the default with --net-weight 0.6 (generation 7's networks,
# row R43) against csb-a3f6b1e at the real control (50 ms a turn, 500 ms the first, time
# scale 1, one game at a time), alone on the machine, on the maps and seats of R26, R27, R29,
# R37 and R42 (seed 3626). R = a build of the commit that makes 0.6 the default; A = the
# ladder's build of a3f6b1e:
#   H=$(git rev-parse a3f6b1e); mkdir -p ~/.cache/csb-ladder/$H/src
#   git archive $H | tar -x -C ~/.cache/csb-ladder/$H/src
#   (cd ~/.cache/csb-ladder/$H/src && cargo build --release --locked -p csb --target-dir ../target)
R=${R:-/work/runs/r44}
A=${A:-$HOME/.cache/csb-ladder/$(git rev-parse a3f6b1e)/target/release/csb}
ARENA=$R/arena scripts/row.sh docs/rows/R44 8 --p1 "$R/csb" --p2 "$A" --games 200 --seed 3626 --threads 1 --time-scale 1
