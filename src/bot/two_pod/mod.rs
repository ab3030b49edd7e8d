//! The bot of Gold and Legend (feature `two-pod`): two pods each, the initialisation block, four
//! pod lines and two commands a turn. `memory.rs` infers from the input what the protocol does
//! not say, `player.rs` sets up the search (`team_search.rs`; `network_searches.rs` with a
//! network) and runs it each turn, `turns.rs` is its turn loop.

pub mod memory;
#[cfg(feature = "net")]
pub mod network_searches;
pub mod player;
pub mod team_search;
pub mod turns;
