#!/usr/bin/env sh
# Every league's bundle, as `make bundle` makes it (the Makefile's BUNDLE_STEPS, the league's row of
# Cargo.toml's [package.metadata.bundle.leagues]), compiled alone with Rust 1.70 (Cargo.toml's
# rust-version; CodinGame documents 1.90) as CodinGame compiles it: `rustc +1.70.0 --edition 2021
# -O`. `make lint` runs it. clippy's incompatible_msrv sees the crate's use of std but neither
# the language nor what the bundler's steps write (issue 51: `--prune` once made enums private
# behind `pub` fields, an error before Rust 1.74), so the real compiler checks the real file.
# Installs the toolchain with rustup (profile minimal) when it is missing. Toolchains other
# than 1.70.0: MSRV_TOOLCHAINS="1.70.0 1.90.0". Bundles and logs in target/msrv/.
set -eu
cd "$(dirname "$0")/.."
TOOLCHAINS=${MSRV_TOOLCHAINS:-1.70.0}
# The Makefile passes its own; run alone, the script writes the bundle the same way.
BUNDLE_STEPS=${BUNDLE_STEPS:---compact --prune --rename}
LEAGUES="wood3 wood2 wood1 bronze silver gold legend"
OUT=target/msrv

for toolchain in $TOOLCHAINS; do
    if ! rustup run "$toolchain" rustc --version >/dev/null 2>&1; then
        rustup toolchain install "$toolchain" --profile minimal
    fi
done
cargo build --quiet --release -p bundler
mkdir -p "$OUT"
failed=0
for league in $LEAGUES; do
    bundle="$OUT/$league.rs"
    if ! target/release/bundler --crate . --out "$bundle" --league "$league" $BUNDLE_STEPS \
        --max-chars 100000 >"$OUT/$league.log" 2>&1; then
        echo "msrv-bundles.sh: the $league bundle was not made: $(tail -n 1 "$OUT/$league.log")" >&2
        failed=1
        continue
    fi
    for toolchain in $TOOLCHAINS; do
        if rustc "+$toolchain" --edition 2021 -O --crate-name main -o "$OUT/$league-$toolchain" \
            "$bundle" >"$OUT/$league-$toolchain.log" 2>&1; then
            echo "msrv-bundles.sh: $league bundle ($(wc -m <"$bundle") characters) compiles with rustc $toolchain"
        else
            echo "msrv-bundles.sh: the $league bundle does not compile with rustc $toolchain: $(grep -m 1 '^error' "$OUT/$league-$toolchain.log") (all of it: $OUT/$league-$toolchain.log)" >&2
            failed=1
        fi
    done
done
exit "$failed"
