//! A trained model as the bot's network file (`csb --net-file`, `csb::bot::value_net::file`):
//! the quantised network, so the file plays what the model embedded into the bot would play.
//! Self-play generations play and gate their networks through these files without rebuilding
//! the bot.

use crate::common::files::write_whole;
use crate::value::model::Model;
use std::path::Path;

/// The network file's name in a generation's folder (and beside a trained model).
pub const NET_FILE: &str = "network.txt";

/// Writes `model`'s quantised network to `path`, whole or not at all.
pub fn write_model(model: &Path, path: &Path) -> Result<(), String> {
    let network = Model::load(model)?.quantised()?;
    write_whole(path, csb::bot::value_net::file::write(&network))
}

/// Writes the network embedded in the bot (generation 1: the network on main) to `path`.
pub fn write_embedded(path: &Path) -> Result<(), String> {
    let network = csb::bot::value_net::network::Network::embedded();
    write_whole(path, csb::bot::value_net::file::write(&network))
}
