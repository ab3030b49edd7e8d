//! Every tunable of the search in one place, with its default (`param_names.rs`, with feature
//! `cli`, lets flags set any of them by name without recompiling).

/// Deepest tree descent; [`SearchParams::depth`] is clamped to it.
pub const MAX_DEPTH: usize = 32;

/// How the root action is chosen once the search is over.
#[cfg(feature = "experiments")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalMove {
    /// The root child visited most (ties: higher mean, then lower index). Robust to noise.
    MostVisited,
    /// The root child with the highest mean score among visited ones.
    BestAverage,
}

/// How a node that has had its random visits picks a child.
#[cfg(feature = "experiments")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// UCB1: normalised mean + C·sqrt(ln N / n).
    Ucb1,
    /// UCB1-Tuned (Auer et al. 2002): the exploration term is scaled by an upper bound of the
    /// child's normalised score variance, capped at 1/4.
    Ucb1Tuned,
    /// Smooth UCT (Heinrich & Silver 2015): at a node with N visits, with probability
    /// η_N = max(γ_s, η·(1 + d·sqrt(N))⁻¹) the UCB1 choice, otherwise a child sampled with
    /// probability proportional to its visit count (the node's average strategy so far).
    SmoothUct,
    /// EXP3 (Auer et al. 2002) at every node: child i is drawn with probability
    /// (1 − γ)·softmax(γ/K · X̂)_i + γ/K, where X̂_i sums the importance-weighted normalised
    /// scores (score / probability it was drawn with) backpropagated through child i.
    Exp3,
}

/// All tunables of the search. See each field for its meaning and default. Those other than
/// depth, exploration, random visits, expansion and discount exist with feature `experiments`
/// (without it the search is plain UCB1 with the defaults of the others).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    /// Tree plies per iteration (default 6); clamped to 1..=[`MAX_DEPTH`].
    pub depth: u32,
    /// C in UCB1 (default 1.0); the exploitation term is normalised to [0, 1].
    pub exploration: f64,
    /// K: while a node has been visited fewer than K times it picks children uniformly at random
    /// (default 10).
    pub random_visits: u32,
    /// T: a node gets its children only once it has been visited T times (default 0: on its
    /// first descent). Until then the agent plays uniformly random actions below it, off-tree,
    /// and backpropagates no deeper: trees stay smaller (fewer cache misses), at the cost of not
    /// recording the first T visits' children.
    pub expand_after: u32,
    /// γ in (0, 1] (default 1.0): the node at depth d (root children d = 1) receives
    /// γ^(leaf_depth − d) × the leaf score, so earlier terminal wins are worth more.
    /// `leaf_depth` counts every simulated ply, rollout included.
    pub discount: f64,
    /// Extra plies with uniformly random actions after the last tree ply (default 0).
    #[cfg(feature = "experiments")]
    pub rollout_plies: u32,
    /// How the root action is chosen (default most visited).
    #[cfg(feature = "experiments")]
    pub final_move: FinalMove,
    /// The child selection policy (default UCB1). Takes effect at the next reset.
    #[cfg(feature = "experiments")]
    pub selection: Selection,
    /// Smooth UCT's η (default 0.9): the initial probability of the UCB1 choice.
    #[cfg(feature = "experiments")]
    pub smooth_eta: f64,
    /// Smooth UCT's γ_s (default 0.1): the lowest probability of the UCB1 choice.
    #[cfg(feature = "experiments")]
    pub smooth_gamma: f64,
    /// Smooth UCT's d (default 0.001): how fast the UCB1 probability decays with sqrt(visits).
    #[cfg(feature = "experiments")]
    pub smooth_d: f64,
    /// EXP3's exploration γ in (0, 1] (default 0.1): the uniform share of the mix.
    #[cfg(feature = "experiments")]
    pub exp3_gamma: f64,
    /// λ in [0, 1] (default 1): a tree kept into the next turn
    /// ([`super::Smitsimax::reset_keeping`]) keeps λ × each node's visits, rounded, at the same
    /// mean: the kept statistics weigh as a prior that this turn's scores soon outvote.
    #[cfg(feature = "experiments")]
    pub reuse_decay: f64,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            depth: 6,
            exploration: 1.0,
            random_visits: 10,
            expand_after: 0,
            discount: 1.0,
            #[cfg(feature = "experiments")]
            rollout_plies: 0,
            #[cfg(feature = "experiments")]
            final_move: FinalMove::MostVisited,
            #[cfg(feature = "experiments")]
            selection: Selection::Ucb1,
            #[cfg(feature = "experiments")]
            smooth_eta: 0.9,
            #[cfg(feature = "experiments")]
            smooth_gamma: 0.1,
            #[cfg(feature = "experiments")]
            smooth_d: 0.001,
            #[cfg(feature = "experiments")]
            exp3_gamma: 0.1,
            #[cfg(feature = "experiments")]
            reuse_decay: 1.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_documented_ones() {
        let params = SearchParams::default();
        assert_eq!(params.depth, 6);
        assert_eq!(params.exploration, 1.0);
        assert_eq!(params.random_visits, 10);
        assert_eq!(params.expand_after, 0);
        assert_eq!(params.discount, 1.0);
    }

    #[cfg(feature = "experiments")]
    #[test]
    fn the_experiments_defaults_are_the_documented_ones() {
        let params = SearchParams::default();
        assert_eq!(params.rollout_plies, 0);
        assert_eq!(params.final_move, FinalMove::MostVisited);
        assert_eq!(params.selection, Selection::Ucb1);
        assert_eq!(params.smooth_eta, 0.9);
        assert_eq!(params.smooth_gamma, 0.1);
        assert_eq!(params.smooth_d, 0.001);
        assert_eq!(params.exp3_gamma, 0.1);
        assert_eq!(params.reuse_decay, 1.0);
    }
}
