//! Turn-to-turn memory of a bot: what the input does not say but the game depends on.
//!
//! The input only gives each pod's next checkpoint, so passes (and with them laps, the leader and
//! the checkpoint timeout) are counted from how `nextCheckPointId` advances, modulo the checkpoint
//! count (the lap wrap N−1 → 0 is one pass). Own BOOST use and the SHIELD lock (three turns of no
//! thrust after the SHIELD turn) are recorded from the commands the bot sent. An opponent's BOOST
//! is inferred from a speed gain no thrust can give while no pod was near. The own runner role is
//! kept with hysteresis so the two pods do not swap roles every turn when they are level.

use crate::world::{progress, POD_COUNT};
use csb::engine::{Command, Map, PodObservation, Thrust, Vec2};

/// Turns of zero thrust after the SHIELD turn (csb-rules.md §4.1).
pub const SHIELD_LOCK_TURNS: u8 = 3;
/// Turns without a pass after which a player is eliminated (csb-rules.md §5.4).
pub const CHECKPOINT_TIMEOUT_TURNS: i32 = 100;
/// Speed gain in one turn (after friction) above which an opponent pod is taken to have boosted:
/// the largest thrust gives at most 200 × 0.85 = 170, a BOOST 650 × 0.85 ≈ 552.
// Apart from csb's `two_pod::memory` on purpose: a yardstick must not move with, or share the
// blind spots of, the bot it measures.
const BOOST_SPEED_GAIN: f64 = 350.0;
/// A pod closer than this to another at the start or end of a turn may have been hit, so its
/// speed gain says nothing about a BOOST.
const COLLISION_SUSPECT_DISTANCE: f64 = 1200.0;
/// Progress lead the other own pod needs before it takes over the runner role.
const ROLE_HYSTERESIS: f64 = 1500.0;

/// What is remembered of one pod.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PodMemory {
    /// Checkpoints passed since the start.
    pub passes: u16,
    /// The `nextCheckPointId` last seen (1 at the start); −1 lines are ignored.
    pub last_next: i32,
    /// Turn of the latest pass, 0 if none.
    pub last_pass_turn: u16,
    pub boost_used: bool,
    /// Coming turns whose thrust a SHIELD still forces to 0.
    pub shield_lock_turns: u8,
    /// Last turn's input line, for the opponent BOOST inference.
    pub previous: Option<PodObservation>,
}

impl PodMemory {
    fn new() -> PodMemory {
        PodMemory {
            passes: 0,
            last_next: 1,
            last_pass_turn: 0,
            boost_used: false,
            shield_lock_turns: 0,
            previous: None,
        }
    }
}

/// The memory of one bot (own pods 0 and 1, opponent pods 2 and 3).
#[derive(Clone, Debug)]
pub struct Memory {
    map: Map,
    /// Turns observed so far (the current turn's number once `observe` ran; 1-based).
    pub turn: u16,
    pub pods: [PodMemory; POD_COUNT],
    /// Own pod (0 or 1) that races; the other one blocks.
    pub runner: usize,
}

fn position(observation: &PodObservation) -> Vec2 {
    Vec2::new(f64::from(observation.x), f64::from(observation.y))
}

fn speed(observation: &PodObservation) -> f64 {
    Vec2::new(f64::from(observation.vx), f64::from(observation.vy)).length()
}

impl Memory {
    pub fn new(map: Map) -> Memory {
        Memory {
            map,
            turn: 0,
            pods: [PodMemory::new(); POD_COUNT],
            runner: 0,
        }
    }

    pub fn map(&self) -> Map {
        self.map
    }

    /// Takes in a turn's input: counts passes, infers opponent boosts, updates the roles.
    pub fn observe(&mut self, observations: &[PodObservation; POD_COUNT]) {
        self.turn = self.turn.saturating_add(1);
        let count = self.map.checkpoint_count() as i32;
        let maybe_hit: [bool; POD_COUNT] = std::array::from_fn(|index| {
            Self::near_another(observations, index) || self.near_another_previous(index)
        });
        for (index, observation) in observations.iter().enumerate() {
            let pod = &mut self.pods[index];
            if observation.next_checkpoint >= 0 {
                let advanced = (observation.next_checkpoint - pod.last_next).rem_euclid(count);
                if advanced > 0 {
                    pod.passes = pod.passes.saturating_add(advanced as u16);
                    pod.last_pass_turn = self.turn;
                }
                pod.last_next = observation.next_checkpoint;
            }
            if index >= 2 && !pod.boost_used && !maybe_hit[index] {
                if let Some(previous) = pod.previous {
                    if speed(observation) - speed(&previous) > BOOST_SPEED_GAIN {
                        pod.boost_used = true;
                    }
                }
            }
            pod.previous = Some(*observation);
        }
        self.update_roles();
    }

    fn near_another(observations: &[PodObservation; POD_COUNT], index: usize) -> bool {
        let here = position(&observations[index]);
        (0..POD_COUNT).any(|other| {
            other != index
                && here.distance(position(&observations[other])) < COLLISION_SUSPECT_DISTANCE
        })
    }

    fn near_another_previous(&self, index: usize) -> bool {
        let Some(here) = self.pods[index].previous else {
            return false;
        };
        (0..POD_COUNT).any(|other| {
            other != index
                && self.pods[other].previous.is_some_and(|there| {
                    position(&here).distance(position(&there)) < COLLISION_SUSPECT_DISTANCE
                })
        })
    }

    /// Race progress of pod `index` from its last seen position.
    pub fn progress(&self, index: usize) -> f64 {
        let pod = &self.pods[index];
        let pos = pod
            .previous
            .map(|line| position(&line))
            .unwrap_or(Vec2::ZERO);
        progress(&self.map, pod.passes, pos)
    }

    fn update_roles(&mut self) {
        let other = 1 - self.runner;
        let lead = self.progress(other) - self.progress(self.runner);
        if (self.turn == 1 && lead > 0.0) || lead > ROLE_HYSTERESIS {
            self.runner = other;
        }
    }

    /// Records the commands sent for the own pods: BOOST spent, SHIELD lock set or counted down.
    pub fn record_commands(&mut self, commands: &[Command; 2]) {
        for (pod, command) in self.pods.iter_mut().zip(commands) {
            match command.thrust {
                Thrust::Shield => pod.shield_lock_turns = SHIELD_LOCK_TURNS,
                thrust => {
                    if thrust == Thrust::Boost {
                        pod.boost_used = true;
                    }
                    pod.shield_lock_turns = pod.shield_lock_turns.saturating_sub(1);
                }
            }
        }
    }

    /// Turns `player` (0 = self, 1 = opponent) has before the checkpoint timeout, counted after
    /// the current turn: `100 − turn + latest pass turn`.
    pub fn timeout_left(&self, player: usize) -> i32 {
        let latest = self.pods[2 * player]
            .last_pass_turn
            .max(self.pods[2 * player + 1].last_pass_turn);
        CHECKPOINT_TIMEOUT_TURNS - i32::from(self.turn) + i32::from(latest)
    }

    /// Total passes of a player's two pods.
    pub fn player_passes(&self, player: usize) -> u32 {
        u32::from(self.pods[2 * player].passes) + u32::from(self.pods[2 * player + 1].passes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(x: i32, y: i32, vx: i32, vy: i32, next: i32) -> PodObservation {
        PodObservation {
            x,
            y,
            vx,
            vy,
            angle_deg: 0,
            next_checkpoint: next,
        }
    }

    fn map() -> Map {
        Map::new(&[(1000, 1000), (10000, 1000), (10000, 8000)]).unwrap()
    }

    /// Four pods far apart, pod 0 heading for `next`.
    fn turn(next: i32) -> [PodObservation; POD_COUNT] {
        [
            line(2000, 2000, 0, 0, next),
            line(2000, 6000, 0, 0, 1),
            line(6000, 2000, 0, 0, 1),
            line(6000, 6000, 0, 0, 1),
        ]
    }

    #[test]
    fn passes_follow_next_checkpoint_changes_across_the_lap_wrap() {
        let mut memory = Memory::new(map());
        let expected = [
            (1, 0),
            (1, 0),
            (2, 1),
            (0, 2),
            (0, 2),
            (1, 3),
            (2, 4),
            (0, 5),
        ];
        for (turn_number, (next, passes)) in expected.into_iter().enumerate() {
            memory.observe(&turn(next));
            assert_eq!(memory.pods[0].passes, passes, "turn {}", turn_number + 1);
            assert_eq!(memory.pods[1].passes, 0);
        }
        assert_eq!(memory.pods[0].last_pass_turn, 8);
        assert_eq!(memory.player_passes(0), 5);
        assert_eq!(memory.turn, 8);
    }

    #[test]
    fn several_passes_in_one_turn_and_eliminated_lines() {
        let mut memory = Memory::new(map());
        memory.observe(&turn(1));
        // 1 → 0 with three checkpoints: checkpoints 1 and 2 both passed this turn.
        memory.observe(&turn(0));
        assert_eq!(memory.pods[0].passes, 2);
        // An eliminated player's pods show −1: nothing changes, and the count resumes after.
        memory.observe(&turn(-1));
        assert_eq!(memory.pods[0].passes, 2);
        memory.observe(&turn(1));
        assert_eq!(memory.pods[0].passes, 3);
    }

    #[test]
    fn checkpoint_timeout_counts_from_the_latest_own_pass() {
        let mut memory = Memory::new(map());
        memory.observe(&turn(1));
        assert_eq!(memory.timeout_left(0), 99);
        memory.observe(&turn(1));
        memory.observe(&turn(2));
        assert_eq!(memory.timeout_left(0), 100);
        assert_eq!(memory.timeout_left(1), 97);
    }

    #[test]
    fn own_boost_and_shield_lock_from_the_commands() {
        let mut memory = Memory::new(map());
        let go = Command::new(0, 0, Thrust::Power(100));
        memory.record_commands(&[Command::new(0, 0, Thrust::Boost), go]);
        assert!(memory.pods[0].boost_used && !memory.pods[1].boost_used);
        memory.record_commands(&[go, Command::new(0, 0, Thrust::Shield)]);
        let mut locks = vec![memory.pods[1].shield_lock_turns];
        for _ in 0..4 {
            memory.record_commands(&[go, go]);
            locks.push(memory.pods[1].shield_lock_turns);
        }
        assert_eq!(locks, vec![3, 2, 1, 0, 0]);
        memory.record_commands(&[go, Command::new(0, 0, Thrust::Shield)]);
        memory.record_commands(&[go, Command::new(0, 0, Thrust::Shield)]);
        assert_eq!(memory.pods[1].shield_lock_turns, 3);
    }

    #[test]
    fn opponent_boost_is_inferred_from_a_lone_speed_jump() {
        let mut memory = Memory::new(map());
        memory.observe(&turn(1));
        let mut next = turn(1);
        next[2] = line(6552, 2000, 552, 0, 1);
        // Pod 3 gains as much but next to pod 1: a collision, not a boost.
        next[3] = line(2500, 6000, -552, 0, 1);
        memory.observe(&next);
        assert!(memory.pods[2].boost_used);
        assert!(!memory.pods[3].boost_used);
        // Ordinary thrust never looks like a boost.
        let mut memory = Memory::new(map());
        memory.observe(&turn(1));
        let mut next = turn(1);
        next[2] = line(6170, 2000, 170, 0, 1);
        memory.observe(&next);
        assert!(!memory.pods[2].boost_used);
    }

    #[test]
    fn runner_role_changes_only_on_a_clear_lead() {
        let mut memory = Memory::new(map());
        let mut lines = turn(1);
        lines[1] = line(3000, 1000, 0, 0, 1);
        memory.observe(&lines);
        // Pod 1 is closer to checkpoint 1 on the first turn: it runs.
        assert_eq!(memory.runner, 1);
        // Pod 0 a little ahead: no swap.
        lines[0] = line(3500, 1000, 0, 0, 1);
        memory.observe(&lines);
        assert_eq!(memory.runner, 1);
        // Pod 0 passed a checkpoint: clear lead, swap.
        lines[0] = line(10000, 2000, 0, 0, 2);
        memory.observe(&lines);
        assert_eq!(memory.runner, 0);
    }
}
