//! The ladder's files: `ladder/players.toml` (the roster: players and controls) and the
//! results files (one JSON game a line) with the rating table `arena ladder table` makes of
//! them.

use crate::check::one_line;
use crate::temp_file;
use arena::ladder::players::{command, Roster};
use arena::ladder::results;
use arena::ladder::table::{table, TableRequest};
use std::path::Path;

pub fn players(input: &[u8]) {
    let Ok(text) = std::str::from_utf8(input) else {
        return;
    };
    let roster = match Roster::parse(text) {
        Ok(roster) => roster,
        Err(why) => return one_line("players.toml", &why),
    };
    for (name, control) in &roster.controls {
        one_line("control description", &control.describe(name));
    }
    for player in &roster.players {
        for control in roster.controls.values() {
            let _ = command(player, control, Path::new("/bin/true"));
        }
    }
    if let Err(why) = roster.player("nobody") {
        one_line("players.toml player", &why);
    }
    if let Err(why) = roster.control("nothing") {
        one_line("players.toml control", &why);
    }
}

pub fn results(input: &[u8]) {
    let Some(file) = temp_file::with_bytes("ladder_results", "jsonl", input) else {
        return;
    };
    let games = match results::load(&[file.path()]) {
        Ok(games) => games,
        Err(why) => return one_line("ladder results", &why),
    };
    let Some(anchor) = games.iter().map(|g| g.a.clone()).min() else {
        return;
    };
    for prior_draws in [0.0, 2.0] {
        let request = TableRequest {
            control: None,
            anchor: &anchor,
            prior_draws,
            control_line: None,
            order: &[],
        };
        if let Err(why) = table(&games, &request) {
            one_line("ladder table", &why);
        }
    }
}
