//! The policy network in candle: the shape of the bot's (`csb::bot::policy_net::network`: one
//! view's inputs → hidden (ReLU) → each own pod's 10 action logits and its value logit), seeded
//! initial weights, the loss (cross-entropy of each pod's action logits against its root visit
//! distribution, plus the log-loss of its value against its root's mean score), saving and
//! loading with each tensor's shape checked, and the bot's network of it (exactly its weights).
//! With inputs per action (`--action-inputs`), the action layers
//! (`csb::bot::policy_net::action_inputs`) score each action and their score is added to its
//! logit; they begin with zero output weights, so a model begins as the network without them.
//! With a context layer (`--action-context`), the position's hidden layer adds to the action
//! layer's hidden units per slot (`ActionLayers::context`); it begins at zero, adding nothing.
//! With a second action layer (`--action-middle`), the action layer's hidden units (after their
//! ReLU) go through [`ACTION_MIDDLE`] more units (ReLU) before the heads, which then read those
//! (`ActionLayers::middle`); the heads begin at zero all the same. A warm start from a parent
//! without one gets a cold second layer and heads of zero: its action scores start over.
//! A warm start from a policy narrower than the bot's layers (`policy_net::widths`) gives the
//! units it lacks the inputs a cold start would draw and outputs of zero: the model begins as
//! the parent plays, and the new units learn.

use crate::common::layers::{self, candle_error};
use candle_core::{DType, Device, Module, Tensor, Var};
use candle_nn::{Linear, VarMap};
use csb::bot::actions::ACTION_COUNT;
use csb::bot::policy_net::action_inputs::{
    ActionLayers, ACTION_HIDDEN, ACTION_INPUTS, ACTION_MIDDLE, ACTION_TENSOR_SIZES,
    CONTEXT_OUTPUTS, CONTEXT_TENSOR_SIZES,
};
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

/// The action layers' tensors, in candle's shapes.
pub const ACTION_TENSORS: [(&str, &[usize]); 4] = [
    ("actions.input.weight", &[ACTION_HIDDEN, ACTION_INPUTS]),
    ("actions.input.bias", &[ACTION_HIDDEN]),
    ("actions.heads.weight", &[2, ACTION_HIDDEN]),
    ("actions.heads.bias", &[2]),
];

/// The context layer's tensors, in candle's shapes.
pub const CONTEXT_TENSORS: [(&str, &[usize]); 2] = [
    ("actions.context.weight", &[CONTEXT_OUTPUTS, HIDDEN]),
    ("actions.context.bias", &[CONTEXT_OUTPUTS]),
];

/// The context layer: name, inputs, outputs.
const CONTEXT_LAYERS: [(&str, usize, usize); 1] = [("actions.context", HIDDEN, CONTEXT_OUTPUTS)];

/// The action layers: name, inputs, outputs.
const ACTION_LAYERS: [(&str, usize, usize); 2] = [
    ("actions.input", ACTION_INPUTS, ACTION_HIDDEN),
    ("actions.heads", ACTION_HIDDEN, 2),
];

/// The second action layer's tensors, in candle's shapes (the heads then read its units:
/// `actions.heads.weight` is `[2, ACTION_MIDDLE]`).
pub const MIDDLE_TENSORS: [(&str, &[usize]); 2] = [
    ("actions.middle.weight", &[ACTION_MIDDLE, ACTION_HIDDEN]),
    ("actions.middle.bias", &[ACTION_MIDDLE]),
];

/// The action layers with a second layer: name, inputs, outputs.
const MIDDLE_ACTION_LAYERS: [(&str, usize, usize); 3] = [
    ("actions.input", ACTION_INPUTS, ACTION_HIDDEN),
    ("actions.middle", ACTION_HIDDEN, ACTION_MIDDLE),
    ("actions.heads", ACTION_MIDDLE, 2),
];

/// Drawn with the seed for the second action layer's initial weights.
const MIDDLE_SEED: u64 = 0xdee9_0002;

/// Drawn with the seed for the action layers' initial weights (so the position layers' draws are
/// those of a model without them).
const ACTION_SEED: u64 = 0xac71_0000;

/// How many units the action heads read: the second layer's where there is one, else the
/// action layer's.
fn heads_inputs(has_middle: bool) -> usize {
    if has_middle {
        ACTION_MIDDLE
    } else {
        ACTION_HIDDEN
    }
}

/// Weight of the value heads' loss beside the policy's.
pub const VALUE_LOSS_WEIGHT: f64 = 1.0;

/// The policy network and its variables.
pub struct PolicyModel {
    pub vars: VarMap,
    input: Linear,
    heads: Linear,
    /// The action layers (input, heads), in a model with inputs per action.
    actions: Option<(Linear, Linear)>,
    /// The context layer, in a model with one.
    context: Option<Linear>,
    /// The second action layer, in a model with one.
    middle: Option<Linear>,
}

/// The context layer's initial tensors: zeros (it adds nothing until trained).
fn initial_context_tensors() -> Result<HashMap<String, Tensor>, String> {
    let mut tensors = layers::initial_tensors(0, &CONTEXT_LAYERS)?;
    for (name, _) in CONTEXT_TENSORS {
        let zeros = tensors[name].zeros_like().map_err(candle_error)?;
        tensors.insert(name.to_string(), zeros);
    }
    Ok(tensors)
}

/// `tensors`' heads (`actions.heads.*`) set to zeros of their shapes.
fn zero_action_heads(tensors: &mut HashMap<String, Tensor>) -> Result<(), String> {
    for name in ["actions.heads.weight", "actions.heads.bias"] {
        let zeros = tensors[name].zeros_like().map_err(candle_error)?;
        tensors.insert(name.to_string(), zeros);
    }
    Ok(())
}

/// The action layers' initial tensors from `seed`: He's weights in the first, zeros in the
/// heads (they add nothing until trained).
fn initial_action_tensors(seed: u64) -> Result<HashMap<String, Tensor>, String> {
    let mut tensors = layers::initial_tensors(seed ^ ACTION_SEED, &ACTION_LAYERS)?;
    zero_action_heads(&mut tensors)?;
    Ok(tensors)
}

/// A second action layer's initial tensors from `seed` (He's weights), and the heads that read
/// it, at zero.
fn initial_middle_tensors(seed: u64) -> Result<HashMap<String, Tensor>, String> {
    let mut tensors = layers::initial_tensors(seed ^ MIDDLE_SEED, &MIDDLE_ACTION_LAYERS[1..])?;
    zero_action_heads(&mut tensors)?;
    Ok(tensors)
}

/// Gives the units past `network`'s effective widths (the zeros a narrower file is read with)
/// the input weights and biases of a cold start from `seed`, their output weights left at zero:
/// the network computes what it did, and a gradient reaches the new units (a unit of zero
/// inputs and outputs would stay at zero).
fn widen_unused_units(network: &mut PolicyNetwork, seed: u64) -> Result<(), String> {
    let widths = csb::bot::policy_net::widths::effective(network);
    let has_actions = network.actions.is_some();
    let has_middle = network
        .actions
        .as_ref()
        .is_some_and(|layers| layers.middle.is_some());
    let fresh = PolicyModel::initial(seed, has_actions, false, has_middle)?.bot_network()?;
    for unit in widths.hidden..HIDDEN {
        for (row, fresh_row) in network.input.weights.iter_mut().zip(&fresh.input.weights) {
            row[unit] = fresh_row[unit];
        }
        network.input.biases[unit] = fresh.input.biases[unit];
    }
    if let (Some(layers), Some(fresh)) = (network.actions.as_mut(), fresh.actions.as_ref()) {
        for unit in widths.action_hidden..ACTION_HIDDEN {
            for (row, fresh_row) in layers.input.weights.iter_mut().zip(&fresh.input.weights) {
                row[unit] = fresh_row[unit];
            }
            layers.input.biases[unit] = fresh.input.biases[unit];
        }
        if let (Some(middle), Some(fresh)) = (layers.middle.as_mut(), fresh.middle.as_ref()) {
            for unit in widths.action_middle..ACTION_MIDDLE {
                for (row, fresh_row) in middle.weights.iter_mut().zip(&fresh.weights) {
                    row[unit] = fresh_row[unit];
                }
                middle.biases[unit] = fresh.biases[unit];
            }
        }
    }
    Ok(())
}

impl PolicyModel {
    /// Initial weights from the project's seeded generator ([`layers::initial_tensors`]:
    /// He's normal weights, biases uniform in ±1/√inputs); one seed, one network.
    /// With `action_inputs`, the action layers too ([`initial_action_tensors`]).
    /// With `action_context` (which implies `action_inputs`), a context layer of zeros too.
    /// With `action_middle` (which implies `action_inputs`), a second action layer
    /// ([`initial_middle_tensors`]).
    pub fn initial(
        seed: u64,
        action_inputs: bool,
        action_context: bool,
        action_middle: bool,
    ) -> Result<PolicyModel, String> {
        let mut tensors = layers::initial_tensors(seed, &POLICY_LAYERS)?;
        if action_inputs || action_context || action_middle {
            tensors.extend(initial_action_tensors(seed)?);
        }
        if action_context {
            tensors.extend(initial_context_tensors()?);
        }
        if action_middle {
            tensors.extend(initial_middle_tensors(seed)?);
        }
        PolicyModel::from_tensors(&tensors)
    }

    /// The model of the policy file `path` (`csb --policy-net`'s format, as `learn
    /// export-policy` writes it): a generation's policy as the initial weights of the next
    /// training (`learn train-policy --init`). The file's action layers if it has them; else,
    /// with `action_inputs`, new ones from `seed` that add nothing yet. The file's second action
    /// layer if it has one; else, with `action_middle`, a new one from `seed` and heads of zero.
    /// One line for a missing file or one that is not a policy of this shape.
    pub fn from_policy_file(
        path: &Path,
        action_inputs: bool,
        action_context: bool,
        action_middle: bool,
        seed: u64,
    ) -> Result<PolicyModel, String> {
        let error = |message: String| format!("--init {}: {message}", path.display());
        let mut network =
            csb::bot::policy_net::file::load(&path.to_string_lossy()).map_err(error)?;
        widen_unused_units(&mut network, seed)?;
        let mut tensors =
            layers::tensors_from_bot_order(&network.values(), &POLICY_LAYERS).map_err(error)?;
        match &network.actions {
            Some(actions) => {
                let values = actions.values();
                let (own, rest) = values.split_at(ACTION_TENSOR_SIZES.iter().sum());
                let context_size = match actions.context {
                    Some(_) => CONTEXT_TENSOR_SIZES.iter().sum(),
                    None => 0,
                };
                let (context, middle) = rest.split_at(context_size);
                match actions.middle {
                    Some(_) => {
                        // The heads read the second layer's units: their first rows.
                        let [input_size, input_biases, _, _] = ACTION_TENSOR_SIZES;
                        let input = &own[..input_size + input_biases];
                        let heads = &own[input_size + input_biases..];
                        let (heads_weights, heads_biases) = heads.split_at(heads.len() - 2);
                        let ordered = [
                            input,
                            middle,
                            &heads_weights[..ACTION_MIDDLE * 2],
                            heads_biases,
                        ]
                        .concat();
                        tensors.extend(
                            layers::tensors_from_bot_order(&ordered, &MIDDLE_ACTION_LAYERS)
                                .map_err(error)?,
                        );
                    }
                    None => {
                        tensors.extend(
                            layers::tensors_from_bot_order(own, &ACTION_LAYERS).map_err(error)?,
                        );
                        if action_middle {
                            tensors.extend(initial_middle_tensors(seed)?);
                        }
                    }
                }
                if !context.is_empty() {
                    tensors.extend(
                        layers::tensors_from_bot_order(context, &CONTEXT_LAYERS).map_err(error)?,
                    );
                } else if action_context {
                    tensors.extend(initial_context_tensors()?);
                }
            }
            None if action_inputs || action_context || action_middle => {
                tensors.extend(initial_action_tensors(seed)?);
                if action_context {
                    tensors.extend(initial_context_tensors()?);
                }
                if action_middle {
                    tensors.extend(initial_middle_tensors(seed)?);
                }
            }
            None => {}
        }
        PolicyModel::from_tensors(&tensors).map_err(error)
    }

    /// The model of `tensors` (named and shaped as [`POLICY_TENSORS`], and with
    /// [`ACTION_TENSORS`] if it has action layers).
    pub fn from_tensors(tensors: &HashMap<String, Tensor>) -> Result<PolicyModel, String> {
        let has_actions = tensors.contains_key(ACTION_TENSORS[0].0);
        let has_context = has_actions && tensors.contains_key(CONTEXT_TENSORS[0].0);
        let has_middle = has_actions && tensors.contains_key(MIDDLE_TENSORS[0].0);
        let names: Vec<&str> = POLICY_TENSORS
            .iter()
            .chain(ACTION_TENSORS.iter().filter(|_| has_actions))
            .chain(CONTEXT_TENSORS.iter().filter(|_| has_context))
            .chain(MIDDLE_TENSORS.iter().filter(|_| has_middle))
            .map(|(name, _)| *name)
            .collect();
        let vars = layers::variables(tensors, names)?;
        let context = if has_context {
            Some(layers::layer(
                &vars,
                HIDDEN,
                CONTEXT_OUTPUTS,
                "actions.context",
            )?)
        } else {
            None
        };
        let actions = if has_actions {
            Some((
                layers::layer(&vars, ACTION_INPUTS, ACTION_HIDDEN, "actions.input")?,
                layers::layer(&vars, heads_inputs(has_middle), 2, "actions.heads")?,
            ))
        } else {
            None
        };
        let middle = if has_middle {
            Some(layers::layer(
                &vars,
                ACTION_HIDDEN,
                ACTION_MIDDLE,
                "actions.middle",
            )?)
        } else {
            None
        };
        Ok(PolicyModel {
            input: layers::layer(&vars, FEATURE_COUNT, HIDDEN, "input")?,
            heads: layers::layer(&vars, HIDDEN, OUTPUTS, "heads")?,
            actions,
            context,
            middle,
            vars,
        })
    }

    /// Whether the model has action layers.
    pub fn has_action_layers(&self) -> bool {
        self.actions.is_some()
    }

    /// The variables, for the optimiser (in [`POLICY_TENSORS`]' order, then
    /// [`ACTION_TENSORS`]').
    pub fn variables(&self) -> Vec<Var> {
        let data = self.vars.data().lock().expect("no poisoned lock");
        POLICY_TENSORS
            .iter()
            .chain(ACTION_TENSORS.iter())
            .chain(CONTEXT_TENSORS.iter())
            .chain(MIDDLE_TENSORS.iter())
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
        let has_actions = ACTION_TENSORS
            .iter()
            .any(|(name, _)| tensors.contains_key(*name));
        let has_context = has_actions
            && CONTEXT_TENSORS
                .iter()
                .any(|(name, _)| tensors.contains_key(*name));
        let has_middle = has_actions
            && MIDDLE_TENSORS
                .iter()
                .any(|(name, _)| tensors.contains_key(*name));
        let middle_heads: [(&str, &[usize]); 1] = [("actions.heads.weight", &[2, ACTION_MIDDLE])];
        let expected = POLICY_TENSORS
            .iter()
            .chain(ACTION_TENSORS.iter().filter(|_| has_actions))
            .chain(CONTEXT_TENSORS.iter().filter(|_| has_context))
            .chain(MIDDLE_TENSORS.iter().filter(|_| has_middle))
            .map(
                |&(name, shape)| match middle_heads.iter().find(|(n, _)| *n == name) {
                    Some(&heads) if has_middle => heads,
                    _ => (name, shape),
                },
            );
        for (name, shape) in expected {
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

    /// The outputs (logits) of each row of `inputs` (`[n, FEATURE_COUNT]`): `[n, OUTPUTS]`;
    /// with action layers, each slot's action scores from `action_inputs` (`[n × 2 × 10,
    /// ACTION_INPUTS]`, by sample, slot, action) added to its action logits.
    pub fn forward(&self, inputs: &Tensor, action_inputs: &Tensor) -> candle_core::Result<Tensor> {
        let hidden = self.input.forward(inputs)?.relu()?;
        let out = self.heads.forward(&hidden)?;
        let Some((input, heads)) = &self.actions else {
            return Ok(out);
        };
        let rows = inputs.dim(0)?;
        let mut action_hidden = input.forward(action_inputs)?;
        let width = heads_inputs(self.middle.is_some());
        if let Some(context) = &self.context {
            // [n, 2 × H] → [n, 2, 1, H]: each slot's addend, alike for its ten actions.
            let added = context
                .forward(&hidden)?
                .reshape((rows, 2, 1, ACTION_HIDDEN))?;
            action_hidden = action_hidden
                .reshape((rows, 2, ACTION_COUNT, ACTION_HIDDEN))?
                .broadcast_add(&added)?
                .reshape((rows * 2 * ACTION_COUNT, ACTION_HIDDEN))?;
        }
        let mut action_hidden = action_hidden.relu()?;
        if let Some(middle) = &self.middle {
            action_hidden = middle.forward(&action_hidden)?.relu()?;
        }
        debug_assert_eq!(action_hidden.dim(1)?, width);
        // [n × 2 × 10, 2] → [n, 2, 10, 2]: slot s reads its own column.
        let scores = heads
            .forward(&action_hidden)?
            .reshape((rows, 2, ACTION_COUNT, 2))?;
        let slot_scores = (0..2)
            .map(|slot| {
                scores
                    .narrow(1, slot, 1)?
                    .narrow(3, slot, 1)?
                    .reshape((rows, ACTION_COUNT))
            })
            .collect::<candle_core::Result<Vec<Tensor>>>()?;
        let values = Tensor::zeros((rows, OUTPUTS - VALUE_OUTPUTS), DType::F32, &Device::Cpu)?;
        let added = Tensor::cat(&[&slot_scores[0], &slot_scores[1], &values], 1)?;
        out + added
    }

    /// The loss of `inputs` against `visits` (`[n, 20]`), `values` and `masks` (`[n, 2]`): per
    /// masked-in slot, the cross-entropy of its action logits against its visit distribution
    /// plus [`VALUE_LOSS_WEIGHT`] × the log-loss of its value logit; the mean over slots in.
    /// Returns `(total, policy part, value part)`.
    pub fn loss(
        &self,
        inputs: &Tensor,
        action_inputs: &Tensor,
        visits: &Tensor,
        values: &Tensor,
        masks: &Tensor,
    ) -> candle_core::Result<(Tensor, Tensor, Tensor)> {
        let out = self.forward(inputs, action_inputs)?;
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
        if self.actions.is_some() {
            let mut values = Vec::new();
            for (name, _) in ACTION_TENSORS {
                values.extend(self.bot_order(name)?);
                if name == "actions.heads.weight" && self.middle.is_some() {
                    // The bot's heads have a row per hidden unit: those past the second
                    // layer's are zero.
                    values.resize(values.len() + (ACTION_HIDDEN - ACTION_MIDDLE) * 2, 0.0);
                }
            }
            if self.context.is_some() {
                for (name, _) in CONTEXT_TENSORS {
                    values.extend(self.bot_order(name)?);
                }
            }
            if self.middle.is_some() {
                for (name, _) in MIDDLE_TENSORS {
                    values.extend(self.bot_order(name)?);
                }
            }
            network.actions = Some(ActionLayers::from_values(&values));
        }
        Ok(network)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use csb::bot::policy_net::widths::{effective, narrowed, Widths};

    /// The units a narrower parent lacks get inputs and no outputs; its own units and every
    /// output weight are the parent's.
    #[test]
    fn a_narrow_parent_is_widened_with_silent_units() {
        let parent = PolicyModel::initial(5, true, true, true)
            .unwrap()
            .bot_network()
            .unwrap();
        let narrow = Widths {
            hidden: 20,
            action_hidden: 9,
            action_middle: 13,
            ..Widths::FULL
        };
        let parent = narrowed(&parent, narrow);
        assert_eq!(effective(&parent), narrow);
        let mut widened = parent.clone();
        widen_unused_units(&mut widened, 6).unwrap();
        assert_eq!(effective(&widened), Widths::FULL);
        assert_eq!(narrowed(&widened, narrow), parent);
        assert_eq!(widened.heads, parent.heads);
        let (layers, parent_layers) = (
            widened.actions.as_ref().unwrap(),
            parent.actions.as_ref().unwrap(),
        );
        assert_eq!(layers.heads, parent_layers.heads);
        assert_eq!(layers.context, parent_layers.context);
        assert!(layers
            .input
            .weights
            .iter()
            .all(|row| row[narrow.action_hidden..].iter().any(|&w| w != 0.0)));
        let middle = layers.middle.as_ref().unwrap();
        assert!((narrow.action_middle..ACTION_MIDDLE)
            .all(|unit| middle.weights.iter().any(|row| row[unit] != 0.0)));
        // A parent of the bot's widths is left as it is.
        let mut full = widened.clone();
        widen_unused_units(&mut full, 7).unwrap();
        assert_eq!(full, widened);
    }
}
