//! `arena ladder`: reference players by commit (`ladder/players.toml`), built once each
//! outside the checkout (`build`), played against each other at a named time control in game
//! pairs with results appended to a file (`play`), and rated together by maximum likelihood
//! (`table`). See docs/ladder.md.
//!
//! Uses the matches (game pairs, parallel play, seeds, pair summaries), the statistics (the
//! ratings' fit, pentanomial pairs) and the referee (time limits, the bots' Ctrl-C handling); no
//! other folder uses the ladder.

pub mod build;
pub mod command;
pub mod play;
pub mod players;
pub mod results;
pub mod table;
