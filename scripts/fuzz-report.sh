#!/bin/sh
# Reports the AFL++ runs of `make fuzz` / `make fuzz-all` from their own files, never by hand:
# each target's OUT/default/fuzzer_stats (time, executions, coverage, crashes, hangs) and
# OUT/default/plot_data (coverage over time: when the last new edge was found, and how many
# edges the last 10 minutes of fuzzing added).
#   scripts/fuzz-report.sh summary [DIR]  one line per target (`make fuzz-all` prints it)
#   scripts/fuzz-report.sh table [DIR]    the markdown table of docs/reliability.md
#   scripts/fuzz-report.sh doc [DIR]      rewrites that table in docs/reliability.md, between
#                                         its `fuzz-table` markers (`make fuzz-table`)
# DIR holds one AFL++ output folder per target (default $FUZZ_DIR, else target/fuzz). Targets never fuzzed are
# listed as such.
set -eu

mode=${1:-}
dir=${2:-${FUZZ_DIR:-target/fuzz}}
case "$mode" in
    summary | table | doc) ;;
    *) echo "fuzz-report: usage: scripts/fuzz-report.sh summary|table|doc [DIR] (got \"$mode\")" >&2; exit 2 ;;
esac
if [ ! -d fuzz/corpus ]; then
    echo "fuzz-report: run from the repository's root (no fuzz/corpus here)" >&2
    exit 2
fi

# A coverage change under this many seconds before the end of the run counts as still growing.
window_s=600

# One tab-separated record per target: name, then the figures, or the name alone if never run.
records() {
    for target in $(ls fuzz/corpus); do
        stats="$dir/$target/default/fuzzer_stats"
        plot="$dir/$target/default/plot_data"
        if [ ! -f "$stats" ]; then
            printf '%s\n' "$target"
            continue
        fi
        [ -f "$plot" ] || plot=/dev/null
        awk -v target="$target" -v window_s="$window_s" -v stats="$stats" '
            # plot_data: relative_time (s, counting earlier runs of a resumed folder) in
            # column 1, edges_found in column 13.
            FILENAME != stats && !/^#/ {
                split($0, f, /, */)
                n++; t[n] = f[1] + 0; e[n] = f[13] + 0
                next
            }
            FILENAME == stats {
                key = $1; sub(/^[^:]*: */, ""); value[key] = $0
            }
            END {
                run_s = value["run_time"] + 0
                last_new_s = -1; added = -1
                if (n > 0) {
                    end_t = t[n]; end_e = e[n]
                    for (i = 1; i <= n; i++) if (e[i] == end_e) { last_new_s = t[i]; break }
                    before = -1
                    for (i = n; i >= 1; i--) if (t[i] <= end_t - window_s) { before = e[i]; break }
                    if (before >= 0) added = end_e - before
                }
                printf "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\n", target, run_s,
                    value["execs_done"], value["corpus_count"], value["edges_found"],
                    value["total_edges"], value["bitmap_cvg"], value["saved_crashes"],
                    value["saved_hangs"], value["afl_version"], last_new_s, added
            }
        ' "$stats" "$plot"
    done
}

# The saved crashes and hangs of a target that still fail with the current driver ($FUZZ_DRIVER,
# else target/afl/release/fuzz-afl): "0" once all are fixed, "?" without a driver. A saved
# input that now runs clean (exit 0 within 10 s) was fixed, or failed for a reason outside the
# reader (docs/reliability.md says which).
open_failures() { # target
    driver=${FUZZ_DRIVER:-target/afl/release/fuzz-afl}
    if [ ! -x "$driver" ]; then
        echo "?"
        return
    fi
    failing=0
    for input in "$dir/$1/default/crashes"/id:* "$dir/$1/default/hangs"/id:*; do
        [ -f "$input" ] || continue
        if ! timeout 10 "$driver" "$1" < "$input" > /dev/null 2>&1; then
            failing=$((failing + 1))
        fi
    done
    echo "$failing"
}

# Growth over the last window: "no", "yes (+N)", or why it cannot be said.
growth() { # added run_s
    if [ "$1" -lt 0 ]; then
        echo "unknown (run under $(( (window_s + 60) / 60 )) min)"
    elif [ "$1" -eq 0 ]; then
        echo "no"
    else
        echo "yes (+$1)"
    fi
}

minutes() { awk -v s="$1" 'BEGIN { printf "%.1f", s / 60 }'; }
thousands() { printf '%s' "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }

table() {
    echo "| target | time fuzzed (min) | executions | exec/s | corpus | edges found (of instrumented) | map coverage | last new edge at (min) | coverage growing in the last 10 min | crashes saved | hangs saved | still failing now |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    records | while IFS="$(printf '\t')" read -r target run_s execs corpus edges total cvg crashes hangs version last_new_s added; do
        if [ -z "${run_s:-}" ]; then
            echo "| \`$target\` | not fuzzed | | | | | | | | | | |"
            continue
        fi
        per_s=0
        [ "$run_s" -gt 0 ] && per_s=$(( execs / run_s ))
        last_new="n/a"
        [ "$last_new_s" -ge 0 ] && last_new=$(minutes "$last_new_s")
        echo "| \`$target\` | $(minutes "$run_s") | $(thousands "$execs") | $(thousands "$per_s") | $corpus | $edges (of $total) | $cvg | $last_new | $(growth "$added") | $crashes | $hangs | $(open_failures "$target") |"
    done
}

case "$mode" in
    summary)
        records | while IFS="$(printf '\t')" read -r target run_s execs corpus edges total cvg crashes hangs version last_new_s added; do
            if [ -z "${run_s:-}" ]; then
                echo "$target: not fuzzed"
            else
                echo "$target: $(minutes "$run_s") min, $execs executions, $edges edges, $crashes crashes saved, $hangs hangs saved ($(open_failures "$target") still failing), growing in the last 10 min: $(growth "$added")"
            fi
        done
        ;;
    table) table ;;
    doc)
        doc=docs/reliability.md
        begin='<!-- fuzz-table: begin (scripts/fuzz-report.sh doc) -->'
        end='<!-- fuzz-table: end -->'
        if ! grep -qF "$begin" "$doc" || ! grep -qF "$end" "$doc"; then
            echo "fuzz-report: $doc has no fuzz-table markers" >&2
            exit 1
        fi
        new=$(mktemp)
        table > "$new.table"
        awk -v begin="$begin" -v end="$end" -v table="$new.table" '
            $0 == begin { print; while ((getline line < table) > 0) print line; skip = 1; next }
            $0 == end { skip = 0 }
            !skip { print }
        ' "$doc" > "$new"
        mv "$new" "$doc"
        rm -f "$new.table"
        echo "fuzz-report: $doc's table rewritten from $dir" >&2
        ;;
esac
