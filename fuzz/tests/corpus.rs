//! Replays every committed input of every fuzz target: the small seed corpus
//! (`corpus/<target>/`) and each crash the fuzzer found, minimised and fixed
//! (`regressions/<target>/`). A target panics on a broken promise, so this fails on a
//! regression; each input must also finish quickly (a hang found once stays found).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Longest time one input may take (debug build, loaded machine).
const MAX_PER_INPUT: Duration = Duration::from_secs(20);

fn inputs(folder: &str, target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(folder)
        .join(target);
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries.flatten().map(|e| e.path()).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

fn replay(target: &fuzz::Target, files: &[PathBuf]) {
    for file in files {
        let data = std::fs::read(file).unwrap();
        let started = Instant::now();
        let outcome = std::panic::catch_unwind(|| (target.run)(&data));
        assert!(
            outcome.is_ok(),
            "target {} panicked on {}",
            target.name,
            file.display()
        );
        let took = started.elapsed();
        assert!(
            took < MAX_PER_INPUT,
            "target {} took {took:?} on {}",
            target.name,
            file.display()
        );
    }
}

#[test]
fn every_target_has_a_corpus_and_reads_it() {
    for target in fuzz::TARGETS {
        let corpus = inputs("corpus", target.name);
        assert!(!corpus.is_empty(), "no corpus for target {}", target.name);
        replay(target, &corpus);
    }
}

#[test]
fn every_crash_found_stays_fixed() {
    let mut count = 0;
    for target in fuzz::TARGETS {
        let found = inputs("regressions", target.name);
        count += found.len();
        replay(target, &found);
    }
    eprintln!("{count} regression input(s) replayed");
}

#[test]
fn regression_folders_name_targets() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        assert!(
            fuzz::target(&name).is_some(),
            "regressions/{name} is no target"
        );
    }
}
