//! The value network in candle: the same shape as the bot's (`csb::bot::value_net::network`), the
//! loss, loading and saving, and the export of its weights into the bot's source
//! (`src/bot/value_net/weights.rs`), quantised as `csb::bot::value_net::codec` says.

use crate::common::layers::{self, candle_error};
use candle_core::{DType, Device, Module, Tensor, Var};
use candle_nn::{Linear, VarMap};
use csb::bot::value_net::codec::encode_tensor;
use csb::bot::value_net::features::{CLOCK_FEATURES, FEATURE_COUNT, FEATURE_COUNT_WITHOUT_CLOCKS};
use csb::bot::value_net::network::{Network, HIDDEN1, HIDDEN2};
use std::collections::HashMap;
use std::path::Path;

/// The candle tensors, by name, with their shapes (candle's `Linear` keeps `[out, in]`).
pub const TENSORS: [(&str, [usize; 2]); 6] = [
    ("input.weight", [HIDDEN1, FEATURE_COUNT]),
    ("input.bias", [HIDDEN1, 1]),
    ("hidden.weight", [HIDDEN2, HIDDEN1]),
    ("hidden.bias", [HIDDEN2, 1]),
    ("output.weight", [1, HIDDEN2]),
    ("output.bias", [1, 1]),
];

/// The layers: name, inputs, outputs.
const LAYERS: [(&str, usize, usize); 3] = [
    ("input", FEATURE_COUNT, HIDDEN1),
    ("hidden", HIDDEN1, HIDDEN2),
    ("output", HIDDEN2, 1),
];

/// The network `g` and the variables it trains.
pub struct Model {
    pub vars: VarMap,
    input: Linear,
    hidden: Linear,
    output: Linear,
}

impl Model {
    /// A model whose initial weights are drawn from the project's seeded generator
    /// ([`layers::initial_tensors`]), so one seed gives one network bit for bit.
    pub fn initial(seed: u64) -> Result<Model, String> {
        Model::from_tensors(&layers::initial_tensors(seed, &LAYERS)?)
    }

    /// The model of the network file `path` (`csb --net-file`'s format, as `learn train`
    /// writes it beside each model): a generation's network as the initial weights of the
    /// next training (`learn train --init`). The file holds the quantised weights, so the model
    /// starts where the bot plays, not at the parent's unrounded weights. One line for a
    /// missing file or one that is not this network's.
    pub fn from_network_file(path: &Path) -> Result<Model, String> {
        let error = |message: String| format!("--init {}: {message}", path.display());
        let text = std::fs::read_to_string(path).map_err(|e| error(e.to_string()))?;
        let values = csb::bot::value_net::file::read_values(&text).map_err(error)?;
        Model::from_tensors(&layers::tensors_from_bot_order(&values, &LAYERS).map_err(error)?)
            .map_err(error)
    }

    /// The model of `tensors` (named as [`TENSORS`], shapes checked by the caller); extra
    /// tensors (a checkpoint's optimiser state) are left out.
    pub fn from_tensors(tensors: &HashMap<String, Tensor>) -> Result<Model, String> {
        let vars = layers::variables(tensors, TENSORS.map(|(name, _)| name))?;
        Ok(Model {
            input: layers::layer(&vars, FEATURE_COUNT, HIDDEN1, "input")?,
            hidden: layers::layer(&vars, HIDDEN1, HIDDEN2, "hidden")?,
            output: layers::layer(&vars, HIDDEN2, 1, "output")?,
            vars,
        })
    }

    /// The variable `name` (one of [`TENSORS`]).
    pub fn var(&self, name: &str) -> Result<Var, String> {
        let data = self.vars.data().lock().expect("no poisoned lock");
        data.get(name)
            .cloned()
            .ok_or_else(|| format!("the model has no tensor {name}"))
    }

    /// The model's tensors by name (a snapshot), for saving beside other state.
    pub fn tensors(&self) -> Result<HashMap<String, Tensor>, String> {
        let mut tensors = HashMap::new();
        for (name, _) in TENSORS {
            let tensor = self.var(name)?.as_tensor().copy().map_err(candle_error)?;
            tensors.insert(name.to_string(), tensor);
        }
        Ok(tensors)
    }

    /// The tensors of the safetensors file `path`: an error (one line) for a missing or
    /// unreadable file, or one whose tensors are not this network's. A model from before the
    /// checkpoint clocks were inputs (`input.weight` of [`FEATURE_COUNT_WITHOUT_CLOCKS`]
    /// columns, the clocks being the last inputs) is read with zero weights on the clocks.
    pub fn read_tensors(path: &Path) -> Result<HashMap<String, Tensor>, String> {
        let mut tensors = candle_core::safetensors::load(path, &Device::Cpu).map_err(|error| {
            format!(
                "cannot read the model {}: {}",
                path.display(),
                candle_error(error)
            )
        })?;
        if let Some(input) = tensors.get("input.weight") {
            if input.dims() == [HIDDEN1, FEATURE_COUNT_WITHOUT_CLOCKS]
                && input.dtype() == DType::F32
            {
                let clocks = Tensor::zeros((HIDDEN1, CLOCK_FEATURES), DType::F32, &Device::Cpu);
                let padded = clocks.and_then(|clocks| Tensor::cat(&[input, &clocks], 1));
                let padded = padded.map_err(|error| {
                    format!("model {}: {}", path.display(), candle_error(error))
                })?;
                tensors.insert("input.weight".to_string(), padded);
            }
        }
        for (name, shape) in TENSORS {
            let expected: Vec<usize> = bias_shape(name, shape);
            match tensors.get(name) {
                None => {
                    return Err(format!(
                        "model {}: no tensor {name} (not a model of this network)",
                        path.display()
                    ))
                }
                Some(tensor) if tensor.dims() != expected.as_slice() => {
                    return Err(format!(
                        "model {}: tensor {name} has shape {:?}, this network's is {:?}",
                        path.display(),
                        tensor.dims(),
                        expected
                    ))
                }
                Some(tensor) if tensor.dtype() != DType::F32 => {
                    return Err(format!(
                        "model {}: tensor {name} is {:?}, this network's are f32",
                        path.display(),
                        tensor.dtype()
                    ))
                }
                Some(_) => {}
            }
        }
        Ok(tensors)
    }

    /// The model saved in `path`; an error (one line) for a missing file or one whose tensors
    /// are not this network's.
    pub fn load(path: &Path) -> Result<Model, String> {
        Model::from_tensors(&Model::read_tensors(path)?)
            .map_err(|error| format!("model {}: {error}", path.display()))
    }

    /// Saves to `path` whole or not at all (a temporary file renamed).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        layers::save(&self.vars, path)
    }

    /// `g` of each row of `inputs` (`[n, FEATURE_COUNT]`): `[n, 1]`.
    pub fn side(&self, inputs: &Tensor) -> candle_core::Result<Tensor> {
        let first = self.input.forward(inputs)?.relu()?;
        let second = self.hidden.forward(&first)?.relu()?;
        self.output.forward(&second)
    }

    /// Player 0's win logits `g(own) − g(theirs)`: `[n]`.
    pub fn logits(&self, own: &Tensor, theirs: &Tensor) -> candle_core::Result<Tensor> {
        (self.side(own)? - self.side(theirs)?)?.squeeze(1)
    }

    /// The logits of rows `own` and `theirs` (flat, `FEATURE_COUNT` per row), in chunks.
    pub fn logits_of(&self, own: &[f32], theirs: &[f32]) -> Result<Vec<f32>, String> {
        const CHUNK: usize = 32_768;
        let mut logits = Vec::with_capacity(own.len() / FEATURE_COUNT);
        for (own, theirs) in own
            .chunks(CHUNK * FEATURE_COUNT)
            .zip(theirs.chunks(CHUNK * FEATURE_COUNT))
        {
            let rows = own.len() / FEATURE_COUNT;
            let own = Tensor::from_slice(own, (rows, FEATURE_COUNT), &Device::Cpu)
                .map_err(candle_error)?;
            let theirs = Tensor::from_slice(theirs, (rows, FEATURE_COUNT), &Device::Cpu)
                .map_err(candle_error)?;
            let chunk = self.logits(&own, &theirs).and_then(|t| t.to_vec1::<f32>());
            logits.extend(chunk.map_err(candle_error)?);
        }
        Ok(logits)
    }

    /// The values of tensor `name` in the order the bot's weights are written
    /// ([`layers::bot_order`]).
    fn bot_order(&self, name: &str) -> Result<Vec<f32>, String> {
        layers::bot_order(&self.vars, name)
    }

    /// The bot's `weights.rs` for this model: each tensor's scale and the encoded levels.
    pub fn export(&self) -> Result<String, String> {
        let mut scales = Vec::new();
        let mut letters = String::new();
        for (name, _) in TENSORS {
            let scale = encode_tensor(&self.bot_order(name)?, &mut letters);
            scales.push(format!("{scale:e}"));
        }
        let mut text = String::new();
        text.push_str("//! The value network's weights: generated by `learn export` from\n");
        text.push_str("//! `learn/model/value.safetensors` (do not edit; `tests/embedded.rs` of crate `learn`\n");
        text.push_str(
            "//! checks the two agree). Each tensor's scale, then its levels (`codec.rs`).\n\n",
        );
        // rustfmt's layout (one per line, a trailing comma), so `cargo fmt` leaves it alone.
        text.push_str("pub const SCALES: [f32; 6] = [\n");
        for scale in &scales {
            text.push_str(&format!("    {scale},\n"));
        }
        text.push_str("];\n");
        text.push_str("pub const WEIGHTS: &str = \"");
        text.push_str(&letters);
        text.push_str("\";\n");
        Ok(text)
    }

    /// The bot's network for this model, quantised exactly as the export writes it.
    pub fn quantised(&self) -> Result<Network, String> {
        let text = self.export()?;
        let inside = text
            .split_once("SCALES: [f32; 6] = [")
            .and_then(|(_, rest)| rest.split_once("];"))
            .map(|(inside, _)| inside)
            .ok_or("export without scales")?;
        let mut scales = [0.0f32; 6];
        let values = inside.split(',').map(str::trim).filter(|v| !v.is_empty());
        for (scale, text) in scales.iter_mut().zip(values) {
            *scale = text.parse().map_err(|_| "export's scales unreadable")?;
        }
        let weights = text
            .split_once("WEIGHTS: &str = \"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map(|(weights, _)| weights)
            .ok_or("export's weights unreadable")?;
        Network::decode(weights, &scales)
    }
}

/// A tensor's shape as candle stores it (biases are 1-d).
fn bias_shape(name: &str, shape: [usize; 2]) -> Vec<usize> {
    if name.ends_with("bias") {
        vec![shape[0]]
    } else {
        shape.to_vec()
    }
}

/// Mean binary cross-entropy of `logits` against `targets`, in the stable form
/// `max(z, 0) − y·z + ln(1 + e^−|z|)`.
pub fn log_loss(logits: &Tensor, targets: &Tensor) -> candle_core::Result<Tensor> {
    layers::log_losses(logits, targets)?.mean_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(model: &Model, name: &str) -> Vec<f32> {
        let tensor = model.var(name).unwrap().as_tensor().flatten_all().unwrap();
        tensor.to_vec1::<f32>().unwrap()
    }

    #[test]
    fn one_seed_gives_one_initial_network() {
        let (first, again, other) = (
            Model::initial(3).unwrap(),
            Model::initial(3).unwrap(),
            Model::initial(4).unwrap(),
        );
        for (name, _) in TENSORS {
            assert_eq!(values(&first, name), values(&again, name), "{name}");
            assert_ne!(values(&first, name), values(&other, name), "{name}");
        }
        // He's deviation √(2/58) ≈ 0.186 over the 928 input weights; biases within ±1/√58.
        let weights = values(&first, "input.weight");
        let deviation = (weights.iter().map(|w| w * w).sum::<f32>() / weights.len() as f32).sqrt();
        assert!((deviation - 0.186).abs() < 0.02, "{deviation}");
        let bound = 1.0 / (FEATURE_COUNT as f32).sqrt();
        assert!(values(&first, "input.bias")
            .iter()
            .all(|b| b.abs() <= bound));
    }
}
