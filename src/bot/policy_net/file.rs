//! The policy network's file: text, written by `learn export-policy` and read by the bot
//! (`--policy-net PATH`). Each float is written in Rust's shortest form that reads back to the
//! same bits, so the bot's network is the trained one exactly.
//!
//! ```text
//! csb-policy-net 1
//! shape <inputs> <hidden> <outputs>
//! action-inputs <inputs per action>                             (only when not 12)
//! action-hidden <action hidden>                                 (only when not 16)
//! action-middle <second action layer>                           (only with one)
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
//! actions.middle.weight <action hidden × middle values>         (the second action layer:
//! actions.middle.bias <middle values>                             only with `action-middle`)
//! ```
//!
//! A file's widths may be narrower than the bot's layers (`widths.rs`): it is read into them
//! with zeros where it has no units, and plays as it did; a file is written at its network's
//! effective widths, so a narrow policy stays narrow. A file without the `action-hidden` line
//! has the action layers of every file before it, 16 wide, and one without `action-inputs`
//! their 12 inputs per action. A file wider than the bot, of other inputs or outputs, a missing
//! or repeated tensor or a value that is not a finite number is refused with one line saying
//! which. A file whose inputs are those before the checkpoint clocks were inputs (`FEATURE_COUNT_WITHOUT_CLOCKS`, the clocks being the last
//! inputs) is read as the same network with zero weights from the clocks: it plays as it did.
//! The action layers' four lines come all together or not at all; a file without them is a
//! network without action layers. The context layer's two lines come together and only with the
//! action layers. So do the second action layer's, whose width the `action-middle` line says:
//! the heads then read its units, and their rows are as many as the wider of the two layers
//! (`Widths::action_dims`).

use super::action_inputs::ActionLayers;
use super::network::{PolicyNetwork, HIDDEN, OUTPUTS};
use super::widths::{effective, regrouped, Widths};
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
/// The second action layer's tensors (`ActionLayers::middle`), after the context layer's.
pub const MIDDLE_TENSOR_NAMES: [&str; 2] = ["actions.middle.weight", "actions.middle.bias"];

/// The lines naming the action layers' widths, after the shape line; each only where the
/// policy's differs from every file's before ([`Widths::first_files`]).
const ACTION_INPUTS_LINE: &str = "action-inputs";
const ACTION_HIDDEN_LINE: &str = "action-hidden";
/// The line naming the second action layer's width: only in a policy with one.
const ACTION_MIDDLE_LINE: &str = "action-middle";

/// Appends the lines of the tensors `names` of dimensions `dims` holding `values` (tensors of
/// dimensions `full` one after another), in order.
fn write_tensors(
    text: &mut String,
    names: &[&str],
    dims: &[Vec<usize>],
    full: &[Vec<usize>],
    values: &[f32],
) {
    let values = regrouped(values, full, dims);
    let mut rest = &values[..];
    for (name, size) in names.iter().zip(Widths::sizes(dims)) {
        let (values, after) = rest.split_at(size);
        rest = after;
        text.push_str(name);
        for value in values {
            let _ = write!(text, " {value:?}");
        }
        text.push('\n');
    }
}

/// The file's text for `network`, at its effective widths (`widths::effective`).
pub fn write_text(network: &PolicyNetwork) -> String {
    let (widths, full) = (effective(network), Widths::FULL);
    let mut text = format!(
        "{MAGIC}\nshape {FEATURE_COUNT} {} {OUTPUTS}\n",
        widths.hidden
    );
    let first = Widths::first_files(FEATURE_COUNT, widths.hidden);
    if network.actions.is_some() {
        for (line, width, first_width) in [
            (
                ACTION_INPUTS_LINE,
                widths.action_inputs,
                first.action_inputs,
            ),
            (
                ACTION_HIDDEN_LINE,
                widths.action_hidden,
                first.action_hidden,
            ),
        ] {
            if width != first_width {
                text.push_str(&format!("{line} {width}\n"));
            }
        }
        if widths.action_middle != 0 {
            text.push_str(&format!("{ACTION_MIDDLE_LINE} {}\n", widths.action_middle));
        }
    }
    let (network_dims, full_network_dims) = (widths.network_dims(), full.network_dims());
    write_tensors(
        &mut text,
        &TENSOR_NAMES,
        &network_dims,
        &full_network_dims,
        &network.values(),
    );
    if let Some(layers) = &network.actions {
        let mut dims = widths.action_dims();
        let mut full_dims = full.action_dims();
        let mut names = ACTION_TENSOR_NAMES.to_vec();
        if layers.context.is_some() {
            dims.extend(widths.context_dims());
            full_dims.extend(full.context_dims());
            names.extend(CONTEXT_TENSOR_NAMES);
        }
        if layers.middle.is_some() {
            dims.extend(widths.middle_dims());
            full_dims.extend(full.middle_dims());
            names.extend(MIDDLE_TENSOR_NAMES);
        }
        write_tensors(&mut text, &names, &dims, &full_dims, &layers.values());
    }
    text
}

/// The widths a file's shape line and the optional lines after it say, and how many lines
/// those were; `lines` is left at its first tensor. One line for a shape that is not this
/// bot's or does not fit its layers.
fn read_widths<'a>(
    lines: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>,
) -> Result<(Widths, usize), String> {
    let expected_shape = format!("shape {FEATURE_COUNT} {HIDDEN} {OUTPUTS}");
    let shape = lines
        .next()
        .map(str::trim)
        .ok_or_else(|| "no shape line".to_string())?;
    let numbers: Vec<usize> = shape
        .strip_prefix("shape ")
        .map(|rest| {
            rest.split_whitespace()
                .filter_map(|n| n.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    let not_ours = || {
        format!(
            "the file's network has \"{shape}\", this bot's is \"{expected_shape}\" \
             (inputs, hidden, outputs)"
        )
    };
    let &[inputs, hidden, outputs] = &numbers[..] else {
        return Err(not_ours());
    };
    if ![FEATURE_COUNT, FEATURE_COUNT_WITHOUT_CLOCKS].contains(&inputs) || outputs != OUTPUTS {
        return Err(not_ours());
    }
    let mut widths = Widths::first_files(inputs, hidden);
    let mut read = 0;
    while let Some(line) = lines.next_if(|line| {
        [ACTION_INPUTS_LINE, ACTION_HIDDEN_LINE, ACTION_MIDDLE_LINE]
            .iter()
            .any(|key| line.starts_with(key))
    }) {
        read += 1;
        let (key, width) = line.split_once(' ').unwrap_or((line, ""));
        let width = width
            .trim()
            .parse()
            .map_err(|_| format!("line {}: \"{line}\" is not \"{key} <width>\"", 2 + read))?;
        match key {
            ACTION_INPUTS_LINE => widths.action_inputs = width,
            ACTION_HIDDEN_LINE => widths.action_hidden = width,
            ACTION_MIDDLE_LINE if width > 0 => widths.action_middle = width,
            _ => return Err(format!("line {}: unknown line \"{line}\"", 2 + read)),
        }
    }
    widths.check_fits()?;
    Ok((widths, read))
}

/// The network of the file text `text`; the error is one line (without the file's name).
pub fn parse_text(text: &str) -> Result<PolicyNetwork, String> {
    let mut lines = text.lines();
    if lines.next().map(str::trim) != Some(MAGIC) {
        return Err(format!(
            "not a policy network file (first line is not \"{MAGIC}\")"
        ));
    }
    let mut lines = lines.peekable();
    let (widths, width_lines) = read_widths(&mut lines)?;
    let first_tensor_line = 3 + width_lines;
    let names: Vec<&str> = TENSOR_NAMES
        .into_iter()
        .chain(ACTION_TENSOR_NAMES)
        .chain(CONTEXT_TENSOR_NAMES)
        .chain(MIDDLE_TENSOR_NAMES)
        .collect();
    let (dims, full_dims) = (widths.dims(), Widths::FULL.dims());
    let sizes = Widths::sizes(&dims);
    let mut tensors: [Option<Vec<f32>>; 12] = Default::default();
    for (line_index, line) in lines.enumerate() {
        let mut fields = line.split_whitespace();
        let Some(name) = fields.next() else { continue };
        let line_number = line_index + first_tensor_line;
        let index = names
            .iter()
            .position(|&known| known == name)
            .ok_or_else(|| format!("line {line_number}: unknown tensor \"{name}\""))?;
        if tensors[index].is_some() {
            return Err(format!("line {line_number}: tensor {name} given twice"));
        }
        if MIDDLE_TENSOR_NAMES.contains(&name) && widths.action_middle == 0 {
            return Err(format!(
                "line {line_number}: {name} without an \"{ACTION_MIDDLE_LINE} <width>\" line"
            ));
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
    let (context_tensors, middle_tensors) = context_tensors.split_at_mut(2);
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
    let middle_count = middle_tensors.iter().filter(|t| t.is_some()).count();
    let middle_said = widths.action_middle != 0;
    if middle_count == 1 || (middle_count == 2) != middle_said || (middle_said && action_count == 0)
    {
        return Err(if middle_said && action_count == 0 {
            "a second action layer without the action layers it feeds".to_string()
        } else if middle_count == 2 {
            format!(
                "tensors {MIDDLE_TENSOR_NAMES:?} without an \"{ACTION_MIDDLE_LINE} <width>\" line"
            )
        } else {
            let missing = middle_tensors.iter().position(Option::is_none).unwrap_or(0);
            format!(
                "no tensor {} (the second action layer's two tensors come together, after an \
                 \"{ACTION_MIDDLE_LINE}\" line)",
                MIDDLE_TENSOR_NAMES[missing]
            )
        });
    }
    // Every tensor into the bot's widths: an older file's input rows end before the clocks'
    // rows, a narrower file's units end before the bot's; those weigh nothing.
    let values: Vec<f32> = network_tensors
        .iter()
        .flatten()
        .flatten()
        .copied()
        .collect();
    let mut network = PolicyNetwork::from_values(&regrouped(&values, &dims[..4], &full_dims[..4]));
    if action_count == 4 {
        let values: Vec<f32> = action_tensors
            .iter()
            .chain(context_tensors.iter())
            .chain(middle_tensors.iter())
            .flatten()
            .flatten()
            .copied()
            .collect();
        let mut groups: Vec<usize> = (4..8).collect();
        if context_count == 2 {
            groups.extend(8..10);
        }
        if middle_count == 2 {
            groups.extend(10..12);
        }
        let pick = |all: &[Vec<usize>]| -> Vec<Vec<usize>> {
            groups.iter().map(|&group| all[group].clone()).collect()
        };
        network.actions = Some(ActionLayers::from_values(&regrouped(
            &values,
            &pick(&dims),
            &pick(&full_dims),
        )));
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
    use crate::bot::policy_net::action_inputs::{ACTION_MIDDLE, FIRST_ACTION_INPUTS};
    use crate::bot::policy_net::network::tests::{
        random_network, random_network_with_actions, random_network_with_context,
        random_network_with_middle,
    };
    use crate::bot::policy_net::widths::FIRST_ACTION_HIDDEN;

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
        let network = random_network_with_middle(9);
        assert!(network.actions.as_ref().unwrap().middle.is_some());
        let text = write_text(&network);
        let line = format!("\naction-middle {ACTION_MIDDLE}\n");
        assert!(text.contains(&line), "{}", &text[..200]);
        assert_eq!(parse_text(&text).unwrap(), network);
    }

    /// The second action layer's lines come together, with their width line and the action
    /// layers; a narrower one is read into the bot's and written back as it was.
    #[test]
    fn the_second_action_layer_comes_whole_with_its_width() {
        let network = random_network_with_middle(4);
        let text = write_text(&network);
        let without = |prefix: &str| -> String {
            text.lines()
                .filter(|line| !line.starts_with(prefix))
                .map(|line| format!("{line}\n"))
                .collect()
        };
        for (cut, says) in [
            ("actions.middle.bias", "no tensor actions.middle.bias"),
            ("action-middle", "without an \"action-middle <width>\" line"),
            ("actions.middle", "no tensor actions.middle.weight"),
            ("actions.input", "no tensor actions.input"),
        ] {
            let error = parse_text(&without(cut)).unwrap_err();
            assert!(
                error.contains(says) && !error.contains('\n'),
                "{cut}: {error}"
            );
        }
        let wide = text.replace(
            &format!("action-middle {ACTION_MIDDLE}"),
            &format!("action-middle {}", ACTION_MIDDLE + 1),
        );
        let error = parse_text(&wide).unwrap_err();
        let says = format!("second action layer is {} wide", ACTION_MIDDLE + 1);
        assert!(error.contains(&says), "{error}");
        let narrow = Widths {
            action_middle: 7,
            ..effective(&network)
        };
        let narrowed = crate::bot::policy_net::widths::narrowed(&network, narrow);
        assert_eq!(effective(&narrowed), narrow);
        let text = write_text(&narrowed);
        assert!(text.contains("\naction-middle 7\n"));
        assert_eq!(parse_text(&text).unwrap(), narrowed);
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

    /// A policy narrower than the bot's layers (every file before the layers were widened)
    /// reads into them with zero units, plays the same priors, and writes back as it was.
    #[test]
    fn a_narrower_file_reads_into_the_wide_layers_and_back() {
        use crate::bot::policy_net::widths::narrowed;
        let network = random_network_with_context(8);
        let narrow = Widths::first_files(FEATURE_COUNT, 32);
        let full = Widths::FULL;
        let cut = narrowed(&network, narrow);
        let text = write_text(&cut);
        assert!(text.contains(&format!("shape {FEATURE_COUNT} 32 {OUTPUTS}\n")));
        assert!(
            !text.contains("action-hidden") && !text.contains("action-inputs"),
            "a file of 12 inputs into 16 says nothing"
        );
        assert_eq!(
            text.lines()
                .find(|line| line.starts_with("actions.input.bias"))
                .map(|line| line.split_whitespace().count()),
            Some(1 + FIRST_ACTION_HIDDEN)
        );
        assert_eq!(
            text.lines()
                .find(|line| line.starts_with("actions.input.weight"))
                .map(|line| line.split_whitespace().count()),
            Some(1 + FIRST_ACTION_INPUTS * FIRST_ACTION_HIDDEN)
        );
        let read = parse_text(&text).unwrap();
        assert_eq!(read, cut);
        assert_eq!(write_text(&read), text);
        let wider = write_text(&network);
        assert!(wider.contains(&format!(
            "\naction-inputs {}\naction-hidden {}\n",
            full.action_inputs, full.action_hidden
        )));
        assert_eq!(parse_text(&wider).unwrap(), network);
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
        let shape = format!("shape {FEATURE_COUNT} {HIDDEN} {OUTPUTS}");
        let with_shape = |new: String| text.replacen(&shape, &new, 1);
        refused(
            &with_shape(format!("shape 57 {HIDDEN} {OUTPUTS}")),
            "this bot's is",
        );
        refused(
            &with_shape(format!("shape {FEATURE_COUNT} {HIDDEN} 21")),
            "this bot's is",
        );
        refused(
            &with_shape(format!("shape {FEATURE_COUNT} {} {OUTPUTS}", HIDDEN + 1)),
            &format!("hidden layer is {} wide", HIDDEN + 1),
        );
        refused(
            &with_shape(format!(
                "shape {FEATURE_COUNT_WITHOUT_CLOCKS} {HIDDEN} {OUTPUTS}"
            )),
            &format!(
                "input.weight has {} values, this network's has {}",
                FEATURE_COUNT * HIDDEN,
                FEATURE_COUNT_WITHOUT_CLOCKS * HIDDEN
            ),
        );
        refused(
            &with_shape(format!("{shape}\naction-hidden 99")),
            "action layers' hidden layer is 99 wide",
        );
        refused(
            &with_shape(format!("{shape}\naction-hidden wide")),
            "line 3: \"action-hidden wide\" is not",
        );
        refused(
            &with_shape(format!("{shape}\naction-hidden 8\naction-inputs 22")),
            "inputs per action is 22 wide",
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
