//! A scratch file per thread for the readers that take a path (results files, trajectories,
//! CodinGame recordings): the target writes its input there and hands the path over.

use std::path::PathBuf;

/// Writes `data` to this thread's scratch file named after `target` (with `extension`) and
/// returns its path.
pub fn with_bytes(target: &str, extension: &str, data: &[u8]) -> PathBuf {
    let thread = format!("{:?}", std::thread::current().id());
    let digits: String = thread.chars().filter(char::is_ascii_digit).collect();
    let path = std::env::temp_dir().join(format!(
        "csb-fuzz-{}-{digits}-{target}.{extension}",
        std::process::id()
    ));
    std::fs::write(&path, data).expect("the scratch file can be written");
    path
}
