//! One game, or one game pair, between two bot commands A and B at a time control, seen from
//! A's side: the building block of `arena match`, `arena ladder` and a tuner. A game pair is
//! two games on the same map (the CodinGame map of one seed) with the seats swapped: A as
//! player 0, then A as player 1, so that map and seat effects cancel inside the pair.

use crate::referee::game_loop::{bot_name, play_game, GameSetup, TimeLimits};
use crate::replay::file::{cause, Replay};
use csb::engine::{League, Map};

/// Two bot commands and the conditions they meet under.
#[derive(Clone, Debug)]
pub struct Contest {
    /// Shell commands of bot A (the one scores are given for) and bot B.
    pub commands: [String; 2],
    pub league: League,
    pub limits: TimeLimits,
}

/// One finished game from A's side.
#[derive(Clone, Debug)]
pub struct SeatedGame {
    /// Referee seed of the map.
    pub seed: i64,
    /// A's seat: 0 or 1.
    pub a_player: usize,
    /// A's score: 1, 0.5 or 0.
    pub a_score: f64,
    pub turns: u16,
    pub reason: String,
    /// (bot: 0 = A / 1 = B, cause, detail) of each elimination.
    pub eliminations: Vec<(usize, String, String)>,
    /// Response times in ms, per bot (A, B).
    pub responses: [Vec<f64>; 2],
    /// The whole game, for saving.
    pub replay: Replay,
}

impl SeatedGame {
    /// A bot that exited (or was killed) before its first answer on turn 1: a command that could
    /// not start, a flag typo, a missing file. (bot 0 = A / 1 = B, detail.) Such a game measures
    /// nothing; callers should stop. A bot that only closed its stdout is still running and loses
    /// the game as a crash.
    pub fn start_failure(&self) -> Option<(usize, &str)> {
        self.eliminations
            .iter()
            .find(|(_, cause_name, detail)| {
                cause_name == cause::CRASH
                    && detail.contains(" after 0 of ")
                    && !detail.starts_with("closed its stdout")
                    && self.turns == 0
            })
            .map(|(bot, _, detail)| (*bot, detail.as_str()))
    }
}

/// Plays one game on the map of `seed` with A in seat `a_player`.
pub fn play_seated_game(
    contest: &Contest,
    seed: i64,
    a_player: usize,
) -> Result<SeatedGame, String> {
    let [a, b] = &contest.commands;
    let commands = if a_player == 0 {
        [a.clone(), b.clone()]
    } else {
        [b.clone(), a.clone()]
    };
    let setup = GameSetup {
        seed: Some(seed),
        map: Map::from_seed(seed),
        league: contest.league,
        names: [bot_name(&commands[0]), bot_name(&commands[1])],
        commands,
        limits: contest.limits,
    };
    let replay = play_game(&setup)?;
    let bot_of = |player: usize| usize::from(player != a_player);
    let a_score = match replay.result.winner {
        None => 0.5,
        Some(winner) if winner == a_player => 1.0,
        Some(_) => 0.0,
    };
    let mut responses = [Vec::new(), Vec::new()];
    for turn in &replay.turns {
        for (player, ms) in turn.response_ms.iter().enumerate() {
            if let Some(ms) = ms {
                responses[bot_of(player)].push(*ms);
            }
        }
    }
    let eliminations = replay
        .result
        .eliminations
        .iter()
        .map(|e| (bot_of(e.player), e.cause.clone(), e.detail.clone()))
        .collect();
    Ok(SeatedGame {
        seed,
        a_player,
        a_score,
        turns: replay.result.turns,
        reason: replay.result.reason.clone(),
        eliminations,
        responses,
        replay,
    })
}
