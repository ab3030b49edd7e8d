//! `arena ladder build`: each commit of the roster is exported once (`git archive`, so the
//! checkout, its index and its worktree list are never touched) into its own directory of a
//! cache outside the checkout, `<cache>/<full hash>/src`, and built there with its own target
//! directory, `<cache>/<full hash>/target`. A second build of the same commit is cargo's no-op.

use super::players::Player;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Where the cache goes: `--cache`, else `$CSB_LADDER_CACHE`, else `~/.cache/csb-ladder`.
pub fn cache_dir(flag: Option<PathBuf>) -> Result<PathBuf, String> {
    if let Some(dir) = flag {
        return Ok(dir);
    }
    if let Some(dir) = std::env::var_os("CSB_LADDER_CACHE") {
        return Ok(PathBuf::from(dir));
    }
    let home = std::env::var_os("HOME").ok_or("HOME is not set; give --cache DIR")?;
    Ok(PathBuf::from(home).join(".cache/csb-ladder"))
}

fn git(repo: &Path, args: &[&str]) -> Result<String, String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "git {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// The binary of a player given by `path`.
fn built_path(player: &Player) -> Result<PathBuf, String> {
    let path = player
        .path
        .clone()
        .expect("a player has a commit or a path");
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "player {}: no binary at {}",
            player.name,
            path.display()
        ))
    }
}

/// Builds every player's binary (each commit once) and returns name → binary path.
pub fn build_players(
    repo: &Path,
    cache: &Path,
    players: &[&Player],
) -> Result<BTreeMap<String, PathBuf>, String> {
    if players.iter().all(|p| p.commit.is_none()) {
        return players
            .iter()
            .map(|p| Ok((p.name.clone(), built_path(p)?)))
            .collect();
    }
    let top = PathBuf::from(git(repo, &["rev-parse", "--show-toplevel"])?);
    std::fs::create_dir_all(cache)
        .map_err(|e| format!("cannot create the cache {}: {e}", cache.display()))?;
    let cache = cache
        .canonicalize()
        .map_err(|e| format!("cache {}: {e}", cache.display()))?;
    if cache.starts_with(&top) {
        return Err(format!(
            "the cache {} is inside the checkout {}; give --cache outside it",
            cache.display(),
            top.display()
        ));
    }
    // Full hash → the players built from it.
    let mut by_commit: BTreeMap<String, Vec<&Player>> = BTreeMap::new();
    let mut binaries = BTreeMap::new();
    for player in players {
        let Some(commit) = &player.commit else {
            binaries.insert(player.name.clone(), built_path(player)?);
            continue;
        };
        let hash = git(
            &top,
            &["rev-parse", "--verify", &format!("{commit}^{{commit}}")],
        )
        .map_err(|e| format!("player {}: unknown commit {commit:?} ({e})", player.name))?;
        by_commit.entry(hash).or_default().push(player);
    }
    for (hash, players) in by_commit {
        let root = cache.join(&hash);
        let source = root.join("src");
        if !source.join("Cargo.toml").exists() {
            export(&top, &hash, &root, &source)?;
        }
        let target = root.join("target");
        let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        cargo
            .current_dir(&source)
            .args(["build", "--release", "--locked"])
            .arg("--target-dir")
            .arg(&target)
            .stdin(Stdio::null())
            .stdout(Stdio::null());
        let mut packages: Vec<&str> = players.iter().map(|p| p.package()).collect();
        packages.sort();
        packages.dedup();
        for package in packages {
            cargo.args(["-p", package]);
        }
        eprintln!("arena ladder: building {hash} in {}", source.display());
        let status = cargo
            .status()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        if !status.success() {
            return Err(format!("building commit {hash} failed ({status})"));
        }
        for player in players {
            let binary = target.join("release").join(&player.bot);
            if !binary.exists() {
                return Err(format!(
                    "player {}: commit {hash} has no binary {}",
                    player.name, player.bot
                ));
            }
            binaries.insert(player.name.clone(), binary);
        }
    }
    Ok(binaries)
}

/// Exports commit `hash` into `source` via a temporary directory, so that a half-written
/// export never looks complete.
fn export(top: &Path, hash: &str, root: &Path, source: &Path) -> Result<(), String> {
    let partial = root.join("src.partial");
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir_all(&partial)
        .map_err(|e| format!("cannot create {}: {e}", partial.display()))?;
    let mut archive = Command::new("git")
        .arg("-C")
        .arg(top)
        .args(["archive", "--format=tar", hash])
        .stdout(Stdio::piped())
        .stdin(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run git archive: {e}"))?;
    let unpack = Command::new("tar")
        .arg("-x")
        .arg("-C")
        .arg(&partial)
        .stdin(archive.stdout.take().ok_or("git archive gave no output")?)
        .status()
        .map_err(|e| format!("cannot run tar: {e}"))?;
    let archived = archive
        .wait()
        .map_err(|e| format!("git archive did not finish: {e}"))?;
    if !archived.success() || !unpack.success() {
        return Err(format!("unpacking commit {hash} failed ({unpack})"));
    }
    std::fs::rename(&partial, source)
        .map_err(|e| format!("cannot move {} into place: {e}", partial.display()))
}
