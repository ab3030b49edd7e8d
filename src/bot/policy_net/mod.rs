//! The policy network (feature `net`: the binary and the Legend bundle play the embedded one
//! under PUCT by default, docs/strength.md row R1; `--policy-net FILE` another): from one team's
//! view of a position (the value network's inputs, `value_net/features.rs`), a distribution over
//! each own pod's root actions (runner and blocker) and a value per pod, each from its own side's
//! view. Its shape and forward pass (`network.rs`), the optional inputs per action and the
//! layers that read them (`action_inputs.rs`), its hidden layer's width (`shape.rs`), how a
//! narrower policy sits in its layers (`widths.rs`), its file (`file.rs`, written by `learn
//! export-policy`), the network the source holds (`embedded.rs`, `weights.rs`) and the
//! evaluation wrapper that hands its priors and rollout moves to the search (`guided.rs`). Std
//! only, nothing allocated per evaluation.

pub mod action_inputs;
pub mod embedded;
pub mod file;
pub mod guided;
pub mod network;
pub mod shape;
pub mod weights;
pub mod widths;
