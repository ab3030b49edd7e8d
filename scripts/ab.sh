#!/usr/bin/env bash
# A/B two versions of the bot in the arena and print the arena's report.
#
# usage:
#   scripts/ab.sh [--rev-a REV] [--rev-b REV] [--flags-a "FLAGS"] [--flags-b "FLAGS"] [ARENA OPTIONS]
#
#   --rev-a / --rev-b REV   git revisions to build (each checked out with `git worktree add` into
#                           a temporary directory, built with `cargo build --release -p csb`, its
#                           binary copied, the worktree removed). Omitted: the current checkout's
#                           build (`cargo build --release -p csb`), uncommitted changes included.
#   --flags-a / --flags-b   bot flags for side A / B (default: none), e.g. "--iterations 1000 --depth 4".
#   ARENA OPTIONS           passed to `arena match`: --games N, --threads T, --seed S,
#                           --sprt ELO0 ELO1, --league gold|legend, --time-scale X, --json, --shard I/N,
#                           --out DIR (default /tmp/ab-replays, so no replay lands in the repository).
#
# A is the arena's p1: the report's win rate and Elo are A's.
#
# examples:
#   scripts/ab.sh --flags-a "--iterations 1000 --depth 4" --flags-b "--iterations 1000" --games 400 --threads 2
#   scripts/ab.sh --rev-a HEAD --rev-b HEAD~3 --flags-a "--budget-ms 5" --flags-b "--budget-ms 5" --sprt 0 30
set -euo pipefail

usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; }

rev_a="" rev_b="" flags_a="" flags_b=""
arena_args=()
out="/tmp/ab-replays"
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --rev-a) rev_a="$2"; shift 2 ;;
        --rev-b) rev_b="$2"; shift 2 ;;
        --flags-a) flags_a="$2"; shift 2 ;;
        --flags-b) flags_b="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --sprt) arena_args+=("$1" "$2" "$3"); shift 3 ;;
        --json) arena_args+=("$1"); shift ;;
        --games|--threads|--seed|--league|--time-scale|--shard) arena_args+=("$1" "$2"); shift 2 ;;
        *) echo "ab.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
done

repo="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
work="$(mktemp -d /tmp/ab.XXXXXX)"
worktrees=()
cleanup() {
    for tree in "${worktrees[@]+"${worktrees[@]}"}"; do
        git -C "$repo" worktree remove --force "$tree" >/dev/null 2>&1 || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

# The arena and, for sides without a revision, the bot: the current checkout.
(cd "$repo" && cargo build --release -q -p csb -p arena) >&2
cp "$repo/target/release/arena" "$work/arena"

# build SIDE REV: leaves the bot binary in $work/csb-SIDE.
build() {
    local side="$1" rev="$2"
    if [ -z "$rev" ]; then
        cp "$repo/target/release/csb" "$work/csb-$side"
        return
    fi
    local commit tree="$work/tree-$side"
    commit="$(git -C "$repo" rev-parse --verify "$rev^{commit}")"
    echo "ab.sh: building $side = $rev ($commit)" >&2
    git -C "$repo" worktree add --detach -q "$tree" "$commit" >&2
    worktrees+=("$tree")
    # Revisions share one target directory: the second build reuses what it can.
    (cd "$tree" && CARGO_TARGET_DIR="$work/target" cargo build --release -q -p csb) >&2
    cp "$work/target/release/csb" "$work/csb-$side"
}
build a "$rev_a"
build b "$rev_b"

echo "ab.sh: A = ${rev_a:-current build} $flags_a" >&2
echo "ab.sh: B = ${rev_b:-current build} $flags_b" >&2
"$work/arena" match --p1 "$work/csb-a $flags_a" --p2 "$work/csb-b $flags_b" \
    --out "$out" "${arena_args[@]+"${arena_args[@]}"}"
