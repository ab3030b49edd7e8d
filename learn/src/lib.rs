//! learn: the learned evaluation's training side (never bundled). Self-play games (`selfplay`,
//! each written as one file in the format of `game_file`, a run split by `shard`), the data set
//! of features and targets the trainer reads, with the hand evaluation's advantage beside them for
//! its baseline (`dataset`), the network in candle with the export of its weights into the bot's
//! source (`model`), the training (`train`), the log-loss and accuracy of a predictor (`metrics`)
//! and the loss plot (`plot`). The features themselves are the bot's
//! (`csb::bot::value_net::features`), so the trainer and the bot cannot disagree.

pub mod dataset;
pub mod game_file;
pub mod metrics;
pub mod model;
pub mod plot;
pub mod selfplay;
pub mod shard;
pub mod train;
