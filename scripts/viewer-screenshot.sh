#!/usr/bin/env sh
# Renders a replay with the viewer and saves a 1280x800 screenshot of it from headless Chromium.
#
#   scripts/viewer-screenshot.sh [REPLAY.json [TURN [OUTPUT.png]]]
#
# Defaults: the sample replay viewer/tests/fixtures/sample-replay.json, turn 15, docs/viewer.png
# (the picture in the README). TURN is a whole number from 0 to the replay's last turn. Needs
# chromium: scripts/install-chromium.sh. $CHROMIUM overrides the executable. OUTPUT is replaced
# only by a finished screenshot: a failure leaves it as it was.
set -eu

fail() { echo "viewer-screenshot.sh: $*" >&2; exit 2; }

root="$(cd "$(dirname "$0")/.." && pwd)"
replay="${1:-$root/viewer/tests/fixtures/sample-replay.json}"
turn="${2:-15}"
output="${3:-$root/docs/viewer.png}"
chromium="${CHROMIUM:-chromium}"

case "$turn" in
    ''|*[!0-9]*) fail "TURN must be a whole number >= 0, got \"$turn\"" ;;
esac
[ -f "$replay" ] || fail "no replay file $replay"
last_turn="$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["turns"]))' \
    "$replay" 2>/dev/null)" || fail "$replay is not a replay (no \"turns\" list in its JSON)"
[ "$turn" -le "$last_turn" ] || fail "TURN must be in 0..$last_turn for $replay, got $turn"

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
# Chromium writes into the work directory; the picture replaces OUTPUT only once it exists.
shot="$work/screenshot.png"

"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --hide-scrollbars --user-data-dir="$work/profile" --window-size=1280,800 \
    --virtual-time-budget=5000 --screenshot="$shot" \
    "file://$work/viewer.html#turn=$turn" >"$work/chromium.log" 2>&1 || {
    cat "$work/chromium.log" >&2
    echo "viewer-screenshot.sh: chromium failed" >&2
    exit 1
}
[ -s "$shot" ] || { echo "viewer-screenshot.sh: no screenshot written" >&2; exit 1; }
mv -f "$shot" "$output"
echo "wrote $output (turn $turn of $replay)"
