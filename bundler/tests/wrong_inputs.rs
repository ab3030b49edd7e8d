//! The bundler with the mistakes people make: each gives its exit code (2 unusable input, 1 a
//! check failed, as bundler/README.md says) and one line naming the problem; a check that
//! compared nothing fails; `--out` only ever holds a bundle that passed, and a `.rejected` file
//! only the last rejected one.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Runs the bundler on a fixture crate, the bundle going to `out`.
fn bundler(crate_dir: &Path, out: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bundler"))
        .arg("--crate")
        .arg(crate_dir)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// An executable shell script standing in for a reference binary.
fn script(dir: &Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_string()
}

/// The last stderr line is `bundler: error: ...` containing `needle`, and it is the only error.
fn assert_error(output: &Output, code: i32, needle: &str, case: &str) {
    let message = stderr(output);
    assert_eq!(output.status.code(), Some(code), "{case}: {message}");
    let errors: Vec<&str> = message
        .lines()
        .filter(|l| l.starts_with("bundler: error: "))
        .collect();
    assert_eq!(errors.len(), 1, "{case}: {message}");
    assert!(errors[0].contains(needle), "{case}: {message}");
    assert!(!message.contains("panicked"), "{case}: {message}");
}

#[test]
fn flags_out_of_range_are_refused_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("main.rs");
    let cases: &[(&[&str], &str)] = &[
        (
            &["--max-chars", "0"],
            "'--max-chars <N>': expected a whole number >= 1, got \"0\"",
        ),
        (
            &["--timeout", "0"],
            "'--timeout <SECS>': expected a whole number >= 1, got \"0\"",
        ),
        (&["--max-chars", "lots"], "--max-chars"),
        (
            &["--league", "platinum"],
            "invalid value 'platinum' for '--league <LEAGUE>'",
        ),
        (&["--bogus"], "unexpected argument '--bogus'"),
        (
            &["--reference", "/bin/true"],
            "required arguments were not provided",
        ),
        // The fixture has no league table: its league names no recorded game either.
        (
            &["--league", "gold", "--reference", "/bin/true"],
            "--reference needs --compare-input: the crate's [package.metadata.bundle.leagues] \
             names none for --league gold",
        ),
        (
            &["--check-env", "CSB_SEED"],
            "expected NAME=VALUE, got \"CSB_SEED\"",
        ),
        (
            &["--features", "gold-league"],
            "--features: the crate has no feature `gold-league`",
        ),
    ];
    for (args, needle) in cases {
        let output = bundler(&fixture("nested"), &out, args);
        assert_error(&output, 2, needle, &format!("{args:?}"));
        assert_eq!(stderr(&output).lines().count(), 1, "{args:?}");
    }
    assert!(!out.exists());
}

#[test]
fn a_league_marker_that_is_not_there_is_unusable_input() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("main.rs");
    let output = bundler(
        &fixture("nested"),
        &out,
        &["--league", "gold", "--league-const", "NOPE"],
    );
    assert_error(
        &output,
        2,
        "league marker not found: no `pub const NOPE",
        "NOPE",
    );
    assert!(!out.exists());
}

#[test]
fn a_comparison_that_compared_nothing_fails_the_check() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = fixture("flat");
    let input = dir.join("input.txt");
    let garbage = tmp.path().join("garbage.txt");
    fs::write(&garbage, "not a number\n").unwrap();
    let refusing = script(
        tmp.path(),
        "refusing",
        "echo 'csb: unknown flag --bogus' >&2; exit 2",
    );
    let silent = script(tmp.path(), "silent", "cat >/dev/null");
    let same_as_bundle = script(tmp.path(), "crashing", "echo 'bad line' >&2; exit 2");
    let cases = [
        (
            refusing.as_str(),
            &input,
            "the reference ".to_string()
                + &refusing
                + " exit status: 2 on "
                + input.to_str().unwrap()
                + " (stderr begins: csb: unknown flag --bogus), so nothing was compared",
        ),
        (
            silent.as_str(),
            &input,
            format!("the reference {silent} printed no command line"),
        ),
        // Both sides refuse the input alike: no output, same status, still nothing compared.
        (
            same_as_bundle.as_str(),
            &garbage,
            format!("the reference {same_as_bundle} exit status: 2"),
        ),
    ];
    for (reference, input, needle) in cases {
        let out = tmp.path().join("main.rs");
        let output = bundler(
            &dir,
            &out,
            &[
                "--reference",
                reference,
                "--compare-input",
                input.to_str().unwrap(),
                "--args",
                "--bogus",
            ],
        );
        assert_error(&output, 1, &needle, reference);
        assert!(!out.exists(), "{reference}: nothing written to --out");
        assert!(tmp.path().join("main.rs.rejected").exists());
    }
}

#[test]
fn a_stale_rejected_bundle_goes_once_a_bundle_passes() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("main.rs");
    let rejected = tmp.path().join("main.rs.rejected");
    let output = bundler(&fixture("nested"), &out, &["--max-chars", "1000"]);
    assert_error(&output, 1, "over the limit of 1000", "too large");
    assert!(rejected.exists() && !out.exists());
    let output = bundler(&fixture("nested"), &out, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(out.exists());
    assert!(!rejected.exists(), "the stale .rejected is removed");
}

#[test]
fn a_bundle_over_the_limit_names_limit_size_and_margin_and_keeps_the_previous_bundle() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("main.rs");
    fs::write(&out, "// the bundle of an earlier run\n").unwrap();
    let output = bundler(&fixture("nested"), &out, &["--max-chars", "1000"]);
    assert_error(&output, 1, "over the limit of 1000", "too large");
    let message = stderr(&output);
    let line = message
        .lines()
        .find(|l| l.starts_with("bundler: error: "))
        .unwrap();
    let rejected = fs::read_to_string(tmp.path().join("main.rs.rejected")).unwrap();
    let size = rejected.chars().count();
    assert!(
        line.contains(&format!(
            "has {size} characters and {size} UTF-16 units, {} over",
            size - 1000
        )),
        "the size and the margin: {line}"
    );
    assert_eq!(
        fs::read_to_string(&out).unwrap(),
        "// the bundle of an earlier run\n",
        "the previous bundle stays in place"
    );
}
