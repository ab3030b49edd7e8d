//! Fuzz targets: one function per reader of input the project does not control (a bot's stdin,
//! a bot's output lines, replay files, CodinGame recordings, the ladder's files, the tuner's
//! trajectories, the self-play data). Each takes arbitrary bytes, feeds them to the reader the
//! way the program does, and panics only if the reader broke its promise: a panic of its own, or
//! a refusal that is not one clear line. The AFL++ driver (`src/bin/fuzz_afl.rs`, `make fuzz`) runs one of them under
//! coverage-guided fuzzing; `tests/corpus.rs` replays the committed corpus and every crash found
//! (`corpus/<target>/`, `regressions/<target>/`) on any machine, without AFL++.

pub mod bot_output;
pub mod bot_stdin;
pub mod cg_recording;
pub mod check;
pub mod ladder_files;
pub mod match_result;
pub mod replay_file;
pub mod selfplay_data;
pub mod temp_file;
pub mod tune_trajectory;

/// A fuzz target: its name (the folder of its corpus) and the function that reads one input.
pub struct Target {
    pub name: &'static str,
    pub run: fn(&[u8]),
}

/// Every target, in the order `make fuzz` lists them.
pub const TARGETS: &[Target] = &[
    Target {
        name: "bot_two_pod",
        run: bot_stdin::two_pod,
    },
    Target {
        name: "bot_one_pod",
        run: bot_stdin::one_pod,
    },
    Target {
        name: "bot_output",
        run: bot_output::lines,
    },
    Target {
        name: "replay",
        run: replay_file::replay,
    },
    Target {
        name: "cg_recording",
        run: cg_recording::recording,
    },
    Target {
        name: "match_result",
        run: match_result::match_result,
    },
    Target {
        name: "ladder_players",
        run: ladder_files::players,
    },
    Target {
        name: "ladder_results",
        run: ladder_files::results,
    },
    Target {
        name: "tune_trajectory",
        run: tune_trajectory::trajectory,
    },
    Target {
        name: "selfplay_data",
        run: selfplay_data::game,
    },
];

/// The target called `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|target| target.name == name)
}

/// The target names, comma-separated (for error messages).
pub fn target_names() -> String {
    TARGETS
        .iter()
        .map(|target| target.name)
        .collect::<Vec<_>>()
        .join(", ")
}
