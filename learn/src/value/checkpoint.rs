//! The training checkpoint (`checkpoint.safetensors`), written whole after every epoch: the
//! model's tensors, the optimiser's state (`optimiser.rs`) and every epoch's figures so far, at
//! full precision. A run resumed from it takes the same steps as one that never stopped, and
//! chooses the same early-stopping epoch (`loss.csv` is an output drawn from these figures,
//! never read back).

use crate::common::layers::{candle_error, save_whole};
use crate::value::loss_csv::EpochRow;
use crate::value::model::Model;
use crate::value::optimiser::AdamW;
use candle_core::{Device, Tensor};
use std::collections::HashMap;
use std::path::Path;

/// The name the epochs' figures are saved under: `[epochs, 3]` f64 (training loss, validation
/// loss, validation accuracy).
const EPOCHS: &str = "train.epochs";

/// What a checkpoint holds: the model's and the optimiser's tensors, and the epochs' figures.
pub struct Checkpoint {
    pub tensors: HashMap<String, Tensor>,
    pub rows: Vec<EpochRow>,
}

/// Writes the checkpoint to `path` whole or not at all.
pub fn save(
    path: &Path,
    model: &Model,
    optimiser: &AdamW,
    rows: &[EpochRow],
) -> Result<(), String> {
    let mut tensors = model.tensors()?;
    tensors.extend(optimiser.state()?);
    let figures: Vec<f64> = rows
        .iter()
        .flat_map(|row| [row.train_loss, row.validation_loss, row.validation_accuracy])
        .collect();
    let figures = Tensor::from_vec(figures, (rows.len(), 3), &Device::Cpu).map_err(candle_error)?;
    tensors.insert(EPOCHS.to_string(), figures);
    save_whole(path, |temporary| {
        candle_core::safetensors::save(&tensors, temporary)
    })
}

/// The checkpoint in `path`; an error (one line) for a file that is not one (a model alone, a
/// checkpoint of an older trainer without the optimiser's state is refused by
/// [`AdamW::restore`]).
pub fn load(path: &Path) -> Result<Checkpoint, String> {
    let tensors = Model::read_tensors(path)?;
    let figures = tensors
        .get(EPOCHS)
        .ok_or_else(|| {
            format!(
                "{}: no {EPOCHS} (not a checkpoint of this trainer)",
                path.display()
            )
        })?
        .to_vec2::<f64>()
        .map_err(|error| format!("{}: {EPOCHS}: {}", path.display(), candle_error(error)))?;
    let rows = figures
        .iter()
        .map(|row| match row[..] {
            [train_loss, validation_loss, validation_accuracy] => Ok(EpochRow {
                train_loss,
                validation_loss,
                validation_accuracy,
            }),
            _ => Err(format!(
                "{}: {EPOCHS} rows are not 3 figures",
                path.display()
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Checkpoint { tensors, rows })
}
