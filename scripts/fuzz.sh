#!/bin/sh
# Runs one fuzz target under AFL++ for a given time: `make fuzz TARGET=<name> SECONDS=<n>`, or
# `scripts/fuzz.sh TARGET SECONDS [OUT]`. Builds the driver `fuzz-afl` (scripts/fuzz-build.sh:
# installs cargo-afl if it is missing, instruments the driver in target/afl),
# seeds the run with the target's committed corpus (fuzz/corpus/TARGET) and dictionary
# (fuzz/dict/TARGET.dict, if any) and fuzzes into OUT
# (default target/fuzz/TARGET; a second run into the same OUT resumes it). AFL++'s figures are
# in OUT/default/fuzzer_stats (updated as it runs) and printed at the end; crashes land in
# OUT/default/crashes, hangs in OUT/default/hangs. See docs/reliability.md.
set -eu

target=${1:-}
seconds=${2:-}
out=${3:-target/fuzz/$target}
targets=$(ls fuzz/corpus | tr '\n' ' ')
if [ -z "$target" ] || [ ! -d "fuzz/corpus/$target" ]; then
    echo "make fuzz: TARGET must be one of: $targets(got \"$target\")" >&2
    exit 2
fi
case "$seconds" in
    '' | *[!0-9]*) echo "make fuzz: SECONDS must be a whole number of seconds (got \"$seconds\")" >&2; exit 2 ;;
esac

# FUZZ_DRIVER: an already built driver (`make fuzz-all` builds it once for every target).
driver=${FUZZ_DRIVER:-}
if [ -z "$driver" ]; then
    driver=$(sh scripts/fuzz-build.sh)
fi
# FUZZ_NICE: the fuzzer's niceness (default 0; `make fuzz-all` runs at 19).
nice_level=${FUZZ_NICE:-0}

mkdir -p "$out"
# A dictionary of the format's words (JSON keys, TOML tables), where the target has one.
dict=""
if [ -f "fuzz/dict/$target.dict" ]; then
    dict="-x fuzz/dict/$target.dict"
fi
echo "== fuzzing $target for $seconds s into $out" >&2
# No curses screen, no CPU pinning (a shared machine), no core-dump or CPU-governor demands
# on the machine's settings; a run into an existing OUT resumes. An input past the 1 s limit is
# run again with 5 s before it is saved as a hang: at niceness 19 on a busy machine, a wait for
# the CPU alone can pass 1 s of wall-clock time.
AFL_NO_UI=1 AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
AFL_AUTORESUME=1 AFL_HANG_TMOUT=5000 \
    nice -n "$nice_level" cargo afl fuzz -V "$seconds" -t 1000 $dict -i "fuzz/corpus/$target" \
    -o "$out" -- "$driver" "$target" || true

stats="$out/default/fuzzer_stats"
if [ ! -f "$stats" ]; then
    echo "make fuzz: AFL++ wrote no statistics ($stats)" >&2
    exit 1
fi
echo "== $target: AFL++ statistics ($stats)"
grep -E '^(run_time|execs_done|execs_per_sec|corpus_count|bitmap_cvg|edges_found|total_edges|saved_crashes|saved_hangs) ' "$stats"
crashes=$(find "$out/default/crashes" "$out/default/hangs" -type f -name 'id:*' 2>/dev/null | wc -l)
if [ "$crashes" -gt 0 ]; then
    echo "== $crashes crash(es) or hang(s) to fix, minimise with cargo afl tmin, keep in fuzz/regressions/$target/:"
    find "$out/default/crashes" "$out/default/hangs" -type f -name 'id:*'
fi
