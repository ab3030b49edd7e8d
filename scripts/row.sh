#!/bin/sh
# A long arena match as a resumable row: `scripts/row.sh DIR SHARDS ARENA MATCH OPTIONS...`
# plays `arena match OPTIONS --shard I/SHARDS --json` for I = 0 .. SHARDS-1, one after the
# other, each shard's result kept as DIR/shard-I.json (its report in DIR/shard-I.txt). A shard
# whose result is there is skipped, so running the same command again after an interruption
# (or the end of a session) goes on where it stopped; a shard cut short leaves nothing and is
# played again whole. When every shard is done, `arena merge` prints the row's report and keeps
# it in DIR/report.txt. The progress is DIR/progress.txt (one line per shard, with its time).
# ARENA is the arena binary (ARENA=..., default target/release/arena).
#
# SPRT="ELO0 ELO1" makes it a sequential test: after each shard, the shards played so far are
# merged with `arena merge --sprt ELO0 ELO1` (its LLR over all their complete game pairs), and
# once that accepts H0 or H1 no further shard is played; the report is then the played shards'.
# Looking at the LLR only between shards (a batch of pairs at a time) is a group-sequential
# SPRT, slightly more cautious than one that looks after every pair. SPRT is part of the row's
# options: rerun the row with the same value.
#
# example (a real-control row, both cores the match's):
#   scripts/row.sh rows/p-real 8 --p1 "$B/csb --selection puct --policy-net embedded" \
#       --p2 "$B/csb" --games 200 --seed 3501 --threads 1 --time-scale 1
set -eu

if [ $# -lt 3 ]; then
    echo "usage: scripts/row.sh DIR SHARDS ARENA-MATCH-OPTIONS..." >&2
    exit 2
fi
dir=$1
shards=$2
shift 2
case "$shards" in
    '' | *[!0-9]* | 0) echo "row.sh: SHARDS must be a whole number above 0 (got \"$shards\")" >&2; exit 2 ;;
esac
sprt=${SPRT:-}
case "$sprt" in
    '') ;;
    *[!0-9.\ -]* | *' '*' '*) echo "row.sh: SPRT must be two Elo numbers \"ELO0 ELO1\" (got \"$sprt\")" >&2; exit 2 ;;
    *' '*) ;;
    *) echo "row.sh: SPRT must be two Elo numbers \"ELO0 ELO1\" (got \"$sprt\")" >&2; exit 2 ;;
esac
arena=${ARENA:-target/release/arena}
mkdir -p "$dir"
# The options of the first run are kept; a run with other options into the same DIR is refused,
# so no row mixes two matches.
if [ -n "$sprt" ]; then
    printf '%s [SPRT %s]\n' "$*" "$sprt" > "$dir/options.new"
else
    printf '%s\n' "$*" > "$dir/options.new"
fi
if [ -f "$dir/options.txt" ] && ! cmp -s "$dir/options.txt" "$dir/options.new"; then
    rm -f "$dir/options.new"
    echo "row.sh: $dir holds a row of other options ($(cat "$dir/options.txt"))" >&2
    exit 2
fi
mv "$dir/options.new" "$dir/options.txt"

# The result files of shards 0 .. $1 - 1.
shard_files() {
    i=0
    while [ "$i" -lt "$1" ]; do
        printf '%s ' "$dir/shard-$i.json"
        i=$((i + 1))
    done
}

shard=0
while [ "$shard" -lt "$shards" ]; do
    result="$dir/shard-$shard.json"
    if [ ! -s "$result" ]; then
        start=$(date -u +%H:%M:%S)
        if "$arena" match "$@" --shard "$shard/$shards" --json > "$result.part" 2> "$dir/shard-$shard.txt"; then
            mv "$result.part" "$result"
            echo "shard $shard/$shards done ($start to $(date -u +%H:%M:%S))" >> "$dir/progress.txt"
        else
            rm -f "$result.part"
            echo "row.sh: shard $shard/$shards failed (see $dir/shard-$shard.txt)" >&2
            exit 1
        fi
    fi
    shard=$((shard + 1))
    if [ -n "$sprt" ] && [ "$shard" -lt "$shards" ]; then
        # shellcheck disable=SC2086 # ELO0 ELO1, and file names without spaces
        if "$arena" merge --sprt $sprt $(shard_files "$shard") 2>&1 | grep -q '^SPRT elo0 .*: H[01] accepted'; then
            decided="SPRT $sprt decided after shard $((shard - 1)): shards $shard to $((shards - 1)) not played"
            grep -qxF "$decided" "$dir/progress.txt" 2>/dev/null || echo "$decided" >> "$dir/progress.txt"
            shards=$shard
        fi
    fi
done
# shellcheck disable=SC2086 # ELO0 ELO1, and the result files' names hold no space (DIR is the caller's)
"$arena" merge ${sprt:+--sprt $sprt} $(shard_files "$shards") 2>&1 | tee "$dir/report.txt"
