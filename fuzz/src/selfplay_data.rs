//! The self-play data files of the learned evaluation (`learn::format::parse_game`, what the
//! trainer reads for each game file): a file is refused with one line naming its line, or read;
//! a game read is written back (`write_game`) and reads back equal.

use crate::check::one_line;
use learn::format::{parse_game, write_game};

pub fn game(input: &[u8]) {
    // The trainer reads each file as UTF-8 first; other bytes are refused there.
    let Ok(text) = std::str::from_utf8(input) else {
        return;
    };
    let game = match parse_game(text) {
        Ok(game) => game,
        Err(why) => return one_line("self-play data", &why.to_string()),
    };
    let written = write_game(&game);
    match parse_game(&written) {
        Ok(again) => assert!(again == game, "a game read does not read back equal"),
        Err(why) => panic!("a game read and written back is refused: {why}"),
    }
}
