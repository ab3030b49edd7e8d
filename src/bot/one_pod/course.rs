//! The course as a one-pod bot learns it (leagues below Gold, docs/leagues.md): no
//! initialisation lines, only the next checkpoint each turn. Each new next checkpoint is added
//! to the list; when the first one comes round again the lap is done and the whole list and its
//! count are known. The start (checkpoint 0) is the last checkpoint of the lap.
//!
//! The opponent's next checkpoint is not given either: its passes are counted from its trail of
//! positions against the checkpoints learnt so far (a segment of its trail within the checkpoint
//! radius of its next checkpoint is a pass, csb-rules.md §4.7), so a pass of a checkpoint we had
//! not seen yet is counted as soon as we learn that checkpoint.

use crate::engine::rules::CHECKPOINT_RADIUS;
use crate::engine::Vec2;

#[derive(Clone, Debug, Default)]
pub struct Course {
    /// Checkpoints 1, 2, … in the order they were first our next checkpoint.
    seen: Vec<(i32, i32)>,
    complete: bool,
    last_next: Option<(i32, i32)>,
    /// Our checkpoints passed since the start.
    pub passes: u16,
    /// The opponent's checkpoints passed, counted from its trail.
    pub opponent_passes: u16,
    /// The opponent's positions since its last counted pass (the first one included).
    opponent_trail: Vec<(i32, i32)>,
}

impl Course {
    pub fn new() -> Course {
        Course::default()
    }

    /// Takes in a turn: our next checkpoint and the opponent's position.
    pub fn observe(&mut self, next: (i32, i32), opponent: (i32, i32)) {
        if self.last_next != Some(next) {
            if let Some(last) = self.last_next {
                self.passes += self.advance(last, next);
            }
            self.last_next = Some(next);
            if !self.complete {
                if self.seen.len() >= 2 && self.seen[0] == next {
                    self.complete = true;
                } else if !self.seen.contains(&next) {
                    self.seen.push(next);
                }
            }
        }
        self.opponent_trail.push(opponent);
        self.count_opponent_passes();
    }

    /// Passes from next checkpoint `from` to `to`: one, or more once the course is known and
    /// the pod skipped through several in a turn.
    fn advance(&self, from: (i32, i32), to: (i32, i32)) -> u16 {
        let index = |point| self.seen.iter().position(|&seen| seen == point);
        match (self.complete, index(from), index(to)) {
            (true, Some(a), Some(b)) => ((b + self.seen.len() - a) % self.seen.len()).max(1) as u16,
            _ => 1,
        }
    }

    fn count_opponent_passes(&mut self) {
        // At most a lap a turn: once the lap is known, a trail segment within the radius of
        // every checkpoint (all of them close together) would otherwise pass them round and
        // round without end (found by fuzzing, fuzz/regressions/bot_one_pod/).
        for _ in 0..self.seen.len() {
            let Some(target) = self.checkpoint_after(self.opponent_passes) else {
                break;
            };
            let target = Vec2::new(f64::from(target.0), f64::from(target.1));
            let point = |p: (i32, i32)| Vec2::new(f64::from(p.0), f64::from(p.1));
            let hit = self.opponent_trail.windows(2).position(|segment| {
                distance_to_segment(target, point(segment[0]), point(segment[1]))
                    <= CHECKPOINT_RADIUS
            });
            match hit {
                Some(segment) => {
                    self.opponent_passes += 1;
                    self.opponent_trail.drain(..segment);
                }
                None => break,
            }
        }
        // The trail before the last position is only needed while a pass may be pending.
        if self.opponent_trail.len() > 1000 {
            self.opponent_trail.drain(..self.opponent_trail.len() - 1);
        }
    }

    /// The checkpoint a pod with `passes` passes heads for, if known.
    pub fn checkpoint_after(&self, passes: u16) -> Option<(i32, i32)> {
        let index = passes as usize;
        if self.complete {
            Some(self.seen[index % self.seen.len()])
        } else {
            self.seen.get(index).copied()
        }
    }

    /// Whether a whole lap has been seen.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The checkpoints in CodinGame's order (checkpoint 0 = the start) once a lap is known.
    pub fn checkpoints(&self) -> Option<Vec<(i32, i32)>> {
        if !self.complete {
            return None;
        }
        let count = self.seen.len();
        Some(
            (0..count)
                .map(|index| self.seen[(index + count - 1) % count])
                .collect(),
        )
    }
}

/// Distance from `point` to the segment `a`–`b` (Java's `Line2D.ptSegDist`).
fn distance_to_segment(point: Vec2, a: Vec2, b: Vec2) -> f64 {
    let along = b - a;
    let length_squared = along.dot(along);
    let t = if length_squared == 0.0 {
        0.0
    } else {
        ((point - a).dot(along) / length_squared).clamp(0.0, 1.0)
    };
    point.distance(a + along * t)
}

#[cfg(test)]
mod tests {
    use super::*;

    const C0: (i32, i32) = (1000, 1000);
    const C1: (i32, i32) = (9000, 1000);
    const C2: (i32, i32) = (9000, 8000);

    #[test]
    fn learns_the_course_after_one_lap() {
        let mut course = Course::new();
        let far = (-5000, -5000);
        for next in [C1, C1, C2, C2, C0] {
            course.observe(next, far);
            assert!(!course.is_complete());
            assert_eq!(course.checkpoints(), None);
        }
        assert_eq!(course.passes, 2);
        assert_eq!(course.checkpoint_after(1), Some(C2));
        assert_eq!(course.checkpoint_after(3), None);
        course.observe(C1, far);
        assert!(course.is_complete());
        assert_eq!(course.passes, 3);
        assert_eq!(course.checkpoints(), Some(vec![C0, C1, C2]));
        assert_eq!(course.checkpoint_after(3), Some(C1));
        assert_eq!(course.opponent_passes, 0);
    }

    #[test]
    fn counts_at_most_a_lap_a_turn() {
        // Two checkpoints 100 apart: once the lap is known, the opponent's segment through
        // both is within the radius of each, turn after turn.
        let (a, b) = ((5000, 5000), (5100, 5000));
        let mut course = Course::new();
        for next in [a, b, a] {
            course.observe(next, (5050, 5000));
        }
        assert!(course.is_complete());
        let before = course.opponent_passes;
        course.observe(b, (5060, 5000));
        assert!(course.opponent_passes - before <= 2);
    }

    #[test]
    fn counts_the_opponents_passes_from_its_trail_even_late() {
        let mut course = Course::new();
        // The opponent drives through C1 then C2 while we still head for C1.
        course.observe(C1, (2000, 1000));
        course.observe(C1, (8800, 1200));
        assert_eq!(course.opponent_passes, 1);
        course.observe(C1, (9000, 5000));
        course.observe(C1, (9100, 7600));
        // C2 is not known yet: its pass is pending.
        assert_eq!(course.opponent_passes, 1);
        course.observe(C2, (9000, 6000));
        assert_eq!(course.opponent_passes, 2);
    }
}
