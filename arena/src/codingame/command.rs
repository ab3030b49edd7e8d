//! `arena import-cg`: its arguments, and one report per recording.

use crate::cli::{parse_league, print_stdout, Failure};
use crate::codingame::import::import_file;
use clap::Args;
use csb::engine::League;
use std::path::PathBuf;

/// The arguments of `arena import-cg`.
#[derive(Args)]
pub struct ImportCgArgs {
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Also write each game in the csb replay format into this directory.
    #[arg(long)]
    convert: Option<PathBuf>,
    /// League of gameResult games (default: guessed from the thrusts seen).
    #[arg(long, value_parser = parse_league)]
    league: Option<League>,
    /// Laps of the race (default: 3, or inferred for viewer-frame recordings, which carry
    /// no lap count; the report says which rule was assumed and why).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=100))]
    laps: Option<u16>,
}

impl ImportCgArgs {
    /// Checks every recording and prints its report; any mismatch is exit code 1.
    pub fn run(self) -> Result<(), Failure> {
        let mut mismatched = false;
        for file in &self.files {
            let report = import_file(file, self.league, self.laps, self.convert.as_deref())?;
            print_stdout(&report.text)?;
            mismatched |= report.mismatches > 0;
        }
        if mismatched {
            Err(Failure::found("mismatches found".to_string()))
        } else {
            Ok(())
        }
    }
}
