//! The policy network carried in the source, so that a bundle (one file, no flags) can play it:
//! `weights.rs` holds `learn/model/policy.txt` quantised as the value network's weights are
//! (`value_net/codec.rs`: each tensor in whole multiples of its own scale, one character per
//! weight), its action layers (`action_inputs.rs`) and their context layer too where it has
//! them and their second layer where it has one, at the network's effective widths (`widths.rs`: a policy narrower than the bot's layers
//! carries no zeros). This file decodes it (what the bot plays unless `--policy-net` names a
//! file) and writes it (`learn embed-policy`); a test ties `weights.rs` to the model file.

use super::action_inputs::ActionLayers;
use super::network::PolicyNetwork;
use super::widths::{effective, regrouped, Widths};
use crate::bot::value_net::codec::{decode_values, encode_tensor};
use crate::bot::value_net::features::FEATURE_COUNT;
use crate::bot::value_net::layers::Dense;

/// The values of `encoded` levels with each tensor's scale, tensors of dimensions `dims`, as
/// tensors of the bot's dimensions `full` (`widths::regrouped`).
fn decode_group(
    encoded: &str,
    scales: &[f32],
    dims: &[Vec<usize>],
    full: &[Vec<usize>],
) -> Result<Vec<f32>, String> {
    let values = decode_values(encoded, &Widths::sizes(dims), scales)?;
    Ok(regrouped(&values, dims, full))
}

/// The network of `encoded` levels with each tensor's scale, at `widths`.
pub fn decode(encoded: &str, scales: &[f32; 4], widths: Widths) -> Result<PolicyNetwork, String> {
    let (dims, full) = (widths.network_dims(), Widths::FULL.network_dims());
    Ok(PolicyNetwork::from_values(&decode_group(
        encoded, scales, &dims, &full,
    )?))
}

/// The action layers of `encoded` levels with each tensor's scale, at `widths`; none for no
/// levels.
pub fn decode_actions(
    encoded: &str,
    scales: &[f32; 4],
    widths: Widths,
) -> Result<Option<ActionLayers>, String> {
    if encoded.is_empty() {
        return Ok(None);
    }
    let (dims, full) = (widths.action_dims(), Widths::FULL.action_dims());
    let values = decode_group(encoded, scales, &dims, &full)?;
    Ok(Some(ActionLayers::from_values(&values)))
}

/// One boxed layer (the context layer, the second action layer) of `encoded` levels with each
/// tensor's scale, tensors of dimensions `dims` read into the bot's `full`; none for no levels.
fn decode_layer<const IN: usize, const OUT: usize>(
    encoded: &str,
    scales: &[f32; 2],
    (dims, full): (Vec<Vec<usize>>, Vec<Vec<usize>>),
) -> Result<Option<Box<Dense<IN, OUT>>>, String> {
    if encoded.is_empty() {
        return Ok(None);
    }
    let values = decode_group(encoded, scales, &dims, &full)?;
    let mut layer = Box::new(Dense::zeros());
    layer.fill_from(&mut values.into_iter());
    Ok(Some(layer))
}

/// One group's scales and levels.
type Group<'a, const N: usize> = (&'a [f32; N], &'a str);

/// The network at `widths` of its levels, each group's scales: the position layers', the action
/// layers', their context layer's and their second layer's.
fn decode_network(
    widths: Widths,
    (scales, letters): Group<4>,
    (action_scales, action_letters): Group<4>,
    (context_scales, context_letters): Group<2>,
    (middle_scales, middle_letters): Group<2>,
) -> Result<PolicyNetwork, String> {
    let mut network = decode(letters, scales, widths)?;
    network.actions = decode_actions(action_letters, action_scales, widths)?;
    if let Some(layers) = network.actions.as_mut() {
        let context_dims = (widths.context_dims(), Widths::FULL.context_dims());
        layers.context = decode_layer(context_letters, context_scales, context_dims)?;
        let middle_dims = (widths.middle_dims(), Widths::FULL.middle_dims());
        layers.middle = decode_layer(middle_letters, middle_scales, middle_dims)?;
    }
    Ok(network)
}

/// The widths `weights.rs` says.
fn embedded_widths() -> Widths {
    let [hidden, action_inputs, action_hidden, action_middle] = super::weights::WIDTHS;
    Widths {
        inputs: FEATURE_COUNT,
        hidden,
        action_inputs,
        action_hidden,
        action_middle,
    }
}

/// The network of `weights.rs`.
pub fn embedded() -> PolicyNetwork {
    use super::weights::{
        ACTION_SCALES, ACTION_WEIGHTS, CONTEXT_SCALES, CONTEXT_WEIGHTS, MIDDLE_SCALES,
        MIDDLE_WEIGHTS, SCALES, WEIGHTS,
    };
    decode_network(
        embedded_widths(),
        (&SCALES, WEIGHTS),
        (&ACTION_SCALES, ACTION_WEIGHTS),
        (&CONTEXT_SCALES, CONTEXT_WEIGHTS),
        (&MIDDLE_SCALES, MIDDLE_WEIGHTS),
    )
    .expect("the embedded policy weights match their widths (a test checks it)")
}

/// The control of the embedded network's rows (`--policy-net control`): the same network with
/// its heads' weights and biases zeroed, so that it costs the same and says nothing (uniform
/// priors, values of one half): a gain of the embedded network over it is what it learned.
pub fn control() -> PolicyNetwork {
    let mut network = embedded();
    network.heads = Dense::zeros();
    network.actions = network.actions.map(|_| ActionLayers::zeros());
    network
}

/// Each tensor's scale and every weight's level, one character each (`encode_tensor`), of
/// `values` (tensors of the bot's dimensions `full`) cut to tensors of dimensions `dims`.
fn encode_values<const N: usize>(
    values: &[f32],
    dims: &[Vec<usize>],
    full: &[Vec<usize>],
) -> ([f32; N], String) {
    let values = regrouped(values, full, dims);
    let mut scales = [0.0; N];
    let mut letters = String::new();
    let mut rest = &values[..];
    for (scale, size) in scales.iter_mut().zip(Widths::sizes(dims)) {
        let (tensor, after) = rest.split_at(size);
        rest = after;
        *scale = encode_tensor(tensor, &mut letters);
    }
    (scales, letters)
}

/// A network's four groups of tensors encoded at `widths`: the position layers', the action
/// layers' (no levels and scales of 1 without them), their context layer's and their second
/// layer's (the same without one).
struct Encoded {
    network: ([f32; 4], String),
    actions: ([f32; 4], String),
    context: ([f32; 2], String),
    middle: ([f32; 2], String),
}

/// `network`'s tensors encoded at `widths` ([`encode_values`]).
fn encode(network: &PolicyNetwork, widths: Widths) -> Encoded {
    let full = Widths::FULL;
    let network_group = encode_values(
        &network.values(),
        &widths.network_dims(),
        &full.network_dims(),
    );
    let none = || ([1.0; 2], String::new());
    let (actions, context, middle) = match &network.actions {
        Some(layers) => {
            let values = layers.values();
            let (own, rest) = values.split_at(Widths::sizes(&full.action_dims()).iter().sum());
            let (context, middle) = match &layers.context {
                Some(_) => rest.split_at(Widths::sizes(&full.context_dims()).iter().sum()),
                None => rest.split_at(0),
            };
            let context = match &layers.context {
                Some(_) => encode_values(context, &widths.context_dims(), &full.context_dims()),
                None => none(),
            };
            let middle = match &layers.middle {
                Some(_) => encode_values(middle, &widths.middle_dims(), &full.middle_dims()),
                None => none(),
            };
            (
                encode_values(own, &widths.action_dims(), &full.action_dims()),
                context,
                middle,
            )
        }
        None => (([1.0; 4], String::new()), none(), none()),
    };
    Encoded {
        network: network_group,
        actions,
        context,
        middle,
    }
}

/// `network` as it plays once embedded (its weights quantised to levels): what a self-play
/// generation's policy file holds, so that the file plays what the bundle would.
pub fn quantised(network: &PolicyNetwork) -> PolicyNetwork {
    let widths = effective(network);
    let encoded = encode(network, widths);
    decode_network(
        widths,
        (&encoded.network.0, &encoded.network.1),
        (&encoded.actions.0, &encoded.actions.1),
        (&encoded.context.0, &encoded.context.1),
        (&encoded.middle.0, &encoded.middle.1),
    )
    .expect("encode writes every weight of the network's widths")
}

/// Appends one tensor group's constants to `weights.rs`'s source: `{prefix}SCALES` (in
/// rustfmt's layout, all on one line, so `cargo fmt` leaves it alone) and `{prefix}WEIGHTS`.
fn push_constants<const N: usize>(
    text: &mut String,
    prefix: &str,
    scales: &[f32; N],
    letters: &str,
) {
    let scales: Vec<String> = scales.iter().map(|scale| format!("{scale:e}")).collect();
    text.push_str(&format!(
        "pub const {prefix}SCALES: [f32; {N}] = [{}];\npub const {prefix}WEIGHTS: &str = \"{letters}\";\n",
        scales.join(", ")
    ));
}

/// The source of `weights.rs` for `network`: its effective widths (`widths.rs`); each tensor's
/// scale, then every weight's level, one character each (`encode_tensor`); then the same of its
/// action layers, their context layer and their second layer (empty without them).
pub fn weights_source(network: &PolicyNetwork) -> String {
    let widths = effective(network);
    let encoded = encode(network, widths);
    let mut text = String::from(
        "//! The policy network's weights: generated by `learn embed-policy` from\n\
         //! `learn/model/policy.txt` (do not edit; a test in `embedded.rs` checks the two agree).\n\
         //! Its widths (hidden, inputs per action, action hidden, second action layer), then each\n\
         //! tensor's scale and its levels (`value_net/codec.rs`).\n\n",
    );
    text.push_str(&format!(
        "pub const WIDTHS: [usize; 4] = [{}, {}, {}, {}];\n",
        widths.hidden, widths.action_inputs, widths.action_hidden, widths.action_middle
    ));
    push_constants(&mut text, "", &encoded.network.0, &encoded.network.1);
    push_constants(&mut text, "ACTION_", &encoded.actions.0, &encoded.actions.1);
    push_constants(
        &mut text,
        "CONTEXT_",
        &encoded.context.0,
        &encoded.context.1,
    );
    push_constants(&mut text, "MIDDLE_", &encoded.middle.0, &encoded.middle.1);
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::policy_net::action_inputs::{ACTION_TENSOR_SIZES, CONTEXT_TENSOR_SIZES};
    use crate::bot::policy_net::network::tests::random_network;
    use crate::bot::policy_net::network::TENSOR_SIZES;
    use crate::bot::policy_net::network::WEIGHT_COUNT;
    use crate::bot::value_net::course::Course;
    use crate::bot::value_net::features::tests::random_positions;
    use std::path::Path;

    /// The largest prior difference quantisation (13-bit levels) may make: one percentage
    /// point (on these positions it makes 0.36 at most).
    const PRIOR_TOLERANCE: f32 = 0.01;

    fn repository_file(path: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
    }

    #[test]
    fn the_embedded_weights_are_the_kept_model_quantised() {
        let model =
            super::super::file::load(repository_file("learn/model/policy.txt").to_str().unwrap())
                .unwrap();
        let written =
            std::fs::read_to_string(repository_file("src/bot/policy_net/weights.rs")).unwrap();
        // Compared without whitespace: `cargo fmt` may wrap the generated file's lines.
        let squeeze = |text: &str| text.split_whitespace().collect::<String>();
        assert!(
            squeeze(&written) == squeeze(&weights_source(&model)),
            "src/bot/policy_net/weights.rs is not learn/model/policy.txt quantised: run \
             `cargo run --release -p learn -- embed-policy`"
        );
        // The embedded network plays the model's priors within the quantisation's error.
        let embedded = embedded();
        let mut largest = 0.0f32;
        for (map, pods, passes, clocks) in random_positions(31, 500) {
            let course = Course::new(&map);
            for pod in 0..4 {
                let exact = model.pod_priors(&pods, &course, passes, clocks, pod);
                let quantised = embedded.pod_priors(&pods, &course, passes, clocks, pod);
                for (a, b) in exact.iter().zip(&quantised) {
                    largest = largest.max((a - b).abs());
                }
            }
        }
        assert!(
            largest <= PRIOR_TOLERANCE,
            "largest prior difference {largest}"
        );
        // A model file already at its levels (a tempered policy is written quantised) embeds
        // as itself; any other must differ somewhere, or the test would not see quantisation.
        assert!(
            largest > 0.0 || quantised(&model) == model,
            "quantisation changed nothing: the test would not see it"
        );
    }

    #[test]
    fn the_control_flag_reads_the_control_network() {
        use crate::bot::config::BotConfig;
        let args: Vec<String> = "--selection puct --policy-net control"
            .split_whitespace()
            .map(String::from)
            .collect();
        let config = BotConfig::from_args(&args).unwrap();
        let policy = config.policy_net.unwrap();
        assert_eq!(policy.path, "control");
        assert_eq!(
            PolicyNetwork::from_values_with_actions(&policy.values),
            control()
        );
    }

    #[test]
    fn the_control_pays_the_forward_pass_for_uniform_priors() {
        let control = control();
        assert_eq!(control.input, embedded().input);
        for (map, pods, passes, clocks) in random_positions(33, 50) {
            let course = Course::new(&map);
            for team in 0..2 {
                let outputs = control.team_outputs(&pods, &course, passes, clocks, team);
                assert_eq!(outputs.priors, [[0.1; 10]; 2]);
                assert_eq!(outputs.values, [0.5; 2]);
            }
        }
    }

    #[test]
    fn action_layers_survive_their_encoding_within_half_a_level() {
        use crate::bot::policy_net::network::tests::random_network_with_actions;
        let network = random_network_with_actions(14);
        let quantised = quantised(&network);
        let (original, decoded) = (
            network.actions.as_ref().unwrap().values(),
            quantised.actions.as_ref().unwrap().values(),
        );
        let largest = original.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        for (a, b) in original.iter().zip(&decoded) {
            assert!((a - b).abs() <= largest / 4231.0, "{a} {b}");
        }
        assert_ne!(
            original, decoded,
            "quantisation moved no weight: the test would not see it"
        );
        // The source holds them: its action constants decode to the same layers.
        let source = weights_source(&network);
        let letters = source
            .split_once("ACTION_WEIGHTS: &str = \"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .unwrap()
            .0;
        assert_eq!(
            letters.chars().count(),
            ACTION_TENSOR_SIZES.iter().sum::<usize>()
        );
        // A network without them writes none.
        let plain = weights_source(&random_network(14));
        assert!(plain.contains("ACTION_WEIGHTS: &str = \"\";"), "{plain}");
    }

    #[test]
    fn a_context_layer_survives_its_encoding_within_half_a_level() {
        use crate::bot::policy_net::network::tests::{
            random_network_with_actions, random_network_with_context,
        };
        let network = random_network_with_context(15);
        let quantised = quantised(&network);
        let (original, decoded) = (
            network.actions.as_ref().unwrap().values(),
            quantised.actions.as_ref().unwrap().values(),
        );
        assert_eq!(original.len(), decoded.len());
        assert!(quantised.actions.as_ref().unwrap().context.is_some());
        let largest = original.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        for (a, b) in original.iter().zip(&decoded) {
            assert!((a - b).abs() <= largest / 4231.0, "{a} {b}");
        }
        let source = weights_source(&network);
        let letters = source
            .split_once("CONTEXT_WEIGHTS: &str = \"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .unwrap()
            .0;
        assert_eq!(
            letters.chars().count(),
            CONTEXT_TENSOR_SIZES.iter().sum::<usize>()
        );
        let plain = weights_source(&random_network_with_actions(15));
        assert!(plain.contains("CONTEXT_WEIGHTS: &str = \"\";"), "{plain}");
    }

    #[test]
    fn a_second_action_layer_survives_its_encoding_within_half_a_level() {
        use crate::bot::policy_net::action_inputs::{
            ACTION_HIDDEN, ACTION_INPUTS, ACTION_MIDDLE, MIDDLE_TENSOR_SIZES,
        };
        use crate::bot::policy_net::network::tests::{
            random_network_with_context, random_network_with_middle,
        };
        use crate::bot::policy_net::network::HIDDEN;
        let network = random_network_with_middle(16);
        let quantised = quantised(&network);
        let (original, decoded) = (
            network.actions.as_ref().unwrap().values(),
            quantised.actions.as_ref().unwrap().values(),
        );
        assert_eq!(original.len(), decoded.len());
        assert!(quantised.actions.as_ref().unwrap().middle.is_some());
        let largest = original.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        for (a, b) in original.iter().zip(&decoded) {
            assert!((a - b).abs() <= largest / 4231.0, "{a} {b}");
        }
        assert_ne!(original, decoded, "quantisation moved no weight");
        let source = weights_source(&network);
        assert!(
            source.contains(&format!(
                "WIDTHS: [usize; 4] = [{HIDDEN}, {ACTION_INPUTS}, {ACTION_HIDDEN}, {ACTION_MIDDLE}];"
            )),
            "{}",
            &source[..600]
        );
        let letters = source
            .split_once("MIDDLE_WEIGHTS: &str = \"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .unwrap()
            .0;
        assert_eq!(
            letters.chars().count(),
            MIDDLE_TENSOR_SIZES.iter().sum::<usize>()
        );
        let plain = weights_source(&random_network_with_context(16));
        assert!(plain.contains("MIDDLE_WEIGHTS: &str = \"\";"), "{plain}");
    }

    #[test]
    fn a_network_survives_its_own_encoding_within_half_a_level() {
        let network = random_network(13);
        let source = weights_source(&network);
        let scales_text = source
            .split_once("[f32; 4] = [")
            .and_then(|(_, rest)| rest.split_once("];"))
            .unwrap()
            .0;
        let scales: Vec<f32> = scales_text
            .split(',')
            .map(str::trim)
            .filter(|text| !text.is_empty())
            .map(|text| text.parse().unwrap())
            .collect();
        let letters = source
            .split_once("WEIGHTS: &str = \"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .unwrap()
            .0;
        assert_eq!(letters.chars().count(), WEIGHT_COUNT);
        let scales = [scales[0], scales[1], scales[2], scales[3]];
        let decoded = decode(letters, &scales, Widths::FULL).unwrap();
        // A generation's policy file holds what the source would: the written scales read back
        // to the ones encoded.
        assert_eq!(quantised(&network), decoded);
        let tensor_of = |index: usize| {
            let start: usize = TENSOR_SIZES[..index].iter().sum();
            start..start + TENSOR_SIZES[index]
        };
        let (original, decoded) = (network.values(), decoded.values());
        for (tensor, scale) in scales.iter().enumerate() {
            for index in tensor_of(tensor) {
                let error = (original[index] - decoded[index]).abs();
                assert!(
                    error <= scale * 0.5001,
                    "weight {index}: {error} > {scale} / 2"
                );
            }
        }
        assert!(decode("一", &[1.0; 4], Widths::FULL).is_err());
    }
}
