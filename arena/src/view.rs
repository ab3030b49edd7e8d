//! `arena view`: renders a replay as a self-contained HTML page with the `viewer` crate.

use std::fs;
use std::path::Path;

/// Reads `replay`, renders it, and writes the page to `output`.
pub fn view(replay: &Path, output: &Path) -> Result<(), String> {
    let text =
        fs::read_to_string(replay).map_err(|e| format!("cannot read {}: {e}", replay.display()))?;
    crate::replay::Replay::from_json(&text).map_err(|e| format!("{}: {e}", replay.display()))?;
    let html = viewer::render_html(&text)?;
    crate::replay::write_atomically(output, html.as_bytes())
}
