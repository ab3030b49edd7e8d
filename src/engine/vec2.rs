//! Plane geometry in `f64`, evaluated in the operand order the referee uses (csb-rules.md §8).

use std::ops::{Add, Mul, Sub};

/// A point or a vector of the 16000 × 9000 board (y grows downward).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec2 {
    pub x: f64,
    pub y: f64,
}

impl Vec2 {
    pub const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };

    #[inline(always)]
    pub const fn new(x: f64, y: f64) -> Vec2 {
        Vec2 { x, y }
    }

    #[inline(always)]
    pub fn dot(self, other: Vec2) -> f64 {
        self.x * other.x + self.y * other.y
    }

    #[inline(always)]
    pub fn length_squared(self) -> f64 {
        self.x * self.x + self.y * self.y
    }

    #[inline(always)]
    pub fn length(self) -> f64 {
        self.length_squared().sqrt()
    }

    #[inline(always)]
    pub fn distance(self, other: Vec2) -> f64 {
        (self - other).length()
    }

    #[inline(always)]
    pub fn distance_squared(self, other: Vec2) -> f64 {
        (self - other).length_squared()
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    #[inline(always)]
    fn add(self, other: Vec2) -> Vec2 {
        Vec2::new(self.x + other.x, self.y + other.y)
    }
}

impl Sub for Vec2 {
    type Output = Vec2;
    #[inline(always)]
    fn sub(self, other: Vec2) -> Vec2 {
        Vec2::new(self.x - other.x, self.y - other.y)
    }
}

impl Mul<f64> for Vec2 {
    type Output = Vec2;
    #[inline(always)]
    fn mul(self, factor: f64) -> Vec2 {
        Vec2::new(self.x * factor, self.y * factor)
    }
}

/// Distance from `point` to the segment `start`–`end`, computed like Java's `Line2D.ptSegDist`
/// (csb-rules.md §4.7): project, clamp to the ends, square root of the squared distance.
pub fn point_segment_distance(start: Vec2, end: Vec2, point: Vec2) -> f64 {
    point_segment_distance_squared(start, end, point).sqrt()
}

/// The squared distance of [`point_segment_distance`], same operation order.
pub fn point_segment_distance_squared(start: Vec2, end: Vec2, point: Vec2) -> f64 {
    let seg_x = end.x - start.x;
    let seg_y = end.y - start.y;
    let mut rel_x = point.x - start.x;
    let mut rel_y = point.y - start.y;
    let mut dot = rel_x * seg_x + rel_y * seg_y;
    let projected_squared = if dot <= 0.0 {
        0.0
    } else {
        rel_x = seg_x - rel_x;
        rel_y = seg_y - rel_y;
        dot = rel_x * seg_x + rel_y * seg_y;
        if dot <= 0.0 {
            0.0
        } else {
            dot * dot / (seg_x * seg_x + seg_y * seg_y)
        }
    };
    let squared = rel_x * rel_x + rel_y * rel_y - projected_squared;
    if squared < 0.0 {
        0.0
    } else {
        squared
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_distance_clamps_to_the_ends() {
        let a = Vec2::new(0.0, 0.0);
        let b = Vec2::new(10.0, 0.0);
        assert_eq!(point_segment_distance(a, b, Vec2::new(5.0, 3.0)), 3.0);
        assert_eq!(point_segment_distance(a, b, Vec2::new(-3.0, 4.0)), 5.0);
        assert_eq!(point_segment_distance(a, b, Vec2::new(13.0, 4.0)), 5.0);
        assert_eq!(point_segment_distance(a, a, Vec2::new(3.0, 4.0)), 5.0);
    }
}
