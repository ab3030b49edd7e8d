//! Coders Strike Back as the generic search sees it: four agents (one per pod), the fast engine
//! as the step, a [`LeafEvaluation`] at the leaves. What stays fixed during a game (the map, the
//! action set, the evaluation with its network) is the [`RaceContext`], owned by the player and
//! lent to each search; the state copied at every iteration is the pods, the checkpoint clocks
//! (ticked every simulated turn, `timeout_clocks.rs`), the roles and the evaluation's centre.
//!
//! Two rules of the step shape what the search explores. SHIELD is played only by a pod that
//! may touch an opposing pod this turn (elsewhere it is action 0): a shield far from the
//! opponents only locks the thrust, yet random plies chose it a tenth of the time and the search
//! learnt to shield its way into coasting, or to shield next to its own teammate and stay locked
//! (docs/strength.md, rows F1 and G1). Plies without statistics follow the default policy of
//! `policy.rs`.

use super::actions::{ActionSet, ACTION_COUNT, SHIELD_ACTION};
use super::evaluation::Roles;
use super::leaf_evaluation::{write_team_scores, LeafEvaluation, RaceView, SearchPosition};
use super::policy::greedy_action;
use super::timeout_clocks::TimeoutClocks;
use crate::engine::rules::{POD_COUNT, TOUCH_DISTANCE};
use crate::engine::{fast_turn, FastAction, FastPod, Map, Thrust, Vec2};
use crate::search::{Game, Rng, MAX_AGENTS};

/// What stays fixed during a game: the map, the action set, the finish line, the evaluation.
#[derive(Clone, Debug)]
pub struct RaceContext<E> {
    pub map: Map,
    pub actions: ActionSet,
    pub max_thrust: f64,
    /// Passes that complete the race.
    pub passes_to_finish: u16,
    /// SHIELD only when the pod may touch an opposing pod this turn (`--shield-near 1`);
    /// otherwise it plays as action 0.
    pub shield_near: bool,
    /// Probability that a pod plays [`greedy_action`] instead of a uniformly random action on
    /// the plies the search has no statistics for (`--greedy`, see `policy.rs`).
    pub greedy: f64,
    /// The leaf evaluation.
    pub evaluation: E,
}

impl<E> RaceContext<E> {
    /// The race as an evaluation sees it.
    #[inline(always)]
    pub fn view(&self) -> RaceView<'_> {
        RaceView {
            map: &self.map,
            passes_to_finish: self.passes_to_finish,
        }
    }

    /// The state of `pods` with the clocks `clocks` in this race, as an evaluation sees it.
    #[inline(always)]
    pub fn at<'a>(
        &'a self,
        pods: &'a [FastPod; POD_COUNT],
        clocks: TimeoutClocks,
    ) -> SearchPosition<'a> {
        SearchPosition {
            race: self.view(),
            pods,
            clocks,
        }
    }
}

/// One search state: the four pods (pods 0,1 are player 0's = our pods), each player's
/// checkpoint clock, the roles and where the evaluation is centred.
#[derive(Debug)]
pub struct CsbGame<E: LeafEvaluation> {
    pub pods: [FastPod; POD_COUNT],
    pub clocks: TimeoutClocks,
    pub roles: [Roles; 2],
    pub centre: E::Centre,
}

// Copied whatever `E` is: the state holds only the evaluation's centre, not the evaluation.
impl<E: LeafEvaluation> Clone for CsbGame<E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E: LeafEvaluation> Copy for CsbGame<E> {}

impl<E: LeafEvaluation> CsbGame<E> {
    /// The root state of a search: the pods, clocks and roles, with the evaluation centred on
    /// them.
    pub fn root(
        context: &RaceContext<E>,
        pods: [FastPod; POD_COUNT],
        clocks: TimeoutClocks,
        roles: [Roles; 2],
    ) -> CsbGame<E> {
        CsbGame {
            pods,
            clocks,
            roles,
            centre: (context.evaluation).centre(context.at(&pods, clocks), &roles),
        }
    }

    /// Where pod `pod` heads in the default policy: a runner (or a racing blocker) at its next
    /// checkpoint, a blocker at the opposing runner's.
    #[inline(always)]
    pub fn goal(&self, map: &Map, pod: usize) -> Vec2 {
        let player = pod / 2;
        let chased = if self.roles[player].races(pod) {
            pod
        } else {
            self.roles[1 - player].runner
        };
        map.checkpoint(self.pods[chased].next_checkpoint as usize)
    }

    /// Whether pod `pod` may touch an opposing pod this turn, by a cheap bound: the distance is
    /// below the touching distance plus both pods' full thrust plus their relative speed (its
    /// Manhattan length, never below the true one). A BOOST may reach further; that is ignored.
    #[inline(always)]
    pub fn may_collide(&self, max_thrust: f64, pod: usize) -> bool {
        let me = &self.pods[pod];
        let base_reach = TOUCH_DISTANCE + 2.0 * max_thrust;
        let opponents = if pod < 2 { 2..4 } else { 0..2 };
        self.pods[opponents].iter().any(|them| {
            let reach = base_reach + (me.vel.x - them.vel.x).abs() + (me.vel.y - them.vel.y).abs();
            me.pos.distance_squared(them.pos) < reach * reach
        })
    }

    /// The action pod `pod` really plays for `action`: SHIELD out of reach of any pod is
    /// action 0 when the context asks for it.
    #[inline(always)]
    pub fn effective_action(&self, context: &RaceContext<E>, pod: usize, action: u8) -> u8 {
        if action == SHIELD_ACTION
            && context.shield_near
            && context.actions.get(SHIELD_ACTION).thrust == Thrust::Shield
            && !self.may_collide(context.max_thrust, pod)
        {
            0
        } else {
            action
        }
    }

    /// The player who has won: the first to finish the race (player 0 first when both have).
    #[inline(always)]
    fn finisher(&self, passes_to_finish: u16) -> Option<usize> {
        (0..POD_COUNT)
            .find(|&pod| self.pods[pod].passes >= passes_to_finish)
            .map(|pod| pod / 2)
    }
}

impl<E: LeafEvaluation> Game for CsbGame<E> {
    type Context = RaceContext<E>;

    #[inline(always)]
    fn agent_count(&self) -> usize {
        POD_COUNT
    }

    #[inline(always)]
    fn action_count(&self, _agent: usize) -> usize {
        ACTION_COUNT
    }

    #[inline(always)]
    fn step(&mut self, context: &RaceContext<E>, actions: &[u8; MAX_AGENTS]) {
        let set = &context.actions;
        let mut actions = *actions;
        for (pod, action) in actions[..POD_COUNT].iter_mut().enumerate() {
            *action = self.effective_action(context, pod, *action);
        }
        let joint: [FastAction; POD_COUNT] = [
            *set.get(actions[0]),
            *set.get(actions[1]),
            *set.get(actions[2]),
            *set.get(actions[3]),
        ];
        let passes_before = self.pods.map(|pod| pod.passes);
        fast_turn(&mut self.pods, &context.map, &joint, context.max_thrust);
        self.clocks.tick(&passes_before, &self.pods);
    }

    #[inline(always)]
    fn is_terminal(&self, context: &RaceContext<E>) -> bool {
        self.finisher(context.passes_to_finish).is_some()
    }

    /// A finished race is 1 for the winner's pods and 0 for the loser's; otherwise the
    /// evaluation's scores.
    #[inline(always)]
    fn evaluate(&self, context: &RaceContext<E>, scores: &mut [f64; MAX_AGENTS]) {
        match self.finisher(context.passes_to_finish) {
            Some(winner) => {
                write_team_scores(if winner == 0 { 1.0 } else { 0.0 }, scores);
            }
            None => context.evaluation.scores(
                context.at(&self.pods, self.clocks),
                &self.roles,
                &self.centre,
                scores,
            ),
        }
    }

    /// The evaluation's priors for pod `pod` (`LeafEvaluation::priors`), uniform when it has
    /// none.
    #[inline(always)]
    fn action_priors(&self, context: &RaceContext<E>, pod: usize, priors: &mut [f32]) {
        if !context
            .evaluation
            .priors(context.at(&self.pods, self.clocks), pod, priors)
        {
            priors.fill(1.0 / priors.len() as f32);
        }
    }

    /// With probability `greedy`, the pod drives toward its goal (`policy.rs`); otherwise a
    /// uniformly random action. `greedy` 0 draws exactly as the generic uniform policy does.
    #[inline(always)]
    fn default_action(&self, context: &RaceContext<E>, pod: usize, rng: &mut Rng) -> u8 {
        let greedy = context.greedy;
        if greedy > 0.0 && rng.next_f64() < greedy {
            if let Some(action) =
                context
                    .evaluation
                    .rollout_action(context.at(&self.pods, self.clocks), pod, rng)
            {
                return action;
            }
            greedy_action(
                &context.actions,
                &self.pods[pod],
                self.goal(&context.map, pod),
            )
        } else {
            rng.below(ACTION_COUNT as u32) as u8
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::evaluation::EvalWeights;
    use crate::bot::leaf_evaluation::HandEvaluation;
    use crate::engine::{League, Pod};

    fn game(gap: f64, shield_near: bool) -> (RaceContext<HandEvaluation>, CsbGame<HandEvaluation>) {
        let map = Map::new(&[(0, 0), (10000, 0), (10000, 8000)]).unwrap();
        let context = RaceContext {
            map,
            actions: ActionSet::new(League::Legend),
            max_thrust: 200.0,
            passes_to_finish: 9,
            shield_near,
            greedy: 0.0,
            evaluation: HandEvaluation {
                weights: EvalWeights::default(),
            },
        };
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
        let root = CsbGame::root(
            &context,
            pods,
            TimeoutClocks::FULL,
            [
                roles,
                Roles {
                    runner: 2,
                    blocker: 3,
                    blocker_races: false,
                },
            ],
        );
        (context, root)
    }

    #[test]
    fn shield_out_of_reach_of_the_opponents_plays_as_action_0() {
        // Standing pods: reach is 800 + 2 × 200. Pod 2 (an opponent) is `gap` from pod 0; pod 1
        // (its teammate, 900 away) does not count.
        let effective = |gap: f64, shield_near: bool, pod: usize, action: u8| {
            let (context, root) = game(gap, shield_near);
            root.effective_action(&context, pod, action)
        };
        assert_eq!(effective(1199.0, true, 0, SHIELD_ACTION), SHIELD_ACTION);
        assert_eq!(effective(1201.0, true, 0, SHIELD_ACTION), 0);
        assert_eq!(effective(1201.0, false, 0, SHIELD_ACTION), SHIELD_ACTION);
        assert_eq!(effective(1201.0, true, 0, 3), 3);
        // Pod 3 is far from everyone; pod 1 is 1499 from pod 2.
        assert_eq!(effective(1201.0, true, 3, SHIELD_ACTION), 0);
        assert_eq!(effective(1199.0, true, 1, SHIELD_ACTION), 0);
    }

    #[test]
    fn a_simulated_turn_ticks_the_clocks_and_a_pass_refills_one() {
        let (context, mut state) = game(5000.0, true);
        state.clocks = TimeoutClocks::new([30, 30]);
        // Pod 0 stands 100 from its next checkpoint (1: (10000, 0)) and drives into it.
        state.pods[0].pos = Vec2::new(9900.0, 0.0);
        state.pods[0].next_checkpoint = 1;
        let actions = [0; MAX_AGENTS];
        state.step(&context, &actions);
        assert_eq!(state.pods[0].passes, 1);
        assert_eq!(state.clocks.turns_left, [100, 29]);
        state.step(&context, &actions);
        assert_eq!(state.clocks.turns_left, [99, 28]);
    }

    #[test]
    fn a_finished_race_scores_one_for_the_winner_and_zero_for_the_loser() {
        let (context, mut state) = game(5000.0, true);
        let mut scores = [0.5; MAX_AGENTS];
        assert!(!state.is_terminal(&context));
        state.pods[3].passes = 9;
        assert!(state.is_terminal(&context));
        state.evaluate(&context, &mut scores);
        assert_eq!(scores, [0.0, 0.0, 1.0, 1.0]);
        // Both finished: player 0 first.
        state.pods[1].passes = 9;
        state.evaluate(&context, &mut scores);
        assert_eq!(scores, [1.0, 1.0, 0.0, 0.0]);
    }
}
