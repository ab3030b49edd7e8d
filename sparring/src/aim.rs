//! Aiming helpers shared by the policies: the signed angle between a pod's facing and a point,
//! the fast-path steering that turns toward it (at most 18°), and integral output targets.

use csb::engine::{FastPod, Steering, Vec2};

/// Largest coordinate printed as a target (the output allows up to 9 digits; far targets are
/// never needed, the steering target of the fast path is 10 000 away).
const TARGET_LIMIT: f64 = 1_000_000.0;

/// Signed angle in degrees (−180..=180) from the unit vector `heading` to `direction`; positive
/// turns the same way the game's angle grows (clockwise on screen, y down).
#[inline]
pub fn signed_angle_deg(heading: Vec2, direction: Vec2) -> f64 {
    let cross = heading.x * direction.y - heading.y * direction.x;
    let dot = heading.dot(direction);
    cross.atan2(dot).to_degrees()
}

/// Angle in degrees between the pod's facing and the direction to `target` (0 if it is there).
#[inline]
pub fn angle_to(pod: &FastPod, target: Vec2) -> f64 {
    let direction = target - pod.pos;
    if direction.length_squared() == 0.0 {
        0.0
    } else {
        signed_angle_deg(pod.heading, direction)
    }
}

/// The steering that turns the pod toward `target`, clamped to ±18° the way the game clamps.
#[inline]
pub fn steering_toward(pod: &FastPod, target: Vec2) -> Steering {
    Steering::degrees(angle_to(pod, target))
}

/// A target point rounded to integers for an output line, kept within printable range.
pub fn integral_target(target: Vec2) -> (i32, i32) {
    let clamp = |value: f64| {
        if value.is_finite() {
            value.round().clamp(-TARGET_LIMIT, TARGET_LIMIT) as i32
        } else {
            0
        }
    };
    (clamp(target.x), clamp(target.y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_angle_follows_the_game_convention() {
        let east = Vec2::new(1.0, 0.0);
        // y grows downward: a point below is +90° (the game's 90° is south).
        assert!((signed_angle_deg(east, Vec2::new(0.0, 5.0)) - 90.0).abs() < 1e-9);
        assert!((signed_angle_deg(east, Vec2::new(0.0, -5.0)) + 90.0).abs() < 1e-9);
        assert!((signed_angle_deg(east, Vec2::new(-1.0, 0.0)).abs() - 180.0).abs() < 1e-9);
    }

    #[test]
    fn integral_targets_are_clamped() {
        assert_eq!(integral_target(Vec2::new(1.4, -2.6)), (1, -3));
        assert_eq!(integral_target(Vec2::new(1e12, f64::NAN)), (1_000_000, 0));
    }
}
