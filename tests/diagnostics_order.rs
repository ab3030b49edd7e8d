//! The bot prints each turn's diagnostics (and, with `--verbose 1`, its root statistics) on
//! stderr before that turn's answer, so a referee that files stderr under the answer it precedes
//! (the arena's replays, CodinGame's panel) shows them beside the position they explain. Checked
//! with stdout and stderr sent into one pipe, which keeps the order of the writes.

use std::io::Write;
use std::process::{Command, Stdio};

const RECORDED_INPUT: &str = "replays/inputs/cg-demo.p0.txt";
const TURNS: usize = 12;

/// Runs the bot with `flags` on the first `lines` lines of `recorded_input` and returns its
/// stdout and stderr merged in the order they were written.
fn merged_output(flags: &str, recorded_input: &str, lines: usize) -> String {
    let text = std::fs::read_to_string(recorded_input).unwrap();
    let input: Vec<&str> = text.lines().take(lines).collect();
    let command = format!("exec {} {flags} 2>&1", env!("CARGO_BIN_EXE_csb"));
    let mut child = Command::new("sh")
        .args(["-c", &command])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("sh starts the bot");
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all((input.join("\n") + "\n").as_bytes())
        .unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn each_turns_diagnostics_come_before_its_answer() {
    let merged = merged_output(
        "--iterations 200 --seed 3 --verbose 1",
        RECORDED_INPUT,
        5 + 4 * TURNS,
    );
    let is_command = |line: &str| {
        let words: Vec<&str> = line.split_whitespace().collect();
        words.len() >= 3 && words[..2].iter().all(|w| w.parse::<i64>().is_ok())
    };
    // Per turn: the diagnostic line, then the root statistics, then exactly two commands.
    let mut turn = 0;
    let mut commands_this_turn = 2;
    let mut statistics_this_turn = 0;
    for line in merged.lines() {
        if line.starts_with("turn ") {
            assert_eq!(commands_this_turn, 2, "turn {turn} ended with its answer");
            turn += 1;
            assert!(line.starts_with(&format!("turn {turn}: ")), "{line}");
            commands_this_turn = 0;
            statistics_this_turn = 0;
        } else if is_command(line) {
            assert!(
                statistics_this_turn > 0,
                "turn {turn}: statistics before the answer"
            );
            commands_this_turn += 1;
            assert!(commands_this_turn <= 2, "turn {turn}: {line}");
        } else {
            assert_eq!(
                commands_this_turn, 0,
                "turn {turn}: {line:?} after the answer"
            );
            statistics_this_turn += 1;
        }
    }
    assert_eq!((turn, commands_this_turn), (TURNS, 2), "{merged}");
}

/// Below Gold the same shared loop writes one line per turn before the one command.
#[test]
fn below_gold_each_turns_line_comes_before_its_command() {
    let merged = merged_output(
        "--league wood3 --iterations 200 --seed 3",
        "replays/inputs/wood3-racer.p0.txt",
        2 * TURNS,
    );
    let lines: Vec<&str> = merged.lines().collect();
    assert_eq!(lines.len(), 2 * TURNS, "{merged}");
    for (index, pair) in lines.chunks(2).enumerate() {
        assert!(
            pair[0].starts_with(&format!("turn {}: ", index + 1)),
            "{merged}"
        );
        assert!(!pair[1].starts_with("turn "), "{merged}");
    }
}
