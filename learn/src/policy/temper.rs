//! A policy's temperature fitted to its parent's sharpness (`learn temper-policy`): the bot's
//! PUCT explores in proportion to each action's prior, so a policy retrained on the visits of a
//! search guided by flatter priors than its own comes out sharper than the search it will guide
//! was tuned for, and plays worse although it predicts the visits better (docs/learning.md,
//! screens S6-S9). Tempering divides its action logits by the temperature at which the mean
//! entropy of its priors on the validation split equals the parent's on the same positions: the
//! new policy keeps its order of the actions and the parent's spread over them.

use crate::policy::data::PolicySamples;
use crate::policy::train::each_slot;
use csb::bot::actions::ACTION_COUNT;
use csb::bot::policy_net::network::PolicyNetwork;

/// The temperatures searched: a policy flatter or sharper than its parent by more than this
/// factor is tempered to the end of the range. Wide, since the default's policy is itself
/// tempered nearly flat (3.57) and a policy trained on a few games is far sharper.
pub const TEMPERATURE_RANGE: (f64, f64) = (1.0 / 64.0, 64.0);

/// Halvings of the range's logarithm: the fitted temperature to about 1e-9 of itself.
const BISECTION_STEPS: usize = 48;

/// Each masked-in slot's action logits of `network` on `samples`, with its visit distribution.
fn slot_logits(
    network: &PolicyNetwork,
    samples: &PolicySamples,
) -> Vec<([f32; ACTION_COUNT], usize)> {
    let mut slots = Vec::new();
    each_slot(network, samples, |out, row, slot| {
        let mut logits = [0.0; ACTION_COUNT];
        logits.copy_from_slice(&out[slot * ACTION_COUNT..(slot + 1) * ACTION_COUNT]);
        slots.push((logits, row * 2 + slot));
    });
    slots
}

/// `ln Σ exp(logits / temperature)` and the priors `softmax(logits / temperature)`.
fn log_softmax(logits: &[f32; ACTION_COUNT], temperature: f64) -> [f64; ACTION_COUNT] {
    let scaled = logits.map(|logit| f64::from(logit) / temperature);
    let largest = scaled.iter().fold(f64::NEG_INFINITY, |m, &l| m.max(l));
    let log_sum = largest
        + scaled
            .iter()
            .map(|&l| (l - largest).exp())
            .sum::<f64>()
            .ln();
    scaled.map(|l| l - log_sum)
}

/// What a policy's priors at a temperature say about a split: their mean entropy and their mean
/// cross-entropy against the visits (nats).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sharpness {
    pub entropy: f64,
    pub cross_entropy: f64,
}

/// The priors of `network` at `temperature` on `samples`' masked-in slots.
pub fn sharpness(network: &PolicyNetwork, samples: &PolicySamples, temperature: f64) -> Sharpness {
    sharpness_of(&slot_logits(network, samples), samples, temperature)
}

fn sharpness_of(
    slots: &[([f32; ACTION_COUNT], usize)],
    samples: &PolicySamples,
    temperature: f64,
) -> Sharpness {
    let (mut entropy, mut cross_entropy) = (0.0, 0.0);
    for (logits, slot) in slots {
        let log_priors = log_softmax(logits, temperature);
        let visits = &samples.visits[slot * ACTION_COUNT..][..ACTION_COUNT];
        for (&log_prior, &visit) in log_priors.iter().zip(visits) {
            entropy -= log_prior.exp() * log_prior;
            cross_entropy -= f64::from(visit) * log_prior;
        }
    }
    let count = slots.len().max(1) as f64;
    Sharpness {
        entropy: entropy / count,
        cross_entropy: cross_entropy / count,
    }
}

/// The temperature at which `network`'s priors on `samples` have the mean entropy `entropy`
/// (bisection on its logarithm: the entropy grows with the temperature), within
/// [`TEMPERATURE_RANGE`].
pub fn fit_temperature(network: &PolicyNetwork, samples: &PolicySamples, entropy: f64) -> f64 {
    let slots = slot_logits(network, samples);
    let (mut low, mut high) = (TEMPERATURE_RANGE.0.ln(), TEMPERATURE_RANGE.1.ln());
    for _ in 0..BISECTION_STEPS {
        let middle = 0.5 * (low + high);
        if sharpness_of(&slots, samples, middle.exp()).entropy < entropy {
            low = middle;
        } else {
            high = middle;
        }
    }
    (0.5 * (low + high)).exp()
}

#[cfg(test)]
mod tests {
    use super::*;
    use csb::bot::value_net::features::FEATURE_COUNT;

    /// `rows` samples of seeded inputs with visits on action 0, both slots in.
    fn samples(rows: usize) -> PolicySamples {
        let mut state = 7u64;
        let mut draw = || {
            state = csb::engine::referee::splitmix64::splitmix64(state);
            (state >> 40) as f32 / (1u64 << 24) as f32
        };
        let mut samples = PolicySamples::default();
        for _ in 0..rows {
            samples.inputs.extend((0..FEATURE_COUNT).map(|_| draw()));
            for _ in 0..2 {
                samples.visits.push(1.0);
                samples.visits.extend([0.0; ACTION_COUNT - 1]);
            }
            samples.values.extend([0.5, 0.5]);
            samples.masks.extend([1.0, 1.0]);
        }
        samples
    }

    /// A network whose action logits vary with its inputs.
    fn network() -> PolicyNetwork {
        let mut values = Vec::new();
        let mut state = 3u64;
        for _ in 0..csb::bot::policy_net::network::WEIGHT_COUNT {
            state = csb::engine::referee::splitmix64::splitmix64(state);
            values.push(((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 1.5);
        }
        PolicyNetwork::from_values(&values)
    }

    #[test]
    fn the_entropy_grows_with_the_temperature_towards_uniform() {
        let (network, samples) = (network(), samples(200));
        let entropies: Vec<f64> = [0.25, 0.5, 1.0, 2.0, 4.0, 1e6]
            .iter()
            .map(|&t| sharpness(&network, &samples, t).entropy)
            .collect();
        assert!(
            entropies.windows(2).all(|pair| pair[0] < pair[1]),
            "{entropies:?}"
        );
        assert!(((ACTION_COUNT as f64).ln() - entropies[5]).abs() < 1e-6);
    }

    #[test]
    fn the_fitted_temperature_gives_the_entropy_asked_and_the_tempered_network_has_it() {
        let (network, samples) = (network(), samples(200));
        for wanted in [0.5, 2.0] {
            let target = sharpness(&network, &samples, wanted).entropy;
            let fitted = fit_temperature(&network, &samples, target);
            assert!(
                (fitted - wanted).abs() < 1e-6 * wanted,
                "{fitted} for {wanted}"
            );
            // The bot's tempered network is the same priors at temperature 1.
            let tempered = network.clone().tempered(fitted as f32);
            let entropy = sharpness(&tempered, &samples, 1.0).entropy;
            assert!(
                (entropy - target).abs() < 1e-4,
                "{entropy} against {target}"
            );
        }
        // Out of reach: the end of the range.
        let fitted = fit_temperature(&network, &samples, (ACTION_COUNT as f64).ln() + 1.0);
        assert!((fitted - TEMPERATURE_RANGE.1).abs() < 1e-6);
    }
}
