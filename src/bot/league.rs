//! The league the bundle is built for (DESIGN.md "CodinGame constraints").
//!
//! `make bundle LEAGUE=gold|legend` rewrites the constant below in `dist/main.rs`; a thrust over
//! the league's cap eliminates the player, so the bot never prints one.

use crate::engine::League;

pub const BUNDLED_LEAGUE: League = League::Legend;
