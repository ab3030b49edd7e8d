//! The width of the policy network's hidden layer: read by the network (`network.rs`) and by
//! the context layer of the action layers (`action_inputs.rs`), which adds from that layer to
//! its own, so that neither file imports the other for it.

/// Width of the position's hidden layer: the most a policy may use (a narrower one is read
/// into it with zero units, `widths.rs`).
pub const HIDDEN: usize = 64;

/// The widths of every policy before the layers were widened (the embedded one's): the
/// position's hidden layer and the action layers'. The priors' loops are compiled for them
/// too (`network.rs`), so such a policy costs what it did.
pub const FIRST_HIDDEN: usize = 32;
pub const FIRST_ACTION_HIDDEN: usize = 16;
