//! A full match in every league below Gold between the bot (`csb --league L`) and the league's
//! racer (`sparring` binary `racer --league L`), on the one-pod protocol: both games run to the
//! end of the race, the replays re-simulate identically, `arena inputs` gives the one-pod lines
//! and `arena view` writes the viewer page. The bots are built once, into their own target
//! directory (so the build does not wait on the lock of this `cargo test`).

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// (csb, racer) built with `cargo build --release`.
fn bots() -> &'static (PathBuf, PathBuf) {
    static BUILT: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    BUILT.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let target = root.join("target/csb-for-tests");
        let o = Command::new(env!("CARGO"))
            .args([
                "build",
                "--release",
                "--quiet",
                "-p",
                "csb",
                "-p",
                "sparring",
            ])
            .args(["--bin", "csb", "--bin", "racer", "--target-dir"])
            .arg(&target)
            .current_dir(&root)
            .output()
            .unwrap();
        assert!(o.status.success(), "cargo build failed: {}", stderr(&o));
        (target.join("release/csb"), target.join("release/racer"))
    })
}

fn full_match(league: &str) {
    let (csb, racer) = bots();
    let dir = scratch(&format!("league-{league}"));
    let p1 = format!("{} --league {league} --iterations 300", csb.display());
    let p2 = format!("{} --league {league}", racer.display());
    let result = run_match(&[
        "--p1",
        &p1,
        "--p2",
        &p2,
        "--league",
        league,
        "--games",
        "2",
        "--seed",
        "3",
        "--time-scale",
        "10",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let replays = replay_paths(&result);
    assert_eq!(replays.len(), 2);
    for path in &replays {
        let replay = load_json(path);
        assert_eq!(replay["league"], league);
        assert_eq!(replay["pods_per_player"], 1);
        assert_eq!(replay["result"]["reason"], "race complete", "{path}");
        assert!(
            replay["result"]["eliminations"]
                .as_array()
                .unwrap()
                .is_empty(),
            "{path}: {}",
            replay["result"]
        );
        for turn in replay["turns"].as_array().unwrap() {
            for output in turn["outputs"].as_array().unwrap() {
                let lines = output.as_array().unwrap();
                assert_eq!(lines.len(), 1, "one line per player and turn");
            }
        }
        let turns = replay["turns"].as_array().unwrap().len();
        let checked = run(&["replay", path]);
        assert!(checked.status.success(), "{}", stderr(&checked));
        assert!(stdout(&checked).contains(&format!("ok, {turns} turns")));
        let inputs = run(&["inputs", path, "--player", "0"]);
        let text = stdout(&inputs);
        assert_eq!(
            text.lines().count(),
            2 * turns,
            "two lines a turn, no initialisation"
        );
        let fields = if league == "wood3" { 4 } else { 6 };
        let first = text.lines().next().unwrap();
        assert_eq!(first.split_whitespace().count(), fields, "{first}");
        let page = dir.join("view.html");
        let view = run(&["view", path, "-o", page.to_str().unwrap()]);
        assert!(view.status.success(), "{}", stderr(&view));
        assert!(std::fs::metadata(&page).unwrap().len() > 1000);
    }
}

#[test]
fn full_match_in_wood3() {
    full_match("wood3");
}

#[test]
fn full_match_in_wood2() {
    full_match("wood2");
}

#[test]
fn full_match_in_wood1() {
    full_match("wood1");
}

#[test]
fn full_match_in_bronze() {
    full_match("bronze");
}

#[test]
fn full_match_in_silver() {
    full_match("silver");
}

#[test]
fn an_action_the_league_lacks_eliminates() {
    // The racer of Bronze BOOSTs: in Wood 1 that is invalid output.
    let (_, racer) = bots();
    let dir = scratch("league-lacks");
    let p1 = format!("{} --league bronze", racer.display());
    let p2 = format!("{} --league wood1", racer.display());
    let result = run_match(&[
        "--p1",
        &p1,
        "--p2",
        &p2,
        "--league",
        "wood1",
        "--games",
        "1",
        "--seed",
        "3",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let replay = load_json(&replay_paths(&result)[0]);
    let eliminations = replay["result"]["eliminations"].as_array().unwrap();
    assert_eq!(eliminations.len(), 1, "{}", replay["result"]);
    assert_eq!(eliminations[0]["player"], 0);
    assert_eq!(eliminations[0]["cause"], "invalid output");
    let detail = eliminations[0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("BOOST is not available in league wood1"),
        "{detail}"
    );
}

/// Busy-loop threads that keep every core loaded until dropped, so that a test sees the
/// timing of a busy machine (a bot's late stderr lands with the next turn there).
struct CpuLoad {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<u64>>,
}

impl CpuLoad {
    fn start() -> CpuLoad {
        use std::sync::atomic::{AtomicBool, Ordering};
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let threads = (0..2 * cores)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut spins = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        spins = std::hint::black_box(spins.wrapping_add(1));
                    }
                    spins
                })
            })
            .collect();
        CpuLoad { stop, threads }
    }
}

impl Drop for CpuLoad {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// Below Gold as from Gold (`turn_stderr.rs`), each turn of a replay holds the bot's own
/// diagnostic line of that turn, and only that: the bot writes it before its answer. Checked on
/// a loaded machine, where a line written after the answer would land with the next turn.
#[test]
fn each_one_pod_turns_stderr_names_that_turn_on_a_loaded_machine() {
    let (csb, racer) = bots();
    let dir = scratch("league-turn-stderr");
    let p1 = format!("{} --league silver --iterations 300", csb.display());
    let p2 = format!("{} --league silver", racer.display());
    let load = CpuLoad::start();
    let result = run_match(&[
        "--p1",
        &p1,
        "--p2",
        &p2,
        "--league",
        "silver",
        "--games",
        "1",
        "--seed",
        "5",
        "--time-scale",
        "10",
        "--out",
        dir.to_str().unwrap(),
    ]);
    drop(load);
    let replay = load_json(&replay_paths(&result)[0]);
    let turns = replay["turns"].as_array().unwrap();
    assert!(turns.len() > 20, "a real race");
    let mut searched = 0;
    for (index, record) in turns.iter().enumerate() {
        let turn = index + 1;
        let text = record["stderr"][0]
            .as_str()
            .expect("csb's stderr of the turn");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1, "turn {turn}: {text:?}");
        assert!(
            lines[0].starts_with(&format!("turn {turn}: iterations=")),
            "turn {turn}: {text:?}"
        );
        searched += usize::from(lines[0].contains("iterations=300 "));
    }
    assert!(searched > 0, "the search played some turns");
}
