//! The search's default policy: what a pod plays on the plies the search has no statistics for
//! (a node's first visits, everything below the grown tree).
//!
//! Uniformly random moves make those plies a random walk (a third of them without thrust), so
//! where a rollout ends says little about the move that started it. With probability `greedy`
//! (flag `--greedy`) a pod drives toward its goal instead (a runner's next checkpoint, a
//! blocker's the opposing runner's): the full-thrust steering whose facing points closest to the
//! goal as seen from where the pod's speed alone would carry it in
//! [`SPEED_COMPENSATION_TURNS`], or, when every such facing points more than 90° away, the
//! zero-thrust turn closest to it.

use super::actions::{ActionSet, FULL_THRUST_ACTIONS, ZERO_THRUST_ACTIONS};
use crate::engine::{FastPod, Vec2};

/// Turns of the current speed subtracted from the goal: a pod aims where the goal is relative
/// to where it is drifting, so it bends its path instead of orbiting the goal.
pub const SPEED_COMPENSATION_TURNS: f64 = 3.0;

/// The action of `set` that drives `pod` toward `goal` best (see the module text).
///
/// The greedy action feeds the next simulated turn, so its latency is on the search's critical
/// path: the best candidate is found by a tournament (depth 3, ties to the lower index: the
/// first maximum, as a scan with `>` finds it) rather than a chain of five comparisons, and the
/// zero-thrust choice, whose steerings are those of the first three full-thrust actions, comes
/// from the same alignments instead of a second scan behind a branch.
#[inline(always)]
pub fn greedy_action(set: &ActionSet, pod: &FastPod, goal: Vec2) -> u8 {
    let wanted = goal - pod.pos - pod.vel * SPEED_COMPENSATION_TURNS;
    let alignment =
        FULL_THRUST_ACTIONS.map(|index| set.get(index).steering.apply(pod.heading).dot(wanted));
    // (position in FULL_THRUST_ACTIONS, alignment); `b` wins only if strictly better.
    let better = |a: (usize, f64), b: (usize, f64)| if b.1 > a.1 { b } else { a };
    let candidate = |position: usize| (position, alignment[position]);
    let front = better(candidate(0), better(candidate(1), candidate(2)));
    let driving = better(front, better(candidate(3), candidate(4)));
    if driving.1 >= 0.0 {
        FULL_THRUST_ACTIONS[driving.0]
    } else {
        ZERO_THRUST_ACTIONS[front.0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{League, Thrust};

    fn pod(heading_deg: f64, vel: Vec2) -> FastPod {
        let angle = heading_deg.to_radians();
        FastPod {
            pos: Vec2::new(5000.0, 5000.0),
            vel,
            heading: Vec2::new(angle.cos(), angle.sin()),
            passes: 0,
            next_checkpoint: 1,
            boost_used: false,
            shield_lock_turns: 0,
        }
    }

    fn steering_deg(set: &ActionSet, index: u8) -> f64 {
        set.get(index).steering.angle_rad.to_degrees().round()
    }

    #[test]
    fn drives_straight_at_a_goal_ahead_and_turns_toward_one_aside() {
        let set = ActionSet::new(League::Legend);
        let ahead = greedy_action(&set, &pod(0.0, Vec2::ZERO), Vec2::new(9000.0, 5000.0));
        assert_eq!(steering_deg(&set, ahead), 0.0);
        assert_eq!(set.get(ahead).thrust, Thrust::Power(200));
        // A goal 30° to the side (positive angle): the full 18° turn that way, at full thrust.
        let angle = 30f64.to_radians();
        let aside = Vec2::new(5000.0 + 4000.0 * angle.cos(), 5000.0 + 4000.0 * angle.sin());
        let turning = greedy_action(&set, &pod(0.0, Vec2::ZERO), aside);
        assert_eq!(steering_deg(&set, turning), 18.0);
        assert_eq!(set.get(turning).thrust, Thrust::Power(200));
    }

    #[test]
    fn brakes_while_turning_toward_a_goal_behind() {
        let set = ActionSet::new(League::Legend);
        let behind = greedy_action(&set, &pod(0.0, Vec2::ZERO), Vec2::new(1000.0, 4000.0));
        assert_eq!(set.get(behind).thrust, Thrust::Power(0));
        assert_eq!(steering_deg(&set, behind).abs(), 18.0);
    }

    /// The first maximum of `facing · wanted` over `candidates`, by a plain scan (the policy's
    /// definition, before the tournament).
    fn scan(set: &ActionSet, pod: &FastPod, wanted: Vec2, candidates: &[u8]) -> (u8, f64) {
        let mut best = (candidates[0], f64::NEG_INFINITY);
        for &index in candidates {
            let alignment = set.get(index).steering.apply(pod.heading).dot(wanted);
            if alignment > best.1 {
                best = (index, alignment);
            }
        }
        best
    }

    #[test]
    fn the_tournament_picks_what_a_scan_picks() {
        let set = ActionSet::new(League::Gold);
        let mut rng = crate::search::Rng::new(7);
        let mut braking = 0;
        for _ in 0..20_000 {
            let heading_deg = rng.next_f64() * 360.0;
            let vel = Vec2::new(
                (rng.next_f64() - 0.5) * 1200.0,
                (rng.next_f64() - 0.5) * 1200.0,
            );
            let pod = pod(heading_deg, vel);
            let goal = Vec2::new(rng.next_f64() * 16000.0, rng.next_f64() * 9000.0);
            let wanted = goal - pod.pos - pod.vel * SPEED_COMPENSATION_TURNS;
            let (driving, alignment) = scan(&set, &pod, wanted, &FULL_THRUST_ACTIONS);
            let expected = if alignment >= 0.0 {
                driving
            } else {
                braking += 1;
                scan(&set, &pod, wanted, &ZERO_THRUST_ACTIONS).0
            };
            assert_eq!(greedy_action(&set, &pod, goal), expected);
        }
        // Both branches were exercised.
        assert!(braking > 1000, "{braking}");
        // Exact ties go to the lower index: a goal straight behind is as far from +18° as -18°.
        let behind = greedy_action(&set, &pod(0.0, Vec2::ZERO), Vec2::new(1000.0, 5000.0));
        assert_eq!(behind, ZERO_THRUST_ACTIONS[1]);
    }

    #[test]
    fn compensates_for_drift() {
        let set = ActionSet::new(League::Legend);
        // Goal straight ahead, but the pod slides sideways fast: it steers against the slide.
        let sliding = pod(0.0, Vec2::new(0.0, 600.0));
        let action = greedy_action(&set, &sliding, Vec2::new(9000.0, 5000.0));
        assert_eq!(steering_deg(&set, action), -18.0);
    }
}
