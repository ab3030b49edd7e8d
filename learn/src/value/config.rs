//! What one training of the value network is (`learn train`'s settings): the data, the output
//! folder, epochs, batch, learning rate, seed and target, and the command that repeats it,
//! recorded in the model's manifest.

use crate::value::target::Target;
use std::path::{Path, PathBuf};

/// What to train and where.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Directory of the self-play data (recorded in the model's manifest).
    pub data: PathBuf,
    /// Older data directories trained on with it (a generation's window).
    pub window_data: Vec<PathBuf>,
    /// Directory of checkpoints and curves.
    pub out: PathBuf,
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f64,
    /// Seed of the initial weights (unless `init`) and of the shuffling.
    pub seed: u64,
    /// Weight of the game's result in the training target, the rest going to the hand
    /// evaluation's view [`crate::value::dataset::LOOKAHEAD_TURNS`] turns later (1: the result alone).
    pub result_weight: f32,
    /// What the result weight's share learns (`target.rs`): the result, the searches' root
    /// values or TD(λ) over `td_network`'s values.
    pub target: Target,
    /// The network file (`csb --net-file`) whose values TD(λ) bootstraps from.
    pub td_network: Option<PathBuf>,
    /// The network file whose weights training starts from (a warm start, as the loop's
    /// generations may take their parent's), instead of the seed's.
    pub init: Option<PathBuf>,
    /// Show a progress bar.
    pub progress: bool,
}

/// `path` as one shell word (quoted when it holds anything but plain characters).
fn shell_word(path: &Path) -> String {
    let text = path.display().to_string();
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+=:,@".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

impl TrainConfig {
    /// The command that repeats this training, every setting spelled out.
    pub fn command(&self) -> String {
        let window: String = self
            .window_data
            .iter()
            .map(|dir| format!(" --window-data {}", shell_word(dir)))
            .collect();
        let flag = |name: &str, path: &Option<PathBuf>| {
            path.as_ref().map_or(String::new(), |path| {
                format!(" --{name} {}", shell_word(path))
            })
        };
        format!(
            "learn train --data {} --out {} --epochs {} --batch {} --learning-rate {} --seed {} \
             --result-weight {} --target {}{}{}{window}",
            shell_word(&self.data),
            shell_word(&self.out),
            self.epochs,
            self.batch,
            self.learning_rate,
            self.seed,
            self.result_weight,
            self.target,
            flag("td-network", &self.td_network),
            flag("init", &self.init),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_quotes_paths_that_need_it() {
        assert_eq!(shell_word(Path::new("data/selfplay")), "data/selfplay");
        assert_eq!(shell_word(Path::new("my data/it's")), r"'my data/it'\''s'");
    }
}
