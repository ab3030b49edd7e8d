#!/usr/bin/env sh
# Installs Debian packages for a test's tools: `scripts/apt-install.sh CALLER "WHAT" PACKAGE...`.
# The one place the install scripts (install-chromium.sh, install-ssh-tools.sh) use apt-get: root
# or passwordless sudo, quiet unless apt-get fails (then its log), non-interactive. Without
# apt-get or root it says what to run, naming CALLER and WHAT, and exits 1.
set -eu

caller=$1
what=$2
shift 2

if ! command -v apt-get >/dev/null 2>&1; then
    echo "$caller: $what is missing and there is no apt-get to install it; install $* yourself" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
        SUDO="sudo -n"
    else
        echo "$caller: $what is missing and installing it needs root" \
            "(run as root: apt-get update && apt-get install -y $*)" >&2
        exit 1
    fi
fi

echo "$caller: installing Debian's $* ($what)" >&2
export DEBIAN_FRONTEND=noninteractive
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# shellcheck disable=SC2086 # $SUDO is a word list
if ! { $SUDO apt-get update -qq && \
       $SUDO apt-get install -y -qq --no-install-recommends "$@"; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "$caller: apt-get failed" >&2
    exit 1
fi
