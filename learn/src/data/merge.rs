//! `learn merge`: the shard directories of one self-play run (`learn selfplay --shard I/N`, one
//! directory per process or machine, `scripts/selfplay-hosts.sh`) made into one data directory
//! whose manifest is the one an unsharded run writes, so `learn train` reads it and names the
//! same data hash.
//!
//! Everything is checked before anything is written, and each refusal is one line: a shard
//! without a manifest, or whose game files are not its manifest's (a game unlisted because its
//! shard was interrupted, listed but missing, or changed since it was listed); shards of
//! different runs (seed, game count, iterations, tree size, either bot's flags or signature:
//! the first difference is named); a game in two shards; a game whose map is not the one this
//! checkout draws for its index (a shard played by another version of `learn`); games missing
//! from the shards together (named); an output directory of another run, or holding a game that
//! differs from the shards' copy. Nothing already in the output directory is overwritten: its
//! games must equal the shards' copies, and the new ones are written whole (temporary file,
//! then renamed) after its manifest exists, so a merge interrupted midway is finished by
//! running it again.

use crate::common::files::{read_bytes, write_whole};
use crate::common::manifest::sha256_hex;
use crate::data::game_file::parse_game;
use crate::data::manifest::{game_files, DataManifest, MANIFEST_FILE};
use crate::data::run::{game_file_name, map_seed, Run};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How many missing games an error names before it counts the rest.
const MISSING_NAMED: usize = 8;

/// What a merge did.
#[derive(Debug)]
pub struct Merged {
    /// The output directory's manifest after the merge (the whole run).
    pub manifest: DataManifest,
    /// Games written into the output directory now.
    pub copied: usize,
    /// Games of the shards the output directory already held (equal to the shards' copies).
    pub already_there: usize,
}

/// A shard directory and its manifest, its files checked against the listing.
struct ShardDir {
    dir: PathBuf,
    manifest: DataManifest,
}

/// Where a game of the merge comes from: its shard directory and listed SHA-256.
struct Source<'a> {
    dir: &'a Path,
    hash: &'a str,
}

/// Reads `dir`'s manifest and checks that its game files are exactly the listed ones.
fn read_shard(dir: &Path) -> Result<ShardDir, String> {
    let names = game_files(dir)?;
    let manifest = DataManifest::read(dir)?.ok_or_else(|| {
        format!(
            "{} has no {MANIFEST_FILE}: not a directory of `learn selfplay`",
            dir.display()
        )
    })?;
    if let Some(unlisted) = names
        .iter()
        .find(|name| !manifest.files.contains_key(*name))
    {
        return Err(format!(
            "{} is not in {MANIFEST_FILE}: that shard was interrupted (run its `learn selfplay` \
             again to finish and list it)",
            dir.join(unlisted).display()
        ));
    }
    if let Some(missing) = manifest.files.keys().find(|name| !names.contains(name)) {
        return Err(format!(
            "{} is listed in {MANIFEST_FILE} but missing",
            dir.join(missing).display()
        ));
    }
    Ok(ShardDir {
        dir: dir.to_path_buf(),
        manifest,
    })
}

/// Checks that `other` is a shard of `first`'s run.
fn same_run(first: &ShardDir, other: &ShardDir) -> Result<(), String> {
    let (mine, theirs) = (&first.manifest.run, &other.manifest.run);
    let difference = if mine.games != theirs.games {
        Some(("games", mine.games.to_string(), theirs.games.to_string()))
    } else {
        mine.first_difference(theirs)
    };
    match difference {
        None => Ok(()),
        Some((key, mine, theirs)) => Err(format!(
            "{} and {} are shards of different runs: their manifests have {key} {mine:?} and \
             {theirs:?}",
            first.dir.display(),
            other.dir.display()
        )),
    }
}

/// Checks a shard's game file: its listed hash, and that it parses as game `name` of `run`
/// on the map this checkout draws for it.
fn check_game(path: &Path, name: &str, hash: &str, run: &Run) -> Result<Vec<u8>, String> {
    let bytes = read_bytes(path)?;
    if sha256_hex(&bytes) != hash {
        return Err(format!(
            "{} does not match its {MANIFEST_FILE}: its SHA-256 changed since self-play listed it",
            path.display()
        ));
    }
    let text = String::from_utf8_lossy(&bytes);
    let game = parse_game(&text).map_err(|error| format!("{}: {error}", path.display()))?;
    if game_file_name(game.index) != name || game.index >= run.games {
        return Err(format!(
            "{} holds game {}: not the game its name says of this run's {}",
            path.display(),
            game.index,
            run.games
        ));
    }
    let expected = map_seed(run.seed, game.index);
    if game.map_seed != expected {
        return Err(format!(
            "{} was played on map seed {}, but this checkout draws {expected} for game {} of \
             seed {}: the shard was played by another version of learn",
            path.display(),
            game.map_seed,
            game.index,
            run.seed
        ));
    }
    Ok(bytes)
}

/// The output directory's manifest when it has one (checked: same run, the game count at most
/// the shards', every listed game there and unchanged); `None` for a missing or empty
/// directory.
fn read_out(out: &Path, run: &Run) -> Result<Option<DataManifest>, String> {
    if !out.exists() {
        return Ok(None);
    }
    let names = game_files(out)?;
    let Some(manifest) = DataManifest::read(out)? else {
        if let Some(name) = names.first() {
            return Err(format!(
                "{} holds game files ({name}, ...) but no {MANIFEST_FILE}: they cannot be tied \
                 to the run that played them; move them away or use another --out",
                out.display()
            ));
        }
        return Ok(None);
    };
    if let Some((key, theirs, mine)) = manifest.run.first_difference(run) {
        return Err(format!(
            "{} holds games of another run: its manifest has {key} {theirs:?}, the shards \
             {mine:?}; use another --out",
            out.join(MANIFEST_FILE).display()
        ));
    }
    if manifest.run.games > run.games {
        return Err(format!(
            "{}'s run has {} games, the shards' {}: a run may grow, not shrink; use another --out",
            out.display(),
            manifest.run.games,
            run.games
        ));
    }
    for (name, hash) in &manifest.files {
        let path = out.join(name);
        if !names.contains(name) {
            return Err(format!(
                "{} is listed in {MANIFEST_FILE} but missing",
                path.display()
            ));
        }
        if sha256_hex(&read_bytes(&path)?) != *hash {
            return Err(format!(
                "{} does not match {MANIFEST_FILE}: its SHA-256 changed since it was listed",
                path.display()
            ));
        }
    }
    Ok(Some(manifest))
}

/// The names of the run's games that neither the shards nor the output directory hold, as a
/// phrase (the first few named, the rest counted); `None` when none is missing.
fn missing_games(
    run: &Run,
    sources: &BTreeMap<String, Source>,
    out_files: &BTreeMap<String, String>,
) -> Option<String> {
    let missing: Vec<String> = (0..run.games)
        .map(game_file_name)
        .filter(|name| !sources.contains_key(name) && !out_files.contains_key(name))
        .collect();
    if missing.is_empty() {
        return None;
    }
    let mut phrase = missing[..missing.len().min(MISSING_NAMED)].join(", ");
    if missing.len() > MISSING_NAMED {
        phrase.push_str(&format!(" and {} more", missing.len() - MISSING_NAMED));
    }
    Some(format!(
        "the shards hold {} of the run's {} games: missing {phrase} (a shard is unfinished or \
         not given)",
        run.games as usize - missing.len(),
        run.games
    ))
}

/// Merges `shard_dirs` into `out` (created if missing). See the module's documentation.
pub fn merge(out: &Path, shard_dirs: &[PathBuf]) -> Result<Merged, String> {
    let shards = shard_dirs
        .iter()
        .map(|dir| read_shard(dir))
        .collect::<Result<Vec<_>, _>>()?;
    let (first, rest) = shards
        .split_first()
        .ok_or("no shard directories to merge")?;
    for shard in rest {
        same_run(first, shard)?;
    }
    let run = first.manifest.run.clone();
    let mut sources: BTreeMap<String, Source> = BTreeMap::new();
    for shard in &shards {
        for (name, hash) in &shard.manifest.files {
            let source = Source {
                dir: &shard.dir,
                hash,
            };
            if let Some(earlier) = sources.insert(name.clone(), source) {
                return Err(format!(
                    "{name} is in both {} and {}: shards must be disjoint (one --shard I/N each)",
                    earlier.dir.display(),
                    shard.dir.display()
                ));
            }
        }
    }
    let existing = read_out(out, &run)?;
    let out_files = existing
        .as_ref()
        .map(|manifest| manifest.files.clone())
        .unwrap_or_default();
    // Games in the output directory: listed ones must equal the shards' copies; unlisted ones
    // (a merge interrupted after copying them) too, and must be the shards' games.
    let mut already_there = Vec::new();
    let present = if out.exists() {
        game_files(out)?
    } else {
        Vec::new()
    };
    for name in &present {
        let path = out.join(name);
        let source = sources.get(name);
        let listed = out_files.get(name);
        let hash = match listed {
            Some(hash) => hash.clone(),
            None => sha256_hex(&read_bytes(&path)?),
        };
        match source {
            Some(source) if source.hash == hash => already_there.push(name.clone()),
            Some(source) => {
                return Err(format!(
                    "{} differs from {}: the shards' game would overwrite it; use another --out",
                    path.display(),
                    source.dir.join(name).display()
                ))
            }
            None if listed.is_some() => {}
            None => {
                return Err(format!(
                    "{} is neither in {MANIFEST_FILE} nor in a shard: move it away or use \
                     another --out",
                    path.display()
                ))
            }
        }
    }
    if let Some(missing) = missing_games(&run, &sources, &out_files) {
        return Err(missing);
    }
    for (name, source) in &sources {
        check_game(&source.dir.join(name), name, source.hash, &run)?;
    }

    std::fs::create_dir_all(out)
        .map_err(|error| format!("cannot create {}: {error}", out.display()))?;
    let mut manifest = existing.unwrap_or(DataManifest {
        run: run.clone(),
        files: BTreeMap::new(),
    });
    if !out.join(MANIFEST_FILE).exists() {
        manifest.write(out)?;
    }
    let mut copied = 0;
    for (name, source) in &sources {
        if !already_there.contains(name) {
            let bytes = check_game(&source.dir.join(name), name, source.hash, &run)?;
            let path = out.join(name);
            write_whole(&path, bytes)?;
            copied += 1;
        }
        manifest.files.insert(name.clone(), source.hash.to_string());
    }
    manifest.run = run;
    manifest.write(out)?;
    Ok(Merged {
        manifest,
        copied,
        already_there: already_there.len(),
    })
}
