#!/bin/sh
# Screens at a fixed 5,000 iterations a turn after generation 7's gate (both cores; not on the clock).
cd /work/main
B=/work/runs/r30
G=data/generations
bot() { echo "$B/csb --iterations 5000 --eval net --net-file $1 --policy-net $2"; }
OUT=docs/rows/G7
mkdir -p $OUT
[ -s $OUT/G7V.txt ] || $B/arena match --p1 "$(bot $G/gen-007/network.txt $G/gen-005/policy.txt)" --p2 "$(bot $G/gen-005/network.txt $G/gen-005/policy.txt)" --games 100 --seed 3640 --threads 2 --time-scale 20 > $OUT/G7V.txt.part && mv $OUT/G7V.txt.part $OUT/G7V.txt
[ -s $OUT/G7P.txt ] || $B/arena match --p1 "$(bot $G/gen-005/network.txt $G/gen-007/policy.txt)" --p2 "$(bot $G/gen-005/network.txt $G/gen-005/policy.txt)" --games 100 --seed 3641 --threads 2 --time-scale 20 > $OUT/G7P.txt.part && mv $OUT/G7P.txt.part $OUT/G7P.txt
[ -s $OUT/G76.txt ] || $B/arena match --p1 "$(bot $G/gen-005/network.txt $G/gen-007/policy.txt)" --p2 "$(bot $G/gen-005/network.txt docs/rows/G6/policy.txt)" --games 100 --seed 3642 --threads 2 --time-scale 20 > $OUT/G76.txt.part && mv $OUT/G76.txt.part $OUT/G76.txt
echo done
