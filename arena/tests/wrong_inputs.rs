//! Every `arena` command with the mistakes people make: each gives its exit code and one line on
//! stderr naming the problem, and nothing is lost or overwritten without a word.

mod common;

use common::*;
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

/// The viewer's sample replay, a valid game to spoil in the tests.
fn sample_replay() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../viewer/tests/fixtures/sample-replay.json")
}

/// Asserts exit code `code` and exactly one stderr line starting with `arena: error: ` and
/// containing `needle`.
fn assert_one_line(args: &[&str], code: i32, needle: &str) {
    let output = run(args);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(code), "{args:?}: {message}");
    assert_eq!(message.lines().count(), 1, "{args:?}: {message}");
    assert!(message.starts_with("arena: error: "), "{args:?}: {message}");
    assert!(message.contains(needle), "{args:?}: {message}");
}

#[test]
fn match_values_that_make_no_sense_are_refused_before_any_game() {
    let dir = scratch("wrong_match_values");
    let out = dir.to_str().unwrap();
    let good = testbot("good");
    let cases: &[(&[&str], &str)] = &[
        (
            &["--games", "0"],
            "'--games <GAMES>': expected a whole number >= 1, got \"0\"",
        ),
        (
            &["--threads", "0"],
            "'--threads <THREADS>': expected a whole number >= 1",
        ),
        (&["--games", "many"], "--games"),
        (
            &["--sprt", "30", "0"],
            "--sprt ELO0 ELO1 needs finite bounds with ELO0 < ELO1",
        ),
        (&["--sprt", "5", "5"], "ELO0 < ELO1"),
        (&["--time-scale", "0"], "expected a positive number"),
        (&["--shard", "2/2"], "expected I/N with 0 <= I < N"),
        (&["--league", "platinum"], "unknown league \"platinum\""),
        (&["--bogus"], "unexpected argument '--bogus'"),
    ];
    for (extra, needle) in cases {
        let mut args = vec!["match", "--p1", &good, "--p2", &good, "--out", out];
        args.extend_from_slice(extra);
        assert_one_line(&args, 2, needle);
    }
    assert_one_line(
        &["match", "--p1", "", "--p2", &good],
        2,
        "'--p1 <P1>': expected a shell command",
    );
    assert_one_line(
        &["match", "--p1", &good],
        2,
        "required arguments were not provided: --p2",
    );
    assert!(
        fs::read_dir(&dir).unwrap().next().is_none(),
        "a refused match wrote nothing"
    );
}

#[test]
fn a_bot_that_stops_before_its_first_answer_stops_the_match() {
    let dir = scratch("wrong_bot_command");
    let cases = [
        ("echo 'csb: unknown flag --iteration' >&2; exit 2", "p1"),
        ("/nonexistent/bot", "p2"),
        ("true", "p1"),
    ];
    for (command, who) in cases {
        let good = testbot("good");
        let (p1, p2) = if who == "p1" {
            (command, good.as_str())
        } else {
            (good.as_str(), command)
        };
        let output = run(&[
            "match",
            "--p1",
            p1,
            "--p2",
            p2,
            "--games",
            "4",
            "--out",
            dir.to_str().unwrap(),
        ]);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{command}: {message}");
        assert_eq!(message.lines().count(), 1, "{command}: {message}");
        assert!(
            message.contains(&format!(
                "{who} command `{command}` stopped before its first answer"
            )),
            "{message}"
        );
    }
    let output = run(&[
        "match",
        "--p1",
        "echo 'csb: unknown flag --iteration' >&2; echo 'usage: ...' >&2; exit 2",
        "--p2",
        &testbot("good"),
        "--games",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let message = stderr(&output);
    assert!(
        message.contains("status 2 after 0 of 2 lines (stderr begins \"csb: unknown flag --iteration\", ends \"usage: ...\")"),
        "{message}"
    );
    for run_dir in fs::read_dir(&dir).unwrap() {
        let run_dir = run_dir.unwrap().path();
        let kept = fs::read_dir(&run_dir).unwrap().count();
        assert!(kept > 0, "{} left empty", run_dir.display());
    }
}

#[test]
fn replays_that_cannot_be_written_are_said_and_end_in_exit_1() {
    let dir = scratch("wrong_out");
    let file = dir.join("a-file");
    fs::write(&file, "not a directory").unwrap();
    let output = run(&[
        "match",
        "--p1",
        &testbot("good"),
        "--p2",
        &testbot("good"),
        "--games",
        "2",
        "--time-scale",
        "5",
        "--out",
        file.to_str().unwrap(),
        "--json",
    ]);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(
        message.contains("arena: warning: cannot create the replay directory"),
        "{message}"
    );
    assert!(
        message
            .lines()
            .last()
            .unwrap()
            .starts_with("arena: error: 2 of 2 replays could not be saved"),
        "{message}"
    );
    // The results are still printed, without a replay directory.
    let result: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(result["summary"]["games"], 2, "{result}");
    assert!(result["replay_dir"].is_null(), "{result}");
    assert_eq!(fs::read_to_string(&file).unwrap(), "not a directory");
}

#[test]
fn matches_started_together_with_one_seed_get_their_own_replay_directories() {
    let dir = scratch("wrong_collisions");
    let out = dir.to_str().unwrap();
    let good = testbot("good");
    let args = [
        "match",
        "--p1",
        &good,
        "--p2",
        &good,
        "--games",
        "2",
        "--time-scale",
        "5",
        "--out",
        out,
        "--json",
    ];
    let runs: Vec<_> = (0..3)
        .map(|_| {
            std::process::Command::new(arena())
                .args(args)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut replay_dirs = Vec::new();
    for child in runs {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success());
        let result: Value = serde_json::from_str(&stdout(&output)).unwrap();
        for path in replay_paths(&result) {
            assert!(Path::new(&path).is_file(), "{path}");
        }
        replay_dirs.push(result["replay_dir"].as_str().unwrap().to_string());
    }
    replay_dirs.sort();
    replay_dirs.dedup();
    assert_eq!(replay_dirs.len(), 3, "{replay_dirs:?}");
    for run_dir in replay_dirs {
        assert_eq!(fs::read_dir(run_dir).unwrap().count(), 2);
    }
}

#[test]
fn an_invalid_line_of_any_length_gives_a_short_detail() {
    let dir = scratch("wrong_long_line");
    // 200,000 digits on one line: an X of far more than 9 digits.
    let flood = "head -c 200000 /dev/zero | tr '\\000' 7; echo; echo";
    let result = run_match(&[
        "--p1",
        flood,
        "--p2",
        &testbot("good"),
        "--games",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let replay = load_json(&replay_paths(&result)[0]);
    let elimination = &replay["result"]["eliminations"][0];
    assert_eq!(elimination["cause"], "invalid output");
    let detail = elimination["detail"].as_str().unwrap();
    assert!(
        detail.len() < 300,
        "{} characters: {detail:.300}",
        detail.len()
    );
    assert!(
        detail.starts_with("line 1: X must be an integer of 1 to 9 digits"),
        "{detail}"
    );
}

#[test]
fn replay_refuses_unusable_games_as_bad_input() {
    let dir = scratch("wrong_replay");
    let sample: Value =
        serde_json::from_str(&fs::read_to_string(sample_replay()).unwrap()).unwrap();
    let cases: [(&str, Value, &str); 3] = [
        (
            "league",
            Value::from("platinum"),
            "unknown league \"platinum\"",
        ),
        ("checkpoints", Value::Array(Vec::new()), "bad checkpoints"),
        (
            "pods_per_player",
            Value::from(3),
            "pods_per_player must be 1 or 2, got 3",
        ),
    ];
    for (field, value, needle) in cases {
        let mut spoiled = sample.clone();
        spoiled[field] = value;
        let path = dir.join(format!("{field}.json"));
        fs::write(&path, spoiled.to_string()).unwrap();
        let path = path.to_str().unwrap();
        assert_one_line(
            &["replay", path],
            2,
            &format!("{path}: cannot be replayed: {needle}"),
        );
    }
    // A good game is still checked (0), and a changed one is a divergence (1).
    let good = dir.join("good.json");
    fs::copy(sample_replay(), &good).unwrap();
    assert_eq!(
        run(&["replay", good.to_str().unwrap()]).status.code(),
        Some(0)
    );
}

#[test]
fn view_never_overwrites_its_replay_and_names_the_file() {
    let dir = scratch("wrong_view");
    let replay = dir.join("game.json");
    fs::copy(sample_replay(), &replay).unwrap();
    let before = fs::read(&replay).unwrap();
    let path = replay.to_str().unwrap();
    let dotted = format!("{}/./game.json", dir.display());
    for output in [path, dotted.as_str()] {
        assert_one_line(&["view", path, "-o", output], 2, "is the replay itself");
    }
    assert_eq!(fs::read(&replay).unwrap(), before, "the replay is intact");
    let broken = dir.join("broken.json");
    fs::write(&broken, r#"{"format":"csb-replay","version":1}"#).unwrap();
    let broken = broken.to_str().unwrap();
    let page = dir.join("page.html");
    let page = page.to_str().unwrap();
    assert_one_line(
        &["view", broken, "-o", page],
        2,
        &format!("{broken}: malformed replay"),
    );
    assert_one_line(
        &["view", "/nonexistent/game.json", "-o", page],
        2,
        "cannot read /nonexistent/game.json",
    );
    assert!(!Path::new(page).exists());
    let output = run(&["view", path, "-o", page]);
    assert!(output.status.success(), "{}", stderr(&output));
}
