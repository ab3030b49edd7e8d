//! What the value and the policy networks are both built of in candle, written once: dense
//! layers with seeded initial weights (He's normal weights, uniform biases, drawn from the
//! project's generator so one seed gives one network bit for bit), the variables made from named
//! tensors, saving them whole, a tensor in the bot's weight order (input-major), the numerically
//! stable log-loss, and candle's error as one line.

use candle_core::{DType, Device, Tensor, Var};
use candle_nn::{linear, Linear, VarBuilder, VarMap};
use csb::search::Rng;
use std::collections::HashMap;
use std::path::Path;

/// candle's error as one line (its errors may span lines: a backtrace); the first.
pub fn candle_error(error: candle_core::Error) -> String {
    error.to_string().lines().next().unwrap_or("").to_string()
}

/// A standard normal draw (Box–Muller, the cosine half).
fn standard_normal(rng: &mut Rng) -> f64 {
    // 1 − u lies in (0, 1], so the logarithm is finite.
    let radius = (-2.0 * (1.0f64 - rng.next_f64()).ln()).sqrt();
    radius * (std::f64::consts::TAU * rng.next_f64()).cos()
}

/// The initial tensors of `layers` (name, inputs, outputs), in order, from the project's seeded
/// generator (`csb::search::Rng`; candle's own initialisation draws from an unseeded one). The
/// distributions are candle's defaults for a linear layer: weights normal with standard
/// deviation √(2 / inputs) (He's, for ReLU), biases uniform in ±1/√inputs.
pub fn initial_tensors(
    seed: u64,
    layers: &[(&str, usize, usize)],
) -> Result<HashMap<String, Tensor>, String> {
    let mut rng = Rng::new(seed);
    let mut tensors = HashMap::new();
    for &(layer, inputs, outputs) in layers {
        let deviation = (2.0 / inputs as f64).sqrt();
        let weights: Vec<f32> = (0..inputs * outputs)
            .map(|_| (deviation * standard_normal(&mut rng)) as f32)
            .collect();
        let bound = 1.0 / (inputs as f64).sqrt();
        let biases: Vec<f32> = (0..outputs)
            .map(|_| (bound * (2.0 * rng.next_f64() - 1.0)) as f32)
            .collect();
        let weights = Tensor::from_vec(weights, (outputs, inputs), &Device::Cpu);
        let biases = Tensor::from_vec(biases, outputs, &Device::Cpu);
        tensors.insert(format!("{layer}.weight"), weights.map_err(candle_error)?);
        tensors.insert(format!("{layer}.bias"), biases.map_err(candle_error)?);
    }
    Ok(tensors)
}

/// The variables of the tensors `names` of `tensors` (extra tensors, a checkpoint's optimiser
/// state, are left out); each a copy, so the variables own their storage.
pub fn variables<'a>(
    tensors: &HashMap<String, Tensor>,
    names: impl IntoIterator<Item = &'a str>,
) -> Result<VarMap, String> {
    let vars = VarMap::new();
    {
        let mut data = vars.data().lock().expect("no poisoned lock");
        for name in names {
            let tensor = tensors
                .get(name)
                .ok_or_else(|| format!("no tensor {name}"))?;
            let var = Var::from_tensor(&tensor.copy().map_err(candle_error)?);
            data.insert(name.to_string(), var.map_err(candle_error)?);
        }
    }
    Ok(vars)
}

/// The linear layer `name` (`name.weight`, `name.bias`) of `vars`: the variables exist, so the
/// builder returns them (its initialisation is not used).
pub fn layer(vars: &VarMap, inputs: usize, outputs: usize, name: &str) -> Result<Linear, String> {
    let builder = VarBuilder::from_varmap(vars, DType::F32, &Device::Cpu);
    linear(inputs, outputs, builder.pp(name)).map_err(candle_error)
}

/// Saves `vars` to `path` whole or not at all (a temporary file renamed).
pub fn save(vars: &VarMap, path: &Path) -> Result<(), String> {
    save_whole(path, |temporary| vars.save(temporary))
}

/// Writes `path` whole or not at all: `write` writes the temporary file beside it, which is
/// then renamed; the error is one line naming the file.
pub fn save_whole(
    path: &Path,
    write: impl FnOnce(&Path) -> candle_core::Result<()>,
) -> Result<(), String> {
    let temporary = path.with_extension("tmp");
    write(&temporary).map_err(|error| {
        format!(
            "cannot write {}: {}",
            temporary.display(),
            candle_error(error)
        )
    })?;
    std::fs::rename(&temporary, path)
        .map_err(|error| format!("cannot write {}: {error}", path.display()))
}

/// The values of tensor `name` of `vars` in the order the bot's weights are written: weights
/// input-major (`[in][out]`, candle keeps `[out, in]`), biases in order.
pub fn bot_order(vars: &VarMap, name: &str) -> Result<Vec<f32>, String> {
    let data = vars.data().lock().expect("no poisoned lock");
    let tensor = data
        .get(name)
        .ok_or_else(|| format!("the model has no tensor {name}"))?
        .as_tensor()
        .clone();
    let tensor = if name.ends_with("weight") {
        tensor.t().and_then(|t| t.contiguous())
    } else {
        Ok(tensor)
    };
    tensor
        .and_then(|t| t.flatten_all())
        .and_then(|t| t.to_vec1::<f32>())
        .map_err(candle_error)
}

/// The tensors of `layers` (name, inputs, outputs) from `values` in the bot's order, each
/// layer's weights input-major and then its biases: the inverse of [`bot_order`], so that a
/// network file (the value network's or the policy's) can be the initial weights of a training
/// (`--init`). The error (one line) says how many weights there are and how many the layers take.
pub fn tensors_from_bot_order(
    values: &[f32],
    layers: &[(&str, usize, usize)],
) -> Result<HashMap<String, Tensor>, String> {
    let expected: usize = layers
        .iter()
        .map(|&(_, inputs, outputs)| inputs * outputs + outputs)
        .sum();
    if values.len() != expected {
        return Err(format!(
            "{} weights, where this network has {expected}",
            values.len()
        ));
    }
    let mut tensors = HashMap::new();
    let mut rest = values;
    for &(layer, inputs, outputs) in layers {
        let (weights, after) = rest.split_at(inputs * outputs);
        let (biases, after) = after.split_at(outputs);
        rest = after;
        let weights = Tensor::from_slice(weights, (inputs, outputs), &Device::Cpu)
            .and_then(|t| t.t())
            .and_then(|t| t.contiguous());
        let biases = Tensor::from_slice(biases, outputs, &Device::Cpu);
        tensors.insert(format!("{layer}.weight"), weights.map_err(candle_error)?);
        tensors.insert(format!("{layer}.bias"), biases.map_err(candle_error)?);
    }
    Ok(tensors)
}

/// The binary cross-entropy of each of `logits` against `targets`, in the stable form
/// `max(z, 0) − y·z + ln(1 + e^−|z|)` (not averaged).
pub fn log_losses(logits: &Tensor, targets: &Tensor) -> candle_core::Result<Tensor> {
    let positive = logits.relu()?;
    let soft = logits.abs()?.neg()?.exp()?.affine(1.0, 1.0)?.log()?;
    (positive - (targets * logits)?)? + soft
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bot_order_read_back_gives_the_same_tensors() {
        let layers = [("input", 3, 4), ("heads", 4, 2)];
        let names = ["input.weight", "input.bias", "heads.weight", "heads.bias"];
        let tensors = initial_tensors(7, &layers).unwrap();
        let vars = variables(&tensors, names).unwrap();
        let values: Vec<f32> = names
            .iter()
            .flat_map(|name| bot_order(&vars, name).unwrap())
            .collect();
        let back = tensors_from_bot_order(&values, &layers).unwrap();
        assert_eq!(back.len(), tensors.len());
        for (name, tensor) in &tensors {
            assert_eq!(back[name].dims(), tensor.dims(), "{name}");
            let flat = |t: &Tensor| t.flatten_all().unwrap().to_vec1::<f32>().unwrap();
            assert_eq!(flat(&back[name]), flat(tensor), "{name}");
        }
        assert_eq!(
            tensors_from_bot_order(&values[1..], &layers).unwrap_err(),
            format!(
                "{} weights, where this network has {}",
                values.len() - 1,
                values.len()
            )
        );
    }
}
