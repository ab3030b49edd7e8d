//! Misbehaving bots lose with the right cause, on the right turn, and leave no process behind
//! (the test bots announce their pid on stderr; it must be gone after the game), including
//! grandchildren of `sh -c`. Time limits are scaled down (×0.4) where timing is not the point.

mod common;

use common::*;
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

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

/// A marker no other process carries: the test's name, its pid and the time.
fn unique_marker(name: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{name}-{}-{nanos}", std::process::id())
}

/// Live processes whose environment holds `MISBEHAVING_MARKER=marker` (inherited from the
/// arena by every bot, its shell and whatever it forks), with their command lines.
fn processes_marked(marker: &str) -> Vec<String> {
    let needle = format!("MISBEHAVING_MARKER={marker}");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if entry.file_name().to_string_lossy().parse::<u32>().is_err() {
            continue;
        }
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        if environ
            .split(|&b| b == 0)
            .any(|var| var == needle.as_bytes())
        {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            found.push(format!(
                "{}: {}",
                entry.file_name().to_string_lossy(),
                String::from_utf8_lossy(&cmdline).replace('\0', " ")
            ));
        }
    }
    found
}

/// Games per match in the one-bad-game tests: two pairs, played two at a time.
const GAMES: usize = 4;

/// `arena match --json` of `p1` against a good bot: `GAMES` games, gold, seed 9, with the
/// marker in the arena's environment. Returns the result and how long the match took.
fn marked_match(
    dir: &Path,
    p1: &str,
    games: usize,
    scale: &str,
    marker: &str,
) -> (Value, Duration) {
    let started = Instant::now();
    let output = Command::new(arena())
        .args(["match", "--json", "--p1", p1, "--p2", &testbot("good")])
        .args([
            "--games",
            &games.to_string(),
            "--threads",
            "2",
            "--seed",
            "9",
        ])
        .args(["--league", "gold", "--time-scale", scale])
        .args(["--out", dir.to_str().unwrap()])
        .env("MISBEHAVING_MARKER", marker)
        .output()
        .expect("the arena runs");
    let took = started.elapsed();
    assert!(output.status.success(), "arena match: {}", stderr(&output));
    (
        serde_json::from_str(&stdout(&output)).expect("--json prints JSON"),
        took,
    )
}

/// A replay's game as the rules saw it: the result and every turn without its timings and
/// stderr (which differ from run to run).
fn game_of(replay: &Value) -> Value {
    let mut turns = replay["turns"].clone();
    for turn in turns.as_array_mut().unwrap() {
        let turn = turn.as_object_mut().unwrap();
        turn.remove("response_ms");
        turn.remove("stderr");
    }
    serde_json::json!({ "result": replay["result"], "turns": turns })
}

/// The games of the same match with two good bots, to compare the unaffected games with.
fn clean_games() -> &'static Vec<Value> {
    static CLEAN: OnceLock<Vec<Value>> = OnceLock::new();
    CLEAN.get_or_init(|| {
        let dir = scratch("misbehaving_clean");
        let marker = unique_marker("clean");
        let (result, _) = marked_match(&dir, &testbot("good"), GAMES, "2", &marker);
        replay_paths(&result)
            .iter()
            .map(|path| game_of(&load_json(path)))
            .collect()
    })
}

/// Plays `GAMES` games where p1 runs testbot `mode` in exactly one of them (the first game to
/// start claims it) and the good bot in the others. Checks that the misbehaving game's replay is
/// written and eliminates p1 with `cause` on `turn` (detail containing `detail`), that every
/// other game is the same as with two good bots, and that no process of the match is left.
/// Returns how long the match took.
fn misbehave_once(mode: &str, cause: &str, turn: u64, detail: &str, scale: &str) -> Duration {
    let name = format!("once_{mode}");
    let dir = scratch(&name);
    let claim = dir.join("claimed");
    let p1 = format!(
        "mkdir {} 2>/dev/null && exec {} || exec {}",
        claim.display(),
        testbot(mode),
        testbot("good")
    );
    let marker = unique_marker(&name);
    let (result, took) = marked_match(&dir, &p1, GAMES, scale, &marker);
    let left = processes_marked(&marker);
    assert!(
        left.is_empty(),
        "{mode}: processes outlived the match: {left:?}"
    );
    let paths = replay_paths(&result);
    assert_eq!(paths.len(), GAMES, "{mode}: {result}");
    let mut bad_games = 0;
    for (game, path) in paths.iter().enumerate() {
        let replay = load_json(path);
        let eliminations = replay["result"]["eliminations"].as_array().unwrap();
        if eliminations.is_empty() {
            assert_eq!(
                game_of(&replay),
                clean_games()[game],
                "{mode}: game {game} differs from the clean match"
            );
            continue;
        }
        bad_games += 1;
        let p1_player = game % 2; // seats swap on alternate games
        assert_eq!(eliminations.len(), 1, "{mode}: {eliminations:?}");
        let elimination = &eliminations[0];
        assert_eq!(elimination["player"], p1_player, "{mode}: {elimination}");
        assert_eq!(elimination["cause"], cause, "{mode}: {elimination}");
        assert_eq!(elimination["turn"], turn, "{mode}: {elimination}");
        let text = elimination["detail"].as_str().unwrap();
        assert!(text.contains(detail), "{mode}: {text}");
        assert_eq!(replay["result"]["winner"], 1 - p1_player, "{mode}");
    }
    assert_eq!(bad_games, 1, "{mode}: one game misbehaves: {result}");
    took
}

#[test]
fn twenty_megabytes_without_a_newline_is_invalid_output() {
    misbehave_once(
        "long-line",
        "invalid output",
        6,
        "X must be an integer",
        "2",
    );
}

#[test]
fn invalid_utf8_is_invalid_output() {
    misbehave_once(
        "invalid-utf8",
        "invalid output",
        6,
        "X must be an integer",
        "2",
    );
}

#[test]
fn closing_stdout_and_running_on_loses_alone() {
    misbehave_once("close-stdout", "crash", 1, "closed its stdout", "2");
}

#[test]
fn a_child_holding_the_pipes_after_the_bot_exits_is_a_timeout_and_is_killed() {
    misbehave_once("fork-exit", "timeout", 6, "no answer within 150 ms", "2");
}

#[test]
fn a_child_in_its_own_session_holding_the_pipes_is_killed_too() {
    misbehave_once(
        "fork-setsid-exit",
        "timeout",
        6,
        "no answer within 150 ms",
        "2",
    );
}

#[test]
fn ignoring_sigterm_is_a_timeout_and_the_bot_is_killed_at_once() {
    misbehave_once(
        "ignore-sigterm",
        "timeout",
        6,
        "no answer within 150 ms",
        "2",
    );
    // Both games of a pair with the deaf bot: killed at the timeout, not waited for.
    let dir = scratch("sigterm_pair");
    let marker = unique_marker("sigterm_pair");
    let (result, took) = marked_match(&dir, &testbot("ignore-sigterm"), 2, "2", &marker);
    assert_eq!(result["eliminations"][0]["timeout"], 2, "{result}");
    assert_eq!(replay_paths(&result).len(), 2);
    let left = processes_marked(&marker);
    assert!(left.is_empty(), "processes outlived the match: {left:?}");
    assert!(took < Duration::from_secs(2), "two games took {took:?}");
}

#[test]
fn answering_three_times_a_turn_is_too_many_lines() {
    misbehave_once(
        "answer-thrice",
        "too many lines",
        7,
        "4 extra line(s) after the answer of turn 6",
        "2",
    );
}
