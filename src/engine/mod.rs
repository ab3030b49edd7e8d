//! The rules of Coders Strike Back, exactly as CodinGame's referee applies them
//! (`../shared/csb-rules.md`), plus the cheaper turn the search runs. Knows nothing of search or
//! bots; shared with the arena's referee.
//!
//! Modules and items only the referee needs (the exact turn, races, map generation, the input a
//! bot is sent, the tools' seed mixer `splitmix64`) are behind feature `referee` (on by
//! default), so the bundle leaves them out.

pub mod command;
pub mod fast;
#[cfg(feature = "referee")]
pub mod java_random;
pub mod league;
pub mod map;
pub mod observe;
#[cfg(feature = "referee")]
pub mod physics;
pub mod pod;
#[cfg(feature = "referee")]
pub mod race;
pub mod rounding;
pub mod rules;
#[cfg(feature = "referee")]
pub mod splitmix64;
#[cfg(feature = "referee")]
pub mod trig;
pub mod vec2;

pub use command::{Command, Thrust};
pub use fast::{fast_turn, FastAction, FastPod, Steering};
pub use league::League;
pub use map::{Map, MapError};
#[cfg(feature = "referee")]
pub use observe::shown_angle_deg;
#[cfg(feature = "referee")]
pub use observe::turn_input;
pub use observe::PodObservation;
#[cfg(feature = "referee")]
pub use physics::{play_turn, Collision, CollisionSink};
pub use pod::Pod;
#[cfg(feature = "referee")]
pub use race::{EndReason, Outcome, Race};
pub use vec2::Vec2;
