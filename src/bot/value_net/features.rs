//! The network's inputs: numbers computed from the four pods and the course, from player 0's
//! point of view (pods 0 and 1 are its own). The trainer (crate `learn`) calls this same function,
//! so the bot and the trainer cannot disagree. Player 1's view is the same function on the pods
//! with the teams swapped ([`swap_teams`]): one network serves both sides.
//!
//! Each team's pods are ordered runner first (the one with more race progress, as the bot's
//! roles are chosen). Per pod, in the frame of the direction to its next checkpoint: passes
//! still to make, distance, speed along and across, heading along and across, the turn the
//! course makes at that checkpoint and the next leg's length, boost left, shield lock. Per
//! blocker, where it stands and moves relative to the opposing runner and that runner's next
//! checkpoint. Then the runners' race lead and the hand evaluation's advantage (`evaluation.rs`,
//! default weights), both in checkpoints. Last, each team's checkpoint clock (own, then theirs:
//! the turns left before the checkpoint timeout, `timeout_clocks.rs`, in units of 100, within
//! 0..1). Lengths are in units of 10,000 (the board is 16,000 × 9,000), speeds in units of 1,000.
//! The clocks came last (issue 36) so that a network trained without them is the same network
//! with zero weights on them: the readers of older files (`file.rs`) give it those.
//!
//! A leaf computes both views at once ([`Inputs::of`]): player 1's view holds the same numbers
//! with the slots of the pods, the blocker pairs and the clocks exchanged and the lead and the
//! hand evaluation negated, so [`Inputs`] keeps each number once, by pod, and the slot each pod
//! takes; the network's kernels read either view from it.

use super::scaled::{scale, Unit};
use crate::bot::evaluation::{EvalWeights, CHECKPOINT_WEIGHT};
use crate::bot::timeout_clocks::TimeoutClocks;
use crate::engine::{FastPod, Map, Vec2};

/// Inputs per pod.
pub const POD_FEATURES: usize = 11;
/// Inputs per blocker about the opposing runner.
pub const BLOCKER_FEATURES: usize = 5;
/// Inputs about the checkpoint clocks: own, theirs.
pub const CLOCK_FEATURES: usize = 2;
/// Inputs of the network: 4 pods, 2 blockers, the lead and the hand evaluation, the clocks.
pub const FEATURE_COUNT: usize = 4 * POD_FEATURES + 2 * BLOCKER_FEATURES + 2 + CLOCK_FEATURES;
/// Inputs of the networks trained before the clocks were inputs (files of format 1).
pub const FEATURE_COUNT_WITHOUT_CLOCKS: usize = FEATURE_COUNT - CLOCK_FEATURES;
/// Where the clocks sit among a view's inputs.
pub const CLOCK_INPUTS: usize = FEATURE_COUNT_WITHOUT_CLOCKS;

const LENGTH_UNIT: f64 = 10_000.0;
const SPEED_UNIT: f64 = 1_000.0;
/// Every pod and blocker input is clamped to this either way: the board's lengths and a pod's
/// speeds stay within it, so a pod the search sends off the board does not meet inputs the
/// network never saw (without it, the network's linear extrapolation sent pods off the board,
/// docs/strength.md row N1).
const MAX_INPUT: f64 = 2.0;
/// The lead is clamped to this many checkpoints either way.
const MAX_LEAD: f64 = 4.0;

/// Passes still to make as an input, by their number: divided by 10 (a 3-lap race of 8
/// checkpoints has 24 to make), 20 and more clamped to 2.
const PASSES_LEFT_INPUTS: [f32; 21] = [
    0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8,
    1.9, 2.0,
];
/// Turns of shield lock as an input, by their number: divided by 3, 6 and more clamped to 2.
const SHIELD_LOCK_INPUTS: [f32; 7] = [0.0, 0.33333334, 0.6666667, 1.0, 1.3333334, 1.6666666, 2.0];
/// A checkpoint clock is divided by this (a full clock is 1), after clamping to 0..=100.
const CLOCK_UNIT: f32 = 100.0;

/// A checkpoint clock as an input.
#[inline(always)]
fn clock_input(turns_left: i16) -> f32 {
    f32::from(turns_left.clamp(0, CLOCK_UNIT as i16)) / CLOCK_UNIT
}

/// The pods with the two teams exchanged: player 1's view of the same position.
#[inline(always)]
pub fn swap_teams(pods: &[FastPod; 4]) -> [FastPod; 4] {
    [pods[2], pods[3], pods[0], pods[1]]
}

/// `vector` scaled to length 1, or +x for a zero vector.
#[inline(always)]
pub(crate) fn unit(vector: Vec2, length: f64) -> Vec2 {
    if length > 0.0 {
        Vec2::new(vector.x / length, vector.y / length)
    } else {
        Vec2::new(1.0, 0.0)
    }
}

/// The leg from a checkpoint to the next one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Leg {
    /// The leg's unit direction (+x for a zero-length leg).
    pub direction: Vec2,
    /// The leg's length as the network reads it: in units of 10,000, clamped, as `f32`.
    pub length_input: f32,
}

impl Leg {
    /// The leg that leaves checkpoint `from` of `map` (`course.rs` keeps them for a game).
    #[inline(always)]
    pub fn of(map: &Map, from: usize) -> Leg {
        let target = map.checkpoint(from);
        let leg = map.checkpoint((from + 1) % map.checkpoint_count()) - target;
        let length = leg.length();
        Leg {
            direction: unit(leg, length),
            length_input: (length / LENGTH_UNIT).clamp(-MAX_INPUT, MAX_INPUT) as f32,
        }
    }
}

/// Writes the inputs of the position `pods` (player 0's view) into `out`.
#[inline(always)]
pub fn features(
    pods: &[FastPod; 4],
    map: &Map,
    passes_to_finish: u16,
    clocks: TimeoutClocks,
    out: &mut [f32; FEATURE_COUNT],
) {
    let legs = pods.map(|pod| Leg::of(map, pod.next_checkpoint as usize));
    *out = Inputs::of(pods, map, &legs, passes_to_finish, clocks).view(0);
}

/// Where [`Inputs::values`] keeps each number: per pod feature a row of four (by pod index),
/// per blocker feature a row of two (by pair: player 0's blocker, player 1's), then the lead and
/// the hand evaluation of player 0's view and of player 1's, then the clocks' inputs (player
/// 0's, player 1's). A view reads the lead and the hand evaluation at [`LEADS`] and its clocks
/// at [`CLOCK_INPUTS`].
pub const POD_ROWS: usize = 0;
pub const BLOCKER_ROWS: usize = POD_ROWS + 4 * POD_FEATURES;
pub const LEADS: usize = BLOCKER_ROWS + 2 * BLOCKER_FEATURES;
const CLOCKS: usize = LEADS + 4;
pub const VALUE_COUNT: usize = CLOCKS + CLOCK_FEATURES;

/// Both views' inputs of one position, each number once (see the module's text).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inputs {
    /// The numbers, laid out as [`POD_ROWS`], [`BLOCKER_ROWS`] and [`LEADS`] say.
    pub values: [f32; VALUE_COUNT],
    /// The pod in each slot of player 0's view: own runner, own blocker, their runner, their
    /// blocker. Player 1's slot `s` holds player 0's slot `s ^ 2`.
    pub slot_pods: [usize; 4],
}

/// The inputs divided by a unit: per pod its distance, speed along and speed across (rows of
/// [`Inputs::values`] from feature 1), then per blocker feature its row of pairs, the lead and
/// the hand evaluation (the values from [`BLOCKER_ROWS`]).
const POD_SCALED: usize = 3 * 4;
const OTHER_SCALED: usize = 2 * BLOCKER_FEATURES + 2;
const LENGTH: Unit = Unit {
    divisor: LENGTH_UNIT,
    reciprocal: 1.0 / LENGTH_UNIT,
    limit: MAX_INPUT,
};
const SPEED: Unit = Unit {
    divisor: SPEED_UNIT,
    reciprocal: 1.0 / SPEED_UNIT,
    limit: MAX_INPUT,
};
const LEAD: Unit = Unit {
    divisor: CHECKPOINT_WEIGHT,
    reciprocal: 1.0 / CHECKPOINT_WEIGHT,
    limit: MAX_LEAD,
};
const POD_SCALED_UNITS: [Unit; POD_SCALED] = [
    LENGTH, LENGTH, LENGTH, LENGTH, SPEED, SPEED, SPEED, SPEED, SPEED, SPEED, SPEED, SPEED,
];
const OTHER_SCALED_UNITS: [Unit; OTHER_SCALED] = [
    LENGTH, LENGTH, LENGTH, LENGTH, LENGTH, LENGTH, LENGTH, LENGTH, SPEED, SPEED, LEAD, LEAD,
];

impl Inputs {
    /// Both views' inputs of the position `pods` with the checkpoint clocks `clocks` (`legs[p]`:
    /// the leg leaving pod `p`'s next checkpoint), equal bit for bit to what [`features`] writes
    /// for the pods (player 0's view) and for [`swap_teams`] of them with the clocks swapped
    /// (player 1's): player 1's view takes the same numbers, the
    /// lead and the hand evaluation as `0 − x` (in floating point `a − b` is `0 − (b − a)`, a
    /// zero included, and `clamp` and the conversion to `f32` are symmetric). Written as loops
    /// over the four pods and over rows, which the compiler turns into packed square roots,
    /// divisions and products; a division by a unit is a product with its reciprocal
    /// (`scaled.rs`).
    #[inline(always)]
    pub fn of(
        pods: &[FastPod; 4],
        map: &Map,
        legs: &[Leg; 4],
        passes_to_finish: u16,
        clocks: TimeoutClocks,
    ) -> Inputs {
        let mut values = [0.0; VALUE_COUNT];
        // Per pod: the vector to its next checkpoint, its length (the distance that `progress`
        // also takes: `(a − b)²` is `(b − a)²` exactly) and its direction (`unit`).
        let targets = pods.map(|pod| map.checkpoint(pod.next_checkpoint as usize));
        let mut towards = [[0.0; 4]; 2];
        for (pod, (index, target)) in pods.iter().zip(targets.iter().enumerate()) {
            towards[0][index] = target.x - pod.pos.x;
            towards[1][index] = target.y - pod.pos.y;
        }
        let mut distances = [0.0; 4];
        for (pod, distance) in distances.iter_mut().enumerate() {
            let (x, y) = (towards[0][pod], towards[1][pod]);
            *distance = (x * x + y * y).sqrt();
        }
        let mut direction = [[0.0; 4]; 2];
        for pod in 0..4 {
            let positive = distances[pod] > 0.0;
            let divisor = if positive { distances[pod] } else { 1.0 };
            let (x, y) = (towards[0][pod] / divisor, towards[1][pod] / divisor);
            direction[0][pod] = if positive { x } else { 1.0 };
            direction[1][pod] = if positive { y } else { 0.0 };
        }
        let (dx, dy) = (&direction[0], &direction[1]);
        // Per pod, in the frame of its direction: the inputs divided by a unit, the others.
        let mut scaled = [0.0; POD_SCALED];
        let mut plain = [0.0; 4 * 4];
        for (index, pod) in pods.iter().enumerate() {
            let (vel, heading, leg) = (pod.vel, pod.heading, legs[index].direction);
            scaled[index] = distances[index];
            scaled[4 + index] = vel.x * dx[index] + vel.y * dy[index];
            scaled[8 + index] = dx[index] * vel.y - dy[index] * vel.x;
            plain[index] = heading.x * dx[index] + heading.y * dy[index];
            plain[4 + index] = dx[index] * heading.y - dy[index] * heading.x;
            plain[8 + index] = dx[index] * leg.x + dy[index] * leg.y;
            plain[12 + index] = dx[index] * leg.y - dy[index] * leg.x;
        }
        let mut pod_scaled = [0.0; POD_SCALED];
        scale(&scaled, &POD_SCALED_UNITS, &mut pod_scaled);
        values[POD_ROWS + 4..POD_ROWS + 16].copy_from_slice(&pod_scaled);
        for (value, input) in plain.iter().zip(&mut values[POD_ROWS + 16..POD_ROWS + 32]) {
            *input = value.clamp(-MAX_INPUT, MAX_INPUT) as f32;
        }
        for (index, pod) in pods.iter().enumerate() {
            let left = usize::from(passes_to_finish.saturating_sub(pod.passes));
            let shield = usize::from(pod.shield_lock_turns);
            values[POD_ROWS + index] = PASSES_LEFT_INPUTS[left.min(PASSES_LEFT_INPUTS.len() - 1)];
            values[POD_ROWS + 32 + index] = legs[index].length_input;
            values[POD_ROWS + 36 + index] = if pod.boost_used { 0.0 } else { 1.0 };
            values[POD_ROWS + 40 + index] =
                SHIELD_LOCK_INPUTS[shield.min(SHIELD_LOCK_INPUTS.len() - 1)];
        }
        // Each team's pods runner first, as `runner_first` orders them.
        let progress =
            |pod: usize| f64::from(pods[pod].passes) * CHECKPOINT_WEIGHT - distances[pod];
        let swapped = [0, 2].map(|first| usize::from(progress(first + 1) > progress(first)));
        let runners = [swapped[0], 2 + swapped[1]];
        let blockers = [1 - swapped[0], 3 - swapped[1]];
        // Each blocker against the opposing runner. The blocker's distances to that runner and
        // to its next checkpoint are also the hand evaluation's.
        let mut other = [0.0; OTHER_SCALED];
        let mut offsets = [[0.0; 4]; 2];
        for pair in 0..2 {
            let (blocker, runner) = (blockers[pair], runners[1 - pair]);
            let (blocker_pod, runner_pod) = (&pods[blocker], &pods[runner]);
            let target = targets[runner];
            offsets[0][pair] = blocker_pod.pos.x - runner_pod.pos.x;
            offsets[1][pair] = blocker_pod.pos.y - runner_pod.pos.y;
            offsets[0][2 + pair] = blocker_pod.pos.x - target.x;
            offsets[1][2 + pair] = blocker_pod.pos.y - target.y;
            let (ox, oy) = (offsets[0][pair], offsets[1][pair]);
            let (rx, ry) = (dx[runner], dy[runner]);
            other[pair] = ox * rx + oy * ry;
            other[2 + pair] = rx * oy - ry * ox;
            let relative = blocker_pod.vel - runner_pod.vel;
            other[8 + pair] = relative.x * rx + relative.y * ry;
        }
        // To the runner (pairs 0, 1), to its checkpoint (pairs 0, 1).
        let mut blocker_distances = [0.0; 4];
        for (index, distance) in blocker_distances.iter_mut().enumerate() {
            let (x, y) = (offsets[0][index], offsets[1][index]);
            *distance = (x * x + y * y).sqrt();
        }
        other[4..8].copy_from_slice(&blocker_distances);
        let (to_runner, to_target) = (&blocker_distances[..2], &blocker_distances[2..]);
        let race = progress(runners[0]) - progress(runners[1]);
        other[10] = race;
        // The hand evaluation's advantage (`player0_advantage` with the default weights and
        // these roles), in checkpoints: the network starts from what the hand evaluation knows
        // and learns what it misses.
        let weights = EvalWeights::default();
        let mut advantage = race + weights.blocker * (to_target[1] - to_target[0]);
        if weights.chase != 0.0 {
            advantage += weights.chase * (to_runner[1] - to_runner[0]);
        }
        other[11] = advantage;
        let mut other_scaled = [0.0; OTHER_SCALED];
        scale(&other, &OTHER_SCALED_UNITS, &mut other_scaled);
        values[BLOCKER_ROWS..LEADS + 2].copy_from_slice(&other_scaled);
        values[LEADS + 2] = 0.0 - values[LEADS];
        values[LEADS + 3] = 0.0 - values[LEADS + 1];
        values[CLOCKS] = clock_input(clocks.turns_left[0]);
        values[CLOCKS + 1] = clock_input(clocks.turns_left[1]);
        Inputs {
            values,
            slot_pods: [runners[0], blockers[0], runners[1], blockers[1]],
        }
    }

    /// The pod in slot `slot` of view `view` (0: player 0's, 1: player 1's).
    #[inline(always)]
    pub fn slot_pod(&self, view: usize, slot: usize) -> usize {
        self.slot_pods[(slot ^ (2 * view)) & 3] & 3
    }

    /// Calls `visit(index, player 0's input, player 1's input)` for each input in the order
    /// [`features`] writes them.
    #[inline(always)]
    pub fn for_each(&self, mut visit: impl FnMut(usize, f32, f32)) {
        for slot in 0..4 {
            let (own, theirs) = (self.slot_pod(0, slot), self.slot_pod(1, slot));
            for feature in 0..POD_FEATURES {
                let row = &self.values[POD_ROWS + 4 * feature..POD_ROWS + 4 * feature + 4];
                visit(slot * POD_FEATURES + feature, row[own], row[theirs]);
            }
        }
        for pair in 0..2 {
            for feature in 0..BLOCKER_FEATURES {
                let row = &self.values[BLOCKER_ROWS + 2 * feature..BLOCKER_ROWS + 2 * feature + 2];
                visit(
                    BLOCKER_ROWS + pair * BLOCKER_FEATURES + feature,
                    row[pair],
                    row[pair ^ 1],
                );
            }
        }
        for lead in 0..2 {
            visit(
                LEADS + lead,
                self.values[LEADS + lead],
                self.values[LEADS + 2 + lead],
            );
        }
        for clock in 0..CLOCK_FEATURES {
            visit(
                CLOCK_INPUTS + clock,
                self.values[CLOCKS + clock],
                self.values[CLOCKS + (clock ^ 1)],
            );
        }
    }

    /// View `view` written out in the order [`features`] writes.
    #[inline(always)]
    pub fn view(&self, view: usize) -> [f32; FEATURE_COUNT] {
        let mut out = [0.0; FEATURE_COUNT];
        self.for_each(|index, own, theirs| out[index] = if view == 0 { own } else { theirs });
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bot::evaluation::{player0_advantage, progress, Roles};
    use crate::bot::value_net::course::Course;
    use crate::search::Rng;

    /// Passes still to make are divided by this.
    const PASSES_UNIT: f64 = 10.0;

    /// `a × b` (the z of the 3-d cross product): positive when `b` turns left of `a`.
    fn cross(a: Vec2, b: Vec2) -> f64 {
        a.x * b.y - a.y * b.x
    }

    fn map() -> Map {
        Map::new(&[(1000, 1000), (9000, 1000), (9000, 7000)]).unwrap()
    }

    fn pod(x: f64, y: f64, passes: u16, next: u8) -> FastPod {
        FastPod {
            pos: Vec2::new(x, y),
            vel: Vec2::new(100.0, -50.0),
            heading: Vec2::new(0.0, 1.0),
            passes,
            next_checkpoint: next,
            boost_used: false,
            shield_lock_turns: 0,
        }
    }

    /// The inputs as they were first written, one view per call, a unit's division written as
    /// the product with its reciprocal (`scaled.rs`): the definition that [`Inputs::of`] must
    /// match bit for bit.
    fn reference_features(
        pods: &[FastPod; 4],
        map: &Map,
        passes_to_finish: u16,
        clocks: TimeoutClocks,
        out: &mut [f32; FEATURE_COUNT],
    ) {
        let runner_first = |first: usize| {
            if progress(&pods[first + 1], map) > progress(&pods[first], map) {
                [first + 1, first]
            } else {
                [first, first + 1]
            }
        };
        let [own_runner, own_blocker] = runner_first(0);
        let [their_runner, their_blocker] = runner_first(2);
        let order = [own_runner, own_blocker, their_runner, their_blocker];
        let count = map.checkpoint_count();
        let mut directions = [Vec2::ZERO; 4];
        for (slot, &pod_index) in order.iter().enumerate() {
            let pod = &pods[pod_index];
            let next = pod.next_checkpoint as usize;
            let target = map.checkpoint(next);
            let towards = target - pod.pos;
            let distance = towards.length();
            let direction = unit(towards, distance);
            directions[slot] = direction;
            let leg = map.checkpoint((next + 1) % count) - target;
            let leg_length = leg.length();
            let leg_direction = unit(leg, leg_length);
            let left = f64::from(passes_to_finish.saturating_sub(pod.passes));
            let values = [
                left / PASSES_UNIT,
                distance * (1.0 / LENGTH_UNIT),
                pod.vel.dot(direction) * (1.0 / SPEED_UNIT),
                cross(direction, pod.vel) * (1.0 / SPEED_UNIT),
                pod.heading.dot(direction),
                cross(direction, pod.heading),
                direction.dot(leg_direction),
                cross(direction, leg_direction),
                leg_length / LENGTH_UNIT,
                if pod.boost_used { 0.0 } else { 1.0 },
                f64::from(pod.shield_lock_turns) / 3.0,
            ];
            for (feature, value) in values.iter().enumerate() {
                out[slot * POD_FEATURES + feature] = value.clamp(-MAX_INPUT, MAX_INPUT) as f32;
            }
        }
        for (pair, (blocker, runner)) in [(1, 2), (3, 0)].into_iter().enumerate() {
            let blocker_pod = &pods[order[blocker]];
            let runner_pod = &pods[order[runner]];
            let direction = directions[runner];
            let offset = blocker_pod.pos - runner_pod.pos;
            let target = map.checkpoint(runner_pod.next_checkpoint as usize);
            let values = [
                offset.dot(direction) * (1.0 / LENGTH_UNIT),
                cross(direction, offset) * (1.0 / LENGTH_UNIT),
                offset.length() * (1.0 / LENGTH_UNIT),
                blocker_pod.pos.distance(target) * (1.0 / LENGTH_UNIT),
                (blocker_pod.vel - runner_pod.vel).dot(direction) * (1.0 / SPEED_UNIT),
            ];
            let start = 4 * POD_FEATURES + pair * BLOCKER_FEATURES;
            for (feature, value) in values.iter().enumerate() {
                out[start + feature] = value.clamp(-MAX_INPUT, MAX_INPUT) as f32;
            }
        }
        let lead = (progress(&pods[own_runner], map) - progress(&pods[their_runner], map))
            * (1.0 / CHECKPOINT_WEIGHT);
        out[LEADS] = lead.clamp(-MAX_LEAD, MAX_LEAD) as f32;
        let roles =
            [(own_runner, own_blocker), (their_runner, their_blocker)].map(|(runner, blocker)| {
                Roles {
                    runner,
                    blocker,
                    blocker_races: false,
                }
            });
        let hand = player0_advantage(pods, map, &roles, &EvalWeights::default())
            * (1.0 / CHECKPOINT_WEIGHT);
        out[LEADS + 1] = hand.clamp(-MAX_LEAD, MAX_LEAD) as f32;
        for (input, turns) in out[CLOCK_INPUTS..].iter_mut().zip(clocks.turns_left) {
            *input = (f64::from(turns) / 100.0).clamp(0.0, 1.0) as f32;
        }
    }

    /// Positions of every kind: on and off the board, pods on their checkpoint, teammates on
    /// the same spot (tied progress), shields, boosts, finished and unfinished races, clocks
    /// run out, full, between and beyond.
    pub(crate) fn random_positions(
        seed: u64,
        count: usize,
    ) -> Vec<(Map, [FastPod; 4], u16, TimeoutClocks)> {
        let mut rng = Rng::new(seed);
        let coordinate = |rng: &mut Rng, low: f64, high: f64, whole: bool| {
            let value = low + (high - low) * rng.next_f64();
            if whole {
                value.round()
            } else {
                value
            }
        };
        (0..count)
            .map(|index| {
                let checkpoints = 2 + rng.below(7) as usize;
                let spots: Vec<(i32, i32)> = (0..checkpoints)
                    .map(|_| (rng.below(16_000) as i32, rng.below(9_000) as i32))
                    .collect();
                let map = Map::new(&spots).unwrap();
                let passes_to_finish = (1 + rng.below(3) as u16) * checkpoints as u16;
                let whole = index % 2 == 0;
                let mut pods = [FastPod {
                    pos: Vec2::ZERO,
                    vel: Vec2::ZERO,
                    heading: Vec2::new(1.0, 0.0),
                    passes: 0,
                    next_checkpoint: 0,
                    boost_used: false,
                    shield_lock_turns: 0,
                }; 4];
                for pod in pods.iter_mut() {
                    pod.next_checkpoint = rng.below(checkpoints as u32) as u8;
                    pod.pos = if rng.below(10) == 0 {
                        map.checkpoint(pod.next_checkpoint as usize)
                    } else {
                        Vec2::new(
                            coordinate(&mut rng, -3_000.0, 19_000.0, whole),
                            coordinate(&mut rng, -3_000.0, 12_000.0, whole),
                        )
                    };
                    pod.vel = Vec2::new(
                        coordinate(&mut rng, -1_200.0, 1_200.0, whole),
                        coordinate(&mut rng, -1_200.0, 1_200.0, whole),
                    );
                    let angle = coordinate(&mut rng, 0.0, std::f64::consts::TAU, false);
                    pod.heading = Vec2::new(angle.cos(), angle.sin());
                    pod.passes = rng.below(u32::from(passes_to_finish) + 3) as u16;
                    pod.boost_used = rng.below(2) == 0;
                    pod.shield_lock_turns = if rng.below(4) == 0 {
                        rng.below(4) as u8
                    } else {
                        0
                    };
                }
                if rng.below(8) == 0 {
                    let team = 2 * rng.below(2) as usize;
                    pods[team + 1].pos = pods[team].pos;
                    pods[team + 1].passes = pods[team].passes;
                    pods[team + 1].next_checkpoint = pods[team].next_checkpoint;
                }
                let mut clock = || rng.below(131) as i32 - 15;
                let clocks = TimeoutClocks::new([clock(), clock()]);
                (map, pods, passes_to_finish, clocks)
            })
            .collect()
    }

    #[test]
    fn the_input_tables_hold_the_divisions() {
        for (left, input) in PASSES_LEFT_INPUTS.iter().enumerate() {
            let expected = (left as f64 / PASSES_UNIT).clamp(-MAX_INPUT, MAX_INPUT) as f32;
            assert_eq!(input.to_bits(), expected.to_bits(), "{left}");
        }
        assert_eq!((21.0 / PASSES_UNIT).min(MAX_INPUT) as f32, 2.0);
        for (turns, input) in SHIELD_LOCK_INPUTS.iter().enumerate() {
            let expected = (turns as f64 / 3.0).clamp(-MAX_INPUT, MAX_INPUT) as f32;
            assert_eq!(input.to_bits(), expected.to_bits(), "{turns}");
        }
        assert_eq!((7.0f64 / 3.0).min(MAX_INPUT) as f32, 2.0);
    }

    #[test]
    fn both_views_are_the_reference_features_bit_for_bit() {
        let bits = |inputs: &[f32; FEATURE_COUNT]| inputs.map(f32::to_bits);
        for (map, pods, passes, clocks) in random_positions(11, 20_000) {
            let mut expected = [[0.0; FEATURE_COUNT]; 2];
            reference_features(&pods, &map, passes, clocks, &mut expected[0]);
            let (mirror, mirror_clocks) = (swap_teams(&pods), clocks.swapped());
            reference_features(&mirror, &map, passes, mirror_clocks, &mut expected[1]);
            let course = Course::new(&map);
            let legs = pods.map(|pod| course.leg(pod.next_checkpoint as usize));
            let inputs = Inputs::of(&pods, &map, &legs, passes, clocks);
            let mut visited = [[0.0; FEATURE_COUNT]; 2];
            inputs.for_each(|index, own, theirs| {
                visited[0][index] = own;
                visited[1][index] = theirs;
            });
            for view in 0..2 {
                let message = format!("{pods:?} view {view}");
                assert_eq!(bits(&inputs.view(view)), bits(&expected[view]), "{message}");
                assert_eq!(bits(&visited[view]), bits(&expected[view]), "{message}");
            }
            let mut own = [0.0; FEATURE_COUNT];
            features(&pods, &map, passes, clocks, &mut own);
            assert_eq!(bits(&own), bits(&expected[0]));
        }
    }

    #[test]
    fn features_follow_roles_not_pod_indices_and_swap_with_the_teams() {
        let map = map();
        let pods = [
            pod(5000.0, 1000.0, 1, 1),
            pod(8000.0, 1500.0, 2, 2),
            pod(3000.0, 5000.0, 1, 1),
            pod(4000.0, 1000.0, 1, 1),
        ];
        let clocks = TimeoutClocks::new([80, 25]);
        let mut mine = [0.0; FEATURE_COUNT];
        features(&pods, &map, 9, clocks, &mut mine);
        // Pod 1 has passed more: it is our runner (slot 0), 7 passes left, √(1000² + 5500²) from
        // its next checkpoint (9000, 7000).
        assert_eq!(mine[0], 0.7);
        assert!((f64::from(mine[1]) - 1000f64.hypot(5500.0) / 10000.0).abs() < 1e-6);
        // Exchanging our two pods changes nothing.
        let mut exchanged = [0.0; FEATURE_COUNT];
        features(
            &[pods[1], pods[0], pods[2], pods[3]],
            &map,
            9,
            clocks,
            &mut exchanged,
        );
        assert_eq!(mine, exchanged);
        // The other side's view: pod slots, blockers and clocks exchanged, the lead negated.
        let mut theirs = [0.0; FEATURE_COUNT];
        features(&swap_teams(&pods), &map, 9, clocks.swapped(), &mut theirs);
        assert_eq!(
            mine[..2 * POD_FEATURES],
            theirs[2 * POD_FEATURES..4 * POD_FEATURES]
        );
        let blockers = 4 * POD_FEATURES;
        assert_eq!(
            mine[blockers..blockers + BLOCKER_FEATURES],
            theirs[blockers + BLOCKER_FEATURES..blockers + 2 * BLOCKER_FEATURES]
        );
        for lead in [LEADS, LEADS + 1] {
            assert_eq!(mine[lead], -theirs[lead]);
            assert!(mine[lead] > 0.0);
        }
        assert_eq!(mine[CLOCK_INPUTS..], [0.8, 0.25]);
        assert_eq!(theirs[CLOCK_INPUTS..], [0.25, 0.8]);
        // Clocks run out or beyond 100 turns read as 0 and 1.
        features(&pods, &map, 9, TimeoutClocks::new([-3, 140]), &mut mine);
        assert_eq!(mine[CLOCK_INPUTS..], [0.0, 1.0]);
    }
}
