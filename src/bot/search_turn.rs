//! One turn's search, shared by the bots of every league: the search run within the turn's
//! budget (or a fixed number of iterations), and the move it chose.

use super::config::BotConfig;
use super::csb_game::{CsbGame, RaceContext};
use super::leaf_evaluation::LeafEvaluation;
use crate::search::{SearchStats, Selection, Smitsimax};
use std::time::Instant;

/// The search's choice for own pod `index` (see the two-pod `Player`'s use of it): a move that
/// won the race on the spot in every one of its visits, else the search's best action.
pub fn chosen_action<E: LeafEvaluation, S: Selection>(
    search: &Smitsimax<CsbGame<E>, S>,
    index: usize,
) -> u8 {
    search
        .root_stats(index)
        .filter(|&(_, visits, mean)| visits > 0 && mean >= 1.0)
        .max_by_key(|&(_, visits, _)| visits)
        .map(|(action, _, _)| action)
        .unwrap_or_else(|| search.best_action(index))
}

/// Runs the search from `root` for the configured iterations, or until the turn's budget
/// (the first turn's on the first turn) has passed since `received_at`.
pub fn run_search<E: LeafEvaluation, S: Selection>(
    search: &mut Smitsimax<CsbGame<E>, S>,
    context: &RaceContext<E>,
    root: &CsbGame<E>,
    config: &BotConfig,
    first_turn: bool,
    received_at: Instant,
) -> SearchStats {
    let budget_ms = if first_turn {
        config.first_budget_ms
    } else {
        config.budget_ms
    };
    match config.iterations {
        Some(iterations) => search.run_iterations(context, root, iterations),
        None => search.run_until(context, root, || elapsed_ms(received_at) >= budget_ms),
    }
}

/// Milliseconds since `since`.
pub fn elapsed_ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}
