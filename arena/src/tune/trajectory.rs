//! The trajectory file of `arena tune`: JSON lines, a header with every setting that shapes the
//! run, then one record per finished iteration (θ before, the signs, both players' values, the
//! result, θ after). A run appends one whole line per iteration and flushes it, so a stopped run
//! loses at most the iteration it was playing; resuming reads the records back, drops an
//! unfinished last line, checks the header against the new command line, and carries on from
//! the last θ, so the resumed trajectory is the one an uninterrupted run would have written.
//! A shard's file also holds part records: its own share of an iteration's games (`shards.rs`).

use super::param::ParamSpec;
use super::spsa::Gains;
use crate::stats::wdl::Wdl;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

pub const TRAJECTORY_FORMAT: &str = "csb-arena-tune";

/// Everything that decides the run's games and steps (not threads, nor where replays go).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    pub bot: String,
    pub params: Vec<ParamSpec>,
    pub seed: u64,
    /// Game pairs per iteration (two games on one map, seats swapped).
    pub pairs: usize,
    pub iterations: usize,
    pub league: String,
    pub time_scale: f64,
    /// STEPs moved on the first iteration when one side wins every game.
    pub first_move: f64,
    pub gains: Gains,
}

/// One finished iteration. Values are in the parameters' own units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Iteration {
    pub iteration: usize,
    pub theta: Vec<f64>,
    pub delta: Vec<f64>,
    /// a_k and c_k (c_k in STEPs).
    pub a_k: f64,
    pub c_k: f64,
    /// The values the two players got (clamped, before rounding of integer flags).
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
    /// Seed of this iteration's maps (`arena match --seed`).
    pub games_seed: u64,
    /// The plus player's wins, draws, losses and score.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub plus_score: f64,
    pub theta_next: Vec<f64>,
    pub replay_dir: Option<String>,
}

/// One shard's share of an iteration: the plus player's results on its game pairs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Part {
    /// The iteration.
    pub part: usize,
    pub shard: usize,
    pub theta: Vec<f64>,
    pub results: Wdl,
    pub replay_dir: Option<String>,
}

/// What a trajectory file holds so far.
pub struct Loaded {
    pub header: Header,
    pub iterations: Vec<Iteration>,
    /// A shard's own part of the iteration after the last finished one, if it played it.
    pub pending_part: Option<Part>,
}

/// The text up to its last newline (a line being written is not yet a record).
fn complete_lines(text: &str) -> &str {
    match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    }
}

fn is_part(line: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(line)
        .map(|value| value.get("part").is_some())
        .unwrap_or(false)
}

/// Shard file `path`'s part record of `iteration`, if it is written yet (read only).
pub fn parts_of(path: &Path, iteration: usize) -> Result<Option<Part>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    for (index, line) in complete_lines(&text).lines().enumerate().skip(1) {
        if is_part(line) {
            let part: Part = serde_json::from_str(line).map_err(|e| {
                format!(
                    "{} line {}: bad part record: {e}",
                    path.display(),
                    index + 1
                )
            })?;
            if part.part == iteration {
                return Ok(Some(part));
            }
        }
    }
    Ok(None)
}

/// Reads a trajectory back. An unfinished last line (a run stopped while writing) is cut off
/// the file; any other bad line is an error naming the line.
pub fn load(path: &Path) -> Result<Loaded, String> {
    let where_ = |line: usize| format!("{} line {line}", path.display());
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let complete = complete_lines(&text);
    if complete.len() < text.len() {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        file.set_len(complete.len() as u64)
            .map_err(|e| format!("cannot cut the unfinished line of {}: {e}", path.display()))?;
    }
    let mut lines = complete.lines();
    let header: Header = lines
        .next()
        .ok_or_else(|| format!("{}: empty trajectory (no header line)", path.display()))
        .and_then(|line| {
            serde_json::from_str(line).map_err(|e| format!("{}: bad header: {e}", where_(1)))
        })?;
    if header.format != TRAJECTORY_FORMAT {
        return Err(format!(
            "{}: not an arena tune trajectory (format {:?})",
            path.display(),
            header.format
        ));
    }
    let mut iterations: Vec<Iteration> = Vec::new();
    let mut parts: Vec<Part> = Vec::new();
    for (index, line) in lines.enumerate() {
        if is_part(line) {
            parts.push(
                serde_json::from_str(line)
                    .map_err(|e| format!("{}: bad part record: {e}", where_(index + 2)))?,
            );
            continue;
        }
        let record: Iteration = serde_json::from_str(line)
            .map_err(|e| format!("{}: bad iteration record: {e}", where_(index + 2)))?;
        if record.iteration != iterations.len() || record.theta_next.len() != header.params.len() {
            return Err(format!(
                "{}: expected iteration {} with {} values",
                where_(index + 2),
                iterations.len(),
                header.params.len()
            ));
        }
        iterations.push(record);
    }
    let pending_part = parts.into_iter().find(|part| part.part == iterations.len());
    Ok(Loaded {
        header,
        iterations,
        pending_part,
    })
}

/// The first setting in which two headers differ, by its JSON name.
pub fn first_difference(old: &Header, new: &Header) -> Option<String> {
    let (old, new) = (
        serde_json::to_value(old).ok()?,
        serde_json::to_value(new).ok()?,
    );
    let (old, new) = (old.as_object()?, new.as_object()?);
    old.iter()
        .find(|(key, value)| new.get(*key) != Some(*value))
        .map(|(key, value)| format!("{key}: {value} in the file, {} now", new[key]))
}

/// An open trajectory, appended to one flushed line at a time.
pub struct Writer {
    path: PathBuf,
    file: File,
}

impl Writer {
    /// Creates a new trajectory with its header; refuses to overwrite an existing file.
    pub fn create(path: &Path, header: &Header) -> Result<Writer, String> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        let mut writer = Writer {
            path: path.to_path_buf(),
            file,
        };
        writer.append(header)?;
        Ok(writer)
    }

    /// Opens an existing trajectory (already checked by [`load`]) to append to it.
    pub fn reopen(path: &Path) -> Result<Writer, String> {
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        Ok(Writer {
            path: path.to_path_buf(),
            file,
        })
    }

    pub fn append(&mut self, record: &impl Serialize) -> Result<(), String> {
        let mut line = serde_json::to_string(record)
            .map_err(|e| format!("cannot encode a trajectory record: {e}"))?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }
}
