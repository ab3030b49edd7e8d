//! The rules of Coders Strike Back, exactly as CodinGame's referee applies them
//! (`../shared/csb-rules.md`), plus the cheaper turn the search runs. Knows nothing of search or
//! bots; shared with the arena's referee.

pub mod command;
pub mod fast;
pub mod java_random;
pub mod league;
pub mod map;
pub mod observe;
pub mod physics;
pub mod pod;
pub mod race;
pub mod rounding;
pub mod rules;
pub mod trig;
pub mod vec2;

pub use command::{Command, Thrust};
pub use fast::{fast_turn, FastAction, FastPod, Steering};
pub use league::League;
pub use map::{Map, MapError};
pub use observe::{shown_angle_deg, turn_input, PodObservation};
pub use physics::{play_turn, Collision, CollisionSink};
pub use pod::Pod;
pub use race::{EndReason, Outcome, Race};
pub use vec2::Vec2;
