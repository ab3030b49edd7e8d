//! The csb replay file, version 1 (`arena/REPLAY_FORMAT.md`): its types, loading with the
//! format/version check, and writing whole or not at all (temporary file, then rename).

use crate::protocol::output_line::ParsedLine;
use csb::engine::{Collision, EndReason, Pod, Thrust};
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::Path;

pub const FORMAT: &str = "csb-replay";
pub const VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub format: String,
    pub version: u32,
    pub source: String,
    pub seed: Option<i64>,
    pub league: String,
    pub laps: u16,
    pub pods_per_player: usize,
    pub checkpoints: Vec<[i32; 2]>,
    pub players: Vec<PlayerInfo>,
    /// Optional (arena addition): time limits in ms, first turn then later turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limits_ms: Option<[f64; 2]>,
    pub initial_pods: Vec<PodState>,
    pub turns: Vec<TurnRecord>,
    pub result: GameResult,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<Vec<String>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerInfo {
    pub name: String,
    pub command: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PodState {
    pub x: i64,
    pub y: i64,
    pub vx: i64,
    pub vy: i64,
    pub angle: Option<f64>,
    pub next_checkpoint: usize,
    pub passes: u16,
    pub thrust: u16,
    pub target: Option<[i64; 2]>,
    pub shield: bool,
    pub boost_used: bool,
    pub message: String,
}

impl PodState {
    /// A pod as it stands before turn 1 or after a turn, with this turn's command details.
    pub fn of(pod: &Pod, checkpoint_count: usize, details: Option<TurnDetails>) -> PodState {
        let details = details.unwrap_or_default();
        PodState {
            x: pod.pos.x as i64,
            y: pod.pos.y as i64,
            vx: pod.vel.x as i64,
            vy: pod.vel.y as i64,
            angle: pod.angle_rad,
            next_checkpoint: pod.next_checkpoint(checkpoint_count),
            passes: pod.passes,
            thrust: details.thrust,
            target: details.target,
            shield: details.shield,
            boost_used: pod.boost_used,
            message: details.message,
        }
    }
}

/// What a pod was told in a turn, as the replay shows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TurnDetails {
    pub thrust: u16,
    pub target: Option<[i64; 2]>,
    pub shield: bool,
    pub message: String,
}

impl TurnDetails {
    /// The details of `line` for `pod` as it stands before the turn: the thrust actually applied
    /// (0 under SHIELD and its 3-turn lock, 650 for a first BOOST, the cap for a later one —
    /// csb-rules.md §4.1), the target, the SHIELD flag and the message.
    pub fn new(pod: &Pod, line: &ParsedLine, cap: u16) -> TurnDetails {
        let thrust = match line.command.thrust {
            Thrust::Shield => 0,
            _ if pod.shield_lock_turns > 0 => 0,
            Thrust::Boost if pod.boost_used => cap,
            Thrust::Boost => 650,
            Thrust::Power(power) => power,
        };
        TurnDetails {
            thrust,
            target: Some([line.command.target.x as i64, line.command.target.y as i64]),
            shield: line.command.thrust == Thrust::Shield,
            message: line.message.clone(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurnRecord {
    pub turn: u16,
    pub outputs: Vec<Vec<String>>,
    #[serde(default)]
    pub response_ms: Vec<Option<f64>>,
    /// Optional (arena addition): per player, the bounded stderr printed before this turn's
    /// answer (`turn_stderr`); absent in older replays and CodinGame imports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<Vec<String>>,
    pub pods: Vec<PodState>,
    #[serde(default)]
    pub collisions: Vec<CollisionRecord>,
    pub checkpoint_timeout: Vec<i32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CollisionRecord {
    pub time: f64,
    pub a: usize,
    pub b: usize,
    pub ax: f64,
    pub ay: f64,
    pub bx: f64,
    pub by: f64,
    pub impulse: f64,
}

impl From<&Collision> for CollisionRecord {
    fn from(c: &Collision) -> CollisionRecord {
        CollisionRecord {
            time: c.time,
            a: c.pod_a,
            b: c.pod_b,
            ax: c.pos_a.x,
            ay: c.pos_a.y,
            bx: c.pos_b.x,
            by: c.pos_b.y,
            impulse: c.impulse,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    pub ranks: Vec<u8>,
    pub winner: Option<usize>,
    pub reason: String,
    pub turns: u16,
    #[serde(default)]
    pub eliminations: Vec<Elimination>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Elimination {
    pub player: usize,
    pub turn: u16,
    pub cause: String,
    #[serde(default)]
    pub detail: String,
}

impl Elimination {
    /// A player eliminated by the 100-turn checkpoint timeout at the end of `turn`.
    pub fn checkpoint_timeout(player: usize, turn: u16) -> Elimination {
        Elimination {
            player,
            turn,
            cause: cause::CHECKPOINT_TIMEOUT.to_string(),
            detail: "no checkpoint passed in 100 turns".to_string(),
        }
    }
}

/// Causes of elimination, as written in `result.eliminations[].cause`.
pub mod cause {
    pub const TIMEOUT: &str = "timeout";
    pub const INVALID_OUTPUT: &str = "invalid output";
    pub const CRASH: &str = "crash";
    pub const CHECKPOINT_TIMEOUT: &str = "checkpoint timeout";
    pub const TOO_FEW_LINES: &str = "too few lines";
    pub const TOO_MANY_LINES: &str = "too many lines";
}

/// End reasons, as written in `result.reason`.
pub mod reason {
    pub const RACE_COMPLETE: &str = "race complete";
    pub const ELIMINATION: &str = "elimination";
    pub const TURN_LIMIT: &str = "turn limit";
}

/// The replay's name for an end reason.
pub fn reason_name(end: EndReason) -> &'static str {
    match end {
        EndReason::RaceComplete => reason::RACE_COMPLETE,
        EndReason::Elimination => reason::ELIMINATION,
        EndReason::TurnLimit => reason::TURN_LIMIT,
    }
}

impl Replay {
    /// Parses a replay, rejecting other formats and newer versions with a clear message.
    pub fn from_json(text: &str) -> Result<Replay, String> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
        match value.get("format").and_then(|f| f.as_str()) {
            Some(FORMAT) => {}
            Some(other) => return Err(format!("format is {other:?}, expected {FORMAT:?}")),
            None => return Err(format!("no \"format\": {FORMAT:?} field: not a csb replay")),
        }
        let version = value.get("version").and_then(|v| v.as_u64()).unwrap_or(0);
        if version == 0 || version > u64::from(VERSION) {
            return Err(format!(
                "replay version {version} is not supported (this arena reads version {VERSION})"
            ));
        }
        serde_json::from_value(value).map_err(|e| format!("malformed replay: {e}"))
    }

    pub fn load(path: &Path) -> Result<Replay, String> {
        let text =
            fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Replay::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes the replay to `path` atomically (temporary file in the same directory + rename).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string(self).map_err(|e| format!("cannot encode replay: {e}"))?;
        write_atomically(path, text.as_bytes())
    }
}

/// Writes `bytes` to `path` whole or not at all.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = path.with_file_name(format!(".{file_name}.{}.tmp", std::process::id()));
    let result = fs::write(&temporary, bytes)
        .and_then(|()| fs::rename(&temporary, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()));
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result
}
