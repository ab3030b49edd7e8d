//! What the network's inputs take from the course alone, computed once per game: for each
//! checkpoint, the leg that leaves it ([`Leg`]: its unit direction and the length input). A leaf
//! then looks these up instead of taking a square root and three divisions per pod.

use super::features::Leg;
use crate::engine::rules::MAX_CHECKPOINTS;
use crate::engine::{Map, Vec2};

/// A course as the network sees it: its map and the leg leaving each checkpoint. Build it once
/// per game with [`Course::new`] and pass it to
/// [`Network::player0_logit_on`](super::network::Network::player0_logit_on).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Course {
    pub map: Map,
    legs: [Leg; MAX_CHECKPOINTS],
}

impl Course {
    pub fn new(map: &Map) -> Course {
        let mut legs = [Leg {
            direction: Vec2::new(1.0, 0.0),
            length_input: 0.0,
        }; MAX_CHECKPOINTS];
        for (from, leg) in legs.iter_mut().enumerate().take(map.checkpoint_count()) {
            *leg = Leg::of(map, from);
        }
        Course { map: *map, legs }
    }

    /// The leg leaving checkpoint `from`.
    #[inline(always)]
    pub fn leg(&self, from: usize) -> Leg {
        self.legs[from]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_course_holds_each_checkpoints_leg() {
        let map = Map::new(&[(1000, 1000), (9000, 1000), (9000, 7000)]).unwrap();
        let course = Course::new(&map);
        let first = course.leg(0);
        assert_eq!(first.direction, Vec2::new(1.0, 0.0));
        assert_eq!(first.length_input, 0.8);
        // The last checkpoint's leg goes back to the first: (-8000, -6000), length 10,000.
        let last = course.leg(2);
        assert_eq!(last.direction, Vec2::new(-0.8, -0.6));
        assert_eq!(last.length_input, 1.0);
        for from in 0..3 {
            assert_eq!(course.leg(from), Leg::of(&map, from));
        }
    }
}
