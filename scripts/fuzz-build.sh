#!/bin/sh
# Builds the AFL++ driver for `make fuzz` and `make fuzz-all`: installs cargo-afl if it is
# missing (it builds AFL++ from source with the C compiler; no clang needed, rustc instruments
# the code), then builds `fuzz-afl` with AFL++'s instrumentation in target/afl (apart from the
# normal build) and prints its path. See docs/reliability.md.
set -eu

if ! cargo afl --version >/dev/null 2>&1; then
    echo "== installing cargo-afl (builds AFL++; a few minutes)" >&2
    cargo install cargo-afl --locked >&2
fi
# cargo-afl's install normally builds AFL++ already; build it if not, keep it if it is there.
if ! config=$(cargo afl config --build 2>&1) && ! echo "$config" | grep -q "already built"; then
    echo "$config" >&2
    echo "fuzz: cargo afl config --build failed" >&2
    exit 1
fi

# Optimised, but with the checks the debug build of `make test` has: an integer overflow or a
# failed debug assertion is a crash here as it is there.
CARGO_TARGET_DIR=target/afl CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true \
CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS=true \
    cargo afl build --release -p fuzz --features afl --bin fuzz-afl >&2

echo target/afl/release/fuzz-afl
