//! The turn loop both protocols share: read a turn, decide, write the turn's diagnostics on
//! stderr, then send its answer, so that a referee filing stderr under the answer it precedes
//! (the arena, CodinGame) shows them with the turn they explain. The same diagnostic line in
//! every league.

use crate::protocol::ParseError;
use std::io::Write;

/// Exit code for malformed input or bad flags.
pub const EXIT_BAD_INPUT: i32 = 2;

/// What a turn's diagnostics say: `turn N: iterations=… simulated_turns=… nodes=… ms=… value=…`,
/// the same fields in every league, `ms` being the decision's own time (from reading the turn's
/// first line to the answer being ready, before it is sent) and `value` the search's value of the
/// turn from our side (absent on a turn without one), then a note on the same line and detail
/// lines under it.
pub struct TurnLine {
    pub iterations: u64,
    pub simulated_turns: u64,
    /// Nodes in use in the largest tree.
    pub nodes: usize,
    pub elapsed_ms: f64,
    /// The mean score, in [0, 1], of the chosen root action in our runner's tree (README, "Play
    /// a recorded game through the bot"); `None` when the search chose nothing.
    pub value: Option<f64>,
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
            value: None,
            note: String::new(),
            details: String::new(),
        }
    }

    fn write<E: Write>(&self, turn: u32, diagnostics: &mut E) {
        let value = match self.value {
            Some(value) => format!(" value={value:.3}"),
            None => String::new(),
        };
        let _ = write!(
            diagnostics,
            "turn {turn}: iterations={} simulated_turns={} nodes={} ms={:.1}{value}{}\n{}",
            self.iterations,
            self.simulated_turns,
            self.nodes,
            self.elapsed_ms,
            self.note,
            self.details
        );
    }
}

/// Plays turns until the input ends (exit code 0) or a line is malformed (one line on
/// stderr, exit code 2): reads a turn, decides, writes its diagnostics, sends its answer.
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

/// Writes a turn's answer and flushes it; false when the referee has closed our output.
fn send<W: Write>(output: &mut W, text: &str) -> bool {
    output
        .write_all(text.as_bytes())
        .and_then(|_| output.flush())
        .is_ok()
}
