#!/usr/bin/env sh
# Installs Debian's headless-capable Chromium for the viewer's browser test (viewer/tests/browser.rs)
# and scripts/viewer-screenshot.sh. `make test` runs it first. Idempotent and quiet: does nothing
# when `$CHROMIUM` or `chromium` on PATH already runs. Needs apt-get and root (or sudo); without
# them it says so and exits 1, and the browser test then fails with the same advice.
set -eu

if [ -n "${CHROMIUM:-}" ] && "$CHROMIUM" --version >/dev/null 2>&1; then
    exit 0
fi
if command -v chromium >/dev/null 2>&1; then
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-chromium.sh: chromium is not installed and there is no apt-get to install it;" \
        "install Chromium yourself and set CHROMIUM to its path" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
        SUDO="sudo -n"
    else
        echo "install-chromium.sh: chromium is not installed and installing it needs root" \
            "(run as root: apt-get update && apt-get install -y chromium)" >&2
        exit 1
    fi
fi

echo "install-chromium.sh: installing Debian's chromium for the viewer's browser test" >&2
export DEBIAN_FRONTEND=noninteractive
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! { $SUDO apt-get update -qq && \
       $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "install-chromium.sh: apt-get failed" >&2
    exit 1
fi
command -v chromium >/dev/null 2>&1 || { echo "install-chromium.sh: chromium still not on PATH" >&2; exit 1; }
