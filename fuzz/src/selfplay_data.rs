//! The self-play data files of the learned evaluation (`learn::data::game_file::parse_game`,
//! what the trainer reads for each game file): a file is refused with one line naming its line,
//! or read; a game read is written back (`write_game`), and what the writer wrote reads back to the same
//! text. The writer keeps a mean to 5 decimals (the format's documented precision), so a read game
//! itself need not come back equal; the writer's own files must (found by fuzzing: a mean of
//! `0.24709479` in a hand-made file comes back as `0.24709`).

use crate::check::one_line;
use learn::data::game_file::{parse_game, write_game};

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
        Ok(again) => assert!(
            write_game(&again) == written,
            "a game the writer wrote does not read back to the same text"
        ),
        Err(why) => panic!("a game read and written back is refused: {why}"),
    }
}
