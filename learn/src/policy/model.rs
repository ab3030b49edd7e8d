//! The policy network in candle: the shape of the bot's (`csb::bot::policy_net::network`: one
//! view's inputs → hidden (ReLU) → each own pod's 10 action logits and its value logit), seeded
//! initial weights, the loss (cross-entropy of each pod's action logits against its root visit
//! distribution, plus the log-loss of its value against its root's mean score), saving and
//! loading with each tensor's shape checked, and the bot's network of it (exactly its weights).

use crate::common::layers::{self, candle_error};
use candle_core::{DType, Device, Module, Tensor, Var};
use candle_nn::{Linear, VarMap};
use csb::bot::actions::ACTION_COUNT;
use csb::bot::policy_net::network::{PolicyNetwork, HIDDEN, OUTPUTS, VALUE_OUTPUTS};
use csb::bot::value_net::features::FEATURE_COUNT;
use std::collections::HashMap;
use std::path::Path;

/// The candle tensors by name with their shapes (`Linear` keeps `[out, in]`; biases 1-d).
pub const POLICY_TENSORS: [(&str, &[usize]); 4] = [
    ("input.weight", &[HIDDEN, FEATURE_COUNT]),
    ("input.bias", &[HIDDEN]),
    ("heads.weight", &[OUTPUTS, HIDDEN]),
    ("heads.bias", &[OUTPUTS]),
];

/// The layers: name, inputs, outputs.
const POLICY_LAYERS: [(&str, usize, usize); 2] =
    [("input", FEATURE_COUNT, HIDDEN), ("heads", HIDDEN, OUTPUTS)];

/// Weight of the value heads' loss beside the policy's.
pub const VALUE_LOSS_WEIGHT: f64 = 1.0;

/// The policy network and its variables.
pub struct PolicyModel {
    pub vars: VarMap,
    input: Linear,
    heads: Linear,
}

impl PolicyModel {
    /// Initial weights from the project's seeded generator ([`layers::initial_tensors`]:
    /// He's normal weights, biases uniform in ±1/√inputs); one seed, one network.
    pub fn initial(seed: u64) -> Result<PolicyModel, String> {
        PolicyModel::from_tensors(&layers::initial_tensors(seed, &POLICY_LAYERS)?)
    }

    /// The model of the policy file `path` (`csb --policy-net`'s format, as `learn
    /// export-policy` writes it): a generation's policy as the initial weights of the next
    /// training (`learn train-policy --init`). One line for a missing file or one that is not a
    /// policy of this shape.
    pub fn from_policy_file(path: &Path) -> Result<PolicyModel, String> {
        let error = |message: String| format!("--init {}: {message}", path.display());
        let network = csb::bot::policy_net::file::load(&path.to_string_lossy()).map_err(error)?;
        let tensors = layers::tensors_from_bot_order(&network.values(), &POLICY_LAYERS);
        PolicyModel::from_tensors(&tensors.map_err(error)?).map_err(error)
    }

    /// The model of `tensors` (named and shaped as [`POLICY_TENSORS`]).
    pub fn from_tensors(tensors: &HashMap<String, Tensor>) -> Result<PolicyModel, String> {
        let vars = layers::variables(tensors, POLICY_TENSORS.map(|(name, _)| name))?;
        Ok(PolicyModel {
            input: layers::layer(&vars, FEATURE_COUNT, HIDDEN, "input")?,
            heads: layers::layer(&vars, HIDDEN, OUTPUTS, "heads")?,
            vars,
        })
    }

    /// The variables, for the optimiser (in [`POLICY_TENSORS`]' order).
    pub fn variables(&self) -> Vec<Var> {
        let data = self.vars.data().lock().expect("no poisoned lock");
        POLICY_TENSORS
            .iter()
            .filter_map(|(name, _)| data.get(*name).cloned())
            .collect()
    }

    /// The model saved in `path`: one line for a missing file, a missing tensor (a head) or one
    /// of another shape or type.
    pub fn load(path: &Path) -> Result<PolicyModel, String> {
        let tensors = candle_core::safetensors::load(path, &Device::Cpu).map_err(|error| {
            format!(
                "cannot read the policy model {}: {}",
                path.display(),
                candle_error(error)
            )
        })?;
        for (name, shape) in POLICY_TENSORS {
            match tensors.get(name) {
                None => {
                    return Err(format!(
                        "policy model {}: no tensor {name} (a head is missing: not a model of \
                         this network)",
                        path.display()
                    ))
                }
                Some(tensor) if tensor.dims() != shape || tensor.dtype() != DType::F32 => {
                    return Err(format!(
                        "policy model {}: tensor {name} is {:?} {:?}, this network's is f32 {:?}",
                        path.display(),
                        tensor.dtype(),
                        tensor.dims(),
                        shape
                    ))
                }
                Some(_) => {}
            }
        }
        PolicyModel::from_tensors(&tensors)
            .map_err(|error| format!("policy model {}: {error}", path.display()))
    }

    /// Saves to `path` whole or not at all.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        layers::save(&self.vars, path)
    }

    /// The outputs (logits) of each row of `inputs` (`[n, FEATURE_COUNT]`): `[n, OUTPUTS]`.
    pub fn forward(&self, inputs: &Tensor) -> candle_core::Result<Tensor> {
        self.heads.forward(&self.input.forward(inputs)?.relu()?)
    }

    /// The loss of `inputs` against `visits` (`[n, 20]`), `values` and `masks` (`[n, 2]`): per
    /// masked-in slot, the cross-entropy of its action logits against its visit distribution
    /// plus [`VALUE_LOSS_WEIGHT`] × the log-loss of its value logit; the mean over slots in.
    /// Returns `(total, policy part, value part)`.
    pub fn loss(
        &self,
        inputs: &Tensor,
        visits: &Tensor,
        values: &Tensor,
        masks: &Tensor,
    ) -> candle_core::Result<(Tensor, Tensor, Tensor)> {
        let out = self.forward(inputs)?;
        let slots = masks.sum_all()?.affine(1.0, 1e-9)?;
        let mut cross_entropy = Vec::new();
        for slot in 0..2 {
            let logits = out.narrow(1, slot * ACTION_COUNT, ACTION_COUNT)?;
            let log_priors = candle_nn::ops::log_softmax(&logits, 1)?;
            let target = visits.narrow(1, slot * ACTION_COUNT, ACTION_COUNT)?;
            cross_entropy.push((target * log_priors)?.sum(1)?.neg()?);
        }
        let cross_entropy = Tensor::stack(&cross_entropy, 1)?;
        let policy = (cross_entropy * masks)?.sum_all()?.div(&slots)?;
        let value_logits = out.narrow(1, VALUE_OUTPUTS, 2)?;
        let log_loss = layers::log_losses(&value_logits, values)?;
        let value = (log_loss * masks)?.sum_all()?.div(&slots)?;
        let total = (&policy + value.affine(VALUE_LOSS_WEIGHT, 0.0)?)?;
        Ok((total, policy, value))
    }

    /// The values of tensor `name`, weights transposed to the bot's input-major order
    /// ([`layers::bot_order`]).
    fn bot_order(&self, name: &str) -> Result<Vec<f32>, String> {
        layers::bot_order(&self.vars, name)
    }

    /// The bot's network of this model (the same weights, not quantised).
    pub fn bot_network(&self) -> Result<PolicyNetwork, String> {
        let mut network = PolicyNetwork::zeros();
        let input = self.bot_order("input.weight")?;
        for (row, values) in network.input.weights.iter_mut().zip(input.chunks(HIDDEN)) {
            row.copy_from_slice(values);
        }
        network
            .input
            .biases
            .copy_from_slice(&self.bot_order("input.bias")?);
        let heads = self.bot_order("heads.weight")?;
        for (row, values) in network.heads.weights.iter_mut().zip(heads.chunks(OUTPUTS)) {
            row.copy_from_slice(values);
        }
        network
            .heads
            .biases
            .copy_from_slice(&self.bot_order("heads.bias")?);
        Ok(network)
    }
}
