//! What the network is trained toward, per position (player 0's view): a share of the hand
//! evaluation's view [`crate::value::dataset::LOOKAHEAD_TURNS`] turns later (squashed by the logistic
//! fitted on the results), the rest a target that learns the game, chosen by [`Target`]:
//!
//! - `result`: the game's result (1, ½, 0);
//! - `root`: the search's own value of the position, from the root statistics the data record
//!   (`stats`): each side's visit-weighted mean root score, player 0's and one minus player 1's
//!   averaged (the scores the trees back up, in 0..1);
//! - `td`: TD(λ) over a network's values of the game's later positions: `(1 − λ) Σ_n λ^(n−1)
//!   V(t + n)` with the result in place of every value beyond the game's end, so λ = 1 is the
//!   result and λ = 0 the next position's value.
//!
//! The generations' schedule ([`hand_share`]) takes the hand evaluation's share to 0.

use std::fmt;

/// The learned part of the target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    Result,
    Root,
    Td { lambda: f32 },
}

impl Target {
    /// Parses `result`, `root` or `td:LAMBDA` (λ in 0..=1).
    pub fn parse(text: &str) -> Result<Target, String> {
        match text {
            "result" => Ok(Target::Result),
            "root" => Ok(Target::Root),
            _ => {
                let lambda = text
                    .strip_prefix("td:")
                    .and_then(|lambda| lambda.parse::<f32>().ok())
                    .filter(|lambda| (0.0..=1.0).contains(lambda))
                    .ok_or_else(|| {
                        format!("expected result, root or td:LAMBDA (0 to 1), got {text:?}")
                    })?;
                Ok(Target::Td { lambda })
            }
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Result => write!(f, "result"),
            Target::Root => write!(f, "root"),
            Target::Td { lambda } => write!(f, "td:{lambda}"),
        }
    }
}

/// The hand evaluation's share of the target when training generation `generation` (the
/// first trained by the loop is 2; generation 1 is the network on main, trained with 0.7):
/// `start × (1 − (generation − 1) / generations_to_zero)`, never below 0.
pub fn hand_share(start: f32, generations_to_zero: u32, generation: u32) -> f32 {
    if generations_to_zero == 0 {
        return 0.0;
    }
    let done = generation.saturating_sub(1) as f32 / generations_to_zero as f32;
    (start * (1.0 - done)).max(0.0)
}

/// TD(λ) targets of one game's positions in turn order: `values[t]` is a network's win
/// probability for player 0 at position t, `result` the game's for player 0.
pub fn td_lambda(values: &[f32], result: f32, lambda: f32) -> Vec<f32> {
    // Backwards: G(t) = (1 − λ) V(t + 1) + λ G(t + 1), with G past the end the result.
    let mut targets = vec![result; values.len()];
    let mut later = result;
    for t in (0..values.len()).rev() {
        let next_value = values.get(t + 1).copied().unwrap_or(result);
        let target = if t + 1 == values.len() {
            result
        } else {
            (1.0 - lambda) * next_value + lambda * later
        };
        targets[t] = target;
        later = target;
    }
    targets
}

/// A side's root value from its two pods' statistics `(visits, mean)`: the visit-weighted mean,
/// `None` without visits.
pub fn root_value<'a>(stats: impl IntoIterator<Item = &'a (u32, f64)>) -> Option<f64> {
    let (mut weighted, mut visits) = (0.0, 0u64);
    for &(count, mean) in stats {
        weighted += f64::from(count) * mean;
        visits += u64::from(count);
    }
    (visits > 0).then(|| weighted / visits as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_parse_and_print_back() {
        for text in ["result", "root", "td:0.7", "td:1"] {
            assert_eq!(Target::parse(text).unwrap().to_string(), text);
        }
        for bad in ["td", "td:1.5", "td:x", "hand", ""] {
            assert!(Target::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_hand_share_falls_to_zero() {
        let shares: Vec<f32> = (1..=5).map(|g| hand_share(0.6, 3, g)).collect();
        assert_eq!(shares[0], 0.6);
        assert!((shares[1] - 0.4).abs() < 1e-6 && (shares[2] - 0.2).abs() < 1e-6);
        assert_eq!((shares[3], shares[4]), (0.0, 0.0));
        assert_eq!(hand_share(0.7, 0, 1), 0.0);
    }

    #[test]
    fn td_lambda_runs_from_the_next_value_to_the_result() {
        let values = [0.5, 0.6, 0.8];
        assert_eq!(td_lambda(&values, 1.0, 1.0), [1.0, 1.0, 1.0]);
        assert_eq!(td_lambda(&values, 1.0, 0.0), [0.6, 0.8, 1.0]);
        let half = td_lambda(&values, 0.0, 0.5);
        // G2 = 0, G1 = 0.5 × 0.8 + 0.5 × 0 = 0.4, G0 = 0.5 × 0.6 + 0.5 × 0.4 = 0.5.
        assert_eq!(half, [0.5, 0.4, 0.0]);
    }

    #[test]
    fn the_root_value_weighs_by_visits() {
        assert_eq!(root_value(&[(3, 1.0), (1, 0.0)]), Some(0.75));
        assert_eq!(root_value(&[(0, 0.3)]), None);
    }
}
