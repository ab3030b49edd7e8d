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

/// Complete lines of a results file (a line cut short is not one).
fn complete_lines(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let complete = text.rfind('\n').map_or("", |end| &text[..=end]);
    complete.lines().map(str::to_string).collect()
}

#[test]
fn ctrl_c_during_a_ladder_keeps_the_first_game_of_a_pair_and_resumes_from_it() {
    let dir = scratch("ladder_interrupt");
    let marker = dir.join("ladder-interrupt-marker");
    let testbot = env!("CARGO_BIN_EXE_testbot");
    // Two players thinking 10 ms a turn: a game lasts long enough to be interrupted in.
    let mut roster =
        String::from("[controls.slow]\nbudget_ms = 5\nfirst_budget_ms = 50\ntime_scale = 20.0\n");
    for (name, mode) in [("full", "good"), ("half", "thrust=50")] {
        roster.push_str(&format!(
            "\n[[players]]\nname = \"{name}\"\npath = \"{testbot}\"\n\
             flags = \"{mode} sleep=10 --record {}\"\nbudget = false\n",
            marker.display()
        ));
    }
    let players = dir.join("players.toml");
    std::fs::write(&players, roster).unwrap();
    let results = dir.join("results.jsonl");
    let args = [
        "ladder",
        "play",
        "--players",
        players.to_str().unwrap(),
        "--control",
        "slow",
        "--pairs",
        "1",
        "--threads",
        "1",
        "--results",
        results.to_str().unwrap(),
    ];
    let mut ladder = Command::new(arena())
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while complete_lines(&results).is_empty() && started.elapsed() < Duration::from_secs(120) {
        if let Some(status) = ladder.try_wait().unwrap() {
            let mut message = String::new();
            std::io::Read::read_to_string(&mut ladder.stderr.take().unwrap(), &mut message)
                .unwrap();
            panic!("the ladder ended before its first game ({status}): {message}");
        }
        sleep(Duration::from_millis(10));
    }
    // The pair's second game is under way.
    // SAFETY: signalling the arena child we started.
    unsafe {
        libc::kill(ladder.id() as i32, libc::SIGINT);
    }
    let status = ladder.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let kept = complete_lines(&results);
    assert_eq!(kept.len(), 1, "only the pair's first game ended: {kept:?}");
    assert!(kept[0].contains("\"pair\":0,\"a_player\":0"), "{}", kept[0]);
    let marker = marker.display().to_string();
    let left: Vec<u32> = processes_with(&marker)
        .into_iter()
        .filter(|&pid| pid != ladder.id())
        .collect();
    assert!(left.is_empty(), "processes left after Ctrl-C: {left:?}");

    // Resumed: only the second game is played, and the first is kept as it was.
    let resumed = run(&args);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(
        stderr(&resumed).contains("1 game(s) to play (1 already in"),
        "{}",
        stderr(&resumed)
    );
    let all = complete_lines(&results);
    assert_eq!(all.len(), 2, "{all:?}");
    assert_eq!(all[0], kept[0]);
    assert!(all[1].contains("\"pair\":0,\"a_player\":1"), "{}", all[1]);
}
