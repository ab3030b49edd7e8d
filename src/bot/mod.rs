//! CSB decision making: the action set per pod, the evaluation, turn-to-turn memory, the time
//! budget, and the glue that runs the generic search on the engine's fast path.

pub mod actions;
pub mod config;
pub mod course;
pub mod evaluation;
pub mod game;
pub mod league;
pub mod memory;
pub mod nnue;
pub mod one_pod;
pub mod player;
pub mod policy;
pub mod racing;
pub mod run;
