//! What every `arena` command shares: how a command fails (an exit code and one line), writing
//! its output to stdout, and the parsers of the argument values several commands take (league,
//! bot commands, time scale, shard; counts are `tool_cli::at_least_one`, shared with the other
//! tools). A leaf: it uses nothing else of the crate, and every folder's `command.rs` may use it.

use csb::engine::League;
use std::io::Write;

/// Exit code of a check that found a mismatch, or of a match whose replays could not all be
/// saved (its report is still printed).
pub const EXIT_FOUND: u8 = 1;
/// Exit code of anything else that fails: bad arguments, unusable input, a bot that cannot start.
pub const EXIT_ERROR: u8 = 2;

/// A failed command: the process's exit code and the one line printed on stderr.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub exit_code: u8,
    pub message: String,
}

impl Failure {
    /// A check that found what it looks for (a mismatch, a lost replay): exit code 1.
    pub fn found(message: String) -> Failure {
        Failure {
            exit_code: EXIT_FOUND,
            message,
        }
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure {
            exit_code: EXIT_ERROR,
            message,
        }
    }
}

/// Writes a command's output to stdout and flushes it.
pub fn print_stdout(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Failure::from(format!("cannot write to stdout: {e}")))
}

/// `--league`: any league's name.
pub fn parse_league(text: &str) -> Result<League, String> {
    League::parse(text).ok_or_else(|| {
        format!("unknown league {text:?} (wood3, wood2, wood1, bronze, silver, gold or legend)")
    })
}

/// A bot's shell command: anything but blank.
pub fn parse_command(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        Err("expected a shell command that starts a bot, got an empty one".to_string())
    } else {
        Ok(text.to_string())
    }
}

/// `--time-scale`: a positive finite factor.
pub fn parse_scale(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(scale) if scale > 0.0 && scale.is_finite() => Ok(scale),
        _ => Err(format!("expected a positive number, got {text:?}")),
    }
}

/// `--shard I/N`: the index and the count, with 0 <= I < N.
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let parsed = text
        .split_once('/')
        .and_then(|(i, n)| Some((i.parse::<usize>().ok()?, n.parse::<usize>().ok()?)));
    match parsed {
        Some((index, count)) if count > 0 && index < count => Ok((index, count)),
        _ => Err(format!("expected I/N with 0 <= I < N, got {text:?}")),
    }
}
