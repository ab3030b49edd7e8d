//! A value per pod (`--eval pods`, issue 35 item 2): each pod's leaf score blends its hand score
//! with the policy network's value of that pod, from its own side's view (its slot's value head,
//! trained on what the pod's own tree backed up at the root), in place of the value network's
//! one team value. This matches how the trees back up: each tree gets its own pod's number. The
//! blend and its knobs are the value network's (`leaf_evaluation.rs`, [`NetworkBlend`]): a pod's
//! score is `(1 − net_weight) × its hand score + net_weight × σ(net_gain × (its value logit −
//! its value logit at the root))`.

use super::network::PolicyNetwork;
use crate::bot::evaluation::Roles;
use crate::bot::leaf_evaluation::{HandEvaluation, LeafEvaluation, NetworkBlend, RaceView};
use crate::bot::timeout_clocks::TimeoutClocks;
use crate::bot::value_net::course::Course;
use crate::engine::rules::POD_COUNT;
use crate::engine::{FastPod, Map};
use crate::search::MAX_AGENTS;

/// The hand evaluation blended with the policy network's per-pod values.
#[derive(Clone, Debug)]
pub struct PodValueBlend {
    pub hand: HandEvaluation,
    pub network: PolicyNetwork,
    /// What the network needs of the race's map, computed once a game.
    pub course: Course,
}

impl PodValueBlend {
    /// `network`'s per-pod values blended with `hand`, for races on `map`.
    pub fn new(hand: HandEvaluation, network: PolicyNetwork, map: &Map) -> PodValueBlend {
        PodValueBlend {
            hand,
            network,
            course: Course::new(map),
        }
    }

    /// Each pod's value logit in `pods`.
    #[inline(always)]
    fn logits(
        &self,
        race: RaceView,
        pods: &[FastPod; POD_COUNT],
        clocks: TimeoutClocks,
    ) -> [f32; 4] {
        self.network
            .pod_value_logits(pods, &self.course, race.passes_to_finish, clocks)
    }
}

impl LeafEvaluation for PodValueBlend {
    /// The hand evaluation's centre and each pod's value logit at the root.
    type Centre = ([f64; POD_COUNT], [f32; POD_COUNT]);

    fn centre(
        &self,
        race: RaceView,
        pods: &[FastPod; POD_COUNT],
        clocks: TimeoutClocks,
        roles: &[Roles; 2],
    ) -> Self::Centre {
        let logits = self.logits(race, pods, clocks);
        (self.hand.centre(race, pods, clocks, roles), logits)
    }

    #[inline(always)]
    fn scores(
        &self,
        race: RaceView,
        pods: &[FastPod; POD_COUNT],
        clocks: TimeoutClocks,
        roles: &[Roles; 2],
        centre: &Self::Centre,
        scores: &mut [f64; MAX_AGENTS],
    ) {
        let weights = &self.hand.weights;
        let logits = self.logits(race, pods, clocks);
        let net_weight = weights.net_weight;
        if net_weight < 1.0 {
            self.hand
                .scores(race, pods, clocks, roles, &centre.0, scores);
        }
        for (pod, score) in scores[..POD_COUNT].iter_mut().enumerate() {
            let value = NetworkBlend::network_value(weights, logits[pod] - centre.1[pod]);
            *score = if net_weight >= 1.0 {
                value
            } else {
                (1.0 - net_weight) * *score + net_weight * value
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::evaluation::EvalWeights;
    use crate::bot::policy_net::network::tests::random_network;
    use crate::bot::value_net::features::tests::random_positions;

    /// With the whole weight on the network, each pod's score is its own value, centred: its
    /// value at the root scores one half, and a pod whose value logit rose scores above it.
    #[test]
    fn each_pod_scores_its_own_value_centred_on_the_root() {
        let weights = EvalWeights {
            net_weight: 1.0,
            ..EvalWeights::default()
        };
        for (map, pods, passes, clocks) in random_positions(31, 300) {
            let roles = [0, 2].map(|first| Roles::of_player(&pods, &map, first, false));
            let evaluation =
                PodValueBlend::new(HandEvaluation { weights }, random_network(13), &map);
            let race = RaceView {
                map: &map,
                passes_to_finish: passes,
            };
            let centre = evaluation.centre(race, &pods, clocks, &roles);
            let mut scores = [0.0; MAX_AGENTS];
            evaluation.scores(race, &pods, clocks, &roles, &centre, &mut scores);
            assert!(scores[..POD_COUNT].iter().all(|&score| score == 0.5));
            let moved = {
                let mut moved = pods;
                moved[0].pos.x += 800.0;
                moved
            };
            let logits = evaluation.logits(race, &moved, clocks);
            evaluation.scores(race, &moved, clocks, &roles, &centre, &mut scores);
            for pod in 0..POD_COUNT {
                let rose = logits[pod] > centre.1[pod];
                assert_eq!(scores[pod] > 0.5, rose, "pod {pod}");
            }
        }
    }
}
