//! The manifest beside each model (`X.safetensors` → `X.manifest`): the data the model was
//! trained on (directory, the data's hash from its own manifest, games, maps and positions per
//! split, the self-play run: seed, iterations, each bot's flags and decision signature), the
//! training settings with the command that repeats the training, the epoch the model is from,
//! and once training ended its test figures beside the hand evaluation's.
//!
//! `learn train` resumes in a directory only when its model's manifest names the same data and
//! settings (the epoch count may grow), and `learn export` keeps the manifest beside the kept
//! model.

use crate::common::manifest::{sha256_hex, Manifest};
use crate::value::config::TrainConfig;
use crate::value::dataset::DataSet;
use crate::value::metrics::Prediction;
use std::path::{Path, PathBuf};

const KIND: &str = "csb-model-manifest 1";

/// What must agree for a run to resume on an earlier one's checkpoint.
const SAME_TRAINING: [&str; 8] = [
    "data-sha256",
    "batch",
    "learning-rate",
    "seed",
    "result-weight",
    "target",
    "td-network-sha256",
    "init-sha256",
];

/// The manifest's path beside the model `model`.
pub fn manifest_path(model: &Path) -> PathBuf {
    model.with_extension("manifest")
}

/// The manifest of training `config` on `data` (no epoch or figures yet).
pub fn describe(data: &DataSet, config: &TrainConfig) -> Manifest {
    let mut manifest = Manifest::new(KIND);
    let run = &data.manifest.run;
    manifest.push("data", config.data.display());
    for (dir, hash) in &data.window {
        manifest.push("window-data", format!("{} {hash}", dir.display()));
    }
    manifest.push("data-sha256", data.data_sha256());
    manifest.push("games", data.games);
    manifest.push(
        "maps",
        format!(
            "{} training, {} validation, {} test",
            data.maps[0], data.maps[1], data.maps[2]
        ),
    );
    manifest.push(
        "positions",
        format!(
            "{} training, {} validation, {} test",
            data.train.len(),
            data.validation.len(),
            data.test.len()
        ),
    );
    manifest.push("selfplay-seed", run.seed);
    manifest.push("selfplay-iterations", run.iterations);
    manifest.push("selfplay-nodes", run.nodes);
    manifest.push("bot-flags", &run.bots[0].flags);
    manifest.push("bot-signature", &run.bots[0].signature);
    manifest.push("opponent-flags", &run.bots[1].flags);
    manifest.push("opponent-signature", &run.bots[1].signature);
    manifest.push("epochs", config.epochs);
    manifest.push("batch", config.batch);
    manifest.push("learning-rate", config.learning_rate);
    manifest.push("seed", config.seed);
    manifest.push("result-weight", config.result_weight);
    manifest.push("target", config.target);
    if let Some(path) = &config.td_network {
        let hash = std::fs::read(path).map_or("unreadable".to_string(), |bytes| sha256_hex(&bytes));
        manifest.push("td-network", path.display());
        manifest.push("td-network-sha256", hash);
    }
    if let Some(path) = &config.init {
        let hash = std::fs::read(path).map_or("unreadable".to_string(), |bytes| sha256_hex(&bytes));
        manifest.push("init", path.display());
        manifest.push("init-sha256", hash);
    }
    manifest.push("command", config.command());
    manifest
}

/// `manifest` with the epoch the model is from.
pub fn with_epoch(manifest: &Manifest, epoch: usize, validation_loss: f64) -> Manifest {
    let mut manifest = manifest.clone();
    manifest.push(
        "epoch",
        format!("{epoch} (the lowest validation log-loss, {validation_loss:.6})"),
    );
    manifest
}

/// `manifest` with the test split's figures.
pub fn with_test_figures(
    manifest: &Manifest,
    network: Prediction,
    quantised: Prediction,
    hand: Prediction,
) -> Manifest {
    let mut manifest = manifest.clone();
    for (key, figures) in [
        ("test-network", network),
        ("test-quantised", quantised),
        ("test-hand", hand),
    ] {
        manifest.push(
            key,
            format!(
                "log-loss {:.4} accuracy {:.2}%",
                figures.log_loss,
                100.0 * figures.accuracy
            ),
        );
    }
    manifest
}

/// The manifest beside `model`, `None` when there is none.
pub fn read(model: &Path) -> Result<Option<Manifest>, String> {
    Manifest::read(&manifest_path(model), KIND)
}

/// Checks that a run described by `new` may resume on the model whose manifest is `existing`
/// (in `path`): same data and settings. The error names the first difference.
pub fn check_same_training(existing: &Manifest, new: &Manifest, path: &Path) -> Result<(), String> {
    for key in SAME_TRAINING {
        let (theirs, mine) = (existing.get(key), new.get(key));
        if theirs != mine {
            let what = if key == "data-sha256" {
                format!(
                    "other data ({} games in {}, data-sha256 {})",
                    existing.get("games").unwrap_or("?"),
                    existing.get("data").unwrap_or("?"),
                    theirs.unwrap_or("missing")
                )
            } else {
                format!("other settings ({key} {})", theirs.unwrap_or("missing"))
            };
            return Err(format!(
                "{} names {what}, not this run's ({key} {}): train into another --out, or remove \
                 that directory to start over",
                path.display(),
                mine.unwrap_or("missing")
            ));
        }
    }
    Ok(())
}
