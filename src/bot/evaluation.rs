//! How good a position is for each pod, as the search sees it.
//!
//! A pod's race progress is checkpoints passed (each worth more than any distance on the board)
//! minus the distance to its next checkpoint. Each pod is scored on what it does itself
//! ([`pod_values`]): a runner on its progress, a blocker on how far behind it keeps the opposing
//! runner and how close it stands to that runner and its next checkpoint. The search squashes
//! each pod's change from the root into (0, 1) ([`squash`]), so scores are positive, as the
//! search's discount wants. A finished race is 1 for the winner's pods, 0 for the loser's.
//! [`player0_advantage`] is the same measure for a team (runners' progress difference plus the
//! blockers' terms), one of the value network's inputs.
//!
//! The team's shared score (`--pod-scores 0`) and its squash centred on the root's lead
//! (`--centred 1`) lost their rows (docs/strength.md, sections of 2026-11-22 and 2026-11-23) and
//! are gone.

use crate::engine::{FastPod, Map};
use crate::search::tunables;

/// Worth of one checkpoint pass, above any distance on the 16000 × 9000 board.
pub const CHECKPOINT_WEIGHT: f64 = 30000.0;

tunables! {
    /// The evaluation's tunables, with the defaults the bot plays.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct EvalWeights {
        /// Weight of a blocker's closeness to the opposing runner's next checkpoint: 1 with
        /// per-pod scores won 27 of 40 screening games against the GA where 0.3 won 6 of 20
        /// (docs/strength.md, section of 2026-11-23).
        blocker: f64 = 1.0 => "blocker-weight", "W", non_negative,
            "weight of the blocker's closeness to the enemy runner's next checkpoint";
        /// Weight of a blocker's closeness to the opposing runner itself. At the real control
        /// (50 ms, depth 10) 1 won 180 of 200 against the GA where 0.3 won 159 on the same maps
        /// (docs/strength.md, rows C1 and G2).
        chase: f64 = 1.0 => "chase-weight", "W", non_negative,
            "weight of the blocker's closeness to the enemy runner itself";
        /// Weight of a runner's speed toward its next checkpoint (turns of travel counted as
        /// progress).
        momentum: f64 = 0.0 => "momentum-weight", "W", non_negative,
            "weight of the runner's speed toward its next checkpoint";
        /// Progress lost per degree a runner faces away from its next checkpoint.
        runner_angle: f64 = 0.0 => "runner-angle-weight", "W", non_negative,
            "progress lost per degree the runner faces away from its checkpoint";
        /// Progress difference at which the squashed score is 0.75 (a quarter of the way to a
        /// win).
        score_scale: f64 = 10000.0 => "score-scale", "S", positive,
            "progress lead at which a position scores 0.75";
        /// With the network: its share of each pod's score, the rest the hand score (1: the
        /// network alone). 0.15 until row R10 of docs/strength.md: at 5,000 iterations a turn
        /// 0.3 beat 0.15 by +119 Elo, 0.5 beat 0.3 by +56 and 0.7 lost to 0.5 by 119 (screens
        /// W1-W3), and at the real control 0.5 beat 0.15 22 games of 26 (R10, SPRT [0, 50]
        /// accepted). 0.5 until row R43: with generation 7's networks 0.6 beat 0.5 at the real
        /// control (SPRT [0, 30] accepted), and in Gold too (row GN3, SPRT [0, 50] accepted).
        /// The network alone loses every game (rows N1-N8).
        net_weight: f64 = 0.6 => "net-weight", "W", fraction,
            "with --eval net: the network's share of each pod's score, the rest the hand one's";
        /// With the network: the factor on its logit change from the root.
        net_gain: f64 = 1.0 => "net-gain", "G", positive,
            "with --eval net: factor on the network's logit change from the root";
    }
}

/// A pod's race progress.
#[inline(always)]
pub fn progress(pod: &FastPod, map: &Map) -> f64 {
    let next = map.checkpoint(pod.next_checkpoint as usize);
    f64::from(pod.passes) * CHECKPOINT_WEIGHT - pod.pos.distance(next)
}

/// A pod's speed toward its next checkpoint.
#[inline(always)]
fn approach_speed(pod: &FastPod, map: &Map) -> f64 {
    let next = map.checkpoint(pod.next_checkpoint as usize);
    let towards = next - pod.pos;
    let distance = towards.length();
    if distance == 0.0 {
        0.0
    } else {
        pod.vel.dot(towards) / distance
    }
}

/// How far (degrees) a pod's heading is from the direction to its next checkpoint.
#[inline(always)]
fn facing_error_deg(pod: &FastPod, map: &Map) -> f64 {
    let next = map.checkpoint(pod.next_checkpoint as usize);
    let towards = next - pod.pos;
    let distance = towards.length();
    if distance == 0.0 {
        return 0.0;
    }
    let cosine = pod.heading.dot(towards) / distance;
    cosine.clamp(-1.0, 1.0).acos().to_degrees()
}

/// Roles of one player's two pods: the runner races, the blocker hinders, unless
/// `blocker_races`: then it races for its own next checkpoint too (the timeout guard).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roles {
    pub runner: usize,
    pub blocker: usize,
    pub blocker_races: bool,
}

impl Roles {
    /// The roles of the player whose pods are `first` and `first + 1`: the runner the one with
    /// more [`progress`] (the first on a tie), its team-mate the blocker, racing too when
    /// `blocker_races`.
    pub fn of_player(pods: &[FastPod; 4], map: &Map, first: usize, blocker_races: bool) -> Roles {
        let (runner, blocker) = if progress(&pods[first + 1], map) > progress(&pods[first], map) {
            (first + 1, first)
        } else {
            (first, first + 1)
        };
        Roles {
            runner,
            blocker,
            blocker_races,
        }
    }

    /// Whether pod `pod` (of this player) is scored and steered on its own race progress.
    #[inline(always)]
    pub fn races(&self, pod: usize) -> bool {
        self.runner == pod || self.blocker_races
    }
}

/// A value's change from the root as a score in (0, 1): 0.75 at a gain of `score_scale`.
#[inline(always)]
pub fn squash(difference: f64, weights: &EvalWeights) -> f64 {
    0.5 + 0.5 * difference / (difference.abs() + weights.score_scale)
}

/// Player 0's advantage in progress units (player 1's is its negative).
#[inline(always)]
pub fn player0_advantage(
    pods: &[FastPod; 4],
    map: &Map,
    roles: &[Roles; 2],
    weights: &EvalWeights,
) -> f64 {
    let runner0 = &pods[roles[0].runner];
    let runner1 = &pods[roles[1].runner];
    let race = runner_value(runner0, map, weights) - runner_value(runner1, map, weights);
    let target0 = map.checkpoint(runner1.next_checkpoint as usize);
    let target1 = map.checkpoint(runner0.next_checkpoint as usize);
    let (blocker0, blocker1) = (&pods[roles[0].blocker], &pods[roles[1].blocker]);
    let block0 = blocker0.pos.distance(target0);
    let block1 = blocker1.pos.distance(target1);
    let mut difference = race + weights.blocker * (block1 - block0);
    if weights.chase != 0.0 {
        let chase0 = blocker0.pos.distance(runner1.pos);
        let chase1 = blocker1.pos.distance(runner0.pos);
        difference += weights.chase * (chase1 - chase0);
    }
    difference
}

/// A racing pod's value: its progress, plus its speed toward its next checkpoint and minus its
/// facing error when those weights are set.
#[inline(always)]
fn runner_value(pod: &FastPod, map: &Map, weights: &EvalWeights) -> f64 {
    let mut value = progress(pod, map);
    if weights.momentum != 0.0 {
        value += weights.momentum * approach_speed(pod, map);
    }
    if weights.runner_angle != 0.0 {
        value -= weights.runner_angle * facing_error_deg(pod, map);
    }
    value
}

/// Each pod's own value: a runner's (or a racing blocker's) is
/// [`runner_value`]; a blocker's is how far behind it keeps the opposing runner (minus that
/// runner's value) plus how close it stands to that runner's next checkpoint and to the runner
/// itself, weighted as in the team score. Each tree then learns from what its own pod changes,
/// without the other pods' random plies in its scores. Each runner's value is computed once.
#[inline(always)]
pub fn pod_values(
    pods: &[FastPod; 4],
    map: &Map,
    roles: &[Roles; 2],
    weights: &EvalWeights,
) -> [f64; 4] {
    let runner_values = [
        runner_value(&pods[roles[0].runner], map, weights),
        runner_value(&pods[roles[1].runner], map, weights),
    ];
    let mut values = [0.0; 4];
    for (pod, value) in values.iter_mut().enumerate() {
        let player = pod / 2;
        *value = if roles[player].runner == pod {
            runner_values[player]
        } else if roles[player].blocker_races {
            runner_value(&pods[pod], map, weights)
        } else {
            let chased = &pods[roles[1 - player].runner];
            let target = map.checkpoint(chased.next_checkpoint as usize);
            let mut blocking =
                -runner_values[1 - player] - weights.blocker * pods[pod].pos.distance(target);
            if weights.chase != 0.0 {
                blocking -= weights.chase * pods[pod].pos.distance(chased.pos);
            }
            blocking
        };
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Vec2;

    fn map() -> Map {
        Map::new(&[(1000, 1000), (9000, 1000), (9000, 7000)]).unwrap()
    }

    /// Roles with the given runners (pod 0 or 1, pod 2 or 3), their teammates blocking.
    fn roles(runner0: usize, runner1: usize) -> [Roles; 2] {
        [(runner0, 1 - runner0), (runner1, 5 - runner1)].map(|(runner, blocker)| Roles {
            runner,
            blocker,
            blocker_races: false,
        })
    }

    /// The four pods the tests below start from, standing and facing +x, with the given passes
    /// and next checkpoints: pod 0 at (5000, 1000), 1 at (8000, 1500), 2 at (3000, 5000) and
    /// 3 at (4000, 1000).
    fn pods(passes: [u16; 4], next_checkpoints: [u8; 4]) -> [FastPod; 4] {
        let places = [
            (5000.0, 1000.0),
            (8000.0, 1500.0),
            (3000.0, 5000.0),
            (4000.0, 1000.0),
        ];
        std::array::from_fn(|index| {
            let (x, y) = places[index];
            FastPod {
                pos: Vec2::new(x, y),
                vel: Vec2::ZERO,
                heading: Vec2::new(1.0, 0.0),
                passes: passes[index],
                next_checkpoint: next_checkpoints[index],
                boost_used: false,
                shield_lock_turns: 0,
            }
        })
    }

    #[test]
    fn a_runner_values_its_own_progress_and_a_blocker_the_opposing_runners_lack_of_it() {
        let map = map();
        // The chase term on its own at the end.
        let weights = EvalWeights {
            chase: 0.0,
            ..EvalWeights::default()
        };
        let roles = roles(0, 3);
        let mut pods = pods([0; 4], [1; 4]);
        let value = |pods: &[FastPod; 4], pod: usize| pod_values(pods, &map, &roles, &weights)[pod];
        assert_eq!(value(&pods, 0), progress(&pods[0], &map));
        let blocker_before = value(&pods, 1);
        // The opposing runner (pod 3) gains 1000: our blocker's value drops by as much.
        pods[3].pos.x += 1000.0;
        assert!((value(&pods, 1) - (blocker_before - 1000.0)).abs() < 1e-9);
        // Our blocker closer to that runner's next checkpoint is worth more.
        pods[1].pos.y -= 400.0;
        assert!(value(&pods, 1) > blocker_before - 1000.0);
        // Pod 2 blocks our runner, pod 0.
        assert_eq!(
            value(&pods, 2),
            -progress(&pods[0], &map) - weights.blocker * pods[2].pos.distance(map.checkpoint(1))
        );
        // With the default chase weight, a blocker also values closeness to that runner.
        let chasing = EvalWeights::default();
        assert_eq!(chasing.chase, 1.0);
        assert_eq!(
            pod_values(&pods, &map, &roles, &chasing)[2],
            value(&pods, 2) - chasing.chase * pods[2].pos.distance(pods[0].pos)
        );
    }

    #[test]
    fn a_racing_blocker_values_its_own_progress() {
        let map = map();
        let mut roles = roles(0, 2);
        let pods = pods([2, 0, 1, 0], [1, 1, 2, 1]);
        let weights = EvalWeights::default();
        assert!(!roles[0].races(1));
        assert_ne!(
            pod_values(&pods, &map, &roles, &weights)[1],
            progress(&pods[1], &map)
        );
        roles[0].blocker_races = true;
        assert!(roles[0].races(0) && roles[0].races(1));
        assert_eq!(
            pod_values(&pods, &map, &roles, &weights)[1],
            progress(&pods[1], &map)
        );
        // The other player's roles are its own.
        assert!(!roles[1].races(3));
    }

    #[test]
    fn per_pod_runner_values_count_momentum_and_facing_when_weighted() {
        let map = map();
        let roles = roles(0, 2);
        // Pod 0 heads for checkpoint 1 (9000, 1000) at 300 per turn, facing it.
        let mut pods = pods([0; 4], [1; 4]);
        pods[0].vel.x = 300.0;
        let plain = EvalWeights::default();
        let value =
            |weights: &EvalWeights, pod: usize| pod_values(&pods, &map, &roles, weights)[pod];
        let momentum = EvalWeights {
            momentum: 2.0,
            ..plain
        };
        assert_eq!(value(&momentum, 0), value(&plain, 0) + 600.0);
        // The opposing blocker (pod 3) chases pod 0: pod 0's momentum counts against it.
        assert_eq!(value(&momentum, 3), value(&plain, 3) - 600.0);
        // Facing away costs `runner_angle` per degree: pod 2 faces +x, its checkpoint lies
        // (6000, -4000) away, about 34 degrees from that.
        let angle = EvalWeights {
            runner_angle: 5.0,
            ..plain
        };
        let error_deg = (6000.0 / 6000.0f64.hypot(4000.0)).acos().to_degrees();
        assert!((value(&plain, 2) - value(&angle, 2) - 5.0 * error_deg).abs() < 1e-6);
    }
}
