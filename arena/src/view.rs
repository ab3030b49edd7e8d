//! `arena view`: renders a replay as a self-contained HTML page with the `viewer` crate.

use std::fs;
use std::path::Path;

// TODO(merge): the `viewer` crate in this branch is still a placeholder without
// `render_html`. At merge, delete this stub and call `viewer::render_html` directly.
fn render_html(replay_json: &str) -> Result<String, String> {
    let _ = replay_json;
    Err(
        "the HTML viewer is not part of this build yet (viewer::render_html is missing)"
            .to_string(),
    )
}

/// Reads `replay`, renders it, and writes the page to `output`.
pub fn view(replay: &Path, output: &Path) -> Result<(), String> {
    let text =
        fs::read_to_string(replay).map_err(|e| format!("cannot read {}: {e}", replay.display()))?;
    crate::replay::Replay::from_json(&text).map_err(|e| format!("{}: {e}", replay.display()))?;
    let html = render_html(&text)?;
    crate::replay::write_atomically(output, html.as_bytes())
}
