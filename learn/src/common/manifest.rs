//! The text format of the pipeline's manifests (a self-play directory's, `data/manifest.rs`; a
//! model's, `value/model_manifest.rs`; a generation's state, `generation/state.rs`): a first
//! line naming the kind and its version, then one `key: value` per line, in order (keys may
//! repeat; a value runs to the end of its line, trimmed). Written whole or not at all (a temporary file, then renamed); parsing is a pure
//! function whose errors name the line. Also the SHA-256 the manifests identify files by.

use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::path::Path;

/// A manifest's kind line and entries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    pub kind: String,
    pub entries: Vec<(String, String)>,
}

impl Manifest {
    pub fn new(kind: &str) -> Manifest {
        Manifest {
            kind: kind.to_string(),
            entries: Vec::new(),
        }
    }

    /// Appends `key: value` (`value` on one line).
    pub fn push(&mut self, key: &str, value: impl ToString) {
        let value = value.to_string();
        debug_assert!(!value.contains('\n') && !key.contains(':'));
        self.entries.push((key.to_string(), value));
    }

    /// The first value of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value.as_str())
    }

    /// The first value of `key`, or an error naming the manifest (`what`) and the key.
    pub fn require(&self, key: &str, what: &str) -> Result<&str, String> {
        self.get(key)
            .ok_or_else(|| format!("{what} has no `{key}:` line"))
    }

    /// Every value of `key`, in order.
    pub fn all<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.entries
            .iter()
            .filter(move |(name, _)| name == key)
            .map(|(_, value)| value.as_str())
    }

    pub fn text(&self) -> String {
        let mut text = format!("{}\n", self.kind);
        for (key, value) in &self.entries {
            if value.is_empty() {
                let _ = writeln!(text, "{key}:");
            } else {
                let _ = writeln!(text, "{key}: {value}");
            }
        }
        text
    }

    /// Reads a manifest of kind `kind` from `text`; errors say `line N: ...`.
    pub fn parse(text: &str, kind: &str) -> Result<Manifest, String> {
        let mut lines = text.lines();
        let first = lines.next().unwrap_or("").trim_end();
        if first != kind {
            return Err(format!(
                "line 1: expected {kind:?}, got {:?}",
                first.chars().take(40).collect::<String>()
            ));
        }
        let mut manifest = Manifest::new(kind);
        for (index, line) in lines.enumerate() {
            let (key, value) = line
                .split_once(':')
                .filter(|(key, _)| !key.is_empty() && !key.contains(char::is_whitespace))
                .ok_or_else(|| {
                    format!(
                        "line {}: expected `key: value`, got {:?}",
                        index + 2,
                        line.chars().take(40).collect::<String>()
                    )
                })?;
            manifest.push(key, value.trim());
        }
        Ok(manifest)
    }

    /// The manifest in `path`, `None` when there is no such file; an error (one line, naming
    /// the file) when it cannot be read or parsed.
    pub fn read(path: &Path, kind: &str) -> Result<Option<Manifest>, String> {
        match std::fs::read_to_string(path) {
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(format!("cannot read {}: {error}", path.display())),
            Ok(text) => Manifest::parse(&text, kind)
                .map(Some)
                .map_err(|error| format!("{}: {error}", path.display())),
        }
    }

    /// Writes to `path` whole or not at all (a temporary file named for this process, so
    /// processes writing the same manifest do not collide, then renamed).
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let temporary = path.with_extension(format!("tmp-{}", std::process::id()));
        std::fs::write(&temporary, self.text())
            .and_then(|_| std::fs::rename(&temporary, path))
            .map_err(|error| format!("cannot write {}: {error}", path.display()))
    }
}

/// Lowercase hex SHA-256 of `bytes` (what `sha256sum` prints).
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_round_trips_and_bad_lines_are_named() {
        let mut manifest = Manifest::new("test-manifest 1");
        manifest.push("seed", 7);
        manifest.push("flags", "");
        manifest.push("game", "a b");
        manifest.push("game", "c: d");
        let parsed = Manifest::parse(&manifest.text(), "test-manifest 1").unwrap();
        assert_eq!(parsed, manifest);
        assert_eq!(parsed.get("flags"), Some(""));
        assert_eq!(parsed.all("game").collect::<Vec<_>>(), ["a b", "c: d"]);
        assert!(parsed
            .require("nothing", "M")
            .unwrap_err()
            .contains("`nothing:`"));
        let error = Manifest::parse("test-manifest 1\nseed 7\n", "test-manifest 1").unwrap_err();
        assert!(
            error.starts_with("line 2: expected `key: value`"),
            "{error}"
        );
        let error = Manifest::parse("other 1\n", "test-manifest 1").unwrap_err();
        assert!(error.starts_with("line 1:"), "{error}");
    }

    #[test]
    fn sha256_is_the_standard_one() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
