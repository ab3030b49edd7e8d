//! CodinGame's text protocol for this game (csb-rules.md §3): the initialisation block, the four
//! pod lines of each turn, and the two command lines a bot prints. Parsing errors name the input
//! line, what was expected and what came, so the bot can print one clear line and exit 2.

use crate::engine::rules::POD_COUNT;
use crate::engine::{Command, PodObservation, Thrust};
use std::fmt;
use std::io::BufRead;
use std::time::Instant;

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

/// The initialisation block: laps and checkpoints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitInput {
    pub laps: u16,
    pub checkpoints: Vec<(i32, i32)>,
}

/// One turn's input and the moment its first line was read (the turn's time budget starts there).
#[derive(Clone, Copy, Debug)]
pub struct TurnInput {
    /// Own pods first (lower index first), then the opponent's.
    pub pods: [PodObservation; POD_COUNT],
    pub received_at: Instant,
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

    /// The initialisation block; `None` if the input is empty.
    pub fn read_init(&mut self) -> Result<Option<InitInput>, ParseError> {
        const LAPS: &str = "the number of laps (one integer, 1..=10)";
        let Some(line) = self.next_line(LAPS)? else {
            return Ok(None);
        };
        let line = line.to_string();
        if line.split_whitespace().count() != 1 {
            return Err(self.first_line_error(LAPS, &line));
        }
        let [laps] = self.integers::<1>(&line, LAPS)?;
        if !(1..=10).contains(&laps) {
            return Err(self.error(LAPS, &line));
        }
        const COUNT: &str = "the number of checkpoints (one integer, 2..=8)";
        let line = self.require_line(COUNT)?.to_string();
        let [count] = self.integers::<1>(&line, COUNT)?;
        if !(2..=8).contains(&count) {
            return Err(self.error(COUNT, &line));
        }
        let mut checkpoints = Vec::with_capacity(count as usize);
        for index in 0..count {
            let expected = format!("checkpoint {index} as two integers \"x y\"");
            let line = self.require_line(&expected)?.to_string();
            let [x, y] = self.integers::<2>(&line, &expected)?;
            checkpoints.push((x, y));
        }
        Ok(Some(InitInput {
            laps: laps as u16,
            checkpoints,
        }))
    }

    /// One turn of `pod_count` pod lines; `None` at end of input before the turn's first line.
    pub fn read_turn(
        &mut self,
        pod_count: usize,
        checkpoint_count: usize,
    ) -> Result<Option<TurnInput>, ParseError> {
        let mut pods = [PodObservation {
            x: 0,
            y: 0,
            vx: 0,
            vy: 0,
            angle_deg: -1,
            next_checkpoint: -1,
        }; POD_COUNT];
        let mut received_at = Instant::now();
        for (index, pod) in pods.iter_mut().enumerate().take(pod_count) {
            let expected = format!(
                "pod line {} of {pod_count}: six integers \"x y vx vy angle nextCheckPointId\"",
                index + 1
            );
            let line = if index == 0 {
                let Some(line) = self.next_line(&expected)? else {
                    return Ok(None);
                };
                received_at = Instant::now();
                line.to_string()
            } else {
                self.require_line(&expected)?.to_string()
            };
            let [x, y, vx, vy, angle_deg, next_checkpoint] =
                self.integers::<6>(&line, &expected)?;
            if !(-1..=360).contains(&angle_deg)
                || !(-1..checkpoint_count as i32).contains(&next_checkpoint)
            {
                return Err(self.error(&expected, &line));
            }
            *pod = PodObservation {
                x,
                y,
                vx,
                vy,
                angle_deg,
                next_checkpoint,
            };
        }
        Ok(Some(TurnInput { pods, received_at }))
    }
}

/// One turn of the one-pod protocol of the leagues below Gold (docs/leagues.md).
#[derive(Clone, Copy, Debug)]
pub struct OnePodTurn {
    pub x: i32,
    pub y: i32,
    pub next_checkpoint_x: i32,
    pub next_checkpoint_y: i32,
    /// `nextCheckpointDist` and `nextCheckpointAngle` (degrees, from the pod's facing to the
    /// checkpoint's direction); Wood 3's shorter line has neither.
    pub next_checkpoint_dist: Option<i32>,
    pub next_checkpoint_angle_deg: Option<i32>,
    pub opponent_x: i32,
    pub opponent_y: i32,
    pub received_at: Instant,
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

    /// One turn of the one-pod protocol: the own pod's line (four integers in Wood 3, six
    /// after) and the opponent's `x y`; `None` at end of input before the turn's first line.
    pub fn read_one_pod_turn(
        &mut self,
        short_line: bool,
    ) -> Result<Option<OnePodTurn>, ParseError> {
        let expected = if short_line {
            "the pod line: four integers \"x y nextCheckpointX nextCheckpointY\""
        } else {
            "the pod line: six integers \"x y nextCheckpointX nextCheckpointY nextCheckpointDist nextCheckpointAngle\""
        };
        let first_turn = self.line_number == 0;
        let Some(line) = self.next_line(expected)? else {
            return Ok(None);
        };
        let received_at = Instant::now();
        let line = line.to_string();
        let wanted = if short_line { 4 } else { 6 };
        if line.split_whitespace().count() != wanted && first_turn {
            return Err(self.first_line_error(expected, &line));
        }
        let (pod, distance, angle) = if short_line {
            let [x, y, cx, cy] = self.integers::<4>(&line, expected)?;
            ([x, y, cx, cy], None, None)
        } else {
            let [x, y, cx, cy, distance, angle] = self.integers::<6>(&line, expected)?;
            if distance < 0 || !(-180..=180).contains(&angle) {
                return Err(self.error(expected, &line));
            }
            ([x, y, cx, cy], Some(distance), Some(angle))
        };
        const OPPONENT: &str = "the opponent's line: two integers \"opponentX opponentY\"";
        let line = self.require_line(OPPONENT)?.to_string();
        let [opponent_x, opponent_y] = self.integers::<2>(&line, OPPONENT)?;
        Ok(Some(OnePodTurn {
            x: pod[0],
            y: pod[1],
            next_checkpoint_x: pod[2],
            next_checkpoint_y: pod[3],
            next_checkpoint_dist: distance,
            next_checkpoint_angle_deg: angle,
            opponent_x,
            opponent_y,
            received_at,
        }))
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

    fn one_pod(text: &str, short_line: bool) -> Result<Option<OnePodTurn>, ParseError> {
        InputReader::new(text.as_bytes()).read_one_pod_turn(short_line)
    }

    #[test]
    fn reads_the_one_pod_protocol_of_each_league() {
        let turn = one_pod("100 200 3000 4000 5000 -17\n7 8\n", false)
            .unwrap()
            .unwrap();
        assert_eq!(
            (turn.x, turn.y, turn.opponent_x, turn.opponent_y),
            (100, 200, 7, 8)
        );
        assert_eq!(
            (turn.next_checkpoint_x, turn.next_checkpoint_y),
            (3000, 4000)
        );
        assert_eq!(turn.next_checkpoint_dist, Some(5000));
        assert_eq!(turn.next_checkpoint_angle_deg, Some(-17));
        let turn = one_pod("100 200 3000 4000\n7 8\n", true).unwrap().unwrap();
        assert_eq!(turn.next_checkpoint_angle_deg, None);
        assert!(one_pod("", false).unwrap().is_none());
    }

    #[test]
    fn a_first_line_of_another_protocol_says_which() {
        let error = one_pod("100 200 3000 4000\n7 8\n", false).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("looks like the Wood 3 one-pod protocol"),
            "{error}"
        );
        let error = one_pod("100 200 3000 4000 5000 -17\n7 8\n", true).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("looks like the Wood 2 to Silver"),
            "{error}"
        );
        let error = one_pod("3\n3\n", false).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("looks like the Gold/Legend protocol"),
            "{error}"
        );
        let error = InputReader::new("1 2 3 4 5 6\n".as_bytes())
            .read_init()
            .unwrap_err();
        assert!(
            error
                .to_string()
                .contains("looks like the Wood 2 to Silver"),
            "{error}"
        );
        let error = one_pod("1 2 3 4 5 900\n7 8\n", false).unwrap_err();
        assert!(error.to_string().contains("input line 1"), "{error}");
        let error = one_pod("1 2 3 4 5 6\n7\n", false).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("input line 2: expected the opponent"),
            "{error}"
        );
    }

    fn reader(text: &str) -> InputReader<&[u8]> {
        InputReader::new(text.as_bytes())
    }

    #[test]
    fn reads_init_and_turns() {
        let mut input =
            reader("3\n2\n100 200\n-5 7\n1 2 3 4 -1 1\n5 6 7 8 90 0\n0 0 0 0 360 1\n9 9 9 9 0 1\n");
        let init = input.read_init().unwrap().unwrap();
        assert_eq!(init.laps, 3);
        assert_eq!(init.checkpoints, vec![(100, 200), (-5, 7)]);
        let turn = input.read_turn(4, 2).unwrap().unwrap();
        assert_eq!(turn.pods[1].angle_deg, 90);
        assert_eq!(turn.pods[0].angle_deg, -1);
        assert!(input.read_turn(4, 2).unwrap().is_none());
    }

    #[test]
    fn malformed_lines_name_the_line_and_expectation() {
        let error = reader("3\nx\n").read_init().unwrap_err();
        assert_eq!(error.line_number, 2);
        assert!(
            error.to_string().contains("number of checkpoints"),
            "{error}"
        );
        let mut input = reader("3\n2\n1 1\n2 2\n1 2 3 4 5 6\n");
        input.read_init().unwrap();
        let error = input.read_turn(4, 2).unwrap_err();
        assert_eq!(error.line_number, 5);
        let mut input = reader("3\n2\n1 1\n2 2\n1 2 3 4 5 1\n");
        input.read_init().unwrap();
        let error = input.read_turn(4, 2).unwrap_err();
        assert_eq!(error.got, "end of input");
        assert_eq!(error.line_number, 6);
    }

    #[test]
    fn formats_commands() {
        let boost = Command::new(-10, 20, Thrust::Boost);
        assert_eq!(format_command(&boost, ""), "-10 20 BOOST");
        let power = Command::new(1, 2, Thrust::Power(100));
        assert_eq!(format_command(&power, "go"), "1 2 100 go");
    }
}
