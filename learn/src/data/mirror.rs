//! A game seen in a mirror: the board reflected top to bottom (`y` → `MAP_HEIGHT − y`), every
//! pod's speed and facing with it, and each pod's root statistics with its actions' steering
//! reversed (−18° ↔ 18°, −9° ↔ 9°). Pod racing has no walls and no preferred side, so the
//! reflection of a position is a position of the game whose best moves are the reflections of
//! the original's (up to the referee's rounding of a coordinate, half a unit). What `learn
//! train-policy --mirror` adds to its training split: twice the positions for the same games,
//! and a policy taught that turning left and turning right are the same problem mirrored.

use crate::data::game_file::{ActionStat, GameRecord, PodRecord, PositionRecord, STAT_ACTIONS};
use csb::engine::rules::MAP_HEIGHT;

/// The action at each index once reflected: the same thrust, the steering reversed (the order
/// of `csb::bot::actions::ActionSet::new`: 0°, −18°, 18°, −9°, 9° at full thrust, 0°, −18°,
/// 18° at none, BOOST, SHIELD).
pub const MIRRORED_ACTION: [usize; STAT_ACTIONS] = [0, 2, 1, 4, 3, 5, 7, 6, 8, 9];

/// The board's height as the coordinates' integer.
const HEIGHT: i32 = MAP_HEIGHT as i32;

/// `y` reflected top to bottom.
fn mirrored_y(y: i32) -> i32 {
    HEIGHT - y
}

/// A pod reflected: its position, speed and facing (an angle `θ` becomes `−θ`, kept in
/// `[0, 2π)`); an unset facing stays unset (it faces its next checkpoint, reflected too).
fn mirrored_pod(pod: &PodRecord) -> PodRecord {
    PodRecord {
        y: mirrored_y(pod.y),
        vy: -pod.vy,
        angle_rad: pod
            .angle_rad
            .map(|angle| (-angle).rem_euclid(std::f64::consts::TAU)),
        ..*pod
    }
}

/// One pod's root statistics reflected: each action's figures move to its mirror's index.
fn mirrored_stats(stats: &[ActionStat; STAT_ACTIONS]) -> [ActionStat; STAT_ACTIONS] {
    let mut out = *stats;
    for (action, stat) in stats.iter().enumerate() {
        out[MIRRORED_ACTION[action]] = *stat;
    }
    out
}

/// A recorded position reflected.
fn mirrored_position(position: &PositionRecord) -> PositionRecord {
    PositionRecord {
        pods: position.pods.each_ref().map(mirrored_pod),
        stats: position.stats.each_ref().map(mirrored_stats),
        ..position.clone()
    }
}

/// The game reflected: its course and every position (the result, the turns and the map's seed
/// are the original's, so it falls in the same split).
pub fn mirrored(game: &GameRecord) -> GameRecord {
    GameRecord {
        checkpoints: game
            .checkpoints
            .iter()
            .map(|&(x, y)| (x, mirrored_y(y)))
            .collect(),
        positions: game.positions.iter().map(mirrored_position).collect(),
        ..game.clone()
    }
}
