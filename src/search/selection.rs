//! How a node picks the child to descend into, once it has had its random visits: the
//! [`Selection`] trait, a type the search is generic over, and UCB1 ([`Ucb1`]), the policy the bot
//! plays. A policy owns whatever it needs beyond the pool's visits and score sums: UCB1 its
//! tables of `1/n`, `1/sqrt(n)`, `sqrt(ln n)` and each tree's score range; a prior-guided policy
//! would own a prior per node (filled in [`Selection::expanded`]). Smooth UCT, EXP3 and
//! UCB1-Tuned were measured and dropped (docs/strength.md, rows C1-C3).

use super::game::Game;
use super::params::SearchParams;
use super::pool::{Node, NodeId, NodePool};
use super::rng::Rng;
use super::MAX_AGENTS;

/// A selection policy: what a node past its random visits descends into. The search calls
/// [`Selection::reset`] for every tree at the start of a turn, [`Selection::expanded`] when a
/// node gets its children, [`Selection::select`] at every choice in a tree and
/// [`Selection::backed_up`] once per tree per iteration.
pub trait Selection {
    /// A policy for trees of up to `nodes_per_agent` nodes: the only place it may allocate.
    fn new(nodes_per_agent: usize) -> Self;
    /// Agent `agent`'s tree starts afresh.
    fn reset(&mut self, agent: usize);
    /// Agent `agent`'s node just got its children, `first_child` onwards, at `state`.
    #[inline(always)]
    fn expanded<G: Game>(
        &mut self,
        agent: usize,
        first_child: NodeId,
        state: &G,
        context: &G::Context,
    ) {
        let _ = (agent, first_child, state, context);
    }
    /// The index of the child of `node` (expanded, past its random visits) to descend into.
    fn select(
        &mut self,
        agent: usize,
        tree: &NodePool,
        node: NodeId,
        params: &SearchParams,
        rng: &mut Rng,
    ) -> usize;
    /// An iteration added scores from `lowest` to `highest` (discounted as stored) below the
    /// root of agent `agent`'s tree.
    #[inline(always)]
    fn backed_up(&mut self, agent: usize, lowest: f64, highest: f64) {
        let _ = (agent, lowest, highest);
    }
}

/// UCB1 on scores normalised to [0, 1] by the lowest and highest score seen in the tree this
/// turn (a range kept over the turns would only widen, and with it the weight of exploration).
#[derive(Clone, Debug)]
pub struct Ucb1 {
    tables: VisitTables,
    /// Lowest and highest score backpropagated into a non-root node of each tree this turn.
    lowest_scores: [f64; MAX_AGENTS],
    highest_scores: [f64; MAX_AGENTS],
    /// The normalisation derived from the two above, cached.
    scales: [ScoreScale; MAX_AGENTS],
}

impl Selection for Ucb1 {
    fn new(_nodes_per_agent: usize) -> Self {
        Ucb1 {
            tables: VisitTables::new(),
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
    fn select(
        &mut self,
        agent: usize,
        tree: &NodePool,
        node: NodeId,
        params: &SearchParams,
        _rng: &mut Rng,
    ) -> usize {
        ucb1(
            &self.tables,
            tree.children(node),
            tree.node(node).visits,
            params.exploration,
            self.scales[agent],
        )
    }

    #[inline(always)]
    fn backed_up(&mut self, agent: usize, lowest: f64, highest: f64) {
        // Plain comparisons, not f64::min/max: a NaN score is ignored the same way, without
        // their NaN-handling code on the hot path.
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

/// Maps one tree's scores to [0, 1]: `(score − lowest) × inverse_range`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreScale {
    pub lowest: f64,
    pub inverse_range: f64,
}

impl ScoreScale {
    /// The scale for scores seen in `[lowest, highest]`; 1 when the range is empty or flat (all
    /// means are then equal and the exploitation term cannot discriminate anyway).
    #[inline]
    pub fn new(lowest: f64, highest: f64) -> Self {
        let range = highest - lowest;
        let inverse_range = if range > 0.0 && range.is_finite() {
            1.0 / range
        } else {
            1.0
        };
        ScoreScale {
            lowest,
            inverse_range,
        }
    }
}

/// Child visit counts below this use [`VisitTables`] instead of a division and square roots.
const TABLE_SIZE: usize = 4096;
/// Parent visit counts below this look `sqrt(ln N)` up instead of calling `ln`. Larger than
/// [`TABLE_SIZE`]: the root and the favourite first-ply nodes pass 4096 visits early in a turn
/// and would otherwise pay a logarithm per agent per iteration (~3% of a turn). N only grows by
/// one per visit, so the entries read stay a few hot cache lines; 1 MiB, built in ~2 ms.
const LOG_TABLE_SIZE: usize = 1 << 17;

/// Precomputed `1/n`, `1/sqrt(n)` and `sqrt(ln n)` for small visit counts: the selection loop's
/// division and square root are most of its cost. Built once, at search construction.
#[derive(Clone, Debug)]
pub struct VisitTables {
    /// `[1/n, 1/sqrt(n)]` for n in 0..TABLE_SIZE (n = 0 unused).
    inverse: Vec<[f64; 2]>,
    /// `sqrt(ln n)` for n in 0..LOG_TABLE_SIZE (0 for n = 0).
    sqrt_log: Vec<f64>,
}

impl VisitTables {
    pub fn new() -> Self {
        let inverse = (0..TABLE_SIZE as u32)
            .map(|n| inverse_pair(n.max(1)))
            .collect();
        let sqrt_log = (0..LOG_TABLE_SIZE as u32)
            .map(|n| sqrt_log(n.max(1)))
            .collect();
        VisitTables { inverse, sqrt_log }
    }

    /// `[1/n, 1/sqrt(n)]`, n >= 1.
    #[inline(always)]
    pub(crate) fn inverse(&self, visits: u32) -> [f64; 2] {
        match self.inverse.get(visits as usize) {
            Some(&pair) => pair,
            None => inverse_pair(visits),
        }
    }

    /// `sqrt(ln n)`, 0 for n <= 1.
    #[inline(always)]
    fn sqrt_log(&self, visits: u32) -> f64 {
        match self.sqrt_log.get(visits as usize) {
            Some(&value) => value,
            None => sqrt_log(visits),
        }
    }
}

/// `[1/n, 1/sqrt(n)]`: the same bits from the table and past its end.
#[inline]
fn inverse_pair(visits: u32) -> [f64; 2] {
    let inverse = 1.0 / f64::from(visits);
    [inverse, inverse.sqrt()]
}

#[inline]
fn sqrt_log(visits: u32) -> f64 {
    f64::from(visits).ln().sqrt()
}

/// argmax of `(mean − lowest)·inverse_range + C·sqrt(ln N / n)`. The constant
/// `−lowest·inverse_range` does not change the argmax and is dropped; ln N and its square root
/// are computed once per call, `1/n` and `1/sqrt(n)` looked up for small `n`.
#[inline]
pub fn ucb1(
    tables: &VisitTables,
    children: &[Node],
    parent_visits: u32,
    exploration: f64,
    scale: ScoreScale,
) -> usize {
    let exploration_scale = exploration * tables.sqrt_log(parent_visits);
    let mut best_index = 0;
    let mut best_bound = f64::NEG_INFINITY;
    for (index, child) in children.iter().enumerate() {
        if child.visits == 0 {
            return index;
        }
        let [inverse_visits, inverse_sqrt_visits] = tables.inverse(child.visits);
        let bound = child.score_sum * inverse_visits * scale.inverse_range
            + exploration_scale * inverse_sqrt_visits;
        if bound > best_bound {
            best_bound = bound;
            best_index = index;
        }
    }
    best_index
}

#[cfg(test)]
mod table_tests {
    use super::*;

    #[test]
    fn tables_match_direct_computation_on_both_sides_of_their_end() {
        let tables = VisitTables::new();
        for visits in [
            1u32,
            2,
            3,
            100,
            TABLE_SIZE as u32 - 1,
            TABLE_SIZE as u32,
            LOG_TABLE_SIZE as u32 - 1,
            LOG_TABLE_SIZE as u32,
            1_000_000,
        ] {
            let n = f64::from(visits);
            let [inverse, inverse_sqrt] = tables.inverse(visits);
            assert!((inverse - 1.0 / n).abs() <= 1e-15 * inverse);
            assert!((inverse_sqrt - 1.0 / n.sqrt()).abs() <= 1e-15 * inverse_sqrt);
            assert!((tables.sqrt_log(visits) - n.ln().sqrt()).abs() <= 1e-15 * n.ln().sqrt());
        }
        assert_eq!(tables.sqrt_log(0), 0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn child(visits: u32, mean: f64) -> Node {
        Node {
            score_sum: mean * f64::from(visits),
            visits,
            first_child: NodeId::NONE,
        }
    }

    fn select(children: &[Node], parent_visits: u32, exploration: f64, scale: ScoreScale) -> usize {
        ucb1(
            &VisitTables::new(),
            children,
            parent_visits,
            exploration,
            scale,
        )
    }

    #[test]
    fn an_unvisited_child_is_chosen_first() {
        let children = [child(10, 1.0), child(0, 0.0), child(0, 0.0)];
        assert_eq!(select(&children, 10, 1.0, ScoreScale::new(0.0, 1.0)), 1);
    }

    #[test]
    fn without_exploration_the_best_mean_wins() {
        let children = [child(50, 0.2), child(3, 0.9), child(50, 0.5)];
        assert_eq!(select(&children, 103, 0.0, ScoreScale::new(0.2, 0.9)), 1);
    }

    #[test]
    fn strong_exploration_picks_the_least_visited() {
        let children = [child(500, 0.9), child(3, 0.1), child(500, 0.5)];
        assert_eq!(select(&children, 1003, 10.0, ScoreScale::new(0.1, 0.9)), 1);
    }

    #[test]
    fn normalisation_makes_the_choice_independent_of_score_units() {
        let small = [child(40, 0.30), child(10, 0.25), child(40, 0.20)];
        let large = [child(40, 300.0), child(10, 250.0), child(40, 200.0)];
        for exploration in [0.1, 0.5, 1.0, 3.0] {
            let from_small = select(&small, 90, exploration, ScoreScale::new(0.2, 0.3));
            let from_large = select(&large, 90, exploration, ScoreScale::new(200.0, 300.0));
            assert_eq!(from_small, from_large, "C={exploration}");
        }
    }

    #[test]
    fn flat_or_empty_range_does_not_divide_by_zero() {
        assert_eq!(ScoreScale::new(0.5, 0.5).inverse_range, 1.0);
        assert_eq!(
            ScoreScale::new(f64::INFINITY, f64::NEG_INFINITY).inverse_range,
            1.0
        );
        let children = [child(5, 0.5), child(5, 0.5)];
        let flat = ScoreScale::new(0.5, 0.5);
        assert_eq!(select(&children, 10, 1.0, flat), 0);
        assert_eq!(select(&[], 0, 1.0, flat), 0);
    }

    #[test]
    fn the_score_range_widens_with_what_is_backed_up_and_resets() {
        let mut policy = Ucb1::new(1);
        policy.backed_up(1, 0.4, 0.6);
        policy.backed_up(1, 0.5, 0.9);
        policy.backed_up(1, f64::NAN, f64::NAN);
        assert_eq!(policy.scales[1], ScoreScale::new(0.4, 0.9));
        assert_eq!(
            policy.scales[0],
            ScoreScale::new(f64::INFINITY, f64::NEG_INFINITY)
        );
        policy.reset(1);
        assert_eq!(policy.lowest_scores[1], f64::INFINITY);
        assert_eq!(policy.scales[1].inverse_range, 1.0);
    }
}
