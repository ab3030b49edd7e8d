//! What a bot sees of the race (csb-rules.md §3.2), and the way back: an engine pod built from
//! the integers a bot receives.

use super::pod::Pod;
#[cfg(feature = "referee")]
use super::race::Race;
#[cfg(feature = "referee")]
use super::rounding::java_round;
#[cfg(feature = "referee")]
use super::rules::POD_COUNT;
use super::vec2::Vec2;
use std::f64::consts::PI;

/// One pod line of the per-turn input: `x y vx vy angle nextCheckPointId`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PodObservation {
    pub x: i32,
    pub y: i32,
    pub vx: i32,
    pub vy: i32,
    /// Facing angle in whole degrees 0..=360, or −1 while unset.
    pub angle_deg: i32,
    /// Next checkpoint index, or −1 for a pod of an eliminated player.
    pub next_checkpoint: i32,
}

/// The angle CodinGame shows bots: `round(((a mod 2π) + 2π) mod 2π × 180 / π)`, −1 if unset.
#[cfg(feature = "referee")]
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
    /// A line not filled in: at the origin, at rest, angle and next checkpoint −1 (unset). The
    /// start of a turn's four lines before they are read (two-pod protocol) or built (referee);
    /// the one-pod bundle, which needs neither, leaves it out.
    #[cfg(any(feature = "two-pod", feature = "referee"))]
    pub const BLANK: PodObservation = PodObservation {
        x: 0,
        y: 0,
        vx: 0,
        vy: 0,
        angle_deg: -1,
        next_checkpoint: -1,
    };

    /// What a bot is told about `pod`.
    #[cfg(feature = "referee")]
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

    /// An engine pod from what a bot saw plus what it remembers (passes, boost, shield). The
    /// angle is the shown whole-degree value converted to radians: within half a degree of the
    /// referee's exact angle.
    pub fn to_pod(&self, passes: u16, boost_used: bool, shield_lock_turns: u8) -> Pod {
        Pod {
            pos: Vec2::new(f64::from(self.x), f64::from(self.y)),
            vel: Vec2::new(f64::from(self.vx), f64::from(self.vy)),
            angle_rad: if self.angle_deg < 0 {
                None
            } else {
                Some(f64::from(self.angle_deg) * PI / 180.0)
            },
            passes,
            last_pass_turn: 0,
            boost_used,
            shield_lock_turns,
        }
    }
}

/// The four lines `player` receives this turn: its own pods first (lower index first), then the
/// opponent's (§3.2). Only the first `race.pod_count()` entries are meaningful.
#[cfg(feature = "referee")]
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

#[cfg(all(test, feature = "referee"))]
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
