//! Validation of one line a bot prints (csb-rules.md §3.3): `X Y THRUST [message]`.
//!
//! The rules follow the referee's pattern `^(-?\d{1,9})\s+(-?\d{1,9})\s+(\d+|BOOST|SHIELD)(\s+(.+))?$`
//! taken literally: no leading whitespace, whitespace runs between tokens, keywords upper case,
//! an integer thrust in `0..=cap`, and after the thrust either nothing or whitespace followed by
//! at least one character. So a single trailing space is invalid, while two trailing spaces are a
//! one-space message (the regex backtracks). The message is cut to 50 characters.

use csb::engine::{Command, Thrust};

/// Longest message kept (the viewer shows 50 characters).
pub const MESSAGE_MAX_CHARS: usize = 50;
/// Most digits in a target coordinate.
const COORDINATE_MAX_DIGITS: usize = 9;

/// A valid output line: the pod's command and its message ("" if none).
#[derive(Clone, Debug, PartialEq)]
pub struct ParsedLine {
    pub command: Command,
    pub message: String,
}

/// Java's `\s`: space, tab, newline, vertical tab, form feed, carriage return.
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r')
}

/// Splits `text` into its leading run of non-space characters and the rest.
fn split_token(text: &str) -> (&str, &str) {
    let end = text.find(is_space).unwrap_or(text.len());
    text.split_at(end)
}

/// Splits `text` into its leading whitespace run and the rest.
fn split_spaces(text: &str) -> (&str, &str) {
    let end = text.find(|c| !is_space(c)).unwrap_or(text.len());
    text.split_at(end)
}

fn parse_coordinate(token: &str, name: &str) -> Result<i32, String> {
    let digits = token.strip_prefix('-').unwrap_or(token);
    if digits.is_empty()
        || digits.len() > COORDINATE_MAX_DIGITS
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(format!(
            "{name} must be an integer of 1 to {COORDINATE_MAX_DIGITS} digits, got {}",
            excerpt(token)
        ));
    }
    token
        .parse()
        .map_err(|_| format!("{name} is not an integer: {}", excerpt(token)))
}

fn parse_thrust(token: &str, cap: u16) -> Result<Thrust, String> {
    match token {
        "BOOST" => return Ok(Thrust::Boost),
        "SHIELD" => return Ok(Thrust::Shield),
        _ => {}
    }
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "thrust must be an integer 0..={cap}, BOOST or SHIELD, got {}",
            excerpt(token)
        ));
    }
    let digits = token.trim_start_matches('0');
    if digits.len() > 5 {
        return Err(format!("thrust {} is over the cap {cap}", excerpt(token)));
    }
    let value: u32 = if digits.is_empty() {
        0
    } else {
        digits.parse().expect("at most 5 ASCII digits")
    };
    if value > u32::from(cap) {
        return Err(format!("thrust {value} is over the cap {cap}"));
    }
    Ok(Thrust::Power(value as u16))
}

/// Checks one output line (without its line terminator) against the league's thrust cap.
pub fn parse_output_line(line: &str, cap: u16) -> Result<ParsedLine, String> {
    let (x_token, rest) = split_token(line);
    if x_token.is_empty() {
        return Err(if line.is_empty() {
            "empty line".to_string()
        } else {
            "line starts with whitespace".to_string()
        });
    }
    let x = parse_coordinate(x_token, "X")?;
    let (gap, rest) = split_spaces(rest);
    let (y_token, rest) = split_token(rest);
    if gap.is_empty() || y_token.is_empty() {
        return Err("expected `X Y THRUST`, Y is missing".to_string());
    }
    let y = parse_coordinate(y_token, "Y")?;
    let (gap, rest) = split_spaces(rest);
    let (thrust_token, rest) = split_token(rest);
    if gap.is_empty() || thrust_token.is_empty() {
        return Err("expected `X Y THRUST`, THRUST is missing".to_string());
    }
    let thrust = parse_thrust(thrust_token, cap)?;
    let (gap, after) = split_spaces(rest);
    let message = if rest.is_empty() {
        String::new()
    } else if !after.is_empty() {
        after.chars().take(MESSAGE_MAX_CHARS).collect()
    } else if gap.chars().count() >= 2 {
        // `\s+(.+)` backtracks: the last whitespace character is the message.
        gap.chars().last().map(String::from).unwrap_or_default()
    } else {
        return Err("trailing whitespace with no message after it".to_string());
    };
    Ok(ParsedLine {
        command: Command::new(x, y, thrust),
        message,
    })
}

/// A short, printable excerpt of a bot's line or token for error details (at most 80
/// characters, quoted), so a detail stays short whatever the bot printed.
pub fn excerpt(line: &str) -> String {
    const MAX: usize = 80;
    let mut text: String = line.chars().take(MAX).collect();
    if line.chars().count() > MAX {
        text.push_str("...");
    }
    format!("{text:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str, cap: u16) -> ParsedLine {
        parse_output_line(line, cap).unwrap_or_else(|e| panic!("{line:?} rejected: {e}"))
    }

    fn bad(line: &str, cap: u16) {
        assert!(
            parse_output_line(line, cap).is_err(),
            "{line:?} should be invalid"
        );
    }

    #[test]
    fn plain_lines() {
        let parsed = ok("5000 -300 100", 100);
        assert_eq!(parsed.command, Command::new(5000, -300, Thrust::Power(100)));
        assert_eq!(parsed.message, "");
        assert_eq!(ok("0 0 0", 100).command.thrust, Thrust::Power(0));
        assert_eq!(ok("1 2 BOOST", 100).command.thrust, Thrust::Boost);
        assert_eq!(ok("1 2 SHIELD", 100).command.thrust, Thrust::Shield);
        assert_eq!(ok("1\t2  \t 3", 100).command.thrust, Thrust::Power(3));
        assert_eq!(ok("1 2 007", 100).command.thrust, Thrust::Power(7));
    }

    #[test]
    fn coordinates_are_integers_of_up_to_nine_digits() {
        assert_eq!(
            ok("-999999999 999999999 5", 100).command,
            Command::new(-999_999_999, 999_999_999, Thrust::Power(5))
        );
        bad("1000000000 0 5", 100);
        bad("0 -1000000000 5", 100);
        bad("1.5 0 5", 100);
        bad("+1 0 5", 100);
        bad("- 0 5", 100);
        bad("--1 0 5", 100);
        bad("1e3 0 5", 100);
        bad("x 0 5", 100);
        assert_eq!(
            ok("-0 -0 1", 100).command,
            Command::new(0, 0, Thrust::Power(1))
        );
    }

    #[test]
    fn thrust_range_depends_on_the_league() {
        ok("0 0 100", 100);
        bad("0 0 101", 100);
        ok("0 0 200", 200);
        bad("0 0 201", 200);
        bad("0 0 -1", 200);
        bad("0 0 99999999999999999999", 200);
        bad("0 0 1.0", 100);
        bad("0 0 +5", 100);
        bad("0 0 ", 100);
        bad("0 0", 100);
        bad("0", 100);
    }

    #[test]
    fn keywords_are_upper_case() {
        bad("0 0 boost", 100);
        bad("0 0 Shield", 100);
        bad("0 0 BOOSTED", 100);
        bad("0 0 100abc", 100);
    }

    #[test]
    fn whitespace_rules() {
        bad("", 100);
        bad(" 0 0 100", 100);
        bad("0 0 100 ", 100);
        bad("0 0 BOOST\t", 100);
        assert_eq!(ok("0 0 100  ", 100).message, " ");
        bad("00 100", 100);
        bad("0,0,100", 100);
    }

    #[test]
    fn messages_are_kept_and_cut_to_fifty_characters() {
        assert_eq!(ok("1 2 3 hello world", 100).message, "hello world");
        assert_eq!(ok("1 2 3    spaced  ", 100).message, "spaced  ");
        let long = "x".repeat(80);
        assert_eq!(
            ok(&format!("1 2 SHIELD {long}"), 100).message,
            "x".repeat(50)
        );
        let accents = "é".repeat(60);
        assert_eq!(
            ok(&format!("1 2 3 {accents}"), 100).message.chars().count(),
            50
        );
    }
}
