//! `arena match` (play games between two bots and report) and `arena merge` (add up the JSON
//! results of a match's shards): their arguments and what they print; how games are played
//! (`PlayArgs`: threads, league, time scale) is shared with `arena tune`.

use crate::cli::{parse_command, parse_league, parse_scale, parse_shard, print_stdout, Failure};
use crate::matches::result::{merge, MatchResult};
use crate::matches::runner::{run_match, MatchConfig};
use crate::referee::children;
use crate::stats::sprt::Sprt;
use clap::Args;
use csb::engine::League;
use std::path::PathBuf;
use tool_cli::at_least_one;

/// The arguments of `arena match`.
#[derive(Args)]
pub struct MatchArgs {
    /// Shell command of the first bot (the one the report speaks for).
    #[arg(long, value_parser = parse_command)]
    p1: String,
    /// Shell command of the second bot.
    #[arg(long, value_parser = parse_command)]
    p2: String,
    /// Games in the whole match (pairs share a map), at least 1.
    #[arg(long, default_value_t = 100, value_parser = at_least_one::<usize>)]
    games: usize,
    #[command(flatten)]
    play: PlayArgs,
    /// Match seed; game seeds derive from it.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Directory for the replays (one subdirectory per run).
    #[arg(long, default_value = "replays/matches")]
    out: PathBuf,
    /// Stop early with a sequential test: --sprt ELO0 ELO1 with ELO0 < ELO1 (alpha = beta =
    /// 0.05).
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], allow_negative_numbers = true)]
    sprt: Option<Vec<f64>>,
    /// Print the result as JSON on stdout (the text report goes to stderr).
    #[arg(long)]
    json: bool,
    /// Play only the game pairs whose index is I mod N: --shard I/N.
    #[arg(long, value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
}

/// How the games are played: the arguments `arena match` and `arena tune` share.
#[derive(Args)]
pub struct PlayArgs {
    /// Games played at the same time, at least 1.
    #[arg(long, default_value_t = 1, value_parser = at_least_one::<usize>)]
    pub threads: usize,
    /// wood3, wood2, wood1, bronze, silver (one pod each, docs/leagues.md), gold (thrust cap 100) or legend (cap 200).
    #[arg(long, default_value = "legend", value_parser = parse_league)]
    pub league: League,
    /// Multiplies the time limits (1000 ms first turn, 75 ms after).
    #[arg(long, default_value_t = 1.0, value_parser = parse_scale)]
    pub time_scale: f64,
}

/// `--sprt ELO0 ELO1`: finite bounds with ELO0 below ELO1.
fn sprt_bounds(bounds: &[f64]) -> Result<Sprt, String> {
    match bounds {
        [elo0, elo1] if elo0.is_finite() && elo1.is_finite() && elo0 < elo1 => {
            Ok(Sprt::new(*elo0, *elo1))
        }
        _ => Err(format!(
            "--sprt ELO0 ELO1 needs finite bounds with ELO0 < ELO1 (e.g. --sprt 0 30), got {}",
            bounds
                .iter()
                .map(f64::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        )),
    }
}

impl MatchArgs {
    /// Plays the match and prints its report (or its JSON); fails with exit code 1 when some
    /// replays could not be saved.
    pub fn run(self) -> Result<(), Failure> {
        let sprt = self.sprt.as_deref().map(sprt_bounds).transpose()?;
        children::watch_over_bots();
        let config = MatchConfig {
            p1: self.p1,
            p2: self.p2,
            games: self.games,
            threads: self.play.threads,
            seed: self.seed,
            league: self.play.league,
            time_scale: self.play.time_scale,
            out: self.out,
            sprt,
            shard: self.shard,
        };
        let result = run_match(&config)?;
        if self.json {
            eprint!("{}", result.report());
            print_stdout(&(result.to_json() + "\n"))?;
        } else {
            print_stdout(&result.report())?;
        }
        match result.games.iter().filter(|g| g.replay.is_none()).count() {
            0 => Ok(()),
            lost => Err(Failure::found(format!(
                "{lost} of {} replays could not be saved under {} (warnings above)",
                result.games.len(),
                config.out.display()
            ))),
        }
    }
}

/// The arguments of `arena merge`.
#[derive(Args)]
pub struct MergeArgs {
    #[arg(required = true)]
    results: Vec<PathBuf>,
    /// Print the merged result as JSON on stdout.
    #[arg(long)]
    json: bool,
    /// Test the merged row with an SPRT: --sprt ELO0 ELO1 with ELO0 < ELO1 (alpha = beta =
    /// 0.05), on its pairs in the order of their games, as if the row had been played to it
    /// (the report says where it would have stopped).
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], allow_negative_numbers = true)]
    sprt: Option<Vec<f64>>,
}

impl MergeArgs {
    /// Reads every shard's JSON result, merges them and prints the report (or its JSON).
    pub fn run(self) -> Result<(), Failure> {
        let sprt = self.sprt.as_deref().map(sprt_bounds).transpose()?;
        let mut parts = Vec::new();
        for path in &self.results {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            parts.push(
                MatchResult::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?,
            );
        }
        let mut merged = merge(parts)?;
        if sprt.is_some() {
            merged.sprt = sprt;
        }
        if self.json {
            print_stdout(&(merged.to_json() + "\n"))
        } else {
            print_stdout(&merged.report())
        }
    }
}
