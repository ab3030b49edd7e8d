//! The loss curves of a training (`loss.csv`): one row per epoch with the training loss, the
//! validation loss and accuracy; written after every epoch by `learn train`, read back for the
//! plots (`learn plot-losses`, the generations table's curves).

use crate::common::files::write_whole;
use std::fmt::Write as _;
use std::path::Path;

/// One epoch's figures (a row of `loss.csv`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochRow {
    pub train_loss: f64,
    pub validation_loss: f64,
    pub validation_accuracy: f64,
}

const CSV_HEADER: &str = "epoch,train_loss,validation_loss,validation_accuracy";

/// Writes the rows of the epochs so far to `path` (`loss.csv`), whole or not at all.
pub fn write_rows(path: &Path, rows: &[EpochRow]) -> Result<(), String> {
    let mut text = format!("{CSV_HEADER}\n");
    for (epoch, row) in rows.iter().enumerate() {
        let _ = writeln!(
            text,
            "{},{:.6},{:.6},{:.6}",
            epoch + 1,
            row.train_loss,
            row.validation_loss,
            row.validation_accuracy
        );
    }
    write_whole(path, text)
}

/// The training and validation curves of a `loss.csv` (as `learn train` writes it).
pub fn curves(path: &Path) -> Result<(Vec<f64>, Vec<f64>), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    let (mut train, mut validation) = (Vec::new(), Vec::new());
    for (index, line) in text.lines().enumerate().skip(1) {
        let fields: Vec<f64> = line.split(',').filter_map(|f| f.parse().ok()).collect();
        if fields.len() != 4 {
            return Err(format!(
                "{} line {}: expected epoch,train,validation,accuracy",
                path.display(),
                index + 1
            ));
        }
        train.push(fields[1]);
        validation.push(fields[2]);
    }
    Ok((train, validation))
}
