//! End-to-end tests of the `bundler` binary on the fixture crates in `tests/fixtures/`: each
//! bundle must lose its tests and docs, compile alone with rustc and print the expected output;
//! each failing check must fail with its own message and exit code.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use csb::engine::League;
use tempfile::TempDir;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Runs the bundler on a fixture with extra flags; the bundle goes to `<tmp>/main.rs`.
fn bundle(crate_dir: &Path, extra: &[&str]) -> (Output, TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("main.rs");
    let output = Command::new(env!("CARGO_BIN_EXE_bundler"))
        .arg("--crate")
        .arg(crate_dir)
        .arg("--out")
        .arg(&out)
        .args(extra)
        .output()
        .unwrap();
    (output, tmp, out)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Bundles, asserting success, and returns the bundle's text.
fn bundle_ok(crate_dir: &Path, extra: &[&str]) -> (String, TempDir, PathBuf) {
    let (o, tmp, out) = bundle(crate_dir, extra);
    assert!(
        o.status.success(),
        "bundler failed:\n{}{}",
        stdout(&o),
        stderr(&o)
    );
    let text = fs::read_to_string(&out).unwrap();
    let s = stdout(&o);
    assert!(s.contains(&format!("wrote {}", out.display())), "{s}");
    assert!(
        s.contains(&format!(
            "size {} characters, {} UTF-16 units",
            text.chars().count(),
            text.encode_utf16().count()
        )),
        "{s}"
    );
    assert!(s.contains("sha256 "), "{s}");
    (text, tmp, out)
}

/// Compiles a bundle alone with rustc, as the test's own independent check.
fn compile(source: &Path, dir: &Path) -> PathBuf {
    let binary = dir.join("bundled-bin");
    let o = Command::new("rustc")
        .args(["--edition", "2021", "-O", "-o"])
        .arg(&binary)
        .arg(source)
        .output()
        .unwrap();
    assert!(o.status.success(), "rustc failed:\n{}", stderr(&o));
    binary
}

fn run(binary: &Path, args: &[&str], input: Option<&Path>) -> String {
    let stdin = match input {
        Some(p) => Stdio::from(fs::File::open(p).unwrap()),
        None => Stdio::null(),
    };
    let o = Command::new(binary)
        .args(args)
        .stdin(stdin)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

fn assert_stripped(text: &str, crate_name: &str) {
    for gone in [
        "#[test]",
        "cfg(test)",
        "mod tests",
        "//",
        "#[doc",
        "#![doc",
        "only_in_tests",
        "debug_tag",
        "loose_test_fn",
        "unknown_crate",
        "extern crate",
    ] {
        assert!(!text.contains(gone), "`{gone}` left in the bundle:\n{text}");
    }
    assert!(!text.contains(&format!("{crate_name}::")), "{text}");
}

#[test]
fn nested_fixture_bundles_compiles_and_runs() {
    let dir = fixture("nested");
    let (text, tmp, out) = bundle_ok(&dir, &["--league", "legend", "--check-compile"]);
    assert_stripped(&text, "nested");
    assert!(text.contains("pub const BUNDLED_LEAGUE: League = League::Legend;"));
    assert!(
        text.starts_with("#![allow(dead_code)]\n"),
        "lib.rs inner attribute kept"
    );
    let bin = compile(&out, tmp.path());
    let expected = fs::read_to_string(dir.join("expected.txt")).unwrap();
    assert_eq!(run(&bin, &[], None), expected);
}

#[test]
fn league_flag_rewrites_the_marked_constant() {
    let dir = fixture("nested");
    let (text, tmp, out) = bundle_ok(&dir, &["--league", "gold"]);
    assert!(
        text.contains("pub const BUNDLED_LEAGUE: League = League::Gold;"),
        "{text}"
    );
    let bin = compile(&out, tmp.path());
    let expected = fs::read_to_string(dir.join("expected.gold.txt")).unwrap();
    assert_eq!(run(&bin, &[], None), expected);
}

#[test]
fn flat_fixture_runs_on_recorded_input() {
    let dir = fixture("flat");
    let (text, tmp, out) = bundle_ok(&dir, &["--tabs"]);
    assert_stripped(&text, "flat_bot");
    assert!(text.contains("\n\tpub mod memory"), "{text}");
    let bin = compile(&out, tmp.path());
    let expected = fs::read_to_string(dir.join("expected.txt")).unwrap();
    assert_eq!(run(&bin, &[], Some(&dir.join("input.txt"))), expected);
}

#[test]
fn same_named_files_resolve_as_rustc_does() {
    let dir = fixture("shadowed");
    let (_, tmp, out) = bundle_ok(&dir, &[]);
    let bin = compile(&out, tmp.path());
    let expected = fs::read_to_string(dir.join("expected.txt")).unwrap();
    assert_eq!(run(&bin, &[], None), expected);
}

#[test]
fn compare_with_reference_passes_on_identical_output() {
    let dir = fixture("flat");
    let (_, tmp, out) = bundle_ok(&dir, &[]);
    let reference = compile(&out, tmp.path());
    let (o, _tmp2, _) = bundle(
        &dir,
        &[
            "--reference",
            reference.to_str().unwrap(),
            "--compare-input",
            dir.join("input.txt").to_str().unwrap(),
            "--args",
            "--scale 3",
        ],
    );
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("same output as"), "{}", stdout(&o));
    assert!(stdout(&o).contains("3 lines"), "{}", stdout(&o));
}

#[cfg(unix)]
#[test]
fn compare_with_reference_reports_first_differing_line() {
    use std::os::unix::fs::PermissionsExt;
    let dir = fixture("flat");
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("reference.sh");
    fs::write(
        &script,
        "#!/bin/sh\nprintf '3 3 BOOST\\n7 7 200\\n-9 19 100\\n'\n",
    )
    .unwrap();
    fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
    let (o, _tmp2, out) = bundle(
        &dir,
        &[
            "--reference",
            script.to_str().unwrap(),
            "--compare-input",
            dir.join("input.txt").to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("differs from")
            && err.contains("at line 2: bundle printed \"7 7 100\", reference printed \"7 7 200\""),
        "{err}"
    );
    assert!(
        !out.exists(),
        "a rejected bundle must not be written to --out"
    );
}

#[test]
fn external_crate_is_rejected() {
    let (o, _tmp, out) = bundle(&fixture("external"), &[]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("path `libm::..` refers to crate `libm`"),
        "{err}"
    );
    assert!(err.contains("std only"), "{err}");
    assert!(!out.exists());
}

#[test]
fn too_large_bundle_is_rejected() {
    let (o, _tmp, out) = bundle(&fixture("nested"), &["--max-chars", "1000"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("over the limit of 1000"), "{err}");
    assert!(!out.exists());
    let rejected = out.with_file_name("main.rs.rejected");
    assert!(
        rejected.exists(),
        "the rejected bundle is kept for inspection"
    );
}

#[test]
fn compile_failure_is_reported() {
    let (o, _tmp, _) = bundle(&fixture("typeerror"), &["--check-compile"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("bundler: error: the bundle does not compile alone") && err.contains("E0308"),
        "{err}"
    );
}

#[test]
fn missing_league_marker_fails_only_when_asked_for() {
    // The crate cannot be bundled for a league it has no marker for: unusable input.
    let (o, _tmp, _) = bundle(&fixture("flat"), &["--league", "gold"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("league marker not found"),
        "{}",
        stderr(&o)
    );
    let (o, _tmp, _) = bundle(&fixture("flat"), &["--league-const", "NOPE"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn unparsable_source_is_an_input_error() {
    let (o, _tmp, _) = bundle(&fixture("broken"), &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("src/engine.rs:2:13: cannot parse"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn missing_crate_dir_is_an_input_error() {
    let (o, _tmp, _) = bundle(Path::new("/nonexistent/crate"), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o).trim(),
        "bundler: error: no Cargo.toml in /nonexistent/crate: --crate must name a crate directory"
    );
}

#[test]
fn the_crates_league_table_makes_every_leagues_bundle() {
    // Cargo.toml's [package.metadata.bundle.leagues], which `make bundle LEAGUE=..` relies on:
    // a row for every league, with its protocol's feature and a recorded game of it.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let metadata = cargo_metadata::MetadataCommand::new()
        .manifest_path(root.join("Cargo.toml"))
        .no_deps()
        .exec()
        .unwrap();
    let csb = metadata.root_package().unwrap();
    let rows = csb.metadata["bundle"]["leagues"].as_object().unwrap();
    assert_eq!(rows.len(), League::ALL.len(), "{rows:?}");
    for league in League::ALL {
        let row = &rows[league.name()];
        let features: Vec<&str> = row["features"].as_str().unwrap().split(',').collect();
        let protocol = if league.pods_per_player() == 2 {
            "two-pod"
        } else {
            "one-pod"
        };
        assert!(
            features.contains(&protocol),
            "{}: {features:?}",
            league.name()
        );
        for feature in &features {
            assert!(csb.features.contains_key(*feature), "{feature}");
        }
        let input = root.join(row["compare-input"].as_str().unwrap());
        let first_line = fs::read_to_string(&input).unwrap();
        let first_line = first_line.lines().next().unwrap();
        // The first input line: the laps (two pods), a checkpoint and more (one pod); Wood 3's
        // is shorter, without the next checkpoint's distance and angle.
        let fields = first_line.split_whitespace().count();
        let expected = match league {
            League::Gold | League::Legend => 1,
            League::Wood3 => 4,
            _ => 6,
        };
        assert_eq!(fields, expected, "{}: {}", league.name(), input.display());
    }
}

#[test]
fn real_workspace_crate_bundles() {
    // As `make bundle` does it: the real bot's Gold bundle, well under the limit.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let (o, _tmp, out) = bundle(
        &root,
        &[
            "--features",
            "two-pod",
            "--compact",
            "--league",
            "gold",
            "--check-compile",
        ],
    );
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(out.exists());
}

/// The cargo-built bot of the real workspace, built once into its own target directory (so the
/// build does not wait on the lock of the `cargo test` that runs this test).
fn reference_bot() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
            let target = root.join("target/csb-for-tests");
            let o = Command::new(env!("CARGO"))
                .args(["build", "--release", "--quiet", "-p", "csb", "--target-dir"])
                .arg(&target)
                .current_dir(&root)
                .output()
                .unwrap();
            assert!(o.status.success(), "cargo build failed:\n{}", stderr(&o));
            target.join("release/csb")
        })
        .clone()
}

/// The bundler's flags of `make bundle LEAGUE=<league>` on the real crate (the features and the
/// recorded game from the crate's league table), checked against the reference bot told
/// `reference_args`; the bundle is compiled with `check_env` (its settings, since it has no
/// flags), and then as CodinGame's IDE compiles it, without them (`--check-debug`).
fn real_bundle(
    league: &str,
    check_env: &[&str],
    reference_args: &str,
) -> (Output, TempDir, PathBuf) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let reference = reference_bot();
    let mut args = vec![
        "--compact",
        "--prune",
        "--rename",
        "--max-chars",
        "100000",
        "--check-debug",
        "--league",
        league,
        "--reference",
        reference.to_str().unwrap(),
        "--reference-args",
        reference_args,
    ];
    for setting in check_env {
        args.extend(["--check-env", setting]);
    }
    bundle(&root, &args)
}

/// `make bundle LEAGUE=<league>` as a test: the bundle made for a league must print what the
/// reference bot prints when told that league and the same iterations and seed, on the
/// recorded game, and, compiled as CodinGame's IDE does (debug: overflow checks on) and playing
/// by the clock, answer every turn of that game without a panic. Returns the bundler's report
/// (stdout), whose `league:` line names the marker it set: `--rename` leaves no `League::Gold`
/// in the bundle's text.
fn real_bundle_matches_reference_of_its_league(league: &str) -> String {
    let reference_args = format!("--iterations 300 --seed 1 --league {league}");
    let (o, _tmp, out) = real_bundle(
        league,
        &["CSB_ITERATIONS=300", "CSB_SEED=1"],
        &reference_args,
    );
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let s = stdout(&o);
    assert!(s.contains("same output as"), "{s}");
    assert!(s.contains(&format!("[{reference_args}]")), "{s}");
    assert!(s.contains("size per module"), "{s}");
    let ide = s
        .lines()
        .find(|l| l.starts_with("runs as CodinGame's IDE builds it"))
        .unwrap_or_else(|| panic!("{s}"));
    assert!(
        ide.contains(&format!(
            "{} turns answered, exit 0",
            recorded_turns(league)
        )),
        "{ide}"
    );
    // `--prune` found code of the library that the bundle never calls, and unused derives,
    // and the pruned bundle still printed what the reference printed (above).
    let count = |prefix: &str| -> usize {
        let line = s
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("{s}"));
        line[prefix.len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(count("pruned ") > 0, "{s}");
    assert!(!s.contains("--prune stopped"), "{s}");
    let derives = s
        .lines()
        .find(|l| l.contains("derived traits"))
        .unwrap_or_else(|| panic!("{s}"));
    assert!(!derives.starts_with("pruned 0 of"), "{derives}");
    let publics = s
        .lines()
        .find(|l| l.contains("`pub`s"))
        .unwrap_or_else(|| panic!("{s}"));
    assert!(!publics.starts_with("pruned 0 of"), "{publics}");
    let text = fs::read_to_string(out).unwrap();
    assert!(
        !text.contains("pub(in crate)"),
        "the visibility marker left in the bundle"
    );
    // Only what CodinGame runs: no flag parsing, no help, no other league's protocol.
    assert!(
        !text.contains("fn from_args") && !text.contains("fn help"),
        "flags in the bundle"
    );
    let other_protocol = match league {
        "gold" | "legend" => "fn read_one_pod_turn",
        _ => "fn read_init",
    };
    assert!(
        !text.contains(other_protocol),
        "{other_protocol} in the bundle"
    );
    s
}

/// The turns of `league`'s recorded game (its row's `compare-input` in the crate's league
/// table), counted here from its protocol: Gold and Legend's initialisation block (laps,
/// checkpoint count, the checkpoints), then four lines a turn; one pod a side below, two lines a
/// turn.
fn recorded_turns(league: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let metadata = cargo_metadata::MetadataCommand::new()
        .manifest_path(root.join("Cargo.toml"))
        .no_deps()
        .exec()
        .unwrap();
    let row = &metadata.root_package().unwrap().metadata["bundle"]["leagues"][league];
    let text = fs::read_to_string(root.join(row["compare-input"].as_str().unwrap())).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    match league {
        "gold" | "legend" => (lines.len() - 2 - lines[1].parse::<usize>().unwrap()) / 4,
        _ => lines.len() / 2,
    }
}

#[test]
fn real_gold_bundle_matches_the_gold_reference() {
    let report = real_bundle_matches_reference_of_its_league("gold");
    assert!(
        report.contains("= League::Gold ("),
        "league constant not set"
    );
}

#[test]
fn real_legend_bundle_matches_the_legend_reference() {
    let report = real_bundle_matches_reference_of_its_league("legend");
    assert!(
        report.contains("= League::Legend ("),
        "league constant not set"
    );
}

#[test]
fn real_wood3_bundle_matches_the_wood3_reference() {
    let report = real_bundle_matches_reference_of_its_league("wood3");
    assert!(
        report.contains("= League::Wood3 ("),
        "league constant not set"
    );
}

#[test]
fn real_wood2_bundle_matches_the_wood2_reference() {
    let report = real_bundle_matches_reference_of_its_league("wood2");
    assert!(
        report.contains("= League::Wood2 ("),
        "league constant not set"
    );
}

#[test]
fn real_wood1_bundle_matches_the_wood1_reference() {
    let report = real_bundle_matches_reference_of_its_league("wood1");
    assert!(
        report.contains("= League::Wood1 ("),
        "league constant not set"
    );
}

#[test]
fn real_bronze_bundle_matches_the_bronze_reference() {
    let report = real_bundle_matches_reference_of_its_league("bronze");
    assert!(
        report.contains("= League::Bronze ("),
        "league constant not set"
    );
}

#[test]
fn real_silver_bundle_matches_the_silver_reference() {
    let report = real_bundle_matches_reference_of_its_league("silver");
    assert!(
        report.contains("= League::Silver ("),
        "league constant not set"
    );
}

#[test]
fn reference_told_another_league_is_caught() {
    // The check can fail: a Gold bundle against the reference told Legend differs on the
    // recorded game (the bug of issue 19, where the reference ran on its default league).
    let (o, _tmp, out) = real_bundle(
        "gold",
        &["CSB_ITERATIONS=300", "CSB_SEED=1"],
        "--iterations 300 --seed 1 --league legend",
    );
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("the bundle's output differs"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
}

#[test]
fn a_bundle_deciding_otherwise_than_the_reference_is_caught() {
    // The bundle has no flags: its check build reads the iterations and seed at compile time.
    // Built with another seed, or another number of iterations, it decides otherwise
    // than the reference, and the check says so.
    for check_env in [
        &["CSB_ITERATIONS=300", "CSB_SEED=2"][..],
        &["CSB_ITERATIONS=100", "CSB_SEED=1"],
    ] {
        let (o, _tmp, out) = real_bundle(
            "legend",
            check_env,
            "--iterations 300 --seed 1 --league legend",
        );
        assert_eq!(
            o.status.code(),
            Some(1),
            "{check_env:?}: {}{}",
            stdout(&o),
            stderr(&o)
        );
        assert!(
            stderr(&o).contains("the bundle's output differs"),
            "{check_env:?}: {}",
            stderr(&o)
        );
        assert!(!out.exists());
    }
}
