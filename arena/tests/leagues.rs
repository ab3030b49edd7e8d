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
