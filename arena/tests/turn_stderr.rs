//! Each bot's stderr, turn by turn: every turn record carries a `stderr` pair, each the text the
//! bot printed on stderr before that turn's answer (and after the previous one), bounded to the
//! tail with a marker; the whole-game tail is still kept. Replays written before this existed
//! still load, re-check and render.

mod common;

use common::*;
use std::path::Path;

/// Bytes of stderr kept per bot and turn (`arena/src/referee/turn_stderr.rs`).
const TURN_STDERR_BYTES: usize = 4096;
/// What the flooding bot prints before each answer: more than the bound.
const FLOOD_BYTES: usize = 6000;

#[test]
fn each_turn_record_holds_both_bots_stderr_before_their_answer() {
    let dir = scratch("turn_stderr");
    let result = run_match(&[
        "--p1",
        &testbot("good talk"),
        "--p2",
        &testbot(&format!("good flood={FLOOD_BYTES}")),
        "--games",
        "1",
        "--seed",
        "4",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let replay = load_json(&replay_paths(&result)[0]);
    let turns = replay["turns"].as_array().unwrap();
    assert!(turns.len() > 20, "a real race");
    for (index, record) in turns.iter().enumerate() {
        let turn = index + 1;
        let pair = record["stderr"].as_array().expect("a stderr pair per turn");
        assert_eq!(pair.len(), 2);
        // The talking bot: what it said after the previous answer, then before this one.
        let expected = if turn == 1 {
            let pid = pair[0]
                .as_str()
                .unwrap()
                .lines()
                .next()
                .unwrap()
                .to_string();
            assert!(pid.starts_with("pid="), "turn 1 starts with the pid line");
            format!("{pid}\nbefore answer 1\n")
        } else {
            format!("after answer {}\nbefore answer {turn}\n", turn - 1)
        };
        assert_eq!(pair[0], expected.as_str(), "turn {turn}");
        // The flooding bot: the tail of its 6001 bytes, behind the marker.
        let text = pair[1].as_str().unwrap();
        let (marker, kept) = text.split_once('\n').expect("a marker line");
        if turn > 1 {
            let cut = FLOOD_BYTES + 1 - TURN_STDERR_BYTES;
            assert_eq!(marker, format!("[arena: {cut} earlier bytes cut]"));
        } else {
            // Turn 1 also cuts the pid line.
            assert!(marker.starts_with("[arena: ") && marker.ends_with(" earlier bytes cut]"));
        }
        assert_eq!(
            kept.len(),
            TURN_STDERR_BYTES,
            "turn {turn}: the bounded tail"
        );
        assert!(kept.trim_end().bytes().all(|b| b == b'#'));
    }
    // The whole-game tail is still there.
    let game_tail = replay["stderr"][0].as_str().unwrap();
    assert!(game_tail.contains(&format!("before answer {}", turns.len())));
}

#[test]
fn replays_without_turn_stderr_still_load() {
    let old =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/replay-before-turn-stderr.json");
    let fixture = load_json(old.to_str().unwrap());
    let turns = fixture["turns"].as_array().unwrap();
    assert!(!turns.is_empty() && turns.iter().all(|t| t.get("stderr").is_none()));
    let output = run(&["replay", old.to_str().unwrap()]);
    assert!(output.status.success(), "arena replay: {}", stderr(&output));
    let inputs = run(&["inputs", old.to_str().unwrap(), "--player", "1"]);
    assert!(inputs.status.success(), "arena inputs: {}", stderr(&inputs));
    let dir = scratch("old_replay_view");
    let page = dir.join("old.html");
    let view = run(&[
        "view",
        old.to_str().unwrap(),
        "--output",
        page.to_str().unwrap(),
    ]);
    assert!(view.status.success(), "arena view: {}", stderr(&view));
}
