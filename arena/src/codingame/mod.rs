//! CodinGame's recordings, checked against our engine: the common shape every form is read into
//! (`recording`), reading the three forms (`read`: viewer frames, `gameResult` JSON, fixture
//! text), the laps a recording was raced over (`laps`), the bit-for-bit re-simulation with its
//! report and conversion to a csb replay (`import`), and the command `arena import-cg`
//! (`command`). Inside, `recording` is below `laps`, `laps` below `read`, `read` below
//! `import`. Uses the protocol (output lines) and the replay format and checks; nothing else
//! uses it.

pub mod command;
pub mod import;
pub mod laps;
pub mod read;
pub mod recording;
