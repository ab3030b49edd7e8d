//! A trained policy as the bot's policy file (`csb --policy-net`, `csb::bot::policy_net::file`):
//! the quantised network, so the file plays what the policy embedded into the bot would play.
//! Self-play generations play and gate their policies through these files without rebuilding
//! the bot.

use crate::common::files::write_whole;
use std::path::Path;

/// The policy file's name in a generation's folder.
pub const POLICY_FILE: &str = "policy.txt";

/// Writes the trained policy `model`'s quantised network to `path`, whole or not at all.
pub fn write_policy_model(model: &Path, path: &Path) -> Result<(), String> {
    let network = crate::policy::model::PolicyModel::load(model)?.bot_network()?;
    let network = csb::bot::policy_net::embedded::quantised(&network);
    write_whole(path, csb::bot::policy_net::file::write_text(&network))
}

/// Writes the policy network embedded in the bot (generation 1's) to `path`.
pub fn write_embedded_policy(path: &Path) -> Result<(), String> {
    let network = csb::bot::policy_net::embedded::embedded();
    write_whole(path, csb::bot::policy_net::file::write_text(&network))
}
