//! `arena view`: renders a replay as a self-contained HTML page with the `viewer` crate. The
//! page never replaces the replay it was made from.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// Whether two paths name one existing file (same device and inode: links and `./` spellings
/// included).
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Reads `replay`, renders it, and writes the page to `output`.
pub fn view(replay: &Path, output: &Path) -> Result<(), String> {
    if same_file(replay, output) {
        return Err(format!(
            "the output {} is the replay itself; give the page another name (e.g. -o race.html)",
            output.display()
        ));
    }
    let text =
        fs::read_to_string(replay).map_err(|e| format!("cannot read {}: {e}", replay.display()))?;
    crate::replay::file::Replay::from_json(&text)
        .map_err(|e| format!("{}: {e}", replay.display()))?;
    let html = viewer::render_html(&text).map_err(|e| format!("{}: {e}", replay.display()))?;
    crate::replay::file::write_atomically(output, html.as_bytes())
}
