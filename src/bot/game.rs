//! Coders Strike Back as the generic search sees it: four agents (one per pod), the fast engine
//! as the step, and the evaluation of `evaluation.rs`.
//!
//! Two rules of the step shape what the search explores. SHIELD is played only by a pod that
//! may touch an opposing pod this turn (elsewhere it is action 0): a shield far from the
//! opponents only locks the thrust, yet random plies chose it a tenth of the time and the search
//! learnt to shield its way into coasting, or to shield next to its own teammate and stay locked
//! (docs/strength.md, rows F1 and G1). Plies without statistics follow the default policy of
//! `policy.rs`.

use super::actions::{ActionSet, ACTION_COUNT, SHIELD_ACTION};
use super::evaluation::{player0_advantage, player0_score, pod_values, squash, EvalWeights, Roles};
#[cfg(all(feature = "two-pod", any(feature = "experiments", feature = "net")))]
use super::value_net::network::Network;
use super::policy::greedy_action;
use crate::engine::rules::{POD_COUNT, TOUCH_DISTANCE};
use crate::engine::{fast_turn, FastAction, FastPod, Map, Thrust, Vec2};
use crate::search::{Game, Rng, MAX_AGENTS};

/// Without the network's code (feature `net`, or `experiments` for `--eval net`; it knows two
/// pods a side, so only with `two-pod`): a type with no values, so `RaceContext::network` is
/// always `None` and its uses compile to nothing.
#[cfg(not(all(feature = "two-pod", any(feature = "experiments", feature = "net"))))]
#[derive(Debug)]
pub enum Network {}

#[cfg(not(all(feature = "two-pod", any(feature = "experiments", feature = "net"))))]
impl Network {
    fn player0_logit(&self, _pods: &[FastPod; POD_COUNT], _map: &Map, _passes: u16) -> f32 {
        match *self {}
    }
}

/// The network the weights ask for (`--eval net`), alive for the whole process; `None` for the
/// hand evaluation.
pub fn network_for(weights: &EvalWeights) -> Option<&'static Network> {
    #[cfg(all(feature = "two-pod", any(feature = "experiments", feature = "net")))]
    if weights.net {
        return Some(Box::leak(Box::new(Network::embedded())));
    }
    let _ = weights;
    None
}

/// What stays fixed during a game: the map, the action set, the finish line.
#[derive(Clone, Copy, Debug)]
pub struct RaceContext {
    pub map: Map,
    pub actions: ActionSet,
    pub max_thrust: f64,
    /// Passes that complete the race.
    pub passes_to_finish: u16,
    pub weights: EvalWeights,
    /// SHIELD only when the pod may touch an opposing pod this turn (`--shield-near 1`);
    /// otherwise it plays as action 0.
    pub shield_near: bool,
    /// Probability that a pod plays [`greedy_action`] instead of a uniformly random action on
    /// the plies the search has no statistics for (`--greedy`, see `policy.rs`).
    pub greedy: f64,
    /// The value network scoring the leaves (`--eval net`); `None`: the hand evaluation.
    pub network: Option<&'static Network>,
}

/// One search state: the four pods (pods 0,1 are player 0's = our pods) and the roles.
#[derive(Clone, Copy, Debug)]
pub struct CsbGame {
    pub context: &'static RaceContext,
    pub pods: [FastPod; POD_COUNT],
    pub roles: [Roles; 2],
    /// Player 0's advantage at the root, where the score's squash is centred.
    pub baseline: f64,
    /// With `pod_scores`: each pod's [`pod_values`] at the root, where its squash is centred.
    pub pod_baselines: [f64; POD_COUNT],
    /// Per player: plies the search may play before the checkpoint timeout eliminates it if
    /// its pods pass nothing (`--timeout-aware 1`; `u32::MAX`, never reached, when off), its
    /// passes at the root, and which players it has eliminated so far (feature `experiments`).
    #[cfg(feature = "experiments")]
    pub timeout_plies: [u32; 2],
    #[cfg(feature = "experiments")]
    pub root_passes: [u16; 2],
    #[cfg(feature = "experiments")]
    pub timed_out: [bool; 2],
    /// Plies played since the root.
    #[cfg(feature = "experiments")]
    pub plies: u32,
    /// With the network: player 0's win logit at the root, where its value is centred.
    pub net_baseline: f32,
}

impl CsbGame {
    /// The root state of a search: the pods and roles, with the score centred on them if the
    /// weights say so.
    pub fn root(
        context: &'static RaceContext,
        pods: [FastPod; POD_COUNT],
        roles: [Roles; 2],
    ) -> CsbGame {
        let baseline = if context.weights.centred {
            player0_advantage(&pods, &context.map, &roles, &context.weights)
        } else {
            0.0
        };
        let pod_baselines = if context.weights.pod_scores {
            pod_values(&pods, &context.map, &roles, &context.weights)
        } else {
            [0.0; POD_COUNT]
        };
        CsbGame {
            context,
            pods,
            roles,
            baseline,
            pod_baselines,
            #[cfg(feature = "experiments")]
            timeout_plies: [u32::MAX; 2],
            #[cfg(feature = "experiments")]
            root_passes: [0, 1].map(|player| pods[2 * player].passes + pods[2 * player + 1].passes),
            #[cfg(feature = "experiments")]
            timed_out: [false; 2],
            #[cfg(feature = "experiments")]
            plies: 0,
            net_baseline: context.network.map_or(0.0, |network| {
                network.player0_logit(&pods, &context.map, context.passes_to_finish)
            }),
        }
    }

    /// Player 0's value by the network: `σ(gain × (logit − root logit))`, centred on the root
    /// so that the gain sharpens what the moves change (`--net-gain`).
    #[inline(always)]
    fn network_player0(&self, network: &Network) -> f64 {
        let context = self.context;
        let logit = network.player0_logit(&self.pods, &context.map, context.passes_to_finish);
        let centred = context.weights.net_gain * f64::from(logit - self.net_baseline);
        1.0 / (1.0 + (-centred).exp())
    }

    /// This root with the checkpoint timeout in view: player `p` is eliminated if its pods
    /// pass nothing in the next `turns_left[p]` plies (counted one short, the referee's
    /// off-by-one being uncertain, csb-rules.md §5.4).
    #[cfg(feature = "experiments")]
    pub fn with_timeout(mut self, turns_left: [u32; 2]) -> CsbGame {
        self.timeout_plies = turns_left.map(|left| left.saturating_sub(1));
        self
    }

    /// Where pod `pod` heads in the default policy: a runner (or a racing blocker) at its next
    /// checkpoint, a blocker at the opposing runner's.
    #[inline(always)]
    pub fn goal(&self, pod: usize) -> Vec2 {
        let player = pod / 2;
        let chased = if self.roles[player].races(pod) {
            pod
        } else {
            self.roles[1 - player].runner
        };
        self.context
            .map
            .checkpoint(self.pods[chased].next_checkpoint as usize)
    }

    /// Whether pod `pod` may touch an opposing pod this turn, by a cheap bound: the distance is
    /// below the touching distance plus both pods' full thrust plus their relative speed (its
    /// Manhattan length, never below the true one). A BOOST may reach further; that is ignored.
    #[inline(always)]
    pub fn may_collide(&self, pod: usize) -> bool {
        let me = &self.pods[pod];
        let base_reach = TOUCH_DISTANCE + 2.0 * self.context.max_thrust;
        let opponents = if pod < 2 { 2..4 } else { 0..2 };
        self.pods[opponents].iter().any(|them| {
            let reach = base_reach + (me.vel.x - them.vel.x).abs() + (me.vel.y - them.vel.y).abs();
            me.pos.distance_squared(them.pos) < reach * reach
        })
    }

    /// The action pod `pod` really plays for `action`: SHIELD out of reach of any pod is
    /// action 0 when the context asks for it.
    #[inline(always)]
    pub fn effective_action(&self, pod: usize, action: u8) -> u8 {
        if action == SHIELD_ACTION
            && self.context.shield_near
            && self.context.actions.get(SHIELD_ACTION).thrust == Thrust::Shield
            && !self.may_collide(pod)
        {
            0
        } else {
            action
        }
    }

    /// The player who has won: the first to finish the race (player 0 first when both have),
    /// or (feature `experiments`) the other one when the checkpoint timeout eliminated a player.
    fn finisher(&self) -> Option<usize> {
        let finish = self.context.passes_to_finish;
        if let Some(pod) = (0..POD_COUNT).find(|&pod| self.pods[pod].passes >= finish) {
            return Some(pod / 2);
        }
        #[cfg(feature = "experiments")]
        match self.timed_out {
            [true, false] => return Some(1),
            [false, true] => return Some(0),
            _ => {}
        }
        None
    }

    /// One more ply: a player whose pods have passed nothing since the root by its timeout ply
    /// is eliminated.
    #[cfg(feature = "experiments")]
    #[inline(always)]
    fn count_timeouts(&mut self) {
        self.plies += 1;
        for player in 0..2 {
            if self.plies >= self.timeout_plies[player] {
                let passes = self.pods[2 * player].passes + self.pods[2 * player + 1].passes;
                self.timed_out[player] |= passes == self.root_passes[player];
            }
        }
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
        let mut actions = *actions;
        for (pod, action) in actions[..POD_COUNT].iter_mut().enumerate() {
            *action = self.effective_action(pod, *action);
        }
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
        #[cfg(feature = "experiments")]
        self.count_timeouts();
    }

    #[inline(always)]
    fn is_terminal(&self) -> bool {
        self.finisher().is_some()
    }

    #[inline(always)]
    fn evaluate(&self, scores: &mut [f64; MAX_AGENTS]) {
        let context = self.context;
        let finisher = self.finisher();
        let network_player0 = match (context.network, finisher) {
            (Some(network), None) => Some(self.network_player0(network)),
            _ => None,
        };
        let net_weight = context.weights.net_weight;
        if let (Some(player0), true) = (network_player0, net_weight >= 1.0) {
            // Our trees back up the team's win probability, the opponent's trees its complement.
            scores[..POD_COUNT].copy_from_slice(&[player0, player0, 1.0 - player0, 1.0 - player0]);
            return;
        }
        if context.weights.pod_scores && finisher.is_none() {
            let values = pod_values(&self.pods, &context.map, &self.roles, &context.weights);
            for (pod, score) in scores[..POD_COUNT].iter_mut().enumerate() {
                *score = squash(values[pod] - self.pod_baselines[pod], &context.weights);
            }
        } else {
            let player0 = match finisher {
                Some(0) => 1.0,
                Some(_) => 0.0,
                None => player0_score(
                    &self.pods,
                    &self.context.map,
                    &self.roles,
                    &self.context.weights,
                    self.baseline,
                ),
            };
            scores[..POD_COUNT].copy_from_slice(&[player0, player0, 1.0 - player0, 1.0 - player0]);
        }
        if let Some(player0) = network_player0 {
            // A blend: each pod's hand score and its team's network value.
            for (pod, score) in scores[..POD_COUNT].iter_mut().enumerate() {
                let team = if pod < 2 { player0 } else { 1.0 - player0 };
                *score = (1.0 - net_weight) * *score + net_weight * team;
            }
        }
    }

    /// With probability `greedy`, the pod drives toward its goal (`policy.rs`); otherwise a
    /// uniformly random action. `greedy` 0 draws exactly as the generic uniform policy does.
    #[inline(always)]
    fn default_action(&self, pod: usize, rng: &mut Rng) -> u8 {
        let greedy = self.context.greedy;
        if greedy > 0.0 && rng.next_f64() < greedy {
            greedy_action(&self.context.actions, &self.pods[pod], self.goal(pod))
        } else {
            rng.below(ACTION_COUNT as u32) as u8
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{League, Pod};

    fn game(gap: f64, shield_near: bool) -> CsbGame {
        let map = Map::new(&[(0, 0), (10000, 0), (10000, 8000)]).unwrap();
        let context: &'static RaceContext = Box::leak(Box::new(RaceContext {
            map,
            actions: ActionSet::new(League::Legend),
            max_thrust: 200.0,
            passes_to_finish: 9,
            weights: EvalWeights::default(),
            shield_near,
            greedy: 0.0,
            network: None,
        }));
        let spawn = |x: f64, y: f64| {
            let pod = Pod::spawn(Vec2::new(x, y));
            FastPod::from_pod(&pod, map.checkpoint_count(), 0.0)
        };
        let pods = [
            spawn(1000.0, 1000.0),
            spawn(1000.0, 1900.0),
            spawn(1000.0 + gap, 1000.0),
            spawn(1000.0, 8000.0),
        ];
        let roles = Roles {
            runner: 0,
            blocker: 1,
            blocker_races: false,
        };
        CsbGame::root(
            context,
            pods,
            [
                roles,
                Roles {
                    runner: 2,
                    blocker: 3,
                    blocker_races: false,
                },
            ],
        )
    }

    #[test]
    fn shield_out_of_reach_of_the_opponents_plays_as_action_0() {
        // Standing pods: reach is 800 + 2 × 200. Pod 2 (an opponent) is `gap` from pod 0; pod 1
        // (its teammate, 900 away) does not count.
        assert_eq!(
            game(1199.0, true).effective_action(0, SHIELD_ACTION),
            SHIELD_ACTION
        );
        assert_eq!(game(1201.0, true).effective_action(0, SHIELD_ACTION), 0);
        assert_eq!(
            game(1201.0, false).effective_action(0, SHIELD_ACTION),
            SHIELD_ACTION
        );
        assert_eq!(game(1201.0, true).effective_action(0, 3), 3);
        // Pod 3 is far from everyone; pod 1 is 1499 from pod 2.
        assert_eq!(game(1201.0, true).effective_action(3, SHIELD_ACTION), 0);
        assert_eq!(game(1199.0, true).effective_action(1, SHIELD_ACTION), 0);
    }

    #[cfg(feature = "experiments")]
    #[test]
    fn a_player_that_passes_nothing_before_the_timeout_loses() {
        // Everyone far from their next checkpoint, standing: nobody passes in two plies.
        let root = game(5000.0, true);
        let mut state = root.with_timeout([100, 2]);
        assert!(!state.is_terminal());
        state.step(&[5; MAX_AGENTS]);
        // Two turns left are counted as one ply (one short): after it, player 1 is out.
        assert!(state.is_terminal());
        assert!(state.timed_out[1] && !state.timed_out[0]);
        let mut scores = [0.0; MAX_AGENTS];
        state.evaluate(&mut scores);
        assert_eq!(scores, [1.0, 1.0, 0.0, 0.0]);
        // Without the timeout in view nothing ends.
        let mut state = root;
        state.step(&[5; MAX_AGENTS]);
        state.step(&[5; MAX_AGENTS]);
        assert!(!state.is_terminal());
    }
}
