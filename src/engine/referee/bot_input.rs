//! The input a bot is sent (csb-rules.md §3.2), as the referee writes it: the angle it shows,
//! each pod's line and the four lines of a player's turn.

use super::race::Race;
use crate::engine::observe::PodObservation;
use crate::engine::pod::Pod;
use crate::engine::rounding::java_round;
use crate::engine::rules::POD_COUNT;
use std::f64::consts::PI;

/// The angle CodinGame shows bots: `round(((a mod 2π) + 2π) mod 2π × 180 / π)`, −1 if unset.
pub fn shown_angle_deg(angle_rad: Option<f64>) -> i32 {
    match angle_rad {
        None => -1,
        Some(angle) => {
            let full_turn = 2.0 * PI;
            let normalised = ((angle % full_turn) + full_turn) % full_turn;
            java_round(normalised * 180.0 / PI) as i32
        }
    }
}

impl PodObservation {
    /// What a bot is told about `pod`.
    pub fn of(pod: &Pod, checkpoint_count: usize, eliminated: bool) -> PodObservation {
        PodObservation {
            x: pod.pos.x as i32,
            y: pod.pos.y as i32,
            vx: pod.vel.x as i32,
            vy: pod.vel.y as i32,
            angle_deg: shown_angle_deg(pod.angle_rad),
            next_checkpoint: if eliminated {
                -1
            } else {
                pod.next_checkpoint(checkpoint_count) as i32
            },
        }
    }
}

/// The four lines `player` receives this turn: its own pods first (lower index first), then the
/// opponent's (§3.2). Only the first `race.pod_count()` entries are meaningful.
pub fn turn_input(race: &Race, player: usize) -> [PodObservation; POD_COUNT] {
    let mut lines = [PodObservation::BLANK; POD_COUNT];
    let count = race.pod_count();
    let per_player = race.pods_per_player;
    let checkpoints = race.map.checkpoint_count();
    for (slot, line) in lines.iter_mut().enumerate().take(count) {
        let owner = if slot < per_player {
            player
        } else {
            1 - player
        };
        let pod = owner * per_player + slot % per_player;
        *line = PodObservation::of(&race.pods()[pod], checkpoints, race.eliminated[owner]);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_angle_is_normalised_and_rounded() {
        assert_eq!(shown_angle_deg(None), -1);
        assert_eq!(shown_angle_deg(Some(0.0)), 0);
        assert_eq!(shown_angle_deg(Some(-PI / 2.0)), 270);
        assert_eq!(shown_angle_deg(Some(4.128)), 237);
        assert_eq!(shown_angle_deg(Some(-4.2)), 119);
        assert_eq!(shown_angle_deg(Some(2.0 * PI - 1e-9)), 360);
        assert_eq!(shown_angle_deg(Some(0.19148965166780452)), 11);
    }
}
