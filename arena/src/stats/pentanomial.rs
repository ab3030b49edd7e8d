//! Statistics of game pairs (pentanomial model). The arena plays games in pairs on one map with
//! the seats swapped, so a pair is one observation whose outcome for p1 is 0, ½, 1, 1½ or 2
//! points; seat and map effects largely cancel inside a pair, which makes the pair outcomes
//! vary less than two independent games would and the intervals narrower (the reason chess
//! engine testing moved to this model). Here a pair's score is its points / 2, in [0, 1].
//!
//! The interval is Wilson's score interval at an effective number of pairs N / d, where the
//! design effect d = σ² / (x̄(1 − x̄)) compares the observed pair variance with the largest one
//! a score in [0, 1] with that mean can have. Between the extremes this is the normal
//! approximation x̄ ± z σ / √N; at 0% or 100% (σ = 0, nothing known about the spread) d = 1
//! and it is Wilson's interval over N pairs: valid, and wider than the per-game interval
//! because N pairs are N observations, not 2N. So that a few identical pairs do not shrink the
//! interval to nothing, d is taken as if one more pair had the largest variance:
//! d = (N d̂ + 1) / (N + 1).

use crate::stats::wdl::{elo_from_score, wilson_interval};
use serde::{Deserialize, Serialize};

/// Pair counts by p1's points in the pair: index k holds the pairs where p1 scored k/2 points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Adds one pair in which p1 scored `points` (0, 0.5, 1, 1.5 or 2).
    pub fn add_pair(&mut self, points: f64) {
        let half_points = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[half_points] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Mean pair score (points / 2), 0.5 when there is no pair.
    pub fn score(&self) -> f64 {
        let pairs = self.pairs();
        if pairs == 0 {
            return 0.5;
        }
        let points: f64 = (0..5).map(|k| self.counts[k] as f64 * k as f64 / 4.0).sum();
        points / pairs as f64
    }

    /// Per-pair variance of the pair score.
    pub fn variance(&self) -> f64 {
        let pairs = self.pairs();
        if pairs == 0 {
            return 0.0;
        }
        let mean = self.score();
        (0..5)
            .map(|k| self.counts[k] as f64 * (k as f64 / 4.0 - mean).powi(2))
            .sum::<f64>()
            / pairs as f64
    }

    /// Design effect: pair variance over the largest possible at the mean, regularised by one
    /// pair of the largest variance (see the module comment); 1 at 0% and 100%.
    pub fn design_effect(&self) -> f64 {
        let pairs = self.pairs() as f64;
        let mean = self.score();
        let largest = mean * (1.0 - mean);
        let observed = if largest > 0.0 {
            (self.variance() / largest).min(1.0)
        } else {
            1.0
        };
        (pairs * observed + 1.0) / (pairs + 1.0)
    }

    /// 95% interval of the mean pair score ([0, 1] when there is no pair).
    pub fn score_interval(&self) -> (f64, f64) {
        let pairs = self.pairs() as f64;
        if pairs == 0.0 {
            return (0.0, 1.0);
        }
        wilson_interval(self.score(), pairs / self.design_effect())
    }

    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    pub fn elo_interval(&self) -> (f64, f64) {
        let (low, high) = self.score_interval();
        (elo_from_score(low), elo_from_score(high))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::wdl::Z95;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn mean_variance_and_interval_on_known_counts() {
        // 100 pairs: 5 at 0, 10 at ½, 30 at 1, 40 at 1½, 15 at 2 points.
        // Mean (10·0.25 + 30·0.5 + 40·0.75 + 15·1) / 100 = 0.625.
        // Variance E[x²] − x̄² = (10·0.0625 + 30·0.25 + 40·0.5625 + 15) / 100 − 0.390625
        //                       = 0.45625 − 0.390625 = 0.065625.
        let pairs = Pentanomial {
            counts: [5, 10, 30, 40, 15],
        };
        assert_eq!(pairs.pairs(), 100);
        assert!(close(pairs.score(), 0.625, 1e-12));
        assert!(close(pairs.variance(), 0.065_625, 1e-12));
        // d̂ = 0.065625 / (0.625 · 0.375) = 0.28; d = (100 · 0.28 + 1) / 101 = 0.2871287.
        assert!(close(pairs.design_effect(), 29.0 / 101.0, 1e-12));
        // Wilson at n = 100 / d = 348.27586: z²/n = 0.0110299, centre
        // (0.625 + 0.00551497) / 1.0110299 = 0.623636, half
        // z √(0.234375/n + 0.0110299/4n) / 1.0110299 = 1.959964 · 0.0260937 / 1.0110299 = 0.0505846.
        let (low, high) = pairs.score_interval();
        assert!(close(low, 0.623_636 - 0.050_585, 2e-6), "{low}");
        assert!(close(high, 0.623_636 + 0.050_585, 2e-6), "{high}");
        // Close to the normal approximation x̄ ± z σ/√N = 0.625 ± 0.0502096.
        assert!(close(
            high - low,
            2.0 * Z95 * (0.065_625f64 / 100.0).sqrt(),
            2e-3
        ));
        // Elo of 0.625: 400 log10(0.625 / 0.375) = 88.74.
        assert!(close(pairs.elo(), 88.739, 1e-3), "{}", pairs.elo());
    }

    #[test]
    fn perfect_pairs_give_wilson_over_the_pairs() {
        // 50 pairs all won 2–0: d = 1, Wilson over 50: lower 50 / (50 + z²) = 0.928652.
        let sweep = Pentanomial {
            counts: [0, 0, 0, 0, 50],
        };
        let (low, high) = sweep.score_interval();
        assert!(close(low, 50.0 / (50.0 + Z95 * Z95), 1e-12));
        assert!(close(low, 0.928_652, 1e-6), "{low}");
        assert_eq!(high, 1.0);
        let (elo_low, elo_high) = sweep.elo_interval();
        // 400 log10(0.928652 / 0.071348) = 445.8.
        assert!(close(elo_low, 445.8, 0.1), "{elo_low}");
        assert_eq!(elo_high, f64::INFINITY);
        // Every pair split 1–1: no spread seen, the pseudo-pair keeps the interval open.
        let split = Pentanomial {
            counts: [0, 0, 50, 0, 0],
        };
        let (low, high) = split.score_interval();
        assert!(low < 0.5 && high > 0.5 && high - low > 0.02, "{low} {high}");
        assert_eq!(Pentanomial::default().score_interval(), (0.0, 1.0));
    }

    #[test]
    fn add_pair_counts_by_points() {
        let mut pairs = Pentanomial::default();
        for points in [0.0, 0.5, 1.0, 1.5, 2.0, 2.0] {
            pairs.add_pair(points);
        }
        assert_eq!(pairs.counts, [1, 1, 1, 1, 2]);
    }
}
