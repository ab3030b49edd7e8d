//! A value network in a file of its own (`csb --net-file FILE`, feature `cli`), so that a
//! network other than the embedded one plays without recompiling: self-play generations and
//! their gates (`learn generation`). The text is a first line naming the format, then every
//! weight as a decimal `f32`, whitespace-separated, in the order of [`TENSOR_SIZES`] (each
//! layer's weights input-major, then its biases: the order `codec.rs` encodes). `learn` writes
//! it from the quantised network, so a file plays what the same model exported into the bot
//! would play.

use super::network::{Network, TENSOR_SIZES, WEIGHT_COUNT};
use std::fmt::Write as _;

/// The first line of a network file.
pub const MAGIC: &str = "csb-value-net 1";

/// The weights of `network` in the file's order.
fn values_of(network: &Network) -> Vec<f32> {
    let mut values = Vec::with_capacity(WEIGHT_COUNT);
    network
        .input
        .weights
        .iter()
        .for_each(|row| values.extend_from_slice(row));
    values.extend_from_slice(&network.input.biases);
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
    if first != MAGIC {
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
    if values.len() != WEIGHT_COUNT {
        return Err(format!(
            "{} weights, where this network has {WEIGHT_COUNT}",
            values.len()
        ));
    }
    Ok(values)
}

/// The network of `values` (as [`read_values`] gives them), evaluated by the fastest kernel.
pub fn network_of(values: &[f32]) -> Network {
    let mut network = Network::embedded();
    let mut next = values.iter().copied();
    for row in network.input.weights.iter_mut() {
        row.iter_mut().for_each(|w| *w = next.next().unwrap_or(0.0));
    }
    for b in network.input.biases.iter_mut() {
        *b = next.next().unwrap_or(0.0);
    }
    for row in network.hidden.weights.iter_mut() {
        row.iter_mut().for_each(|w| *w = next.next().unwrap_or(0.0));
    }
    for b in network.hidden.biases.iter_mut() {
        *b = next.next().unwrap_or(0.0);
    }
    for row in network.output.weights.iter_mut() {
        row.iter_mut().for_each(|w| *w = next.next().unwrap_or(0.0));
    }
    for b in network.output.biases.iter_mut() {
        *b = next.next().unwrap_or(0.0);
    }
    network
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
        assert!(read_values("csb-value-net 2\n")
            .unwrap_err()
            .contains("not a network file"));
        assert!(read_values(&format!("{MAGIC}\n1 2 x\n"))
            .unwrap_err()
            .contains("\"x\""));
        assert!(read_values(&format!("{MAGIC}\n1 2\n"))
            .unwrap_err()
            .contains("2 weights"));
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
        let missing = ["--net-file".to_string(), "/nonexistent/net.txt".to_string()];
        let error = BotConfig::from_args(&missing).unwrap_err();
        assert!(
            error.starts_with("--net-file expects a network file"),
            "{error}"
        );
    }
}
