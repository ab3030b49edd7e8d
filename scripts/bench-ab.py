#!/usr/bin/env python3
"""Compares bench binaries on a noisy machine: runs them interleaved, pinned to one core, and
prints for every timed line the median and the best figure of each binary over the rounds.

A difference between builds is worth believing only when it shows in both columns; a shared host
moves single runs by 10% and more, which is why one run of each is not a comparison.

Usage: scripts/bench-ab.py [--rounds N] [--cpu C] BENCH_A BENCH_B [...] [-- BENCH ARGS...]
  BENCH_X     bench binaries (copy target/release/examples/bench aside after each build)
  --rounds N  rounds of one run of each binary (default 5)
  --cpu C     core to pin to with taskset (default 1)
  BENCH ARGS  passed to every run, e.g. `-- --engine` or `-- --expand-after 10`

Example:
  cargo build --release --example bench && cp target/release/examples/bench /tmp/bench-new
  scripts/bench-ab.py /tmp/bench-old /tmp/bench-new -- --engine
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

# A timed line's label (everything before its figure) and its figure.
FIGURE = re.compile(
    r"^(?P<label>.*?)(?P<key>ns_per_turn|ns_per_simulated_turn|simulated_turns_per_turn)="
    r"(?P<value>[0-9.]+)")


def fail(message):
    print(f"bench-ab: {message}", file=sys.stderr)
    sys.exit(2)


def figures(binary, cpu, args):
    """The timed figures one run of `binary` prints; exits with the reason when it fails."""
    try:
        run = subprocess.run(["taskset", "-c", str(cpu), binary] + args,
                             capture_output=True, text=True)
    except OSError as error:
        fail(f"cannot run taskset: {error.strerror}")
    if run.returncode != 0:
        said = [line for line in run.stderr.splitlines() if line.strip()]
        why = said[0] if said else "no message on stderr"
        fail(f"{' '.join([binary] + args)} exited with status {run.returncode}: {why}")
    output = run.stdout
    found = {}
    for line in output.splitlines():
        match = FIGURE.match(line)
        if match and "clock=" not in line:
            found[match.group("label") + match.group("key")] = float(match.group("value"))
    return found


def main():
    argv = sys.argv[1:]
    bench_args = []
    if "--" in argv:
        split = argv.index("--")
        argv, bench_args = argv[:split], argv[split + 1:]
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     usage=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cpu", type=int, default=1)
    parser.add_argument("binaries", nargs="+")
    options = parser.parse_args(argv)
    if options.rounds < 1:
        fail(f"--rounds must be at least 1, got {options.rounds}")
    if options.cpu < 0:
        fail(f"--cpu must be a core number >= 0, got {options.cpu}")
    for binary in options.binaries:
        if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            fail(f"{binary} is not an executable file")

    results = {binary: {} for binary in options.binaries}
    labels = []
    for round_index in range(options.rounds):
        for binary in options.binaries:
            found = figures(binary, options.cpu, bench_args)
            if not found:
                fail(f"{' '.join([binary] + bench_args)} printed no timed figure "
                     "(ns_per_turn=, ns_per_simulated_turn=, simulated_turns_per_turn=)")
            for label, value in found.items():
                if label not in labels:
                    labels.append(label)
                results[binary].setdefault(label, []).append(value)
        print(f"round {round_index + 1}/{options.rounds} done", file=sys.stderr)

    # Higher is better only for the turns-per-turn figure.
    width = max(len(label) for label in labels) if labels else 0
    print(f"{'':{width}}  " + "  ".join(f"{b[-18:]:>20}" for b in options.binaries))
    for label in labels:
        best = max if label.endswith("simulated_turns_per_turn") else min
        cells = []
        for binary in options.binaries:
            values = results[binary].get(label, [])
            if values:
                cells.append(f"{statistics.median(values):9.1f} /{best(values):9.1f}")
            else:
                cells.append(f"{'-':>20}")
        print(f"{label:{width}}  " + "  ".join(cells))
    print(f"(median / best of {options.rounds} rounds)")


if __name__ == "__main__":
    main()
