#!/bin/sh
# Row R45 (issue 53's control row): today's code (the build of f0d275e, the network at 0.6 of
# each leaf score) playing csb-a3f6b1e's networks (generation 1's files, the networks
# a3f6b1e embeds) against csb-a3f6b1e at the real control (50 ms a turn, 500 ms the first,
# time scale 1, one game at a time), alone on the machine, on the maps and seats of R44 (seed
# 3626): how much of R44's score came from code and how much from the learned networks.
# R = the build of f0d275e; A = the ladder's build of a3f6b1e:
#   H=$(git rev-parse a3f6b1e); mkdir -p ~/.cache/csb-ladder/$H/src
#   git archive $H | tar -x -C ~/.cache/csb-ladder/$H/src
#   (cd ~/.cache/csb-ladder/$H/src && cargo build --release --locked -p csb --target-dir ../target)
R=${R:-/work/runs/r44}
A=${A:-$HOME/.cache/csb-ladder/$(git rev-parse a3f6b1e)/target/release/csb}
G=learn/generations/gen-001
ARENA=$R/arena scripts/row.sh docs/rows/R45 8 --p1 "$R/csb --net-file $G/network.txt --policy-net $G/policy.txt" --p2 "$A" --games 200 --seed 3626 --threads 1 --time-scale 1
