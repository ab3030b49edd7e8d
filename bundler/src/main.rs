//! `bundler`: flattens the `csb` crate (its `lib.rs` module tree and `main.rs`) into one file
//! that CodinGame can compile, with `rust_bundler_cp` doing the expansion, then checks it:
//! size, std only, compiles alone, and (optionally) prints what the cargo-built bot prints.
//!
//! The steps, one module each: `modtree` (read the module tree as rustc does), `stage` (a
//! private copy laid out so the library reads the same files), `league_table` (the crate's row
//! for `--league`: features, recorded game), `expand` (the library itself),
//! `attrs` (inner attributes it drops), `strip` (tests, docs, false `cfg`s: the features not
//! asked for), `league_marker` (the bundle-time league), `prune`, `prune_derives` and `prune_visibility` (`--prune`: what rustc finds unused), `rename` with `name_pool` and `format_strings` (`--rename`: short names), `pretty` (prettyplease + rustfmt),
//! `unindent` (`--flat`) or `compact` (`--compact`), then the checks `size` (with the table per
//! module), `std_only`, `compile`, `compare` and `debug_build` (`--check-debug`: as CodinGame's
//! IDE builds it).

mod attrs;
mod cli;
mod compact;
mod compare;
mod compile;
mod debug_build;
mod error;
mod expand;
mod format_strings;
mod league_marker;
mod league_table;
mod modtree;
mod name_pool;
mod pretty;
mod prune;
mod prune_derives;
mod prune_visibility;
mod rename;
mod size;
mod source;
mod stage;
mod std_only;
mod strip;
mod tunable_tables;
mod unindent;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cli::Cli;
use crate::compile::Profile;
use crate::error::{input, Result};

/// `println!` that ignores a closed stdout (e.g. `| head`) instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

fn main() {
    // A usage error is one line and exit code 2 (`tool_cli`), help and version go to stdout.
    let cli = match tool_cli::parse_args::<Cli>("bundler") {
        Ok(cli) => cli,
        Err(message) => {
            eprintln!("bundler: error: {message}");
            std::process::exit(2);
        }
    };
    match run(&cli) {
        Ok(()) => {}
        Err(e) => {
            eprintln!("bundler: error: {e}");
            std::process::exit(e.exit_code());
        }
    }
}

fn run(cli: &Cli) -> Result<()> {
    let staged = stage::stage(&cli.crate_dir, cli.bin.as_deref())?;
    let league_row = match cli.league {
        Some(league) => league_table::row(&staged.metadata, league)?,
        None => league_table::LeagueBundle::default(),
    };
    let compare_input = match (&cli.compare_input, &league_row.compare_input) {
        (Some(given), _) => Some(given.clone()),
        (None, Some(from_table)) => Some(cli.crate_dir.join(from_table)),
        (None, None) => None,
    };
    for (flag, wanted) in [
        ("--reference", cli.reference.is_some()),
        ("--check-debug", cli.check_debug),
    ] {
        if wanted && compare_input.is_none() {
            return Err(input(format!(
                "{flag} needs --compare-input: the crate's {} names none for --league {}",
                league_table::TABLE,
                cli.league.map_or("", |league| league.name())
            )));
        }
    }

    let expanded = expand::expand(&staged)?;
    let mut tree = syn::parse_file(&expanded).map_err(|e| {
        input(format!(
            "rust_bundler_cp produced text that does not parse ({e}); please report this"
        ))
    })?;
    attrs::restore(&mut tree, &staged.inner_attrs);
    let features = features(
        cli.features
            .as_deref()
            .or(league_row.features.as_deref())
            .unwrap_or(""),
        &staged.features,
    )?;
    let stripped = strip::strip(&mut tree, &features);
    say!(
        "bundled {} files of crate `{}` (bin `{}`); removed {} test/cfg-off items, {} doc \
         comments and {} flag halves of `tunables!` lines",
        staged.files,
        staged.crate_name,
        staged.bin_name,
        stripped.removed,
        stripped.docs,
        stripped.flag_halves
    );
    say!(
        "features: {}",
        if features.is_empty() {
            "none".to_string()
        } else {
            features.join(", ")
        }
    );
    if let Some(league) = cli.league {
        // The variant as the enum spells it (`Gold`): its derived `Debug`.
        let variant = format!("{league:?}");
        let old = league_marker::set(&mut tree, &cli.league_const, &variant)?;
        say!(
            "league: {} = League::{variant} (source says League::{old})",
            cli.league_const
        );
    }
    if cli.prune {
        let pruned = prune::prune(&mut tree, &cli.rustc, &cli.check_env)?;
        say!(
            "pruned {} items and {} imported names the bundle never uses ({} rounds of rustc)",
            pruned.items,
            pruned.imports,
            pruned.rounds
        );
        if let Some(why) = &pruned.stopped {
            eprintln!("bundler: warning: --prune stopped: {why}");
        }
        let derives = prune_derives::prune_derives(&mut tree, &cli.rustc, &cli.check_env)?;
        say!(
            "pruned {} of {} derived traits the bundle never uses ({} rounds of rustc)",
            derives.removed,
            derives.candidates,
            derives.compiles
        );
        let visibility = prune_visibility::prune_visibility(&mut tree, &cli.rustc, &cli.check_env)?;
        say!(
            "pruned {} of {} `pub`s the bundle does not need ({} rounds of rustc)",
            visibility.removed,
            visibility.candidates,
            visibility.compiles
        );
    }
    let mut renamed = rename::Renamed::default();
    if cli.rename {
        renamed = rename::rename(&mut tree, &cli.rustc, &cli.check_env)?;
        say!(
            "renamed {} names; {} kept for rustc ({} rounds of rustc)",
            renamed.names.len(),
            renamed.kept_by_rustc.len(),
            renamed.rounds
        );
        if let Some(why) = &renamed.stopped {
            eprintln!("bundler: warning: --rename stopped: {why}");
        }
    }
    let formatted = pretty::format(&tree, cli.tabs, cli.compact, staged.root());
    if let Some(warning) = &formatted.warning {
        eprintln!("bundler: warning: {warning}");
    }
    let text = if cli.compact {
        compact::compact(&formatted.text).map_err(input)?
    } else if cli.flat {
        unindent::unindent(&formatted.text).map_err(input)?
    } else {
        formatted.text
    };
    let modules = size::per_module(&text)?.into_iter();
    let modules: Vec<(String, usize)> = modules
        .map(|(path, size)| (rename::original_path(&path, &renamed.names), size))
        .collect();
    say!("{}", size::table(&modules));

    let rejected = rejected_path(&cli.out);
    match checks(cli, &text, compare_input.as_deref()) {
        Ok(()) => {
            stage::write(&cli.out, &text)?;
            // A rejected bundle from an earlier run no longer says anything true.
            if rejected.exists() {
                std::fs::remove_file(&rejected).map_err(|e| {
                    input(format!(
                        "cannot remove the stale {}: {e}",
                        rejected.display()
                    ))
                })?;
            }
            say!("wrote {}", cli.out.display());
            say!("{}", size::report(&text, cli.max_chars));
            say!("sha256 {}", size::sha256_hex(&text));
            Ok(())
        }
        Err(e) => {
            if stage::write(&rejected, &text).is_ok() {
                eprintln!("bundler: the rejected bundle is in {}", rejected.display());
            }
            Err(e)
        }
    }
}

/// The checks, in order; the first failure stops. `compare_input` is the recorded game of the
/// comparison with `--reference` (given, or the league's).
fn checks(cli: &Cli, text: &str, compare_input: Option<&Path>) -> Result<()> {
    size::check(text, cli.max_chars)?;
    let label = cli.out.display().to_string();
    let parsed = source::parse_file(text, Path::new(&label))?;
    std_only::check_std_only(&parsed, &label)?;
    say!("std only: no other crate referenced");
    if cli.check_compile || cli.reference.is_some() {
        let compiled = compile::compile(text, &cli.rustc, Profile::Release, &cli.check_env, &[])?;
        let env: Vec<String> = cli
            .check_env
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        say!(
            "compiles alone: {}{} --edition 2021 -O ({} warnings)",
            if env.is_empty() {
                String::new()
            } else {
                format!("{} ", env.join(" "))
            },
            cli.rustc,
            compiled.warnings
        );
        if let (Some(reference), Some(input_file)) = (&cli.reference, compare_input) {
            let args: Vec<String> = cli.args.split_whitespace().map(str::to_string).collect();
            let reference_args: Vec<String> = cli
                .reference_args
                .split_whitespace()
                .map(str::to_string)
                .collect();
            let lines = compare::compare(
                &compiled.binary,
                reference,
                input_file,
                &args,
                &reference_args,
                Duration::from_secs(cli.timeout),
            )?;
            say!(
                "same output as {} [{}] on {} with args [{}]: {lines} lines",
                reference.display(),
                reference_args.join(" "),
                input_file.display(),
                args.join(" ")
            );
        }
    }
    if let (true, Some(league), Some(input_file)) = (cli.check_debug, cli.league, compare_input) {
        let unset: Vec<&str> = cli
            .check_env
            .iter()
            .map(|(name, _)| name.as_str())
            .collect();
        let timeout = Duration::from_secs(cli.timeout);
        let run = debug_build::check_debug(text, &cli.rustc, &unset, league, input_file, timeout)?;
        say!(
            "runs as CodinGame's IDE builds it ({} --edition 2021 {}, {} warnings; by the clock) \
             on {}: {} turns answered, exit 0; {}",
            cli.rustc,
            Profile::Debug.flags().join(" "),
            run.warnings,
            input_file.display(),
            run.turn_times.len(),
            run.timing()
        );
    }
    Ok(())
}

/// The features of `--features` (comma-separated), each one the crate declares.
fn features(list: &str, declared: &[String]) -> Result<Vec<String>> {
    let mut features: Vec<String> = Vec::new();
    for name in list
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
    {
        if !declared.iter().any(|known| known == name) {
            return Err(input(format!(
                "--features: the crate has no feature `{name}` (it has: {})",
                declared.join(", ")
            )));
        }
        if !features.iter().any(|known| known == name) {
            features.push(name.to_string());
        }
    }
    Ok(features)
}

/// `dist/main.rs` -> `dist/main.rs.rejected`.
fn rejected_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".rejected");
    PathBuf::from(name)
}
