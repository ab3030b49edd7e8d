//! One pod's state between turns (csb-rules.md §2.3, §4).

use super::vec2::Vec2;

/// A pod as the referee keeps it. Positions and speeds are integral between turns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pod {
    pub pos: Vec2,
    pub vel: Vec2,
    /// Exact facing angle in radians, not normalised; `None` until the pod first turns (§4.2).
    pub angle_rad: Option<f64>,
    /// Checkpoints passed since the start (a lap is `checkpoint_count` passes).
    pub passes: u16,
    /// Turn of the latest pass, 0 if none (for the checkpoint timeout, §5.4).
    pub last_pass_turn: u16,
    /// Whether this pod's one BOOST is spent (§4.1).
    pub boost_used: bool,
    /// Coming turns whose thrust a SHIELD still forces to 0 (§4.1).
    pub shield_lock_turns: u8,
}

impl Pod {
    /// A pod on its spawn point: no speed, angle unset, boost available, heading for checkpoint 1.
    pub fn spawn(pos: Vec2) -> Pod {
        Pod {
            pos,
            vel: Vec2::ZERO,
            angle_rad: None,
            passes: 0,
            last_pass_turn: 0,
            boost_used: false,
            shield_lock_turns: 0,
        }
    }

    /// Index of the checkpoint this pod heads for: `(passes + 1) mod N` (§3.2).
    #[inline]
    pub fn next_checkpoint(&self, checkpoint_count: usize) -> usize {
        (self.passes as usize + 1) % checkpoint_count
    }
}
