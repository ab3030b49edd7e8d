//! Self-play: csb against itself in-process on the referee's engine, recorded in the data
//! format (`play`), and `learn selfplay`, which plays a run's games into a data directory with
//! its manifest (`command`), and the visits' own noise, measured with twin searches
//! (`visit_noise`). It imports `data` and `common`.

pub mod command;
pub mod play;
pub mod visit_noise;
