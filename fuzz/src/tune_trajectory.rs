//! `arena tune`'s trajectory files (a header line, then one JSON record per iteration or
//! shard part), as a resumed run reads them.

use crate::check::one_line;
use crate::temp_file;
use arena::tune::trajectory::{load, parts_of};

pub fn trajectory(input: &[u8]) {
    let Some(file) = temp_file::with_bytes("tune_trajectory", "jsonl", input) else {
        return;
    };
    if let Err(why) = parts_of(file.path(), 0) {
        one_line("trajectory parts", &why);
    }
    if let Err(why) = load(file.path()) {
        one_line("trajectory", &why);
    }
}
