//! The boss-like racer of the leagues below Gold (docs/leagues.md): one pod, the one-pod
//! protocol, no search. Each league adds what its boss is said to do: Wood 3 drives at its
//! next checkpoint at full thrust; Wood 2 cuts the thrust when the checkpoint is more than 90°
//! off its facing; Wood 1 also thrusts less the more it is off, and slows down close to the
//! checkpoint; Bronze BOOSTs once on a long straight; Silver SHIELDs when the opponent is about
//! to hit it. Our own simple racer, not CodinGame's boss.

use csb::engine::League;

/// Wood 1 and up: closer than this to the checkpoint, thrust falls with the distance.
pub const SLOW_DOWN_DISTANCE: f64 = 1500.0;
/// Bronze and up: BOOST when the checkpoint is this far and within this angle.
pub const BOOST_DISTANCE: f64 = 5000.0;
pub const BOOST_ANGLE_DEG: f64 = 5.0;
/// Silver: SHIELD when the opponent's centre will be within this next turn (pods touch at 800).
pub const SHIELD_DISTANCE: f64 = 850.0;

/// One turn's input, as the one-pod protocol gives it (Wood 3: no distance, no angle).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RacerInput {
    pub x: i32,
    pub y: i32,
    pub next_x: i32,
    pub next_y: i32,
    pub distance: Option<i32>,
    pub angle_deg: Option<i32>,
    pub opponent_x: i32,
    pub opponent_y: i32,
}

/// The racer's memory: its boost and the opponent's last position.
#[derive(Clone, Debug)]
pub struct Racer {
    pub league: League,
    boost_used: bool,
    previous: Option<RacerInput>,
}

impl Racer {
    pub fn new(league: League) -> Racer {
        Racer {
            league,
            boost_used: false,
            previous: None,
        }
    }

    /// The output line for a turn.
    pub fn play(&mut self, input: &RacerInput) -> String {
        let league = self.league;
        let angle = input.angle_deg.map_or(0.0, |a| f64::from(a).abs());
        let distance = input.distance.map_or_else(
            || {
                let (dx, dy) = (input.next_x - input.x, input.next_y - input.y);
                f64::from(dx).hypot(f64::from(dy))
            },
            f64::from,
        );
        let thrust = match league {
            League::Wood3 => 100.0,
            League::Wood2 => {
                if angle > 90.0 {
                    0.0
                } else {
                    100.0
                }
            }
            _ => {
                let facing = if angle > 90.0 {
                    0.0
                } else {
                    1.0 - angle / 90.0
                };
                let near = (distance / SLOW_DOWN_DISTANCE).clamp(0.3, 1.0);
                100.0 * facing * near
            }
        };
        let shield = league.has_shield()
            && self.previous.is_some_and(|before| {
                // Both pods' next positions if they keep their last move.
                let next = |x: i32, y: i32, bx: i32, by: i32| (2 * x - bx, 2 * y - by);
                let me = next(input.x, input.y, before.x, before.y);
                let them = next(
                    input.opponent_x,
                    input.opponent_y,
                    before.opponent_x,
                    before.opponent_y,
                );
                f64::from(me.0 - them.0).hypot(f64::from(me.1 - them.1)) < SHIELD_DISTANCE
            });
        let boost = league.has_boost()
            && !self.boost_used
            && distance > BOOST_DISTANCE
            && angle < BOOST_ANGLE_DEG
            && self.previous.is_some();
        self.previous = Some(*input);
        let order = if shield {
            "SHIELD".to_string()
        } else if boost {
            self.boost_used = true;
            "BOOST".to_string()
        } else {
            (thrust.round() as i32).clamp(0, 100).to_string()
        };
        format!("{} {} {order}", input.next_x, input.next_y)
    }
}

/// Parses the pod line (`fields` integers) and the opponent line.
pub fn parse_input(pod_line: &str, opponent_line: &str, fields: usize) -> Option<RacerInput> {
    let numbers = |line: &str| -> Option<Vec<i32>> {
        line.split_whitespace().map(|t| t.parse().ok()).collect()
    };
    let pod = numbers(pod_line)?;
    let opponent = numbers(opponent_line)?;
    if pod.len() != fields || opponent.len() != 2 {
        return None;
    }
    Some(RacerInput {
        x: pod[0],
        y: pod[1],
        next_x: pod[2],
        next_y: pod[3],
        distance: pod.get(4).copied(),
        angle_deg: pod.get(5).copied(),
        opponent_x: opponent[0],
        opponent_y: opponent[1],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(angle: i32, distance: i32) -> RacerInput {
        RacerInput {
            x: 0,
            y: 0,
            next_x: distance,
            next_y: 0,
            distance: Some(distance),
            angle_deg: Some(angle),
            opponent_x: 5000,
            opponent_y: 5000,
        }
    }

    #[test]
    fn each_league_adds_its_move() {
        assert_eq!(
            Racer::new(League::Wood2).play(&input(120, 3000)),
            "3000 0 0"
        );
        assert_eq!(
            Racer::new(League::Wood3).play(&input(120, 3000)),
            "3000 0 100"
        );
        assert_eq!(
            Racer::new(League::Wood1).play(&input(45, 3000)),
            "3000 0 50"
        );
        let mut bronze = Racer::new(League::Bronze);
        assert_eq!(bronze.play(&input(0, 8000)), "8000 0 100");
        assert_eq!(bronze.play(&input(0, 8000)), "8000 0 BOOST");
        assert_eq!(bronze.play(&input(0, 8000)), "8000 0 100");
        let mut wood1 = Racer::new(League::Wood1);
        wood1.play(&input(0, 8000));
        assert_eq!(wood1.play(&input(0, 8000)), "8000 0 100");
    }

    #[test]
    fn silver_shields_before_a_hit() {
        let mut silver = Racer::new(League::Silver);
        let mut first = input(0, 3000);
        (first.opponent_x, first.opponent_y) = (1400, 0);
        silver.play(&first);
        let mut second = first;
        second.opponent_x = 1000;
        assert_eq!(silver.play(&second), "3000 0 SHIELD");
        assert!(parse_input("1 2 3 4", "5 6", 4).is_some());
        assert!(parse_input("1 2 3 4", "5 6", 6).is_none());
    }
}
