//! `arena import-cg` on CodinGame ground truth: the viewer demo game (277 turns, 0 mismatches),
//! the same game rewritten in the `gameResult` form (stdout per frame, view strings,
//! refereeInput), the 870433349 fixture, conversion to our format, and a corrupted recording
//! that must be reported.

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
    assert!(output.status.success(), "{}", stdout(&output));
    assert!(stdout(&output).contains("turns=140 mismatches=0"));
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
