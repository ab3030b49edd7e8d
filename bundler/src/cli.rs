//! Command-line flags of the `bundler` binary. Parsing only; `main.rs` turns them into the
//! steps of a run.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{ArgGroup, Parser};
use csb::engine::League;
use tool_cli::at_least_one;

/// Flattens a Cargo crate (its `lib.rs` module tree plus one binary) into one Rust file that
/// CodinGame can compile, then checks it.
#[derive(Debug, Parser)]
#[command(name = "bundler", version)]
#[command(group(ArgGroup::new("compare_source").args(["compare_input", "league"]).multiple(true)))]
#[command(group(ArgGroup::new("game_users").args(["reference", "check_debug"]).multiple(true)))]
pub struct Cli {
    /// Directory holding the crate's Cargo.toml (a workspace root whose root package is the
    /// crate works too).
    #[arg(long = "crate", value_name = "DIR", default_value = ".")]
    pub crate_dir: PathBuf,

    /// Where to write the bundle. Written only when every requested check passes; a rejected
    /// bundle goes to `<out>.rejected` for inspection.
    #[arg(long, value_name = "FILE", default_value = "dist/main.rs")]
    pub out: PathBuf,

    /// Binary target to bundle when the crate has several.
    #[arg(long, value_name = "NAME")]
    pub bin: Option<String>,

    /// League the bundle plays (protocol, actions, thrust cap); rewrites the marked constant (see
    /// --league-const). Without this flag the constant is left as written. The crate's
    /// `[package.metadata.bundle.leagues]` row of the league gives the --features and
    /// --compare-input that are not given.
    #[arg(long, value_parser = league_name())]
    pub league: Option<League>,

    /// Name of the marked constant: exactly one `pub const <NAME>: League = League::<Variant>;`
    /// must exist when --league is given.
    #[arg(long, value_name = "NAME", default_value = "BUNDLED_LEAGUE")]
    pub league_const: String,

    /// Cargo features on in the bundle, comma-separated (e.g. `two-pod`): code behind
    /// `cfg(feature = "..")` is kept for these and removed for every other feature, so the
    /// bundle holds what `cargo build --no-default-features --features LIST` compiles. Each must
    /// be a feature of the crate. Not given: the --league's row of the crate's league table, else
    /// every feature off.
    #[arg(long, value_name = "LIST")]
    pub features: Option<String>,

    /// Rewrite the bundle from its own tokens with only the spaces they need, on rustfmt's lines
    /// and without indentation (`let x=a+b;`); checked to lex to the same tokens.
    #[arg(long)]
    pub compact: bool,

    /// Remove the functions, methods, constants, statics, aliases, macros and `use` names that
    /// the bundle's own `main` never reaches, as rustc's unused-code warnings name them (every
    /// `pub` item counted as crate-visible); needs --rustc.
    #[arg(long)]
    pub prune: bool,

    /// Give the names the bundle defines short new ones (`a`, `B`, `cd`), the most frequent the
    /// shortest, checked with rounds of --rustc: what std also names and the build needs stays.
    #[arg(long)]
    pub rename: bool,

    /// A compile-time variable `NAME=VALUE` for the check build only (repeatable): the compile
    /// check and the comparison run rustc with it set, so a bundle without flags can read fixed
    /// settings with `option_env!` (csb: `CSB_ITERATIONS`, `CSB_SEED`). The bundle written is the
    /// same text; CodinGame compiles it without them.
    #[arg(long = "check-env", value_name = "NAME=VALUE", value_parser = name_value)]
    pub check_env: Vec<(String, String)>,

    /// Limit on the bundle's characters and on its UTF-16 units, the larger of the two counting
    /// (CodinGame's is 100,000 characters), at least 1.
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = at_least_one::<usize>)]
    pub max_chars: usize,

    /// Indent with tabs instead of four spaces (same code, fewer characters).
    #[arg(long)]
    pub tabs: bool,

    /// Remove every line's indentation (not inside multi-line strings): about 13% fewer
    /// characters, the same tokens.
    #[arg(long)]
    pub flat: bool,

    /// Compile the bundle alone with `<rustc> --edition 2021 -O` in an empty directory.
    #[arg(long)]
    pub check_compile: bool,

    /// The compiler command for --check-compile, split on spaces (e.g. "rustc +1.70.0").
    #[arg(long, value_name = "CMD", default_value = "rustc")]
    pub rustc: String,

    /// Reference binary whose stdout the compiled bundle must reproduce (needs --compare-input,
    /// or a --league whose row in the crate's league table names one; implies --check-compile).
    #[arg(long, value_name = "BIN", requires = "compare_source")]
    pub reference: Option<PathBuf>,

    /// Recorded input fed on stdin to both the bundle and the reference binary, and played by
    /// --check-debug (not given: the --league's row of the crate's league table names it,
    /// relative to --crate).
    #[arg(long, value_name = "FILE", requires = "game_users")]
    pub compare_input: Option<PathBuf>,

    /// Arguments for both programs in the comparison, split on whitespace
    /// (e.g. "--iterations 2000 --seed 1").
    #[arg(
        long,
        value_name = "ARGS",
        default_value = "",
        allow_hyphen_values = true
    )]
    pub args: String,

    /// Arguments given to the reference binary only, after --args (e.g. "--league gold", so that
    /// the reference plays the league the bundle was built for while the bundle runs on its
    /// built-in league).
    #[arg(
        long,
        value_name = "ARGS",
        default_value = "",
        allow_hyphen_values = true
    )]
    pub reference_args: String,

    /// Compile the bundle as CodinGame's IDE does (`<rustc> --edition 2021` without -O: overflow
    /// checks and debug assertions on), without the --check-env variables (so it plays by the
    /// clock), and play it the recorded game (--compare-input or the league's) turn by turn, by
    /// the --league's protocol, to the end: every turn answered, no panic, exit 0.
    #[arg(long, requires = "league")]
    pub check_debug: bool,

    /// Seconds each program may run in the comparison before it is killed, at least 1.
    #[arg(long, value_name = "SECS", default_value_t = 120, value_parser = at_least_one::<u64>)]
    pub timeout: u64,
}

/// `NAME=VALUE` with a non-empty NAME.
fn name_value(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
        _ => Err(format!("expected NAME=VALUE, got {text:?}")),
    }
}

/// `--league`: a league's name as csb spells it (`gold`), listed in `--help`.
fn league_name() -> impl TypedValueParser<Value = League> {
    PossibleValuesParser::new(League::ALL.map(League::name))
        .map(|name| League::parse(&name).expect("a listed league parses"))
}
