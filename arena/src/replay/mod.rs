//! The csb replay file (`arena/REPLAY_FORMAT.md`) and what reads it: the format with its loading
//! and atomic writing (`file`), re-simulating a saved game and checking every recorded state
//! (`verify`), a player's exact stdin rebuilt from it (`inputs`), the HTML page of the viewer
//! crate (`view`), and the commands `arena replay|inputs|view` (`command`). Uses the protocol
//! (output lines, input text); the referee writes replays, the matches, CodinGame import and
//! tuning read their causes and reasons.

pub mod command;
pub mod file;
pub mod inputs;
pub mod verify;
pub mod view;
