//! The GA's genome: a plan is a sequence of moves for each own pod, each move a steering angle in
//! [−18°, 18°] and a thrust in [0, cap] (or, rarely, BOOST or SHIELD), stored directly as fast-path
//! actions so a simulation never recomputes a rotation. The operators: a random plan, mutation of
//! one move (a fresh value or a small step, always kept in range), uniform crossover per move, and
//! the shift that turns last turn's best plan into a seed for this turn.

use crate::rng::Rng;
use csb::engine::{FastAction, Steering, Thrust};

/// Longest plan, in turns.
pub const MAX_DEPTH: usize = 6;
/// Largest steering per turn, degrees.
pub const MAX_STEER_DEG: f64 = 18.0;

/// How moves are drawn and mutated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GeneParams {
    /// Largest integer thrust (the league cap).
    pub cap: u16,
    /// Probability that a thrust draw gives SHIELD.
    pub shield_chance: f64,
    /// Probability that a thrust draw gives BOOST (only for a pod that still has it).
    pub boost_chance: f64,
    /// Probability that a mutation draws a fresh value rather than a small step.
    pub fresh_chance: f64,
    /// Largest step of a small angle mutation, degrees.
    pub angle_step_deg: f64,
    /// Largest step of a small thrust mutation, as a fraction of the cap.
    pub thrust_step: f64,
    /// Probability that a fresh thrust is exactly the cap (full speed is the common good move).
    pub full_thrust_chance: f64,
}

impl GeneParams {
    pub fn new(cap: u16) -> GeneParams {
        GeneParams {
            cap,
            shield_chance: 0.02,
            boost_chance: 0.02,
            fresh_chance: 0.4,
            angle_step_deg: 5.0,
            thrust_step: 0.25,
            full_thrust_chance: 0.3,
        }
    }
}

/// Moves of both own pods for the coming turns; only the first `depth` are used.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    pub moves: [[FastAction; MAX_DEPTH]; 2],
}

/// The steering angle of a move in degrees.
pub fn steer_deg(action: &FastAction) -> f64 {
    action.steering.angle_rad.to_degrees()
}

fn fresh_angle(rng: &mut Rng) -> f64 {
    rng.range(-MAX_STEER_DEG, MAX_STEER_DEG)
}

fn fresh_thrust(rng: &mut Rng, params: &GeneParams, can_boost: bool) -> Thrust {
    let roll = rng.unit();
    if roll < params.shield_chance {
        Thrust::Shield
    } else if can_boost && roll < params.shield_chance + params.boost_chance {
        Thrust::Boost
    } else if rng.chance(params.full_thrust_chance) {
        Thrust::Power(params.cap)
    } else {
        Thrust::Power(rng.below(u32::from(params.cap) + 1) as u16)
    }
}

/// A move with uniformly drawn values.
pub fn random_move(rng: &mut Rng, params: &GeneParams, can_boost: bool) -> FastAction {
    FastAction {
        steering: Steering::degrees(fresh_angle(rng)),
        thrust: fresh_thrust(rng, params, can_boost),
    }
}

/// Mutates one field (angle or thrust) of one move in place.
pub fn mutate_move(action: &mut FastAction, rng: &mut Rng, params: &GeneParams, can_boost: bool) {
    let fresh = rng.chance(params.fresh_chance);
    if rng.chance(0.5) {
        let angle = if fresh {
            fresh_angle(rng)
        } else {
            steer_deg(action) + rng.range(-params.angle_step_deg, params.angle_step_deg)
        };
        action.steering = Steering::degrees(angle.clamp(-MAX_STEER_DEG, MAX_STEER_DEG));
    } else {
        action.thrust = match action.thrust {
            Thrust::Power(power) if !fresh => {
                let cap = f64::from(params.cap);
                let step = rng.range(-params.thrust_step, params.thrust_step) * cap;
                Thrust::Power((f64::from(power) + step).round().clamp(0.0, cap) as u16)
            }
            _ => fresh_thrust(rng, params, can_boost),
        };
    }
}

impl Plan {
    /// A plan of random moves.
    pub fn random(rng: &mut Rng, params: &GeneParams, can_boost: [bool; 2]) -> Plan {
        let mut plan = Plan::straight(params.cap);
        for (pod, moves) in plan.moves.iter_mut().enumerate() {
            for action in moves.iter_mut() {
                *action = random_move(rng, params, can_boost[pod]);
            }
        }
        plan
    }

    /// Straight ahead at full thrust.
    pub fn straight(cap: u16) -> Plan {
        let action = FastAction {
            steering: Steering::degrees(0.0),
            thrust: Thrust::Power(cap),
        };
        Plan {
            moves: [[action; MAX_DEPTH]; 2],
        }
    }

    /// Mutates one move of one pod among the first `depth`.
    pub fn mutate(
        &mut self,
        rng: &mut Rng,
        params: &GeneParams,
        depth: usize,
        can_boost: [bool; 2],
    ) {
        let pod = rng.below(2) as usize;
        let turn = rng.below(depth.clamp(1, MAX_DEPTH) as u32) as usize;
        mutate_move(&mut self.moves[pod][turn], rng, params, can_boost[pod]);
    }

    /// Uniform crossover: each (pod, turn) move comes from `self` or `other` with equal chance.
    pub fn crossover(&self, other: &Plan, rng: &mut Rng) -> Plan {
        let mut child = *self;
        for pod in 0..2 {
            for turn in 0..MAX_DEPTH {
                if rng.chance(0.5) {
                    child.moves[pod][turn] = other.moves[pod][turn];
                }
            }
        }
        child
    }

    /// The plan one turn later: drop the first move, repeat the last; a spent BOOST in the kept
    /// moves becomes full thrust.
    pub fn shifted(&self, cap: u16, can_boost: [bool; 2]) -> Plan {
        let mut next = *self;
        for (pod, moves) in next.moves.iter_mut().enumerate() {
            moves.copy_within(1.., 0);
            moves[MAX_DEPTH - 1] = moves[MAX_DEPTH - 2];
            if !can_boost[pod] {
                for action in moves.iter_mut() {
                    if action.thrust == Thrust::Boost {
                        action.thrust = Thrust::Power(cap);
                    }
                }
            }
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn in_range(action: &FastAction, cap: u16, can_boost: bool) -> bool {
        let angle_ok = steer_deg(action).abs() <= MAX_STEER_DEG + 1e-9;
        let thrust_ok = match action.thrust {
            Thrust::Power(power) => power <= cap,
            Thrust::Shield => true,
            Thrust::Boost => can_boost,
        };
        angle_ok && thrust_ok
    }

    #[test]
    fn mutation_keeps_values_in_range() {
        for cap in [100, 200] {
            let params = GeneParams::new(cap);
            let mut rng = Rng::new(cap as u64);
            let can_boost = [true, false];
            let mut plan = Plan::random(&mut rng, &params, can_boost);
            let mut specials = 0;
            let mut saw_cap = false;
            for _ in 0..20_000 {
                plan.mutate(&mut rng, &params, MAX_DEPTH, can_boost);
                for (pod, moves) in plan.moves.iter().enumerate() {
                    for action in moves {
                        assert!(in_range(action, cap, can_boost[pod]), "{action:?}");
                        specials += usize::from(!matches!(action.thrust, Thrust::Power(_)));
                        saw_cap |= action.thrust == Thrust::Power(cap);
                    }
                }
            }
            assert!(specials > 0 && saw_cap);
        }
    }

    #[test]
    fn mutation_changes_exactly_one_move_within_depth() {
        let params = GeneParams::new(200);
        let mut rng = Rng::new(5);
        for _ in 0..1000 {
            let before = Plan::random(&mut rng, &params, [true, true]);
            let mut after = before;
            after.mutate(&mut rng, &params, 4, [true, true]);
            let mut changed = 0;
            for pod in 0..2 {
                for turn in 0..MAX_DEPTH {
                    if before.moves[pod][turn] != after.moves[pod][turn] {
                        assert!(turn < 4);
                        changed += 1;
                    }
                }
            }
            assert!(changed <= 1);
        }
    }

    #[test]
    fn crossover_takes_every_move_from_a_parent() {
        let params = GeneParams::new(200);
        let mut rng = Rng::new(9);
        let a = Plan::random(&mut rng, &params, [true, true]);
        let b = Plan::random(&mut rng, &params, [true, true]);
        let (mut from_a, mut from_b) = (0, 0);
        for _ in 0..200 {
            let child = a.crossover(&b, &mut rng);
            for pod in 0..2 {
                for turn in 0..MAX_DEPTH {
                    let action = child.moves[pod][turn];
                    if action == a.moves[pod][turn] {
                        from_a += 1;
                    } else {
                        assert_eq!(action, b.moves[pod][turn]);
                        from_b += 1;
                    }
                }
            }
        }
        assert!(from_a > 1000 && from_b > 1000, "{from_a} {from_b}");
    }

    #[test]
    fn shift_drops_the_first_move_and_spent_boosts() {
        let params = GeneParams::new(200);
        let mut rng = Rng::new(3);
        let mut plan = Plan::random(&mut rng, &params, [true, true]);
        plan.moves[1][2].thrust = Thrust::Boost;
        let next = plan.shifted(200, [true, false]);
        for pod in 0..2 {
            assert_eq!(
                next.moves[pod][MAX_DEPTH - 1],
                next.moves[pod][MAX_DEPTH - 2]
            );
        }
        assert_eq!(next.moves[0][..MAX_DEPTH - 1], plan.moves[0][1..]);
        assert_eq!(next.moves[1][1].thrust, Thrust::Power(200));
    }
}
