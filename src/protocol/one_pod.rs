//! The protocol of the leagues below Gold (feature `one-pod`, docs/leagues.md): no
//! initialisation block, per turn the own pod's line (four integers in Wood 3, six after) and
//! the opponent's position.

use super::{InputReader, ParseError};
use std::io::BufRead;
use std::time::Instant;

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

impl<R: BufRead> InputReader<R> {
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
}
