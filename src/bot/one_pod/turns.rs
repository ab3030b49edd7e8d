//! The turn loop below Gold: per turn the one-pod protocol's two lines in (Wood 3's short pod
//! line, the six-integer one after), one command out, through the shared loop of `turn_loop.rs`.

use super::player::OnePodPlayer;
use crate::bot::config::BotConfig;
use crate::bot::turn_loop::{play_turns, TurnLine};
use crate::engine::League;
use crate::protocol::{format_command, InputReader};
use std::io::{BufRead, Write};

/// Plays a whole game of a league below Gold; returns the process exit code.
pub fn play<R: BufRead, W: Write, E: Write>(
    config: BotConfig,
    input: R,
    output: W,
    diagnostics: E,
) -> i32 {
    let short_line = config.league == League::Wood3;
    let mut reader = InputReader::new(input);
    let mut player = OnePodPlayer::new(config);
    play_turns(
        || reader.read_one_pod_turn(short_line),
        |input| {
            let decision = player.play_turn(input);
            let mut line = TurnLine {
                value: decision.value,
                ..TurnLine::of_search(
                    decision.iterations,
                    decision.simulated_turns,
                    decision.nodes,
                    decision.elapsed_ms,
                )
            };
            if !decision.searched {
                line.note = " (racing policy: course not known yet)".to_string();
            }
            (format!("{}\n", format_command(&decision.command, "")), line)
        },
        output,
        diagnostics,
    )
}
