#!/usr/bin/env bash
# Racing pace of a bot with nobody in its way: it plays against the arena's test bot standing
# still (`testbot thrust=0`, which the 100-turn checkpoint rule removes at turn 100), and the
# script prints, per game, the checkpoints its best pod passed and the turns played, then the
# mean passes per 100 turns. A fast, noise-free check of the racing line, separate from fights.
#
#   scripts/race-pace.sh "target/release/csb --budget-ms 5 --first-budget-ms 50" [games] [seed]
#
# Run from anywhere; relative paths in the bot command are taken from the repository root. Needs
# `cargo build --release --workspace` (the arena and its test bot; $ARENA_DIR names another
# directory holding both, default target/release). games >= 1 (default 8),
# seed >= 0 (default 2). The arena's errors are shown as they are and end the script with its
# exit code; wrong arguments exit 2.
set -euo pipefail
fail() { echo "race-pace.sh: $*" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 3 ] || fail 'usage: race-pace.sh "BOT COMMAND" [games] [seed]'
BOT=$1
GAMES=${2:-8}
SEED=${3:-2}
case "$GAMES" in ''|*[!0-9]*|0) fail "games must be a whole number >= 1, got \"$GAMES\"" ;; esac
case "$SEED" in ''|*[!0-9]*) fail "seed must be a whole number >= 0, got \"$SEED\"" ;; esac
[ -n "${BOT// /}" ] || fail "the bot command is empty"
cd "$(dirname "$0")/.."
B=${ARENA_DIR:-target/release}
for binary in arena testbot; do
    [ -x "$B/$binary" ] || fail "$B/$binary is missing: run cargo build --release --workspace"
done
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
status=0
"$B/arena" match --p1 "$BOT" --p2 "$B/testbot thrust=0" --games "$GAMES" --seed "$SEED" \
    --threads 2 --time-scale 20 --out "$OUT" >"$OUT/report.txt" || status=$?
# The arena said why on stderr.
[ "$status" -eq 0 ] || exit "$status"
python3 - "$OUT" <<'PY'
import glob, json, sys
rates, games = [], []
for path in sorted(glob.glob(sys.argv[1] + "/*/*.json")):
    game = json.load(open(path))
    seat = 1 if "testbot" in game["players"][0]["command"] else 0
    turns = len(game["turns"])
    if turns == 0:  # eliminated on turn 1 (crash, timeout, invalid output): no pace to measure
        games.append("0/0")
        continue
    last = game["turns"][-1]["pods"]
    passes = max(last[2 * seat]["passes"], last[2 * seat + 1]["passes"])
    games.append(f"{passes}/{turns}")
    rates.append(100.0 * passes / turns)
print(" ".join(games))
if not rates:
    sys.exit("race-pace.sh: no game lasted a turn, so there is no pace to report")
print(f"passes per 100 turns: {sum(rates) / len(rates):.1f} over {len(rates)} games")
PY
