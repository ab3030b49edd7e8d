//! Each player's checkpoint clock: the turns it has left before the checkpoint timeout eliminates
//! it (csb-rules.md §5.4: 100 turns without any of its pods passing a checkpoint). The bot reads
//! them from its memory at the root; the search's state carries them and ticks them every
//! simulated turn, so that a leaf knows them as the referee would; the networks read them as two
//! inputs (`value_net/features.rs`).

use crate::engine::rules::{CHECKPOINT_TIMEOUT_TURNS, POD_COUNT};
use crate::engine::FastPod;

/// Turns each player has left before its checkpoint timeout, player 0's first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeoutClocks {
    pub turns_left: [i16; 2],
}

impl TimeoutClocks {
    /// Both clocks full: the start of a race, and any position whose clocks nobody knows.
    pub const FULL: TimeoutClocks = TimeoutClocks {
        turns_left: [CHECKPOINT_TIMEOUT_TURNS as i16; 2],
    };

    /// The clocks of `turns_left` (player 0's, player 1's), held within ±10,000 turns.
    pub fn new(turns_left: [i32; 2]) -> TimeoutClocks {
        TimeoutClocks {
            turns_left: turns_left.map(|turns| turns.clamp(-10_000, 10_000) as i16),
        }
    }

    /// The clocks of a player who has gone `turns_without_pass[p]` turns without a pass.
    pub fn from_turns_without_pass(turns_without_pass: [u32; 2]) -> TimeoutClocks {
        TimeoutClocks::new(
            turns_without_pass
                .map(|turns| i32::from(CHECKPOINT_TIMEOUT_TURNS) - turns.min(10_000) as i32),
        )
    }

    /// The same clocks seen from the other side (player 1's first).
    #[inline(always)]
    pub fn swapped(self) -> TimeoutClocks {
        TimeoutClocks {
            turns_left: [self.turns_left[1], self.turns_left[0]],
        }
    }

    /// One turn played: a player whose pods passed a checkpoint (`passes_before`, per pod, against
    /// `pods` after the turn) starts again from 100, the other loses a turn.
    #[inline(always)]
    pub fn tick(&mut self, passes_before: &[u16; POD_COUNT], pods: &[FastPod; POD_COUNT]) {
        for (player, turns) in self.turns_left.iter_mut().enumerate() {
            let passed = pods[2 * player].passes != passes_before[2 * player]
                || pods[2 * player + 1].passes != passes_before[2 * player + 1];
            *turns = if passed {
                CHECKPOINT_TIMEOUT_TURNS as i16
            } else {
                turns.saturating_sub(1)
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Vec2;

    #[test]
    fn a_pass_refills_its_players_clock_and_the_other_ticks_down() {
        let pod = FastPod {
            pos: Vec2::ZERO,
            vel: Vec2::ZERO,
            heading: Vec2::new(1.0, 0.0),
            passes: 3,
            next_checkpoint: 1,
            boost_used: false,
            shield_lock_turns: 0,
        };
        let mut pods = [pod; POD_COUNT];
        let before = pods.map(|pod| pod.passes);
        let mut clocks = TimeoutClocks::new([40, 7]);
        clocks.tick(&before, &pods);
        assert_eq!(clocks.turns_left, [39, 6]);
        pods[1].passes += 1;
        clocks.tick(&before, &pods);
        assert_eq!(clocks.turns_left, [100, 5]);
        assert_eq!(clocks.swapped().turns_left, [5, 100]);
        assert_eq!(
            TimeoutClocks::from_turns_without_pass([0, 30]).turns_left,
            [100, 70]
        );
        assert_eq!(
            TimeoutClocks::new([-50_000, 50_000]).turns_left,
            [-10_000, 10_000]
        );
    }
}
