//! `arena ladder` end to end with already-built players (the test bot at three thrusts): a
//! round robin appends one line per game, a second run resumes with nothing left to play,
//! shards played apart rate the same as the whole run, and bad requests fail with one line.

mod common;

use common::*;
use std::path::Path;

fn roster(dir: &Path) -> String {
    let testbot = env!("CARGO_BIN_EXE_testbot");
    let mut text = String::from(
        "[controls.quick]\nbudget_ms = 5\nfirst_budget_ms = 50\ntime_scale = 20.0\n\n\
         [controls.other]\nbudget_ms = 1\nfirst_budget_ms = 10\n",
    );
    for (name, mode) in [
        ("full", "good"),
        ("medium", "thrust=60"),
        ("slow", "thrust=30"),
    ] {
        text.push_str(&format!(
            "\n[[players]]\nname = \"{name}\"\npath = \"{testbot}\"\nflags = \"{mode}\"\nbudget = false\n"
        ));
    }
    let path = dir.join("players.toml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).unwrap().lines().count()
}

#[test]
fn round_robin_resumes_and_shards_merge() {
    let dir = scratch("ladder");
    let players = roster(&dir);
    let whole = dir.join("whole.jsonl");
    let play = |extra: &[&str], results: &Path| {
        let mut args = vec![
            "ladder",
            "play",
            "--players",
            &players,
            "--control",
            "quick",
            "--pairs",
            "2",
            "--anchor",
            "slow",
            "--results",
            results.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let output = run(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        output
    };
    let first = play(&["--threads", "2"], &whole);
    // 3 pairings × 2 pairs × 2 seats.
    assert_eq!(lines(&whole), 12);
    let table = stdout(&first);
    assert!(
        table.contains("| full |") && table.contains("anchor"),
        "{table}"
    );
    let again = play(&[], &whole);
    assert!(
        stderr(&again).contains("0 game(s) to play"),
        "{}",
        stderr(&again)
    );
    assert_eq!(lines(&whole), 12);

    let (part0, part1) = (dir.join("part0.jsonl"), dir.join("part1.jsonl"));
    play(&["--shard", "0/2"], &part0);
    play(&["--shard", "1/2"], &part1);
    assert_eq!(lines(&part0) + lines(&part1), 12);
    let table_of = |files: &[&Path]| {
        let mut args = vec!["ladder", "table", "--anchor", "slow", "--players", &players];
        args.extend(files.iter().map(|f| f.to_str().unwrap()));
        let output = run(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output)
    };
    // The test bot is deterministic: the shards' games are the whole run's games.
    assert_eq!(table_of(&[&part0, &part1]), table_of(&[&whole]));
    // Listing a file twice counts its games once.
    assert_eq!(table_of(&[&whole, &whole]), table_of(&[&whole]));
}

#[test]
fn bad_ladder_requests_fail_with_one_line() {
    let dir = scratch("ladder_errors");
    let players = roster(&dir);
    let results = dir.join("r.jsonl");
    let check = |args: &[&str], needle: &str| {
        let output = run(args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        let message = stderr(&output);
        assert!(message.contains(needle), "{args:?}: {message}");
        assert_eq!(message.trim().lines().count(), 1, "{message}");
    };
    let r = results.to_str().unwrap();
    check(
        &[
            "ladder",
            "play",
            "--players",
            &players,
            "--control",
            "nope",
            "--results",
            r,
        ],
        "no control \"nope\"",
    );
    check(
        &[
            "ladder",
            "play",
            "--players",
            &players,
            "--control",
            "quick",
            "--only",
            "full,ghost",
            "--results",
            r,
        ],
        "no player \"ghost\"",
    );
    check(&["ladder", "table", r], "no game");
    check(
        &[
            "ladder",
            "build",
            "--players",
            &dir.join("missing.toml").display().to_string(),
        ],
        "cannot read",
    );
    // A sweep cannot be rated without virtual draws.
    let output = run(&[
        "ladder",
        "play",
        "--players",
        &players,
        "--control",
        "quick",
        "--pairs",
        "1",
        "--only",
        "full,slow",
        "--anchor",
        "slow",
        "--results",
        r,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let sweep = std::fs::read_to_string(&results).unwrap();
    // The full-thrust bot wins both games (the test bot is deterministic).
    assert_eq!(sweep.matches("\"a_score\":1.0").count(), 2, "{sweep}");
    check(
        &[
            "ladder",
            "table",
            r,
            "--prior-draws",
            "0",
            "--anchor",
            "slow",
        ],
        "--prior-draws",
    );
    check(
        &["ladder", "table", r, "--anchor", "nobody"],
        "anchor nobody",
    );
}
