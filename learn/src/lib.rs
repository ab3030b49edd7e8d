//! learn: the learned evaluation's training side (never bundled). Self-play data (`selfplay`,
//! one file a game in the format of `game_file`, a run split by `shard`, each directory with its
//! manifest, `data_manifest`, with the players' decision signatures, `csb::bot::signature`; shard
//! directories of one run merged by `merge`), the data set of features and targets the trainer
//! reads, split by map (`dataset`), what the targets learn (`target`), the reproducible training
//! with candle (`train`: the seeded model of `model`, the optimiser of `optimiser`, the
//! checkpoint of `checkpoint`, each model's manifest of `model_manifest`, in the text format of
//! `manifest`), the figures (`metrics`), the plots (`plot`), the export of the weights into the
//! bot's source (`model`) or into a network file the bot reads at start-up (`net_file`), and the
//! self-play generations (`generation`) with their table (`generations_table`). The features
//! themselves are the bot's (`csb::bot::value_net::features`), so the trainer and the bot cannot
//! disagree.

pub mod common;
pub mod data;
pub mod generation;
pub mod policy;
pub mod selfplay;
pub mod value;

/// The path `tests/reproduce.rs` (kept byte for byte) names the manifest format by.
pub use common::manifest;
/// The path `tests/reproduce.rs` names a data directory's manifest by.
pub use data::manifest as data_manifest;
