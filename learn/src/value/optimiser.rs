//! AdamW (Adam with decoupled weight decay, Loshchilov and Hutter) over the model's tensors,
//! with its state readable and restorable: candle's `AdamW` keeps its moments and step count
//! private, so a checkpoint could not hold them and a resumed run would restart the moments
//! from zero. Here the state is a few named tensors (`checkpoint.rs` saves them), and a run
//! resumed from them takes the same steps as one that never stopped.

use crate::common::layers::candle_error;
use crate::value::model::{Model, TENSORS};
use candle_core::{DType, Device, Tensor, Var};
use std::collections::HashMap;

/// The optimiser's settings (the usual defaults but the learning rate and the decay).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamWSettings {
    pub learning_rate: f64,
    pub weight_decay: f64,
    pub beta1: f64,
    pub beta2: f64,
    pub epsilon: f64,
}

impl AdamWSettings {
    /// The trainer's settings: `learning_rate`, decay 0.01, β 0.9 and 0.999, ε 1e-8.
    pub fn new(learning_rate: f64) -> AdamWSettings {
        AdamWSettings {
            learning_rate,
            weight_decay: 1e-2,
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
        }
    }
}

/// One trained tensor with its moment estimates.
struct Slot {
    name: &'static str,
    var: Var,
    first_moment: Tensor,
    second_moment: Tensor,
}

/// AdamW over every tensor of a [`Model`], in the order of [`TENSORS`].
pub struct AdamW {
    settings: AdamWSettings,
    steps: u64,
    slots: Vec<Slot>,
}

/// The names the state is saved under.
const STEPS: &str = "adamw.steps";
fn first_name(name: &str) -> String {
    format!("adamw.first.{name}")
}
fn second_name(name: &str) -> String {
    format!("adamw.second.{name}")
}

impl AdamW {
    /// A fresh optimiser (moments zero, no step taken) for `model`'s tensors.
    pub fn new(model: &Model, settings: AdamWSettings) -> Result<AdamW, String> {
        let mut slots = Vec::with_capacity(TENSORS.len());
        for (name, _) in TENSORS {
            let var = model.var(name)?;
            let zeros = var.as_tensor().zeros_like().map_err(candle_error)?;
            slots.push(Slot {
                name,
                var,
                first_moment: zeros.clone(),
                second_moment: zeros,
            });
        }
        Ok(AdamW {
            settings,
            steps: 0,
            slots,
        })
    }

    /// Steps taken so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// One step down the gradient of `loss`.
    pub fn step(&mut self, loss: &Tensor) -> candle_core::Result<()> {
        let gradients = loss.backward()?;
        self.steps += 1;
        let AdamWSettings {
            learning_rate,
            weight_decay,
            beta1,
            beta2,
            epsilon,
        } = self.settings;
        let steps = self.steps as i32;
        let first_correction = 1.0 / (1.0 - beta1.powi(steps));
        let second_correction = 1.0 / (1.0 - beta2.powi(steps));
        for slot in &mut self.slots {
            let Some(gradient) = gradients.get(slot.var.as_tensor()) else {
                continue;
            };
            slot.first_moment =
                (slot.first_moment.affine(beta1, 0.0)? + gradient.affine(1.0 - beta1, 0.0)?)?;
            slot.second_moment = (slot.second_moment.affine(beta2, 0.0)?
                + gradient.sqr()?.affine(1.0 - beta2, 0.0)?)?;
            let direction = (slot.first_moment.affine(first_correction, 0.0)?
                / slot
                    .second_moment
                    .affine(second_correction, 0.0)?
                    .sqrt()?
                    .affine(1.0, epsilon)?)?;
            let decayed = slot
                .var
                .as_tensor()
                .affine(1.0 - learning_rate * weight_decay, 0.0)?;
            slot.var
                .set(&(decayed - direction.affine(learning_rate, 0.0)?)?)?;
        }
        Ok(())
    }

    /// The state as named tensors: each tensor's two moments and the step count.
    pub fn state(&self) -> Result<HashMap<String, Tensor>, String> {
        let mut state = HashMap::new();
        for slot in &self.slots {
            state.insert(first_name(slot.name), slot.first_moment.clone());
            state.insert(second_name(slot.name), slot.second_moment.clone());
        }
        let steps = Tensor::new(&[self.steps as i64], &Device::Cpu).map_err(candle_error)?;
        state.insert(STEPS.to_string(), steps);
        Ok(state)
    }

    /// Takes the state [`AdamW::state`] gave (from `tensors`, which may hold other tensors
    /// too); an error names what is missing or misshapen.
    pub fn restore(&mut self, tensors: &HashMap<String, Tensor>) -> Result<(), String> {
        let steps = tensors
            .get(STEPS)
            .ok_or(format!("no optimiser state ({STEPS})"))?;
        let steps = match steps.to_vec1::<i64>().as_deref() {
            Ok(&[steps]) if steps >= 0 => steps as u64,
            _ => return Err(format!("{STEPS} is not one non-negative i64")),
        };
        for slot in &mut self.slots {
            let shape = slot.var.as_tensor().dims().to_vec();
            let moment = |name: String| -> Result<Tensor, String> {
                let tensor = tensors
                    .get(&name)
                    .ok_or(format!("no optimiser state {name}"))?;
                if tensor.dims() != shape.as_slice() || tensor.dtype() != DType::F32 {
                    return Err(format!(
                        "optimiser state {name} is {:?} {:?}, the model's tensor is F32 {shape:?}",
                        tensor.dtype(),
                        tensor.dims()
                    ));
                }
                tensor.copy().map_err(candle_error)
            };
            slot.first_moment = moment(first_name(slot.name))?;
            slot.second_moment = moment(second_name(slot.name))?;
        }
        self.steps = steps;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::model::log_loss;
    use csb::bot::value_net::features::FEATURE_COUNT;

    /// A few steps on fixed inputs.
    fn run(model: &Model, optimiser: &mut AdamW, steps: usize) {
        let rows = 8;
        let own: Vec<f32> = (0..rows * FEATURE_COUNT)
            .map(|i| ((i * 37 % 101) as f32 / 50.0) - 1.0)
            .collect();
        let theirs: Vec<f32> = own.iter().rev().copied().collect();
        let own = Tensor::from_vec(own, (rows, FEATURE_COUNT), &Device::Cpu).unwrap();
        let theirs = Tensor::from_vec(theirs, (rows, FEATURE_COUNT), &Device::Cpu).unwrap();
        let targets =
            Tensor::new(&[1.0f32, 0.0, 1.0, 1.0, 0.0, 0.5, 0.0, 1.0], &Device::Cpu).unwrap();
        for _ in 0..steps {
            let loss = log_loss(&model.logits(&own, &theirs).unwrap(), &targets).unwrap();
            optimiser.step(&loss).unwrap();
        }
    }

    fn weights(model: &Model) -> Vec<Vec<f32>> {
        TENSORS
            .iter()
            .map(|(name, _)| {
                let tensor = model.var(name).unwrap().as_tensor().flatten_all().unwrap();
                tensor.to_vec1::<f32>().unwrap()
            })
            .collect()
    }

    #[test]
    fn a_restored_state_continues_as_if_never_stopped() {
        let settings = AdamWSettings::new(0.01);
        let straight = Model::initial(5).unwrap();
        let mut optimiser = AdamW::new(&straight, settings).unwrap();
        run(&straight, &mut optimiser, 6);

        let first = Model::initial(5).unwrap();
        let mut optimiser = AdamW::new(&first, settings).unwrap();
        run(&first, &mut optimiser, 3);
        let (tensors, state) = (first.tensors().unwrap(), optimiser.state().unwrap());
        let resumed = Model::from_tensors(&tensors).unwrap();
        let mut optimiser = AdamW::new(&resumed, settings).unwrap();
        optimiser.restore(&state).unwrap();
        assert_eq!(optimiser.steps(), 3);
        run(&resumed, &mut optimiser, 3);
        assert_eq!(weights(&resumed), weights(&straight));

        // Restarting the moments instead (what a checkpoint of weights alone gives) differs.
        let restarted = Model::from_tensors(&tensors).unwrap();
        let mut optimiser = AdamW::new(&restarted, settings).unwrap();
        run(&restarted, &mut optimiser, 3);
        assert_ne!(weights(&restarted), weights(&straight));
    }

    #[test]
    fn a_state_without_moments_is_refused() {
        let model = Model::initial(1).unwrap();
        let mut optimiser = AdamW::new(&model, AdamWSettings::new(0.01)).unwrap();
        let mut state = optimiser.state().unwrap();
        state.remove(&first_name("hidden.bias"));
        let error = optimiser.restore(&state).unwrap_err();
        assert!(error.contains("adamw.first.hidden.bias"), "{error}");
        assert!(optimiser
            .restore(&HashMap::new())
            .unwrap_err()
            .contains(STEPS));
    }
}
