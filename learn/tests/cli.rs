//! The `learn` command end to end on a small generated data set: self-play resumes and lists its
//! games in the directory's manifest, training lowers the loss and writes its curves, export
//! keeps the model's manifest, and wrong inputs (a wrong flag, a data file changed after
//! self-play, a missing data directory, self-play of another run into a directory, game files
//! without a manifest, a model of the wrong shape) give one line and exit code 2 without touching
//! what was already written; `visit-noise` prints its bounds in order; self-play's deep turns
//! are recorded and train the policy alone (`--min-visits`).

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{assert_one_line_error, learn, text};

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    common::scratch_in_temp("cli", name)
}

/// Self-play of `games` quick games into `dir`, seed 12: its first five maps fall in all three
/// splits (`learn::data::split::split_of_map`).
fn generate(dir: &Path, games: u64) -> Output {
    generate_with(dir, games, "12")
}

fn generate_with(dir: &Path, games: u64, iterations: &str) -> Output {
    learn(&[
        "selfplay",
        "--out",
        &text(dir),
        "--games",
        &games.to_string(),
        "--iterations",
        iterations,
        "--nodes",
        "5000",
        "--seed",
        "12",
    ])
}

#[test]
fn selfplay_resumes_and_training_lowers_the_loss() {
    let dir = scratch("train");
    let data = dir.join("data");
    let output = generate(&data, 8);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Run again with two more games: only those are played.
    let output = generate(&data, 10);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("2 played now, 8 already there"), "{stderr}");
    assert!(
        stderr.contains("manifest lists 10 of the run's 10 games"),
        "{stderr}"
    );
    let manifest = std::fs::read_to_string(data.join("manifest.txt")).unwrap();
    assert_eq!(
        manifest.matches("\ngame: game-0000").count(),
        10,
        "{manifest}"
    );
    // Another run into the same directory is refused, and no game is played.
    let output = generate_with(&data, 12, "13");
    assert_one_line_error(
        &output,
        "holds games of another run: its manifest has iterations \"12\"",
    );
    assert!(!data.join("game-000010.csbsp").exists());
    let output = generate(&data, 8);
    assert_one_line_error(&output, "--games must be at least that");
    assert_eq!(
        std::fs::read_to_string(data.join("manifest.txt")).unwrap(),
        manifest
    );

    let out = dir.join("train");
    let train = |epochs: &str| {
        learn(&[
            "train",
            "--data",
            &text(&data),
            "--out",
            &text(&out),
            "--epochs",
            epochs,
            "--batch",
            "64",
            "--learning-rate",
            "0.01",
        ])
    };
    let output = train("2");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Resumed: two more epochs on top of the checkpoint.
    let output = train("4");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("resuming after epoch 2"), "{stderr}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("hand evaluation") && stdout.contains("network (quantised)"),
        "{stdout}"
    );

    let csv = std::fs::read_to_string(out.join("loss.csv")).unwrap();
    let losses: Vec<f64> = csv
        .lines()
        .skip(1)
        .map(|line| line.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(losses.len(), 4, "{csv}");
    assert!(
        losses[3] < losses[0],
        "training loss did not fall: {losses:?}"
    );
    let svg = std::fs::read_to_string(out.join("loss.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("validation"),
        "{svg}"
    );

    // A model of this network exports; the weights file is Rust the bot's decoder reads.
    let weights = dir.join("weights.rs");
    let output = learn(&[
        "export",
        "--model",
        &text(&out.join("model.safetensors")),
        "--weights",
        &text(&weights),
        "--keep",
        &text(&dir.join("kept.safetensors")),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(std::fs::read_to_string(&weights)
        .unwrap()
        .contains("pub const WEIGHTS: &str"));
    // The kept model has its manifest beside it.
    assert_eq!(
        std::fs::read(dir.join("kept.manifest")).unwrap(),
        std::fs::read(out.join("model.manifest")).unwrap()
    );
    // A model without one is not kept, and nothing is written.
    let bare = dir.join("bare.safetensors");
    std::fs::copy(out.join("model.safetensors"), &bare).unwrap();
    let weights_before = std::fs::read(&weights).unwrap();
    let output = learn(&[
        "export",
        "--model",
        &text(&bare),
        "--weights",
        &text(&weights),
        "--keep",
        &text(&dir.join("kept-bare.safetensors")),
    ]);
    assert_one_line_error(&output, "bare.safetensors has no manifest");
    assert!(!dir.join("kept-bare.safetensors").exists());
    assert_eq!(std::fs::read(&weights).unwrap(), weights_before);

    // A game file truncated after self-play: one line naming it, and the earlier run's files
    // untouched.
    let before = std::fs::read(out.join("model.safetensors")).unwrap();
    let csv_before = std::fs::read(out.join("loss.csv")).unwrap();
    let game = data.join("game-000003.csbsp");
    let full = std::fs::read_to_string(&game).unwrap();
    std::fs::write(&game, &full[..full.len() / 2]).unwrap();
    let output = train("6");
    assert_one_line_error(&output, "game-000003.csbsp does not match manifest.txt");
    assert_eq!(
        std::fs::read(out.join("model.safetensors")).unwrap(),
        before
    );
    assert_eq!(std::fs::read(out.join("loss.csv")).unwrap(), csv_before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_wrong_flag_is_one_line() {
    // clap's usage errors too, as the arena's and the bundler's (tool_cli).
    let games = learn(&["selfplay", "--games", "lots"]);
    assert_one_line_error(&games, "invalid value 'lots' for '--games <GAMES>'");
    assert_one_line_error(
        &learn(&["train", "--bogus"]),
        "'--bogus' found (see learn --help)",
    );
    assert_one_line_error(&learn(&["fly"]), "unrecognized subcommand 'fly'");
}

/// `learn visit-noise` on one short game: its bounds in order on stdout; wrong counts refused.
#[test]
fn visit_noise_brackets_the_floor_and_refuses_wrong_counts() {
    let output = learn(&[
        "visit-noise",
        "--games",
        "1",
        "--twins",
        "2",
        "--iterations",
        "40",
        "--nodes",
        "5000",
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let figure = |prefix: &str| -> f64 {
        let line = stdout
            .lines()
            .find(|line| line.starts_with(prefix))
            .expect(prefix);
        let value = line[prefix.len()..]
            .split([' ', ':'])
            .find(|w| !w.is_empty());
        value.and_then(|w| w.parse().ok()).expect(line)
    };
    let single = figure("visits' entropy (one search, as the policy's test split):");
    let below = figure("floor at least");
    let above = figure("floor at most");
    assert!(single < below && below < above, "{stdout}");
    assert_one_line_error(
        &learn(&["visit-noise", "--twins", "0"]),
        "--twins must be 1 to 64, not 0",
    );
    assert_one_line_error(
        &learn(&["visit-noise", "--games", "0"]),
        "--games must be at least 1",
    );
}

#[test]
fn a_missing_data_directory_is_one_line() {
    let dir = scratch("missing");
    let output = learn(&[
        "train",
        "--data",
        &text(&dir.join("nowhere")),
        "--out",
        &text(&dir),
    ]);
    assert_one_line_error(&output, "cannot read the data directory");
    let output = learn(&[
        "train",
        "--data",
        &text(&dir),
        "--out",
        &text(&dir.join("out")),
    ]);
    assert_one_line_error(&output, "no game files");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn game_files_without_a_manifest_are_refused() {
    let dir = scratch("unlisted");
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/game.csbsp");
    std::fs::copy(game, dir.join("game-000000.csbsp")).unwrap();
    let output = learn(&[
        "train",
        "--data",
        &text(&dir),
        "--out",
        &text(&dir.join("out")),
    ]);
    assert_one_line_error(&output, "has no manifest.txt");
    assert!(!dir.join("out").exists());
    let output = generate(&dir, 2);
    assert_one_line_error(
        &output,
        "holds game files (game-000000.csbsp, ...) but no manifest.txt",
    );
    assert!(!dir.join("game-000001.csbsp").exists() && !dir.join("manifest.txt").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_model_of_the_wrong_shape_is_one_line_and_writes_nothing() {
    let dir = scratch("shape");
    let model = dir.join("wrong.safetensors");
    let tensors = std::collections::HashMap::from([(
        "input.weight".to_string(),
        candle_core::Tensor::zeros((3, 3), candle_core::DType::F32, &candle_core::Device::Cpu)
            .unwrap(),
    )]);
    candle_core::safetensors::save(&tensors, &model).unwrap();
    let weights = dir.join("weights.rs");
    std::fs::write(&weights, "earlier").unwrap();
    let output = learn(&[
        "export",
        "--model",
        &text(&model),
        "--weights",
        &text(&weights),
        "--keep",
        &text(&dir.join("kept.safetensors")),
    ]);
    assert_one_line_error(&output, "tensor input.weight has shape [3, 3]");
    assert_eq!(std::fs::read_to_string(&weights).unwrap(), "earlier");
    assert!(!dir.join("kept.safetensors").exists());
    // Not a model at all.
    std::fs::write(&model, "garbage").unwrap();
    let output = learn(&[
        "export",
        "--model",
        &text(&model),
        "--weights",
        &text(&weights),
    ]);
    assert_one_line_error(&output, "cannot read the model");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Self-play with deep turns records them in its manifest (a run with other deep turns is
/// refused), and `train-policy --min-visits` trains on the deep searches' positions alone; too
/// high a bar, or deep turns no deeper than the others, give one line.
#[test]
fn deep_turns_are_recorded_and_train_the_policy_alone() {
    let dir = scratch("deep");
    let data = dir.join("data");
    let selfplay = |games: &str, share: &str, deep: &str| {
        learn(&[
            "selfplay",
            "--out",
            &text(&data),
            "--games",
            games,
            "--iterations",
            "12",
            "--deep-iterations",
            deep,
            "--deep-share",
            share,
            "--nodes",
            "5000",
            "--seed",
            "12",
        ])
    };
    let output = selfplay("8", "0.5", "40");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let manifest = std::fs::read_to_string(data.join("manifest.txt")).unwrap();
    assert!(manifest.contains("\ndeep-turns: 40 500\n"), "{manifest}");
    let output = selfplay("10", "0.25", "40");
    assert_one_line_error(
        &output,
        "holds games of another run: its manifest has deep-turns \"40 500\"",
    );
    assert_one_line_error(&selfplay("8", "0.5", "12"), "--deep-iterations");
    assert_one_line_error(&selfplay("8", "1.5", "40"), "--deep-share");
    assert_eq!(
        std::fs::read_to_string(data.join("manifest.txt")).unwrap(),
        manifest
    );

    let train = |min_visits: &str| {
        learn(&[
            "train-policy",
            "--data",
            &text(&data),
            "--out",
            &text(&dir.join(format!("policy-{min_visits}"))),
            "--epochs",
            "1",
            "--min-visits",
            min_visits,
        ])
    };
    let positions = |output: &Output| -> usize {
        let stdout = String::from_utf8_lossy(&output.stdout);
        let line = stdout
            .lines()
            .find(|line| line.starts_with("positions: ") && line.contains("training"))
            .unwrap_or_else(|| panic!("{stdout}"));
        line["positions: ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let every = train("0");
    assert!(
        every.status.success(),
        "{}",
        String::from_utf8_lossy(&every.stderr)
    );
    let deep = train("13");
    assert!(
        deep.status.success(),
        "{}",
        String::from_utf8_lossy(&deep.stderr)
    );
    assert!(String::from_utf8_lossy(&deep.stdout).contains("searched at least 13 iterations"));
    let (every, deep) = (positions(&every), positions(&deep));
    assert!(deep > 0 && deep < every, "{deep} of {every}");
    assert_one_line_error(&train("41"), "--min-visits");
}
