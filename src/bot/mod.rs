//! CSB decision making: the action set per pod, the evaluation and the seam the search scores
//! leaves through, the glue that runs the generic search on the engine's fast path, the time
//! budget, the shared turn loop and the entry point (`run.rs`); then one folder per protocol:
//! `two_pod/` (Gold and Legend) and `one_pod/` (the leagues below Gold), each built only with its
//! feature, so that a league's bundle holds its own protocol alone, and the value network
//! (`value_net/`, feature `net`).

pub mod actions;
#[cfg(feature = "cli")]
pub mod candidates;
pub mod config;
pub mod csb_game;
pub mod evaluation;
#[cfg(feature = "cli")]
pub mod flags;
pub mod leaf_evaluation;
pub mod league;
#[cfg(feature = "one-pod")]
pub mod one_pod;
pub mod policy;
#[cfg(feature = "net")]
pub mod policy_net;
pub mod run;
pub mod search_turn;
#[cfg(all(feature = "referee", feature = "two-pod"))]
pub mod signature;
pub mod timeout_clocks;
pub mod turn_loop;
#[cfg(feature = "two-pod")]
pub mod two_pod;
#[cfg(feature = "net")]
pub mod value_net;

#[cfg(not(any(feature = "one-pod", feature = "two-pod")))]
compile_error!("csb plays no league without feature one-pod or two-pod (or both, the default)");
