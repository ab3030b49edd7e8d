//! The text the referee and a bot exchange (csb-rules.md §3): the input a player is sent at the
//! start and each turn (`input_text`), and the validation of one line a bot prints
//! (`output_line`: target, thrust or BOOST/SHIELD, message). Uses only the `csb` engine; the
//! referee, the replay checks and the CodinGame import use it, and a fuzzer can call
//! `output_line::parse_output_line` on any bytes.

pub mod input_text;
pub mod output_line;
