//! Simultaneous perturbation stochastic approximation (Spall 1992, 1998) for `arena tune`.
//!
//! Each parameter is measured in units of its own STEP, so one gain sequence fits them all. At
//! iteration k (from 0) every parameter is perturbed by ±c_k STEPs, with independent fair signs
//! Δ, and the bot at θ + c_k·Δ plays the bot at θ − c_k·Δ. With s the plus side's score (0–1),
//! the estimate of the slope along parameter i is (2s − 1) / (2·c_k·Δ_i) (2s − 1 is the plus
//! side's score minus the minus side's), and θ_i moves up that slope by a_k times it, then is
//! clamped to [MIN, MAX]. The gains are Spall's:
//!
//! - c_k = c / (k + 1)^γ with γ = 0.101 and c = 1 STEP;
//! - a_k = a / (k + 1 + A)^α with α = 0.602; the stability constant A is a tenth of the planned
//!   iterations (Spall's guideline), and a is set so that the first iteration moves a parameter
//!   by `first_move` STEPs when one side wins every game: a = 2·first_move·(1 + A)^α.

use csb::engine::referee::splitmix64::splitmix64;
use serde::{Deserialize, Serialize};

/// Spall's exponent of the step gain a_k.
pub const ALPHA: f64 = 0.602;
/// Spall's exponent of the perturbation c_k.
pub const GAMMA: f64 = 0.101;
/// The perturbation at k = 0, in STEPs.
pub const FIRST_PERTURBATION_STEPS: f64 = 1.0;

/// The gain sequences of one run (recorded in the trajectory's header).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gains {
    pub a: f64,
    #[serde(rename = "A")]
    pub stability: f64,
    pub c: f64,
    pub alpha: f64,
    pub gamma: f64,
}

impl Gains {
    /// Spall's gains for a run of `iterations` whose first full-score move is `first_move` STEPs.
    pub fn for_run(iterations: usize, first_move: f64) -> Gains {
        let stability = (iterations as f64 / 10.0).round();
        Gains {
            a: 2.0 * first_move * FIRST_PERTURBATION_STEPS * (1.0 + stability).powf(ALPHA),
            stability,
            c: FIRST_PERTURBATION_STEPS,
            alpha: ALPHA,
            gamma: GAMMA,
        }
    }

    /// a_k.
    pub fn step_gain(&self, k: usize) -> f64 {
        self.a / (k as f64 + 1.0 + self.stability).powf(self.alpha)
    }

    /// c_k, in STEPs.
    pub fn perturbation(&self, k: usize) -> f64 {
        self.c / (k as f64 + 1.0).powf(self.gamma)
    }
}

/// The seed of iteration k's games (its maps), derived from the run seed.
pub fn iteration_seed(run_seed: u64, k: usize) -> u64 {
    splitmix64(splitmix64(run_seed) ^ (k as u64).wrapping_mul(2).wrapping_add(1))
}

/// The signs Δ of iteration k (±1 each, fair and independent), derived from the run seed.
pub fn perturbation_signs(run_seed: u64, k: usize, count: usize) -> Vec<f64> {
    let mut bits = splitmix64(splitmix64(run_seed) ^ (k as u64).wrapping_mul(2));
    (0..count)
        .map(|i| {
            if i > 0 && i % 64 == 0 {
                bits = splitmix64(bits);
            }
            if (bits >> (i % 64)) & 1 == 1 {
                1.0
            } else {
                -1.0
            }
        })
        .collect()
}

/// How far θ_i moves after iteration k, in STEPs (before clamping): a_k times the estimated
/// slope, so up the slope toward the stronger side.
pub fn move_in_steps(sign: f64, plus_score: f64, gains: &Gains, k: usize) -> f64 {
    let slope = (2.0 * plus_score - 1.0) / (2.0 * gains.perturbation(k) * sign);
    gains.step_gain(k) * slope
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gains_follow_spalls_sequences() {
        let gains = Gains::for_run(40, 1.0);
        assert_eq!(gains.stability, 4.0);
        // First move of a clean sweep: a_0 / (2 c_0) = first_move.
        assert!((gains.step_gain(0) / (2.0 * gains.perturbation(0)) - 1.0).abs() < 1e-12);
        assert!((gains.perturbation(9) - 10f64.powf(-0.101)).abs() < 1e-12);
        assert!((gains.step_gain(5) - gains.a / 10f64.powf(0.602)).abs() < 1e-12);
        assert!(gains.step_gain(39) < gains.step_gain(0) && gains.perturbation(39) < 1.0);
    }

    #[test]
    fn moves_toward_the_winning_side() {
        let gains = Gains::for_run(10, 2.0);
        // Δ = +1 and the plus side wins everything: up by first_move.
        assert!((move_in_steps(1.0, 1.0, &gains, 0) - 2.0).abs() < 1e-12);
        // Δ = −1 and the plus side (which was lower) wins: down.
        assert!((move_in_steps(-1.0, 1.0, &gains, 0) + 2.0).abs() < 1e-12);
        assert_eq!(move_in_steps(1.0, 0.5, &gains, 3), 0.0);
        assert!(move_in_steps(1.0, 0.25, &gains, 3) < 0.0);
    }

    #[test]
    fn signs_are_fair_and_reproducible() {
        let signs: Vec<f64> = (0..2000)
            .flat_map(|k| perturbation_signs(9, k, 3))
            .collect();
        let ups = signs.iter().filter(|s| **s > 0.0).count();
        assert!((2700..3300).contains(&ups), "{ups} of 6000");
        assert_eq!(perturbation_signs(9, 17, 70), perturbation_signs(9, 17, 70));
        assert_ne!(iteration_seed(9, 1), iteration_seed(9, 2));
    }

    #[test]
    fn seeds_and_signs_stay_what_they_were() {
        // Resumed trajectories replay these: they must never change.
        assert_eq!(iteration_seed(1, 3), 8581286081765471666);
        let signs: String = perturbation_signs(1, 0, 70)
            .iter()
            .map(|sign| if *sign > 0.0 { '+' } else { '-' })
            .collect();
        assert_eq!(
            signs,
            "-++++---+----++-+--+++----+-+++----+----++-+-+-++-----+--++++-+-++----"
        );
    }
}
