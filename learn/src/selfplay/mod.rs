//! Self-play: csb against itself in-process on the referee's engine, recorded in the data
//! format (`play`), and `learn selfplay`, which plays a run's games into a data directory with
//! its manifest (`command`). It imports `data` and `common`.

pub mod command;
pub mod play;
