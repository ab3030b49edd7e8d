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

sh "$(dirname "$0")/apt-install.sh" install-chromium.sh "chromium, for the viewer's browser test" \
    chromium fonts-dejavu-core
command -v chromium >/dev/null 2>&1 || { echo "install-chromium.sh: chromium still not on PATH" >&2; exit 1; }
