//! Replay files as `arena replay`, `arena inputs` and `arena view` read them: parsed, the race
//! rebuilt and re-simulated, each player's stdin rebuilt, the HTML page rendered. Each step
//! either works or refuses with one line; none panics or hangs.

use crate::check::one_line;
use arena::replay::file::Replay;
use arena::replay::{inputs, verify};

pub fn replay(input: &[u8]) {
    // `arena replay` reads the file as UTF-8 first; other bytes are refused there.
    let Ok(text) = std::str::from_utf8(input) else {
        return;
    };
    if let Err(why) = viewer::render_html(text) {
        one_line("view", &why);
    }
    let replay = match Replay::from_json(text) {
        Ok(replay) => replay,
        Err(why) => return one_line("replay", &why),
    };
    if let Err(why) = verify::race_of(&replay) {
        one_line("replay race", &why);
    }
    if let Err(why) = verify::verify(&replay) {
        one_line("replay verify", &why);
    }
    for player in 0..2 {
        if let Err(why) = inputs::player_input(&replay, player) {
            one_line("inputs", &why);
        }
    }
}
