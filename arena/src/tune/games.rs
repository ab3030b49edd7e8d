//! The games of one `arena tune` iteration: the plus player against the minus player as an
//! `arena match` of the iteration's game pairs (each map played twice, seats swapped), with the
//! same threads and shard choice as `arena match`; the replays go where `arena match` puts them.
//! A bot that crashes before its first move (most likely it rejects a tuned flag) stops the run:
//! `run_match` stops on the first game with the head of its stderr, this module on any later one.

use crate::matches::runner::{run_match, MatchConfig};
use crate::replay::file::cause;
use crate::stats::wdl::Wdl;
use csb::engine::League;
use std::path::PathBuf;

/// How the games of every iteration are played.
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub pairs: usize,
    pub threads: usize,
    pub league: League,
    pub time_scale: f64,
    pub out: PathBuf,
    pub shard: Option<(usize, usize)>,
}

/// The plus player's results against the minus player and where the replays went.
pub struct Outcome {
    pub results: Wdl,
    pub replay_dir: Option<String>,
}

pub fn play_iteration(
    settings: &GameSettings,
    plus_command: &str,
    minus_command: &str,
    games_seed: u64,
) -> Result<Outcome, String> {
    let config = MatchConfig {
        p1: plus_command.to_string(),
        p2: minus_command.to_string(),
        games: 2 * settings.pairs,
        threads: settings.threads,
        seed: games_seed,
        league: settings.league,
        time_scale: settings.time_scale,
        out: settings.out.clone(),
        sprt: None,
        shard: settings.shard,
    };
    let result = run_match(&config)?;
    let crashes = result
        .eliminations
        .iter()
        .filter_map(|causes| causes.get(cause::CRASH))
        .sum::<u64>();
    if crashes > 0 && result.games.iter().any(|game| game.turns == 0) {
        return Err(format!(
            "the bot crashed before its first move (does it take every tuned flag and value? \
             its stderr is in the replays under {}): `{plus_command}`",
            result.replay_dir.as_deref().unwrap_or("(no replays saved)")
        ));
    }
    Ok(Outcome {
        results: result.results,
        replay_dir: result.replay_dir,
    })
}
