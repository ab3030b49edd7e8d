//! The value network's shape: the widths of its hidden layers, which the network
//! (`network.rs`), its integer first layer (`quantized.rs`) and its kernels read.

/// Outputs of the first layer (16 until row R8 of docs/strength.md; the kernels take any
/// multiple of 8).
pub const HIDDEN1: usize = 64;
/// Outputs of the second layer.
pub const HIDDEN2: usize = 8;
