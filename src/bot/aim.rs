//! Steering relative to a goal instead of to the current facing.
//!
//! An aimed action turns a pod toward its goal's direction rotated by a fixed offset, as far as
//! the 18° per turn allow (§4.2), with unit vectors only (no trigonometry on the hot path). A
//! runner's goal is its next checkpoint, a blocker's the opposing runner's next checkpoint, so a
//! randomly chosen aimed action still heads somewhere useful: the search's random plies (a node's
//! first visits, and everything below its expanded part) make progress instead of drifting.

use crate::engine::rules::MAX_ROTATION;
use crate::engine::Vec2;

/// A fixed rotation, as the cosine and sine of its angle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rotation {
    pub cos: f64,
    pub sin: f64,
}

impl Rotation {
    pub const IDENTITY: Rotation = Rotation { cos: 1.0, sin: 0.0 };

    pub fn degrees(angle_deg: f64) -> Rotation {
        let angle_rad = angle_deg.to_radians();
        Rotation {
            cos: angle_rad.cos(),
            sin: angle_rad.sin(),
        }
    }

    #[inline(always)]
    pub fn apply(self, direction: Vec2) -> Vec2 {
        Vec2::new(
            direction.x * self.cos - direction.y * self.sin,
            direction.x * self.sin + direction.y * self.cos,
        )
    }
}

/// The largest turn in one step (§4.2), and its mirror image.
fn max_turn(sign: f64) -> Rotation {
    Rotation {
        cos: MAX_ROTATION.cos(),
        sin: sign * MAX_ROTATION.sin(),
    }
}

/// The facing after one turn of a pod facing `heading` (a unit vector) at `position` that aims
/// at `goal`'s direction turned by `offset`. A goal on the pod itself keeps the facing.
#[inline(always)]
pub fn aimed_heading(heading: Vec2, position: Vec2, goal: Vec2, offset: Rotation) -> Vec2 {
    let towards = goal - position;
    let length_squared = towards.length_squared();
    if length_squared == 0.0 {
        return heading;
    }
    let wanted = offset.apply(towards * (1.0 / length_squared.sqrt()));
    let cos = heading.dot(wanted);
    if cos >= COS_MAX_ROTATION {
        return wanted;
    }
    let cross = heading.x * wanted.y - heading.y * wanted.x;
    let sign = if cross < 0.0 { -1.0 } else { 1.0 };
    max_turn(sign).apply(heading)
}

/// cos 18°: a wanted direction at least this aligned with the facing is reached in one turn.
const COS_MAX_ROTATION: f64 = 0.951_056_516_295_153_5;

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vec2, b: Vec2) -> bool {
        (a.x - b.x).abs() < 1e-12 && (a.y - b.y).abs() < 1e-12
    }

    #[test]
    fn the_constant_is_cos_18_degrees() {
        assert!((COS_MAX_ROTATION - MAX_ROTATION.cos()).abs() < 1e-15);
    }

    #[test]
    fn a_goal_within_18_degrees_is_faced_exactly() {
        let heading = Vec2::new(1.0, 0.0);
        let goal = Vec2::new(1000.0, 200.0);
        let turned = aimed_heading(heading, Vec2::ZERO, goal, Rotation::IDENTITY);
        assert!(close(turned, goal * (1.0 / goal.length())));
    }

    #[test]
    fn a_goal_behind_turns_18_degrees_toward_it() {
        let heading = Vec2::new(1.0, 0.0);
        let left = aimed_heading(
            heading,
            Vec2::ZERO,
            Vec2::new(-10.0, 5.0),
            Rotation::IDENTITY,
        );
        assert!(close(left, Rotation::degrees(18.0).apply(heading)));
        let right = aimed_heading(
            heading,
            Vec2::ZERO,
            Vec2::new(-10.0, -5.0),
            Rotation::IDENTITY,
        );
        assert!(close(right, Rotation::degrees(-18.0).apply(heading)));
    }

    #[test]
    fn an_offset_turns_the_wanted_direction() {
        let heading = Vec2::new(0.0, 1.0);
        let goal = Vec2::new(0.0, 5000.0);
        let turned = aimed_heading(heading, Vec2::ZERO, goal, Rotation::degrees(-9.0));
        assert!(close(turned, Rotation::degrees(-9.0).apply(heading)));
        let same = aimed_heading(heading, goal, goal, Rotation::degrees(-9.0));
        assert_eq!(same, heading);
    }
}
