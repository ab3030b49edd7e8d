//! CodinGame's text protocol for this game (csb-rules.md §3, docs/leagues.md): the line reader
//! and its errors, and the command line a bot prints, shared by both protocols; `two_pod.rs`
//! (Gold and Legend: the initialisation block, four pod lines a turn) and `one_pod.rs` (below
//! Gold: two lines a turn) are built with their features. Parsing errors name the input line,
//! what was expected and what came, so the bot can print one clear line and exit 2.

use crate::engine::{Command, Thrust};
use std::fmt;
use std::io::BufRead;

#[cfg(feature = "one-pod")]
mod one_pod;
#[cfg(feature = "two-pod")]
mod two_pod;

#[cfg(feature = "one-pod")]
pub use one_pod::OnePodTurn;
#[cfg(feature = "two-pod")]
pub use two_pod::{InitInput, TurnInput};

/// What a malformed input looked like.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based input line number.
    pub line_number: usize,
    pub expected: String,
    pub got: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "input line {}: expected {}, got {}",
            self.line_number, self.expected, self.got
        )
    }
}

/// Reads lines and counts them, for error messages.
pub struct InputReader<R: BufRead> {
    reader: R,
    line: String,
    line_number: usize,
}

impl<R: BufRead> InputReader<R> {
    pub fn new(reader: R) -> Self {
        InputReader {
            reader,
            line: String::new(),
            line_number: 0,
        }
    }

    /// The next line without its line ending, or `None` at end of input.
    fn next_line(&mut self, expected: &str) -> Result<Option<&str>, ParseError> {
        self.line.clear();
        let read = self
            .reader
            .read_line(&mut self.line)
            .map_err(|error| ParseError {
                line_number: self.line_number + 1,
                expected: expected.to_string(),
                got: format!("a read error ({error})"),
            })?;
        if read == 0 {
            return Ok(None);
        }
        self.line_number += 1;
        Ok(Some(self.line.trim_end_matches(['\n', '\r'])))
    }

    /// The next line, where end of input is an error.
    fn require_line(&mut self, expected: &str) -> Result<&str, ParseError> {
        let line_number = self.line_number + 1;
        match self.next_line(expected)? {
            Some(_) => Ok(self.line.trim_end_matches(['\n', '\r'])),
            None => Err(ParseError {
                line_number,
                expected: expected.to_string(),
                got: "end of input".to_string(),
            }),
        }
    }

    fn error(&self, expected: &str, got: &str) -> ParseError {
        ParseError {
            line_number: self.line_number,
            expected: expected.to_string(),
            got: format!("{got:?}"),
        }
    }

    /// Parses exactly `N` integers from a line.
    fn integers<const N: usize>(&self, line: &str, expected: &str) -> Result<[i32; N], ParseError> {
        let mut values = [0i32; N];
        let mut tokens = line.split_whitespace();
        for value in values.iter_mut() {
            *value = tokens
                .next()
                .and_then(|token| token.parse().ok())
                .ok_or_else(|| self.error(expected, line))?;
        }
        if tokens.next().is_some() {
            return Err(self.error(expected, line));
        }
        Ok(values)
    }
}

/// The protocol a first input line looks like, for the error message when it fits none the
/// league expects.
pub fn protocol_of_first_line(line: &str) -> &'static str {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.iter().any(|token| token.parse::<i64>().is_err()) {
        return "no protocol of this game";
    }
    match tokens.len() {
        1 => "the Gold/Legend protocol (laps first)",
        4 => "the Wood 3 one-pod protocol",
        6 => "the Wood 2 to Silver one-pod protocol (or a Gold/Legend pod line)",
        _ => "no protocol of this game",
    }
}

impl<R: BufRead> InputReader<R> {
    /// The error for a first line that does not fit: what it looks like instead.
    fn first_line_error(&self, expected: &str, line: &str) -> ParseError {
        ParseError {
            line_number: self.line_number,
            expected: expected.to_string(),
            got: format!(
                "{line:?}, which looks like {}",
                protocol_of_first_line(line)
            ),
        }
    }
}

/// One output line: `X Y THRUST [message]` (§3.3).
pub fn format_command(command: &Command, message: &str) -> String {
    let thrust = match command.thrust {
        Thrust::Power(power) => power.to_string(),
        Thrust::Boost => "BOOST".to_string(),
        Thrust::Shield => "SHIELD".to_string(),
    };
    let mut line = format!(
        "{} {} {}",
        command.target.x as i64, command.target.y as i64, thrust
    );
    let message = message.trim();
    if !message.is_empty() {
        line.push(' ');
        line.push_str(message);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_commands() {
        let boost = Command::new(-10, 20, Thrust::Boost);
        assert_eq!(format_command(&boost, ""), "-10 20 BOOST");
        let power = Command::new(1, 2, Thrust::Power(100));
        assert_eq!(format_command(&power, "go"), "1 2 100 go");
    }
}
