//! The bot of the leagues below Gold (feature `one-pod`, docs/leagues.md): one pod each, two
//! input lines and one command a turn, no initialisation block. It learns the course during the
//! first lap (`course.rs`), races with a simple policy until then (`racing.rs`), and searches
//! from then on with the search of the two-pod leagues (`player.rs`); `turns.rs` is its turn loop.

pub mod course;
pub mod player;
pub mod racing;
pub mod turns;
