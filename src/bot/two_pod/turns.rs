//! The turn loop of Gold and Legend: the initialisation block, then per turn four pod lines in
//! and two commands out, through the shared loop of `turn_loop.rs`.

use super::player::Player;
use crate::bot::config::BotConfig;
use crate::bot::turn_loop::{play_turns, TurnLine, EXIT_BAD_INPUT};
use crate::protocol::{format_command, InputReader};
use std::io::{BufRead, Write};

/// Plays a whole game of Gold or Legend; returns the process exit code.
pub fn play<R: BufRead, W: Write, E: Write>(
    config: BotConfig,
    input: R,
    output: W,
    mut diagnostics: E,
) -> i32 {
    let mut reader = InputReader::new(input);
    let init = match reader.read_init() {
        Ok(Some(init)) => init,
        Ok(None) => return 0,
        Err(error) => {
            let _ = writeln!(diagnostics, "csb: {error}");
            return EXIT_BAD_INPUT;
        }
    };
    #[cfg(feature = "cli")]
    let verbose = config.verbose;
    let mut player = match Player::new(config, &init) {
        Ok(player) => player,
        Err(error) => {
            let _ = writeln!(diagnostics, "csb: bad map: {error}");
            return EXIT_BAD_INPUT;
        }
    };
    let checkpoint_count = init.checkpoints.len();
    play_turns(
        || reader.read_turn(4, checkpoint_count),
        |input| {
            let decision = player.play_turn(input);
            let line = TurnLine {
                value: decision.value,
                ..TurnLine::of_search(
                    decision.iterations,
                    decision.simulated_turns,
                    decision.nodes,
                    decision.elapsed_ms,
                )
            };
            #[cfg(feature = "cli")]
            let line = TurnLine {
                details: match verbose {
                    true => player.root_summary(),
                    false => String::new(),
                },
                ..line
            };
            let answer = format!(
                "{}\n{}\n",
                format_command(&decision.commands[0], ""),
                format_command(&decision.commands[1], "")
            );
            (answer, line)
        },
        output,
        diagnostics,
    )
}
