//! Ctrl-C during a match: the arena kills every bot process (including `sh -c` grandchildren)
//! and exits with status 130.

mod common;

use common::*;
use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// Pids of live processes whose command line contains `marker`.
fn processes_with(marker: &str) -> Vec<u32> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            if String::from_utf8_lossy(&cmdline).contains(marker) {
                pids.push(pid);
            }
        }
    }
    pids
}

#[test]
fn ctrl_c_kills_every_bot() {
    let dir = scratch("interrupt");
    let marker = dir.join("interrupt-marker");
    let bot = format!(
        "{} --record {}; true",
        testbot("sleep-first"),
        marker.display()
    );
    let mut arena = Command::new(arena())
        .args([
            "match",
            "--p1",
            &bot,
            "--p2",
            &bot,
            "--games",
            "8",
            "--threads",
            "2",
        ])
        .args(["--time-scale", "50", "--out", dir.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let marker = marker.display().to_string();
    let started = Instant::now();
    // The arena itself, plus 2 games × 2 bots × (sh + testbot).
    while processes_with(&marker).len() < 9 && started.elapsed() < Duration::from_secs(10) {
        sleep(Duration::from_millis(20));
    }
    assert!(processes_with(&marker).len() >= 9, "bots did not start");
    // SAFETY: signalling the arena child we started.
    unsafe {
        libc::kill(arena.id() as i32, libc::SIGINT);
    }
    let status = arena.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let left: Vec<u32> = processes_with(&marker)
        .into_iter()
        .filter(|&pid| pid != arena.id())
        .collect();
    let described: Vec<String> = left
        .iter()
        .map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            format!("{pid}: {stat}")
        })
        .collect();
    assert!(
        left.is_empty(),
        "processes left after Ctrl-C: {described:?}"
    );
}
