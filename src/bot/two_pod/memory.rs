//! What the bot remembers from turn to turn, inferred from the input alone: checkpoints passed
//! (from `nextCheckPointId` changes), own BOOST and SHIELD use (from what it printed), and the
//! opponent's BOOST (from a speed jump no thrust of the league explains).

use crate::engine::rules::{FRICTION_FACTOR, POD_COUNT, SHIELD_LOCK_TURNS};
use crate::engine::{Pod, PodObservation, Thrust};

/// Speed gain (before friction) above the league cap that can only be a BOOST; collisions can
/// also cause jumps, so the margin is generous.
// The sparring bots infer this on their own (sparring/src/memory.rs, 350 after friction): see why.
const BOOST_DETECTION_MARGIN: f64 = 150.0;

#[derive(Clone, Debug)]
pub struct Memory {
    checkpoint_count: usize,
    previous: Option<[PodObservation; POD_COUNT]>,
    pub passes: [u16; POD_COUNT],
    pub boost_used: [bool; POD_COUNT],
    pub shield_lock_turns: [u8; POD_COUNT],
    /// Turns observed so far.
    pub turn: u32,
    /// Per player (0 = us): turns since any of its pods last passed a checkpoint, for the
    /// 100-turn checkpoint timeout (csb-rules.md §5.4).
    pub turns_without_pass: [u32; 2],
}

impl Memory {
    pub fn new(checkpoint_count: usize) -> Memory {
        Memory {
            checkpoint_count,
            previous: None,
            passes: [0; POD_COUNT],
            boost_used: [false; POD_COUNT],
            shield_lock_turns: [0; POD_COUNT],
            turn: 0,
            turns_without_pass: [0; 2],
        }
    }

    /// Takes in a turn's input (own pods first): counts passes, infers opponent boosts.
    pub fn observe(&mut self, pods: &[PodObservation; POD_COUNT], max_thrust: u16) {
        self.turn += 1;
        if let Some(previous) = &self.previous {
            let passes_before = self.passes;
            for index in 0..POD_COUNT {
                let (before, now) = (previous[index], pods[index]);
                if before.next_checkpoint >= 0 && now.next_checkpoint >= 0 {
                    let count = self.checkpoint_count as i32;
                    let advanced = (now.next_checkpoint - before.next_checkpoint + count) % count;
                    self.passes[index] += advanced as u16;
                }
                if index >= 2 && !self.boost_used[index] {
                    let gain_x = f64::from(now.vx) / FRICTION_FACTOR - f64::from(before.vx);
                    let gain_y = f64::from(now.vy) / FRICTION_FACTOR - f64::from(before.vy);
                    let gain = (gain_x * gain_x + gain_y * gain_y).sqrt();
                    if gain > f64::from(max_thrust) + BOOST_DETECTION_MARGIN {
                        self.boost_used[index] = true;
                    }
                }
            }
            for (player, turns) in self.turns_without_pass.iter_mut().enumerate() {
                let pods = 2 * player..2 * player + 2;
                if self.passes[pods.clone()] == passes_before[pods] {
                    *turns += 1;
                } else {
                    *turns = 0;
                }
            }
        }
        self.previous = Some(*pods);
    }

    /// Records the thrust the bot printed for own pod `index` (0 or 1).
    pub fn record_own_command(&mut self, index: usize, thrust: Thrust) {
        if thrust == Thrust::Shield {
            self.shield_lock_turns[index] = SHIELD_LOCK_TURNS;
            return;
        }
        if thrust == Thrust::Boost {
            self.boost_used[index] = true;
        }
        self.shield_lock_turns[index] = self.shield_lock_turns[index].saturating_sub(1);
    }

    /// The engine pod for input slot `index` of the current turn.
    pub fn pod(&self, pods: &[PodObservation; POD_COUNT], index: usize) -> Pod {
        pods[index].to_pod(
            self.passes[index],
            self.boost_used[index],
            self.shield_lock_turns[index],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(next_checkpoint: i32, vx: i32) -> PodObservation {
        PodObservation {
            x: 0,
            y: 0,
            vx,
            vy: 0,
            angle_deg: 0,
            next_checkpoint,
        }
    }

    #[test]
    fn counts_passes_across_the_lap_wrap() {
        let mut memory = Memory::new(3);
        memory.observe(&[pod(1, 0); 4], 200);
        memory.observe(&[pod(2, 0), pod(1, 0), pod(0, 0), pod(1, 0)], 200);
        memory.observe(&[pod(0, 0), pod(1, 0), pod(1, 0), pod(1, 0)], 200);
        // Pod 0: 1→2→0 is two passes; pod 2: 1→0 skips one checkpoint (two passes), then 0→1.
        assert_eq!(memory.passes, [2, 0, 3, 0]);
    }

    #[test]
    fn infers_an_opponent_boost_from_a_speed_jump() {
        let mut memory = Memory::new(3);
        memory.observe(&[pod(1, 0); 4], 100);
        memory.observe(&[pod(1, 0), pod(1, 0), pod(1, 552), pod(1, 85)], 100);
        assert_eq!(memory.boost_used, [false, false, true, false]);
    }

    #[test]
    fn counts_turns_since_each_players_last_pass() {
        let mut memory = Memory::new(3);
        memory.observe(&[pod(1, 0); 4], 200);
        memory.observe(&[pod(1, 0); 4], 200);
        memory.observe(&[pod(1, 0), pod(2, 0), pod(1, 0), pod(1, 0)], 200);
        assert_eq!(memory.turns_without_pass, [0, 2]);
        memory.observe(&[pod(1, 0), pod(2, 0), pod(1, 0), pod(2, 0)], 200);
        assert_eq!(memory.turns_without_pass, [1, 0]);
    }
}
