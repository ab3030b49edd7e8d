//! Turns the final syntax tree into readable text: `prettyplease` first (always works), then
//! `rustfmt --edition 2021` over it when rustfmt is available. Without rustfmt, or if it
//! fails, the prettyplease text is used and a warning says so.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The formatted source and, when rustfmt was not used, why.
pub struct Formatted {
    pub text: String,
    pub warning: Option<String>,
}

/// Formats `file`; `tabs` indents with tabs; rustfmt runs in `workdir` so that no stray
/// rustfmt.toml of the caller's changes the output.
pub fn format(file: &syn::File, tabs: bool, workdir: &Path) -> Formatted {
    let pretty = prettyplease::unparse(file);
    match rustfmt(&pretty, tabs, workdir) {
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

fn rustfmt(text: &str, tabs: bool, workdir: &Path) -> Result<String, String> {
    let mut cmd = Command::new("rustfmt");
    cmd.args(["--edition", "2021", "--config"])
        .arg(format!("newline_style=Unix,hard_tabs={tabs}"))
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
