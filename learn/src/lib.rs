//! `learn`: the networks' training side (never bundled), as a library that the `learn` binary
//! (`main.rs`, a dispatcher of subcommands) and the tests call. The features are the bot's own
//! (`csb::bot::value_net::features`), so the trainer and the bot cannot disagree.
//!
//! One folder per stage of the data's journey, each listed here from the bottom up; a folder
//! uses only the ones above it in this list, never one below (`tests/layers.rs`):
//!
//! - `common`: what the stages share: the manifests' text format and SHA-256, writing a file
//!   whole, the layers both networks are built of, the minibatches' shuffle, the SVG plots.
//! - `data`: the self-play data, the format both sides share: game files, the run and its
//!   seeds, a directory's manifest, shards and their merge, the split by map.
//! - `selfplay`: csb against itself in-process, recorded game by game into a data directory.
//! - `value`: the value network: data set, targets, model, optimiser, checkpoint, training,
//!   manifest, figures, its network file and the export into the bot's source.
//! - `policy`: the policy network: data set of root visits and values, model, training, its
//!   policy file and the export into the bot's source.
//! - `generation`: the loop: self-play by the best generation, both trainings on a window,
//!   the gate, promotion, each step in the generation's state; the generations table.
//!
//! Each folder that has a subcommand holds its arguments and its output in `command.rs`.

pub mod common;
pub mod data;
pub mod generation;
pub mod policy;
pub mod selfplay;
pub mod value;

/// The paths `tests/reproduce.rs` (kept byte for byte) names the manifests by.
pub use common::manifest;
pub use data::manifest as data_manifest;
