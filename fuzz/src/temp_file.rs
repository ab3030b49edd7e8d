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

/// Writes `data` to this thread's scratch file named after `target` (with `extension`).
pub fn with_bytes(target: &str, extension: &str, data: &[u8]) -> ScratchFile {
    let thread = format!("{:?}", std::thread::current().id());
    let digits: String = thread.chars().filter(char::is_ascii_digit).collect();
    let path = std::env::temp_dir().join(format!(
        "csb-fuzz-{}-{digits}-{target}.{extension}",
        std::process::id()
    ));
    std::fs::write(&path, data).expect("the scratch file can be written");
    ScratchFile(path)
}
