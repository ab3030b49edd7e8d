//! Generic Smitsimax (decoupled UCT) search for simultaneous-move games.
//!
//! The search knows nothing of Coders Strike Back: a game is anything implementing [`Game`],
//! and how a node chooses a child is a [`Selection`] type ([`Ucb1`] by default). Each agent grows
//! its own tree over its own actions only; at every ply all agents pick a child independently,
//! the joint move is played, and each agent backpropagates its own evaluation along its own path.
//! Everything is allocated once in [`Smitsimax::new`]; iterations allocate nothing. The tunables
//! are one table (`params.rs`, written with `tunable.rs`).

mod game;
mod params;
#[cfg(feature = "cli")]
pub mod parse;
mod pool;
// The prior-guided selection, played with the policy network (feature `net`).
#[cfg(feature = "net")]
pub mod puct;
mod rng;
mod selection;
mod smitsimax;
mod tunable;

pub use game::{Game, MAX_AGENTS};
pub use params::{SearchParams, MAX_DEPTH};
pub use pool::{Node, NodeId, NodePool};
pub use rng::Rng;
pub use selection::{ScoreScale, Selection, Ucb1};
pub use smitsimax::{SearchStats, Smitsimax, CHECK_INTERVAL};
pub(crate) use tunable::tunables;
