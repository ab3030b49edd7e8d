//! Check 3: the bundle compiles alone, as CodinGame compiles it: one file, `rustc --edition
//! 2021 -O`, an empty directory, no Cargo and no `--extern`.

use std::path::PathBuf;
use std::process::Command;

use tempfile::TempDir;

use crate::error::{check, input, Result};

/// The compiled bundle; the binary lives as long as this value.
pub struct Compiled {
    _dir: TempDir,
    pub binary: PathBuf,
    pub warnings: usize,
}

/// Compiles `text` with `rustc_cmd` (split on whitespace, e.g. `rustc +1.70.0`), with the
/// compile-time variables `env` set (read by `option_env!`; none for CodinGame's build).
pub fn compile(text: &str, rustc_cmd: &str, env: &[(String, String)]) -> Result<Compiled> {
    let mut words = rustc_cmd.split_whitespace();
    let program = words.next().ok_or_else(|| input("--rustc is empty"))?;
    let dir = tempfile::Builder::new()
        .prefix("bundler-compile-")
        .tempdir()
        .map_err(|e| input(format!("cannot create a temporary directory: {e}")))?;
    let source = dir.path().join("main.rs");
    std::fs::write(&source, text)
        .map_err(|e| input(format!("cannot write {}: {e}", source.display())))?;
    let binary = dir
        .path()
        .join(if cfg!(windows) { "main.exe" } else { "main" });
    let out = Command::new(program)
        .args(words)
        .args([
            "--edition",
            "2021",
            "-O",
            "--crate-name",
            "main",
            "-o",
            "main",
            "main.rs",
        ])
        .envs(env.iter().map(|(name, value)| (name, value)))
        .current_dir(dir.path())
        .output()
        .map_err(|e| input(format!("cannot run `{program}`: {e}")))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() || !binary.is_file() {
        eprint!("{stderr}");
        let first_error = stderr
            .lines()
            .find(|l| l.starts_with("error"))
            .unwrap_or("no error message");
        let location = stderr
            .lines()
            .find_map(|l| l.trim_start().strip_prefix("--> "))
            .map(|l| format!(" at {l}"))
            .unwrap_or_default();
        return Err(check(format!(
            "the bundle does not compile alone with `{rustc_cmd} --edition 2021 -O`: \
             {first_error}{location} (line numbers are the bundle's)"
        )));
    }
    let warnings = stderr
        .lines()
        .filter(|l| l.starts_with("warning") && !l.contains("emitted"))
        .count();
    Ok(Compiled {
        _dir: dir,
        binary,
        warnings,
    })
}
