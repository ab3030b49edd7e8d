//! `arena import-cg` on CodinGame ground truth: the viewer demo game (277 turns, 0 mismatches),
//! the same game rewritten in the `gameResult` form (stdout per frame, view strings,
//! refereeInput), the 870433349 fixture, conversion to our format, and a corrupted recording
//! that must be reported. Then the end-of-game conventions on the crafted recordings of
//! `tests/data/cg-crafted/` (written by `examples/craft_cg_recordings.rs`): every cause of an
//! end, eliminated pods, a double elimination, and the laps of viewer-frame recordings.

mod common;

use common::*;
use serde_json::{json, Value};
use std::fs;

fn demo_path() -> String {
    cg_replays()
        .join("csb-viewer-demo-game.json")
        .display()
        .to_string()
}

#[test]
fn viewer_demo_game_matches_bit_for_bit_and_converts() {
    let dir = scratch("import_demo");
    let output = run(&[
        "import-cg",
        &demo_path(),
        "--convert",
        dir.to_str().unwrap(),
    ]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    assert!(text.contains("turns=277 mismatches=0"), "{text}");
    assert!(text.contains("40 collisions"), "{text}");
    assert!(
        text.contains("ends after turn 277 with endReached (a pod finished); ours: race complete after turn 277"),
        "{text}"
    );
    // Old rules in viewer frames: no BOOST, a finish on pass 15 of 3 checkpoints.
    assert!(
        text.contains("laps: 5 (contest-era rule, floor(15 / 3) = 5 laps"),
        "{text}"
    );
    let converted = dir.join("csb-viewer-demo-game.json");
    let replay = load_json(converted.to_str().unwrap());
    assert_eq!(replay["source"], "codingame");
    assert_eq!(replay["laps"], 5);
    assert_eq!(replay["result"]["winner"], 1);
    let checked = run(&["replay", converted.to_str().unwrap()]);
    assert!(checked.status.success(), "{}", stderr(&checked));
}

#[test]
fn fixture_870433349_matches() {
    let path = cg_replays().join("pduhard-fixture-game-870433349.txt");
    let output = run(&["import-cg", path.to_str().unwrap()]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("turns=140 mismatches=0"), "{text}");
    assert!(
        text.contains(
            "with no end reason (the form records none); ours: race complete after turn 140"
        ),
        "{text}"
    );
}

/// The demo game rewritten as a current `gameResult` replay under `success`.
fn demo_as_game_result() -> Value {
    let demo = load_json(&demo_path());
    let frames = demo["frames"].as_array().unwrap();
    let mut out = Vec::new();
    for (index, frame) in frames.iter().enumerate() {
        let mut lines: Vec<String> = frame
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap().to_string())
            .collect();
        let end = if lines[0].contains("endReached") {
            " endReached"
        } else {
            ""
        };
        lines[0] = format!(" {index}{end}");
        let keyframe = index % 2 == 0;
        let agent: i64 = if index == 0 {
            -1
        } else if keyframe {
            1
        } else {
            0
        };
        let mut object = json!({
            "view": lines.join("\n"),
            "keyframe": keyframe,
            "agentId": agent,
        });
        if index > 0 {
            // Player 0's output rides on frame 2k-1, player 1's on 2k; both from key frame 2k.
            let key = frames[if keyframe { index } else { index + 1 }]
                .as_array()
                .unwrap();
            let pods = if agent == 0 { [0, 1] } else { [2, 3] };
            let stdout: String = pods
                .iter()
                .map(|&p| {
                    let f: Vec<&str> = key[1 + 2 * p].as_str().unwrap().split(' ').collect();
                    let thrust = if f[9] == "1" { "SHIELD" } else { f[4] };
                    format!("{} {} {thrust}\n", f[6], f[7])
                })
                .collect();
            object["stdout"] = stdout.into();
        }
        out.push(object);
    }
    let map = frames[0][3].as_str().unwrap();
    json!({
        "success": {
            "frames": out,
            "refereeInput": format!("seed=12345\npod_timeout=100\nmap={map}\npod_per_player=2\nlaps=5"),
            "ranks": [1, 0],
            "agents": [{"codingamer": {"pseudo": "alice"}}, {"codingamer": {"pseudo": "bob"}}],
        }
    })
}

#[test]
fn game_result_form_parses_and_verifies() {
    let dir = scratch("import_game_result");
    let path = dir.join("game-result.json");
    fs::write(
        &path,
        serde_json::to_string(&demo_as_game_result()).unwrap(),
    )
    .unwrap();
    let output = run(&[
        "import-cg",
        path.to_str().unwrap(),
        "--convert",
        dir.to_str().unwrap(),
    ]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("turns=277 mismatches=0"), "{text}");
    assert!(text.contains("gameResult"), "{text}");
    let converted = load_json(dir.join("game-result.json").to_str().unwrap());
    assert_eq!(converted["seed"], 12345);
    assert_eq!(converted["players"][1]["name"], "bob");
    assert_eq!(converted["turns"][0]["outputs"][1][0], "11548 6107 80");
}

#[test]
fn a_corrupted_recording_is_reported() {
    let dir = scratch("import_corrupt");
    let mut game = demo_as_game_result();
    let frame = &mut game["success"]["frames"][100];
    let view = frame["view"].as_str().unwrap().to_string();
    let mut lines: Vec<String> = view.split('\n').map(String::from).collect();
    let mut fields: Vec<String> = lines[3].split(' ').map(String::from).collect();
    fields[2] = (fields[2].parse::<i64>().unwrap() + 1).to_string();
    lines[3] = fields.join(" ");
    frame["view"] = lines.join("\n").into();
    let path = dir.join("corrupt.json");
    fs::write(&path, serde_json::to_string(&game).unwrap()).unwrap();
    let output = run(&["import-cg", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(text.contains("turns=277 mismatches="), "{text}");
    assert!(text.contains("turn 50 pod 1: position/speed"), "{text}");
}

fn crafted(name: &str) -> String {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/cg-crafted")
        .join(format!("{name}.json"))
        .display()
        .to_string()
}

/// Imports a crafted recording, converting it; returns the report and the converted replay.
fn import_crafted(name: &str, extra: &[&str]) -> (String, Value) {
    let dir = scratch(&format!("import_crafted_{name}"));
    let path = crafted(name);
    let mut args = vec![
        "import-cg",
        path.as_str(),
        "--convert",
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let output = run(&args);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    let replay = load_json(dir.join(format!("{name}.json")).to_str().unwrap());
    (text, replay)
}

#[test]
fn an_end_by_the_checkpoint_timeout_names_no_reason_and_keeps_the_next_checkpoints() {
    let (text, replay) = import_crafted("checkpoint-timeout", &[]);
    assert!(text.contains("turns=100 mismatches=0"), "{text}");
    assert!(
        text.contains("ends after turn 100 with no reason (an elimination); ours: checkpoint timeout of player 1 after turn 100"),
        "{text}"
    );
    let result = &replay["result"];
    assert_eq!(result["ranks"], json!([1, 2]));
    assert_eq!(result["reason"], "elimination");
    assert_eq!(result["eliminations"][0]["cause"], "checkpoint timeout");
    assert_eq!(result["eliminations"][0]["player"], 1);
    // Player 1's pods never passed a checkpoint: their next one is still 1, not -1.
    let last = replay["turns"].as_array().unwrap().last().unwrap();
    assert_eq!(last["pods"][2]["next_checkpoint"], 1);
}

#[test]
fn an_end_by_the_turn_limit_is_max_rounds_count_reached() {
    let (text, replay) = import_crafted("turn-limit", &[]);
    assert!(text.contains("turns=500 mismatches=0"), "{text}");
    assert!(
        text.contains(
            "with maxRoundsCountReached (the turn limit); ours: turn limit after turn 500"
        ),
        "{text}"
    );
    assert_eq!(replay["result"]["reason"], "turn limit");
    assert_eq!(replay["result"]["turns"], 500);
}

#[test]
fn a_double_elimination_is_a_draw() {
    let (text, replay) = import_crafted("double-elimination", &[]);
    assert!(text.contains("turns=100 mismatches=0"), "{text}");
    assert!(
        text.contains("ours: checkpoint timeout of player 0 and player 1 after turn 100"),
        "{text}"
    );
    assert_eq!(replay["result"]["ranks"], json!([1, 1]));
    assert_eq!(replay["result"]["winner"], Value::Null);
}

#[test]
fn an_end_outside_the_physics_takes_the_recorded_ranks() {
    let (text, replay) = import_crafted("time-out", &[]);
    assert!(text.contains("turns=60 mismatches=0"), "{text}");
    assert!(
        text.contains(
            "ours: race still on after turn 60; so the end was an elimination outside the physics"
        ),
        "{text}"
    );
    assert_eq!(replay["result"]["ranks"], json!([2, 1]));
    assert_eq!(replay["result"]["winner"], 1);
}

#[test]
fn viewer_frames_with_a_boost_are_current_rules() {
    let (text, replay) = import_crafted("viewer-current-rules-boost", &[]);
    assert!(text.contains("mismatches=0"), "{text}");
    assert!(
        text.contains("laps: 3 (current rules, 3 laps: pod 0 shows a BOOST's 650 thrust at turn 1"),
        "{text}"
    );
    assert!(
        text.contains("with endReached (a pod finished); ours: race complete"),
        "{text}"
    );
    assert_eq!(replay["laps"], 3);
}

#[test]
fn viewer_frames_finishing_on_the_ninth_of_three_checkpoints_are_current_rules() {
    let (text, _) = import_crafted("viewer-current-rules-no-boost", &[]);
    assert!(text.contains("mismatches=0"), "{text}");
    assert!(
        text.contains("laps: 3 (current rules, 3 laps: the race ends on pod 0's pass 9, which only 3 laps of 3 checkpoints explain"),
        "{text}"
    );
}

#[test]
fn laps_can_be_given_and_a_wrong_count_shows() {
    let path = crafted("viewer-current-rules-no-boost");
    let output = run(&["import-cg", &path, "--laps", "5"]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.contains("laps: 5 (given by --laps)"), "{text}");
    assert!(
        text.contains("with endReached (a pod finished) but here: race still on"),
        "{text}"
    );
    let output = run(&["import-cg", &path, "--laps", "0"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--laps"), "{}", stderr(&output));
}

#[test]
fn a_header_naming_an_end_before_the_last_frame_is_reported() {
    let dir = scratch("import_early_end");
    let mut game = load_json(&crafted("checkpoint-timeout"));
    let frame = &mut game["gameResult"]["frames"][100];
    let view = frame["view"]
        .as_str()
        .unwrap()
        .replacen(" 100", " 100 endReached", 1);
    frame["view"] = view.into();
    let path = dir.join("early.json");
    fs::write(&path, serde_json::to_string(&game).unwrap()).unwrap();
    let output = run(&["import-cg", path.to_str().unwrap()]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("turn 50: the header names an end (endReached) but the recording goes on"),
        "{text}"
    );
}
