//! The policy network's file: text, written by `learn export-policy` and read by the bot
//! (`--policy-net PATH`). Each float is written in Rust's shortest form that reads back to the
//! same bits, so the bot's network is the trained one exactly.
//!
//! ```text
//! csb-policy-net 1
//! shape <inputs> <hidden> <outputs>
//! input.weight <inputs × hidden values, input-major>
//! input.bias <hidden values>
//! heads.weight <hidden × outputs values, input-major>
//! heads.bias <outputs values>
//! actions.input.weight <action inputs × action hidden values>   (the four action lines:
//! actions.input.bias <action hidden values>                       only in a policy trained
//! actions.heads.weight <action hidden × 2 values>                 with inputs per action,
//! actions.heads.bias <2 values>                                   `action_inputs.rs`)
//! actions.context.weight <hidden × 2 action hidden values>      (the context layer: only in
//! actions.context.bias <2 action hidden values>                   a policy trained with it)
//! ```
//!
//! A file of another shape, a missing or repeated tensor or a value that is not a finite
//! number is refused with one line saying which. A file whose inputs are those before the
//! checkpoint clocks were inputs (`FEATURE_COUNT_WITHOUT_CLOCKS`, the clocks being the last
//! inputs) is read as the same network with zero weights from the clocks: it plays as it did.
//! The action layers' four lines come all together or not at all; a file without them is a
//! network without action layers. The context layer's two lines come together and only with the
//! action layers.

use super::action_inputs::{ActionLayers, ACTION_TENSOR_SIZES, CONTEXT_TENSOR_SIZES};
use super::network::{PolicyNetwork, HIDDEN, OUTPUTS, TENSOR_SIZES};
use crate::bot::value_net::features::{FEATURE_COUNT, FEATURE_COUNT_WITHOUT_CLOCKS};
use std::fmt::Write;

/// The first line of every file of this format and version.
pub const MAGIC: &str = "csb-policy-net 1";
/// The tensors in the order they are written.
pub const TENSOR_NAMES: [&str; 4] = ["input.weight", "input.bias", "heads.weight", "heads.bias"];
/// The action layers' tensors, written after the others when the network has them.
pub const ACTION_TENSOR_NAMES: [&str; 4] = [
    "actions.input.weight",
    "actions.input.bias",
    "actions.heads.weight",
    "actions.heads.bias",
];
/// The context layer's tensors (`ActionLayers::context`), after the action layers'.
pub const CONTEXT_TENSOR_NAMES: [&str; 2] = ["actions.context.weight", "actions.context.bias"];

/// Appends the lines of the tensors `names` of sizes `sizes` holding `values`, in order.
fn write_tensors<const N: usize>(
    text: &mut String,
    names: &[&str; N],
    sizes: [usize; N],
    values: &[f32],
) {
    let mut rest = values;
    for (name, size) in names.iter().zip(sizes) {
        let (values, after) = rest.split_at(size);
        rest = after;
        text.push_str(name);
        for value in values {
            let _ = write!(text, " {value:?}");
        }
        text.push('\n');
    }
}

/// The file's text for `network`.
pub fn write_text(network: &PolicyNetwork) -> String {
    let mut text = format!("{MAGIC}\nshape {FEATURE_COUNT} {HIDDEN} {OUTPUTS}\n");
    write_tensors(&mut text, &TENSOR_NAMES, TENSOR_SIZES, &network.values());
    if let Some(layers) = &network.actions {
        write_tensors(
            &mut text,
            &ACTION_TENSOR_NAMES,
            ACTION_TENSOR_SIZES,
            &layers.values(),
        );
        if let Some(context) = &layers.context {
            let mut values = Vec::new();
            context.append_values(&mut values);
            write_tensors(
                &mut text,
                &CONTEXT_TENSOR_NAMES,
                CONTEXT_TENSOR_SIZES,
                &values,
            );
        }
    }
    text
}

/// The network of the file text `text`; the error is one line (without the file's name).
pub fn parse_text(text: &str) -> Result<PolicyNetwork, String> {
    let mut lines = text.lines();
    if lines.next().map(str::trim) != Some(MAGIC) {
        return Err(format!(
            "not a policy network file (first line is not \"{MAGIC}\")"
        ));
    }
    let expected_shape = format!("shape {FEATURE_COUNT} {HIDDEN} {OUTPUTS}");
    let older_shape = format!("shape {FEATURE_COUNT_WITHOUT_CLOCKS} {HIDDEN} {OUTPUTS}");
    let mut sizes = TENSOR_SIZES;
    match lines.next().map(str::trim) {
        Some(shape) if shape == expected_shape => {}
        Some(shape) if shape == older_shape => sizes[0] = FEATURE_COUNT_WITHOUT_CLOCKS * HIDDEN,
        Some(shape) => {
            return Err(format!(
                "the file's network has \"{shape}\", this bot's is \"{expected_shape}\" \
                 (inputs, hidden, outputs)"
            ))
        }
        None => return Err("no shape line".to_string()),
    }
    let names: Vec<&str> = TENSOR_NAMES
        .into_iter()
        .chain(ACTION_TENSOR_NAMES)
        .chain(CONTEXT_TENSOR_NAMES)
        .collect();
    let sizes: Vec<usize> = sizes
        .into_iter()
        .chain(ACTION_TENSOR_SIZES)
        .chain(CONTEXT_TENSOR_SIZES)
        .collect();
    let mut tensors: [Option<Vec<f32>>; 10] = Default::default();
    for (line_index, line) in lines.enumerate() {
        let mut fields = line.split_whitespace();
        let Some(name) = fields.next() else { continue };
        let line_number = line_index + 3;
        let index = names
            .iter()
            .position(|&known| known == name)
            .ok_or_else(|| format!("line {line_number}: unknown tensor \"{name}\""))?;
        if tensors[index].is_some() {
            return Err(format!("line {line_number}: tensor {name} given twice"));
        }
        let values = fields
            .map(|field| field.parse::<f32>().ok().filter(|value| value.is_finite()))
            .collect::<Option<Vec<f32>>>()
            .ok_or_else(|| {
                format!("line {line_number}: {name} holds a value that is not a finite number")
            })?;
        if values.len() != sizes[index] {
            return Err(format!(
                "line {line_number}: {name} has {} values, this network's has {}",
                values.len(),
                sizes[index]
            ));
        }
        tensors[index] = Some(values);
    }
    let (network_tensors, action_tensors) = tensors.split_at_mut(4);
    let (action_tensors, context_tensors) = action_tensors.split_at_mut(4);
    if let Some(missing) = network_tensors.iter().position(Option::is_none) {
        return Err(format!(
            "no tensor {} (a head is missing)",
            TENSOR_NAMES[missing]
        ));
    }
    let action_count = action_tensors.iter().filter(|t| t.is_some()).count();
    if action_count != 0 && action_count != 4 {
        let missing = action_tensors.iter().position(Option::is_none).unwrap_or(0);
        return Err(format!(
            "no tensor {} (the action layers' four tensors come together)",
            ACTION_TENSOR_NAMES[missing]
        ));
    }
    // An older file's input rows end before the clocks' rows: those weigh nothing.
    let context_count = context_tensors.iter().filter(|t| t.is_some()).count();
    if context_count == 1 || (context_count == 2 && action_count == 0) {
        let missing = context_tensors
            .iter()
            .position(Option::is_none)
            .unwrap_or(0);
        return Err(if context_count == 1 {
            format!(
                "no tensor {} (the context layer's two tensors come together)",
                CONTEXT_TENSOR_NAMES[missing]
            )
        } else {
            "a context layer without the action layers it feeds".to_string()
        });
    }
    if let Some(input_weights) = network_tensors[0].as_mut() {
        input_weights.resize(TENSOR_SIZES[0], 0.0);
    }
    let values: Vec<f32> = network_tensors
        .iter()
        .flatten()
        .flatten()
        .copied()
        .collect();
    let mut network = PolicyNetwork::from_values(&values);
    if action_count == 4 {
        let values: Vec<f32> = action_tensors
            .iter()
            .chain(context_tensors.iter())
            .flatten()
            .flatten()
            .copied()
            .collect();
        network.actions = Some(ActionLayers::from_values(&values));
    }
    Ok(network)
}

/// The network of the file `path`; the error is one line naming the file.
pub fn load(path: &str) -> Result<PolicyNetwork, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read the policy network {path}: {error}"))?;
    parse_text(&text).map_err(|error| format!("policy network {path}: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::policy_net::network::tests::{
        random_network, random_network_with_actions, random_network_with_context,
    };

    #[test]
    fn a_network_reads_back_bit_for_bit() {
        let network = random_network(9);
        assert_eq!(parse_text(&write_text(&network)).unwrap(), network);
        let network = random_network_with_actions(9);
        assert!(network.actions.is_some());
        assert_eq!(parse_text(&write_text(&network)).unwrap(), network);
        let network = random_network_with_context(9);
        assert!(network.actions.as_ref().unwrap().context.is_some());
        assert_eq!(parse_text(&write_text(&network)).unwrap(), network);
    }

    #[test]
    fn the_context_layer_comes_whole_and_only_with_the_action_layers() {
        let text = write_text(&random_network_with_context(3));
        let without = |prefix: &str| -> String {
            text.lines()
                .filter(|line| !line.starts_with(prefix))
                .map(|line| format!("{line}\n"))
                .collect()
        };
        let error = parse_text(&without("actions.context.bias")).unwrap_err();
        assert!(error.contains("no tensor actions.context.bias"), "{error}");
        let error = parse_text(&without("actions.input")).unwrap_err();
        assert!(!error.contains('\n'), "{error}");
        let orphan: String = without("actions.")
            + &text
                .lines()
                .filter(|line| line.starts_with("actions.context"))
                .map(|line| format!("{line}\n"))
                .collect::<String>();
        let error = parse_text(&orphan).unwrap_err();
        assert!(error.contains("without the action layers"), "{error}");
    }

    #[test]
    fn the_action_layers_come_whole_or_not_at_all() {
        let text = write_text(&random_network_with_actions(2));
        let without: String = text
            .lines()
            .filter(|line| !line.starts_with("actions.heads.bias"))
            .map(|line| format!("{line}\n"))
            .collect();
        let error = parse_text(&without).unwrap_err();
        assert!(error.contains("no tensor actions.heads.bias"), "{error}");
        assert!(!error.contains('\n'));
    }

    /// A file from before the clocks were inputs: its input rows, then the rest. It reads as
    /// the same network with zero weights on the clocks' rows.
    #[test]
    fn a_file_without_the_clocks_reads_with_zero_clock_weights() {
        let network = random_network(4);
        let text = write_text(&network);
        let rows = FEATURE_COUNT_WITHOUT_CLOCKS * HIDDEN;
        let older: String = text
            .lines()
            .map(|line| {
                if let Some(values) = line.strip_prefix("input.weight ") {
                    let kept: Vec<&str> = values.split_whitespace().take(rows).collect();
                    format!("input.weight {}\n", kept.join(" "))
                } else if line.starts_with("shape ") {
                    format!("shape {FEATURE_COUNT_WITHOUT_CLOCKS} {HIDDEN} {OUTPUTS}\n")
                } else {
                    format!("{line}\n")
                }
            })
            .collect();
        let read = parse_text(&older).unwrap();
        let mut expected = network;
        for row in expected.input.weights[FEATURE_COUNT_WITHOUT_CLOCKS..].iter_mut() {
            row.fill(0.0);
        }
        assert_eq!(read, expected);
    }

    #[test]
    fn wrong_files_are_refused_with_one_line() {
        let text = write_text(&random_network(1));
        let refused = |text: &str, words: &str| {
            let error = parse_text(text).unwrap_err();
            assert!(error.contains(words), "{error}");
            assert!(!error.contains('\n'), "{error}");
        };
        refused("", "not a policy network file");
        refused(
            &text.replacen("shape 58 32 22", "shape 58 16 22", 1),
            "this bot's is",
        );
        refused(
            &text.replacen("shape 58 32 22", "shape 56 32 22", 1),
            "input.weight has 1856 values, this network's has 1792",
        );
        let without_heads: String = text
            .lines()
            .filter(|line| !line.starts_with("heads.weight"))
            .map(|line| format!("{line}\n"))
            .collect();
        refused(&without_heads, "no tensor heads.weight");
        let short: String = text
            .lines()
            .map(|line| {
                if line.starts_with("input.bias") {
                    "input.bias 1 2 3\n".to_string()
                } else {
                    format!("{line}\n")
                }
            })
            .collect();
        refused(&short, "input.bias has 3 values");
        refused(&format!("{text}heads.bias 1\n"), "given twice");
        refused(&format!("{text}value.weight 1\n"), "unknown tensor");
        refused(
            &text.replacen("input.bias ", "input.bias NaN ", 1),
            "not a finite number",
        );
        assert!(load("/nonexistent/policy.txt")
            .unwrap_err()
            .starts_with("cannot read the policy network /nonexistent/policy.txt"));
    }
}
