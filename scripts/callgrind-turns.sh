#!/bin/sh
# Instructions the bot executes on the first 15 turns of the recorded game, counted by callgrind
# (repeatable whatever else the machine runs): `scripts/callgrind-turns.sh [BOT] [FLAGS...]`,
# default `target/release/csb --iterations 2000 --seed 1`. Prints the total (`Collected`).
set -eu
bot=${1:-target/release/csb}
[ $# -gt 0 ] && shift
flags=${*:-"--iterations 2000 --seed 1"}
input=$(mktemp)
out=$(mktemp)
trap 'rm -f "$input" "$out"' EXIT
# The initialisation block (laps, checkpoint count, the checkpoints) then 15 turns of 4 lines.
checkpoints=$(sed -n 2p replays/inputs/cg-demo.p0.txt)
head -n $((2 + checkpoints + 15 * 4)) replays/inputs/cg-demo.p0.txt > "$input"
# shellcheck disable=SC2086
valgrind --tool=callgrind --callgrind-out-file="$out" "$bot" $flags < "$input" > /dev/null 2>&1
callgrind_annotate "$out" 2>/dev/null | sed -n 's/^\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p'
