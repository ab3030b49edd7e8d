//! The csb replay file (`arena/REPLAY_FORMAT.md`) and what reads it: the format with its loading
//! and atomic writing (`format`), re-simulating a saved game and checking every recorded state
//! (`verify`), a player's exact stdin rebuilt from it (`inputs`), the HTML page of the viewer
//! crate (`view`), and the commands `arena replay|inputs|view` (`command`). Uses the protocol
//! (output lines, input text); the game writes replays, the matches, CodinGame import and tuning
//! read their causes and reasons.

pub mod command;
pub mod format;
pub mod inputs;
pub mod verify;
pub mod view;
