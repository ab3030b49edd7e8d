//! The value network: its data set of features and targets (`dataset`, `target`, `logits`),
//! the model in candle (`model`), its optimiser (`optimiser`), the training with its settings,
//! checkpoint, curves, manifest and figures (`train`, `config`, `checkpoint`, `loss_csv`,
//! `model_manifest`, `metrics`), its network file for the bot (`net_file`), and the commands
//! (`command`). It imports `data` and `common`.

pub mod checkpoint;
pub mod command;
pub mod config;
pub mod dataset;
pub mod logits;
pub mod loss_csv;
pub mod metrics;
pub mod model;
pub mod model_manifest;
pub mod net_file;
pub mod optimiser;
pub mod target;
pub mod train;
