//! Generic Smitsimax (decoupled UCT) search for simultaneous-move games.
//!
//! The search knows nothing of Coders Strike Back: a game is anything implementing [`Game`].
//! Each agent grows its own tree over its own actions only; at every ply all agents pick a child
//! independently, the joint move is played, and each agent backpropagates its own evaluation
//! along its own path. Everything is allocated once in [`Smitsimax::new`]; iterations allocate
//! nothing.

mod game;
#[cfg(feature = "cli")]
mod param_names;
mod params;
mod pool;
mod rng;
mod selection;
mod smitsimax;

pub use game::{Game, MAX_AGENTS};
#[cfg(feature = "experiments")]
pub use params::{FinalMove, Selection};
pub use params::{SearchParams, MAX_DEPTH};
pub use pool::{Node, NodeId, NodePool};
pub use rng::Rng;
#[cfg(feature = "experiments")]
pub use smitsimax::KEEP_NOTHING;
pub use smitsimax::{SearchStats, Smitsimax, CHECK_INTERVAL};
