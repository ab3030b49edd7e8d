//! Turns the final syntax tree into readable text: `prettyplease` first (always works), then
//! `rustfmt --edition 2021` over it when rustfmt is available. Without rustfmt, or if it
//! fails, the prettyplease text is used and a warning says so.
//!
//! For `--compact`, which strips the indentation and most spaces afterwards (a line loses about
//! a fifth of its characters), rustfmt lays the code out for lines of [`COMPACT_WIDTH`] columns
//! and fills them (`use_small_heuristics=Max`): fewer line breaks, and the compacted lines still
//! stay within about 120 characters.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The formatted source and, when rustfmt was not used, why.
pub struct Formatted {
    pub text: String,
    pub warning: Option<String>,
}

/// rustfmt's line width for a bundle that `--compact` rewrites afterwards.
pub const COMPACT_WIDTH: usize = 140;

/// Formats `file`; `tabs` indents with tabs; `for_compact` lays it out for `--compact`
/// ([`COMPACT_WIDTH`]); rustfmt runs in `workdir` so that no stray rustfmt.toml of the
/// caller's changes the output.
pub fn format(file: &syn::File, tabs: bool, for_compact: bool, workdir: &Path) -> Formatted {
    let pretty = prettyplease::unparse(file);
    let mut config = format!("newline_style=Unix,hard_tabs={tabs}");
    if for_compact {
        config.push_str(&format!(
            ",max_width={COMPACT_WIDTH},use_small_heuristics=Max"
        ));
    }
    match rustfmt(&pretty, &config, workdir) {
        Ok(text) => Formatted {
            text,
            warning: None,
        },
        Err(why) => Formatted {
            text: pretty,
            warning: Some(format!(
                "rustfmt not applied ({why}); the bundle is formatted by prettyplease only"
            )),
        },
    }
}

fn rustfmt(text: &str, config: &str, workdir: &Path) -> Result<String, String> {
    let mut cmd = Command::new("rustfmt");
    cmd.args(["--edition", "2021", "--config", config])
        .current_dir(workdir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot run rustfmt: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin for rustfmt")?;
    let input = text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child
        .wait_with_output()
        .map_err(|e| format!("rustfmt did not finish: {e}"))?;
    let _ = writer.join();
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let first = err.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        return Err(format!("rustfmt failed: {first}"));
    }
    String::from_utf8(out.stdout).map_err(|_| "rustfmt printed non-UTF-8".to_string())
}
