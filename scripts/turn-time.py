#!/usr/bin/env python3
"""Measures the bot's turn time from outside the process, as a referee would.

For each turn: the time from writing the turn's first input line to reading the bot's second
output line (flushed). The first turn (1000 ms limit on CodinGame) is reported apart.

Usage: scripts/turn-time.py [--games N] [--busy] [--input FILE] [-- BOT ARGS...]
  --busy   keep the other core busy with a spinning process while measuring
"""
import argparse
import multiprocessing
import os
import subprocess
import sys
import time


def spin():
    while True:
        pass


def play(bot, input_path):
    lines = open(input_path).read().splitlines()
    header = 2 + int(lines[1])
    init, turns = lines[:header], lines[header:]
    proc = subprocess.Popen(bot, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    proc.stdin.write("\n".join(init) + "\n")
    proc.stdin.flush()
    times = []
    for start in range(0, len(turns) - 3, 4):
        began = time.perf_counter()
        proc.stdin.write("\n".join(turns[start:start + 4]) + "\n")
        proc.stdin.flush()
        for _ in range(2):
            if not proc.stdout.readline():
                raise SystemExit(f"bot stopped answering at turn {start // 4 + 1}")
        times.append((time.perf_counter() - began) * 1000.0)
    proc.stdin.close()
    proc.wait()
    return times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--busy", action="store_true")
    parser.add_argument("--input", default="replays/inputs/cg-demo.p0.txt")
    parser.add_argument("bot", nargs="*", default=["target/release/csb"])
    args = parser.parse_args()
    spinner = None
    if args.busy:
        spinner = multiprocessing.Process(target=spin, daemon=True)
        spinner.start()
    first, later = [], []
    try:
        for _ in range(args.games):
            times = play(args.bot, args.input)
            first.append(times[0])
            later.extend(times[1:])
    finally:
        if spinner:
            spinner.terminate()
    later.sort()
    p99 = later[min(len(later) - 1, int(0.99 * len(later)))]
    print(f"turn-time: games={args.games} busy={args.busy} turns={len(later)} "
          f"median_ms={later[len(later) // 2]:.2f} p99_ms={p99:.2f} max_ms={later[-1]:.2f} "
          f"first_turn_max_ms={max(first):.1f} over_60ms={sum(t > 60 for t in later)}")


if __name__ == "__main__":
    main()
