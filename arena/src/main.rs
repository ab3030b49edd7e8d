//! `arena`: the local referee and match runner for csb. Subcommands: `match` (play many
//! games between two bot commands and report), `merge` (add shard results), `replay` (re-check
//! a saved game), `inputs` (a player's exact stdin), `import-cg` (check CodinGame replays
//! against the engine), `ladder` (reference players rated together), `tune` (SPSA over a
//! bot's flags) and `view` (HTML page of a replay). Errors are one line on stderr and a non-zero
//! exit code: 1 when a check finds a mismatch or a match's replays could not all be saved (its
//! report is still printed), 2 for anything else (bad arguments, unusable input, a bot that cannot
//! start).
//!
//! This file only dispatches: each command's arguments and work are in its folder's
//! `command.rs` (library `arena`, see `lib.rs`).

use arena::cli::{Failure, EXIT_ERROR};
use arena::codingame::command::ImportCgArgs;
use arena::ladder::command::LadderCommand;
use arena::matches::command::{MatchArgs, MergeArgs};
use arena::replay::command::{InputsArgs, ReplayArgs, ViewArgs};
use arena::tune::command::TuneArgs;
use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "arena",
    version,
    about = "Referee and match runner for csb (Coders Strike Back)"
)]
struct Cli {
    #[command(subcommand)]
    command: Commands,
}

#[derive(Subcommand)]
enum Commands {
    /// Play games between two bots (seats swapped on alternate games, same maps) and report.
    Match(MatchArgs),
    /// Merge the JSON results of the shards of one match into one report.
    Merge(MergeArgs),
    /// Re-simulate a saved game and check every recorded state.
    Replay(ReplayArgs),
    /// Print exactly the stdin a player received in a saved game.
    Inputs(InputsArgs),
    /// Check CodinGame replays (viewer frames, gameResult JSON, or fixture text) bit for bit.
    ImportCg(ImportCgArgs),
    /// Reference players by commit, played in game pairs and rated together (docs/ladder.md).
    Ladder {
        #[command(subcommand)]
        command: LadderCommand,
    },
    /// Render a replay as a self-contained HTML page.
    View(ViewArgs),
    /// Tune numeric flags of a bot by SPSA: θ+cΔ against θ−cΔ on game pairs each iteration.
    Tune(TuneArgs),
}

fn run(command: Commands) -> Result<(), Failure> {
    match command {
        Commands::Match(args) => args.run(),
        Commands::Merge(args) => args.run(),
        Commands::Replay(args) => args.run(),
        Commands::Inputs(args) => args.run(),
        Commands::ImportCg(args) => args.run(),
        Commands::Ladder { command } => command.run(),
        Commands::View(args) => args.run(),
        Commands::Tune(args) => args.run(),
    }
}

/// Parses the command line; a usage error is one line and exit code 2 (`tool_cli`), help and
/// version go to stdout as usual.
fn parse_cli() -> Result<Cli, Failure> {
    tool_cli::parse_args::<Cli>("arena").map_err(|message| Failure {
        exit_code: EXIT_ERROR,
        message,
    })
}

fn main() -> ExitCode {
    match parse_cli().and_then(|cli| run(cli.command)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("arena: error: {}", failure.message);
            ExitCode::from(failure.exit_code)
        }
    }
}
