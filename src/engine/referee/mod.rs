//! The referee's side of the engine (feature `referee`, on by default; the bundle leaves it
//! out): the exact turn, whole races, the map drawn from a seed and the pods' start positions,
//! Java's random numbers and atan2, and the tools' seed mixer (`splitmix64`). The arena, the
//! tests and the benchmarks use it; the bot does not.

pub mod bot_input;
pub mod java_random;
pub mod map_setup;
pub mod physics;
pub mod race;
pub mod splitmix64;
pub mod trig;
