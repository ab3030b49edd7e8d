//! What a bot sees of the race (csb-rules.md §3.2), and the way back: an engine pod built from
//! the integers a bot receives. How the referee writes those lines is `referee/bot_input.rs`.

use super::pod::Pod;
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
