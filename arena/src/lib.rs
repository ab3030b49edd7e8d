//! `arena`: the local referee and match runner for csb, as a library that the `arena` binary
//! (`main.rs`, a dispatcher of subcommands) and other tools (a fuzzer, a self-play command) call.
//!
//! One folder per concern, each listed here from the bottom up; a folder uses only the ones
//! above it in this list, never one below:
//!
//! - `cli`: how a command fails and prints, and the parsers of argument values (a leaf).
//! - `stats`: W/D/L with Wilson's interval, Elo, pentanomial pairs, SPRT, the ladder's ratings.
//! - `protocol`: the text referee and bots exchange (input text, output lines).
//! - `replay`: the replay format, its re-simulation check, a player's inputs, the HTML view.
//! - `referee`: one game: the turn loop, bot processes, per-turn stderr, process groups.
//! - `matches`: many games: runner, pairs, results, parallel play, seeds, response times.
//! - `codingame`: CodinGame recordings read, their laps inferred, checked bit for bit.
//! - `ladder`: reference players built by commit, played in pairs, rated together.
//! - `tune`: SPSA over a bot's flags, one match per iteration, resumable trajectory.
//!
//! Each folder that has a subcommand holds its arguments and its output in `command.rs`.

pub mod cli;
pub mod codingame;
pub mod ladder;
pub mod matches;
pub mod protocol;
pub mod referee;
pub mod replay;
pub mod stats;
pub mod tune;
