//! Sequential probability ratio test for early stopping: the generalised SPRT with the
//! normal approximation of the log-likelihood ratio that chess engine testers use,
//! `LLR = N (s1 − s0)(2 x̄ − s0 − s1) / (2 σ²)`, with s0, s1 the expected scores of the logistic
//! Elo bounds, and x̄, σ² the mean and variance of the N observations: games (trinomial: W, D,
//! L) or, when the games come in pairs on shared maps with seats swapped, pairs (pentanomial:
//! 0, ½, 1, 1½, 2 points, a pair's score being its points / 2). Bounds ln(β/(1−α)) and
//! ln((1−β)/α). While one of the outcome counts is still 0, half an observation of each
//! outcome is added, so that a one-sided run (all wins, all draws) has a variance and can end
//! the test.

use crate::stats::pentanomial::Pentanomial;
use crate::stats::wdl::{score_from_elo, Wdl};
use serde::{Deserialize, Serialize};

/// The hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Accept H0: p1 is not better than elo0.
    AcceptH0,
    /// Accept H1: p1 is at least elo1 better.
    AcceptH1,
    Continue,
}

impl Decision {
    pub fn describe(self, sprt: &Sprt) -> String {
        match self {
            Decision::AcceptH0 => format!("H0 accepted (p1 is not {:+} Elo better)", sprt.elo1),
            Decision::AcceptH1 => {
                format!("H1 accepted (p1 is at least {:+} Elo better)", sprt.elo1)
            }
            Decision::Continue => "inconclusive".to_string(),
        }
    }
}

impl Sprt {
    /// alpha = beta = 0.05.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// Log-likelihood ratio of H1 over H0 for games (trinomial; 0 before any game).
    pub fn llr(&self, results: &Wdl) -> f64 {
        // Outcomes with their scores: loss 0, draw ½, win 1.
        self.normal_llr(&[
            (results.losses, 0.0),
            (results.draws, 0.5),
            (results.wins, 1.0),
        ])
    }

    /// Log-likelihood ratio of H1 over H0 for game pairs (pentanomial; 0 before any pair).
    pub fn llr_pairs(&self, pairs: &Pentanomial) -> f64 {
        let outcomes: Vec<(u64, f64)> = (0..5).map(|k| (pairs.counts[k], k as f64 / 4.0)).collect();
        self.normal_llr(&outcomes)
    }

    /// The normal-approximation LLR over observations counted by outcome (count, score).
    fn normal_llr(&self, outcomes: &[(u64, f64)]) -> f64 {
        if outcomes.iter().all(|&(count, _)| count == 0) {
            return 0.0;
        }
        let prior = if outcomes.iter().any(|&(count, _)| count == 0) {
            0.5
        } else {
            0.0
        };
        let count = |c: u64| c as f64 + prior;
        let total: f64 = outcomes.iter().map(|&(c, _)| count(c)).sum();
        let mean = outcomes.iter().map(|&(c, s)| count(c) * s).sum::<f64>() / total;
        let variance = outcomes
            .iter()
            .map(|&(c, s)| count(c) * (s - mean).powi(2))
            .sum::<f64>()
            / total;
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        total * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// Where an LLR stands against the bounds.
    pub fn decide(&self, llr: f64) -> Decision {
        if llr >= self.upper_bound() {
            Decision::AcceptH1
        } else if llr <= self.lower_bound() {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_for_five_percent_errors() {
        let sprt = Sprt::new(0.0, 10.0);
        assert!((sprt.upper_bound() - 19f64.ln()).abs() < 1e-12);
        assert!((sprt.lower_bound() + 19f64.ln()).abs() < 1e-12);
        assert!((sprt.upper_bound() - 2.944_438_979).abs() < 1e-9);
    }

    #[test]
    fn llr_on_known_counts() {
        let sprt = Sprt::new(0.0, 10.0);
        let results = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        // s0 = 0.5, s1 = 0.514387..., mean 0.7, variance 0.16.
        let s1 = 1.0 / (1.0 + 10f64.powf(-10.0 / 400.0));
        assert!((s1 - 0.514_387_3).abs() < 1e-6);
        let expected = 100.0 * (s1 - 0.5) * (1.4 - 0.5 - s1) / 0.32;
        assert!((sprt.llr(&results) - expected).abs() < 1e-12);
        assert!((sprt.llr(&results) - 1.7337).abs() < 1e-3);
        assert_eq!(sprt.decide(sprt.llr(&results)), Decision::Continue);
        let more = Wdl {
            wins: 120,
            draws: 40,
            losses: 40,
        };
        assert_eq!(sprt.decide(sprt.llr(&more)), Decision::AcceptH1);
        let worse = Wdl {
            wins: 400,
            draws: 200,
            losses: 600,
        };
        assert!((sprt.llr(&worse) + 7.760_671_7).abs() < 1e-6);
        assert_eq!(sprt.decide(sprt.llr(&worse)), Decision::AcceptH0);
        assert_eq!(sprt.llr(&Wdl::default()), 0.0);
        // One-sided runs still decide.
        let sweep = |wins, draws| Wdl {
            wins,
            draws,
            losses: 0,
        };
        assert_eq!(sprt.decide(sprt.llr(&sweep(3, 0))), Decision::Continue);
        assert_eq!(sprt.decide(sprt.llr(&sweep(40, 0))), Decision::AcceptH1);
        assert_eq!(sprt.decide(sprt.llr(&sweep(0, 2000))), Decision::AcceptH0);
    }

    #[test]
    fn pair_llr_on_known_counts() {
        let sprt = Sprt::new(0.0, 10.0);
        // Pairs 5/10/30/40/15 (0 .. 2 points): mean 0.625, variance 0.065625 (pentanomial
        // tests); LLR = 100 (s1 − 0.5)(1.25 − 0.5 − s1) / (2 · 0.065625) with
        // s1 = 1 / (1 + 10^(−10/400)) = 0.5143873: 100 · 0.0143873 · 0.2356127 / 0.13125 = 2.5827.
        let pairs = Pentanomial {
            counts: [5, 10, 30, 40, 15],
        };
        let s1 = score_from_elo(10.0);
        let expected = 100.0 * (s1 - 0.5) * (1.25 - 0.5 - s1) / 0.131_25;
        assert!((sprt.llr_pairs(&pairs) - expected).abs() < 1e-12);
        assert!((sprt.llr_pairs(&pairs) - 2.5827).abs() < 1e-3);
        assert_eq!(sprt.decide(sprt.llr_pairs(&pairs)), Decision::Continue);
        assert_eq!(sprt.llr_pairs(&Pentanomial::default()), 0.0);
        // Twice the pairs with the same proportions: twice the LLR.
        let doubled = Pentanomial {
            counts: [10, 20, 60, 80, 30],
        };
        assert!((sprt.llr_pairs(&doubled) - 2.0 * expected).abs() < 1e-9);
        assert_eq!(sprt.decide(sprt.llr_pairs(&doubled)), Decision::AcceptH1);
        // One-sided runs of pairs still decide, and not on the first pair.
        let sweep = |pairs| Pentanomial {
            counts: [0, 0, 0, 0, pairs],
        };
        assert_eq!(sprt.decide(sprt.llr_pairs(&sweep(1))), Decision::Continue);
        assert_eq!(sprt.decide(sprt.llr_pairs(&sweep(40))), Decision::AcceptH1);
        let losses = Pentanomial {
            counts: [40, 0, 0, 0, 0],
        };
        assert_eq!(sprt.decide(sprt.llr_pairs(&losses)), Decision::AcceptH0);
    }
}
