//! What a bot tells one pod to do in a turn (csb-rules.md §3.3, §4.1).

use super::vec2::Vec2;

/// The third token of an output line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Thrust {
    /// An integer thrust, already checked against the league cap.
    Power(u16),
    Boost,
    Shield,
}

/// One pod's order: aim at `target` with `thrust`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Command {
    /// Integral target coordinates.
    pub target: Vec2,
    pub thrust: Thrust,
}

impl Command {
    pub fn new(target_x: i32, target_y: i32, thrust: Thrust) -> Command {
        Command {
            target: Vec2::new(f64::from(target_x), f64::from(target_y)),
            thrust,
        }
    }
}
