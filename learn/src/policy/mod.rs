//! The policy network: its file for the bot (`net_file`).

pub mod net_file;
