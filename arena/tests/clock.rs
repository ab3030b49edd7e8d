//! The arena's clock: each bot is timed from the writing of its own input to the arrival of its
//! own last line, so a bot that answers at once is reported fast even when it sits after a slow
//! one (the referee reads player 0 first), in the text report, in `--json` and in the replays;
//! and a fast bot never times out because the other one is slow.

mod common;

use common::*;
use serde_json::Value;

/// How long the slow test bot thinks each turn.
const SLOW_MS: f64 = 30.0;
/// How long the slow bot of the deadline test thinks each turn before it oversleeps.
const SLOW_LATER_MS: f64 = 100.0;
/// An instant bot must be reported under this (it answers in well under a millisecond).
const INSTANT_UNDER_MS: f64 = 10.0;

/// Runs `arena match --json` and returns the JSON result and the text report (on stderr).
fn run_match_with_report(args: &[&str]) -> (Value, String) {
    let mut all = vec!["match", "--json"];
    all.extend_from_slice(args);
    let output = run(&all);
    assert!(output.status.success(), "arena match: {}", stderr(&output));
    let result = serde_json::from_str(&stdout(&output)).expect("--json prints JSON");
    (result, stderr(&output))
}

/// The median the text report prints for `bot` ("p1" or "p2").
fn reported_median(report: &str, bot: &str) -> f64 {
    let line = report
        .lines()
        .find(|l| l.starts_with(&format!("{bot}: eliminations")))
        .unwrap_or_else(|| panic!("no response line for {bot} in:\n{report}"));
    let after = line
        .split("median ")
        .nth(1)
        .unwrap_or_else(|| panic!("no median in {line:?}"));
    after.split_whitespace().next().unwrap().parse().unwrap()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[test]
fn slow_and_instant_bots_are_each_timed_on_their_own_seat() {
    let dir = scratch("clock_seats");
    let slow = testbot(&format!("good sleep={SLOW_MS}"));
    // Game 0 seats p1 (slow) as player 0 and p2 (instant) as player 1; game 1 swaps them.
    // Time limits ×10 (750 ms): timing, not the limits, is the point here, and a machine loaded
    // far beyond its cores can delay a sleeping bot's wake-up by over 100 ms.
    let (result, report) = run_match_with_report(&[
        "--p1",
        &slow,
        "--p2",
        &testbot("good"),
        "--games",
        "2",
        "--threads",
        "2",
        "--seed",
        "5",
        "--time-scale",
        "10",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(
        result["eliminations"],
        serde_json::json!([{}, {}]),
        "{result}"
    );
    let summary = &result["summary"]["response_ms"];
    let (slow_median, instant_median) = (
        summary[0]["median"].as_f64().unwrap(),
        summary[1]["median"].as_f64().unwrap(),
    );
    assert!(
        (SLOW_MS..SLOW_MS + 10.0).contains(&slow_median),
        "slow bot's median {slow_median} ms in --json"
    );
    assert!(
        instant_median < INSTANT_UNDER_MS,
        "instant bot's median {instant_median} ms in --json"
    );
    // The text report rounds to 0.1 ms.
    assert!((reported_median(&report, "p1") - slow_median).abs() <= 0.05 + 1e-9);
    assert!((reported_median(&report, "p2") - instant_median).abs() <= 0.05 + 1e-9);

    for (game, path) in replay_paths(&result).iter().enumerate() {
        let replay = load_json(path);
        let slow_player = game; // game 0: p1 is player 0; game 1: player 1
        let turns = replay["turns"].as_array().unwrap();
        assert!(turns.len() > 20, "game {game}: a real race");
        let times = |player: usize| -> Vec<f64> {
            turns
                .iter()
                .map(|t| t["response_ms"][player].as_f64().expect("a response time"))
                .collect()
        };
        let (slow_times, instant_times) = (times(slow_player), times(1 - slow_player));
        assert!(
            slow_times.iter().all(|&ms| ms >= SLOW_MS),
            "game {game}: the slow bot is never under {SLOW_MS} ms, here {:?}",
            slow_times.iter().copied().fold(f64::INFINITY, f64::min)
        );
        assert!(
            median(slow_times) < SLOW_MS + 10.0,
            "game {game}: slow bot's median"
        );
        let instant = median(instant_times.clone());
        assert!(
            instant < INSTANT_UNDER_MS,
            "game {game}: the instant bot (player {}) has median {instant} ms in the replay (first turns: {:?})",
            1 - slow_player,
            &instant_times[..10]
        );
    }
}

#[test]
fn a_fast_bot_never_times_out_because_the_other_is_slow() {
    let dir = scratch("clock_deadlines");
    // Limits ×4: 4 s for turn 1, 300 ms after. p1 thinks 100 ms a turn (in time, with room for
    // a loaded machine), then oversleeps (3 s) on turn 6; the instant p2 must never be
    // eliminated nor slowed, whichever seat it has.
    let slow = testbot(&format!("sleep-later sleep={SLOW_LATER_MS}"));
    let result = run_match(&[
        "--p1",
        &slow,
        "--p2",
        &testbot("good"),
        "--games",
        "2",
        "--threads",
        "2",
        "--seed",
        "6",
        "--time-scale",
        "4",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(result["eliminations"][1], serde_json::json!({}), "{result}");
    assert_eq!(result["eliminations"][0]["timeout"], 2, "{result}");
    for (game, path) in replay_paths(&result).iter().enumerate() {
        let replay = load_json(path);
        let eliminations = replay["result"]["eliminations"].as_array().unwrap();
        assert_eq!(eliminations.len(), 1, "game {game}: {eliminations:?}");
        assert_eq!(eliminations[0]["player"], game, "game {game}: the slow bot");
        assert_eq!(eliminations[0]["turn"], 6, "game {game}");
        let turns = replay["turns"].as_array().unwrap();
        assert_eq!(turns.len(), 5, "game {game}: turns 1 to 5 played");
        for (index, turn) in turns.iter().enumerate() {
            let slow = turn["response_ms"][game].as_f64().unwrap();
            let fast = turn["response_ms"][1 - game].as_f64().unwrap();
            // Measured against the slow bot of the same turn rather than an absolute limit, so a
            // loaded machine that slows both does not fail it: a clock that charged the fast bot
            // for the time spent waiting on the slow one would report it near `slow`.
            assert!(
                slow >= SLOW_LATER_MS && fast < slow / 2.0,
                "game {game} turn {}: fast bot at {fast} ms, slow bot at {slow} ms",
                index + 1
            );
        }
    }
}
