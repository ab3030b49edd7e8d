//! The recorded input fixtures are what the exact engine gives player 0 in a reflex-vs-reflex
//! game on a CodinGame map seed. This test re-plays the game and compares; after a deliberate
//! change of the reflex policy, regenerate with
//! `SPARRING_REGENERATE=1 cargo test -p sparring --test fixture`.

use sparring::duel::record_input;
use std::path::PathBuf;

/// Map seeds with a committed fixture.
pub const FIXTURE_SEEDS: [i64; 1] = [42];

fn fixture_path(seed: i64) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(format!("input-seed-{seed}.p0.txt"))
}

#[test]
fn fixtures_match_a_fresh_recording() {
    for seed in FIXTURE_SEEDS {
        let recorded = record_input(seed);
        let path = fixture_path(seed);
        if std::env::var_os("SPARRING_REGENERATE").is_some() {
            std::fs::write(&path, &recorded).expect("write the fixture");
        }
        let committed = std::fs::read_to_string(&path).expect("read the fixture");
        assert!(
            committed == recorded,
            "{} differs from a fresh recording; regenerate it (see the file's doc comment)",
            path.display()
        );
        // Shape: laps, count, checkpoints, then whole turns of four lines.
        let lines: Vec<&str> = committed.lines().collect();
        let checkpoints: usize = lines[1].parse().unwrap();
        assert_eq!((lines.len() - 2 - checkpoints) % 4, 0);
    }
}
