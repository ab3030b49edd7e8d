//! csb: a Coders Strike Back (Mad Pod Racing) bot.
//!
//! `engine` holds the game rules (bit-exact with CodinGame's referee), `search` a generic
//! Smitsimax, `bot` the CSB decision making built from both, and `protocol` the CodinGame text
//! format. `main.rs` is a thin turn loop over `bot` and `protocol`.

pub mod bot;
pub mod engine;
pub mod protocol;
pub mod search;
