//! Training the policy network, reproducibly: seeded initial weights
//! ([`PolicyModel::initial`]) or a policy file's (`--init`, [`PolicyModel::from_policy_file`]),
//! minibatches in an order drawn from the seed and the epoch, candle's AdamW; the model of the
//! epoch with the lowest validation loss is kept (`policy.safetensors` in the output
//! directory). The figures are the test split's: the policy's cross-entropy against the visit
//! distributions beside a uniform prior's (ln 10), how often its most probable action is the
//! search's most visited, and the value heads' log-loss.

use crate::common::layers::candle_error;
use crate::common::shuffle::shuffled;
use crate::policy::data::{PolicyDataSet, PolicySamples, ACTION_VALUES};
use crate::policy::model::PolicyModel;
use candle_core::{Device, Tensor};
use candle_nn::{Optimizer, ParamsAdamW};
use csb::bot::actions::ACTION_COUNT;
use csb::bot::policy_net::action_inputs::{PodActionInputs, ACTION_INPUTS};
use csb::bot::policy_net::network::{PolicyNetwork, OUTPUTS};
use csb::bot::value_net::features::FEATURE_COUNT;
use csb::engine::referee::splitmix64::splitmix64;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The model file training writes in its directory.
pub const POLICY_MODEL_FILE: &str = "policy.safetensors";

/// What to train and where.
#[derive(Clone, Debug)]
pub struct PolicyTrainConfig {
    pub out: PathBuf,
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f64,
    pub seed: u64,
    /// The policy file whose weights training starts from (a warm start), instead of the
    /// seed's.
    pub init: Option<PathBuf>,
    /// Whether the policy reads inputs per action (`action_inputs.rs`); a warm start from a
    /// file with action layers keeps them either way.
    pub action_inputs: bool,
    /// Whether the action layers get a context layer (`ActionLayers::context`; implies
    /// `action_inputs`); a warm start from a file with one keeps it either way.
    pub action_context: bool,
    /// Whether the action layers get a second layer (`ActionLayers::middle`; implies
    /// `action_inputs`); a warm start from a file with one keeps it either way.
    pub action_middle: bool,
    /// Whether the learning rate falls from `learning_rate` to zero along a half cosine over
    /// the run's minibatches ([`annealed_rate`]) instead of staying at `learning_rate`.
    pub anneal: bool,
}

/// The learning rate of minibatch `step` of `steps` annealed from `rate`: `rate × (1 +
/// cos(π × step / steps)) / 2`, `rate` at the first step and near zero at the last. The last
/// epochs' small steps settle the weights where a constant rate keeps them moving about the
/// minimum by its noise.
pub fn annealed_rate(rate: f64, step: usize, steps: usize) -> f64 {
    let progress = step as f64 / steps.max(1) as f64;
    rate * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos())
}

/// One split's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolicyFigures {
    /// Mean cross-entropy of the priors against the visit distributions (nats).
    pub policy_loss: f64,
    /// Mean log-loss of the value heads against the roots' mean scores.
    pub value_loss: f64,
    /// Share of pods whose most probable action is the search's most visited.
    pub top1: f64,
    /// Mean entropy of the visit distributions: the lowest cross-entropy possible.
    pub target_entropy: f64,
}

/// What training ends with.
#[derive(Clone, Debug)]
pub struct PolicyTrainReport {
    /// Validation figures per epoch.
    pub epochs: Vec<PolicyFigures>,
    pub best_epoch: usize,
    pub test: PolicyFigures,
    /// The uniform prior's cross-entropy and top-1 (a tenth) on the test split.
    pub uniform_policy_loss: f64,
    pub positions: [usize; 3],
}

impl PolicyTrainReport {
    pub fn summary(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(
            text,
            "positions: {} training, {} validation, {} test (split by map; both views)",
            self.positions[0], self.positions[1], self.positions[2]
        );
        let _ = writeln!(
            text,
            "model: epoch {} of {}",
            self.best_epoch,
            self.epochs.len()
        );
        let _ = writeln!(
            text,
            "test: policy cross-entropy {:.4} (uniform {:.4}, the visits' own entropy {:.4}), \
             most probable = most visited {:.2}%, value log-loss {:.4}",
            self.test.policy_loss,
            self.uniform_policy_loss,
            self.test.target_entropy,
            100.0 * self.test.top1,
            self.test.value_loss
        );
        text
    }
}

/// The tensors of rows `rows` of `samples`: inputs, inputs per action (`[rows × 20,
/// ACTION_INPUTS]`, or an empty tensor for a model without action layers), visits, values,
/// masks.
fn batch(
    samples: &PolicySamples,
    rows: &[usize],
    action_inputs: bool,
) -> candle_core::Result<[Tensor; 5]> {
    let gather = |data: &[f32], width: usize| {
        let mut out = Vec::with_capacity(rows.len() * width);
        for &row in rows {
            out.extend_from_slice(&data[row * width..(row + 1) * width]);
        }
        Tensor::from_vec(out, (rows.len(), width), &Device::Cpu)
    };
    let actions = if action_inputs {
        gather(&samples.action_inputs, ACTION_VALUES)?
            .reshape((rows.len() * 2 * ACTION_COUNT, ACTION_INPUTS))?
    } else {
        Tensor::zeros((0, ACTION_INPUTS), candle_core::DType::F32, &Device::Cpu)?
    };
    Ok([
        gather(&samples.inputs, FEATURE_COUNT)?,
        actions,
        gather(&samples.visits, 2 * ACTION_COUNT)?,
        gather(&samples.values, 2)?,
        gather(&samples.masks, 2)?,
    ])
}

/// Row `row`'s inputs per action, by slot.
fn row_action_inputs(samples: &PolicySamples, row: usize) -> [PodActionInputs; 2] {
    let mut out = [[[0.0; ACTION_INPUTS]; ACTION_COUNT]; 2];
    let values = &samples.action_inputs[row * ACTION_VALUES..(row + 1) * ACTION_VALUES];
    for (slot, chunk) in out.iter_mut().flatten().zip(values.chunks(ACTION_INPUTS)) {
        slot.copy_from_slice(chunk);
    }
    out
}

/// `visit(outputs, row, slot)` for each masked-in slot of `samples`, with `network`'s outputs
/// on its row.
pub fn each_slot(
    network: &PolicyNetwork,
    samples: &PolicySamples,
    mut visit: impl FnMut(&[f32; OUTPUTS], usize, usize),
) {
    let mut inputs = [0.0f32; FEATURE_COUNT];
    for row in 0..samples.len() {
        inputs.copy_from_slice(&samples.inputs[row * FEATURE_COUNT..(row + 1) * FEATURE_COUNT]);
        let out = match network.actions {
            Some(_) => network.forward_with_actions(&inputs, &row_action_inputs(samples, row)),
            None => network.forward(&inputs),
        };
        for slot in 0..2 {
            if samples.masks[row * 2 + slot] != 0.0 {
                visit(&out, row, slot);
            }
        }
    }
}

/// The figures of `model` on `samples`.
pub fn figures(model: &PolicyModel, samples: &PolicySamples) -> Result<PolicyFigures, String> {
    let network = model.bot_network()?;
    let (mut policy, mut value, mut top1, mut slots) = (0.0, 0.0, 0.0, 0.0);
    let mut entropy = 0.0;
    each_slot(&network, samples, |out, row, slot| {
        let logits = &out[slot * ACTION_COUNT..(slot + 1) * ACTION_COUNT];
        let largest = logits.iter().fold(f32::NEG_INFINITY, |m, &l| m.max(l));
        let log_sum = f64::from(largest)
            + logits
                .iter()
                .map(|&l| f64::from(l - largest).exp())
                .sum::<f64>()
                .ln();
        let target = &samples.visits[(row * 2 + slot) * ACTION_COUNT..][..ACTION_COUNT];
        policy -= target
            .iter()
            .zip(logits)
            .map(|(&t, &l)| f64::from(t) * (f64::from(l) - log_sum))
            .sum::<f64>();
        entropy -= target
            .iter()
            .filter(|&&t| t > 0.0)
            .map(|&t| f64::from(t) * f64::from(t).ln())
            .sum::<f64>();
        let argmax = |values: &[f32]| {
            (0..values.len()).fold(0, |best, i| if values[i] > values[best] { i } else { best })
        };
        if argmax(logits) == argmax(target) {
            top1 += 1.0;
        }
        let z = f64::from(out[2 * ACTION_COUNT + slot]);
        let y = f64::from(samples.values[row * 2 + slot]);
        value += z.max(0.0) - y * z + (-z.abs()).exp().ln_1p();
        slots += 1.0;
    });
    let slots = f64::max(slots, 1.0);
    Ok(PolicyFigures {
        policy_loss: policy / slots,
        value_loss: value / slots,
        top1: top1 / slots,
        target_entropy: entropy / slots,
    })
}

/// Trains on `data` as `config` says; writes the best epoch's model to
/// `config.out/policy.safetensors`. Same data, settings and seed: the same weights.
pub fn train_policy(
    data: &PolicyDataSet,
    config: &PolicyTrainConfig,
) -> Result<PolicyTrainReport, String> {
    if config.epochs == 0 || config.batch == 0 {
        return Err("--epochs and --batch must be at least 1".to_string());
    }
    // Read before anything is written: a bad --init file refuses the run in one line.
    let model = match &config.init {
        Some(path) => PolicyModel::from_policy_file(
            path,
            config.action_inputs,
            config.action_context,
            config.action_middle,
            config.seed,
        )?,
        None => PolicyModel::initial(
            config.seed,
            config.action_inputs,
            config.action_context,
            config.action_middle,
        )?,
    };
    let action_inputs = model.has_action_layers();
    std::fs::create_dir_all(&config.out)
        .map_err(|error| format!("cannot create {}: {error}", config.out.display()))?;
    let mut optimiser = candle_nn::AdamW::new(
        model.variables(),
        ParamsAdamW {
            lr: config.learning_rate,
            weight_decay: 1e-2,
            ..ParamsAdamW::default()
        },
    )
    .map_err(candle_error)?;
    let best_path = config.out.join(POLICY_MODEL_FILE);
    let mut epochs = Vec::new();
    let mut best_epoch = 0;
    let steps_per_epoch = data.train.len().div_ceil(config.batch);
    let steps = steps_per_epoch * config.epochs;
    for epoch in 0..config.epochs {
        let order = shuffled(data.train.len(), splitmix64(config.seed ^ epoch as u64));
        // The training split's cross-entropy: the minibatches' own, each already computed for
        // its step, weighted by its rows (the weights move within the epoch).
        let mut training_policy = 0.0;
        for (index, rows) in order.chunks(config.batch).enumerate() {
            if config.anneal {
                let step = epoch * steps_per_epoch + index;
                optimiser.set_learning_rate(annealed_rate(config.learning_rate, step, steps));
            }
            let mut step = || -> candle_core::Result<f64> {
                let [inputs, actions, visits, values, masks] =
                    batch(&data.train, rows, action_inputs)?;
                let (loss, policy, _) = model.loss(&inputs, &actions, &visits, &values, &masks)?;
                optimiser.backward_step(&loss)?;
                Ok(f64::from(policy.to_scalar::<f32>()?))
            };
            training_policy += step().map_err(candle_error)? * rows.len() as f64;
        }
        let validation = figures(&model, &data.validation)?;
        eprintln!(
            "train-policy: epoch {} training policy {:.4} (the epoch's minibatches), validation \
             policy {:.4} value {:.4} top-1 {:.2}%",
            epoch + 1,
            training_policy / data.train.len().max(1) as f64,
            validation.policy_loss,
            validation.value_loss,
            100.0 * validation.top1
        );
        let total = |f: &PolicyFigures| f.policy_loss + f.value_loss;
        if epochs.is_empty() || total(&validation) < total(&epochs[best_epoch - 1]) {
            best_epoch = epoch + 1;
            model.save(&best_path)?;
        }
        epochs.push(validation);
    }
    let best = PolicyModel::load(&best_path)?;
    let test = figures(&best, &data.test)?;
    Ok(PolicyTrainReport {
        epochs,
        best_epoch,
        test,
        uniform_policy_loss: (ACTION_COUNT as f64).ln(),
        positions: [data.train.len(), data.validation.len(), data.test.len()],
    })
}

#[cfg(test)]
mod tests {
    use super::annealed_rate;

    /// The annealed rate starts at the rate, is half of it halfway, falls all the way and
    /// never rises.
    #[test]
    fn the_annealed_rate_falls_from_the_rate_to_zero() {
        let steps = 1_000;
        assert_eq!(annealed_rate(0.003, 0, steps), 0.003);
        assert!((annealed_rate(0.003, steps / 2, steps) - 0.0015).abs() < 1e-12);
        assert!(annealed_rate(0.003, steps - 1, steps) < 1e-7);
        let rates: Vec<f64> = (0..steps)
            .map(|step| annealed_rate(0.003, step, steps))
            .collect();
        assert!(rates.windows(2).all(|pair| pair[1] <= pair[0]));
    }
}
