//! `arena tune` end to end on `testbot --knob K`, whose thrust (so its strength) peaks at
//! K = 30: the tuner climbs there from a bad start, a stopped run resumes into the trajectory
//! an uninterrupted run writes, two shards write the trajectory of one unsharded run, and
//! wrong input is refused with one line and exit status 2.

mod common;

use common::*;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// The value of `--knob` at which testbot is strongest (`KNOB_BEST` in testbot.rs).
const KNOB_BEST: f64 = 30.0;

fn tune_args(trajectory: &Path, out: &Path, iterations: &str, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "tune",
        "--bot",
        &testbot("good"),
        "--param",
        "knob=5.0:0:60:3",
        "--iterations",
        iterations,
        "--trajectory",
        trajectory.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        // Generous time limits: a loaded machine must not turn a game into a time-out loss.
        "--time-scale",
        "20",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn run_tune(args: &[String]) -> std::process::Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&args)
}

/// The iteration records of a trajectory, without the replay directories (which differ by run).
fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|line| {
            let mut record: Value = serde_json::from_str(line).unwrap();
            record.as_object_mut().unwrap().remove("replay_dir");
            record
        })
        .collect()
}

#[test]
fn climbs_to_the_known_best_knob_from_a_bad_start() {
    let dir = scratch("tune_converges");
    let trajectory = dir.join("knob.jsonl");
    let output = run_tune(&tune_args(
        &trajectory,
        &dir,
        "60",
        &["--pairs", "2", "--first-move", "2", "--threads", "2"],
    ));
    assert!(output.status.success(), "{}", stderr(&output));
    let history = records(&trajectory);
    assert_eq!(history.len(), 60);
    let knob = |record: &Value| record["theta_next"][0].as_f64().unwrap();
    let last_quarter = &history[45..];
    let mean = last_quarter.iter().map(knob).sum::<f64>() / last_quarter.len() as f64;
    let last = knob(history.last().unwrap());
    eprintln!("knob: start 5, final {last:.2}, mean of the last 15 iterations {mean:.2}");
    // Measured with run seeds 1 to 15 (this test uses seed 1): final 24.1–33.8, mean of the last
    // 15 iterations 25.6–31.6. A tuner moving the wrong way, or not at all, stays near 5 or 0.
    assert!((mean - KNOB_BEST).abs() <= 6.0, "mean {mean}");
    assert!((last - KNOB_BEST).abs() <= 8.0, "final {last}");
    assert!(stdout(&output).contains("final θ:"), "{}", stdout(&output));
}

#[test]
fn a_stopped_run_resumes_into_the_uninterrupted_trajectory() {
    let dir = scratch("tune_resume");
    let whole = dir.join("whole.jsonl");
    let output = run_tune(&tune_args(&whole, &dir, "20", &[]));
    assert!(output.status.success(), "{}", stderr(&output));

    let stopped = dir.join("stopped.jsonl");
    let mut arena = Command::new(arena())
        .args(tune_args(&stopped, &dir, "20", &[]))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let lines = || {
        std::fs::read_to_string(&stopped)
            .map(|text| text.lines().count())
            .unwrap_or(0)
    };
    while lines() < 4 && started.elapsed() < Duration::from_secs(30) {
        sleep(Duration::from_millis(5));
    }
    // SAFETY: signalling the arena child we started.
    unsafe {
        libc::kill(arena.id() as i32, libc::SIGINT);
    }
    arena.wait().unwrap();
    let kept = records(&stopped).len();
    assert!((3..20).contains(&kept), "{kept} iterations before the stop");
    // A line cut off in the middle, as a run killed while writing leaves it.
    let mut text = std::fs::read_to_string(&stopped).unwrap();
    text.push_str("{\"iteration\":");
    std::fs::write(&stopped, text).unwrap();

    let output = run_tune(&tune_args(&stopped, &dir, "20", &["--resume"]));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(&format!(
            "resuming {} after iteration {kept}",
            stopped.display()
        )),
        "{}",
        stderr(&output)
    );
    assert_eq!(records(&stopped), records(&whole));
    let header = |path: &Path| {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(header(&stopped), header(&whole));
}

fn assert_usage_error(output: &std::process::Output, needle: &str) {
    let text = stderr(output);
    assert_eq!(output.status.code(), Some(2), "{text}");
    assert!(text.contains(needle), "{text}");
    assert_eq!(text.trim_end().lines().count(), 1, "{text}");
}

#[test]
fn wrong_input_is_one_line_and_exit_2() {
    let dir = scratch("tune_errors");
    let trajectory = dir.join("t.jsonl");
    let output = run_tune(&tune_args(&trajectory, &dir, "2", &[]));
    assert!(output.status.success(), "{}", stderr(&output));

    let again = run_tune(&tune_args(&trajectory, &dir, "2", &[]));
    assert_usage_error(&again, "pass --resume");
    let other = run_tune(&tune_args(&trajectory, &dir, "3", &["--resume"]));
    assert_usage_error(
        &other,
        "was started with other settings (iterations: 2 in the file, 3 now)",
    );

    let twice = run_tune(&tune_args(
        &dir.join("twice.jsonl"),
        &dir,
        "2",
        &["--param", "knob=1:0:2"],
    ));
    assert_usage_error(&twice, "--param knob is given twice");

    let crashing = run(&[
        "tune",
        "--bot",
        "false",
        "--param",
        "knob=1:0:2",
        "--trajectory",
        dir.join("crash.jsonl").to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_usage_error(&crashing, "stopped before its first answer");

    let bad_spec = run(&[
        "tune",
        "--bot",
        "false",
        "--param",
        "knob=3:0:2",
        "--trajectory",
        dir.join("bad.jsonl").to_str().unwrap(),
    ]);
    assert_eq!(bad_spec.status.code(), Some(2));
    assert!(
        stderr(&bad_spec).contains("START must lie within MIN..MAX"),
        "{}",
        stderr(&bad_spec)
    );
}

#[test]
fn two_shards_meeting_each_iteration_write_the_unsharded_trajectory() {
    let dir = scratch("tune_shards");
    let whole = dir.join("whole.jsonl");
    let output = run_tune(&tune_args(&whole, &dir, "5", &["--pairs", "3"]));
    assert!(output.status.success(), "{}", stderr(&output));

    let sharded = dir.join("sharded.jsonl");
    let shard = |which: &str| {
        Command::new(arena())
            .args(tune_args(
                &sharded,
                &dir,
                "5",
                &["--pairs", "3", "--shard", which],
            ))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (first, second) = (shard("0/2"), shard("1/2"));
    for child in [first, second] {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let iterations_only = |path: &Path| -> Vec<Value> {
        records(path)
            .into_iter()
            .filter(|record| record.get("part").is_none())
            .collect()
    };
    for index in 0..2 {
        let path = dir.join(format!("sharded.jsonl.shard{index}of2"));
        assert_eq!(iterations_only(&path), records(&whole), "shard {index}");
        // Each shard played its own pairs: 2 of the 3 for shard 0, 1 for shard 1.
        let games: Vec<u64> = records(&path)
            .iter()
            .filter(|record| record.get("part").is_some())
            .map(|part| {
                let results = &part["results"];
                ["wins", "draws", "losses"]
                    .iter()
                    .map(|key| results[key].as_u64().unwrap())
                    .sum()
            })
            .collect();
        assert_eq!(games, vec![if index == 0 { 4 } else { 2 }; 5]);
    }
}
