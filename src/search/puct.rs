//! A prior-guided selection (PUCT, as in AlphaZero): a node descends into the child with the
//! largest `Q + c × P × √N / (1 + n)`, where `Q` is the child's mean score normalised to [0, 1]
//! by the tree's score range this turn (as UCB1's, `selection.rs`), `P` the child's prior,
//! given by the game when the node got its children ([`Game::action_priors`]), `N` the node's
//! visits, `n` the child's, and `c` [`SearchParams::puct_exploration`]. A child not visited yet
//! counts as the node's own mean (its "first-play urgency"), so the prior alone orders the
//! unvisited children instead of each being tried once in action order.

use super::game::Game;
use super::params::SearchParams;
use super::pool::{NodeId, NodePool};
use super::rng::Rng;
use super::selection::{ScoreScale, Selection, VisitTables};
use super::MAX_AGENTS;

/// PUCT with a prior per node, kept in arrays parallel to each tree's pool.
#[derive(Clone, Debug)]
pub struct Puct {
    /// `1/n` for small visit counts, shared with UCB1: PUCT's two quotients as products.
    tables: VisitTables,
    /// `priors[agent][node]`: the prior of the node (a child) as its parent's choice.
    priors: [Vec<f32>; MAX_AGENTS],
    lowest_scores: [f64; MAX_AGENTS],
    highest_scores: [f64; MAX_AGENTS],
    scales: [ScoreScale; MAX_AGENTS],
}

impl Puct {
    /// The prior of agent `agent`'s node `node`.
    pub fn prior(&self, agent: usize, node: NodeId) -> f32 {
        self.priors[agent][node.index()]
    }
}

impl Selection for Puct {
    fn new(nodes_per_agent: usize) -> Self {
        Puct {
            tables: VisitTables::new(),
            priors: std::array::from_fn(|_| vec![0.0; nodes_per_agent.max(1)]),
            lowest_scores: [f64::INFINITY; MAX_AGENTS],
            highest_scores: [f64::NEG_INFINITY; MAX_AGENTS],
            scales: [ScoreScale::new(f64::INFINITY, f64::NEG_INFINITY); MAX_AGENTS],
        }
    }

    #[inline]
    fn reset(&mut self, agent: usize) {
        self.lowest_scores[agent] = f64::INFINITY;
        self.highest_scores[agent] = f64::NEG_INFINITY;
        self.scales[agent] = ScoreScale::new(f64::INFINITY, f64::NEG_INFINITY);
    }

    #[inline(always)]
    fn expanded<G: Game>(
        &mut self,
        agent: usize,
        first_child: NodeId,
        state: &G,
        context: &G::Context,
    ) {
        let first = first_child.index();
        let count = state.action_count(agent);
        if let Some(priors) = self.priors[agent].get_mut(first..first + count) {
            state.action_priors(context, agent, priors);
        }
    }

    #[inline(always)]
    fn select(
        &mut self,
        agent: usize,
        tree: &NodePool,
        node: NodeId,
        params: &SearchParams,
        _rng: &mut Rng,
    ) -> usize {
        let parent = tree.node(node);
        let first = parent.first_child.index();
        let children = tree.children(node);
        let priors = &self.priors[agent][first..first + children.len()];
        puct(
            &self.tables,
            children.iter().map(|child| (child.visits, child.score_sum)),
            priors,
            parent.visits,
            parent.mean(),
            params.puct_exploration,
            self.scales[agent],
        )
    }

    #[inline(always)]
    fn backed_up(&mut self, agent: usize, lowest: f64, highest: f64) {
        let mut changed = false;
        if lowest < self.lowest_scores[agent] {
            self.lowest_scores[agent] = lowest;
            changed = true;
        }
        if highest > self.highest_scores[agent] {
            self.highest_scores[agent] = highest;
            changed = true;
        }
        if changed {
            self.scales[agent] =
                ScoreScale::new(self.lowest_scores[agent], self.highest_scores[agent]);
        }
    }
}

/// The index of the child (`(visits, score sum)` each, with its prior in `priors`) of largest
/// `Q + exploration × P × √max(parent_visits, 1) / (1 + n)` (first of equals), `Q` the child's mean
/// normalised by `scale`, or the parent's mean for an unvisited child.
#[inline]
pub fn puct(
    tables: &VisitTables,
    children: impl Iterator<Item = (u32, f64)>,
    priors: &[f32],
    parent_visits: u32,
    parent_mean: f64,
    exploration: f64,
    scale: ScoreScale,
) -> usize {
    // At least one visit: a node choosing before any visit still follows its priors.
    let exploration_scale = exploration * f64::from(parent_visits.max(1)).sqrt();
    // Before any score was backed up the range is empty (lowest +∞): means count from 0.
    let lowest = if scale.lowest.is_finite() {
        scale.lowest
    } else {
        0.0
    };
    let unvisited_value = (parent_mean - lowest) * scale.inverse_range;
    let mut best_index = 0;
    let mut best_bound = f64::NEG_INFINITY;
    for (index, ((visits, score_sum), &prior)) in children.zip(priors).enumerate() {
        let [inverse_visits, _] = tables.inverse(visits);
        let value = if visits == 0 {
            unvisited_value
        } else {
            (score_sum * inverse_visits - lowest) * scale.inverse_range
        };
        let [inverse_visits_after, _] = tables.inverse(visits + 1);
        let bound = value + exploration_scale * f64::from(prior) * inverse_visits_after;
        if bound > best_bound {
            best_bound = bound;
            best_index = index;
        }
    }
    best_index
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choose(children: &[(u32, f64)], priors: &[f32], parent_visits: u32, c: f64) -> usize {
        let parent_mean = {
            let (visits, sum) = children
                .iter()
                .fold((0, 0.0), |(v, s), &(cv, cs)| (v + cv, s + cs));
            if visits == 0 {
                0.5
            } else {
                sum / f64::from(visits)
            }
        };
        puct(
            &VisitTables::new(),
            children.iter().copied(),
            priors,
            parent_visits,
            parent_mean,
            c,
            ScoreScale::new(0.0, 1.0),
        )
    }

    #[test]
    fn unvisited_children_are_tried_in_the_order_of_their_priors() {
        let children = [(0, 0.0); 4];
        assert_eq!(choose(&children, &[0.1, 0.2, 0.6, 0.1], 10, 1.0), 2);
        assert_eq!(choose(&children, &[0.4, 0.2, 0.3, 0.1], 10, 1.0), 0);
    }

    #[test]
    fn with_equal_priors_the_better_mean_wins_and_exploration_spreads_visits() {
        // Equal visits and priors: the higher mean.
        let children = [(10, 3.0), (10, 7.0)];
        assert_eq!(choose(&children, &[0.5, 0.5], 20, 1.0), 1);
        // A much less visited child with a fair prior gets its turn under strong exploration.
        let children = [(200, 120.0), (2, 1.0)];
        assert_eq!(choose(&children, &[0.5, 0.5], 202, 0.0), 0);
        assert_eq!(choose(&children, &[0.5, 0.5], 202, 5.0), 1);
    }

    #[test]
    fn a_strong_prior_outweighs_a_small_difference_of_means() {
        let children = [(5, 2.5), (5, 2.6)];
        assert_eq!(choose(&children, &[0.9, 0.1], 10, 1.0), 0);
        assert_eq!(choose(&children, &[0.5, 0.5], 10, 1.0), 1);
    }

    /// The bound of each child as the quotients give it, the way `puct` computed it before it
    /// read `1/n` from the tables.
    fn bounds_by_division(
        children: &[(u32, f64)],
        priors: &[f32],
        parent_visits: u32,
        parent_mean: f64,
        c: f64,
    ) -> Vec<f64> {
        let exploration_scale = c * f64::from(parent_visits.max(1)).sqrt();
        children
            .iter()
            .zip(priors)
            .map(|(&(visits, sum), &prior)| {
                let value = if visits == 0 {
                    parent_mean
                } else {
                    sum / f64::from(visits)
                };
                value + exploration_scale * f64::from(prior) / (1.0 + f64::from(visits))
            })
            .collect()
    }

    #[test]
    fn the_tables_choose_as_the_quotients_but_on_near_ties() {
        // Products by rounded reciprocals may differ from the quotients in the last bit, so
        // two bounds within a few ulps may swap; any other choice must be the quotients'.
        let tables = VisitTables::new();
        let mut rng = Rng::new(54);
        let (mut same, mut near_ties) = (0, 0);
        for _ in 0..100_000 {
            let count = 2 + rng.below(9) as usize;
            let children: Vec<(u32, f64)> = (0..count)
                .map(|_| {
                    // Visit counts on both sides of the tables' end (4,096).
                    let visits = match rng.below(4) {
                        0 => 0,
                        1 => rng.below(20),
                        2 => rng.below(5_000),
                        _ => rng.below(200_000),
                    };
                    (visits, f64::from(visits) * rng.next_f64())
                })
                .collect();
            let priors: Vec<f32> = (0..count).map(|_| rng.next_f64() as f32).collect();
            let parent_visits = children.iter().map(|child| child.0).sum::<u32>() + 1;
            let parent_mean = rng.next_f64();
            let c = 0.5 + 2.0 * rng.next_f64();
            let chosen = puct(
                &tables,
                children.iter().copied(),
                &priors,
                parent_visits,
                parent_mean,
                c,
                ScoreScale::new(0.0, 1.0),
            );
            let bounds = bounds_by_division(&children, &priors, parent_visits, parent_mean, c);
            let best = bounds.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let best_index = bounds.iter().position(|&bound| bound == best).unwrap();
            if chosen == best_index {
                same += 1;
            } else {
                assert!(
                    (bounds[chosen] - best).abs() <= 1e-14 * best.abs(),
                    "chose {chosen} (bound {}) where the quotients choose {best_index} ({best})",
                    bounds[chosen]
                );
                near_ties += 1;
            }
        }
        assert!(same > 99_000, "{same} same choices, {near_ties} near ties");
    }

    /// A game whose agent's prior puts all weight on its last action.
    #[derive(Clone, Copy)]
    struct LastFirst;

    impl Game for LastFirst {
        type Context = ();
        fn agent_count(&self) -> usize {
            1
        }
        fn action_count(&self, _agent: usize) -> usize {
            3
        }
        fn step(&mut self, _context: &(), _actions: &[u8; MAX_AGENTS]) {}
        fn is_terminal(&self, _context: &()) -> bool {
            false
        }
        fn evaluate(&self, _context: &(), scores: &mut [f64; MAX_AGENTS]) {
            scores[0] = 0.5;
        }
        fn action_priors(&self, _context: &(), _agent: usize, priors: &mut [f32]) {
            priors.copy_from_slice(&[0.0, 0.0, 1.0]);
        }
    }

    #[test]
    fn expansion_stores_the_games_priors_for_the_children() {
        let mut pool = NodePool::with_capacity(16);
        pool.reset(3);
        let first = pool.expand(NodeId::ROOT).unwrap();
        let mut selection = Puct::new(16);
        selection.expanded(0, first, &LastFirst, &());
        assert_eq!(selection.prior(0, first), 0.0);
        assert_eq!(selection.prior(0, NodeId(first.0 + 2)), 1.0);
        let params = SearchParams::default();
        let index = selection.select(0, &pool, NodeId::ROOT, &params, &mut Rng::new(1));
        assert_eq!(index, 2);
    }
}
