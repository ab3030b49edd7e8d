#!/bin/sh
# Keeps what a fuzz campaign found, so the next one starts where it stopped:
# `make fuzz-cmin TARGET=<name>`, or `scripts/fuzz-cmin.sh TARGET [DIR]`. Minimises the
# target's AFL++ queue (DIR/TARGET/default/queue, DIR default $FUZZ_DIR, else target/fuzz) together with its
# committed corpus with afl-cmin (a smallest set of inputs reaching the same edges; `-e`: hit
# counts aside, which keeps the committed corpus about a third of the size) and
# writes the result into fuzz/corpus/TARGET: the committed seeds keep their names (they stay,
# whether afl-cmin kept them or not: docs/reliability.md describes them), every other input is
# named `cmin-<first 16 hex digits of its SHA-256>` (the same input, the same name: a second
# minimisation adds only what is new). Ends with the corpus's count of files and bytes.
# Uses the driver built by scripts/fuzz-build.sh (FUZZ_DRIVER to name another), at niceness 19.
set -eu

target=${1:-}
dir=${2:-${FUZZ_DIR:-target/fuzz}}
if [ -z "$target" ] || [ ! -d "fuzz/corpus/$target" ]; then
    echo "make fuzz-cmin: TARGET must be one of: $(ls fuzz/corpus | tr '\n' ' ')(got \"$target\")" >&2
    exit 2
fi
queue="$dir/$target/default/queue"
if [ ! -d "$queue" ]; then
    echo "make fuzz-cmin: no AFL++ queue in $queue (run make fuzz or make fuzz-all first)" >&2
    exit 2
fi
driver=${FUZZ_DRIVER:-$(sh scripts/fuzz-build.sh)}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/in" "$work/out"
# afl-cmin reads one folder: the queue's inputs (not its hidden state folders) and the seeds.
find "$queue" -maxdepth 1 -type f -name 'id:*' -exec cp {} "$work/in/" \;
for seed in "fuzz/corpus/$target"/*; do
    cp "$seed" "$work/in/seed-$(basename "$seed")"
done
echo "== minimising $(ls "$work/in" | wc -l) inputs of $target" >&2
# AFL_NO_FORKSRV: AFL++ 4.40c's afl-showmap, which afl-cmin runs, hands the inputs to a
# persistent-mode Rust driver through shared memory and the driver dies of SIGSEGV on each, so
# afl-cmin would see no coverage; without the fork server each input runs in a process of its own.
AFL_NO_FORKSRV=1 AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
    nice -n 19 cargo afl cmin -e -t 5000 -i "$work/in" -o "$work/out" -- "$driver" "$target" >&2
if [ -z "$(ls "$work/out")" ]; then
    echo "make fuzz-cmin: afl-cmin kept no input of $target; fuzz/corpus/$target left as it was" >&2
    exit 1
fi

# The named seeds' contents, to recognise them among afl-cmin's picks.
for seed in "fuzz/corpus/$target"/*; do
    case "$(basename "$seed")" in
        cmin-*) ;;
        *) sha256sum "$seed" | cut -c1-64 ;;
    esac
done > "$work/seeds"
# Inputs named by an earlier minimisation and not picked this time are dropped.
for old in "fuzz/corpus/$target"/cmin-*; do
    [ -e "$old" ] && rm "$old"
done
for picked in "$work/out"/*; do
    sum=$(sha256sum "$picked" | cut -c1-64)
    if ! grep -qx "$sum" "$work/seeds"; then
        cp "$picked" "fuzz/corpus/$target/cmin-$(echo "$sum" | cut -c1-16)"
    fi
done
files=$(ls "fuzz/corpus/$target" | wc -l)
bytes=$(cat "fuzz/corpus/$target"/* | wc -c)
echo "== fuzz/corpus/$target: $files files, $bytes bytes (afl-cmin kept $(ls "$work/out" | wc -l) of $(ls "$work/in" | wc -l))"
