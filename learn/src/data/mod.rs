//! The self-play data, the format both sides share: one text file a game (`game_file`), a run
//! and what its seed decides (`run`: the bots, each game's map and file name; `deep_turns`: the
//! turns searched deeper), a data directory's manifest with every game's SHA-256 and the check
//! that a directory is what it lists (`manifest`), a run split over processes (`shard`) and the
//! shard directories merged back into one (`merge`, `learn merge` in `command`), the split of
//! the games by map into training, validation and test (`split`), a recorded position as the
//! engine's pods (`position`) and a game reflected top to bottom (`mirror`). Written by
//! self-play, read by both trainings. It imports only `common`, and the engine's and arena's
//! seeds.

pub mod command;
pub mod deep_turns;
pub mod game_file;
pub mod manifest;
pub mod merge;
pub mod mirror;
pub mod position;
pub mod run;
pub mod shard;
pub mod split;
