//! CSB decision making: the action set per pod, the evaluation, the time budget, the glue that
//! runs the generic search on the engine's fast path, the shared turn loop and the entry point
//! (`run.rs`); then one folder per protocol: `two_pod/` (Gold and Legend) and `one_pod/` (the
//! leagues below Gold), each built only with its feature, so that a league's bundle holds its
//! own protocol alone.

pub mod actions;
pub mod config;
pub mod evaluation;
#[cfg(feature = "cli")]
pub mod flags;
pub mod game;
pub mod league;
#[cfg(all(feature = "two-pod", any(feature = "experiments", feature = "net")))]
pub mod value_net;
#[cfg(feature = "one-pod")]
pub mod one_pod;
pub mod policy;
pub mod run;
pub mod search_turn;
pub mod turn_loop;
#[cfg(feature = "two-pod")]
pub mod two_pod;

#[cfg(not(any(feature = "one-pod", feature = "two-pod")))]
compile_error!("csb plays no league without feature one-pod or two-pod (or both, the default)");
