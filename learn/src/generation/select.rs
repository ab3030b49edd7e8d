//! Step 2c with `--select-value`: the value network a generation carries is the one of the
//! trained network and its parent's that scores the lower log-loss on the test split of the
//! generation's window (games neither trained on: the parent's were played before them, the
//! trained network's split is held out by map). A trained network that does not beat its
//! parent's there is left in the training folder and the parent's is the generation's, so a
//! generation whose window is short (generation 6 trained on 400 games alone: 0.4118 against
//! generation 5's 0.4097 on its own test split, and lost its gate) still carries its new policy
//! against the best value network the loop has.

use crate::common::files::{read_bytes, write_whole};
use crate::common::manifest::sha256_hex;
use crate::value::dataset::load_window;
use crate::value::net_file::NET_FILE;
use crate::value::train::evaluate_file;
use std::path::{Path, PathBuf};

/// The step's name in the generation's state.
pub(crate) const SELECT_STEP: &str = "value";

/// What the step chose and why: both networks' log-loss on the test split, and the parent
/// whose network is kept, if it is. Its state line is `trained` or `kept-from N`, then
/// `log-loss trained T parent P` and the generation's network file's SHA-256.
pub(crate) struct ValueChoice {
    pub trained_log_loss: f64,
    pub parent_log_loss: f64,
    /// The parent's generation when its network is kept.
    pub kept_from: Option<u32>,
}

impl ValueChoice {
    /// The choice as the state records it (after `value `).
    pub(crate) fn details(&self, network_sha256: &str) -> String {
        let choice = match self.kept_from {
            Some(parent) => format!("kept-from {parent}"),
            None => "trained".to_string(),
        };
        format!(
            "{choice} log-loss trained {:.4} parent {:.4} network-sha256 {network_sha256}",
            self.trained_log_loss, self.parent_log_loss
        )
    }

    /// The parent whose network the state's `value` step kept, if it kept one.
    pub(crate) fn kept_from(details: &str) -> Option<u32> {
        details
            .strip_prefix("kept-from ")
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|word| word.parse().ok())
    }
}

/// Measures `trained` (the last training's network file) and the parent's network file on the
/// test split of `data` with its window, and writes the better one as `dir/network.txt` (on a
/// tie the parent's: a new network must beat it). Reads only the files
/// it is given, so a step cut short makes the same choice when run again.
pub(crate) fn select_value(
    dir: &Path,
    trained: &Path,
    parent_dir: &Path,
    parent: u32,
    (data, window): (&Path, &[PathBuf]),
) -> Result<(ValueChoice, String), String> {
    let set = load_window(data, window)?;
    let parent_network = parent_dir.join(NET_FILE);
    let (trained_prediction, _) = evaluate_file(&set, trained)?;
    let (parent_prediction, _) = evaluate_file(&set, &parent_network)?;
    let kept_from = (parent_prediction.log_loss <= trained_prediction.log_loss).then_some(parent);
    let chosen = if kept_from.is_some() {
        parent_network
    } else {
        trained.to_path_buf()
    };
    let bytes = read_bytes(&chosen)?;
    write_whole(&dir.join(NET_FILE), &bytes)?;
    Ok((
        ValueChoice {
            trained_log_loss: trained_prediction.log_loss,
            parent_log_loss: parent_prediction.log_loss,
            kept_from,
        },
        sha256_hex(&bytes),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_line_names_the_parent_only_when_its_network_is_kept() {
        let kept = ValueChoice {
            trained_log_loss: 0.41184,
            parent_log_loss: 0.40966,
            kept_from: Some(5),
        };
        let line = kept.details("ab12");
        assert_eq!(
            line,
            "kept-from 5 log-loss trained 0.4118 parent 0.4097 network-sha256 ab12"
        );
        assert_eq!(ValueChoice::kept_from(&line), Some(5));
        let trained = ValueChoice {
            kept_from: None,
            ..kept
        };
        assert_eq!(ValueChoice::kept_from(&trained.details("ab12")), None);
    }
}
