//! The CodinGame turn loop: flags, the initialisation block, then per turn four lines in and two
//! commands out, flushed, after one diagnostic line on stderr (written before the answer, so that
//! the arena and CodinGame show it with the turn it explains). Malformed input gives one clear
//! line on stderr and exit code 2; end of input exits 0.

use super::config::{help, BotConfig};
use super::one_pod::OnePodPlayer;
use super::player::Player;
use crate::engine::League;
use crate::protocol::{format_command, InputReader};
use std::io::{BufRead, Write};

/// Exit code for malformed input or bad flags.
pub const EXIT_BAD_INPUT: i32 = 2;

/// Runs a whole game over the given streams; returns the process exit code.
pub fn run<R: BufRead, W: Write, E: Write>(
    args: &[String],
    input: R,
    mut output: W,
    mut diagnostics: E,
) -> i32 {
    if args.iter().any(|arg| arg == "--help" || arg == "-h") {
        let _ = write!(output, "{}", help());
        return 0;
    }
    let config = match BotConfig::from_args(args) {
        Ok(config) => config,
        Err(error) => {
            let _ = writeln!(diagnostics, "csb: {error}");
            return EXIT_BAD_INPUT;
        }
    };
    if config.league.pods_per_player() == 1 {
        return run_one_pod(config, input, output, diagnostics);
    }
    let mut reader = InputReader::new(input);
    let init = match reader.read_init() {
        Ok(Some(init)) => init,
        Ok(None) => return 0,
        Err(error) => {
            let _ = writeln!(diagnostics, "csb: {error}");
            return EXIT_BAD_INPUT;
        }
    };
    let verbose = config.verbose;
    let reuse_tree = config.reuse_tree;
    let mut player = match Player::new(config, &init) {
        Ok(player) => player,
        Err(error) => {
            let _ = writeln!(diagnostics, "csb: bad map: {error}");
            return EXIT_BAD_INPUT;
        }
    };
    let checkpoint_count = init.checkpoints.len();
    for turn in 1.. {
        let input = match reader.read_turn(4, checkpoint_count) {
            Ok(Some(input)) => input,
            Ok(None) => return 0,
            Err(error) => {
                let _ = writeln!(diagnostics, "csb: {error}");
                return EXIT_BAD_INPUT;
            }
        };
        let decision = player.play_turn(&input);
        let _ = write!(
            diagnostics,
            "turn {turn}: iterations={} simulated_turns={} nodes={} ms={:.1}",
            decision.iterations, decision.simulated_turns, decision.nodes, decision.elapsed_ms
        );
        if reuse_tree {
            let [pod0, pod1] = decision.kept_nodes;
            let _ = write!(diagnostics, " kept={pod0},{pod1}");
        }
        let _ = writeln!(diagnostics);
        if verbose {
            let _ = write!(diagnostics, "{}", player.root_summary());
        }
        let text = format!(
            "{}\n{}\n",
            format_command(&decision.commands[0], ""),
            format_command(&decision.commands[1], "")
        );
        if !send(&mut output, &text) {
            // The referee closed our output: the game is over for us.
            return 0;
        }
    }
    0
}

/// The turn loop of the leagues below Gold: two lines in, one command out (docs/leagues.md).
fn run_one_pod<R: BufRead, W: Write, E: Write>(
    config: BotConfig,
    input: R,
    mut output: W,
    mut diagnostics: E,
) -> i32 {
    let short_line = config.league == League::Wood3;
    let mut reader = InputReader::new(input);
    let mut player = OnePodPlayer::new(config);
    for turn in 1.. {
        let input = match reader.read_one_pod_turn(short_line) {
            Ok(Some(input)) => input,
            Ok(None) => return 0,
            Err(error) => {
                let _ = writeln!(diagnostics, "csb: {error}");
                return EXIT_BAD_INPUT;
            }
        };
        let decision = player.play_turn(&input);
        let text = format!("{}\n", format_command(&decision.command, ""));
        if !send(&mut output, &text) {
            return 0;
        }
        let _ = writeln!(
            diagnostics,
            "turn {turn}: iterations={} simulated_turns={} nodes={} ms={:.1}{}",
            decision.iterations,
            decision.simulated_turns,
            decision.nodes,
            input.received_at.elapsed().as_secs_f64() * 1000.0,
            if decision.searched {
                ""
            } else {
                " (racing policy: course not known yet)"
            }
        );
    }
    0
}

/// [`run`] on the process's standard streams.
pub fn run_stdio(args: &[String]) -> i32 {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    run(args, stdin.lock(), stdout.lock(), stderr.lock())
}

/// Writes a turn's answer and flushes it; false when the referee has closed our output.
fn send<W: Write>(output: &mut W, text: &str) -> bool {
    output
        .write_all(text.as_bytes())
        .and_then(|_| output.flush())
        .is_ok()
}
