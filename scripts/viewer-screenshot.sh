#!/usr/bin/env sh
# Renders a replay with the viewer and saves a 1280x800 screenshot of it from headless Chromium.
#
#   scripts/viewer-screenshot.sh [REPLAY.json [TURN [OUTPUT.png]]]
#
# Defaults: the sample replay viewer/tests/fixtures/sample-replay.json, turn 15, docs/viewer.png
# (the picture in the README). Needs chromium: scripts/install-chromium.sh. $CHROMIUM overrides
# the executable.
set -eu

root="$(cd "$(dirname "$0")/.." && pwd)"
replay="${1:-$root/viewer/tests/fixtures/sample-replay.json}"
turn="${2:-15}"
output="${3:-$root/docs/viewer.png}"
chromium="${CHROMIUM:-chromium}"

if ! command -v "$chromium" >/dev/null 2>&1; then
    echo "viewer-screenshot.sh: $chromium not found; install it with scripts/install-chromium.sh" >&2
    exit 1
fi

absolute() {
    case "$1" in
        /*) echo "$1" ;;
        *) echo "$(pwd)/$1" ;;
    esac
}
replay="$(absolute "$replay")"
output="$(absolute "$output")"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

(cd "$root" && cargo run --quiet -p viewer --example render -- "$replay" "$work/viewer.html")
mkdir -p "$(dirname "$output")"
rm -f "$output"

"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --hide-scrollbars --user-data-dir="$work/profile" --window-size=1280,800 \
    --virtual-time-budget=5000 --screenshot="$output" \
    "file://$work/viewer.html#turn=$turn" >"$work/chromium.log" 2>&1 || {
    cat "$work/chromium.log" >&2
    echo "viewer-screenshot.sh: chromium failed" >&2
    exit 1
}
[ -s "$output" ] || { echo "viewer-screenshot.sh: no screenshot written" >&2; exit 1; }
echo "wrote $output (turn $turn of $replay)"
