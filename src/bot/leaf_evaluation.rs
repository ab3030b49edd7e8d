//! The search's leaf evaluation behind one seam: [`LeafEvaluation`], which the hand-written
//! evaluation ([`HandEvaluation`], `evaluation.rs`) and the value network blended with it
//! ([`NetworkBlend`], `value_net/`, feature `net`) implement. The bot picks one where it is set
//! up (`two_pod/player.rs`), and the search is compiled for each: no test of which at a leaf.
//! A finished race is scored by the game itself (`csb_game.rs`); an evaluation sees only races
//! nobody has won yet.

use super::evaluation::{pod_values, squash, EvalWeights, Roles};
use super::timeout_clocks::TimeoutClocks;
#[cfg(feature = "net")]
use super::value_net::{course::Course, network::Network};
use crate::engine::rules::POD_COUNT;
use crate::engine::{FastPod, Map};
use crate::search::{Rng, MAX_AGENTS};
use std::fmt::Debug;

/// What is fixed about a race during a search, as an evaluation needs it.
#[derive(Clone, Copy, Debug)]
pub struct RaceView<'a> {
    pub map: &'a Map,
    /// Passes that complete the race.
    pub passes_to_finish: u16,
}

/// A state of the search as an evaluation sees it: the race, the four pods and their
/// checkpoint clocks.
#[derive(Clone, Copy, Debug)]
pub struct SearchPosition<'a> {
    pub race: RaceView<'a>,
    pub pods: &'a [FastPod; POD_COUNT],
    pub clocks: TimeoutClocks,
}

/// How the search scores the position at the end of an iteration, per pod (higher is better for
/// that pod's tree; the two players' scores add to one where the evaluation is zero-sum).
pub trait LeafEvaluation {
    /// What the evaluation fixes at the search's root: where its scores are centred.
    type Centre: Copy + Debug;
    /// The centre of a search from `at`.
    fn centre(&self, at: SearchPosition, roles: &[Roles; 2]) -> Self::Centre;
    /// Each pod's score at `at` (a race nobody has won yet), written to `scores[0..POD_COUNT]`.
    fn scores(
        &self,
        at: SearchPosition,
        roles: &[Roles; 2],
        centre: &Self::Centre,
        scores: &mut [f64; MAX_AGENTS],
    );
    /// Pod `pod`'s prior over its actions at `at`, written to `priors` (summing to 1); false
    /// when the evaluation knows none (the search then takes them uniform). Read by a
    /// prior-guided selection when a node gets its children.
    #[inline(always)]
    fn priors(&self, at: SearchPosition, pod: usize, priors: &mut [f32]) -> bool {
        let _ = (at, pod, priors);
        false
    }
    /// The move pod `pod` plays on a ply without statistics where the default policy would
    /// play its greedy move (`policy.rs`); `None`: the greedy move.
    #[inline(always)]
    fn rollout_action(&self, at: SearchPosition, pod: usize, rng: &mut Rng) -> Option<u8> {
        let _ = (at, pod, rng);
        None
    }
}

/// Player 0's score `player0` as both its pods' scores and its complement as both of player 1's.
#[inline(always)]
pub fn write_team_scores(player0: f64, scores: &mut [f64; MAX_AGENTS]) {
    scores[..POD_COUNT].copy_from_slice(&[player0, player0, 1.0 - player0, 1.0 - player0]);
}

/// The hand-written evaluation (`evaluation.rs`) with its weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HandEvaluation {
    pub weights: EvalWeights,
}

impl LeafEvaluation for HandEvaluation {
    /// Each pod's value at the root, where its squash is centred.
    type Centre = [f64; POD_COUNT];

    fn centre(&self, at: SearchPosition, roles: &[Roles; 2]) -> [f64; POD_COUNT] {
        pod_values(at.pods, at.race.map, roles, &self.weights)
    }

    #[inline(always)]
    fn scores(
        &self,
        at: SearchPosition,
        roles: &[Roles; 2],
        centre: &[f64; POD_COUNT],
        scores: &mut [f64; MAX_AGENTS],
    ) {
        let weights = &self.weights;
        let values = pod_values(at.pods, at.race.map, roles, weights);
        for (pod, score) in scores[..POD_COUNT].iter_mut().enumerate() {
            *score = squash(values[pod] - centre[pod], weights);
        }
    }
}

/// The value network blended with the hand evaluation: each pod's score is
/// `(1 − net_weight) × its hand score + net_weight × its team's network value`, the network's
/// value being `σ(net_gain × (logit − the root's logit))`, centred on the root so that the gain
/// sharpens what the moves change. With `net_weight` 1 the network alone: our trees back up the
/// team's win probability, the opponent's trees its complement.
#[cfg(feature = "net")]
#[derive(Clone, Debug)]
pub struct NetworkBlend {
    pub hand: HandEvaluation,
    pub network: Network,
    /// What the network needs of the race's map (each checkpoint's leg), computed once a game.
    pub course: Course,
}

#[cfg(feature = "net")]
impl NetworkBlend {
    /// The embedded network (`value_net/weights.rs`) with `weights`' blend, for races on `map`.
    pub fn embedded(weights: EvalWeights, map: &Map) -> NetworkBlend {
        NetworkBlend::with_network(Network::embedded(), weights, map)
    }

    /// The network's share of a score: `σ(net_gain × logit_change)`, the change of a logit
    /// from its value at the root.
    #[inline(always)]
    pub fn network_value(weights: &EvalWeights, logit_change: f32) -> f64 {
        let centred = weights.net_gain * f64::from(logit_change);
        1.0 / (1.0 + (-centred).exp())
    }

    /// The network's logit for player 0 at `at`.
    #[inline(always)]
    fn logit(&self, at: SearchPosition) -> f32 {
        let passes = at.race.passes_to_finish;
        (self.network).player0_logit_on(at.pods, &self.course, passes, at.clocks)
    }

    /// `network` with `weights`' blend, for races on `map`.
    pub fn with_network(network: Network, weights: EvalWeights, map: &Map) -> NetworkBlend {
        NetworkBlend {
            hand: HandEvaluation { weights },
            network,
            course: Course::new(map),
        }
    }
}

#[cfg(feature = "net")]
impl LeafEvaluation for NetworkBlend {
    /// The hand evaluation's centre and the network's logit for player 0 at the root.
    type Centre = ([f64; POD_COUNT], f32);

    fn centre(&self, at: SearchPosition, roles: &[Roles; 2]) -> ([f64; POD_COUNT], f32) {
        (self.hand.centre(at, roles), self.logit(at))
    }

    #[inline(always)]
    fn scores(
        &self,
        at: SearchPosition,
        roles: &[Roles; 2],
        centre: &([f64; POD_COUNT], f32),
        scores: &mut [f64; MAX_AGENTS],
    ) {
        let weights = &self.hand.weights;
        let logit = self.logit(at);
        let player0 = NetworkBlend::network_value(weights, logit - centre.1);
        let net_weight = weights.net_weight;
        if net_weight >= 1.0 {
            write_team_scores(player0, scores);
            return;
        }
        self.hand.scores(at, roles, &centre.0, scores);
        for (pod, score) in scores[..POD_COUNT].iter_mut().enumerate() {
            let team = if pod < 2 { player0 } else { 1.0 - player0 };
            *score = (1.0 - net_weight) * *score + net_weight * team;
        }
    }
}
