//! A network's logits on a data set by the bot's own forward pass (`csb::bot::value_net`): of a
//! network, of a network file (`csb --net-file`'s format), and the win probabilities the TD
//! target bootstraps from.

use crate::value::config::TrainConfig;
use crate::value::dataset::Samples;
use crate::value::target::Target;
use csb::bot::value_net::features::FEATURE_COUNT;
use csb::bot::value_net::network::Network;
use std::path::Path;

/// Player 0's win probability of each of `samples` by the network of `config.td_network`
/// (the TD target's), `None` for the other targets. Errors: TD without a network file, a file
/// that is not one.
pub fn network_values(config: &TrainConfig, samples: &Samples) -> Result<Option<Vec<f32>>, String> {
    if !matches!(config.target, Target::Td { .. }) {
        return Ok(None);
    }
    let path = config.td_network.as_ref().ok_or(
        "--target td:LAMBDA needs --td-network FILE (the network whose values it bootstraps from)",
    )?;
    Ok(Some(
        file_logits(path, samples)?
            .into_iter()
            .map(|logit| 1.0 / (1.0 + (-logit).exp()))
            .collect(),
    ))
}

/// The logits of the network file at `path` (`csb --net-file`'s format) on `samples`
/// ([`network_logits`]).
pub fn file_logits(path: &Path, samples: &Samples) -> Result<Vec<f32>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    let values = csb::bot::value_net::file::read_values(&text)
        .map_err(|error| format!("{}: {error}", path.display()))?;
    Ok(network_logits(
        &csb::bot::value_net::file::network_of(&values),
        samples,
    ))
}

/// The logits of `network` on `samples` by the bot's own forward pass: player 0's side logit
/// minus player 1's.
pub fn network_logits(network: &Network, samples: &Samples) -> Vec<f32> {
    let mut own = [0.0; FEATURE_COUNT];
    let mut theirs = [0.0; FEATURE_COUNT];
    (0..samples.len())
        .map(|row| {
            let range = row * FEATURE_COUNT..(row + 1) * FEATURE_COUNT;
            own.copy_from_slice(&samples.own[range.clone()]);
            theirs.copy_from_slice(&samples.theirs[range]);
            network.side_logit(&own) - network.side_logit(&theirs)
        })
        .collect()
}
