//! The rules of Coders Strike Back, exactly as CodinGame's referee applies them
//! (`../shared/csb-rules.md`), plus the cheaper turn the search runs. Knows nothing of search or
//! bots; shared with the arena's referee.
//!
//! Modules and items only the referee needs (the exact turn, races, map generation, the input a
//! bot is sent) are behind feature `referee` (on by default), so the bundle leaves them out:
//! the modules in `referee/`, re-exported here under their old paths.

pub mod command;
pub mod fast;
pub mod league;
pub mod map;
pub mod observe;
pub mod pod;
pub mod rounding;
pub mod rules;
pub mod vec2;

pub use command::{Command, Thrust};
pub use fast::{fast_turn, FastAction, FastPod, Steering};
pub use league::League;
pub use map::{Map, MapError};
pub use observe::PodObservation;
pub use pod::Pod;
pub use vec2::Vec2;

#[cfg(feature = "referee")]
pub mod referee;
#[cfg(feature = "referee")]
pub use {
    referee::bot_input::{shown_angle_deg, turn_input},
    referee::map_setup::MAP_TEMPLATES,
    referee::physics::{play_turn, Collision, CollisionSink},
    referee::race::{EndReason, Outcome, Race},
    referee::{java_random, physics, race, trig},
};
