//! Warm starts (`learn train --init` and `learn train-policy --init`): a training that takes
//! no step (learning rate 0) keeps the init file's weights exactly, so training begins from
//! them and not from the seed's; one that steps moves away from them; the init file is recorded
//! in the value model's manifest and a resumed run must name the same one; a file that is not
//! the network trained is refused in one line with exit code 2, nothing written.

mod common;

use common::{assert_one_line_error, assert_success, learn, scratch_in_temp, text};
use learn::common::layers::bot_order;
use learn::policy::model::PolicyModel;
use learn::value::model::Model;
use std::path::{Path, PathBuf};
use std::process::Output;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/selfplay")
}

/// Generation 1's files, kept in the repository.
fn kept(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("generations/gen-001")
        .join(file)
}

/// `learn COMMAND` (`train` or `train-policy`) on the fixture for one epoch into `out`, from
/// `init`'s weights.
fn train(command: &str, out: &Path, learning_rate: &str, init: &Path) -> Output {
    learn(&[
        command,
        "--data",
        &text(&fixture()),
        "--out",
        &text(out),
        "--epochs",
        "1",
        "--batch",
        "64",
        "--learning-rate",
        learning_rate,
        "--init",
        &text(init),
    ])
}

fn train_value(out: &Path, learning_rate: &str, init: &Path) -> Output {
    train("train", out, learning_rate, init)
}

fn train_policy(out: &Path, learning_rate: &str, init: &Path) -> Output {
    train("train-policy", out, learning_rate, init)
}

/// The model's weights in the network file's order.
fn model_values(path: &Path) -> Vec<f32> {
    let model = Model::load(path).unwrap();
    learn::value::model::TENSORS
        .iter()
        .flat_map(|(name, _)| bot_order(&model.vars, name).unwrap())
        .collect()
}

#[test]
fn the_value_network_starts_from_the_init_file() {
    let dir = scratch_in_temp("warm-start", "value");
    let init = kept("network.txt");
    let init_values =
        csb::bot::value_net::file::read_values(&std::fs::read_to_string(&init).unwrap()).unwrap();

    assert_success(&train_value(&dir.join("still"), "0", &init));
    assert_eq!(
        model_values(&dir.join("still/model.safetensors")),
        init_values
    );
    let manifest = std::fs::read_to_string(dir.join("still/model.manifest")).unwrap();
    let sha = learn::common::manifest::sha256_hex(&std::fs::read(&init).unwrap());
    assert!(
        manifest.contains(&format!("init-sha256: {sha}")),
        "{manifest}"
    );
    assert!(manifest.contains("--init "), "{manifest}");

    assert_success(&train_value(&dir.join("moved"), "0.002", &init));
    assert_ne!(
        model_values(&dir.join("moved/model.safetensors")),
        init_values
    );

    // A run resumed in the same folder must start from the same file.
    let other = dir.join("other-init.txt");
    let mut changed = init_values.clone();
    changed[0] += 0.5;
    std::fs::write(
        &other,
        csb::bot::value_net::file::write(&csb::bot::value_net::file::network_of(&changed)),
    )
    .unwrap();
    let model_before = std::fs::read(dir.join("still/model.safetensors")).unwrap();
    assert_one_line_error(
        &train_value(&dir.join("still"), "0", &other),
        "other settings (init-sha256",
    );
    assert_eq!(
        std::fs::read(dir.join("still/model.safetensors")).unwrap(),
        model_before
    );

    // A policy file is not a value network: one line, no folder.
    assert_one_line_error(
        &train_value(&dir.join("refused"), "0", &kept("policy.txt")),
        "not a network file",
    );
    assert!(!dir.join("refused").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_policy_starts_from_the_init_file() {
    let dir = scratch_in_temp("warm-start", "policy");
    let init = kept("policy.txt");
    let init_network = csb::bot::policy_net::file::load(&text(&init)).unwrap();
    let trained = |folder: &str| {
        PolicyModel::load(&dir.join(folder).join("policy.safetensors"))
            .unwrap()
            .bot_network()
            .unwrap()
    };

    assert_success(&train_policy(&dir.join("still"), "0", &init));
    // The kept policy is narrower than the bot's layers: its units are the init file's, the
    // units it lacks get inputs (so that they learn) and no outputs (so that the model begins
    // as the parent plays).
    let still = trained("still");
    let widths = csb::bot::policy_net::widths::effective(&init_network);
    assert!(widths.hidden < csb::bot::policy_net::network::HIDDEN);
    for (row, init_row) in still.input.weights.iter().zip(&init_network.input.weights) {
        assert_eq!(row[..widths.hidden], init_row[..widths.hidden]);
    }
    assert_eq!(still.heads, init_network.heads);
    assert!(still
        .input
        .weights
        .iter()
        .any(|row| row[widths.hidden..].iter().any(|&w| w != 0.0)));
    assert_eq!(still.actions.is_some(), init_network.actions.is_some());
    if let (Some(layers), Some(init_layers)) = (&still.actions, &init_network.actions) {
        assert_eq!(layers.heads, init_layers.heads);
        for (row, init_row) in layers.input.weights.iter().zip(&init_layers.input.weights) {
            assert_eq!(
                row[..widths.action_hidden],
                init_row[..widths.action_hidden]
            );
            assert!(row[widths.action_hidden..].iter().any(|&w| w != 0.0));
        }
    }
    assert_success(&train_policy(&dir.join("moved"), "0.003", &init));
    assert_ne!(trained("moved"), init_network);

    // A value network's file is not a policy: one line, no folder.
    assert_one_line_error(
        &train_policy(&dir.join("refused"), "0", &kept("network.txt")),
        "--init",
    );
    assert!(!dir.join("refused").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
