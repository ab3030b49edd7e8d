//! The racing policy of the one-pod leagues, for what the search cannot plan yet: during the
//! first lap the checkpoint after next is unknown (docs/leagues.md), so the pod races without
//! search. It aims at its next checkpoint minus [`SPEED_COMPENSATION_TURNS`] turns of its speed
//! (so it bends its path instead of orbiting), thrusts in proportion to how well it faces that
//! aim (none beyond 90°), and BOOSTs once, on a long straight it faces.

use crate::engine::rules::MAX_ROTATION;
use crate::engine::{Command, League, Thrust, Vec2};

/// Turns of the current speed subtracted from the aim.
pub const SPEED_COMPENSATION_TURNS: f64 = 3.0;

/// A BOOST only when the next checkpoint is this far and within [`BOOST_MAX_ANGLE_RAD`].
pub const BOOST_MIN_DISTANCE: f64 = 5000.0;
pub const BOOST_MAX_ANGLE_RAD: f64 = 0.1;

/// What the racing policy needs to know of its pod.
#[derive(Clone, Copy, Debug)]
pub struct RacingView {
    pub pos: Vec2,
    pub vel: Vec2,
    /// Facing in radians, `None` before the first move (the pod then faces its target at once).
    pub facing_rad: Option<f64>,
    pub next_checkpoint: Vec2,
    pub boost_available: bool,
}

/// The racing command for `view` in `league` (never an action the league lacks).
pub fn racing_command(view: &RacingView, league: League) -> Command {
    let aim = view.next_checkpoint - view.vel * SPEED_COMPENSATION_TURNS;
    let wanted = aim - view.pos;
    let wanted_rad = wanted.y.atan2(wanted.x);
    let off_rad = match view.facing_rad {
        None => 0.0,
        Some(facing) => {
            let turned = (wanted_rad - facing + 3.0 * std::f64::consts::PI)
                % (2.0 * std::f64::consts::PI)
                - std::f64::consts::PI;
            // The pod turns up to 18° first, then thrusts along its new facing.
            (turned.abs() - MAX_ROTATION).max(0.0)
        }
    };
    let cap = f64::from(league.max_thrust());
    let distance = view.pos.distance(view.next_checkpoint);
    let thrust = if off_rad >= std::f64::consts::FRAC_PI_2 {
        Thrust::Power(0)
    } else if league.has_boost()
        && view.boost_available
        && distance > BOOST_MIN_DISTANCE
        && off_rad < BOOST_MAX_ANGLE_RAD
        && view.facing_rad.is_some()
    {
        Thrust::Boost
    } else {
        Thrust::Power((cap * off_rad.cos()).round().clamp(0.0, cap) as u16)
    };
    Command::new(aim.x.round() as i32, aim.y.round() as i32, thrust)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(facing_rad: Option<f64>, distance: f64) -> RacingView {
        RacingView {
            pos: Vec2::new(0.0, 0.0),
            vel: Vec2::ZERO,
            facing_rad,
            next_checkpoint: Vec2::new(distance, 0.0),
            boost_available: true,
        }
    }

    #[test]
    fn full_thrust_when_facing_none_when_facing_away() {
        let facing = racing_command(&view(Some(0.0), 3000.0), League::Wood2);
        assert_eq!(facing.thrust, Thrust::Power(100));
        assert_eq!(facing.target, Vec2::new(3000.0, 0.0));
        let away = racing_command(&view(Some(3.0), 3000.0), League::Wood2);
        assert_eq!(away.thrust, Thrust::Power(0));
    }

    #[test]
    fn boosts_on_a_long_straight_only_where_the_league_allows() {
        let long = view(Some(0.0), 8000.0);
        assert_eq!(racing_command(&long, League::Bronze).thrust, Thrust::Boost);
        assert_eq!(
            racing_command(&long, League::Wood1).thrust,
            Thrust::Power(100)
        );
        let spent = RacingView {
            boost_available: false,
            ..long
        };
        assert_eq!(
            racing_command(&spent, League::Silver).thrust,
            Thrust::Power(100)
        );
    }
}
