//! What the `learn` command tests share: running the binary, a fresh scratch folder per test, a
//! path as an argument, and the two outcomes a run is checked for (success; a one-line error).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `learn ARGS`, its output captured.
pub fn learn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_learn"))
        .args(args)
        .output()
        .expect("learn runs")
}

/// A fresh scratch directory `learn-{file}-{process}-{name}` for one test.
pub fn scratch_in_temp(file: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("learn-{file}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `path` as a command-line argument.
pub fn text(path: &Path) -> String {
    path.to_str().unwrap().to_string()
}

/// The run succeeded (its stderr shown if not).
pub fn assert_success(output: &Output) {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A one-line error with exit code 2 that mentions `mentions`.
pub fn assert_one_line_error(output: &Output, mentions: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("learn: ") && stderr.contains(mentions),
        "{stderr}"
    );
}
