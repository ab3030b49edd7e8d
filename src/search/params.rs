//! Every tunable of the search in one place, with its default, and the parser that lets flags
//! set any of them by name without recompiling.

use std::fmt;

use super::smitsimax::MAX_DEPTH;

/// How the root action is chosen once the search is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalMove {
    /// The root child visited most (ties: higher mean, then lower index). Robust to noise.
    MostVisited,
    /// The root child with the highest mean score among visited ones.
    BestAverage,
}

/// How a node that has had its random visits picks a child.
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

/// All tunables of the search. See each field for its meaning and default.
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
    pub rollout_plies: u32,
    /// How the root action is chosen (default most visited).
    pub final_move: FinalMove,
    /// The child selection policy (default UCB1). Takes effect at the next reset.
    pub selection: Selection,
    /// Smooth UCT's η (default 0.9): the initial probability of the UCB1 choice.
    pub smooth_eta: f64,
    /// Smooth UCT's γ_s (default 0.1): the lowest probability of the UCB1 choice.
    pub smooth_gamma: f64,
    /// Smooth UCT's d (default 0.001): how fast the UCB1 probability decays with sqrt(visits).
    pub smooth_d: f64,
    /// EXP3's exploration γ in (0, 1] (default 0.1): the uniform share of the mix.
    pub exp3_gamma: f64,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            depth: 6,
            exploration: 1.0,
            random_visits: 10,
            expand_after: 0,
            discount: 1.0,
            rollout_plies: 0,
            final_move: FinalMove::MostVisited,
            selection: Selection::Ucb1,
            smooth_eta: 0.9,
            smooth_gamma: 0.1,
            smooth_d: 0.001,
            exp3_gamma: 0.1,
        }
    }
}

impl SearchParams {
    /// The names [`SearchParams::set`] accepts, in the order `Display` prints them.
    pub const NAMES: [&'static str; 12] = [
        "depth",
        "exploration",
        "random-visits",
        "expand-after",
        "discount",
        "rollout",
        "final-move",
        "selection",
        "smooth-eta",
        "smooth-gamma",
        "smooth-d",
        "exp3-gamma",
    ];

    /// Set the tunable called `name` from its text `value`, e.g. `set("discount", "0.95")`.
    /// On error nothing changes and the message says what was expected.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let value = value.trim();
        match name {
            "depth" => {
                let depth = parse_u32(name, value)?;
                if depth == 0 || depth as usize > MAX_DEPTH {
                    return Err(format!(
                        "depth: expected an integer in 1..={MAX_DEPTH}, got '{value}'"
                    ));
                }
                self.depth = depth;
            }
            "exploration" => {
                let exploration = parse_f64(name, value)?;
                if !(exploration >= 0.0 && exploration.is_finite()) {
                    return Err(format!(
                        "exploration: expected a finite number >= 0, got '{value}'"
                    ));
                }
                self.exploration = exploration;
            }
            "random-visits" => self.random_visits = parse_u32(name, value)?,
            "expand-after" => self.expand_after = parse_u32(name, value)?,
            "discount" => {
                let discount = parse_f64(name, value)?;
                if !(discount > 0.0 && discount <= 1.0) {
                    return Err(format!(
                        "discount: expected a number in (0, 1], got '{value}'"
                    ));
                }
                self.discount = discount;
            }
            "rollout" => self.rollout_plies = parse_u32(name, value)?,
            "final-move" => {
                self.final_move = match value {
                    "most-visited" => FinalMove::MostVisited,
                    "best-average" => FinalMove::BestAverage,
                    _ => {
                        return Err(format!(
                            "final-move: expected most-visited or best-average, got '{value}'"
                        ))
                    }
                }
            }
            "selection" => {
                self.selection = match value {
                    "ucb1" => Selection::Ucb1,
                    "ucb1-tuned" => Selection::Ucb1Tuned,
                    "smooth-uct" => Selection::SmoothUct,
                    "exp3" => Selection::Exp3,
                    _ => {
                        return Err(format!(
                        "selection: expected ucb1, ucb1-tuned, smooth-uct or exp3, got '{value}'"
                    ))
                    }
                }
            }
            "smooth-eta" => self.smooth_eta = parse_probability(name, value)?,
            "smooth-gamma" => self.smooth_gamma = parse_probability(name, value)?,
            "smooth-d" => {
                let d = parse_f64(name, value)?;
                if !(d >= 0.0 && d.is_finite()) {
                    return Err(format!(
                        "smooth-d: expected a finite number >= 0, got '{value}'"
                    ));
                }
                self.smooth_d = d;
            }
            "exp3-gamma" => {
                let gamma = parse_f64(name, value)?;
                if !(gamma > 0.0 && gamma <= 1.0) {
                    return Err(format!(
                        "exp3-gamma: expected a number in (0, 1], got '{value}'"
                    ));
                }
                self.exp3_gamma = gamma;
            }
            _ => {
                return Err(format!(
                    "unknown search parameter '{name}', expected one of: {}",
                    Self::NAMES.join(", ")
                ))
            }
        }
        Ok(())
    }
}

/// `depth=6 exploration=1 ...`: every tunable as `name=value`, in the syntax `set` accepts.
impl fmt::Display for SearchParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let final_move = match self.final_move {
            FinalMove::MostVisited => "most-visited",
            FinalMove::BestAverage => "best-average",
        };
        let selection = match self.selection {
            Selection::Ucb1 => "ucb1",
            Selection::Ucb1Tuned => "ucb1-tuned",
            Selection::SmoothUct => "smooth-uct",
            Selection::Exp3 => "exp3",
        };
        write!(
            f,
            "depth={} exploration={} random-visits={} expand-after={} discount={} rollout={} \
             final-move={} selection={} smooth-eta={} smooth-gamma={} smooth-d={} exp3-gamma={}",
            self.depth,
            self.exploration,
            self.random_visits,
            self.expand_after,
            self.discount,
            self.rollout_plies,
            final_move,
            selection,
            self.smooth_eta,
            self.smooth_gamma,
            self.smooth_d,
            self.exp3_gamma
        )
    }
}

fn parse_u32(name: &str, value: &str) -> Result<u32, String> {
    value
        .parse()
        .map_err(|_| format!("{name}: expected a non-negative integer, got '{value}'"))
}

fn parse_probability(name: &str, value: &str) -> Result<f64, String> {
    let probability = parse_f64(name, value)?;
    if !(0.0..=1.0).contains(&probability) {
        return Err(format!(
            "{name}: expected a number in [0, 1], got '{value}'"
        ));
    }
    Ok(probability)
}

fn parse_f64(name: &str, value: &str) -> Result<f64, String> {
    value
        .parse()
        .map_err(|_| format!("{name}: expected a number, got '{value}'"))
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
        assert_eq!(params.rollout_plies, 0);
        assert_eq!(params.final_move, FinalMove::MostVisited);
        assert_eq!(params.selection, Selection::Ucb1);
        assert_eq!(params.smooth_eta, 0.9);
        assert_eq!(params.smooth_gamma, 0.1);
        assert_eq!(params.smooth_d, 0.001);
        assert_eq!(params.exp3_gamma, 0.1);
    }

    #[test]
    fn every_name_accepts_a_good_value() {
        let mut params = SearchParams::default();
        params.set("depth", "8").unwrap();
        params.set("exploration", "0.7").unwrap();
        params.set("random-visits", "3").unwrap();
        params.set("expand-after", "2").unwrap();
        params.set("discount", "0.95").unwrap();
        params.set("rollout", " 2 ").unwrap();
        params.set("final-move", "best-average").unwrap();
        params.set("selection", "ucb1-tuned").unwrap();
        params.set("smooth-eta", "0.8").unwrap();
        params.set("smooth-gamma", "0.2").unwrap();
        params.set("smooth-d", "0.01").unwrap();
        params.set("exp3-gamma", "0.3").unwrap();
        assert_eq!(
            params,
            SearchParams {
                depth: 8,
                exploration: 0.7,
                random_visits: 3,
                expand_after: 2,
                discount: 0.95,
                rollout_plies: 2,
                final_move: FinalMove::BestAverage,
                selection: Selection::Ucb1Tuned,
                smooth_eta: 0.8,
                smooth_gamma: 0.2,
                smooth_d: 0.01,
                exp3_gamma: 0.3,
            }
        );
        params.set("selection", "smooth-uct").unwrap();
        assert_eq!(params.selection, Selection::SmoothUct);
        params.set("selection", "exp3").unwrap();
        assert_eq!(params.selection, Selection::Exp3);
        params.set("final-move", "most-visited").unwrap();
        params.set("selection", "ucb1").unwrap();
        params.set("discount", "1").unwrap();
        params.set("exploration", "0").unwrap();
        params.set("depth", &MAX_DEPTH.to_string()).unwrap();
        assert_eq!(params.final_move, FinalMove::MostVisited);
        assert_eq!(params.selection, Selection::Ucb1);
        assert_eq!(params.discount, 1.0);
        assert_eq!(params.depth as usize, MAX_DEPTH);
    }

    #[test]
    fn bad_values_are_rejected_with_a_clear_message_and_change_nothing() {
        let cases = [
            ("depth", "0", "depth: expected an integer in 1..="),
            ("depth", "33", "depth: expected an integer in 1..="),
            (
                "depth",
                "six",
                "depth: expected a non-negative integer, got 'six'",
            ),
            ("depth", "-1", "depth: expected a non-negative integer"),
            (
                "exploration",
                "-0.5",
                "exploration: expected a finite number >= 0",
            ),
            (
                "exploration",
                "inf",
                "exploration: expected a finite number >= 0",
            ),
            (
                "exploration",
                "NaN",
                "exploration: expected a finite number >= 0",
            ),
            ("exploration", "", "exploration: expected a number, got ''"),
            (
                "random-visits",
                "1.5",
                "random-visits: expected a non-negative integer",
            ),
            (
                "expand-after",
                "-1",
                "expand-after: expected a non-negative integer",
            ),
            ("discount", "0", "discount: expected a number in (0, 1]"),
            ("discount", "1.01", "discount: expected a number in (0, 1]"),
            ("discount", "nan", "discount: expected a number in (0, 1]"),
            (
                "rollout",
                "x",
                "rollout: expected a non-negative integer, got 'x'",
            ),
            (
                "final-move",
                "best",
                "final-move: expected most-visited or best-average",
            ),
            (
                "selection",
                "exp4",
                "selection: expected ucb1, ucb1-tuned, smooth-uct or exp3, got 'exp4'",
            ),
            (
                "smooth-eta",
                "1.5",
                "smooth-eta: expected a number in [0, 1]",
            ),
            (
                "smooth-gamma",
                "-0.1",
                "smooth-gamma: expected a number in [0, 1]",
            ),
            ("smooth-d", "-1", "smooth-d: expected a finite number >= 0"),
            ("exp3-gamma", "0", "exp3-gamma: expected a number in (0, 1]"),
            (
                "dpeth",
                "6",
                "unknown search parameter 'dpeth', expected one of: depth,",
            ),
        ];
        for (name, value, expected) in cases {
            let mut params = SearchParams::default();
            let error = params.set(name, value).unwrap_err();
            assert!(error.starts_with(expected), "{name}={value}: {error}");
            assert_eq!(
                params,
                SearchParams::default(),
                "{name}={value} changed params"
            );
        }
    }

    #[test]
    fn display_round_trips_through_set() {
        let mut tuned = SearchParams::default();
        tuned.set("discount", "0.9").unwrap();
        tuned.set("expand-after", "1").unwrap();
        tuned.set("final-move", "best-average").unwrap();
        tuned.set("selection", "exp3").unwrap();
        tuned.set("smooth-d", "0.25").unwrap();
        tuned.set("exp3-gamma", "0.05").unwrap();
        let text = tuned.to_string();
        let mut parsed = SearchParams::default();
        for pair in text.split_whitespace() {
            let (name, value) = pair.split_once('=').unwrap();
            parsed.set(name, value).unwrap();
        }
        assert_eq!(parsed, tuned);
        assert_eq!(text.split_whitespace().count(), SearchParams::NAMES.len());
    }
}
