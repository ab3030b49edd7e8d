//! Misbehaving bots lose with the right cause, on the right turn, and leave no process behind
//! (the test bots announce their pid on stderr; it must be gone after the game), including
//! grandchildren of `sh -c`. Time limits are scaled down (×0.4) where timing is not the point.

mod common;

use common::*;
use serde_json::Value;

/// Plays `p1` (misbehaving) against a good bot for a pair of games; returns both replays.
fn play(name: &str, p1: &str, league: &str, scale: &str) -> (Value, Vec<Value>) {
    let dir = scratch(name);
    let result = run_match(&[
        "--p1",
        p1,
        "--p2",
        &testbot("good"),
        "--games",
        "2",
        "--threads",
        "2",
        "--seed",
        "9",
        "--league",
        league,
        "--time-scale",
        scale,
        "--out",
        dir.to_str().unwrap(),
    ]);
    let replays = replay_paths(&result).iter().map(|p| load_json(p)).collect();
    (result, replays)
}

/// Both games lost by p1 with `cause` on `turn`; every announced pid is gone.
fn expect_loss(name: &str, p1: &str, league: &str, cause: &str, turn: u64, detail: &str) {
    let (result, replays) = play(name, p1, league, "0.4");
    assert_eq!(result["summary"]["losses"], 2, "{name}: {result}");
    assert_eq!(result["eliminations"][0][cause], 2, "{name}: {result}");
    for (game, replay) in replays.iter().enumerate() {
        let p1_player = game; // game 0: p1 is player 0; game 1: player 1
        let eliminations = replay["result"]["eliminations"].as_array().unwrap();
        assert_eq!(eliminations.len(), 1, "{name}: {eliminations:?}");
        let elimination = &eliminations[0];
        assert_eq!(elimination["player"], p1_player, "{name}");
        assert_eq!(elimination["cause"], cause, "{name}");
        assert_eq!(elimination["turn"], turn, "{name}");
        let text = elimination["detail"].as_str().unwrap();
        assert!(text.contains(detail), "{name}: {text}");
        assert_eq!(replay["result"]["winner"], 1 - p1_player, "{name}");
        assert_eq!(replay["result"]["reason"], "elimination");
        let pids = announced_pids(replay);
        assert_eq!(pids.len(), 2, "{name}: both bots announce their pid");
        for pid in pids {
            assert!(
                !process_exists(pid),
                "{name}: process {pid} outlived the game"
            );
        }
    }
}

#[test]
fn sleeping_on_the_first_turn_is_a_timeout() {
    expect_loss(
        "sleep_first",
        &testbot("sleep-first"),
        "gold",
        "timeout",
        1,
        "400 ms",
    );
}

#[test]
fn sleeping_later_is_a_timeout_and_the_sleeper_is_killed() {
    // Through `sh -c "...; true"` the bot is a grandchild: the group kill must reach it.
    let p1 = format!("{}; true", testbot("sleep-later"));
    expect_loss("sleep_later", &p1, "gold", "timeout", 6, "30 ms");
}

#[test]
fn crashing_is_a_crash() {
    expect_loss("crash", &testbot("crash"), "gold", "crash", 6, "status 101");
}

#[test]
fn exiting_early_is_a_crash() {
    expect_loss(
        "exit_early",
        &testbot("exit-early"),
        "gold",
        "crash",
        6,
        "status 0",
    );
}

#[test]
fn garbage_is_invalid_output() {
    expect_loss(
        "garbage",
        &testbot("garbage"),
        "gold",
        "invalid output",
        6,
        "hello",
    );
}

#[test]
fn one_line_is_too_few_lines() {
    expect_loss(
        "one_line",
        &testbot("one-line"),
        "gold",
        "too few lines",
        1,
        "1 of 2",
    );
}

#[test]
fn three_lines_is_too_many_lines() {
    expect_loss(
        "three_lines",
        &testbot("three-lines"),
        "gold",
        "too many lines",
        7,
        "turn 6",
    );
}

#[test]
fn thrust_over_the_cap_is_invalid_output() {
    expect_loss(
        "over_cap",
        &testbot("thrust-over-cap"),
        "legend",
        "invalid output",
        1,
        "201",
    );
    expect_loss(
        "over_gold_cap",
        &testbot("thrust=150"),
        "gold",
        "invalid output",
        1,
        "cap 100",
    );
}

#[test]
fn thrust_150_is_fine_in_legend() {
    let (result, _) = play("legend_150", &testbot("thrust=150"), "legend", "0.4");
    assert!(
        result["eliminations"][0].as_object().unwrap().is_empty(),
        "{result}"
    );
}

#[test]
fn closing_stdout_loses() {
    // Run directly (exec), the closed pipe is seen at once: a crash.
    let direct = format!("exec {}", testbot("close-stdout"));
    expect_loss(
        "close_direct",
        &direct,
        "gold",
        "crash",
        1,
        "closed its stdout",
    );
    // Behind `sh`, which keeps the pipe open, the bot just stops answering: a timeout.
    let wrapped = format!("{}; true", testbot("close-stdout"));
    expect_loss("close_wrapped", &wrapped, "gold", "timeout", 1, "400 ms");
}

#[test]
fn slow_first_turn_within_the_limit_is_fine() {
    // 600 ms on turn 1 is within CodinGame's 1000 ms.
    let (result, replays) = play("slow_first", &testbot("slow-then-fine"), "gold", "1.0");
    assert!(
        result["eliminations"][0].as_object().unwrap().is_empty(),
        "{result}"
    );
    for replay in &replays {
        assert_eq!(replay["result"]["reason"], "race complete");
        let first = replay["turns"][0]["response_ms"].as_array().unwrap();
        let p1_player = if replay == &replays[0] { 0 } else { 1 };
        assert!(first[p1_player].as_f64().unwrap() >= 590.0);
    }
}
