//! CodinGame recordings as `arena import-cg` reads them: the file parsed (any of its forms),
//! its laps inferred, the game re-simulated and compared turn by turn, a replay built.

use crate::check::one_line;
use crate::temp_file;
use arena::codingame::import::import_file;

pub fn recording(input: &[u8]) {
    let Some(file) = temp_file::with_bytes("cg_recording", "json", input) else {
        return;
    };
    if let Err(why) = import_file(file.path(), None, None, None) {
        one_line("import-cg", &why);
    }
}
