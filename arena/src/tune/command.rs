//! `arena tune`: its arguments, turned into a `TuneConfig` for the run.

use crate::cli::{parse_command, parse_shard, print_stdout, Failure};
use crate::matches::command::PlayArgs;
use crate::referee::children;
use crate::tune::{run_tune, GameSettings, ParamSpec, TuneConfig};
use clap::Args;
use std::path::PathBuf;
use tool_cli::at_least_one;

/// The arguments of `arena tune`.
#[derive(Args)]
pub struct TuneArgs {
    /// Shell command of the bot; the tuned flags are appended to it.
    #[arg(long, value_parser = parse_command)]
    bot: String,
    /// A tuned flag: NAME=START:MIN:MAX[:STEP] (STEP: first perturbation, default a tenth
    /// of MAX-MIN; all whole numbers = an integer flag). Repeat for more flags.
    #[arg(long = "param", required = true, value_parser = ParamSpec::parse)]
    params: Vec<ParamSpec>,
    /// Iterations of the whole run (a resumed run continues up to this many).
    #[arg(long, default_value_t = 40, value_parser = at_least_one::<usize>)]
    iterations: usize,
    /// Game pairs per iteration (each map played twice, seats swapped).
    #[arg(long, default_value_t = 2, value_parser = at_least_one::<usize>)]
    pairs: usize,
    /// STEPs a parameter moves on the first iteration when one side wins every game.
    #[arg(long, default_value_t = 1.0)]
    first_move: f64,
    /// JSON-lines file of the run: a header, then one record per iteration.
    #[arg(long)]
    trajectory: PathBuf,
    /// Continue the run recorded in --trajectory (its settings must match).
    #[arg(long)]
    resume: bool,
    #[command(flatten)]
    play: PlayArgs,
    /// Run seed; the maps and perturbation signs of every iteration derive from it.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Directory for the replays (one subdirectory per iteration).
    #[arg(long, default_value = "replays/matches/tune")]
    out: PathBuf,
    /// Play only the pairs I mod N of every iteration, meeting the other shards after each
    /// through their files (TRAJECTORY.shardJofN, in a shared directory): --shard I/N.
    #[arg(long, value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
}

impl TuneArgs {
    /// Runs (or resumes) the tuning and prints its report.
    pub fn run(self) -> Result<(), Failure> {
        children::watch_over_bots();
        let config = TuneConfig {
            bot: self.bot,
            params: self.params,
            iterations: self.iterations,
            seed: self.seed,
            first_move: self.first_move,
            trajectory: self.trajectory,
            resume: self.resume,
            games: GameSettings {
                pairs: self.pairs,
                threads: self.play.threads,
                league: self.play.league,
                time_scale: self.play.time_scale,
                out: self.out,
                shard: self.shard,
            },
        };
        print_stdout(&run_tune(&config)?)
    }
}
