//! How a node that has had its random visits picks a child: the UCB family, on scores
//! normalised to [0, 1] by the lowest and highest score seen in the tree this turn.

use super::params::Selection;
use super::pool::Node;

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

/// Index of the child to descend into. The first unvisited child wins outright; otherwise the
/// argmax of the policy's upper bound (ties: lowest index). Never panics; an empty slice gives 0.
#[inline]
pub(crate) fn select_child(
    selection: Selection,
    children: &[Node],
    parent_visits: u32,
    exploration: f64,
    scale: ScoreScale,
) -> usize {
    match selection {
        Selection::Ucb1 => ucb1(children, parent_visits, exploration, scale),
        Selection::Ucb1Tuned => ucb1_tuned(children, parent_visits, exploration, scale),
    }
}

/// argmax of `(mean − lowest)·inverse_range + C·sqrt(ln N / n)`. The constant
/// `−lowest·inverse_range` does not change the argmax and is dropped; ln N and its square root
/// are computed once per call, leaving one division and one square root per child.
#[inline]
fn ucb1(children: &[Node], parent_visits: u32, exploration: f64, scale: ScoreScale) -> usize {
    let exploration_scale = exploration * f64::from(parent_visits.max(1)).ln().sqrt();
    let mut best_index = 0;
    let mut best_bound = f64::NEG_INFINITY;
    for (index, child) in children.iter().enumerate() {
        if child.visits == 0 {
            return index;
        }
        let inverse_visits = 1.0 / f64::from(child.visits);
        let bound = child.score_sum * inverse_visits * scale.inverse_range
            + exploration_scale * inverse_visits.sqrt();
        if bound > best_bound {
            best_bound = bound;
            best_index = index;
        }
    }
    best_index
}

/// argmax of `m + C·sqrt(ln N / n · min(1/4, v + sqrt(2 ln N / n)))` where `m` and `v` are the
/// child's normalised mean and variance.
fn ucb1_tuned(children: &[Node], parent_visits: u32, exploration: f64, scale: ScoreScale) -> usize {
    let log_parent = f64::from(parent_visits.max(1)).ln();
    let square_scale = scale.inverse_range * scale.inverse_range;
    let mut best_index = 0;
    let mut best_bound = f64::NEG_INFINITY;
    for (index, child) in children.iter().enumerate() {
        if child.visits == 0 {
            return index;
        }
        let inverse_visits = 1.0 / f64::from(child.visits);
        let mean = child.score_sum * inverse_visits;
        let variance = (child.score_square_sum * inverse_visits - mean * mean).max(0.0);
        let log_ratio = log_parent * inverse_visits;
        let variance_bound = (variance * square_scale + (2.0 * log_ratio).sqrt()).min(0.25);
        let bound = (mean - scale.lowest) * scale.inverse_range
            + exploration * (log_ratio * variance_bound).sqrt();
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

    fn child(visits: u32, mean: f64) -> Node {
        Node {
            score_sum: mean * f64::from(visits),
            score_square_sum: mean * mean * f64::from(visits),
            visits,
            first_child: super::super::pool::NodeId::NONE,
            child_count: 0,
        }
    }

    const POLICIES: [Selection; 2] = [Selection::Ucb1, Selection::Ucb1Tuned];

    #[test]
    fn an_unvisited_child_is_chosen_first() {
        let children = [child(10, 1.0), child(0, 0.0), child(0, 0.0)];
        for policy in POLICIES {
            let scale = ScoreScale::new(0.0, 1.0);
            assert_eq!(select_child(policy, &children, 10, 1.0, scale), 1);
        }
    }

    #[test]
    fn without_exploration_the_best_mean_wins() {
        let children = [child(50, 0.2), child(3, 0.9), child(50, 0.5)];
        for policy in POLICIES {
            let scale = ScoreScale::new(0.2, 0.9);
            assert_eq!(select_child(policy, &children, 103, 0.0, scale), 1);
        }
    }

    #[test]
    fn strong_exploration_picks_the_least_visited() {
        let children = [child(500, 0.9), child(3, 0.1), child(500, 0.5)];
        for policy in POLICIES {
            let scale = ScoreScale::new(0.1, 0.9);
            assert_eq!(select_child(policy, &children, 1003, 10.0, scale), 1);
        }
    }

    #[test]
    fn normalisation_makes_the_choice_independent_of_score_units() {
        let small = [child(40, 0.30), child(10, 0.25), child(40, 0.20)];
        let large = [child(40, 300.0), child(10, 250.0), child(40, 200.0)];
        for policy in POLICIES {
            for exploration in [0.1, 0.5, 1.0, 3.0] {
                let from_small =
                    select_child(policy, &small, 90, exploration, ScoreScale::new(0.2, 0.3));
                let from_large = select_child(
                    policy,
                    &large,
                    90,
                    exploration,
                    ScoreScale::new(200.0, 300.0),
                );
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
            assert_eq!(
                select_child(policy, &children, 10, 1.0, ScoreScale::new(0.5, 0.5)),
                0
            );
            assert_eq!(
                select_child(policy, &[], 0, 1.0, ScoreScale::new(0.5, 0.5)),
                0
            );
        }
    }
}
