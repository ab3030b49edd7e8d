//! The manifest of a self-play data directory (`DIR/manifest.txt`, written by `learn
//! selfplay`): the run that plays its games (seed, game count, iterations a turn, tree size,
//! each bot's flags and decision signature, `csb::bot::signature`) and every finished game file with
//! its SHA-256.
//!
//! `learn selfplay` refuses to add games to a directory of another run (other settings, or a
//! bot whose decisions differ), and lists the games at the end of each invocation (a game
//! already listed must still have its hash). `learn train` reads a directory only when its game
//! files are exactly the manifest's, all the run's games are there, and each is unchanged; it
//! names the data by one hash, [`DataManifest::data_sha256`]: the SHA-256 of the listing as
//! `sha256sum game-*.csbsp` prints it, so `cd DIR && sha256sum game-*.csbsp | sha256sum` gives
//! the same hash.
//!
//! ```text
//! csb-selfplay-manifest 1
//! seed: 1
//! games: 1600
//! iterations: 400
//! nodes: 50000
//! bot-flags: --eval net
//! bot-signature: 86ac1024795536f2
//! opponent-flags:
//! opponent-signature: 5d2e...
//! game: game-000000.csbsp <sha256>
//! ...
//! ```

use crate::common::files::read_bytes;
use crate::common::manifest::{sha256_hex, Manifest};
use crate::data::deep_turns::DeepTurns;
use crate::data::game_file::{parse_game, GameRecord};
use crate::data::run::{game_file_name, Run, RunBot};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The manifest's file name in a data directory.
pub const MANIFEST_FILE: &str = "manifest.txt";
const KIND: &str = "csb-selfplay-manifest 1";

/// A directory's manifest: the run and its listed games (file name → SHA-256).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataManifest {
    pub run: Run,
    pub files: BTreeMap<String, String>,
}

impl DataManifest {
    /// The manifest's entries.
    fn entries(&self) -> Manifest {
        let mut manifest = Manifest::new(KIND);
        let settings = self.run.settings();
        manifest.push("seed", &settings[0].1);
        manifest.push("games", self.run.games);
        for (key, value) in &settings[1..] {
            manifest.push(key, value);
        }
        if let Some(deep) = self.run.deep {
            manifest.push("deep-turns", deep.manifest_value());
        }
        for (name, hash) in &self.files {
            manifest.push("game", format!("{name} {hash}"));
        }
        manifest
    }

    /// The manifest's text.
    pub fn text(&self) -> String {
        self.entries().text()
    }

    /// Reads a manifest's text; errors name the line or the missing key.
    pub fn parse(text: &str) -> Result<DataManifest, String> {
        let manifest = Manifest::parse(text, KIND)?;
        let field = |key: &str| manifest.require(key, "the manifest");
        let number = |key: &str| -> Result<u64, String> {
            let value = field(key)?;
            value
                .parse()
                .map_err(|_| format!("`{key}:` is {value:?}, not a number"))
        };
        let bot = |side: &str| -> Result<RunBot, String> {
            Ok(RunBot {
                flags: field(&format!("{side}-flags"))?.to_string(),
                signature: field(&format!("{side}-signature"))?.to_string(),
            })
        };
        let run = Run {
            seed: number("seed")?,
            games: number("games")?,
            iterations: number("iterations")?,
            nodes: number("nodes")? as usize,
            deep: manifest
                .get("deep-turns")
                .map(DeepTurns::parse)
                .transpose()?,
            bots: [bot("bot")?, bot("opponent")?],
        };
        let mut files = BTreeMap::new();
        for entry in manifest.all("game") {
            let (name, hash) = entry
                .split_once(' ')
                .filter(|(_, hash)| hash.len() == 64)
                .ok_or_else(|| format!("`game: {entry}` is not `game: <file> <sha256>`"))?;
            if files.insert(name.to_string(), hash.to_string()).is_some() {
                return Err(format!("{name} is listed twice"));
            }
        }
        Ok(DataManifest { run, files })
    }

    /// The manifest of `dir`, `None` when it has none.
    pub fn read(dir: &Path) -> Result<Option<DataManifest>, String> {
        let path = dir.join(MANIFEST_FILE);
        match std::fs::read_to_string(&path) {
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(format!("cannot read {}: {error}", path.display())),
            Ok(text) => DataManifest::parse(&text)
                .map(Some)
                .map_err(|error| format!("{}: {error}", path.display())),
        }
    }

    /// Writes the manifest into `dir` whole or not at all.
    pub fn write(&self, dir: &Path) -> Result<(), String> {
        self.entries().write(&dir.join(MANIFEST_FILE))
    }

    /// The listing as `sha256sum` prints it for the listed files, in name order.
    pub fn listing(&self) -> String {
        let mut text = String::new();
        for (name, hash) in &self.files {
            let _ = writeln!(text, "{hash}  {name}");
        }
        text
    }

    /// The data's one hash: the SHA-256 of [`DataManifest::listing`].
    pub fn data_sha256(&self) -> String {
        sha256_hex(self.listing().as_bytes())
    }
}

/// The names of the game files (`*.csbsp`) in `dir`, sorted.
pub fn game_files(dir: &Path) -> Result<Vec<String>, String> {
    let error = |error: std::io::Error| {
        format!("cannot read the data directory {}: {error}", dir.display())
    };
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(error)? {
        let name = entry.map_err(error)?.file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".csbsp") {
            names.push(name.into_owned());
        }
    }
    names.sort();
    Ok(names)
}

/// Before self-play adds games to `dir` for `run`: creates the manifest if the directory has
/// none (and no games), or checks that its run is `run` (the game count may grow, which is
/// written). Errors: a directory of another run, one with games but no manifest, a game count
/// below the manifest's.
pub fn begin_run(dir: &Path, run: &Run) -> Result<(), String> {
    let manifest_path = dir.join(MANIFEST_FILE);
    let Some(mut manifest) = DataManifest::read(dir)? else {
        if let Some(name) = game_files(dir)?.first() {
            return Err(format!(
                "{} holds game files ({name}, ...) but no {MANIFEST_FILE}: they cannot be tied to \
                 the bot that played them; move them away or use another --out",
                dir.display()
            ));
        }
        let manifest = DataManifest {
            run: run.clone(),
            files: BTreeMap::new(),
        };
        return manifest.write(dir);
    };
    if let Some((key, theirs, mine)) = manifest.run.first_difference(run) {
        return Err(format!(
            "{} holds games of another run: its manifest has {key} {theirs:?}, this run \
             {mine:?}; use another --out",
            manifest_path.display()
        ));
    }
    if run.games < manifest.run.games {
        return Err(format!(
            "{}'s run has {} games: --games must be at least that (it may grow, not shrink)",
            dir.display(),
            manifest.run.games
        ));
    }
    if run.games > manifest.run.games {
        manifest.run.games = run.games;
        manifest.write(dir)?;
    }
    Ok(())
}

/// After self-play in `dir`: lists every game file in the manifest. A file already listed must
/// still have its hash; a new one must parse, be named for its index, lie within the run, and
/// pass `belongs` (the caller checks its map and players). Errors name the file.
pub fn list_games(
    dir: &Path,
    run: &Run,
    belongs: impl Fn(&GameRecord) -> Result<(), String>,
) -> Result<DataManifest, String> {
    // Read again: another shard may have listed games since this one began.
    let mut manifest = DataManifest::read(dir)?.ok_or_else(|| {
        format!(
            "{}'s {MANIFEST_FILE} disappeared during self-play",
            dir.display()
        )
    })?;
    if manifest.run.first_difference(run).is_some() {
        return Err(format!(
            "{}'s {MANIFEST_FILE} was changed to another run during self-play",
            dir.display()
        ));
    }
    let names = game_files(dir)?;
    if let Some(missing) = manifest.files.keys().find(|name| !names.contains(name)) {
        return Err(format!(
            "{} is listed in {MANIFEST_FILE} but missing",
            dir.join(missing).display()
        ));
    }
    for name in &names {
        let path = dir.join(name);
        let bytes = read_bytes(&path)?;
        let hash = sha256_hex(&bytes);
        match manifest.files.get(name) {
            Some(listed) if *listed == hash => continue,
            Some(_) => {
                return Err(format!(
                    "{} changed since it was listed in {MANIFEST_FILE} (its SHA-256 differs)",
                    path.display()
                ))
            }
            None => {}
        }
        let text = String::from_utf8_lossy(&bytes);
        let game = parse_game(&text).map_err(|error| format!("{}: {error}", path.display()))?;
        if game.index >= manifest.run.games || game_file_name(game.index) != *name {
            return Err(format!(
                "{} holds game {} of a run: not game {} of this run's {}",
                path.display(),
                game.index,
                name.trim_start_matches("game-").trim_end_matches(".csbsp"),
                manifest.run.games
            ));
        }
        belongs(&game).map_err(|error| format!("{}: {error}", path.display()))?;
        manifest.files.insert(name.clone(), hash);
    }
    manifest.write(dir)?;
    Ok(manifest)
}

/// For training: checks that `dir`'s game files are exactly its manifest's listing, that the
/// listing holds the whole run, and that each file has its listed hash, handing each file's
/// path and text to `each` in name order. Errors (one line, naming the file): no manifest, a
/// file not listed or listed but missing, an unfinished run, a changed file.
pub fn verified_games(
    dir: &Path,
    mut each: impl FnMut(&Path, &str) -> Result<(), String>,
) -> Result<DataManifest, String> {
    let names = game_files(dir)?;
    let Some(manifest) = DataManifest::read(dir)? else {
        return Err(if names.is_empty() {
            format!(
                "no game files (*.csbsp) in {}: run `learn selfplay --out {}` first",
                dir.display(),
                dir.display()
            )
        } else {
            format!(
                "{} has no {MANIFEST_FILE}: games without one cannot be tied to the bot that \
                 played them (play them with `learn selfplay`)",
                dir.display()
            )
        });
    };
    if let Some(unlisted) = names
        .iter()
        .find(|name| !manifest.files.contains_key(*name))
    {
        return Err(format!(
            "{} is not in {MANIFEST_FILE}: the self-play run is unfinished or was interrupted \
             (run `learn selfplay` again with the same flags to finish and list it)",
            dir.join(unlisted).display()
        ));
    }
    if let Some(missing) = manifest.files.keys().find(|name| !names.contains(name)) {
        return Err(format!(
            "{} is listed in {MANIFEST_FILE} but missing",
            dir.join(missing).display()
        ));
    }
    if (manifest.files.len() as u64) < manifest.run.games {
        return Err(format!(
            "{}: {MANIFEST_FILE} lists {} of the run's {} games: the run is unfinished (run \
             `learn selfplay` again with the same flags to finish it)",
            dir.display(),
            manifest.files.len(),
            manifest.run.games
        ));
    }
    for (name, hash) in &manifest.files {
        let path: PathBuf = dir.join(name);
        let bytes = read_bytes(&path)?;
        if sha256_hex(&bytes) != *hash {
            return Err(format!(
                "{} does not match {MANIFEST_FILE}: its SHA-256 changed since self-play listed \
                 it",
                path.display()
            ));
        }
        let text =
            String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", path.display()))?;
        each(&path, &text)?;
    }
    Ok(manifest)
}

/// The hash that names a window's data: `newest`'s own ([`DataManifest::data_sha256`]) when
/// the window is empty, else the SHA-256 of every directory's hash, one a line, the window's
/// first.
pub fn window_sha256(newest: &DataManifest, window: &[(PathBuf, String)]) -> String {
    if window.is_empty() {
        return newest.data_sha256();
    }
    let mut lines = String::new();
    for (_, hash) in window {
        lines.push_str(hash);
        lines.push('\n');
    }
    lines.push_str(&newest.data_sha256());
    lines.push('\n');
    sha256_hex(lines.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run() -> Run {
        let bot = RunBot {
            flags: "--eval net".to_string(),
            signature: "0123456789abcdef".to_string(),
        };
        Run {
            seed: 3,
            games: 4,
            iterations: 12,
            nodes: 5000,
            deep: None,
            bots: [bot.clone(), bot],
        }
    }

    #[test]
    fn a_manifest_round_trips_and_hashes_its_listing_as_sha256sum_does() {
        let mut manifest = DataManifest {
            run: run(),
            files: BTreeMap::new(),
        };
        manifest.run.bots[1].flags = String::new();
        manifest
            .files
            .insert(game_file_name(1), sha256_hex(b"second"));
        manifest
            .files
            .insert(game_file_name(0), sha256_hex(b"first"));
        assert_eq!(DataManifest::parse(&manifest.text()), Ok(manifest.clone()));
        let listing = manifest.listing();
        assert!(listing.starts_with(&format!("{}  game-000000.csbsp\n", sha256_hex(b"first"))));
        assert_eq!(manifest.data_sha256(), sha256_hex(listing.as_bytes()));
        let broken = manifest
            .text()
            .replace("iterations: 12", "iterations: many");
        assert!(DataManifest::parse(&broken)
            .unwrap_err()
            .contains("iterations"));
        let twice = format!(
            "{}game: game-000000.csbsp {}\n",
            manifest.text(),
            "0".repeat(64)
        );
        assert!(DataManifest::parse(&twice).unwrap_err().contains("twice"));
    }

    /// A run without deep turns writes no `deep-turns:` line (its manifest is as before); one
    /// with them reads back, and a malformed value is refused.
    #[test]
    fn deep_turns_round_trip_and_are_absent_without_them() {
        let plain = DataManifest {
            run: run(),
            files: BTreeMap::new(),
        };
        assert!(!plain.text().contains("deep-turns"));
        let mut deep = plain.clone();
        deep.run.deep = Some(DeepTurns::new(50, 0.25, 12).unwrap());
        assert!(deep.text().contains("deep-turns: 50 250\n"));
        assert_eq!(DataManifest::parse(&deep.text()), Ok(deep.clone()));
        let broken = deep.text().replace("deep-turns: 50 250", "deep-turns: 50");
        assert!(DataManifest::parse(&broken)
            .unwrap_err()
            .contains("deep-turns"));
    }

    #[test]
    fn another_run_is_named_by_its_first_difference() {
        let mut other = run();
        other.bots[0].signature = "fedcba9876543210".to_string();
        let (key, mine, theirs) = run().first_difference(&other).unwrap();
        assert_eq!(
            (key, mine.as_str(), theirs.as_str()),
            ("bot-signature", "0123456789abcdef", "fedcba9876543210")
        );
        other = run();
        other.games = 100;
        assert_eq!(run().first_difference(&other), None);
        let mut deep = run();
        deep.deep = Some(DeepTurns::new(50, 0.25, 12).unwrap());
        let (key, mine, theirs) = run().first_difference(&deep).unwrap();
        assert_eq!(
            (key, mine.as_str(), theirs.as_str()),
            ("deep-turns", "none", "50 250")
        );
    }
}
