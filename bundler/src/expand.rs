//! The expansion proper, done by `rust_bundler_cp::bundle_specific_binary` on the staged copy.
//!
//! The library reports trouble by panicking (or, for an unparsable lib.rs, by exiting), and
//! formats its output by running `rustfmt` from the working directory. So it runs here with the
//! working directory set to the staged root (whose `rustfmt.toml` says edition 2021), behind
//! `catch_unwind` with a silent panic hook: a panic becomes one error line, not a backtrace.
//! `modtree` and `stage` have already ruled out the panics we know of. Without rustfmt on PATH
//! the library would panic, so on Unix a stand-in `rustfmt` that copies stdin to stdout is put
//! first on PATH for the call (the formatting is redone by `pretty` anyway).

use std::collections::HashMap;
use std::panic;
use std::process::{Command, Stdio};

use crate::error::{input, Result};
use crate::stage::Staged;

/// Expands the staged crate into one source text (library formatting, comments already gone).
pub fn expand(staged: &Staged) -> Result<String> {
    let rustfmt_ok = Command::new("rustfmt")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let _stand_in = if rustfmt_ok {
        None
    } else {
        Some(stand_in_rustfmt()?)
    };

    let previous_dir = std::env::current_dir()
        .map_err(|e| input(format!("cannot read the working directory: {e}")))?;
    std::env::set_current_dir(staged.root())
        .map_err(|e| input(format!("cannot enter {}: {e}", staged.root().display())))?;
    let root = staged.root().to_path_buf();
    let bin = staged.bin_name.clone();

    let previous_hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let outcome = panic::catch_unwind(move || {
        rust_bundler_cp::bundle_specific_binary(root, Some(bin), HashMap::new())
    });
    panic::set_hook(previous_hook);
    std::env::set_current_dir(&previous_dir)
        .map_err(|e| input(format!("cannot return to {}: {e}", previous_dir.display())))?;

    outcome.map_err(|payload| {
        let what = payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown panic".to_string());
        let first = what.lines().next().unwrap_or("").to_string();
        input(format!("rust_bundler_cp failed: {first}"))
    })
}

/// A directory holding a `rustfmt` that only copies its input, put first on PATH; PATH is
/// restored when the returned guard is dropped.
#[cfg(unix)]
fn stand_in_rustfmt() -> Result<StandIn> {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::Builder::new()
        .prefix("bundler-rustfmt-")
        .tempdir()
        .map_err(|e| input(format!("cannot create a temporary directory: {e}")))?;
    let script = dir.path().join("rustfmt");
    std::fs::write(&script, "#!/bin/sh\nexec cat\n")
        .and_then(|_| std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)))
        .map_err(|e| input(format!("cannot write {}: {e}", script.display())))?;
    let old = std::env::var_os("PATH");
    let mut paths = vec![dir.path().to_path_buf()];
    paths.extend(old.iter().flat_map(std::env::split_paths));
    let joined = std::env::join_paths(paths).map_err(|e| input(format!("bad PATH: {e}")))?;
    std::env::set_var("PATH", joined);
    eprintln!("bundler: warning: rustfmt is not on PATH; rust_bundler_cp gets a stand-in");
    Ok(StandIn { _dir: dir, old })
}

#[cfg(not(unix))]
fn stand_in_rustfmt() -> Result<StandIn> {
    Err(input(
        "rustfmt is not on PATH, and rust_bundler_cp needs it (rustup component add rustfmt)",
    ))
}

/// Keeps the stand-in alive and restores PATH on drop.
struct StandIn {
    _dir: tempfile::TempDir,
    old: Option<std::ffi::OsString>,
}

impl Drop for StandIn {
    fn drop(&mut self) {
        match &self.old {
            Some(p) => std::env::set_var("PATH", p),
            None => std::env::remove_var("PATH"),
        }
    }
}
