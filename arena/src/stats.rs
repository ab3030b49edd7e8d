//! Match statistics from p1's point of view: wins/draws/losses, the mean score (draw = half)
//! with its 95% confidence interval (normal approximation on the per-game trinomial
//! variance), and the logistic Elo difference with the interval carried through.

use serde::{Deserialize, Serialize};

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Adds one game with score 1, 0.5 or 0.
    pub fn add_score(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    pub fn merge(&mut self, other: &Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    /// Mean score, draw = half (0.5 when no game was played).
    pub fn score(&self) -> f64 {
        let games = self.games();
        if games == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / games as f64
    }

    /// Per-game variance of the score.
    pub fn variance(&self) -> f64 {
        let games = self.games();
        if games == 0 {
            return 0.0;
        }
        let mean = self.score();
        let n = games as f64;
        (self.wins as f64 * (1.0 - mean).powi(2)
            + self.draws as f64 * (0.5 - mean).powi(2)
            + self.losses as f64 * mean.powi(2))
            / n
    }

    /// 95% confidence interval of the mean score, clamped to [0, 1].
    pub fn score_interval(&self) -> (f64, f64) {
        let games = self.games();
        if games == 0 {
            return (0.0, 1.0);
        }
        let half = Z95 * (self.variance() / games as f64).sqrt();
        let mean = self.score();
        ((mean - half).max(0.0), (mean + half).min(1.0))
    }

    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// The Elo difference at the ends of the score interval.
    pub fn elo_interval(&self) -> (f64, f64) {
        let (low, high) = self.score_interval();
        (elo_from_score(low), elo_from_score(high))
    }
}

/// Logistic Elo difference for an expected score (±∞ at 0 and 1).
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score for a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(elo_from_score(0.25), -190.848_501_887_865, 1e-9));
        assert!(close(score_from_elo(400.0), 10.0 / 11.0, 1e-12));
        for elo in [-300.0, -5.0, 0.0, 42.0, 700.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn score_and_interval_on_known_counts() {
        let even = Wdl {
            wins: 50,
            draws: 0,
            losses: 50,
        };
        assert_eq!(even.score(), 0.5);
        assert!(close(even.variance(), 0.25, 1e-12));
        let (low, high) = even.score_interval();
        assert!(close(low, 0.5 - Z95 * 0.05, 1e-12));
        assert!(close(high, 0.5 + Z95 * 0.05, 1e-12));
        let (elo_low, elo_high) = even.elo_interval();
        assert!(close(elo_low, -elo_high, 1e-9));
        assert!(close(elo_high, 68.988_751, 1e-5));

        let mixed = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!(close(mixed.score(), 0.7, 1e-12));
        assert!(close(mixed.variance(), 0.16, 1e-12));
        let (low, high) = mixed.score_interval();
        assert!(close(low, 0.7 - Z95 * 0.04, 1e-12));
        assert!(close(high, 0.7 + Z95 * 0.04, 1e-12));

        let sweep = Wdl {
            wins: 10,
            draws: 0,
            losses: 0,
        };
        assert_eq!(sweep.score_interval(), (1.0, 1.0));
        assert_eq!(Wdl::default().score(), 0.5);
    }

    #[test]
    fn add_score_counts_each_kind() {
        let mut wdl = Wdl::default();
        for score in [1.0, 0.5, 0.0, 1.0] {
            wdl.add_score(score);
        }
        assert_eq!(
            wdl,
            Wdl {
                wins: 2,
                draws: 1,
                losses: 1
            }
        );
    }
}
