#!/usr/bin/env sh
# Installs Debian's headless-capable Chromium for the viewer's browser test (viewer/tests/browser.rs)
# and scripts/viewer-screenshot.sh. Idempotent and quiet: does nothing when chromium is already
# on PATH. Needs root (CI runs it as root; elsewhere it uses sudo when available).
set -eu

if command -v chromium >/dev/null 2>&1; then
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "install-chromium.sh: need root (or sudo) to run apt-get" >&2
        exit 1
    fi
fi

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
