//! The CodinGame turn loop: the settings (flags with feature `cli`, else the defaults), then the
//! league's protocol (`two_pod/` from Gold, `one_pod/` below), every turn through one shared
//! loop that writes the turn's diagnostics on stderr before the answer, so that the arena and
//! CodinGame show them with the turn they explain. Malformed input gives one clear line on
//! stderr and exit code 2; end of input exits 0.

use super::config::BotConfig;
#[cfg(feature = "cli")]
use super::flags::help;
use crate::protocol::ParseError;
use std::io::{BufRead, Write};

/// Exit code for malformed input or bad flags.
pub const EXIT_BAD_INPUT: i32 = 2;

/// Runs a whole game over the given streams with the settings of `args`; returns the process
/// exit code.
#[cfg(feature = "cli")]
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
    match BotConfig::from_args(args) {
        Ok(config) => play(config, input, output, diagnostics),
        Err(error) => {
            let _ = writeln!(diagnostics, "csb: {error}");
            EXIT_BAD_INPUT
        }
    }
}

/// Plays a whole game of `config`'s league over the given streams; returns the exit code.
pub fn play<R: BufRead, W: Write, E: Write>(
    config: BotConfig,
    input: R,
    output: W,
    mut diagnostics: E,
) -> i32 {
    match config.league.pods_per_player() {
        #[cfg(feature = "one-pod")]
        1 => super::one_pod::turns::play(config, input, output, diagnostics),
        #[cfg(feature = "two-pod")]
        2 => super::two_pod::turns::play(config, input, output, diagnostics),
        _ => {
            let _ = writeln!(
                diagnostics,
                "csb: this build has no protocol for {} pods a player (features one-pod, two-pod)",
                config.league.pods_per_player()
            );
            EXIT_BAD_INPUT
        }
    }
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
pub fn play_turns<T, W: Write, E: Write>(
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

/// A whole game on the process's standard streams: with feature `cli` the settings of the
/// command line, without it the defaults ([`BotConfig::bundled`]).
pub fn run_stdio() -> i32 {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    #[cfg(feature = "cli")]
    {
        let args: Vec<String> = std::env::args().skip(1).collect();
        run(&args, stdin.lock(), stdout.lock(), stderr.lock())
    }
    #[cfg(not(feature = "cli"))]
    {
        play(
            BotConfig::bundled(),
            stdin.lock(),
            stdout.lock(),
            stderr.lock(),
        )
    }
}

/// Writes a turn's answer and flushes it; false when the referee has closed our output.
fn send<W: Write>(output: &mut W, text: &str) -> bool {
    output
        .write_all(text.as_bytes())
        .and_then(|_| output.flush())
        .is_ok()
}
