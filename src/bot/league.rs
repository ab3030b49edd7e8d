//! The league the bundle is built for (docs/leagues.md; the thrust cap and the actions follow it).
//!
//! `make bundle LEAGUE=wood3|wood2|wood1|bronze|silver|gold|legend` rewrites the constant below
//! (the one its protocol's feature keeps) in `dist/main.rs`: the league sets the protocol (one
//! pod below Gold), the actions and the thrust cap (docs/leagues.md); an action the league lacks
//! eliminates the player, so the bot never prints one.

use crate::engine::League;

#[cfg(feature = "two-pod")]
pub const BUNDLED_LEAGUE: League = League::Legend;
/// A build of the one-pod leagues alone plays the highest of them unless told otherwise.
#[cfg(not(feature = "two-pod"))]
pub const BUNDLED_LEAGUE: League = League::Silver;
