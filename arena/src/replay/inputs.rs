//! `arena inputs`: the exact stdin one player received during a saved game, rebuilt from the
//! recorded states, so a decision can be reproduced offline (`csb < inputs.txt`).

use crate::protocol::input_text::{init_text, turn_text};
use crate::replay::file::{cause, PodState, Replay};
use crate::replay::verify::race_of;
use csb::engine::{Pod, Vec2};

fn engine_pod(state: &PodState) -> Pod {
    Pod {
        pos: Vec2::new(state.x as f64, state.y as f64),
        vel: Vec2::new(state.vx as f64, state.vy as f64),
        angle_rad: state.angle,
        passes: state.passes,
        last_pass_turn: 0,
        boost_used: state.boost_used,
        shield_lock_turns: 0,
    }
}

/// Number of turns whose input the bots were sent: every played turn, plus the turn on which
/// a player was eliminated for its answer (unless lines out of turn stopped it before sending).
fn turns_with_input(replay: &Replay) -> usize {
    let played = replay.turns.len();
    let next = played as u16 + 1;
    let answered_next = replay
        .result
        .eliminations
        .iter()
        .filter(|e| e.turn == next && e.cause != cause::CHECKPOINT_TIMEOUT)
        .collect::<Vec<_>>();
    if !answered_next.is_empty()
        && answered_next
            .iter()
            .all(|e| e.cause != cause::TOO_MANY_LINES)
    {
        played + 1
    } else {
        played
    }
}

/// Everything `player` read on stdin during the game.
pub fn player_input(replay: &Replay, player: usize) -> Result<String, String> {
    if player > 1 {
        return Err(format!("player must be 0 or 1, got {player}"));
    }
    let mut race = race_of(replay)?;
    if replay.initial_pods.len() != race.pod_count() {
        return Err("initial_pods does not match pods_per_player".to_string());
    }
    let mut text = init_text(&race);
    for turn in 0..turns_with_input(replay) {
        let before = if turn == 0 {
            &replay.initial_pods
        } else {
            &replay.turns[turn - 1].pods
        };
        if before.len() != race.pod_count() {
            return Err(format!("turn {turn}: wrong number of pods"));
        }
        for (slot, state) in race.pods_mut().iter_mut().zip(before) {
            *slot = engine_pod(state);
        }
        text.push_str(&turn_text(&race, player));
    }
    Ok(text)
}
