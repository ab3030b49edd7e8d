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
//! checkpoint. Last, the runners' race lead and the hand evaluation's advantage (`evaluation.rs`,
//! default weights), both in checkpoints. Lengths are in units of 10,000
//! (the board is 16,000 × 9,000), speeds in units of 1,000.

use crate::bot::evaluation::{EvalWeights, CHECKPOINT_WEIGHT};
use crate::engine::{FastPod, Map, Vec2};

/// Inputs per pod.
const POD_FEATURES: usize = 11;
/// Inputs per blocker about the opposing runner.
const BLOCKER_FEATURES: usize = 5;
/// Inputs of the network: 4 pods, 2 blockers, the lead and the hand evaluation.
pub const FEATURE_COUNT: usize = 4 * POD_FEATURES + 2 * BLOCKER_FEATURES + 2;

const LENGTH_UNIT: f64 = 10_000.0;
const SPEED_UNIT: f64 = 1_000.0;
/// Passes still to make are divided by this (a 3-lap race of 8 checkpoints has 24).
const PASSES_UNIT: f64 = 10.0;
/// Every pod and blocker input is clamped to this either way: the board's lengths and a pod's
/// speeds stay within it, so a pod the search sends off the board does not meet inputs the
/// network never saw (without it, the network's linear extrapolation sent pods off the board,
/// docs/strength.md row N1).
const MAX_INPUT: f64 = 2.0;
/// The lead is clamped to this many checkpoints either way.
const MAX_LEAD: f64 = 4.0;

/// The pods with the two teams exchanged: player 1's view of the same position.
#[inline(always)]
pub fn swap_teams(pods: &[FastPod; 4]) -> [FastPod; 4] {
    [pods[2], pods[3], pods[0], pods[1]]
}

/// `a × b` (the z of the 3-d cross product): positive when `b` turns left of `a`.
#[inline(always)]
fn cross(a: Vec2, b: Vec2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// `vector` scaled to length 1, or +x for a zero vector.
#[inline(always)]
fn unit(vector: Vec2, length: f64) -> Vec2 {
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
    out: &mut [f32; FEATURE_COUNT],
) {
    let legs = pods.map(|pod| Leg::of(map, pod.next_checkpoint as usize));
    let mut views = [[0.0; FEATURE_COUNT]; 2];
    both_views(pods, map, &legs, passes_to_finish, &mut views);
    *out = views[0];
}

/// Writes both teams' inputs of the position `pods` into `views`: player 0's view (what
/// [`features`] writes) first, player 1's (what [`features`] writes for [`swap_teams`] of the
/// pods) second, bit for bit. The quantities are computed once: player 1's view holds the same
/// numbers with the pod slots and the blockers exchanged and the lead and the hand evaluation
/// negated (exact in floating point: `a − b` is `0 − (b − a)`, a zero included, and `clamp`
/// and the conversion to `f32` are symmetric). `legs[p]` is the leg leaving pod `p`'s next checkpoint.
#[inline(always)]
pub fn both_views(
    pods: &[FastPod; 4],
    map: &Map,
    legs: &[Leg; 4],
    passes_to_finish: u16,
    views: &mut [[f32; FEATURE_COUNT]; 2],
) {
    // Per pod: the vector to its next checkpoint and its length (the distance that `progress`
    // also takes: `(a − b)²` is `(b − a)²` exactly).
    let mut towards = [Vec2::ZERO; 4];
    let mut distances = [0.0; 4];
    for (pod, (towards, distance)) in pods.iter().zip(towards.iter_mut().zip(&mut distances)) {
        *towards = map.checkpoint(pod.next_checkpoint as usize) - pod.pos;
        *distance = towards.length();
    }
    let progress = |pod: usize| f64::from(pods[pod].passes) * CHECKPOINT_WEIGHT - distances[pod];
    // Each team's pods runner first, as `runner_first` orders them.
    let team = |first: usize| {
        if progress(first + 1) > progress(first) {
            [first + 1, first]
        } else {
            [first, first + 1]
        }
    };
    let [own_runner, own_blocker] = team(0);
    let [their_runner, their_blocker] = team(2);
    let order = [own_runner, own_blocker, their_runner, their_blocker];
    let mut directions = [Vec2::ZERO; 4];
    for (slot, &pod_index) in order.iter().enumerate() {
        let pod = &pods[pod_index];
        let distance = distances[pod_index];
        let direction = unit(towards[pod_index], distance);
        directions[slot] = direction;
        let leg = legs[pod_index];
        let left = f64::from(passes_to_finish.saturating_sub(pod.passes));
        let values = [
            left / PASSES_UNIT,
            distance / LENGTH_UNIT,
            pod.vel.dot(direction) / SPEED_UNIT,
            cross(direction, pod.vel) / SPEED_UNIT,
            pod.heading.dot(direction),
            cross(direction, pod.heading),
            direction.dot(leg.direction),
            cross(direction, leg.direction),
        ];
        // Player 1's view has this pod in the other team's slot of the same role.
        let (own, theirs) = (slot * POD_FEATURES, (slot ^ 2) * POD_FEATURES);
        for (feature, value) in values.iter().enumerate() {
            let input = value.clamp(-MAX_INPUT, MAX_INPUT) as f32;
            views[0][own + feature] = input;
            views[1][theirs + feature] = input;
        }
        let rest = [
            leg.length_input,
            if pod.boost_used { 0.0 } else { 1.0 },
            (f64::from(pod.shield_lock_turns) / 3.0).clamp(-MAX_INPUT, MAX_INPUT) as f32,
        ];
        for (feature, &input) in rest.iter().enumerate() {
            views[0][own + values.len() + feature] = input;
            views[1][theirs + values.len() + feature] = input;
        }
    }
    // Each blocker against the opposing runner: (blocker slot, runner slot). The blocker's
    // distances to that runner and to its next checkpoint are also the hand evaluation's.
    let mut to_runner = [0.0; 2];
    let mut to_target = [0.0; 2];
    for (pair, (blocker, runner)) in [(1, 2), (3, 0)].into_iter().enumerate() {
        let blocker_pod = &pods[order[blocker]];
        let runner_pod = &pods[order[runner]];
        let direction = directions[runner];
        let offset = blocker_pod.pos - runner_pod.pos;
        let target = map.checkpoint(runner_pod.next_checkpoint as usize);
        to_runner[pair] = offset.length();
        to_target[pair] = blocker_pod.pos.distance(target);
        let values = [
            offset.dot(direction) / LENGTH_UNIT,
            cross(direction, offset) / LENGTH_UNIT,
            to_runner[pair] / LENGTH_UNIT,
            to_target[pair] / LENGTH_UNIT,
            (blocker_pod.vel - runner_pod.vel).dot(direction) / SPEED_UNIT,
        ];
        let own = 4 * POD_FEATURES + pair * BLOCKER_FEATURES;
        let theirs = 4 * POD_FEATURES + (1 - pair) * BLOCKER_FEATURES;
        for (feature, value) in values.iter().enumerate() {
            let input = value.clamp(-MAX_INPUT, MAX_INPUT) as f32;
            views[0][own + feature] = input;
            views[1][theirs + feature] = input;
        }
    }
    let race = progress(own_runner) - progress(their_runner);
    let lead = (race / CHECKPOINT_WEIGHT).clamp(-MAX_LEAD, MAX_LEAD) as f32;
    views[0][FEATURE_COUNT - 2] = lead;
    views[1][FEATURE_COUNT - 2] = 0.0 - lead;
    // The hand evaluation's advantage (`player0_advantage` with the default weights and these
    // roles), in checkpoints: the network starts from what the hand evaluation knows and learns
    // what it misses.
    let weights = EvalWeights::default();
    let mut advantage = race + weights.blocker * (to_target[1] - to_target[0]);
    if weights.chase != 0.0 {
        advantage += weights.chase * (to_runner[1] - to_runner[0]);
    }
    let hand = (advantage / CHECKPOINT_WEIGHT).clamp(-MAX_LEAD, MAX_LEAD) as f32;
    views[0][FEATURE_COUNT - 1] = hand;
    views[1][FEATURE_COUNT - 1] = 0.0 - hand;
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bot::evaluation::{player0_advantage, progress, Roles};
    use crate::bot::value_net::course::Course;
    use crate::search::Rng;

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

    /// The inputs as they were first written, one view per call: the definition that
    /// [`both_views`] must match bit for bit.
    fn reference_features(
        pods: &[FastPod; 4],
        map: &Map,
        passes_to_finish: u16,
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
                distance / LENGTH_UNIT,
                pod.vel.dot(direction) / SPEED_UNIT,
                cross(direction, pod.vel) / SPEED_UNIT,
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
                offset.dot(direction) / LENGTH_UNIT,
                cross(direction, offset) / LENGTH_UNIT,
                offset.length() / LENGTH_UNIT,
                blocker_pod.pos.distance(target) / LENGTH_UNIT,
                (blocker_pod.vel - runner_pod.vel).dot(direction) / SPEED_UNIT,
            ];
            let start = 4 * POD_FEATURES + pair * BLOCKER_FEATURES;
            for (feature, value) in values.iter().enumerate() {
                out[start + feature] = value.clamp(-MAX_INPUT, MAX_INPUT) as f32;
            }
        }
        let lead = (progress(&pods[own_runner], map) - progress(&pods[their_runner], map))
            / CHECKPOINT_WEIGHT;
        out[FEATURE_COUNT - 2] = lead.clamp(-MAX_LEAD, MAX_LEAD) as f32;
        let roles =
            [(own_runner, own_blocker), (their_runner, their_blocker)].map(|(runner, blocker)| {
                Roles {
                    runner,
                    blocker,
                    blocker_races: false,
                }
            });
        let hand =
            player0_advantage(pods, map, &roles, &EvalWeights::default()) / CHECKPOINT_WEIGHT;
        out[FEATURE_COUNT - 1] = hand.clamp(-MAX_LEAD, MAX_LEAD) as f32;
    }

    /// Positions of every kind: on and off the board, pods on their checkpoint, teammates on
    /// the same spot (tied progress), shields, boosts, finished and unfinished races.
    pub(crate) fn random_positions(seed: u64, count: usize) -> Vec<(Map, [FastPod; 4], u16)> {
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
                (map, pods, passes_to_finish)
            })
            .collect()
    }

    #[test]
    fn both_views_are_the_reference_features_bit_for_bit() {
        let bits = |inputs: &[f32; FEATURE_COUNT]| inputs.map(f32::to_bits);
        for (map, pods, passes) in random_positions(11, 20_000) {
            let mut expected = [[0.0; FEATURE_COUNT]; 2];
            reference_features(&pods, &map, passes, &mut expected[0]);
            reference_features(&swap_teams(&pods), &map, passes, &mut expected[1]);
            let course = Course::new(&map);
            let legs = pods.map(|pod| course.leg(pod.next_checkpoint as usize));
            let mut views = [[0.0; FEATURE_COUNT]; 2];
            both_views(&pods, &map, &legs, passes, &mut views);
            for view in 0..2 {
                assert_eq!(
                    bits(&views[view]),
                    bits(&expected[view]),
                    "{pods:?} view {view}"
                );
            }
            let mut own = [0.0; FEATURE_COUNT];
            features(&pods, &map, passes, &mut own);
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
        let mut mine = [0.0; FEATURE_COUNT];
        features(&pods, &map, 9, &mut mine);
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
            &mut exchanged,
        );
        assert_eq!(mine, exchanged);
        // The other side's view: pod slots and blockers exchanged, the lead negated.
        let mut theirs = [0.0; FEATURE_COUNT];
        features(&swap_teams(&pods), &map, 9, &mut theirs);
        assert_eq!(
            mine[..2 * POD_FEATURES],
            theirs[2 * POD_FEATURES..4 * POD_FEATURES]
        );
        let blockers = 4 * POD_FEATURES;
        assert_eq!(
            mine[blockers..blockers + BLOCKER_FEATURES],
            theirs[blockers + BLOCKER_FEATURES..blockers + 2 * BLOCKER_FEATURES]
        );
        for lead in [FEATURE_COUNT - 2, FEATURE_COUNT - 1] {
            assert_eq!(mine[lead], -theirs[lead]);
            assert!(mine[lead] > 0.0);
        }
    }
}
