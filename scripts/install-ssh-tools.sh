#!/usr/bin/env sh
# Installs what self-play over several hosts needs (scripts/selfplay-hosts.sh) and what its test
# (learn/tests/ssh_shards.rs) starts: Debian's openssh-server (sshd, run by the test on the
# loopback address with keys of its own, never as a service), openssh-client (ssh, ssh-keygen),
# GNU parallel and rsync. `make test` runs it first. Idempotent and quiet: does nothing when
# all of them are there (but create sshd's /run/sshd when root and it is missing). Needs apt-get and root (or sudo); without them it says so and exits 1,
# and the ssh test then fails with the same advice. Installing starts no sshd where a
# policy-rc.d forbids services (containers); elsewhere Debian's package enables its service,
# which the test does not use.
set -eu

PACKAGES="openssh-server openssh-client parallel rsync"

missing() {
    [ -x /usr/sbin/sshd ] || return 0
    for tool in ssh ssh-keygen parallel rsync; do
        command -v "$tool" >/dev/null 2>&1 || return 0
    done
    return 1
}

# sshd started by root needs its privilege-separation directory, which Debian's service creates
# at boot (/run is emptied then); the test's sshd is no service, so make it here.
privsep_dir() {
    if [ "$(id -u)" -eq 0 ] && [ ! -d /run/sshd ]; then
        mkdir -p -m 0755 /run/sshd
    fi
}

if ! missing; then
    privsep_dir
    exit 0
fi

# shellcheck disable=SC2086 # $PACKAGES is a word list
sh "$(dirname "$0")/apt-install.sh" install-ssh-tools.sh \
    "sshd, ssh, parallel or rsync, for the ssh self-play test" $PACKAGES
if missing; then
    echo "install-ssh-tools.sh: sshd, ssh, parallel or rsync still missing after apt-get" >&2
    exit 1
fi
privsep_dir
