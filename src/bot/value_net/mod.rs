//! The value network: a small dense MLP (not an efficiently updatable network: it computes every
//! input again at each leaf) that scores a position as player 0's win probability. Its input
//! features, its layers, the network and its weights. Std only and allocation-free per
//! evaluation; the weights are a generated source file (`weights.rs`, written by `learn export`)
//! that a test ties to the trained model in `learn/model/`, or a network file read at start-up
//! (`file.rs`, `--net-file`).

pub mod codec;
pub mod course;
pub mod features;
#[cfg(feature = "cli")]
pub mod file;
pub mod layers;
pub mod network;
pub mod paired;
pub mod quantized;
pub mod scaled;
pub mod shape;
pub mod weights;
