//! A full game between two real (test) bots: it runs to the end, its saved replay re-simulates
//! identically with `arena replay`, `arena inputs` gives byte for byte what a bot read, and a
//! tampered replay is rejected naming the turn, pod and field.

mod common;

use common::*;
use std::fs;

#[test]
fn full_game_replays_identically_and_inputs_match_what_the_bot_read() {
    let dir = scratch("full_game");
    let record = dir.join("p2-stdin.txt");
    let p2 = format!("{} --record {}", testbot("good"), record.display());
    let result = run_match(&[
        "--p1",
        &testbot("good"),
        "--p2",
        &p2,
        "--games",
        "1",
        "--seed",
        "11",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let replays = replay_paths(&result);
    assert_eq!(replays.len(), 1);
    let replay = load_json(&replays[0]);
    assert_eq!(replay["format"], "csb-replay");
    assert_eq!(
        replay["result"]["reason"], "race complete",
        "{}",
        replay["result"]
    );
    let turns = replay["turns"].as_array().unwrap().len();
    assert!(
        turns > 50,
        "a whole race takes more than 50 turns, got {turns}"
    );
    assert_eq!(replay["result"]["turns"], turns);
    assert!(replay["result"]["eliminations"]
        .as_array()
        .unwrap()
        .is_empty());

    let checked = run(&["replay", &replays[0]]);
    assert!(checked.status.success(), "{}", stderr(&checked));
    assert!(stdout(&checked).contains(&format!("ok, {turns} turns")));

    // Game 0: p1 is player 0, so the recorded p2 is player 1.
    let inputs = run(&["inputs", &replays[0], "--player", "1"]);
    assert!(inputs.status.success(), "{}", stderr(&inputs));
    assert_eq!(stdout(&inputs), fs::read_to_string(&record).unwrap());
    let first = run(&["inputs", &replays[0], "--player", "0"]);
    let text = stdout(&first);
    assert!(text.starts_with("3\n"), "laps first: {text:.40}");
    let checkpoints = replay["checkpoints"].as_array().unwrap().len();
    assert_eq!(text.lines().count(), 2 + checkpoints + 4 * turns);
}

#[test]
fn tampered_replay_names_turn_pod_and_field() {
    let dir = scratch("tampered");
    let result = run_match(&[
        "--p1",
        &testbot("good"),
        "--p2",
        &testbot("good"),
        "--games",
        "1",
        "--seed",
        "4",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let path = &replay_paths(&result)[0];
    let mut replay = load_json(path);
    let vx = replay["turns"][9]["pods"][2]["vx"].as_i64().unwrap();
    replay["turns"][9]["pods"][2]["vx"] = (vx + 1).into();
    let bad = dir.join("tampered.json");
    fs::write(&bad, serde_json::to_string(&replay).unwrap()).unwrap();
    let checked = run(&["replay", bad.to_str().unwrap()]);
    assert_eq!(checked.status.code(), Some(1));
    let message = stderr(&checked);
    assert!(message.contains("turn 10 pod 2: vx"), "{message}");

    let mut replay = load_json(path);
    replay["turns"][3]["outputs"][0][1] = "1 2 3".into();
    fs::write(&bad, serde_json::to_string(&replay).unwrap()).unwrap();
    let checked = run(&["replay", bad.to_str().unwrap()]);
    assert_eq!(checked.status.code(), Some(1));
    assert!(
        stderr(&checked).contains("turn 4 pod 1"),
        "{}",
        stderr(&checked)
    );
}

#[test]
fn bad_files_and_flags_give_one_line_errors() {
    let dir = scratch("bad_files");
    let not_json = dir.join("x.json");
    fs::write(&not_json, "{ nope").unwrap();
    let newer = dir.join("newer.json");
    fs::write(&newer, r#"{"format":"csb-replay","version":99}"#).unwrap();
    for args in [
        vec!["replay", "/nonexistent/file.json"],
        vec!["replay", not_json.to_str().unwrap()],
        vec!["replay", newer.to_str().unwrap()],
        vec!["inputs", not_json.to_str().unwrap(), "--player", "0"],
        vec!["import-cg", not_json.to_str().unwrap()],
        vec!["merge", not_json.to_str().unwrap()],
        vec!["match", "--p1", "x", "--p2", "y", "--shard", "3/2"],
        vec!["match", "--p1", "x", "--p2", "y", "--league", "platinum"],
    ] {
        let output = run(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let message = stderr(&output);
        assert!(!message.contains("panicked"), "{args:?}: {message}");
        assert!(!message.trim().is_empty(), "{args:?}");
    }
    let output = run(&["replay", newer.to_str().unwrap()]);
    assert!(stderr(&output).contains("version 99 is not supported"));
}

#[test]
fn missing_bot_binary_stops_the_match_with_a_clear_error() {
    let dir = scratch("missing_bot");
    let output = run(&[
        "match",
        "--p1",
        "/nonexistent/bot --flag",
        "--p2",
        &testbot("good"),
        "--games",
        "4",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(message.contains("p1 command"), "{message}");
    assert!(message.contains("not found"), "{message}");
}
