//! The learned evaluation (DESIGN.md "Learned evaluation"): the input features, the layers, the
//! network and its weights. Std only and allocation-free per evaluation; the weights are a
//! generated source file (`weights.rs`, written by `learn export`) that a test ties to the
//! trained model in `learn/model/`.

pub mod codec;
pub mod features;
pub mod layers;
pub mod network;
pub mod weights;
