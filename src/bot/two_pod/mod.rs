//! The bot of Gold and Legend (feature `two-pod`): two pods each, the initialisation block, four
//! pod lines and two commands a turn. `memory.rs` infers from the input what the protocol does
//! not say, `player.rs` sets up the search each turn, `turns.rs` is its turn loop.

pub mod memory;
pub mod player;
pub mod turns;
