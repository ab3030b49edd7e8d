//! The protocol of Gold and Legend (feature `two-pod`, csb-rules.md §3): the initialisation
//! block (laps, checkpoints), then four pod lines a turn.

use super::{InputReader, ParseError};
use crate::engine::rules::POD_COUNT;
use crate::engine::PodObservation;
use std::io::BufRead;
use std::time::Instant;

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

impl<R: BufRead> InputReader<R> {
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
        let mut pods = [PodObservation::BLANK; POD_COUNT];
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_first_line_of_the_one_pod_protocol_says_so() {
        let error = InputReader::new("1 2 3 4 5 6\n".as_bytes())
            .read_init()
            .unwrap_err();
        assert!(
            error
                .to_string()
                .contains("looks like the Wood 2 to Silver"),
            "{error}"
        );
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
}
