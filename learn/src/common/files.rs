//! Writing a file whole or not at all: the bytes go to a temporary file beside it (`X.tmp`),
//! which is then renamed over `X`, so an interrupted write never leaves half a file. Every
//! stage's outputs (game files, curves, plots, network files, tables) are written this way.

use std::path::Path;

/// Writes `bytes` to `path` whole or not at all; the error is one line naming `path`.
pub fn write_whole(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), String> {
    let temporary = path.with_extension("tmp");
    std::fs::write(&temporary, bytes)
        .and_then(|_| std::fs::rename(&temporary, path))
        .map_err(|error| format!("cannot write {}: {error}", path.display()))
}

/// The bytes of `path`; the error is one line naming it.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|error| format!("cannot read {}: {error}", path.display()))
}

/// Creates the folder `dir` and its parents (nothing when it exists); the error is one line.
pub fn create_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir)
        .map_err(|error| format!("cannot create {}: {error}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_written_whole_and_read_back() {
        let dir = std::env::temp_dir().join(format!("learn-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.txt");
        write_whole(&path, "text").unwrap();
        assert_eq!(read_bytes(&path).unwrap(), b"text");
        assert!(!dir.join("a.tmp").exists());
        let error = read_bytes(&dir.join("missing")).unwrap_err();
        assert!(
            error.starts_with("cannot read ") && !error.contains('\n'),
            "{error}"
        );
        assert!(write_whole(&dir.join("no/such/dir.txt"), "x")
            .unwrap_err()
            .starts_with("cannot write "));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
