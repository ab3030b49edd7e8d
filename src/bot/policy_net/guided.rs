//! A leaf evaluation guided by the policy network: the scores are those of the evaluation it
//! wraps, and the network gives the search each pod's prior over its actions when a node gets
//! its children (read by the prior-guided selection, `search/puct.rs`), and, with
//! `--rollout policy`, the moves of the plies the search has no statistics for, drawn from the
//! same distribution where the greedy policy would play (`policy.rs`).

use super::network::PolicyNetwork;
use crate::bot::actions::ACTION_COUNT;
use crate::bot::evaluation::Roles;
use crate::bot::leaf_evaluation::{LeafEvaluation, SearchPosition};
use crate::bot::value_net::course::Course;
use crate::engine::Map;
use crate::search::{Rng, MAX_AGENTS};

/// The evaluation `E` with the policy network's priors and, if `rollout`, its rollout moves.
#[derive(Clone, Debug)]
pub struct Guided<E> {
    pub inner: E,
    /// Private: `within` is derived from it once, in [`Guided::new`].
    network: PolicyNetwork,
    /// What the network needs of the race's map, computed once a game.
    pub course: Course,
    /// The network's effective widths (`widths::effective`) as the priors' loop bounds,
    /// computed once: a policy narrower than the bot's layers costs its own width.
    within: [usize; 3],
    /// Whether the plies without statistics draw from the policy instead of the greedy move.
    pub rollout: bool,
}

impl<E> Guided<E> {
    /// `inner` guided by `network` in races on `map`.
    pub fn new(inner: E, network: PolicyNetwork, map: &Map, rollout: bool) -> Guided<E> {
        let widths = super::widths::effective(&network);
        Guided {
            inner,
            within: [widths.hidden, widths.action_inputs, widths.action_hidden],
            network,
            course: Course::new(map),
            rollout,
        }
    }

    /// Pod `pod`'s action probabilities at `at`.
    #[inline(always)]
    fn pod_priors(&self, at: SearchPosition, pod: usize) -> [f32; ACTION_COUNT] {
        let passes = at.race.passes_to_finish;
        let (network, within) = (&self.network, self.within);
        network.pod_priors_within(within, at.pods, &self.course, passes, at.clocks, pod)
    }
}

impl<E: LeafEvaluation> LeafEvaluation for Guided<E> {
    type Centre = E::Centre;

    fn centre(&self, at: SearchPosition, roles: &[Roles; 2]) -> E::Centre {
        self.inner.centre(at, roles)
    }

    #[inline(always)]
    fn scores(
        &self,
        at: SearchPosition,
        roles: &[Roles; 2],
        centre: &E::Centre,
        scores: &mut [f64; MAX_AGENTS],
    ) {
        self.inner.scores(at, roles, centre, scores);
    }

    #[inline(always)]
    fn priors(&self, at: SearchPosition, pod: usize, priors: &mut [f32]) -> bool {
        if priors.len() != ACTION_COUNT {
            return false;
        }
        priors.copy_from_slice(&self.pod_priors(at, pod));
        true
    }

    #[inline(always)]
    fn rollout_action(&self, at: SearchPosition, pod: usize, rng: &mut Rng) -> Option<u8> {
        if !self.rollout {
            return None;
        }
        let priors = self.pod_priors(at, pod);
        let mut left = rng.next_f64() as f32;
        for (action, &prior) in priors.iter().enumerate() {
            left -= prior;
            if left < 0.0 {
                return Some(action as u8);
            }
        }
        // Rounding left a sliver past the last action.
        Some((ACTION_COUNT - 1) as u8)
    }
}
