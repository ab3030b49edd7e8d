#!/bin/sh
# The fuzz campaign: `make fuzz-all SECONDS=<n> [TARGETS="a b"]`, or
# `scripts/fuzz-all.sh SECONDS [TARGET...]`. Builds the AFL++ driver once, then fuzzes every
# target (or those named) in turn for SECONDS each, at niceness 19 (FUZZ_NICE to change it),
# into target/fuzz/<target> (FUZZ_DIR to change it). A target's folder that exists is resumed,
# not restarted: AFL++ continues its queue, and its time, executions and coverage add up across
# runs. Ends with one line per target run: time fuzzed in all, executions, edges found, the
# crashes and hangs this run added, and whether coverage still grew in its last 10 minutes
# (scripts/fuzz-report.sh). See docs/reliability.md.
set -eu

seconds=${1:-}
case "$seconds" in
    '' | *[!0-9]*) echo "make fuzz-all: SECONDS must be a whole number of seconds (got \"$seconds\")" >&2; exit 2 ;;
esac
shift
if [ ! -d fuzz/corpus ]; then
    echo "make fuzz-all: run from the repository's root (no fuzz/corpus here)" >&2
    exit 2
fi
targets=${*:-$(ls fuzz/corpus)}
for target in $targets; do
    if [ ! -d "fuzz/corpus/$target" ]; then
        echo "make fuzz-all: no target \"$target\"; targets: $(ls fuzz/corpus | tr '\n' ' ')" >&2
        exit 2
    fi
done
dir=${FUZZ_DIR:-target/fuzz}

FUZZ_DRIVER=${FUZZ_DRIVER:-$(sh scripts/fuzz-build.sh)}
export FUZZ_DRIVER
FUZZ_NICE=${FUZZ_NICE:-19}
export FUZZ_NICE

stat_of() { # file key
    if [ -f "$1" ]; then
        awk -v key="$2" '$1 == key { print $3 }' "$1"
    else
        echo 0
    fi
}

summary=""
for target in $targets; do
    stats="$dir/$target/default/fuzzer_stats"
    crashes_before=$(stat_of "$stats" saved_crashes)
    hangs_before=$(stat_of "$stats" saved_hangs)
    echo "== $(date -u '+%H:%M:%S') fuzz-all: $target for $seconds s" >&2
    sh scripts/fuzz.sh "$target" "$seconds" "$dir/$target" >&2
    crashes=$(( $(stat_of "$stats" saved_crashes) - crashes_before ))
    hangs=$(( $(stat_of "$stats" saved_hangs) - hangs_before ))
    line=$(sh scripts/fuzz-report.sh summary "$dir" | grep "^$target: ")
    summary="$summary$line; this run: $crashes new crashes, $hangs new hangs
"
done

echo "== fuzz-all: $seconds s per target, figures in all runs of each folder ($dir)"
printf '%s' "$summary"
