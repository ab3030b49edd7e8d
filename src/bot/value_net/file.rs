//! A value network in a file of its own (`csb --net-file FILE`, feature `cli`), so that a
//! network other than the embedded one plays without recompiling: self-play generations and
//! their gates (`learn generation`). The text is a first line naming the format, then every
//! weight as a decimal `f32`, whitespace-separated, in the order of [`TENSOR_SIZES`] (each
//! layer's weights input-major, then its biases: the order `codec.rs` encodes). `learn` writes
//! it from the quantised network, so a file plays what the same model exported into the bot
//! would play. Files of format 1 came before the checkpoint clocks were inputs (the last two):
//! they read as the same network with zero weights from the clocks, which plays as it did.

use super::features::FEATURE_COUNT_WITHOUT_CLOCKS;
use super::network::{Network, HIDDEN1, TENSOR_SIZES, WEIGHT_COUNT};
use std::fmt::Write as _;

/// The first line of a network file.
pub const MAGIC: &str = "csb-value-net 2";
/// The first line of a file from before the clocks were inputs.
pub const MAGIC_WITHOUT_CLOCKS: &str = "csb-value-net 1";
/// Where the input layer's weights end in a file of format 1: its rows stop before the clocks'.
const INPUT_WEIGHTS_WITHOUT_CLOCKS: usize = FEATURE_COUNT_WITHOUT_CLOCKS * HIDDEN1;
/// The clocks' weights, which a file of format 1 lacks.
const CLOCK_WEIGHTS: usize = TENSOR_SIZES[0] - INPUT_WEIGHTS_WITHOUT_CLOCKS;

/// The weights of `network` in the file's order.
pub fn values_of(network: &Network) -> Vec<f32> {
    let mut values = Vec::with_capacity(WEIGHT_COUNT);
    network
        .input()
        .weights
        .iter()
        .for_each(|row| values.extend_from_slice(row));
    values.extend_from_slice(&network.input().biases);
    network
        .hidden
        .weights
        .iter()
        .for_each(|row| values.extend_from_slice(row));
    values.extend_from_slice(&network.hidden.biases);
    network
        .output
        .weights
        .iter()
        .for_each(|row| values.extend_from_slice(row));
    values.extend_from_slice(&network.output.biases);
    values
}

/// The file's text for `network`: one line per tensor.
pub fn write(network: &Network) -> String {
    let values = values_of(network);
    let mut text = format!("{MAGIC}\n");
    let mut start = 0;
    for size in TENSOR_SIZES {
        let line: Vec<String> = values[start..start + size]
            .iter()
            .map(|value| format!("{value:?}"))
            .collect();
        let _ = writeln!(text, "{}", line.join(" "));
        start += size;
    }
    text
}

/// The weights of a network file's text; the error (one line) says what is wrong.
pub fn read_values(text: &str) -> Result<Vec<f32>, String> {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("").trim_end();
    let without_clocks = first == MAGIC_WITHOUT_CLOCKS;
    if first != MAGIC && !without_clocks {
        return Err(format!(
            "not a network file: expected {MAGIC:?} on line 1, got {:?}",
            first.chars().take(40).collect::<String>()
        ));
    }
    let mut values = Vec::with_capacity(WEIGHT_COUNT);
    for token in lines.flat_map(str::split_whitespace) {
        match token.parse::<f32>() {
            Ok(value) if value.is_finite() => values.push(value),
            _ => return Err(format!("expected a finite weight, got {token:?}")),
        }
    }
    let expected = if without_clocks {
        WEIGHT_COUNT - CLOCK_WEIGHTS
    } else {
        WEIGHT_COUNT
    };
    if values.len() != expected {
        return Err(format!(
            "{} weights, where this network has {expected}",
            values.len()
        ));
    }
    if without_clocks {
        let at = INPUT_WEIGHTS_WITHOUT_CLOCKS;
        values.splice(at..at, std::iter::repeat(0.0).take(CLOCK_WEIGHTS));
    }
    Ok(values)
}

/// The network of `values` (as [`read_values`] gives them), evaluated by the fastest kernel.
pub fn network_of(values: &[f32]) -> Network {
    Network::from_values(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_round_trips_through_its_file() {
        let network = Network::embedded();
        let text = write(&network);
        let values = read_values(&text).unwrap();
        assert_eq!(network_of(&values), network);
        assert!(read_values("csb-value-net 3\n")
            .unwrap_err()
            .contains("not a network file"));
        assert!(read_values(&format!("{MAGIC}\n1 2 x\n"))
            .unwrap_err()
            .contains("\"x\""));
        assert!(read_values(&format!("{MAGIC}\n1 2\n"))
            .unwrap_err()
            .contains("2 weights"));
    }

    /// A file of format 1 holds the input rows before the clocks'; it reads as the same
    /// network with zero weights on the clocks' rows.
    #[test]
    fn a_file_without_the_clocks_reads_with_zero_clock_weights() {
        let embedded = Network::embedded();
        let mut input = embedded.input().clone();
        for (row, weights) in input.weights.iter_mut().enumerate() {
            weights.fill(row as f32 + 0.5);
        }
        let network = Network::new(
            input.clone(),
            embedded.hidden.clone(),
            embedded.output.clone(),
        );
        let values = values_of(&network);
        let mut older = values[..INPUT_WEIGHTS_WITHOUT_CLOCKS].to_vec();
        older.extend_from_slice(&values[TENSOR_SIZES[0]..]);
        let text: Vec<String> = older.iter().map(|value| format!("{value:?}")).collect();
        let text = format!("{MAGIC_WITHOUT_CLOCKS}\n{}\n", text.join(" "));
        for row in input.weights[FEATURE_COUNT_WITHOUT_CLOCKS..].iter_mut() {
            row.fill(0.0);
        }
        let network = Network::new(input, embedded.hidden, embedded.output);
        assert_eq!(network_of(&read_values(&text).unwrap()), network);
        let refused = read_values(&format!("{MAGIC_WITHOUT_CLOCKS}\n1 2\n")).unwrap_err();
        assert!(
            refused.contains("2 weights, where this network has"),
            "{refused}"
        );
    }

    /// The embedded network played from its file decides as the embedded network: the same
    /// decision signature as the defaults'.
    #[cfg(feature = "referee")]
    #[test]
    fn the_embedded_network_from_a_file_plays_the_same_decisions() {
        use crate::bot::config::BotConfig;
        use crate::bot::signature::decision_signature;
        let path = std::env::temp_dir().join(format!("csb-net-file-{}.txt", std::process::id()));
        std::fs::write(&path, write(&Network::embedded())).unwrap();
        let args = ["--net-file".to_string(), path.display().to_string()];
        let from_file = BotConfig::from_args(&args).unwrap();
        assert!(from_file.net_file.is_some());
        assert_eq!(
            decision_signature(&from_file),
            decision_signature(&BotConfig::default())
        );
        let none = ["--net-file".to_string(), "none".to_string()];
        assert_eq!(BotConfig::from_args(&none).unwrap(), BotConfig::default());
        let _ = std::fs::remove_file(&path);
        let control = ["--net-file".to_string(), "control".to_string()];
        let control = BotConfig::from_args(&control).unwrap().net_file.unwrap();
        assert_eq!(network_of(&control.values), Network::control());
        let missing = ["--net-file".to_string(), "/nonexistent/net.txt".to_string()];
        let error = BotConfig::from_args(&missing).unwrap_err();
        assert!(
            error.starts_with("--net-file expects a network file"),
            "{error}"
        );
    }
}
