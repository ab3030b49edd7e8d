#!/usr/bin/env python3
"""How far a search's root visits are from another search's of the same positions: the floor a
policy trained on those visits cannot go below. `python3 scripts/visit-noise.py CSB INPUT
ITERATIONS SEEDS [csb flags...]` runs the bot CSB on the recorded turn input INPUT at ITERATIONS
a turn once per seed 1..SEEDS (`--verbose 1`, candidate lines: arena/REPLAY_FORMAT.md), then,
for each of our two pods on each turn after the first, takes each seed's visit distribution
against the mean of the other seeds' (leave one out; no action below 1e-4) and prints the mean
cross-entropy beside the visits' own entropy and a uniform prior's (docs/learning.md)."""
import math
import subprocess
import sys


def fail(message, code=1):
    print(f"visit-noise: {message}", file=sys.stderr)
    sys.exit(code)


def root_visits(text):
    """Per turn, our pods' root visit counts: [{pod: [visits per action]}]."""
    turns, current = [], {}
    for line in text.splitlines():
        if line.startswith("turn ") and current:
            turns.append(current)
            current = {}
        words = line.split()
        if words[:1] != ["candidates/1"] or words[1] not in ("pod=0", "pod=1"):
            continue
        current[int(words[1][4:])] = [int(w.lstrip("*").split(":")[1].split("/")[0]) for w in words[2:]]
    if current:
        turns.append(current)
    return turns


if len(sys.argv) < 5 or not sys.argv[3].isdigit() or not sys.argv[4].isdigit() or int(sys.argv[4]) < 2:
    fail("usage: scripts/visit-noise.py CSB INPUT ITERATIONS SEEDS (at least 2) [csb flags...]", 2)
csb, path, iterations, seeds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
runs = []
for seed in range(1, seeds + 1):
    command = [csb, "--iterations", iterations, "--nodes", "100000", "--seed", str(seed), "--verbose", "1"]
    try:
        with open(path) as turn_input:
            done = subprocess.run(command + sys.argv[5:], stdin=turn_input, capture_output=True, text=True)
    except OSError as error:
        fail(f"cannot run {csb} on {path}: {error}")
    turns = root_visits(done.stderr)
    if done.returncode != 0 or not turns:
        last = (done.stderr.strip().splitlines() or ["no candidate lines"])[-1]
        fail(f"{csb} on {path} (seed {seed}) gave no root visits: {last}")
    runs.append(turns)
cross, entropy, count = 0.0, 0.0, 0
for turn in range(1, min(len(r) for r in runs)):
    for pod in (0, 1):
        visits = [r[turn].get(pod) for r in runs]
        if any(v is None or sum(v) == 0 for v in visits):
            continue
        shares = [[x / sum(v) for x in v] for v in visits]
        for i, own in enumerate(shares):
            others = [s for j, s in enumerate(shares) if j != i]
            mean = [max(sum(s[a] for s in others) / len(others), 1e-4) for a in range(len(own))]
            total = sum(mean)
            cross -= sum(p * math.log(q / total) for p, q in zip(own, mean) if p > 0)
            entropy -= sum(p * math.log(p) for p in own if p > 0)
            count += 1
if count == 0:
    fail(f"{path}: no turn after the first with both pods' visits in every seed")
print(f"positions {count // seeds} x {seeds} seeds: cross-entropy against the other seeds' mean "
      f"{cross / count:.4f}, the visits' own entropy {entropy / count:.4f}, uniform {math.log(10):.4f}")
