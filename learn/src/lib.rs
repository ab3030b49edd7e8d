//! learn: the learned evaluation's training side (never bundled). Self-play data (`selfplay`,
//! written in the format of `format`), the data set of features and targets the trainer reads
//! (`dataset`), the training with candle (`train`), the hand evaluation's baseline
//! (`baseline`), the loss plot (`plot`) and the export of the weights into the bot's source
//! (`export`). The features themselves are the bot's (`csb::bot::value_net::features`), so the
//! trainer and the bot cannot disagree.

pub mod checkpoint;
pub mod data_manifest;
pub mod dataset;
pub mod format;
pub mod manifest;
pub mod metrics;
pub mod model;
pub mod optimiser;
pub mod plot;
pub mod selfplay;
pub mod shard;
pub mod signature;
pub mod train;
