//! Reproducible training, on the committed data set `tests/fixtures/selfplay` (6 games of
//! `learn selfplay --games 6 --iterations 12 --nodes 5000 --seed 42`: three maps, one in each
//! split, with the directory's manifest): trained twice with one seed, the model, checkpoint,
//! curve and manifest are identical bit for bit, and another seed gives other weights;
//! interrupted after two epochs and resumed to four, the files are those of four epochs in one
//! go. Wrong inputs (data that are not their manifest's, an output directory whose model names
//! other data or settings, has no manifest, or is further on than `--epochs`) give one line and
//! exit code 2, and leave what was written as it was.

use learn::data_manifest::DataManifest;
use learn::manifest::sha256_hex;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{assert_one_line_error, assert_success, text};

/// The files training writes, compared byte for byte.
const OUTPUTS: [&str; 5] = [
    "model.safetensors",
    "model.manifest",
    "checkpoint.safetensors",
    "loss.csv",
    "loss.svg",
];

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/selfplay")
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    common::scratch_in_temp("reproduce", name)
}

/// `learn train` on `data` into `out` for `epochs` with seed `seed` (other settings fixed).
fn train(data: &Path, out: &Path, epochs: u32, seed: u32, extra: &[&str]) -> Output {
    let mut args = vec![
        "train".to_string(),
        "--data".to_string(),
        text(data),
        "--out".to_string(),
        text(out),
        "--epochs".to_string(),
        epochs.to_string(),
        "--batch".to_string(),
        "32".to_string(),
        "--learning-rate".to_string(),
        "0.01".to_string(),
        "--seed".to_string(),
        seed.to_string(),
    ];
    args.extend(extra.iter().map(|arg| arg.to_string()));
    Command::new(env!("CARGO_BIN_EXE_learn"))
        .args(&args)
        .output()
        .expect("learn runs")
}

/// The bytes of the files training wrote in `out`.
fn outputs(out: &Path) -> Vec<Vec<u8>> {
    OUTPUTS
        .iter()
        .map(|name| std::fs::read(out.join(name)).unwrap_or_else(|_| panic!("{name} written")))
        .collect()
}

/// Asserts two runs' files equal, naming the first that differs.
fn assert_same_outputs(first: &[Vec<u8>], second: &[Vec<u8>]) {
    for ((name, a), b) in OUTPUTS.iter().zip(first).zip(second) {
        assert!(a == b, "{name} differs between the two runs");
    }
}

#[test]
fn one_seed_gives_the_same_weights_bit_for_bit() {
    let dir = scratch("seed");
    let out = dir.join("out");
    assert_success(&train(&fixture(), &out, 3, 7, &[]));
    let first = outputs(&out);
    std::fs::remove_dir_all(&out).unwrap();
    assert_success(&train(&fixture(), &out, 3, 7, &[]));
    assert_same_outputs(&first, &outputs(&out));

    // The seed is what fixes them: another seed, other weights.
    let other = dir.join("other");
    assert_success(&train(&fixture(), &other, 3, 8, &[]));
    assert_ne!(
        std::fs::read(other.join("model.safetensors")).unwrap(),
        first[0]
    );
    // The manifest names the data by the hash `sha256sum game-*.csbsp | sha256sum` gives.
    let manifest = std::fs::read_to_string(out.join("model.manifest")).unwrap();
    let data = DataManifest::read(&fixture()).unwrap().unwrap();
    let mut listing = String::new();
    for name in data.files.keys() {
        let bytes = std::fs::read(fixture().join(name)).unwrap();
        listing.push_str(&format!("{}  {name}\n", sha256_hex(&bytes)));
    }
    assert!(
        manifest.contains(&format!(
            "data-sha256: {}\n",
            sha256_hex(listing.as_bytes())
        )),
        "{manifest}"
    );
    for line in [
        "games: 6\n",
        "maps: 1 training, 1 validation, 1 test\n",
        "bot-signature: ",
        "selfplay-iterations: 12\n",
        "command: learn train --data ",
        "test-network: log-loss ",
        "test-hand: log-loss ",
    ] {
        assert!(manifest.contains(line), "{line:?} not in {manifest}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interrupted_run_resumed_gives_the_same_weights() {
    let dir = scratch("resume");
    let out = dir.join("out");
    assert_success(&train(&fixture(), &out, 4, 3, &[]));
    let straight = outputs(&out);
    std::fs::remove_dir_all(&out).unwrap();
    assert_success(&train(&fixture(), &out, 2, 3, &[]));
    let output = train(&fixture(), &out, 4, 3, &[]);
    assert_success(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("resuming after epoch 2"), "{stderr}");
    assert_same_outputs(&straight, &outputs(&out));
    // A run may grow, not shrink: its manifest would name a command that did not make it.
    assert_one_line_error(&train(&fixture(), &out, 2, 3, &[]), "is at epoch 4");
    assert_same_outputs(&straight, &outputs(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Copies the fixture's files into `to`.
fn copy_fixture(to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(fixture()).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
    }
}

#[test]
fn data_that_are_not_their_manifests_are_refused_and_nothing_is_written() {
    let dir = scratch("data");
    let out = dir.join("out");
    assert_success(&train(&fixture(), &out, 1, 1, &[]));
    let before = outputs(&out);
    let data = dir.join("data");
    let game = |index: u32| data.join(format!("game-00000{index}.csbsp"));
    let cases: [(&str, &dyn Fn()); 5] = [
        ("game-000002.csbsp does not match manifest.txt", &|| {
            let text = std::fs::read_to_string(game(2)).unwrap();
            std::fs::write(game(2), text.replacen("result 0", "result 1", 1)).unwrap();
        }),
        (
            "game-000004.csbsp is listed in manifest.txt but missing",
            &|| {
                std::fs::remove_file(game(4)).unwrap();
            },
        ),
        ("game-000006.csbsp is not in manifest.txt", &|| {
            std::fs::copy(game(5), game(6)).unwrap();
        }),
        ("has no manifest.txt", &|| {
            std::fs::remove_file(data.join("manifest.txt")).unwrap();
        }),
        (
            "lists 6 of the run's 8 games: the run is unfinished",
            &|| {
                let mut manifest = DataManifest::read(&data).unwrap().unwrap();
                manifest.run.games = 8;
                manifest.write(&data).unwrap();
            },
        ),
    ];
    for (mentions, spoil) in cases {
        let _ = std::fs::remove_dir_all(&data);
        copy_fixture(&data);
        spoil();
        assert_one_line_error(&train(&data, &out, 2, 1, &[]), mentions);
        assert_same_outputs(&before, &outputs(&out));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_model_of_other_data_or_settings_is_not_resumed_or_overwritten() {
    let dir = scratch("model");
    let out = dir.join("out");
    assert_success(&train(&fixture(), &out, 1, 1, &[]));
    let before = outputs(&out);

    // Other data, with a manifest of their own: one game's result changed and relisted.
    let data = dir.join("data");
    copy_fixture(&data);
    let path = data.join("game-000003.csbsp");
    let changed = std::fs::read_to_string(&path)
        .unwrap()
        .replacen("result 1", "result 0", 1);
    std::fs::write(&path, &changed).unwrap();
    let mut manifest = DataManifest::read(&data).unwrap().unwrap();
    manifest.files.insert(
        "game-000003.csbsp".to_string(),
        sha256_hex(changed.as_bytes()),
    );
    manifest.write(&data).unwrap();
    assert_one_line_error(&train(&data, &out, 2, 1, &[]), "names other data");
    assert_same_outputs(&before, &outputs(&out));
    // Those data train into a directory of their own.
    assert_success(&train(&data, &dir.join("elsewhere"), 1, 1, &[]));

    // Other settings.
    let output = train(&fixture(), &out, 2, 1, &["--result-weight", "1"]);
    assert_one_line_error(&output, "other settings (result-weight 0.3)");
    assert_one_line_error(
        &train(&fixture(), &out, 2, 2, &[]),
        "other settings (seed 1)",
    );
    assert_same_outputs(&before, &outputs(&out));

    // A model without its manifest cannot be told apart from one of other data.
    std::fs::remove_file(out.join("model.manifest")).unwrap();
    assert_one_line_error(&train(&fixture(), &out, 2, 1, &[]), "has no manifest");
    assert_eq!(
        std::fs::read(out.join("model.safetensors")).unwrap(),
        before[0]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The value after `key` (a word) in `text`.
fn word_after<'a>(text: &'a str, key: &str) -> &'a str {
    let at = text
        .find(key)
        .unwrap_or_else(|| panic!("no {key:?} in {text}"))
        + key.len();
    text[at..].split_whitespace().next().unwrap()
}

/// `learn evaluate` of the network file `network` on the fixture.
fn evaluate(network: &Path) -> Output {
    common::learn(&[
        "evaluate",
        "--network",
        &text(network),
        "--data",
        &text(&fixture()),
    ])
}

#[test]
fn evaluate_measures_a_network_file_as_training_reported_it() {
    let out = scratch("evaluate");
    assert_success(&train(&fixture(), &out, 2, 7, &[]));
    let network = out.join("network.txt");
    let output = evaluate(&network);
    assert_success(&output);
    let printed = String::from_utf8(output.stdout).unwrap();
    let manifest = std::fs::read_to_string(out.join("model.manifest")).unwrap();
    // The network file is the quantised model: the bot's forward pass, the figures training
    // wrote for it; the hand evaluation's are training's too.
    let quantised = manifest
        .lines()
        .find_map(|line| line.strip_prefix("test-quantised: "))
        .unwrap();
    let hand = manifest
        .lines()
        .find_map(|line| line.strip_prefix("test-hand: "))
        .unwrap();
    let network_part = printed.split("; hand").next().unwrap();
    let hand_part = printed.split("; hand").nth(1).unwrap();
    assert_eq!(
        word_after(network_part, "log-loss"),
        word_after(quantised, "log-loss")
    );
    assert_eq!(
        word_after(network_part, "accuracy").trim_end_matches(';'),
        word_after(quantised, "accuracy")
    );
    assert_eq!(
        word_after(hand_part, "log-loss"),
        word_after(hand, "log-loss")
    );

    // A network file of another shape: one line, exit code 2.
    let short = out.join("short.txt");
    let text_of_network = std::fs::read_to_string(&network).unwrap();
    let mut lines: Vec<&str> = text_of_network.lines().collect();
    lines.pop(); // the output's bias
    std::fs::write(&short, lines.join("\n") + "\n").unwrap();
    let output = evaluate(&short);
    assert_one_line_error(&output, "short.txt");
}
