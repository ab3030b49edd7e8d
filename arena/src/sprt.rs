//! Sequential probability ratio test for early stopping: the generalised SPRT with the
//! normal (trinomial) approximation of the log-likelihood ratio that chess engine testers use,
//! `LLR = N (s1 − s0)(2 x̄ − s0 − s1) / (2 σ²)`, with s0, s1 the expected scores of the logistic
//! Elo bounds and σ² the per-game score variance; bounds ln(β/(1−α)) and ln((1−β)/α).
//! While one of W, D, L is still 0, half a game of each is added, so that a one-sided run (all
//! wins, all draws) has a variance and can end the test.

use crate::stats::{score_from_elo, Wdl};
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

    /// Log-likelihood ratio of H1 over H0 for these results (0 before any game).
    pub fn llr(&self, results: &Wdl) -> f64 {
        if results.games() == 0 {
            return 0.0;
        }
        let (mut wins, mut draws, mut losses) = (
            results.wins as f64,
            results.draws as f64,
            results.losses as f64,
        );
        if wins == 0.0 || draws == 0.0 || losses == 0.0 {
            wins += 0.5;
            draws += 0.5;
            losses += 0.5;
        }
        let games = wins + draws + losses;
        let mean = (wins + 0.5 * draws) / games;
        let variance =
            (wins * (1.0 - mean).powi(2) + draws * (0.5 - mean).powi(2) + losses * mean.powi(2))
                / games;
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        games * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    pub fn decision(&self, results: &Wdl) -> Decision {
        let llr = self.llr(results);
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
        assert_eq!(sprt.decision(&results), Decision::Continue);
        let more = Wdl {
            wins: 120,
            draws: 40,
            losses: 40,
        };
        assert_eq!(sprt.decision(&more), Decision::AcceptH1);
        let worse = Wdl {
            wins: 400,
            draws: 200,
            losses: 600,
        };
        assert!((sprt.llr(&worse) + 7.760_671_7).abs() < 1e-6);
        assert_eq!(sprt.decision(&worse), Decision::AcceptH0);
        assert_eq!(sprt.llr(&Wdl::default()), 0.0);
        // One-sided runs still decide.
        let sweep = |wins, draws| Wdl {
            wins,
            draws,
            losses: 0,
        };
        assert_eq!(sprt.decision(&sweep(3, 0)), Decision::Continue);
        assert_eq!(sprt.decision(&sweep(40, 0)), Decision::AcceptH1);
        assert_eq!(sprt.decision(&sweep(0, 2000)), Decision::AcceptH0);
    }
}
