//! `arena ladder`: reference players by commit (`ladder/players.toml`), built once each
//! outside the checkout (`build`), played against each other at a named time control in game
//! pairs with results appended to a file (`play`), rows already played by `arena match`
//! imported into it (`import`), rated together by maximum likelihood (`table`), and the
//! lineage's Elo drawn (`plot`). See docs/ladder.md.
//!
//! Uses the matches (game pairs, parallel play, seeds, pair summaries), the statistics (the
//! ratings' fit, pentanomial pairs) and the referee (time limits, the bots' Ctrl-C handling); no
//! other folder uses the ladder.

pub mod build;
pub mod command;
pub mod import;
pub mod play;
pub mod players;
pub mod plot;
pub mod results;
pub mod table;
