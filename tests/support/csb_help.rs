//! The bot's flags as `csb --help` lists them (`  --name VALUES  meaning [default]`), for the
//! tests that hold the README to the binary (`tests/readme_flags.rs`, `tests/readme_claims.rs`),
//! so the two read `--help` the same way.

#![allow(dead_code)]

use std::process::Command;

/// One flag of `csb --help`: `--name VALUES`, its default and its meaning.
#[derive(Debug, PartialEq)]
pub struct HelpFlag {
    pub usage: String,
    pub default: String,
    pub meaning: String,
}

impl HelpFlag {
    /// The flag's name with its dashes: `--eval`.
    pub fn name(&self) -> &str {
        self.usage.split_whitespace().next().unwrap_or("")
    }

    /// The values the flag accepts when `--help` lists them (`league|hand|net`), else none.
    pub fn choices(&self) -> Option<Vec<&str>> {
        let values = self.usage.split_whitespace().nth(1)?;
        values
            .contains('|')
            .then(|| values.split('|').collect::<Vec<_>>())
    }
}

/// The flag lines of `csb --help`, in its order.
pub fn help_flags() -> Vec<HelpFlag> {
    let output = Command::new(env!("CARGO_BIN_EXE_csb"))
        .arg("--help")
        .output()
        .expect("csb runs");
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    help.lines()
        .filter_map(|line| line.strip_prefix("  --"))
        .map(|line| {
            let (usage, rest) = line.split_once("  ").expect("usage, two spaces, meaning");
            let (meaning, default) = rest
                .trim_start()
                .strip_suffix(']')
                .and_then(|rest| rest.rsplit_once(" ["))
                .expect("a default in brackets");
            HelpFlag {
                usage: format!("--{usage}"),
                default: default.to_string(),
                meaning: meaning.to_string(),
            }
        })
        .collect()
}
