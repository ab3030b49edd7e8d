//! The policy network's pipeline: training on the committed data set
//! (`tests/fixtures/selfplay`) is reproducible from its seed, the bot's forward pass is the
//! training library's, and a model of the wrong shape or with a head missing is refused at
//! export with one line and exit code 2, the file already there kept.

mod common;

use candle_core::{Device, Tensor};
use common::{learn, scratch_in_temp, text};
use csb::bot::actions::ACTION_COUNT;
use csb::bot::policy_net::action_inputs::{
    ActionLayers, ACTION_INPUTS, ACTION_MIDDLE, ACTION_TENSOR_SIZES, CONTEXT_TENSOR_SIZES,
};
use csb::bot::policy_net::file::{parse_text, write_text};
use csb::bot::policy_net::network::{HIDDEN, OUTPUTS};
use csb::bot::value_net::features::FEATURE_COUNT;
use learn::policy::model::PolicyModel;
use std::path::{Path, PathBuf};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/selfplay")
}

fn train(out: &Path, seed: &str) {
    let output = learn(&[
        "train-policy",
        "--data",
        &text(&fixture()),
        "--out",
        &text(out),
        "--epochs",
        "2",
        "--batch",
        "64",
        "--seed",
        seed,
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn one_seed_gives_the_same_policy_network_bit_for_bit() {
    let dir = scratch_in_temp("policy", "seed");
    let model = |name: &str| std::fs::read(dir.join(name).join("policy.safetensors")).unwrap();
    train(&dir.join("first"), "3");
    train(&dir.join("again"), "3");
    train(&dir.join("other"), "4");
    assert_eq!(model("first"), model("again"));
    assert_ne!(model("first"), model("other"));
}

#[test]
fn the_bots_forward_pass_is_the_training_librarys() {
    let model = PolicyModel::initial(11, false, false, false).unwrap();
    assert!(!model.has_action_layers());
    forward_passes_agree(&model);
    // With action layers: the initial model's add nothing yet, so a file's layers of random
    // weights stand in for trained ones.
    let mut network = PolicyModel::initial(11, true, false, false)
        .unwrap()
        .bot_network()
        .unwrap();
    let mut rng = csb::search::Rng::new(8);
    let values: Vec<f32> = (0..ACTION_TENSOR_SIZES.iter().sum::<usize>())
        .map(|_| (rng.next_f64() - 0.5) as f32)
        .collect();
    network.actions = Some(ActionLayers::from_values(&values));
    let dir = scratch_in_temp("policy", "actions-forward");
    let file = dir.join("policy.txt");
    std::fs::write(&file, write_text(&network)).unwrap();
    let model = PolicyModel::from_policy_file(&file, false, false, false, 1).unwrap();
    assert!(model.has_action_layers());
    assert_eq!(model.bot_network().unwrap(), network);
    forward_passes_agree(&model);
    // With a context layer: random weights again, and the context changes the scores.
    let without_context = network.clone();
    let values: Vec<f32> = (0..ACTION_TENSOR_SIZES.iter().sum::<usize>()
        + CONTEXT_TENSOR_SIZES.iter().sum::<usize>())
        .map(|_| (rng.next_f64() - 0.5) as f32)
        .collect();
    network.actions = Some(ActionLayers::from_values(&values));
    assert!(network.actions.as_ref().unwrap().context.is_some());
    std::fs::write(&file, write_text(&network)).unwrap();
    let model = PolicyModel::from_policy_file(&file, false, false, false, 1).unwrap();
    assert_eq!(model.bot_network().unwrap(), network);
    forward_passes_agree(&model);
    let view = [0.5; FEATURE_COUNT];
    let per_action = [[[0.25; ACTION_INPUTS]; ACTION_COUNT]; 2];
    let mut plain = without_context;
    plain.actions = Some(ActionLayers::from_values(
        &values[..ACTION_TENSOR_SIZES.iter().sum::<usize>()],
    ));
    assert_ne!(
        plain.forward_with_actions(&view, &per_action),
        network.forward_with_actions(&view, &per_action)
    );
    // A warm start asking for a context layer from a file without one begins it at zero: the
    // same outputs as the file's network.
    std::fs::write(&file, write_text(&plain)).unwrap();
    let warm = PolicyModel::from_policy_file(&file, false, true, false, 1).unwrap();
    let warm_network = warm.bot_network().unwrap();
    assert!(warm_network.actions.as_ref().unwrap().context.is_some());
    assert_eq!(
        warm_network.forward_with_actions(&view, &per_action),
        plain.forward_with_actions(&view, &per_action)
    );
}

/// A second action layer: the model's network reads back from its file and computes candle's
/// outputs; a warm start keeps it, and one asking for it from a file without one draws it cold
/// with heads of zero (the action scores start over: the position's outputs alone).
#[test]
fn a_second_action_layer_is_the_training_librarys_too() {
    let cold = PolicyModel::initial(12, false, true, true).unwrap();
    let mut network = cold.bot_network().unwrap();
    let layers = network.actions.as_mut().unwrap();
    assert!(layers.middle.is_some() && layers.context.is_some());
    // Random heads (the initial ones are zero) for the rows the second layer's units use.
    let mut rng = csb::search::Rng::new(13);
    for row in layers.heads.weights[..ACTION_MIDDLE].iter_mut() {
        *row = [(rng.next_f64() - 0.5) as f32, (rng.next_f64() - 0.5) as f32];
    }
    let dir = scratch_in_temp("policy", "middle-forward");
    let file = dir.join("policy.txt");
    std::fs::write(&file, write_text(&network)).unwrap();
    let model = PolicyModel::from_policy_file(&file, false, false, false, 1).unwrap();
    assert_eq!(model.bot_network().unwrap(), network);
    forward_passes_agree(&model);
    // From a file without one: the same outputs as the file's network without action scores.
    let mut plain = network.clone();
    plain.actions.as_mut().unwrap().middle = None;
    std::fs::write(&file, write_text(&plain)).unwrap();
    let warm = PolicyModel::from_policy_file(&file, false, false, true, 1).unwrap();
    let warm_network = warm.bot_network().unwrap();
    assert!(warm_network.actions.as_ref().unwrap().middle.is_some());
    let view = [0.5; FEATURE_COUNT];
    let per_action = [[[0.25; ACTION_INPUTS]; ACTION_COUNT]; 2];
    let mut position_only = plain.clone();
    position_only.actions = None;
    assert_eq!(
        warm_network.forward_with_actions(&view, &per_action),
        position_only.forward(&view)
    );
}

/// The bot's forward pass of `model`'s network matches candle's on random inputs (and random
/// inputs per action).
fn forward_passes_agree(model: &PolicyModel) {
    let network = model.bot_network().unwrap();
    // The exported file reads back to the same network bit for bit.
    assert_eq!(parse_text(&write_text(&network)).unwrap(), network);
    let mut rng = csb::search::Rng::new(5);
    let rows = 500;
    let inputs: Vec<f32> = (0..rows * FEATURE_COUNT)
        .map(|_| (rng.next_f64() * 4.0 - 2.0) as f32)
        .collect();
    let per_row = 2 * ACTION_COUNT * ACTION_INPUTS;
    let actions: Vec<f32> = (0..rows * per_row)
        .map(|_| (rng.next_f64() * 4.0 - 2.0) as f32)
        .collect();
    let tensor = Tensor::from_slice(&inputs, (rows, FEATURE_COUNT), &Device::Cpu).unwrap();
    let action_tensor = Tensor::from_slice(
        &actions,
        (rows * 2 * ACTION_COUNT, ACTION_INPUTS),
        &Device::Cpu,
    )
    .unwrap();
    let candle: Vec<Vec<f32>> = model
        .forward(&tensor, &action_tensor)
        .unwrap()
        .to_vec2()
        .unwrap();
    // Tolerance: f32 sums of 58 and 32 products in another order (candle's matrix product).
    let mut largest = 0.0f32;
    for (row, expected) in candle.iter().enumerate() {
        let mut view = [0.0; FEATURE_COUNT];
        view.copy_from_slice(&inputs[row * FEATURE_COUNT..(row + 1) * FEATURE_COUNT]);
        let mut per_action = [[[0.0; ACTION_INPUTS]; ACTION_COUNT]; 2];
        let chunks = actions[row * per_row..(row + 1) * per_row].chunks(ACTION_INPUTS);
        for (slot_action, chunk) in per_action.iter_mut().flatten().zip(chunks) {
            slot_action.copy_from_slice(chunk);
        }
        let got = network.forward_with_actions(&view, &per_action);
        assert_eq!(expected.len(), OUTPUTS);
        for (a, b) in got.iter().zip(expected) {
            largest = largest.max((a - b).abs());
        }
    }
    assert!(largest < 1e-4, "largest difference {largest}");
}

#[test]
fn a_model_of_the_wrong_shape_or_without_a_head_is_refused_at_export() {
    let dir = scratch_in_temp("policy", "export");
    let out = dir.join("policy.txt");
    std::fs::write(&out, "what was there").unwrap();
    let write_model = |name: &str, tensors: Vec<(&str, Tensor)>| {
        let path = dir.join(name);
        let tensors: std::collections::HashMap<String, Tensor> = tensors
            .into_iter()
            .map(|(name, tensor)| (name.to_string(), tensor))
            .collect();
        candle_core::safetensors::save(&tensors, &path).unwrap();
        path
    };
    let zeros =
        |shape: &[usize]| Tensor::zeros(shape, candle_core::DType::F32, &Device::Cpu).unwrap();
    let without_heads = write_model(
        "no-heads.safetensors",
        vec![
            ("input.weight", zeros(&[HIDDEN, FEATURE_COUNT])),
            ("input.bias", zeros(&[HIDDEN])),
        ],
    );
    let narrow = write_model(
        "narrow.safetensors",
        vec![
            ("input.weight", zeros(&[16, FEATURE_COUNT])),
            ("input.bias", zeros(&[16])),
            ("heads.weight", zeros(&[22, 16])),
            ("heads.bias", zeros(&[22])),
        ],
    );
    for (model, words) in [
        (without_heads, "no tensor heads.weight"),
        (narrow, "tensor input.weight is"),
        (
            dir.join("missing.safetensors"),
            "cannot read the policy model",
        ),
    ] {
        let output = learn(&[
            "export-policy",
            "--model",
            &text(&model),
            "--out",
            &text(&out),
        ]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(words), "{stderr}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "what was there");
    }
}

#[test]
fn embed_policy_writes_the_bots_source_and_refuses_a_bad_file_with_one_line() {
    let dir = scratch_in_temp("policy", "embed");
    let weights = dir.join("weights.rs");
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("model/policy.txt");
    let output = learn(&[
        "embed-policy",
        "--file",
        &text(&committed),
        "--weights",
        &text(&weights),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The committed source is what the committed file embeds (the bot's own test checks the
    // same from its side, without whitespace).
    let written = std::fs::read_to_string(&weights).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../src/bot/policy_net/weights.rs");
    let squeeze = |text: &str| text.split_whitespace().collect::<String>();
    assert!(
        squeeze(&written) == squeeze(&std::fs::read_to_string(source).unwrap()),
        "embed-policy of learn/model/policy.txt is not src/bot/policy_net/weights.rs"
    );

    std::fs::write(&weights, "what was there").unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "csb-policy-net 1\nshape 57 16 22\n").unwrap();
    for (file, words) in [
        (bad, "this bot's is"),
        (dir.join("missing.txt"), "cannot read the policy network"),
    ] {
        let output = learn(&[
            "embed-policy",
            "--file",
            &text(&file),
            "--weights",
            &text(&weights),
        ]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(words), "{stderr}");
        assert_eq!(std::fs::read_to_string(&weights).unwrap(), "what was there");
    }
}
