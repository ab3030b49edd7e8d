//! How a node that has had its random visits picks a child: the UCB family, on scores
//! normalised to [0, 1] by the lowest and highest score seen in the tree this turn. UCB1 is the
//! default; the other policies exist with feature `experiments`.

#[cfg(feature = "experiments")]
use super::params::Selection;
use super::pool::Node;
#[cfg(feature = "experiments")]
use super::rng::Rng;

/// Maps one tree's scores to [0, 1]: `(score − lowest) × inverse_range`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ScoreScale {
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
pub(crate) struct VisitTables {
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
    fn inverse(&self, visits: u32) -> [f64; 2] {
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

/// Index of the child to descend into. The first unvisited child wins outright; otherwise the
/// argmax of the policy's upper bound (ties: lowest index). Never panics; an empty slice gives 0.
/// For the randomised policies this is their deterministic part, UCB1: the search draws Smooth
/// UCT's average-strategy samples ([`sample_by_visits`]) and EXP3's choices ([`exp3`]) itself.
#[cfg(feature = "experiments")]
#[inline]
pub(crate) fn select_child(
    tables: &VisitTables,
    selection: Selection,
    children: &[Node],
    children_square_sums: &[f64],
    parent_visits: u32,
    exploration: f64,
    scale: ScoreScale,
) -> usize {
    match selection {
        Selection::Ucb1 | Selection::SmoothUct | Selection::Exp3 => {
            ucb1(tables, children, parent_visits, exploration, scale)
        }
        Selection::Ucb1Tuned => ucb1_tuned(
            tables,
            children,
            children_square_sums,
            parent_visits,
            exploration,
            scale,
        ),
    }
}

/// Smooth UCT's probability of playing the UCB1 choice at a node visited `parent_visits` times:
/// `max(gamma, eta / (1 + d·sqrt(N)))`.
#[cfg(feature = "experiments")]
#[inline]
pub(crate) fn smooth_ucb_probability(eta: f64, gamma: f64, d: f64, parent_visits: u32) -> f64 {
    (eta / (1.0 + d * f64::from(parent_visits).sqrt())).max(gamma)
}

/// A child drawn with probability proportional to its visit count (Smooth UCT's average
/// strategy); `None` when no child has been visited.
#[cfg(feature = "experiments")]
#[inline]
pub(crate) fn sample_by_visits(children: &[Node], rng: &mut Rng) -> Option<usize> {
    let total: u64 = children.iter().map(|child| u64::from(child.visits)).sum();
    if total == 0 {
        return None;
    }
    let mut target = ((rng.next_f64() * total as f64) as u64).min(total - 1);
    for (index, child) in children.iter().enumerate() {
        let visits = u64::from(child.visits);
        if target < visits {
            return Some(index);
        }
        target -= visits;
    }
    Some(children.len() - 1)
}

/// EXP3's draw over children whose importance-weighted score estimate sums are `estimates`:
/// child i has probability `(1 − γ)·softmax(η·X̂)_i + γ/K` with `η = γ/K`. Returns the index
/// and the probability it was drawn with (which the backpropagation divides by). An empty slice
/// gives `(0, 1)`.
#[cfg(feature = "experiments")]
#[inline]
pub(crate) fn exp3(estimates: &[f64], gamma: f64, rng: &mut Rng) -> (usize, f64) {
    if estimates.is_empty() {
        return (0, 1.0);
    }
    let uniform = gamma / estimates.len() as f64;
    let eta = uniform;
    let highest = estimates.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
    let total: f64 = estimates.iter().map(|&x| ((x - highest) * eta).exp()).sum();
    let greedy = (1.0 - gamma) / total;
    let mut target = rng.next_f64();
    let mut probability = 1.0;
    for (index, &estimate) in estimates.iter().enumerate() {
        probability = greedy * ((estimate - highest) * eta).exp() + uniform;
        if target < probability {
            return (index, probability);
        }
        target -= probability;
    }
    // Rounding left a sliver past the last child: it is the last one.
    (estimates.len() - 1, probability)
}

/// argmax of `(mean − lowest)·inverse_range + C·sqrt(ln N / n)`. The constant
/// `−lowest·inverse_range` does not change the argmax and is dropped; ln N and its square root
/// are computed once per call, `1/n` and `1/sqrt(n)` looked up for small `n`.
#[inline]
pub(crate) fn ucb1(
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

/// argmax of `m + C·sqrt(ln N / n · min(1/4, v + sqrt(2 ln N / n)))` where `m` and `v` are the
/// child's normalised mean and variance (`children_square_sums` parallel to `children`).
#[cfg(feature = "experiments")]
fn ucb1_tuned(
    tables: &VisitTables,
    children: &[Node],
    children_square_sums: &[f64],
    parent_visits: u32,
    exploration: f64,
    scale: ScoreScale,
) -> usize {
    let sqrt_log_parent = tables.sqrt_log(parent_visits);
    let log_parent = sqrt_log_parent * sqrt_log_parent;
    let square_scale = scale.inverse_range * scale.inverse_range;
    let mut best_index = 0;
    let mut best_bound = f64::NEG_INFINITY;
    for (index, (child, &square_sum)) in children.iter().zip(children_square_sums).enumerate() {
        if child.visits == 0 {
            return index;
        }
        let [inverse_visits, inverse_sqrt_visits] = tables.inverse(child.visits);
        let mean = child.score_sum * inverse_visits;
        let variance = (square_sum * inverse_visits - mean * mean).max(0.0);
        let variance_bound = (variance * square_scale
            + std::f64::consts::SQRT_2 * sqrt_log_parent * inverse_sqrt_visits)
            .min(0.25);
        let bound = (mean - scale.lowest) * scale.inverse_range
            + exploration * (log_parent * inverse_visits * variance_bound).sqrt();
        if bound > best_bound {
            best_bound = bound;
            best_index = index;
        }
    }
    best_index
}

#[cfg(all(test, feature = "experiments"))]
mod tests {
    use super::*;

    fn child(visits: u32, mean: f64) -> Node {
        Node {
            score_sum: mean * f64::from(visits),
            visits,
            first_child: super::super::pool::NodeId::NONE,
        }
    }

    /// `select_child` with each child's scores all equal to its mean (zero variance).
    fn select(
        policy: Selection,
        children: &[Node],
        parent_visits: u32,
        exploration: f64,
        scale: ScoreScale,
    ) -> usize {
        let square_sums: Vec<f64> = children
            .iter()
            .map(|c| c.score_sum * c.score_sum / f64::from(c.visits.max(1)))
            .collect();
        let tables = VisitTables::new();
        select_child(
            &tables,
            policy,
            children,
            &square_sums,
            parent_visits,
            exploration,
            scale,
        )
    }

    const POLICIES: [Selection; 2] = [Selection::Ucb1, Selection::Ucb1Tuned];

    #[test]
    fn smooth_probability_decays_from_eta_to_gamma() {
        assert_eq!(smooth_ucb_probability(0.9, 0.1, 0.001, 0), 0.9);
        let at_million = smooth_ucb_probability(0.9, 0.1, 0.001, 1_000_000);
        assert!((at_million - 0.45).abs() < 1e-12, "{at_million}");
        assert_eq!(smooth_ucb_probability(0.9, 0.1, 1.0, 1_000_000), 0.1);
    }

    #[test]
    fn visit_sampling_follows_the_visit_counts() {
        let children = [child(0, 0.0), child(30, 0.0), child(10, 0.0)];
        let mut rng = Rng::new(3);
        let mut counts = [0u32; 3];
        for _ in 0..4000 {
            counts[sample_by_visits(&children, &mut rng).unwrap()] += 1;
        }
        assert_eq!(counts[0], 0);
        assert!((2800..3200).contains(&counts[1]), "{counts:?}");
        assert_eq!(sample_by_visits(&[child(0, 0.0)], &mut rng), None);
    }

    #[test]
    fn exp3_mixes_greedy_and_uniform_and_reports_the_probability() {
        let mut rng = Rng::new(5);
        let estimates = [0.0, 10_000.0, 0.0, 0.0];
        let mut counts = [0u32; 4];
        for _ in 0..10_000 {
            let (index, probability) = exp3(&estimates, 0.2, &mut rng);
            let expected = if index == 1 { 0.85 } else { 0.05 };
            assert!(
                (probability - expected).abs() < 1e-9,
                "{index} {probability}"
            );
            counts[index] += 1;
        }
        assert!((8300..8700).contains(&counts[1]), "{counts:?}");
        let (_, probability) = exp3(&[3.0, 3.0], 0.1, &mut rng);
        assert!((probability - 0.5).abs() < 1e-12);
        assert_eq!(exp3(&[], 0.1, &mut rng), (0, 1.0));
    }

    #[test]
    fn an_unvisited_child_is_chosen_first() {
        let children = [child(10, 1.0), child(0, 0.0), child(0, 0.0)];
        for policy in POLICIES {
            let scale = ScoreScale::new(0.0, 1.0);
            assert_eq!(select(policy, &children, 10, 1.0, scale), 1);
        }
    }

    #[test]
    fn without_exploration_the_best_mean_wins() {
        let children = [child(50, 0.2), child(3, 0.9), child(50, 0.5)];
        for policy in POLICIES {
            let scale = ScoreScale::new(0.2, 0.9);
            assert_eq!(select(policy, &children, 103, 0.0, scale), 1);
        }
    }

    #[test]
    fn strong_exploration_picks_the_least_visited() {
        let children = [child(500, 0.9), child(3, 0.1), child(500, 0.5)];
        for policy in POLICIES {
            let scale = ScoreScale::new(0.1, 0.9);
            assert_eq!(select(policy, &children, 1003, 10.0, scale), 1);
        }
    }

    #[test]
    fn normalisation_makes_the_choice_independent_of_score_units() {
        let small = [child(40, 0.30), child(10, 0.25), child(40, 0.20)];
        let large = [child(40, 300.0), child(10, 250.0), child(40, 200.0)];
        for policy in POLICIES {
            for exploration in [0.1, 0.5, 1.0, 3.0] {
                let small_scale = ScoreScale::new(0.2, 0.3);
                let from_small = select(policy, &small, 90, exploration, small_scale);
                let large_scale = ScoreScale::new(200.0, 300.0);
                let from_large = select(policy, &large, 90, exploration, large_scale);
                assert_eq!(from_small, from_large, "{policy:?} C={exploration}");
            }
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
        for policy in POLICIES {
            let flat = ScoreScale::new(0.5, 0.5);
            assert_eq!(select(policy, &children, 10, 1.0, flat), 0);
            assert_eq!(select(policy, &[], 0, 1.0, flat), 0);
        }
    }
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
