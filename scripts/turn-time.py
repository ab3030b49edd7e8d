#!/usr/bin/env python3
"""Measures the bot's turn time from outside the process, as a referee would.

For each turn: the time from writing the turn's first input line to reading the bot's second
output line (flushed). The first turn (1000 ms limit on CodinGame) is reported apart.

Usage: scripts/turn-time.py [--games N] [--busy] [--input FILE] [-- BOT COMMAND...]
  --games N     games to play, at least 1 (default 8)
  --busy        keep the other core busy with a spinning process while measuring
  --input FILE  the recorded stdin to replay (default replays/inputs/cg-demo.p0.txt)
  BOT COMMAND   the whole command, e.g. `-- target/release/csb --budget-ms 40`
                (default target/release/csb)
Relative paths are taken from the repository root, so it runs from anywhere. The spinner and the
bot are stopped on SIGINT and SIGTERM too.
"""
import argparse
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def spin():
    while True:
        pass


def fail(message):
    print(f"turn-time.py: {message}", file=sys.stderr)
    sys.exit(2)


def play(bot, input_path, running):
    lines = open(input_path).read().splitlines()
    try:
        header = 2 + int(lines[1])
    except (IndexError, ValueError):
        fail(f"{input_path} does not start with the laps and checkpoint count lines")
    init, turns = lines[:header], lines[header:]
    if len(turns) < 4:
        fail(f"{input_path} has no turn to play")
    # A file, not a pipe, for the bot's stderr: nobody reads it during the game.
    diagnostics = tempfile.TemporaryFile(mode="w+")
    try:
        proc = subprocess.Popen(bot, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=diagnostics, text=True, bufsize=1)
    except OSError as error:
        fail(f"cannot start {' '.join(bot)}: {error.strerror}")
    running.append(proc)
    times = []
    try:
        proc.stdin.write("\n".join(init) + "\n")
        proc.stdin.flush()
        for start in range(0, len(turns) - 3, 4):
            began = time.perf_counter()
            proc.stdin.write("\n".join(turns[start:start + 4]) + "\n")
            proc.stdin.flush()
            for _ in range(2):
                if not proc.stdout.readline():
                    raise BrokenPipeError
            times.append((time.perf_counter() - began) * 1000.0)
        proc.stdin.close()
    except BrokenPipeError:
        proc.kill()
        proc.wait()
        diagnostics.seek(0)
        said = [line for line in diagnostics.read().splitlines() if line.strip()]
        head = f": {said[0]}" if said else ""
        fail(f"the bot stopped answering at turn {len(times) + 1} (exit {proc.wait()}){head}")
    proc.wait()
    running.remove(proc)
    diagnostics.close()
    return times


def main():
    doc = __doc__.split("\n\n")
    parser = argparse.ArgumentParser(description=doc[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n\n".join(doc[1:]))
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--busy", action="store_true")
    parser.add_argument("--input", default="replays/inputs/cg-demo.p0.txt")
    parser.add_argument("bot", nargs="*", default=["target/release/csb"])
    args = parser.parse_args()
    if args.games < 1:
        fail(f"--games must be at least 1, got {args.games}")
    input_path = os.path.join(ROOT, args.input)
    if not os.path.isfile(input_path):
        fail(f"no input file {args.input}")
    bot = list(args.bot)
    if "/" in bot[0] and not os.path.isabs(bot[0]):
        bot[0] = os.path.join(ROOT, bot[0])

    running = []
    spinner = None

    parent = os.getpid()

    def stop(signum, _frame):
        # Stop at once, whatever the main thread was in: an exception raised here could be lost
        # inside the standard library's child handling (a SIGTERM once left the script playing
        # on). The spinner, a fork, has this handler too and only leaves.
        if os.getpid() == parent:
            for proc in running:
                try:
                    proc.kill()
                except OSError:
                    pass
            if spinner is not None:
                try:
                    spinner.kill()
                except (OSError, ValueError):
                    pass
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if args.busy:
        spinner = multiprocessing.Process(target=spin, daemon=True)
        spinner.start()
    first, later = [], []
    try:
        for _ in range(args.games):
            times = play(bot, input_path, running)
            first.append(times[0])
            later.extend(times[1:])
    finally:
        if spinner:
            spinner.terminate()
            spinner.join()
        for proc in running:
            proc.kill()
            proc.wait()
    if not later:
        fail(f"{args.input} has only one turn: nothing after the first to measure")
    later.sort()
    p99 = later[min(len(later) - 1, int(0.99 * len(later)))]
    print(f"turn-time: games={args.games} busy={args.busy} turns={len(later)} "
          f"median_ms={later[len(later) // 2]:.2f} p99_ms={p99:.2f} max_ms={later[-1]:.2f} "
          f"first_turn_max_ms={max(first):.1f} over_60ms={sum(t > 60 for t in later)}")


if __name__ == "__main__":
    main()
