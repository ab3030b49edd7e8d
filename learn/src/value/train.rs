//! Training the value network with candle, reproducibly: seeded initial weights, minibatch
//! AdamW (`optimiser.rs`) on the log-loss of predicting the winner, one checkpoint per epoch
//! with the optimiser's state (`checkpoint.rs`; the loss curve so far in `loss.csv` and
//! `loss.svg`), resumed from there when run again with the same data and settings, early
//! stopping on the validation split. Then the figures: test log-loss and accuracy of the
//! network (as trained, and quantised as the bot embeds it) beside the hand evaluation's,
//! squashed by a logistic fitted on the training positions.

use crate::common::layers::candle_error;
use crate::common::manifest::Manifest;
use crate::common::plot::plot_losses;
use crate::common::shuffle::shuffled;
use crate::value::checkpoint::{self, Checkpoint};
use crate::value::config::TrainConfig;
use crate::value::dataset::{DataSet, Samples};
use crate::value::loss_csv::{write_rows, EpochRow};
use crate::value::metrics::{predict, Prediction};
use crate::value::model::{log_loss, Model};
use crate::value::model_manifest;
use crate::value::optimiser::{AdamW, AdamWSettings};
use candle_core::{Device, Tensor, Var};
use candle_nn::{Optimizer, ParamsAdamW};
use csb::bot::value_net::features::FEATURE_COUNT;
use csb::engine::referee::splitmix64::splitmix64;
use std::fmt::Write as _;
use std::path::Path;

/// The model file training writes in its directory (the best epoch's), with its manifest
/// beside it.
pub const MODEL_FILE: &str = "model.safetensors";
/// The checkpoint file (the latest epoch's, with the optimiser's state).
pub const CHECKPOINT_FILE: &str = "checkpoint.safetensors";

/// The figures training ends with: the best epoch's model on the test split.
#[derive(Clone, Debug)]
pub struct TrainReport {
    pub rows: Vec<EpochRow>,
    /// The epoch (1-based) of the model kept: the lowest validation loss.
    pub best_epoch: usize,
    pub network: Prediction,
    pub quantised: Prediction,
    /// Largest |logit| difference between candle's network and the quantised one, test split.
    pub quantised_max_logit_error: f64,
    pub hand: Prediction,
    /// The fitted logistic of the hand evaluation: `σ(slope × advantage / 10,000 + intercept)`.
    pub hand_slope: f64,
    pub hand_intercept: f64,
    pub train_positions: usize,
    pub validation_positions: usize,
    pub test_positions: usize,
}

impl TrainReport {
    /// The summary `make train` prints.
    pub fn summary(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(
            text,
            "positions: {} training, {} validation, {} test (split by map)",
            self.train_positions, self.validation_positions, self.test_positions
        );
        let best = self.rows[self.best_epoch - 1];
        let _ = writeln!(
            text,
            "model: epoch {} of {} (validation log-loss {:.4}, accuracy {:.2}%)",
            self.best_epoch,
            self.rows.len(),
            best.validation_loss,
            100.0 * best.validation_accuracy
        );
        let _ = writeln!(text, "test                   log-loss  accuracy");
        for (name, figures) in [
            ("network (candle)", self.network),
            ("network (quantised)", self.quantised),
            ("hand evaluation", self.hand),
        ] {
            let _ = writeln!(
                text,
                "{name:<22} {:.4}    {:.2}%",
                figures.log_loss,
                100.0 * figures.accuracy
            );
        }
        let _ = writeln!(
            text,
            "hand logistic: σ({:.4} × advantage / 10000 + {:.4}); quantised logits within {:.4} of candle's",
            self.hand_slope, self.hand_intercept, self.quantised_max_logit_error
        );
        text
    }
}

/// One epoch of minibatches over `samples` in a shuffled order; the mean training loss.
fn run_epoch(
    model: &Model,
    optimiser: &mut AdamW,
    samples: &Samples,
    config: &TrainConfig,
    epoch: usize,
    bar: &indicatif::ProgressBar,
) -> Result<f64, String> {
    let order = shuffled(samples.len(), splitmix64(config.seed ^ epoch as u64));
    let mut own = Vec::with_capacity(config.batch * FEATURE_COUNT);
    let mut theirs = Vec::with_capacity(config.batch * FEATURE_COUNT);
    let mut targets = Vec::with_capacity(config.batch);
    let (mut total, mut batches) = (0.0, 0usize);
    for chunk in order.chunks(config.batch) {
        own.clear();
        theirs.clear();
        targets.clear();
        for &row in chunk {
            own.extend_from_slice(&samples.own[row * FEATURE_COUNT..(row + 1) * FEATURE_COUNT]);
            theirs
                .extend_from_slice(&samples.theirs[row * FEATURE_COUNT..(row + 1) * FEATURE_COUNT]);
            targets.push(samples.targets[row]);
        }
        let rows = chunk.len();
        let mut step = || -> candle_core::Result<f64> {
            let own = Tensor::from_slice(&own, (rows, FEATURE_COUNT), &Device::Cpu)?;
            let theirs = Tensor::from_slice(&theirs, (rows, FEATURE_COUNT), &Device::Cpu)?;
            let targets = Tensor::from_slice(&targets, rows, &Device::Cpu)?;
            let loss = log_loss(&model.logits(&own, &theirs)?, &targets)?;
            optimiser.step(&loss)?;
            Ok(f64::from(loss.to_scalar::<f32>()?))
        };
        total += step().map_err(candle_error)?;
        batches += 1;
        bar.inc(1);
    }
    Ok(total / batches.max(1) as f64)
}

/// Fits `σ(slope × advantage / 10,000 + intercept)` to the training positions (candle's AdamW,
/// full batch); returns `(slope, intercept)`.
pub fn fit_hand_logistic(samples: &Samples) -> Result<(f64, f64), String> {
    let fit = || -> candle_core::Result<(f64, f64)> {
        let scaled: Vec<f32> = samples.hand.iter().map(|a| a / 10_000.0).collect();
        let advantage = Tensor::from_slice(&scaled, samples.len(), &Device::Cpu)?;
        let targets = Tensor::from_slice(&samples.results, samples.len(), &Device::Cpu)?;
        let slope = Var::new(1.0f32, &Device::Cpu)?;
        let intercept = Var::new(0.0f32, &Device::Cpu)?;
        let mut optimiser = candle_nn::AdamW::new(
            vec![slope.clone(), intercept.clone()],
            ParamsAdamW {
                lr: 0.05,
                weight_decay: 0.0,
                ..ParamsAdamW::default()
            },
        )?;
        for _ in 0..400 {
            let logits = advantage
                .broadcast_mul(slope.as_tensor())?
                .broadcast_add(intercept.as_tensor())?;
            optimiser.backward_step(&log_loss(&logits, &targets)?)?;
        }
        Ok((
            f64::from(slope.as_tensor().to_scalar::<f32>()?),
            f64::from(intercept.as_tensor().to_scalar::<f32>()?),
        ))
    };
    fit().map_err(candle_error)
}

/// The hand evaluation's logits under the fitted logistic.
fn hand_logits(samples: &Samples, slope: f64, intercept: f64) -> Vec<f32> {
    samples
        .hand
        .iter()
        .map(|&a| (slope * f64::from(a) / 10_000.0 + intercept) as f32)
        .collect()
}

/// The quantised network's logits (the bot's own forward pass).
fn quantised_logits(model: &Model, samples: &Samples) -> Result<Vec<f32>, String> {
    Ok(crate::value::logits::network_logits(
        &model.quantised()?,
        samples,
    ))
}

/// A network file's figures on `data`'s test split beside the hand evaluation's, the latter's
/// logistic fitted on the training split as [`train`] fits it: `(network, hand)`. With it a
/// network is measured on games it was not trained on (another generation's), by the bot's
/// own forward pass.
pub fn evaluate_file(data: &DataSet, network: &Path) -> Result<(Prediction, Prediction), String> {
    let (slope, intercept) = fit_hand_logistic(&data.train)?;
    let test = &data.test;
    let logits = crate::value::logits::file_logits(network, test)?;
    Ok((
        predict(&logits, &test.results),
        predict(&hand_logits(test, slope, intercept), &test.results),
    ))
}

/// Early stopping: the epoch (1-based) with the lowest validation loss, the first of equals.
fn best_epoch(rows: &[EpochRow]) -> usize {
    let mut best = 0;
    for (index, row) in rows.iter().enumerate() {
        if row.validation_loss < rows[best].validation_loss {
            best = index;
        }
    }
    best + 1
}

/// What `config.out` already holds, checked against this run (`manifest`): the checkpoint to
/// resume from, if any. Errors, before anything is written: a model or checkpoint there without
/// a manifest, or whose manifest names other data or settings, or a checkpoint further on than
/// `config.epochs`.
fn resume_point(config: &TrainConfig, manifest: &Manifest) -> Result<Option<Checkpoint>, String> {
    let checkpoint_path = config.out.join(CHECKPOINT_FILE);
    let best_path = config.out.join(MODEL_FILE);
    match model_manifest::read(&best_path)? {
        Some(existing) => model_manifest::check_same_training(
            &existing,
            manifest,
            &model_manifest::manifest_path(&best_path),
        )?,
        None => {
            if let Some(found) = [&best_path, &checkpoint_path]
                .into_iter()
                .find(|p| p.exists())
            {
                return Err(format!(
                    "{} has no manifest ({}): it cannot be told apart from a model of other data; \
                     train into another --out, or remove it to start over",
                    found.display(),
                    model_manifest::manifest_path(&best_path).display()
                ));
            }
        }
    }
    if !checkpoint_path.exists() {
        return Ok(None);
    }
    let checkpoint = checkpoint::load(&checkpoint_path)?;
    if checkpoint.rows.len() > config.epochs {
        return Err(format!(
            "{} is at epoch {}: --epochs must be at least that (a run may grow, not shrink)",
            checkpoint_path.display(),
            checkpoint.rows.len()
        ));
    }
    Ok(Some(checkpoint))
}

/// Trains on `data` as `config` says, resuming from `config.out` if an earlier run of the same
/// data and settings left a checkpoint there. The initial weights come from `config.init`'s
/// network file ([`Model::from_network_file`]) or else from `config.seed` ([`Model::initial`]),
/// the minibatches' order from the seed and the epoch, and the checkpoint holds the optimiser's
/// state: the same data, settings, seed and init file give the same weights bit for bit,
/// whether the run was interrupted or not. Writes `checkpoint.safetensors`
/// (the latest epoch), `loss.csv` and `loss.svg` after every epoch, and `model.safetensors`
/// with `model.manifest` when an epoch has the lowest validation loss so far (early stopping:
/// the model reported and exported); the figures reported are the test split's.
pub fn train(data: &DataSet, config: &TrainConfig) -> Result<TrainReport, String> {
    if config.epochs == 0 || config.batch == 0 {
        return Err("--epochs and --batch must be at least 1".to_string());
    }
    let manifest = model_manifest::describe(data, config);
    let resumed = resume_point(config, &manifest)?;
    // Read before anything is written: a bad --init file refuses the run in one line. A
    // resumed run starts from its checkpoint (whose manifest names the same init file).
    let warm_start = match (&resumed, &config.init) {
        (None, Some(path)) => Some(Model::from_network_file(path)?),
        _ => None,
    };
    let (hand_slope, hand_intercept) = fit_hand_logistic(&data.train)?;
    let mut train_set = data.train.clone();
    let network_values = crate::value::logits::network_values(config, &train_set)?;
    train_set.bootstrap(
        config.result_weight,
        hand_slope,
        hand_intercept,
        config.target,
        network_values.as_deref(),
    )?;
    std::fs::create_dir_all(&config.out)
        .map_err(|error| format!("cannot create {}: {error}", config.out.display()))?;
    let checkpoint_path = config.out.join(CHECKPOINT_FILE);
    let best_path = config.out.join(MODEL_FILE);
    let best_manifest_path = model_manifest::manifest_path(&best_path);
    let csv_path = config.out.join("loss.csv");
    let settings = AdamWSettings::new(config.learning_rate);
    let (model, mut optimiser, mut rows) = match resumed {
        Some(checkpoint) => {
            let model = Model::from_tensors(&checkpoint.tensors)?;
            let mut optimiser = AdamW::new(&model, settings)?;
            optimiser
                .restore(&checkpoint.tensors)
                .map_err(|error| format!("{}: {error}", checkpoint_path.display()))?;
            (model, optimiser, checkpoint.rows)
        }
        None => {
            let model = match warm_start {
                Some(model) => model,
                None => Model::initial(config.seed)?,
            };
            let optimiser = AdamW::new(&model, settings)?;
            (model, optimiser, Vec::new())
        }
    };
    if config.progress {
        eprintln!(
            "train: {} games on {} maps (data-sha256 {}), {} training, {} validation and {} \
             test positions",
            data.games,
            data.maps.iter().sum::<usize>(),
            data.manifest.data_sha256(),
            data.train.len(),
            data.validation.len(),
            data.test.len()
        );
    }
    if !rows.is_empty() && config.progress {
        eprintln!(
            "train: resuming after epoch {} from {}",
            rows.len(),
            checkpoint_path.display()
        );
    }
    let batches = data.train.len().div_ceil(config.batch);
    let remaining = config.epochs.saturating_sub(rows.len());
    let bar = if config.progress {
        let bar = indicatif::ProgressBar::new((remaining * batches) as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "train {msg} [{elapsed_precise} < {eta_precise}] {wide_bar} {pos}/{len} batches",
            )
            .expect("a valid template"),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    for epoch in rows.len()..config.epochs {
        bar.set_message(format!("epoch {}/{}", epoch + 1, config.epochs));
        let train_loss = run_epoch(&model, &mut optimiser, &train_set, config, epoch, &bar)?;
        let validation = predict(
            &model.logits_of(&data.validation.own, &data.validation.theirs)?,
            &data.validation.results,
        );
        rows.push(EpochRow {
            train_loss,
            validation_loss: validation.log_loss,
            validation_accuracy: validation.accuracy,
        });
        if best_epoch(&rows) == rows.len() {
            // The manifest first: a model file never lies there without its manifest.
            model_manifest::with_epoch(&manifest, rows.len(), validation.log_loss)
                .write(&best_manifest_path)?;
            model.save(&best_path)?;
        }
        checkpoint::save(&checkpoint_path, &model, &optimiser, &rows)?;
        write_rows(&csv_path, &rows)?;
        let train_curve: Vec<f64> = rows.iter().map(|r| r.train_loss).collect();
        let validation_curve: Vec<f64> = rows.iter().map(|r| r.validation_loss).collect();
        plot_losses(
            &config.out.join("loss.svg"),
            &train_curve,
            &validation_curve,
        )?;
        bar.suspend(|| {
            eprintln!(
                "epoch {}: train loss {train_loss:.4}, validation loss {:.4}, accuracy {:.2}%",
                epoch + 1,
                validation.log_loss,
                100.0 * validation.accuracy
            )
        });
    }
    bar.finish_and_clear();
    // The figures are the best epoch's model (early stopping) on the test split: maps that
    // neither the training nor the choice of the epoch saw.
    let best = best_epoch(&rows);
    let model = Model::load(&best_path)?;
    let test = &data.test;
    let logits = model.logits_of(&test.own, &test.theirs)?;
    let network = predict(&logits, &test.results);
    let quantised_logits = quantised_logits(&model, test)?;
    let quantised = predict(&quantised_logits, &test.results);
    let quantised_max_logit_error = logits
        .iter()
        .zip(&quantised_logits)
        .map(|(a, b)| f64::from((a - b).abs()))
        .fold(0.0, f64::max);
    let hand = predict(
        &hand_logits(test, hand_slope, hand_intercept),
        &test.results,
    );
    let described = model_manifest::with_epoch(&manifest, best, rows[best - 1].validation_loss);
    model_manifest::with_test_figures(&described, network, quantised, hand)
        .write(&best_manifest_path)?;
    Ok(TrainReport {
        best_epoch: best,
        rows,
        network,
        quantised,
        quantised_max_logit_error,
        hand,
        hand_slope,
        hand_intercept,
        train_positions: data.train.len(),
        validation_positions: data.validation.len(),
        test_positions: data.test.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_epoch_is_the_first_lowest_validation_loss() {
        let row = |validation_loss| EpochRow {
            train_loss: 0.7,
            validation_loss,
            validation_accuracy: 0.6,
        };
        assert_eq!(best_epoch(&[row(0.7), row(0.6), row(0.6), row(0.65)]), 2);
        assert_eq!(best_epoch(&[row(0.7)]), 1);
    }
}
