//! `arena match` as a measuring tool: a bot against itself comes out even (seats swapped on
//! the same maps), shards merge into the whole match, the SPRT stops a lopsided match early, and
//! a perfect score keeps a finite lower bound (Wilson per game, and per pair).

mod common;

use common::*;

#[test]
fn self_play_over_100_games_is_even() {
    let dir = scratch("self_play");
    let result = run_match(&[
        "--p1",
        &testbot("good"),
        "--p2",
        &testbot("good"),
        "--games",
        "100",
        "--threads",
        "2",
        "--seed",
        "2024",
        // Generous time limits: a loaded machine must not turn a game into a time-out loss.
        "--time-scale",
        "20",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let summary = &result["summary"];
    assert_eq!(summary["games"], 100);
    let (low, high) = (
        summary["score_ci95"][0].as_f64().unwrap(),
        summary["score_ci95"][1].as_f64().unwrap(),
    );
    eprintln!("self-play: score {} CI [{low}, {high}]", summary["score"]);
    assert!(low <= 0.5 && 0.5 <= high, "{summary}");
    // Identical deterministic bots: each pair is one win and one loss (or two draws).
    assert_eq!(summary["wins"], summary["losses"]);
    assert_eq!(summary["score"], 0.5);
}

#[test]
fn shards_merge_into_the_whole_match() {
    let dir = scratch("shards");
    let common_args = |shard: Option<&'static str>| {
        let mut args = vec![
            "--p1".to_string(),
            testbot("good"),
            "--p2".to_string(),
            testbot("thrust=90"),
            "--games".to_string(),
            "10".to_string(),
            "--seed".to_string(),
            "77".to_string(),
            // Generous time limits: a loaded machine must not turn a game into a time-out.
            "--time-scale".to_string(),
            "20".to_string(),
            "--out".to_string(),
            dir.to_str().unwrap().to_string(),
        ];
        if let Some(shard) = shard {
            args.push("--shard".to_string());
            args.push(shard.to_string());
        }
        args
    };
    let whole = run_match(
        &common_args(None)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    let mut files = Vec::new();
    for shard in ["0/3", "1/3", "2/3"] {
        let part = run_match(
            &common_args(Some(shard))
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        );
        let file = dir.join(format!("shard-{}.json", &shard[..1]));
        std::fs::write(&file, part.to_string()).unwrap();
        files.push(file.display().to_string());
    }
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let merged = run(&args);
    assert!(merged.status.success(), "{}", stderr(&merged));
    let merged: serde_json::Value = serde_json::from_str(&stdout(&merged)).unwrap();
    assert_eq!(merged["summary"]["games"], 10);
    assert_eq!(merged["results"], whole["results"]);
    assert_eq!(merged["per_seat"], whole["per_seat"]);
    let seeds = |v: &serde_json::Value| -> Vec<(u64, i64, f64)> {
        v["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                (
                    g["index"].as_u64().unwrap(),
                    g["seed"].as_i64().unwrap(),
                    g["p1_score"].as_f64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(seeds(&merged), seeds(&whole));
    // The same shard twice is refused.
    let twice = run(&["merge", &files[0], &files[0]]);
    assert_eq!(twice.status.code(), Some(2));
    // The text report names the figures.
    let report = run(&["merge", &files[0], &files[1], &files[2]]);
    let text = stdout(&report);
    assert!(
        text.contains("W/D/L") && text.contains("Elo") && text.contains("response ms"),
        "{text}"
    );
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let dir = scratch("sprt");
    let result = run_match(&[
        "--p1",
        &testbot("good"),
        "--p2",
        &testbot("garbage"),
        "--games",
        "400",
        "--threads",
        "2",
        "--sprt",
        "0",
        "10",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let games = result["summary"]["games"].as_u64().unwrap();
    assert!(games < 400, "stopped after {games} games");
    assert_eq!(result["stopped_early"], true);
    assert!(result["summary"]["sprt_decision"]
        .as_str()
        .unwrap()
        .starts_with("H1 accepted"));
}

#[test]
fn a_perfect_score_has_a_finite_lower_elo_bound_and_pair_figures() {
    let dir = scratch("sweep");
    let result = run_match(&[
        "--p1",
        &testbot("good"),
        "--p2",
        &testbot("garbage"),
        "--games",
        "100",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let summary = &result["summary"];
    assert_eq!(summary["wins"], 100);
    // Wilson: 100 / (100 + z²) = 0.963007; Elo 400 log10(0.963007 / 0.036993) = +566.2.
    let low = summary["score_ci95"][0].as_f64().unwrap();
    assert!((low - 0.963_007).abs() < 1e-6, "{summary}");
    assert_eq!(summary["score_ci95"][1], 1.0);
    let elo_low = summary["elo_ci95"][0].as_f64().unwrap();
    assert!((elo_low - 566.2).abs() < 0.05, "{summary}");
    assert!(summary["elo_ci95"][1].is_null() && summary["elo"].is_null());
    // 50 pairs won 2-0: Wilson over 50 pairs, 50 / (50 + z²) = 0.928652.
    let pairs = &summary["pairs"];
    assert_eq!(pairs["counts"], serde_json::json!([0, 0, 0, 0, 50]));
    assert_eq!(pairs["complete"], 50);
    let pair_low = pairs["score_ci95"][0].as_f64().unwrap();
    assert!((pair_low - 0.928_652).abs() < 1e-6, "{pairs}");
    // The text report prints both.
    let mut args = vec!["merge".to_string()];
    let file = dir.join("sweep.json");
    std::fs::write(&file, result.to_string()).unwrap();
    args.push(file.display().to_string());
    let text = stdout(&run(&args.iter().map(String::as_str).collect::<Vec<_>>()));
    assert!(text.contains("95% CI 96.3% .. 100.0%"), "{text}");
    assert!(text.contains("+566.2 .. +inf"), "{text}");
    assert!(text.contains("0/0/0/0/50 (50 complete)"), "{text}");
    assert!(
        text.contains("pair score 100.0% (95% CI 92.9% .. 100.0%)"),
        "{text}"
    );
}
