//! How wide a policy is, as its file or the embedded weights say it, and how a narrower policy
//! sits in the bot's layers. The bot's layers have fixed widths ([`HIDDEN`], [`ACTION_HIDDEN`]):
//! a policy trained narrower is read into them with zeros in the units it lacks, which add
//! nothing to any sum (`x + 0 × 0 = x`), so it plays as it did at its own width. A network's
//! [`effective`] widths drop the trailing units that weigh nothing either way, so a file or the
//! embedded weights hold only the units a policy uses: a narrow policy written back stays
//! narrow, and the bundle carries no zeros.

use super::action_inputs::{ACTION_HIDDEN, ACTION_INPUTS, ACTION_MIDDLE, FIRST_ACTION_INPUTS};
use super::network::{PolicyNetwork, HIDDEN, OUTPUTS};
use crate::bot::value_net::features::FEATURE_COUNT;

/// The action layers' width in every policy file written before files said it.
pub use super::shape::FIRST_ACTION_HIDDEN;

/// A policy's widths: its inputs, its position's hidden layer, its inputs per action, its
/// action layers' hidden layer and their second layer (0: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Widths {
    pub inputs: usize,
    pub hidden: usize,
    pub action_inputs: usize,
    pub action_hidden: usize,
    pub action_middle: usize,
}

impl Widths {
    /// The bot's own.
    pub const FULL: Widths = Widths {
        inputs: FEATURE_COUNT,
        hidden: HIDDEN,
        action_inputs: ACTION_INPUTS,
        action_hidden: ACTION_HIDDEN,
        action_middle: ACTION_MIDDLE,
    };

    /// The widths of a file that says only its shape line (inputs and hidden): every file
    /// before the action layers' widths were written, whose action layers read
    /// [`FIRST_ACTION_INPUTS`] into [`FIRST_ACTION_HIDDEN`].
    pub fn first_files(inputs: usize, hidden: usize) -> Widths {
        Widths {
            inputs,
            hidden,
            action_inputs: FIRST_ACTION_INPUTS,
            action_hidden: FIRST_ACTION_HIDDEN,
            action_middle: 0,
        }
    }

    /// The dimensions of the position layers' tensors (`file.rs`' `TENSOR_NAMES` order), each
    /// row-major: the input layer's weights (input × hidden) and biases, the heads'.
    pub fn network_dims(&self) -> Vec<Vec<usize>> {
        vec![
            vec![self.inputs, self.hidden],
            vec![self.hidden],
            vec![self.hidden, OUTPUTS],
            vec![OUTPUTS],
        ]
    }

    /// The dimensions of the action layers' tensors (`ACTION_TENSOR_SIZES`' order). The heads
    /// read the hidden units, or the second layer's where there is one; their rows are as many
    /// as the wider of the two (past the second layer's units, zeros), so that the bot's layers
    /// hold either.
    pub fn action_dims(&self) -> Vec<Vec<usize>> {
        vec![
            vec![self.action_inputs, self.action_hidden],
            vec![self.action_hidden],
            vec![self.action_hidden.max(self.action_middle), 2],
            vec![2],
        ]
    }

    /// The dimensions of the second action layer's tensors (`MIDDLE_TENSOR_SIZES`' order).
    pub fn middle_dims(&self) -> Vec<Vec<usize>> {
        vec![
            vec![self.action_hidden, self.action_middle],
            vec![self.action_middle],
        ]
    }

    /// The dimensions of the context layer's tensors: per position unit, per slot, per action
    /// unit; then per slot, per action unit.
    pub fn context_dims(&self) -> Vec<Vec<usize>> {
        vec![
            vec![self.hidden, 2, self.action_hidden],
            vec![2, self.action_hidden],
        ]
    }

    /// The dimensions of every tensor a file may hold, in its order: the position layers', the
    /// action layers', the context layer's, the second action layer's.
    pub fn dims(&self) -> Vec<Vec<usize>> {
        [
            self.network_dims(),
            self.action_dims(),
            self.context_dims(),
            self.middle_dims(),
        ]
        .concat()
    }

    /// The dimensions of the tensors `network` has, in [`PolicyNetwork::values_with_actions`]'
    /// order.
    fn dims_of(&self, network: &PolicyNetwork) -> Vec<Vec<usize>> {
        let mut dims = self.network_dims();
        if let Some(layers) = &network.actions {
            dims.extend(self.action_dims());
            if layers.context.is_some() {
                dims.extend(self.context_dims());
            }
            if layers.middle.is_some() {
                dims.extend(self.middle_dims());
            }
        }
        dims
    }

    /// Values per tensor of each group's dimensions.
    pub fn sizes(dims: &[Vec<usize>]) -> Vec<usize> {
        dims.iter().map(|dims| dims.iter().product()).collect()
    }

    /// Whether the bot's layers hold a policy of these widths: one line saying why not.
    pub fn check_fits(&self) -> Result<(), String> {
        let fits = |name: &str, width: usize, most: usize| {
            if (1..=most).contains(&width) {
                Ok(())
            } else {
                Err(format!(
                    "the file's {name} is {width} wide, this bot's holds 1 to {most}"
                ))
            }
        };
        fits("hidden layer", self.hidden, HIDDEN)?;
        fits("inputs per action", self.action_inputs, ACTION_INPUTS)?;
        fits(
            "action layers' hidden layer",
            self.action_hidden,
            ACTION_HIDDEN,
        )?;
        if self.action_middle > ACTION_MIDDLE {
            return Err(format!(
                "the file's second action layer is {} wide, this bot's holds 1 to {ACTION_MIDDLE}",
                self.action_middle
            ));
        }
        Ok(())
    }
}

/// `values`, a row-major array of dimensions `from`, as one of dimensions `to` (as many
/// dimensions): each element whose index lies in both keeps its value, the rest of `to` is
/// zero. Widening pads, narrowing crops.
pub fn resized(values: &[f32], from: &[usize], to: &[usize]) -> Vec<f32> {
    debug_assert_eq!(from.len(), to.len());
    let from_size: usize = from.iter().product();
    debug_assert_eq!(values.len(), from_size);
    // The index in `to` of the element at `flat` in `from`, if `to` holds it.
    let target = |flat: usize| {
        let (mut rest, mut target, mut stride) = (flat, 0, 1);
        for (&from_dim, &to_dim) in from.iter().zip(to).rev() {
            let index = rest % from_dim;
            rest /= from_dim;
            if index >= to_dim {
                return None;
            }
            target += index * stride;
            stride *= to_dim;
        }
        Some(target)
    };
    let mut out = vec![0.0; to.iter().product()];
    for (flat, &value) in values.iter().enumerate() {
        if let Some(index) = target(flat) {
            out[index] = value;
        }
    }
    out
}

/// `values`, tensors of dimensions `from` one after another, as tensors of dimensions `to`
/// ([`resized`] each).
pub fn regrouped(values: &[f32], from: &[Vec<usize>], to: &[Vec<usize>]) -> Vec<f32> {
    let mut out = Vec::new();
    let mut rest = values;
    for (from, to) in from.iter().zip(to) {
        let (tensor, after) = rest.split_at(from.iter().product());
        rest = after;
        out.extend(resized(tensor, from, to));
    }
    out
}

/// `network` with every unit and input past `widths` zeroed: the network a file of those widths
/// holding `network`'s first units reads as (its effective widths at most `widths`).
pub fn narrowed(network: &PolicyNetwork, widths: Widths) -> PolicyNetwork {
    let (full, narrow) = (Widths::FULL.dims_of(network), widths.dims_of(network));
    let cut = regrouped(&network.values_with_actions(), &full, &narrow);
    PolicyNetwork::from_values_with_actions(&regrouped(&cut, &narrow, &full))
}

/// The narrowest widths that hold `network` exactly: past them every unit's weights in and out
/// are zero, and every input per action weighs nothing (at least one of each).
pub fn effective(network: &PolicyNetwork) -> Widths {
    let context = network
        .actions
        .as_ref()
        .and_then(|layers| layers.context.as_ref());
    let position_unit_used = |unit: usize| {
        network.input.weights.iter().any(|row| row[unit] != 0.0)
            || network.input.biases[unit] != 0.0
            || network.heads.weights[unit].iter().any(|&w| w != 0.0)
            || context.is_some_and(|layer| layer.weights[unit].iter().any(|&w| w != 0.0))
    };
    let middle = network
        .actions
        .as_ref()
        .and_then(|layers| layers.middle.as_ref());
    let action_unit_used = |unit: usize| {
        network.actions.as_ref().is_some_and(|layers| {
            let slot_columns = [unit, ACTION_HIDDEN + unit];
            // The unit's outputs: into the second layer where there is one, else the heads.
            let read = match middle {
                Some(middle) => middle.weights[unit].iter().any(|&w| w != 0.0),
                None => layers.heads.weights[unit].iter().any(|&w| w != 0.0),
            };
            layers.input.weights.iter().any(|row| row[unit] != 0.0)
                || layers.input.biases[unit] != 0.0
                || read
                || layers.context.as_ref().is_some_and(|layer| {
                    slot_columns.iter().any(|&column| {
                        layer.biases[column] != 0.0
                            || layer.weights.iter().any(|row| row[column] != 0.0)
                    })
                })
        })
    };
    // A unit of the second layer without weights in or bias is 0 after its ReLU: its heads'
    // row weighs nothing either way.
    let middle_unit_used = |unit: usize| {
        middle.is_some_and(|middle| {
            middle.weights.iter().any(|row| row[unit] != 0.0) || middle.biases[unit] != 0.0
        })
    };
    let action_input_used = |input: usize| {
        network
            .actions
            .as_ref()
            .is_some_and(|layers| layers.input.weights[input].iter().any(|&w| w != 0.0))
    };
    let width = |most: usize, used: &dyn Fn(usize) -> bool| {
        (0..most)
            .rev()
            .find(|&unit| used(unit))
            .map_or(1, |unit| unit + 1)
    };
    Widths {
        inputs: FEATURE_COUNT,
        hidden: width(HIDDEN, &position_unit_used),
        action_inputs: width(ACTION_INPUTS, &action_input_used),
        action_hidden: width(ACTION_HIDDEN, &action_unit_used),
        action_middle: match middle {
            Some(_) => width(ACTION_MIDDLE, &middle_unit_used),
            None => 0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::policy_net::network::tests::random_network_with_middle;

    #[test]
    fn resizing_pads_and_crops_every_dimension() {
        // 2 × 3 → 3 × 2: the common 2 × 2 corner kept.
        let values = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        assert_eq!(
            resized(&values, &[2, 3], &[3, 2]),
            vec![1.0, 2.0, 4.0, 5.0, 0.0, 0.0]
        );
        let cube: Vec<f32> = (0..12).map(|v| v as f32).collect();
        let wide = resized(&cube, &[2, 2, 3], &[3, 2, 5]);
        assert_eq!(resized(&wide, &[3, 2, 5], &[2, 2, 3]), cube);
        assert_eq!(wide[5..10], [3.0, 4.0, 5.0, 0.0, 0.0]);
    }

    /// A network narrowed to units it lacks is read back as itself: its effective widths are
    /// those of the units left, and padding them back gives the same weights.
    #[test]
    fn a_narrowed_network_has_its_narrow_widths() {
        let network = random_network_with_middle(21);
        assert_eq!(effective(&network), Widths::FULL);
        let narrow = Widths {
            inputs: FEATURE_COUNT,
            hidden: HIDDEN / 2 - 3,
            action_inputs: FIRST_ACTION_INPUTS,
            action_hidden: ACTION_HIDDEN / 2 + 1,
            action_middle: ACTION_MIDDLE / 2 - 1,
        };
        let full = Widths::FULL;
        let values = network.values_with_actions();
        let cut = regrouped(&values, &full.dims(), &narrow.dims());
        let padded = narrowed(&network, narrow);
        assert_eq!(effective(&padded), narrow);
        assert_ne!(padded, network);
        let again = regrouped(&padded.values_with_actions(), &full.dims(), &narrow.dims());
        assert_eq!(again, cut);
    }

    #[test]
    fn widths_past_the_bot_are_refused_with_one_line() {
        let wide = Widths {
            hidden: HIDDEN + 1,
            ..Widths::FULL
        };
        let error = wide.check_fits().unwrap_err();
        assert!(
            error.contains("hidden layer is") && !error.contains('\n'),
            "{error}"
        );
        assert!(Widths::FULL.check_fits().is_ok());
        let empty = Widths {
            action_hidden: 0,
            ..Widths::FULL
        };
        assert!(empty.check_fits().is_err());
        let more_inputs = Widths {
            action_inputs: ACTION_INPUTS + 1,
            ..Widths::FULL
        };
        let error = more_inputs.check_fits().unwrap_err();
        assert!(error.contains("inputs per action is"), "{error}");
        let wide_middle = Widths {
            action_middle: ACTION_MIDDLE + 1,
            ..Widths::FULL
        };
        let error = wide_middle.check_fits().unwrap_err();
        assert!(error.contains("second action layer is"), "{error}");
        let no_middle = Widths {
            action_middle: 0,
            ..Widths::FULL
        };
        assert!(no_middle.check_fits().is_ok());
    }
}
