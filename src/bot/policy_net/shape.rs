//! The width of the policy network's hidden layer: read by the network (`network.rs`) and by
//! the context layer of the action layers (`action_inputs.rs`), which adds from that layer to
//! its own, so that neither file imports the other for it.

/// Width of the position's hidden layer: the most a policy may use (a narrower one is read
/// into it with zero units, `widths.rs`).
pub const HIDDEN: usize = 64;
