//! A scratch file per thread for the readers that take a path (results files, trajectories,
//! CodinGame recordings): the target writes its input there, hands the path over, and the file
//! is removed when the handle is dropped.

use std::path::{Path, PathBuf};

/// A scratch file holding one input; removed on drop.
pub struct ScratchFile(PathBuf);

impl ScratchFile {
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Writes `data` to this thread's scratch file named after `target` (with `extension`); `None`,
/// with a line on stderr, when the machine cannot write it (a full disk): that is no fault of
/// the reader under test, so the target skips the input instead of reporting a crash. (A run
/// of tune_trajectory on a shared machine saved such a "crash", an empty input that never
/// failed again, while other jobs filled the disk.)
pub fn with_bytes(target: &str, extension: &str, data: &[u8]) -> Option<ScratchFile> {
    let thread = format!("{:?}", std::thread::current().id());
    let digits: String = thread.chars().filter(char::is_ascii_digit).collect();
    let path = std::env::temp_dir().join(format!(
        "csb-fuzz-{}-{digits}-{target}.{extension}",
        std::process::id()
    ));
    match std::fs::write(&path, data) {
        Ok(()) => Some(ScratchFile(path)),
        Err(why) => {
            eprintln!(
                "fuzz: cannot write the scratch file {}: {why}",
                path.display()
            );
            None
        }
    }
}
