//! The network the bot embeds is the trained model: `src/bot/value_net/weights.rs` is exactly what
//! `learn export` writes for `learn/model/value.safetensors`, and the bot's forward pass gives
//! candle's logits on fixed positions (a recorded self-play game's) within [`LOGIT_TOLERANCE`],
//! the cost of the 13-bit quantisation (`codec.rs`).

use csb::bot::value_net::features::FEATURE_COUNT;
use csb::bot::value_net::network::Network;
use learn::data::game_file::parse_game;
use learn::value::dataset::{add_game, Samples};
use learn::value::model::Model;
use std::path::Path;

/// Largest |logit| difference allowed between the bot's network and candle's. A logit error of
/// 0.05 moves a win probability by at most 1.25 percentage points.
const LOGIT_TOLERANCE: f32 = 0.05;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

fn model() -> Model {
    Model::load(&root().join("learn/model/value.safetensors")).unwrap()
}

#[test]
fn the_weights_file_is_the_export_of_the_kept_model() {
    // Compared without whitespace: `cargo fmt` may wrap the generated file's lines.
    let squeeze = |text: &str| text.split_whitespace().collect::<String>();
    let written = std::fs::read_to_string(root().join("src/bot/value_net/weights.rs")).unwrap();
    assert!(
        squeeze(&written) == squeeze(&model().export().unwrap()),
        "src/bot/value_net/weights.rs is not the export of learn/model/value.safetensors: run \
         `cargo run --release -p learn -- export --model learn/model/value.safetensors`"
    );
}

#[test]
fn the_bots_forward_pass_equals_candles_within_the_tolerance() {
    let text = std::fs::read_to_string(root().join("learn/tests/fixtures/game.csbsp")).unwrap();
    let game = parse_game(&text).unwrap();
    let mut samples = Samples::default();
    add_game(&game, &mut samples).unwrap();
    assert!(samples.len() >= 20, "{} positions", samples.len());
    let expected = model().logits_of(&samples.own, &samples.theirs).unwrap();
    let network = Network::embedded();
    let mut own = [0.0; FEATURE_COUNT];
    let mut theirs = [0.0; FEATURE_COUNT];
    let mut largest = 0.0f32;
    for (row, expected) in expected.iter().enumerate() {
        own.copy_from_slice(&samples.own[row * FEATURE_COUNT..(row + 1) * FEATURE_COUNT]);
        theirs.copy_from_slice(&samples.theirs[row * FEATURE_COUNT..(row + 1) * FEATURE_COUNT]);
        let logit = network.side_logit(&own) - network.side_logit(&theirs);
        largest = largest.max((logit - expected).abs());
    }
    assert!(
        largest <= LOGIT_TOLERANCE,
        "largest logit difference {largest}"
    );
    // The network is not trivially constant on these positions.
    let spread = expected.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    assert!(spread > 0.5, "{spread}");
}
