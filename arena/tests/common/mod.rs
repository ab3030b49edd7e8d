//! Helpers shared by the arena's integration tests: paths of the built binaries, running the
//! arena, scratch directories, and loading replays as JSON.

#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn arena() -> &'static str {
    env!("CARGO_BIN_EXE_arena")
}

pub fn testbot(mode: &str) -> String {
    format!("{} {mode}", env!("CARGO_BIN_EXE_testbot"))
}

/// The shared ground-truth directory (`../shared/data/cg-replays` from the repository root).
pub fn cg_replays() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/cg-replays")
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn run(args: &[&str]) -> Output {
    Command::new(arena())
        .args(args)
        .output()
        .expect("the arena binary runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs `arena match ... --json` and returns the parsed result.
pub fn run_match(args: &[&str]) -> Value {
    let mut all = vec!["match", "--json"];
    all.extend_from_slice(args);
    let output = run(&all);
    assert!(
        output.status.success(),
        "arena match failed: {}",
        stderr(&output)
    );
    serde_json::from_str(&stdout(&output)).expect("--json prints JSON")
}

pub fn load_json(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The replay files of a match result, in game order.
pub fn replay_paths(result: &Value) -> Vec<String> {
    result["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["replay"].as_str().expect("replay saved").to_string())
        .collect()
}

/// Pids the test bots announced on stderr (`pid=N`) in a replay.
pub fn announced_pids(replay: &Value) -> Vec<u32> {
    replay["stderr"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|text| {
            text.as_str()
                .unwrap()
                .lines()
                .filter_map(|l| l.strip_prefix("pid="))
                .map(|p| p.trim().parse::<u32>().unwrap())
                .collect::<Vec<_>>()
        })
        .collect()
}

pub fn process_exists(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}
