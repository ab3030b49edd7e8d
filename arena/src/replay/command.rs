//! `arena replay` (re-simulate a saved game and check it), `arena inputs` (a player's exact stdin
//! in a saved game) and `arena view` (a replay as an HTML page): their arguments and what they
//! print.

use crate::cli::{print_stdout, Failure};
use crate::replay::file::Replay;
use crate::replay::{inputs, verify, view};
use clap::Args;
use std::path::PathBuf;

/// The arguments of `arena replay`.
#[derive(Args)]
pub struct ReplayArgs {
    file: PathBuf,
}

impl ReplayArgs {
    /// Re-simulates the game and prints what was checked; a divergence is exit code 1.
    pub fn run(self) -> Result<(), Failure> {
        let file = self.file;
        let replay = Replay::load(&file)?;
        verify::race_of(&replay)
            .map_err(|e| format!("{}: cannot be replayed: {e}", file.display()))?;
        match verify::verify(&replay) {
            Ok(verified) => print_stdout(&format!(
                "{}: ok, {} turns and {} collisions re-simulated identically; {} ({}), ranks {:?}\n",
                file.display(),
                verified.turns,
                verified.collisions,
                match replay.result.winner {
                    Some(p) => format!("player {p} wins"),
                    None => "draw".to_string(),
                },
                replay.result.reason,
                replay.result.ranks
            )),
            Err(divergence) => Err(Failure::found(format!(
                "{}: divergence: {divergence}",
                file.display()
            ))),
        }
    }
}

/// The arguments of `arena inputs`.
#[derive(Args)]
pub struct InputsArgs {
    file: PathBuf,
    /// 0 or 1.
    #[arg(long)]
    player: usize,
}

impl InputsArgs {
    /// Prints the player's stdin of the saved game.
    pub fn run(self) -> Result<(), Failure> {
        let replay = Replay::load(&self.file)?;
        let text = inputs::player_input(&replay, self.player)
            .map_err(|e| format!("{}: {e}", self.file.display()))?;
        print_stdout(&text)
    }
}

/// The arguments of `arena view`.
#[derive(Args)]
pub struct ViewArgs {
    replay: PathBuf,
    #[arg(short, long)]
    output: PathBuf,
}

impl ViewArgs {
    /// Writes the replay's HTML page.
    pub fn run(self) -> Result<(), Failure> {
        view::view(&self.replay, &self.output).map_err(Failure::from)
    }
}
