//! The policy network: its data set of root visits and values (`data`), the model in candle
//! with its loss (`model`), the training (`train`), its temperature fitted to its parent's
//! sharpness (`temper`), its file for the bot (`net_file`), and the commands (`command`). It imports `data` and `common`, never `value`: the two networks are
//! trained side by side on the same data.

pub mod command;
pub mod data;
#[cfg(test)]
mod mirror_tests;
pub mod model;
pub mod net_file;
pub mod temper;
pub mod train;
