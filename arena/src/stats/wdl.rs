//! Match statistics from p1's point of view: wins/draws/losses, the mean score (draw = half)
//! with its 95% confidence interval, and the logistic Elo difference with the interval carried
//! through. The interval is Wilson's score interval: the scores μ for which the observed mean
//! is within z·√(μ(1−μ)/n) of μ. Unlike the normal approximation around the observed mean it
//! does not collapse at 0% or 100% (100 wins in 100 games: 96.3% .. 100%), so a perfect score
//! has a finite lower Elo bound and +∞ only as the upper one. μ(1−μ) is the largest variance a
//! score in [0, 1] with mean μ can have, so with draws (smaller variance) the interval errs on
//! the wide side.

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

    /// Wilson's 95% score interval of the mean score ([0, 1] when no game was played).
    pub fn score_interval(&self) -> (f64, f64) {
        wilson_interval(self.score(), self.games() as f64)
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

/// Wilson's 95% score interval for a mean `mean` of `samples` observations in [0, 1]: the
/// roots in μ of (mean − μ)² = z² μ (1 − μ) / samples, i.e.
/// (mean + z²/2n ± z √(mean(1 − mean)/n + z²/4n²)) / (1 + z²/n). `samples` may be fractional
/// (an effective sample size); with none the interval is [0, 1].
pub fn wilson_interval(mean: f64, samples: f64) -> (f64, f64) {
    if samples <= 0.0 {
        return (0.0, 1.0);
    }
    let mean = mean.clamp(0.0, 1.0);
    let z2_over_n = Z95 * Z95 / samples;
    let centre = (mean + z2_over_n / 2.0) / (1.0 + z2_over_n);
    let half = Z95 * (mean * (1.0 - mean) / samples + z2_over_n / (4.0 * samples)).sqrt()
        / (1.0 + z2_over_n);
    // At 0 (or 1) one root is exactly 0 (or 1); rounding must not move it off.
    let low = if mean == 0.0 { 0.0 } else { centre - half };
    let high = if mean == 1.0 { 1.0 } else { centre + half };
    (low.max(0.0), high.min(1.0))
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
        // Wilson at mean 1/2: centre 1/2, half-width z √(1/4n + z²/4n²) / (1 + z²/n)
        // = (z/2) / √(n + z²); n = 100: 0.979982 / 10.190263 = 0.0961685.
        let (low, high) = even.score_interval();
        assert!(close(low, 0.5 - 0.096_168_5, 1e-6), "{low}");
        assert!(close(high, 0.5 + 0.096_168_5, 1e-6), "{high}");
        let (elo_low, elo_high) = even.elo_interval();
        assert!(close(elo_low, -elo_high, 1e-9));
        // -400 log10(1/0.5961685 - 1) = -400 log10(0.6773781) = 67.668.
        assert!(close(elo_high, 67.668, 1e-3), "{elo_high}");

        let mixed = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!(close(mixed.score(), 0.7, 1e-12));
        // Wilson at 0.7 of 100: z² = 3.841459; centre (0.7 + 0.0192073) / 1.0384146 = 0.692601,
        // half 1.959964 √(0.0021 + 0.0000960365) / 1.0384146 = 0.0884498.
        let (low, high) = mixed.score_interval();
        assert!(close(low, 0.692_601 - 0.088_450, 1e-5), "{low}");
        assert!(close(high, 0.692_601 + 0.088_450, 1e-5), "{high}");
        assert_eq!(Wdl::default().score(), 0.5);
        assert_eq!(Wdl::default().score_interval(), (0.0, 1.0));
    }

    #[test]
    fn wilson_interval_holds_at_the_extremes() {
        // n of n: the lower root of (1 − μ)² = z² μ (1 − μ)/n is μ = n / (n + z²).
        let sweep = |wins| Wdl {
            wins,
            draws: 0,
            losses: 0,
        };
        let (low, high) = sweep(100).score_interval();
        assert!(close(low, 100.0 / (100.0 + Z95 * Z95), 1e-12));
        assert!(close(low, 0.963_006, 1e-6), "{low}");
        assert_eq!(high, 1.0);
        let (low, _) = sweep(4).score_interval();
        assert!(close(low, 4.0 / (4.0 + Z95 * Z95), 1e-12));
        assert!(close(low, 0.510_2, 1e-4), "{low}");
        // 0 of n mirrors it.
        let lost = Wdl {
            wins: 0,
            draws: 0,
            losses: 100,
        };
        let (low, high) = lost.score_interval();
        assert_eq!(low, 0.0);
        assert!(close(high, Z95 * Z95 / (100.0 + Z95 * Z95), 1e-12));
        // Elo: the lower bound is finite, -400 log10(1/0.963006 − 1) = 566.2; the upper +∞.
        let (elo_low, elo_high) = sweep(100).elo_interval();
        assert!(close(elo_low, 566.2, 0.05), "{elo_low}");
        assert_eq!(elo_high, f64::INFINITY);
        assert_eq!(sweep(100).elo(), f64::INFINITY);
        let (elo_low, elo_high) = lost.elo_interval();
        assert_eq!(elo_low, f64::NEG_INFINITY);
        assert!(close(elo_high, -566.2, 0.05), "{elo_high}");
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
