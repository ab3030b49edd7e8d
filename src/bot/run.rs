//! The CodinGame turn loop: flags, then the league's protocol (from Gold the initialisation
//! block, then per turn four lines in and two commands out; below Gold two lines in and one
//! command out), each turn's answer flushed after its diagnostics on stderr, written by one
//! shared loop before the answer, so that the arena and CodinGame show them with the turn they
//! explain. Malformed input gives one clear
//! line on stderr and exit code 2; end of input exits 0.

use super::config::{help, BotConfig};
use super::one_pod::OnePodPlayer;
use super::player::Player;
use crate::engine::League;
use crate::protocol::{format_command, InputReader, ParseError};
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
    play_turns(
        || reader.read_turn(4, checkpoint_count),
        |input| {
            let decision = player.play_turn(input);
            let mut line = TurnLine::of_search(
                decision.iterations,
                decision.simulated_turns,
                decision.nodes,
                decision.elapsed_ms,
            );
            if reuse_tree {
                let [pod0, pod1] = decision.kept_nodes;
                line.note = format!(" kept={pod0},{pod1}");
            }
            if verbose {
                line.details = player.root_summary();
            }
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

/// The turn loop of the leagues below Gold: two lines in, one command out (docs/leagues.md).
fn run_one_pod<R: BufRead, W: Write, E: Write>(
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
            let mut line = TurnLine::of_search(
                decision.iterations,
                decision.simulated_turns,
                decision.nodes,
                decision.elapsed_ms,
            );
            if !decision.searched {
                line.note = " (racing policy: course not known yet)".to_string();
            }
            (format!("{}\n", format_command(&decision.command, "")), line)
        },
        output,
        diagnostics,
    )
}

/// What a turn's diagnostics say: `turn N: iterations=… simulated_turns=… nodes=… ms=…`, the
/// same fields in every league, `ms` being the decision's own time (from reading the turn's
/// first line to the answer being ready, before it is sent), then a note on the same line and
/// detail lines under it.
pub struct TurnLine {
    pub iterations: u64,
    pub simulated_turns: u64,
    /// Nodes in use in the largest tree.
    pub nodes: usize,
    pub elapsed_ms: f64,
    /// Appended to the line (` kept=…`, the racing policy's remark).
    pub note: String,
    /// Whole lines written after it (`--verbose 1`'s root statistics).
    pub details: String,
}

impl TurnLine {
    /// A line with no note and no details.
    pub fn of_search(iterations: u64, simulated_turns: u64, nodes: usize, elapsed_ms: f64) -> Self {
        TurnLine {
            iterations,
            simulated_turns,
            nodes,
            elapsed_ms,
            note: String::new(),
            details: String::new(),
        }
    }

    fn write<E: Write>(&self, turn: u32, diagnostics: &mut E) {
        let _ = write!(
            diagnostics,
            "turn {turn}: iterations={} simulated_turns={} nodes={} ms={:.1}{}\n{}",
            self.iterations,
            self.simulated_turns,
            self.nodes,
            self.elapsed_ms,
            self.note,
            self.details
        );
    }
}

/// The turn loop both protocols share: read a turn (end of input exits 0, malformed input 2),
/// decide, write the turn's diagnostics, then send its answer, so that a referee filing stderr
/// under the answer it precedes shows them with the turn they explain.
fn play_turns<T, W: Write, E: Write>(
    mut read_turn: impl FnMut() -> Result<Option<T>, ParseError>,
    mut decide: impl FnMut(&T) -> (String, TurnLine),
    mut output: W,
    mut diagnostics: E,
) -> i32 {
    for turn in 1.. {
        let input = match read_turn() {
            Ok(Some(input)) => input,
            Ok(None) => return 0,
            Err(error) => {
                let _ = writeln!(diagnostics, "csb: {error}");
                return EXIT_BAD_INPUT;
            }
        };
        let (answer, line) = decide(&input);
        line.write(turn, &mut diagnostics);
        if !send(&mut output, &answer) {
            // The referee closed our output: the game is over for us.
            return 0;
        }
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
