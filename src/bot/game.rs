//! Coders Strike Back as the generic search sees it: four agents (one per pod), the fast engine
//! as the step, and the evaluation of `evaluation.rs`.

use super::actions::{ActionSet, ACTION_COUNT};
use super::evaluation::{player0_score, EvalWeights, Roles};
use crate::engine::rules::POD_COUNT;
use crate::engine::{fast_turn, FastAction, FastPod, Map};
use crate::search::{Game, MAX_AGENTS};

/// What stays fixed during a game: the map, the action set, the finish line.
#[derive(Clone, Copy, Debug)]
pub struct RaceContext {
    pub map: Map,
    pub actions: ActionSet,
    pub max_thrust: f64,
    /// Passes that complete the race.
    pub passes_to_finish: u16,
    pub weights: EvalWeights,
}

/// One search state: the four pods (pods 0,1 are player 0's = our pods) and the roles.
#[derive(Clone, Copy, Debug)]
pub struct CsbGame {
    pub context: &'static RaceContext,
    pub pods: [FastPod; POD_COUNT],
    pub roles: [Roles; 2],
}

impl CsbGame {
    /// The player who has finished the race, if any (player 0 first when both have).
    fn finisher(&self) -> Option<usize> {
        let finish = self.context.passes_to_finish;
        (0..POD_COUNT)
            .find(|&pod| self.pods[pod].passes >= finish)
            .map(|pod| pod / 2)
    }
}

impl Game for CsbGame {
    #[inline(always)]
    fn agent_count(&self) -> usize {
        POD_COUNT
    }

    #[inline(always)]
    fn action_count(&self, _agent: usize) -> usize {
        ACTION_COUNT
    }

    #[inline(always)]
    fn step(&mut self, actions: &[u8; MAX_AGENTS]) {
        let set = &self.context.actions;
        let joint: [FastAction; POD_COUNT] = [
            *set.get(actions[0]),
            *set.get(actions[1]),
            *set.get(actions[2]),
            *set.get(actions[3]),
        ];
        fast_turn(
            &mut self.pods,
            &self.context.map,
            &joint,
            self.context.max_thrust,
        );
    }

    #[inline(always)]
    fn is_terminal(&self) -> bool {
        self.finisher().is_some()
    }

    #[inline(always)]
    fn evaluate(&self, scores: &mut [f64; MAX_AGENTS]) {
        let player0 = match self.finisher() {
            Some(0) => 1.0,
            Some(_) => 0.0,
            None => player0_score(
                &self.pods,
                &self.context.map,
                &self.roles,
                &self.context.weights,
            ),
        };
        scores[0] = player0;
        scores[1] = player0;
        scores[2] = 1.0 - player0;
        scores[3] = 1.0 - player0;
    }
}
