//! The game's constants, each named after the rule it mirrors (csb-rules.md §1).

use std::f64::consts::PI;

/// Board size shown by the viewer (pods may leave it) — §1.
pub const MAP_WIDTH: f64 = 16000.0;
pub const MAP_HEIGHT: f64 = 9000.0;
/// Checkpoint radius — §1, §4.7.
pub const CHECKPOINT_RADIUS: f64 = 600.0;
/// Pod radius; two pods touch at centre distance 800 — §1, §4.4.
pub const POD_RADIUS: f64 = 400.0;
/// Centre distance at which two pods touch — §4.4.
pub const TOUCH_DISTANCE: f64 = 2.0 * POD_RADIUS;
/// Pods in a 2-pods-per-player game; pods 0,1 are player 0's, pods 2,3 player 1's — §1.
pub const POD_COUNT: usize = 4;
pub const PODS_PER_PLAYER: usize = 2;
pub const PLAYER_COUNT: usize = 2;
/// Laps of the current game — §5.1.
pub const LAPS: u16 = 3;
/// Maximum rotation per turn: `Math.PI / 10` — §4.2.
pub const MAX_ROTATION: f64 = PI / 10.0;
/// Speed is multiplied by this after moving — §4.6.
pub const FRICTION_FACTOR: f64 = 0.85;
/// Thrust of a first BOOST — §4.1.
pub const BOOST_THRUST: f64 = 650.0;
/// Inverse mass of a pod that issued SHIELD this turn (mass 10), and of any other pod — §4.5.
pub const SHIELD_INVERSE_MASS: f64 = 0.1;
pub const NORMAL_INVERSE_MASS: f64 = 1.0;
/// Turns after the SHIELD turn during which thrust stays 0 — §4.1.
pub const SHIELD_LOCK_TURNS: u8 = 3;
/// Minimum impulse of a bounce — §4.5.
pub const MIN_IMPULSE: f64 = 120.0;
/// Collision grouping window and separation margin — §4.4, §4.5.
pub const COLLISION_EPSILON: f64 = 0.00001;
/// Turns without a checkpoint pass after which a player is eliminated — §5.4.
pub const CHECKPOINT_TIMEOUT_TURNS: u16 = 100;
/// Simulated turns before the ranking decides — §5.5.
pub const MAX_TURNS: u16 = 500;
/// Checkpoints a map may have (the statement allows 2..8; the pool uses 3..6) — §1.
pub const MAX_CHECKPOINTS: usize = 8;
/// Distance between spawn slots: pod radius + 100 — §2.3.
pub const SPAWN_SPACING: f64 = 500.0;
