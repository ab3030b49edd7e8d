//! The referee: one game between two bot processes. Its turn loop (`game_loop`), each bot as a
//! child process in its own process group with its timed output lines (`bot_process`), the
//! stderr a bot printed during one turn (`turn_stderr`), and the registry of process groups that
//! makes sure no bot outlives the arena, with the Ctrl-C handler (`children`). Uses the protocol
//! (input text, output lines) and the replay format it writes; the matches, ladder and tuning
//! play their games through it.

pub mod bot_process;
pub mod children;
pub mod game_loop;
pub mod turn_stderr;
