//! `--check-debug` on the fixture crate `tests/fixtures/ide/`: a bot whose own pod's `x` on a
//! recorded turn makes it overflow, assert, exit, hang or print nonsense. The check must pass a
//! game it plays to the end, in either protocol, and fail each misbehaviour with one line that
//! names the turn and what happened (the real leagues' bundles: `tests/bundle.rs`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ide")
}

/// Runs `bundler --check-debug` on the fixture for `league`, playing `game` (a file of the
/// fixture), with `extra` flags.
fn check_debug(league: &str, game: &str, extra: &[&str]) -> Output {
    let tmp = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_bundler"))
        .arg("--crate")
        .arg(fixture())
        .arg("--out")
        .arg(tmp.path().join("main.rs"))
        .args(["--league", league, "--check-debug", "--compare-input"])
        .arg(fixture().join(game))
        .args(extra)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The one error line of a failed run, asserting exit code `code`.
fn error_line(o: &Output, code: i32) -> String {
    assert_eq!(o.status.code(), Some(code), "{}", stdout(o));
    let stderr = String::from_utf8_lossy(&o.stderr);
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("bundler: error: "))
        .collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    errors[0].to_string()
}

#[test]
fn a_game_played_to_the_end_passes_in_both_protocols() {
    for (league, game, turns) in [("wood3", "one-pod.txt", 3), ("gold", "two-pod.txt", 2)] {
        let o = check_debug(league, game, &[]);
        let out = stdout(&o);
        assert!(o.status.success(), "{league}: {out}{:?}", o.stderr);
        let line = out
            .lines()
            .find(|l| l.starts_with("runs as CodinGame's IDE builds it"))
            .unwrap_or_else(|| panic!("{out}"));
        assert!(line.contains("-C overflow-checks=on"), "{line}");
        assert!(!line.contains("-O"), "{line}");
        assert!(
            line.contains(&format!("{turns} turns answered, exit 0; turn 1 ")),
            "{line}"
        );
        assert!(out.contains("\nwrote "), "{out}");
    }
}

#[test]
fn an_overflow_is_named_with_its_turn_message_and_code() {
    let error = error_line(&check_debug("wood3", "overflow.txt", &[]), 1);
    assert!(error.contains("overflow.txt: turn 3: 0 of 1 answers, then it panicked: attempt to add with overflow at main.rs:"), "{error}");
    assert!(
        error.ends_with("(bundle line: Some(format!(\"{} {y} 100\", near_max + x)))"),
        "{error}"
    );
}

#[test]
fn a_pod_left_without_an_answer_is_counted() {
    // Two pods: the first answered, the second overflowed.
    let error = error_line(&check_debug("gold", "two-pod-overflow.txt", &[]), 1);
    assert!(
        error.contains("turn 2: 1 of 2 answers, then it panicked: attempt to add with overflow"),
        "{error}"
    );
}

#[test]
fn a_failed_debug_assertion_is_a_panic() {
    let error = error_line(&check_debug("wood3", "debug-assert.txt", &[]), 1);
    assert!(
        error.contains("turn 3: 0 of 1 answers, then it panicked: y is 14 at main.rs:"),
        "{error}"
    );
}

#[test]
fn an_exit_before_the_end_is_named() {
    let error = error_line(&check_debug("wood3", "exits-early.txt", &[]), 1);
    assert!(
        error.ends_with("turn 3: 0 of 1 answers, then it ended (exit status: 0)"),
        "{error}"
    );
}

#[test]
fn a_bot_that_stops_answering_is_stopped_at_the_timeout() {
    let error = error_line(&check_debug("wood3", "hangs.txt", &["--timeout", "2"]), 1);
    assert!(
        error.ends_with("no answer on turn 3 of 4 within the --timeout of 2 s"),
        "{error}"
    );
}

#[test]
fn a_line_that_is_no_answer_is_quoted() {
    let error = error_line(&check_debug("wood3", "not-an-answer.txt", &[]), 1);
    assert!(
        error.ends_with("turn 3: answer 1 is not `X Y THRUST|BOOST|SHIELD`: \"go left\""),
        "{error}"
    );
}

#[test]
fn a_game_of_the_other_protocol_is_an_input_error() {
    // A one-pod game read as Gold's: its line 2 is no checkpoint count.
    let error = error_line(&check_debug("gold", "one-pod.txt", &[]), 2);
    assert!(
        error.contains(
            "one-pod.txt is not a game of gold's protocol: line 2 should be the checkpoint count"
        ),
        "{error}"
    );
    // A two-pod game read as Wood 3's: 12 lines are whole pairs, but the first has one word;
    // the fixture's bot then fails to read a pod, which the check reports as a panic.
    let error = error_line(&check_debug("wood3", "two-pod.txt", &[]), 1);
    assert!(
        error.contains("turn 1: 0 of 1 answers, then it panicked:"),
        "{error}"
    );
}

#[test]
fn check_debug_needs_a_league() {
    let tmp = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_bundler"))
        .arg("--crate")
        .arg(fixture())
        .arg("--out")
        .arg(tmp.path().join("main.rs"))
        .arg("--check-debug")
        .output()
        .unwrap();
    let error = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{error}");
    assert!(error.contains("--league"), "{error}");
    assert_eq!(error.lines().count(), 1, "{error}");
}
