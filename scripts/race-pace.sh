#!/usr/bin/env bash
# Racing pace of a bot with nobody in its way: it plays against the arena's test bot standing
# still (`testbot thrust=0`, which the 100-turn checkpoint rule removes at turn 100), and the
# script prints, per game, the checkpoints its best pod passed and the turns played, then the
# mean passes per 100 turns. A fast, noise-free check of the racing line, separate from fights.
#
#   scripts/race-pace.sh "target/release/csb --budget-ms 5 --first-budget-ms 50" [games] [seed]
set -euo pipefail
BOT=${1:?usage: race-pace.sh "BOT COMMAND" [games] [seed]}
GAMES=${2:-8}
SEED=${3:-2}
B=target/release
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
"$B/arena" match --p1 "$BOT" --p2 "$B/testbot thrust=0" --games "$GAMES" --seed "$SEED" \
    --threads 2 --time-scale 20 --out "$OUT" >/dev/null 2>&1
python3 - "$OUT" <<'PY'
import glob, json, sys
rates, games = [], []
for path in sorted(glob.glob(sys.argv[1] + "/*/*.json")):
    game = json.load(open(path))
    seat = 1 if "testbot" in game["players"][0]["command"] else 0
    last = game["turns"][-1]["pods"]
    passes = max(last[2 * seat]["passes"], last[2 * seat + 1]["passes"])
    turns = len(game["turns"])
    games.append(f"{passes}/{turns}")
    rates.append(100.0 * passes / turns)
print(" ".join(games))
print(f"passes per 100 turns: {sum(rates) / len(rates):.1f} over {len(rates)} games")
PY
