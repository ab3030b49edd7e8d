//! How the GA scores the state at the end of a simulated plan, from the own side (pods 0 and 1).
//!
//! Race progress of the own runner (passes × a large weight − distance to its next checkpoint,
//! minus a little for facing away from it), minus the progress of the opponent's leader, minus the
//! own blocker's distance to that leader's next checkpoint and its angle away from the leader. A
//! finished race dominates everything; so does running into the checkpoint timeout. The weights
//! live in [`Weights`].

use crate::aim::angle_to;
use crate::world::{fast_progress, leader, POD_COUNT};
use csb::engine::{FastPod, Map};

/// Score of a won race (minus the turns it took); a lost race is its negative.
pub const WIN: f64 = 1.0e9;
/// Penalty for being eliminated by the checkpoint timeout.
pub const TIMEOUT: f64 = 1.0e8;

/// Every tunable of the evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Per unit of the opponent leader's progress.
    pub opponent_progress: f64,
    /// Per degree the runner faces away from its next checkpoint.
    pub runner_angle: f64,
    /// Per unit of distance from the own blocker to the opponent leader's next checkpoint.
    pub blocker_checkpoint: f64,
    /// Per degree the blocker faces away from the opponent leader.
    pub blocker_angle: f64,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            opponent_progress: 1.0,
            runner_angle: 5.0,
            blocker_checkpoint: 0.3,
            blocker_angle: 3.0,
        }
    }
}

/// What the evaluation needs to know beyond the pods.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvalContext {
    pub map: Map,
    /// Passes that finish the race.
    pub finish_passes: u16,
    /// Own runner (0 or 1), fixed for the turn.
    pub runner: usize,
    /// Own passes (both pods) at the root, and turns left before the checkpoint timeout.
    pub root_own_passes: u32,
    pub timeout_left: i32,
    pub weights: Weights,
}

/// `Some(score)` if the race is over in this state (a pod of either side finished), else `None`.
/// `turn` is the simulated turn index (earlier wins score higher).
#[inline]
pub fn terminal(pods: &[FastPod; POD_COUNT], context: &EvalContext, turn: usize) -> Option<f64> {
    let finished = |pod: &FastPod| pod.passes >= context.finish_passes;
    let own = pods[..2].iter().any(finished);
    let theirs = pods[2..].iter().any(finished);
    if own && !theirs {
        Some(WIN - turn as f64)
    } else if theirs && !own {
        Some(-WIN + turn as f64)
    } else if own {
        // Both finished in the same turn: compare the leaders' progress.
        let mine = fast_progress(&context.map, &pods[leader(&context.map, pods, 0)]);
        let them = fast_progress(&context.map, &pods[leader(&context.map, pods, 2)]);
        Some(if mine >= them { WIN / 2.0 } else { -WIN / 2.0 })
    } else {
        None
    }
}

/// Score of a non-terminal state after `turns` simulated turns.
#[inline]
pub fn evaluate(pods: &[FastPod; POD_COUNT], context: &EvalContext, turns: usize) -> f64 {
    let map = &context.map;
    let weights = &context.weights;
    let runner = &pods[context.runner];
    let blocker = &pods[1 - context.runner];
    let opponent = &pods[leader(map, pods, 2)];
    let runner_next = map.checkpoint(runner.next_checkpoint as usize);
    let opponent_next = map.checkpoint(opponent.next_checkpoint as usize);
    let mut score = fast_progress(map, runner)
        - weights.opponent_progress * fast_progress(map, opponent)
        - weights.runner_angle * angle_to(runner, runner_next).abs()
        - weights.blocker_checkpoint * blocker.pos.distance(opponent_next)
        - weights.blocker_angle * angle_to(blocker, opponent.pos).abs();
    let own_passes = u32::from(pods[0].passes) + u32::from(pods[1].passes);
    if own_passes == context.root_own_passes && context.timeout_left - turns as i32 <= 0 {
        score -= TIMEOUT;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use csb::engine::Vec2;

    fn pod(x: f64, y: f64, next: u8, passes: u16) -> FastPod {
        FastPod {
            pos: Vec2::new(x, y),
            vel: Vec2::ZERO,
            heading: Vec2::new(1.0, 0.0),
            passes,
            next_checkpoint: next,
            boost_used: false,
            shield_lock_turns: 0,
        }
    }

    fn context() -> EvalContext {
        EvalContext {
            map: Map::new(&[(1000, 1000), (10000, 1000), (10000, 8000)]).unwrap(),
            finish_passes: 9,
            runner: 0,
            root_own_passes: 0,
            timeout_left: 50,
            weights: Weights::default(),
        }
    }

    #[test]
    fn closer_runner_and_slower_opponent_score_higher() {
        let context = context();
        let base = [
            pod(5000.0, 1000.0, 1, 0),
            pod(3000.0, 3000.0, 1, 0),
            pod(5000.0, 2000.0, 1, 0),
            pod(2000.0, 2000.0, 1, 0),
        ];
        let score = evaluate(&base, &context, 3);
        let mut ahead = base;
        ahead[0].pos.x = 6000.0;
        assert!(evaluate(&ahead, &context, 3) > score);
        let mut passed = base;
        passed[0] = pod(10000.0, 7000.0, 2, 1);
        assert!(evaluate(&passed, &context, 3) > score);
        let mut opponent_ahead = base;
        opponent_ahead[2].pos.x = 6000.0;
        assert!(evaluate(&opponent_ahead, &context, 3) < score);
        let mut blocker_in_place = base;
        blocker_in_place[1].pos = Vec2::new(9000.0, 1000.0);
        assert!(evaluate(&blocker_in_place, &context, 3) > score);
        assert!(terminal(&base, &context, 3).is_none());
        let mut won = base;
        won[1].passes = 9;
        assert!(terminal(&won, &context, 3).unwrap() > 1e8);
        let mut timed_out = context;
        timed_out.timeout_left = 2;
        assert!(evaluate(&base, &timed_out, 3) < score - 1e7);
    }
}
