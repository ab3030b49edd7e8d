//! Training the value network with candle: minibatch AdamW on the log-loss of predicting the
//! winner, one checkpoint per epoch (`model.safetensors`, with the loss curve so far in
//! `loss.csv` and `loss.png`), resumed from there when run again. Then the figures: validation
//! log-loss and accuracy of the network (as trained, and quantised as the bot embeds it) beside
//! the hand evaluation's, squashed by a logistic fitted on the training positions.

use crate::dataset::{DataSet, Samples};
use crate::metrics::{predict, Prediction};
use crate::model::{log_loss, Model};
use crate::plot::plot_losses;
use candle_core::{Device, Tensor, Var};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use csb::bot::value_net::features::FEATURE_COUNT;
use csb::engine::splitmix64::splitmix64;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What to train and where.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Directory of checkpoints and curves.
    pub out: PathBuf,
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f64,
    /// Seed of the shuffling.
    pub seed: u64,
    /// Weight of the game's result in the training target, the rest going to the hand
    /// evaluation's view [`crate::dataset::LOOKAHEAD_TURNS`] turns later (1: the result alone).
    pub result_weight: f32,
    /// Show a progress bar.
    pub progress: bool,
}

/// One epoch's figures (a row of `loss.csv`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochRow {
    pub train_loss: f64,
    pub validation_loss: f64,
    pub validation_accuracy: f64,
}

/// The figures training ends with.
#[derive(Clone, Debug)]
pub struct TrainReport {
    pub rows: Vec<EpochRow>,
    pub network: Prediction,
    pub quantised: Prediction,
    /// Largest |logit| difference between candle's network and the quantised one, validation.
    pub quantised_max_logit_error: f64,
    pub hand: Prediction,
    /// The fitted logistic of the hand evaluation: `σ(slope × advantage / 10,000 + intercept)`.
    pub hand_slope: f64,
    pub hand_intercept: f64,
    pub train_positions: usize,
    pub validation_positions: usize,
}

impl TrainReport {
    /// The summary `make train` prints.
    pub fn summary(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(
            text,
            "positions: {} training, {} validation (held-out games)",
            self.train_positions, self.validation_positions
        );
        let _ = writeln!(text, "validation             log-loss  accuracy");
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

fn candle_error(error: candle_core::Error) -> String {
    error.to_string().lines().next().unwrap_or("").to_string()
}

const CSV_HEADER: &str = "epoch,train_loss,validation_loss,validation_accuracy";

/// The rows of an earlier run's `loss.csv`; an error names a malformed line.
fn read_rows(path: &Path) -> Result<Vec<EpochRow>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    let mut rows = Vec::new();
    for (number, line) in text.lines().enumerate().skip(1) {
        let fields: Vec<f64> = line.split(',').filter_map(|f| f.parse().ok()).collect();
        if fields.len() != 4 || fields[0] as usize != rows.len() + 1 {
            return Err(format!(
                "{} line {}: expected `epoch,train_loss,validation_loss,validation_accuracy` for \
                 epoch {}, got {line:?}",
                path.display(),
                number + 1,
                rows.len() + 1
            ));
        }
        rows.push(EpochRow {
            train_loss: fields[1],
            validation_loss: fields[2],
            validation_accuracy: fields[3],
        });
    }
    Ok(rows)
}

fn write_rows(path: &Path, rows: &[EpochRow]) -> Result<(), String> {
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
    let temporary = path.with_extension("tmp");
    std::fs::write(&temporary, text)
        .and_then(|_| std::fs::rename(&temporary, path))
        .map_err(|error| format!("cannot write {}: {error}", path.display()))
}

/// A seeded shuffle of `0..n` (Fisher–Yates on splitmix64).
fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut state = seed;
    for index in (1..n).rev() {
        state = splitmix64(state);
        let other = (state % (index as u64 + 1)) as usize;
        order.swap(index, other);
    }
    order
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
            optimiser.backward_step(&loss)?;
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
        let mut optimiser = AdamW::new(
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
    let network = model.quantised()?;
    let mut own = [0.0; FEATURE_COUNT];
    let mut theirs = [0.0; FEATURE_COUNT];
    Ok((0..samples.len())
        .map(|row| {
            own.copy_from_slice(&samples.own[row * FEATURE_COUNT..(row + 1) * FEATURE_COUNT]);
            theirs.copy_from_slice(&samples.theirs[row * FEATURE_COUNT..(row + 1) * FEATURE_COUNT]);
            network.side_logit(&own) - network.side_logit(&theirs)
        })
        .collect())
}

/// Trains on `data` as `config` says, resuming from `config.out` if an earlier run left a
/// checkpoint there. Writes `checkpoint.safetensors` (the latest epoch), `loss.csv` and
/// `loss.png` after every epoch, and `model.safetensors` when an epoch has the lowest
/// validation loss so far (early stopping: that is the model reported and exported).
pub fn train(data: &DataSet, config: &TrainConfig) -> Result<TrainReport, String> {
    let (hand_slope, hand_intercept) = fit_hand_logistic(&data.train)?;
    let mut train_set = data.train.clone();
    train_set.bootstrap(config.result_weight, hand_slope, hand_intercept);
    std::fs::create_dir_all(&config.out)
        .map_err(|error| format!("cannot create {}: {error}", config.out.display()))?;
    let checkpoint_path = config.out.join("checkpoint.safetensors");
    let best_path = config.out.join("model.safetensors");
    let csv_path = config.out.join("loss.csv");
    let (model, mut rows) = if checkpoint_path.exists() && csv_path.exists() {
        (Model::load(&checkpoint_path)?, read_rows(&csv_path)?)
    } else {
        (Model::new()?, Vec::new())
    };
    if !rows.is_empty() && config.progress {
        eprintln!(
            "train: resuming after epoch {} from {}",
            rows.len(),
            checkpoint_path.display()
        );
    }
    let mut optimiser = AdamW::new(
        model.vars.all_vars(),
        ParamsAdamW {
            lr: config.learning_rate,
            weight_decay: 1e-2,
            ..ParamsAdamW::default()
        },
    )
    .map_err(candle_error)?;
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
        let best = rows
            .iter()
            .all(|row| row.validation_loss >= validation.log_loss);
        if best {
            model.save(&best_path)?;
        }
        model.save(&checkpoint_path)?;
        write_rows(&csv_path, &rows)?;
        let train_curve: Vec<f64> = rows.iter().map(|r| r.train_loss).collect();
        let validation_curve: Vec<f64> = rows.iter().map(|r| r.validation_loss).collect();
        plot_losses(
            &config.out.join("loss.png"),
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
    // The figures are the best epoch's (early stopping): the model `learn export` takes.
    let model = Model::load(&best_path)?;
    let logits = model.logits_of(&data.validation.own, &data.validation.theirs)?;
    let network = predict(&logits, &data.validation.results);
    let quantised_logits = quantised_logits(&model, &data.validation)?;
    let quantised = predict(&quantised_logits, &data.validation.results);
    let quantised_max_logit_error = logits
        .iter()
        .zip(&quantised_logits)
        .map(|(a, b)| f64::from((a - b).abs()))
        .fold(0.0, f64::max);
    let hand = predict(
        &hand_logits(&data.validation, hand_slope, hand_intercept),
        &data.validation.results,
    );
    Ok(TrainReport {
        rows,
        network,
        quantised,
        quantised_max_logit_error,
        hand,
        hand_slope,
        hand_intercept,
        train_positions: data.train.len(),
        validation_positions: data.validation.len(),
    })
}
