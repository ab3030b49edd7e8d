//! `arena ladder build|play|import|table|plot`: the subcommands' arguments, and what each
//! prints.

use super::{build, import, play, players, plot, results, table};
use crate::cli::{parse_shard, print_stdout, Failure};
use crate::referee::children;
use clap::Subcommand;
use std::path::{Path, PathBuf};
use tool_cli::at_least_one;

const DEFAULT_ROSTER: &str = "ladder/players.toml";

#[derive(Subcommand)]
pub enum LadderCommand {
    /// Build each player's commit once, in a cache outside the checkout; print the binaries.
    Build {
        /// The roster.
        #[arg(long, default_value = DEFAULT_ROSTER)]
        players: PathBuf,
        /// Only these players (default: all).
        names: Vec<String>,
        /// Cache directory (default $CSB_LADDER_CACHE, else ~/.cache/csb-ladder).
        #[arg(long)]
        cache: Option<PathBuf>,
        /// The git repository the commits belong to.
        #[arg(long, default_value = ".")]
        repo: PathBuf,
    },
    /// Play a round robin (or a gauntlet) in game pairs at a control, appending to a results file.
    Play {
        #[arg(long, default_value = DEFAULT_ROSTER)]
        players: PathBuf,
        /// A control named in the roster (e.g. real, screen).
        #[arg(long)]
        control: String,
        /// Only these players (comma-separated; default: all).
        #[arg(long, value_delimiter = ',')]
        only: Vec<String>,
        /// Play this player against each of the others only.
        #[arg(long)]
        gauntlet: Option<String>,
        /// Game pairs per pairing (each pair: one map, both seats).
        #[arg(long, default_value_t = 10, value_parser = at_least_one::<usize>)]
        pairs: usize,
        /// Match seed; pair k of every pairing uses the map of its pair k.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 1, value_parser = at_least_one::<usize>)]
        threads: usize,
        /// Play only the pairs whose index is I mod N: --shard I/N.
        #[arg(long, value_parser = parse_shard)]
        shard: Option<(usize, usize)>,
        /// Results file (default ladder/results-<control>.jsonl).
        #[arg(long)]
        results: Option<PathBuf>,
        #[arg(long)]
        cache: Option<PathBuf>,
        #[arg(long, default_value = ".")]
        repo: PathBuf,
        /// Anchor of the table printed at the end.
        #[arg(long, default_value = "reflex")]
        anchor: String,
        /// Virtual draws added to each pairing for the table.
        #[arg(long, default_value_t = 1.0, value_parser = parse_prior)]
        prior_draws: f64,
    },
    /// Append the games of a row played by `arena match` (a scripts/row.sh folder: shard-*.json,
    /// options.txt, and commits.txt naming each binary's commit) as games of two listed players.
    Import {
        /// The row's folder.
        row: PathBuf,
        #[arg(long, default_value = DEFAULT_ROSTER)]
        players: PathBuf,
        /// The control the row was played at (checked against the row's files).
        #[arg(long)]
        control: String,
        /// The listed player that was the row's p1.
        #[arg(long)]
        p1: String,
        /// The listed player that was the row's p2.
        #[arg(long)]
        p2: String,
        /// The row's command, when its folder has no options.txt.
        #[arg(long, allow_hyphen_values = true)]
        row_command: Option<String>,
        /// Results file (default ladder/results-<control>.jsonl).
        #[arg(long)]
        results: Option<PathBuf>,
        #[arg(long, default_value = ".")]
        repo: PathBuf,
    },
    /// Rate all players of one control from results files (listed together: shards merge).
    Table {
        #[arg(required = true)]
        results: Vec<PathBuf>,
        /// The control to rate (needed when the files hold several).
        #[arg(long)]
        control: Option<String>,
        /// The player rated 0.
        #[arg(long, default_value = "reflex")]
        anchor: String,
        /// Virtual draws added to each pairing that played (0: pure maximum likelihood).
        #[arg(long, default_value_t = 1.0, value_parser = parse_prior)]
        prior_draws: f64,
        /// The roster, for the control's description (optional).
        #[arg(long, default_value = DEFAULT_ROSTER)]
        players: PathBuf,
    },
    /// Draw Elo over the roster's lineage from results files as an SVG.
    Plot {
        #[arg(required = true)]
        results: Vec<PathBuf>,
        /// The SVG file to write.
        #[arg(long)]
        out: PathBuf,
        #[arg(long)]
        control: Option<String>,
        /// The player rated 0 (default: the first lineage player of the group holding most of
        /// the lineage).
        #[arg(long)]
        anchor: Option<String>,
        #[arg(long, default_value_t = 1.0, value_parser = parse_prior)]
        prior_draws: f64,
        /// The roster: its lineage and the control's description.
        #[arg(long, default_value = DEFAULT_ROSTER)]
        players: PathBuf,
    },
}

fn parse_prior(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(value) if value >= 0.0 && value.is_finite() => Ok(value),
        _ => Err(format!("expected a number >= 0, got {text:?}")),
    }
}

fn control_line(roster: &Path, control: &str) -> Option<String> {
    let roster = players::Roster::load(roster).ok()?;
    Some(roster.control(control).ok()?.describe(control))
}

/// The roster's players in order (none when there is no roster to read).
fn roster_order(roster: &Path) -> Vec<String> {
    players::Roster::load(roster)
        .map(|r| r.players.into_iter().map(|p| p.name).collect())
        .unwrap_or_default()
}

/// The table of one control's games, headed by the control's description from the roster.
fn rated_table(
    games: &[results::LadderGame],
    control: &str,
    anchor: &str,
    prior_draws: f64,
    roster: &Path,
) -> Result<String, String> {
    table::table(
        games,
        &table::TableRequest {
            control: Some(control),
            anchor,
            prior_draws,
            control_line: control_line(roster, control),
            order: &roster_order(roster),
        },
    )
}

impl LadderCommand {
    /// Runs the subcommand and prints what it returns.
    pub fn run(self) -> Result<(), Failure> {
        print_stdout(&output(self)?)
    }
}

/// Runs a ladder subcommand; returns what goes to stdout.
fn output(command: LadderCommand) -> Result<String, String> {
    match command {
        LadderCommand::Build {
            players,
            names,
            cache,
            repo,
        } => {
            let roster = players::Roster::load(&players)?;
            let listed: Vec<&players::Player> = if names.is_empty() {
                roster.players.iter().collect()
            } else {
                names
                    .iter()
                    .map(|n| roster.player(n))
                    .collect::<Result<_, _>>()?
            };
            let binaries = build::build_players(&repo, &build::cache_dir(cache)?, &listed)?;
            Ok(listed
                .iter()
                .map(|p| format!("{} {}\n", p.name, binaries[&p.name].display()))
                .collect())
        }
        LadderCommand::Play {
            players,
            control,
            only,
            gauntlet,
            pairs,
            seed,
            threads,
            shard,
            results,
            cache,
            repo,
            anchor,
            prior_draws,
        } => {
            children::watch_over_bots();
            let results = results.unwrap_or_else(|| play::default_results(&control));
            let request = play::PlayRequest {
                roster: players.clone(),
                control: control.clone(),
                only,
                gauntlet,
                pairs,
                seed,
                threads,
                shard,
                results: results.clone(),
                repo,
                cache: build::cache_dir(cache)?,
            };
            let played = play::play(&request)?;
            eprintln!(
                "arena ladder: {played} game(s) played, appended to {}",
                results.display()
            );
            let games = results::load(&[&results])?;
            // Without the anchor among the players, the table is anchored at the first name.
            let at_control = || games.iter().filter(|g| g.control == control);
            let anchor = if at_control().any(|g| g.a == anchor || g.b == anchor) {
                anchor
            } else {
                let first = at_control().map(|g| g.a.clone()).min().unwrap_or(anchor);
                eprintln!(
                    "arena ladder: the table is anchored at {first} (no game of the anchor here)"
                );
                first
            };
            rated_table(&games, &control, &anchor, prior_draws, &players)
        }
        LadderCommand::Table {
            results,
            control,
            anchor,
            prior_draws,
            players,
        } => {
            let games = results::load(&results)?;
            let picked = table::pick_control(&games, control.as_deref())?;
            rated_table(&games, &picked, &anchor, prior_draws, &players)
        }
        LadderCommand::Import {
            row,
            players,
            control,
            p1,
            p2,
            row_command,
            results,
            repo,
        } => {
            let results = results.unwrap_or_else(|| play::default_results(&control));
            let request = import::ImportRequest {
                roster: players,
                control,
                row,
                p1,
                p2,
                row_command,
                results,
                repo,
            };
            let count = import::import(&request)?;
            Ok(format!(
                "imported {count} game(s) of {} as {} (p1) vs {} (p2) into {}\n",
                request.row.display(),
                request.p1,
                request.p2,
                request.results.display()
            ))
        }
        LadderCommand::Plot {
            results,
            out,
            control,
            anchor,
            prior_draws,
            players,
        } => {
            let roster = players::Roster::load(&players)?;
            let games = results::load(&results)?;
            let picked = table::pick_control(&games, control.as_deref())?;
            let at_control: Vec<&results::LadderGame> =
                games.iter().filter(|g| g.control == picked).collect();
            let order: Vec<String> = roster.players.iter().map(|p| p.name.clone()).collect();
            let svg = plot::plot(&plot::PlotRequest {
                games: &at_control,
                lineage: &roster.lineage,
                order: &order,
                anchor: anchor.as_deref(),
                prior_draws,
                control_line: roster
                    .control(&picked)
                    .map(|c| c.describe(&picked))
                    .unwrap_or_else(|_| format!("control {picked}")),
            })?;
            std::fs::write(&out, svg)
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            Ok(format!(
                "wrote {}: {} lineage player(s) at control {picked}\n",
                out.display(),
                roster.lineage.len()
            ))
        }
    }
}
