//! Each tunable is written once: its line in a `tunables!` table (src/search/params.rs,
//! src/bot/config.rs, src/bot/evaluation.rs) is the only place that gives its default, and the
//! flags `--help` lists are exactly the tables' lines.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The settings structs declared by a `tunables!` table.
const TABLES: [&str; 3] = ["SearchParams", "BotConfig", "EvalWeights"];

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
}

fn sources() -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            (path, text)
        })
        .collect()
}

/// The flag names of the table lines (`=> "name",`) in `text`.
fn table_flags(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| line.split_once("=> \"").map(|(_, rest)| rest))
        .filter_map(|rest| rest.split_once('"').map(|(name, _)| name.to_string()))
        .collect()
}

#[test]
fn the_settings_structs_get_their_defaults_from_their_tables_only() {
    let sources = sources();
    let mut tables = 0;
    for (path, text) in &sources {
        for name in TABLES {
            let hand_written = format!("impl Default for {name}");
            assert!(
                !text.contains(&hand_written),
                "{}: {hand_written} written by hand; its defaults belong in its tunables! table",
                path.display()
            );
            if text.contains(&format!("pub struct {name} {{")) {
                assert!(
                    text.contains("tunables! {"),
                    "{}: {name} is not declared by tunables!",
                    path.display()
                );
                tables += 1;
            }
        }
        // The constants that once held the bot's defaults beside the structs.
        assert!(
            !text.contains("pub const BOT_"),
            "{}: a BOT_ default outside the tables",
            path.display()
        );
    }
    assert_eq!(tables, TABLES.len(), "every settings struct found once");
}

#[test]
fn the_flags_are_the_lines_of_the_tables() {
    let mut from_tables: Vec<String> = sources()
        .iter()
        .filter(|(_, text)| text.contains("tunables! {"))
        .flat_map(|(_, text)| table_flags(text))
        .collect();
    let output = Command::new(env!("CARGO_BIN_EXE_csb"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    let mut from_help: Vec<String> = help
        .lines()
        .filter_map(|line| line.strip_prefix("  --"))
        .map(|line| line.split(' ').next().unwrap().to_string())
        .collect();
    assert!(from_help.len() >= 20, "{help}");
    from_tables.sort();
    from_help.sort();
    assert_eq!(from_tables, from_help);
    let mut unique = from_help.clone();
    unique.dedup();
    assert_eq!(unique, from_help, "a flag named twice");
}
