//! csb: a Coders Strike Back (Mad Pod Racing) bot.
//!
//! `engine` holds the game rules (bit-exact with CodinGame's referee), `search` a generic
//! Smitsimax, `bot` the CSB decision making built from both, and `protocol` the CodinGame text
//! format. `main.rs` only calls `bot::run::run_stdio`. Cargo features choose what a build holds
//! (Cargo.toml): the binary has them all; a league's bundle only its protocol (`one-pod` or
//! `two-pod`) and in Legend the value network (`net`), without flags (`cli`) or the referee's
//! side of the engine (`referee`).

pub mod bot;
pub mod engine;
pub mod protocol;
pub mod search;
