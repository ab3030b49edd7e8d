//! Check 3: the bundle compiles alone, as CodinGame compiles it: one file, `rustc --edition
//! 2021 -O` (its arena; its IDE builds without `-O`, `Profile::Debug`), an empty directory, no
//! Cargo and no `--extern`.

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

/// How CodinGame builds the bundle: `Release` in the arena, `Debug` in the IDE (the "Play"
/// button: no optimisation, integer overflow checks and debug assertions on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    Release,
    Debug,
}

impl Profile {
    /// The rustc flags after `--edition 2021` (overflow checks and debug assertions are rustc's
    /// defaults without `-O`; spelled out so that the build says what it checks).
    pub fn flags(self) -> &'static [&'static str] {
        match self {
            Profile::Release => &["-O"],
            Profile::Debug => &["-C", "debug-assertions=on", "-C", "overflow-checks=on"],
        }
    }
}

/// Compiles `text` with `rustc_cmd` (split on whitespace, e.g. `rustc +1.70.0`) as `profile`
/// says, with the compile-time variables `env` set (read by `option_env!`; none for CodinGame's
/// build) and those named in `unset` removed from the environment rustc inherits.
pub fn compile(
    text: &str,
    rustc_cmd: &str,
    profile: Profile,
    env: &[(String, String)],
    unset: &[&str],
) -> Result<Compiled> {
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
    let mut command = Command::new(program);
    for name in unset {
        command.env_remove(name);
    }
    let out = command
        .args(words)
        .args(["--edition", "2021"])
        .args(profile.flags())
        .args(["--crate-name", "main", "-o", "main", "main.rs"])
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
            "the bundle does not compile alone with `{rustc_cmd} --edition 2021 {}`: \
             {first_error}{location} (line numbers are the bundle's)",
            profile.flags().join(" ")
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

/// rustc's analysis of a text without building it (`--emit=metadata`), for the steps of
/// `--prune`: one scratch directory, reused by every check of a step.
pub struct Checker<'a> {
    dir: TempDir,
    rustc_cmd: &'a str,
    env: &'a [(String, String)],
    /// Checks run so far.
    pub runs: usize,
}

/// What rustc said of a text: whether it compiles, and its diagnostics (JSON, one value each).
pub struct Checked {
    pub compiles: bool,
    pub diagnostics: Vec<serde_json::Value>,
}

impl Checked {
    /// The diagnostics of level error.
    pub fn errors(&self) -> impl Iterator<Item = &serde_json::Value> {
        self.diagnostics.iter().filter(|d| d["level"] == "error")
    }
}

impl<'a> Checker<'a> {
    /// A checker running `rustc_cmd` (split on whitespace) with the compile-time variables `env`.
    pub fn new(rustc_cmd: &'a str, env: &'a [(String, String)]) -> Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix("bundler-prune-")
            .tempdir()
            .map_err(|e| input(format!("cannot create a temporary directory: {e}")))?;
        Ok(Checker {
            dir,
            rustc_cmd,
            env,
            runs: 0,
        })
    }

    /// Checks `text` as a binary crate of edition 2021, with debug assertions on or off, with
    /// the lints `warn` as warnings (none: every lint allowed).
    pub fn check(&mut self, text: &str, debug_assertions: bool, warn: &[&str]) -> Result<Checked> {
        self.check_denying(text, debug_assertions, warn, &[])
    }

    /// `check`, with the lints `deny` as errors too (then the others are allowed with
    /// `-A warnings`, not capped).
    pub fn check_denying(
        &mut self,
        text: &str,
        debug_assertions: bool,
        warn: &[&str],
        deny: &[&str],
    ) -> Result<Checked> {
        let source = self.dir.path().join("main.rs");
        std::fs::write(&source, text)
            .map_err(|e| input(format!("cannot write {}: {e}", source.display())))?;
        let mut words = self.rustc_cmd.split_whitespace();
        let program = words.next().ok_or_else(|| input("--rustc is empty"))?;
        let mut command = Command::new(program);
        command
            .args(words)
            .args(["--edition", "2021", "--crate-type", "bin", "--crate-name"])
            .args([
                "main",
                "--emit=metadata",
                "-o",
                "main.rmeta",
                "--error-format=json",
            ])
            .arg("-C")
            .arg(if debug_assertions {
                "debug-assertions=on"
            } else {
                "debug-assertions=off"
            });
        if warn.is_empty() && deny.is_empty() {
            command.args(["--cap-lints", "allow"]);
        } else if warn.is_empty() {
            command.args(["-A", "warnings"]);
        }
        for lint in warn {
            command.args(["-W", lint]);
        }
        for lint in deny {
            command.args(["-D", lint]);
        }
        let out = command
            .arg("main.rs")
            .envs(self.env.iter().map(|(name, value)| (name, value)))
            .current_dir(self.dir.path())
            .output()
            .map_err(|e| input(format!("--prune: cannot run `{program}`: {e}")))?;
        self.runs += 1;
        let diagnostics = String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect();
        Ok(Checked {
            compiles: out.status.success(),
            diagnostics,
        })
    }
}
