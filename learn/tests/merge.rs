//! `learn merge` on the two shards of a small self-play run (`learn selfplay --shard 0/2` and
//! `1/2`, 4 quick games): merged, they give one data directory whose manifest lists the whole
//! run, and merging again writes nothing; a merge interrupted after copying a game is finished
//! by running it again. Wrong inputs (a shard missing, given twice, of another run, with a game
//! unlisted, changed or of another map draw; an output directory of another run or holding a
//! game that differs from the shards') give one line and exit code 2 and leave the output
//! directory as it was. That the merged directory equals an unsharded run's is checked over ssh
//! (`ssh_shards.rs`), where the shards are played on "hosts".

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{assert_one_line_error, learn, text};

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    common::scratch_in_temp("merge", name)
}

/// Shard `shard` of a 4-game run into `dir`.
fn play_shard(dir: &Path, shard: &str) {
    let output = learn(&[
        "selfplay",
        "--out",
        &text(dir),
        "--games",
        "4",
        "--iterations",
        "12",
        "--nodes",
        "5000",
        "--seed",
        "12",
        "--shard",
        shard,
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn merge(out: &Path, shards: &[&Path]) -> Output {
    let mut args = vec!["merge".to_string(), "--out".to_string(), text(out)];
    args.extend(shards.iter().map(|dir| text(dir)));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    learn(&args)
}

/// Every file of `dir` (name → bytes); empty when `dir` does not exist.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return BTreeMap::new();
    };
    entries
        .map(|entry| {
            let entry = entry.unwrap();
            (
                entry.file_name().to_string_lossy().into_owned(),
                std::fs::read(entry.path()).unwrap(),
            )
        })
        .collect()
}

/// A copy of directory `from` at `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for (name, bytes) in files(from) {
        std::fs::write(to.join(name), bytes).unwrap();
    }
}

/// Replaces `old` by `new` in file `path` (which must hold `old`).
fn edit(path: &Path, old: &str, new: &str) {
    let content = std::fs::read_to_string(path).unwrap();
    assert!(content.contains(old), "{} lacks {old:?}", path.display());
    std::fs::write(path, content.replacen(old, new, 1)).unwrap();
}

/// A one-line error with exit code 2 that leaves `out` as `before`.
fn assert_refused(output: &Output, mentions: &str, out: &Path, before: &BTreeMap<String, Vec<u8>>) {
    assert_one_line_error(output, mentions);
    assert!(files(out) == *before, "{} changed", out.display());
}

fn sha256_hex(bytes: &[u8]) -> String {
    learn::common::manifest::sha256_hex(bytes)
}

#[test]
fn shards_merge_into_the_whole_run_and_wrong_ones_are_refused() {
    let dir = scratch("shards");
    let (first, second) = (dir.join("shard-0-of-2"), dir.join("shard-1-of-2"));
    play_shard(&first, "0/2");
    play_shard(&second, "1/2");
    let nothing = BTreeMap::new();
    let out = dir.join("merged");

    // Refusals before anything is written: the output directory is never created.
    assert_refused(
        &merge(&out, &[&first]),
        "the shards hold 2 of the run's 4 games: missing game-000001.csbsp, game-000003.csbsp",
        &out,
        &nothing,
    );
    assert_refused(
        &merge(&out, &[&first, &first]),
        "game-000000.csbsp is in both",
        &out,
        &nothing,
    );
    let other_run = dir.join("other-run");
    copy_dir(&second, &other_run);
    edit(
        &other_run.join("manifest.txt"),
        "iterations: 12",
        "iterations: 13",
    );
    assert_refused(
        &merge(&out, &[&first, &other_run]),
        "are shards of different runs: their manifests have iterations \"12\" and \"13\"",
        &out,
        &nothing,
    );
    edit(
        &other_run.join("manifest.txt"),
        "iterations: 13",
        "iterations: 12",
    );
    edit(&other_run.join("manifest.txt"), "games: 4", "games: 6");
    assert_refused(
        &merge(&out, &[&first, &other_run]),
        "their manifests have games \"4\" and \"6\"",
        &out,
        &nothing,
    );
    let interrupted = dir.join("interrupted");
    copy_dir(&second, &interrupted);
    let manifest = std::fs::read_to_string(interrupted.join("manifest.txt")).unwrap();
    let listed = manifest
        .lines()
        .find(|line| line.starts_with("game: game-000003.csbsp"))
        .unwrap();
    edit(
        &interrupted.join("manifest.txt"),
        &format!("{listed}\n"),
        "",
    );
    assert_refused(
        &merge(&out, &[&first, &interrupted]),
        "game-000003.csbsp is not in manifest.txt: that shard was interrupted",
        &out,
        &nothing,
    );
    let changed = dir.join("changed");
    copy_dir(&second, &changed);
    let game = std::fs::read_to_string(changed.join("game-000001.csbsp")).unwrap();
    std::fs::write(changed.join("game-000001.csbsp"), &game[..game.len() / 2]).unwrap();
    assert_refused(
        &merge(&out, &[&first, &changed]),
        "game-000001.csbsp does not match its manifest.txt",
        &out,
        &nothing,
    );
    // A game of another map draw, listed with its hash: a shard of another version of learn.
    let other_maps = dir.join("other-maps");
    copy_dir(&second, &other_maps);
    let seed_field = game
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .nth(3)
        .unwrap();
    let moved = game.replacen(
        &format!("map-seed {seed_field} "),
        &format!("map-seed {} ", seed_field.parse::<i64>().unwrap() + 1),
        1,
    );
    std::fs::write(other_maps.join("game-000001.csbsp"), &moved).unwrap();
    edit(
        &other_maps.join("manifest.txt"),
        &sha256_hex(game.as_bytes()),
        &sha256_hex(moved.as_bytes()),
    );
    assert_refused(
        &merge(&out, &[&first, &other_maps]),
        "the shard was played by another version of learn",
        &out,
        &nothing,
    );

    // The whole run: every game once, the manifest the run's.
    let output = merge(&out, &[&second, &first]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "4 games written now, 0 already there; its manifest lists 4 of the run's 4 games"
        ),
        "{stderr}"
    );
    let merged = files(&out);
    let mut expected: BTreeMap<String, Vec<u8>> = files(&first);
    expected.extend(files(&second));
    expected.remove("manifest.txt");
    let mut games = merged.clone();
    let manifest = String::from_utf8(games.remove("manifest.txt").unwrap()).unwrap();
    assert_eq!(games, expected);
    let shard_manifest = std::fs::read_to_string(first.join("manifest.txt")).unwrap();
    let header = |manifest: &str| -> String {
        manifest
            .lines()
            .filter(|line| !line.starts_with("game:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(header(&manifest), header(&shard_manifest));
    for (name, bytes) in &games {
        assert!(
            manifest.contains(&format!("game: {name} {}\n", sha256_hex(bytes))),
            "{manifest}"
        );
    }
    // Again: nothing to write.
    let output = merge(&out, &[&first, &second]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("0 games written now, 4 already there"),
        "{stderr}"
    );
    assert!(files(&out) == merged);

    // The output directory of another run, or with a game unlike the shards': refused, kept.
    let foreign = dir.join("foreign");
    copy_dir(&out, &foreign);
    edit(&foreign.join("manifest.txt"), "seed: 12", "seed: 13");
    let before = files(&foreign);
    assert_refused(
        &merge(&foreign, &[&first, &second]),
        "holds games of another run: its manifest has seed \"13\"",
        &foreign,
        &before,
    );
    let differing = dir.join("differing");
    copy_dir(&out, &differing);
    let own = std::fs::read_to_string(differing.join("game-000002.csbsp")).unwrap();
    let altered = own.replacen("result ", "result  ", 1);
    std::fs::write(differing.join("game-000002.csbsp"), &altered).unwrap();
    edit(
        &differing.join("manifest.txt"),
        &sha256_hex(own.as_bytes()),
        &sha256_hex(altered.as_bytes()),
    );
    let before = files(&differing);
    assert_refused(
        &merge(&differing, &[&first, &second]),
        "game-000002.csbsp differs from",
        &differing,
        &before,
    );

    // A merge interrupted after its manifest and one game were written: run again, it ends
    // with the same directory.
    let resumed = dir.join("resumed");
    std::fs::create_dir_all(&resumed).unwrap();
    let empty_listing: String = shard_manifest
        .lines()
        .filter(|line| !line.starts_with("game:"))
        .map(|line| format!("{line}\n"))
        .collect();
    std::fs::write(resumed.join("manifest.txt"), empty_listing).unwrap();
    std::fs::write(
        resumed.join("game-000001.csbsp"),
        &merged["game-000001.csbsp"],
    )
    .unwrap();
    let output = merge(&resumed, &[&first, &second]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("3 games written now, 1 already there"),
        "{stderr}"
    );
    assert!(files(&resumed) == merged);
    let _ = std::fs::remove_dir_all(&dir);
}
