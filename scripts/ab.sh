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
#                           --sprt ELO0 ELO1, --league L, --time-scale X, --json, --shard I/N,
#                           --out DIR (default $TMPDIR/ab-replays, so no replay lands in the repository).
#                           --league goes to both bots too (unless their flags name one).
#
# A is the arena's p1: the report's win rate and Elo are A's. The bots are copied to
# $TMPDIR/ab-bots (default /tmp) under their revision's hash, or the build's sha256, so shards of
# one A/B run anywhere carry the same commands and `arena merge` accepts them.
#
# examples:
#   scripts/ab.sh --flags-a "--iterations 1000 --depth 4" --flags-b "--iterations 1000" --games 400 --threads 2
#   scripts/ab.sh --rev-a HEAD --rev-b HEAD~3 --flags-a "--budget-ms 5" --flags-b "--budget-ms 5" --sprt 0 30
set -euo pipefail

usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//'; }
fail() { echo "ab.sh: $*" >&2; exit 2; }
# need N OPTION ARGS...: OPTION has at least N values after it.
need() { [ "$(( $# - 2 ))" -ge "$1" ] || fail "$2 needs $1 value(s) (ab.sh --help)"; }

tmp="${TMPDIR:-/tmp}"
rev_a="" rev_b="" flags_a="" flags_b="" league=""
arena_args=()
out="$tmp/ab-replays"
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --rev-a) need 1 "$@"; rev_a="$2"; shift 2 ;;
        --rev-b) need 1 "$@"; rev_b="$2"; shift 2 ;;
        --flags-a) need 1 "$@"; flags_a="$2"; shift 2 ;;
        --flags-b) need 1 "$@"; flags_b="$2"; shift 2 ;;
        --out) need 1 "$@"; out="$2"; shift 2 ;;
        --sprt) need 2 "$@"; arena_args+=("$1" "$2" "$3"); shift 3 ;;
        --json) arena_args+=("$1"); shift ;;
        --league) need 1 "$@"; league="$2"; arena_args+=("$1" "$2"); shift 2 ;;
        --games|--threads|--seed|--time-scale|--shard) need 1 "$@"; arena_args+=("$1" "$2"); shift 2 ;;
        *) fail "unknown option $1 (ab.sh --help)" ;;
    esac
done

repo="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
# Revisions are checked before anything is built.
commit_a="" commit_b=""
for side in a b; do
    eval "rev=\$rev_$side"
    [ -z "$rev" ] && continue
    commit="$(git -C "$repo" rev-parse --verify --quiet "$rev^{commit}")" ||
        fail "--rev-$side $rev is not a revision of $repo"
    eval "commit_$side=\$commit"
done
# The league reaches the bots too, unless their flags already name one.
if [ -n "$league" ]; then
    case " $flags_a " in *" --league "*) ;; *) flags_a="${flags_a:+$flags_a }--league $league" ;; esac
    case " $flags_b " in *" --league "*) ;; *) flags_b="${flags_b:+$flags_b }--league $league" ;; esac
fi
bots="$tmp/ab-bots"
mkdir -p "$bots"
work="$(mktemp -d "$tmp/ab.XXXXXX")"
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

# keep SIDE FILE ID: copies the bot to $bots/csb-ID (atomically) and names it as side SIDE.
keep() {
    local side="$1" file="$2" id="$3"
    if [ ! -x "$bots/csb-$id" ]; then
        cp "$file" "$work/csb-copy" && mv -f "$work/csb-copy" "$bots/csb-$id"
    fi
    eval "bot_$side=\$bots/csb-\$id"
}

# build SIDE REV COMMIT: the bot of side SIDE, built from COMMIT (or the current checkout).
build() {
    local side="$1" rev="$2" commit="$3"
    if [ -z "$rev" ]; then
        keep "$side" "$repo/target/release/csb" \
            "build-$(sha256sum "$repo/target/release/csb" | cut -c1-16)"
        return
    fi
    if [ -x "$bots/csb-$commit" ]; then
        echo "ab.sh: $side = $rev ($commit), built before" >&2
        keep "$side" "$bots/csb-$commit" "$commit"
        return
    fi
    local tree="$work/tree-$side"
    echo "ab.sh: building $side = $rev ($commit)" >&2
    git -C "$repo" worktree add --detach -q "$tree" "$commit" >&2
    worktrees+=("$tree")
    # Revisions share one target directory: the second build reuses what it can.
    (cd "$tree" && CARGO_TARGET_DIR="$work/target" cargo build --release -q -p csb) >&2
    keep "$side" "$work/target/release/csb" "$commit"
}
build a "$rev_a" "$commit_a"
build b "$rev_b" "$commit_b"

echo "ab.sh: A = ${rev_a:-current build} $flags_a" >&2
echo "ab.sh: B = ${rev_b:-current build} $flags_b" >&2
"$work/arena" match --p1 "$bot_a $flags_a" --p2 "$bot_b $flags_b" \
    --out "$out" "${arena_args[@]+"${arena_args[@]}"}"
