//! The `learn` subcommands the loop runs as processes (self-play, the two trainings): their
//! arguments, the bot flags of a generation's networks, and the rule for their errors (the
//! process says its own one line; the loop adds nothing).

use crate::generation::settings::Places;
use crate::policy::net_file::POLICY_FILE;
use crate::value::net_file::NET_FILE;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `learn ARGS` and returns what it printed on stdout (its report); its progress bars and
/// its one-line error go to our stderr. When it fails, the error is [`ALREADY_SAID`]: the
/// step's own line is the run's one line.
pub(crate) fn run_learn(places: &Places, args: &[String]) -> Result<String, String> {
    let output = Command::new(&places.learn)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|error| format!("cannot run {}: {error}", places.learn.display()))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(ALREADY_SAID.to_string())
    }
}

/// The error of a step whose own process already printed the one line that says what is
/// wrong (`learn selfplay`, `learn train`): the caller adds nothing.
pub const ALREADY_SAID: &str = "";

pub(crate) fn path_text(path: &Path) -> String {
    path.display().to_string()
}

/// The arguments both trainings take (`learn train` and `learn train-policy`): the newest data,
/// the output folder, the older data of the window, epochs, batch and learning rate, and the
/// seed (the generation).
pub(crate) fn training_args(
    command: &str,
    data: &Path,
    out: &Path,
    window: &[PathBuf],
    (epochs, batch, learning_rate): (usize, usize, f64),
    seed: u32,
) -> Vec<String> {
    let mut args = vec![
        command.to_string(),
        "--data".to_string(),
        path_text(data),
        "--out".to_string(),
        path_text(out),
        "--epochs".to_string(),
        epochs.to_string(),
        "--batch".to_string(),
        batch.to_string(),
        "--learning-rate".to_string(),
        learning_rate.to_string(),
        "--seed".to_string(),
        seed.to_string(),
    ];
    for older in window {
        args.extend(["--window-data".to_string(), path_text(older)]);
    }
    args
}

/// The bot flags of a generation's networks (in its folder or a kept one).
pub(crate) fn bot_flags(dir: &Path) -> String {
    format!(
        "--eval net --net-file {} --policy-net {}",
        path_text(&dir.join(NET_FILE)),
        path_text(&dir.join(POLICY_FILE))
    )
}
