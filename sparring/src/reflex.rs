//! The reflex policy: no search, one look at the current state.
//!
//! The runner (the own pod ahead in race progress) aims at its next checkpoint minus three times
//! its velocity, which cancels most of the drift; when its coasting path already crosses the
//! checkpoint it turns toward the one after. Thrust falls off with the angle to the target, and it
//! boosts once, on a long straight while facing the checkpoint. The blocker (the pod behind) goes
//! after the opponent's leader: when it can get to that pod's next checkpoint first it waits
//! there and then rams the leader's predicted position, otherwise it heads for the checkpoint
//! after. It shields when a hard collision with an opponent pod is due next turn.
//!
//! The policy works on fast-path pods, own first, so the bot uses it on the real input and the GA
//! uses it to predict the opponent inside its simulations (with the sides swapped).

use crate::aim::{angle_to, integral_target, steering_toward};
use crate::bot::Bot;
use crate::memory::Memory;
use crate::pods::fast_pods;
use crate::world::{leader, POD_COUNT};
use csb::engine::{Command, FastAction, FastPod, Map, PodObservation, Thrust, Vec2};
use std::time::Instant;

/// How many turns of velocity the runner's aim point is moved back by.
pub const SPEED_COMPENSATION: f64 = 3.0;
/// Coasting distance as a multiple of the velocity: 1 + 0.85 + 0.85² (three turns of friction).
const COAST_FACTOR: f64 = 2.5725;
/// The coasting path must pass this close to the checkpoint centre to turn early (radius 600).
const COAST_MARGIN: f64 = 500.0;
/// BOOST only when the checkpoint is at least this far and within this angle.
pub const BOOST_MIN_DISTANCE: f64 = 5000.0;
pub const BOOST_MAX_ANGLE_DEG: f64 = 5.0;
/// Full thrust up to this angle to the target, none from [`NO_THRUST_ANGLE_DEG`], linear between.
const FULL_THRUST_ANGLE_DEG: f64 = 20.0;
const NO_THRUST_ANGLE_DEG: f64 = 90.0;
/// The blocker rams the opponent leader once this close to it.
const RAM_DISTANCE: f64 = 3000.0;
/// While waiting at a checkpoint the blocker slows down inside this distance.
const WAIT_DISTANCE: f64 = 2000.0;
/// SHIELD when two pods' coasting positions next turn are this close and closing this fast.
const SHIELD_DISTANCE: f64 = 850.0;
const SHIELD_MIN_RELATIVE_SPEED: f64 = 300.0;

/// What the policy wants of one pod: a point to aim at and a thrust.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Order {
    pub target: Vec2,
    pub thrust: Thrust,
}

impl Order {
    /// The output command.
    pub fn to_command(&self) -> Command {
        let (x, y) = integral_target(self.target);
        Command::new(x, y, self.thrust)
    }

    /// The same order for the fast path: turn toward the target (at most 18°), same thrust.
    pub fn to_action(&self, pod: &FastPod) -> FastAction {
        FastAction {
            steering: steering_toward(pod, self.target),
            thrust: self.thrust,
        }
    }
}

/// Fraction of the full thrust for an angle (degrees) between facing and target.
pub fn thrust_factor(angle_deg: f64) -> f64 {
    let angle = angle_deg.abs();
    ((NO_THRUST_ANGLE_DEG - angle) / (NO_THRUST_ANGLE_DEG - FULL_THRUST_ANGLE_DEG)).clamp(0.0, 1.0)
}

fn power(cap: u16, factor: f64) -> Thrust {
    Thrust::Power((f64::from(cap) * factor.clamp(0.0, 1.0)).round() as u16)
}

/// The runner's order: compensated aim at the next checkpoint (or the one after when coasting
/// gets it there), thrust by angle, one BOOST on a long straight.
pub fn runner_order(pod: &FastPod, map: &Map, cap: u16) -> Order {
    let count = map.checkpoint_count();
    let next = pod.next_checkpoint as usize;
    let checkpoint = map.checkpoint(next);
    let coast_end = pod.pos + pod.vel * COAST_FACTOR;
    let coasting_passes =
        csb::engine::vec2::point_segment_distance(pod.pos, coast_end, checkpoint) < COAST_MARGIN;
    let aim_at = if coasting_passes {
        map.checkpoint((next + 1) % count)
    } else {
        checkpoint
    };
    let target = aim_at - pod.vel * SPEED_COMPENSATION;
    let angle = angle_to(pod, target);
    let thrust = if !pod.boost_used
        && !coasting_passes
        && pod.shield_lock_turns == 0
        && angle.abs() < BOOST_MAX_ANGLE_DEG
        && pod.pos.distance(checkpoint) > BOOST_MIN_DISTANCE
    {
        Thrust::Boost
    } else {
        power(cap, thrust_factor(angle))
    };
    Order { target, thrust }
}

/// Whether pod `index` is about to hit an opponent pod hard (coasting positions next turn).
pub fn collision_imminent(pods: &[FastPod; POD_COUNT], index: usize) -> bool {
    let own = &pods[index];
    let own_next = own.pos + own.vel;
    pods[2..].iter().any(|other| {
        let other_next = other.pos + other.vel;
        own_next.distance(other_next) < SHIELD_DISTANCE
            && (own.vel - other.vel).length() > SHIELD_MIN_RELATIVE_SPEED
    })
}

/// The blocker's order: get in the way of the opponent leader, shield before a hard hit.
pub fn blocker_order(pods: &[FastPod; POD_COUNT], index: usize, map: &Map, cap: u16) -> Order {
    let pod = &pods[index];
    let count = map.checkpoint_count();
    let target_pod = &pods[leader(map, pods, 2)];
    let their_next = map.checkpoint(target_pod.next_checkpoint as usize);
    let ahead_of_them = pod.pos.distance(their_next) < target_pod.pos.distance(their_next);
    let (target, factor) = if ahead_of_them {
        let gap = pod.pos.distance(target_pod.pos);
        if gap < RAM_DISTANCE {
            let closing = (pod.vel - target_pod.vel).length().max(100.0);
            let turns = (gap / closing).clamp(1.0, 4.0);
            let meet = target_pod.pos + target_pod.vel * turns;
            (meet - pod.vel, 1.0)
        } else {
            let wait = (pod.pos.distance(their_next) / WAIT_DISTANCE).min(1.0);
            (their_next - pod.vel * SPEED_COMPENSATION, wait)
        }
    } else {
        let after = map.checkpoint((target_pod.next_checkpoint as usize + 1) % count);
        (after - pod.vel * SPEED_COMPENSATION, 1.0)
    };
    let thrust = if collision_imminent(pods, index) {
        Thrust::Shield
    } else {
        power(cap, factor * thrust_factor(angle_to(pod, target)))
    };
    Order { target, thrust }
}

/// Orders for both own pods (pods 0 and 1 of `pods`), `runner` being 0 or 1.
pub fn decide(pods: &[FastPod; POD_COUNT], runner: usize, map: &Map, cap: u16) -> [Order; 2] {
    let blocker = 1 - runner;
    let mut orders = [Order {
        target: Vec2::ZERO,
        thrust: Thrust::Power(0),
    }; 2];
    orders[runner] = runner_order(&pods[runner], map, cap);
    orders[blocker] = blocker_order(pods, blocker, map, cap);
    orders
}

/// The policy as fast-path actions for both own pods, the runner being the pod ahead (used to
/// predict an opponent inside simulations).
#[inline]
pub fn fast_actions(pods: &[FastPod; POD_COUNT], map: &Map, cap: u16) -> [FastAction; 2] {
    let runner = leader(map, pods, 0);
    let orders = decide(pods, runner, map, cap);
    [orders[0].to_action(&pods[0]), orders[1].to_action(&pods[1])]
}

/// The reflex policy as a bot: deterministic, no state beyond the shared memory.
#[derive(Clone, Copy, Debug)]
pub struct ReflexBot {
    pub cap: u16,
}

impl Bot for ReflexBot {
    fn decide(
        &mut self,
        memory: &Memory,
        observations: &[PodObservation; POD_COUNT],
        _started: Instant,
    ) -> [Command; 2] {
        let map = memory.map();
        let mut pods = fast_pods(memory, observations);
        let mut orders = decide(&pods, memory.runner, &map, self.cap);
        // A pod whose angle is still unset faces its target exactly on this move (no 18° limit):
        // decide again with it already facing there, so its thrust is not cut for the angle.
        let mut unset = false;
        for (index, order) in orders.iter().enumerate() {
            let direction = order.target - pods[index].pos;
            if observations[index].angle_deg < 0 && direction.length() > 0.0 {
                pods[index].heading = direction * (1.0 / direction.length());
                unset = true;
            }
        }
        if unset {
            orders = decide(&pods, memory.runner, &map, self.cap);
        }
        orders.map(|order| order.to_command())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use csb::engine::Steering;

    fn pod(x: f64, y: f64, vx: f64, vy: f64, heading_deg: f64, next: u8) -> FastPod {
        let angle = heading_deg.to_radians();
        FastPod {
            pos: Vec2::new(x, y),
            vel: Vec2::new(vx, vy),
            heading: Vec2::new(angle.cos(), angle.sin()),
            passes: 0,
            next_checkpoint: next,
            boost_used: true,
            shield_lock_turns: 0,
        }
    }

    fn map() -> Map {
        Map::new(&[(1000, 1000), (10000, 1000), (10000, 8000)]).unwrap()
    }

    #[test]
    fn runner_aims_at_checkpoint_minus_three_velocities() {
        let runner = pod(2000.0, 1000.0, 100.0, 200.0, 0.0, 1);
        let order = runner_order(&runner, &map(), 200);
        assert_eq!(order.target, Vec2::new(10000.0 - 300.0, 1000.0 - 600.0));
        // Nearly facing it: full thrust.
        assert_eq!(order.thrust, Thrust::Power(200));
        assert_eq!(
            runner_order(&runner, &map(), 100).thrust,
            Thrust::Power(100)
        );
    }

    #[test]
    fn thrust_falls_with_the_angle() {
        assert_eq!(thrust_factor(0.0), 1.0);
        assert_eq!(thrust_factor(-20.0), 1.0);
        assert!((thrust_factor(55.0) - 0.5).abs() < 1e-12);
        assert_eq!(thrust_factor(90.0), 0.0);
        assert_eq!(thrust_factor(-170.0), 0.0);
        // Facing away from the checkpoint: no thrust, and the fast action turns by 18°.
        let backwards = pod(2000.0, 1000.0, 0.0, 0.0, 180.0, 1);
        let order = runner_order(&backwards, &map(), 200);
        assert_eq!(order.thrust, Thrust::Power(0));
        let turn = order
            .to_action(&backwards)
            .steering
            .angle_rad
            .to_degrees()
            .abs();
        assert!((turn - 18.0).abs() < 1e-9, "{turn}");
        // A small angle is turned exactly.
        let slightly = pod(2000.0, 1000.0, 0.0, 0.0, -5.0, 1);
        let action = runner_order(&slightly, &map(), 200).to_action(&slightly);
        let expected = Steering::degrees(5.0).angle_rad;
        assert!((action.steering.angle_rad - expected).abs() < 1e-9);
    }

    #[test]
    fn boosts_once_on_a_long_straight_when_facing() {
        let mut runner = pod(2000.0, 1000.0, 0.0, 0.0, 0.0, 1);
        runner.boost_used = false;
        assert_eq!(runner_order(&runner, &map(), 200).thrust, Thrust::Boost);
        let mut turned = runner;
        turned.heading = Vec2::new(0.3f64.cos(), 0.3f64.sin());
        assert_ne!(runner_order(&turned, &map(), 200).thrust, Thrust::Boost);
        let mut near = runner;
        near.pos = Vec2::new(7000.0, 1000.0);
        assert_ne!(runner_order(&near, &map(), 200).thrust, Thrust::Boost);
        runner.boost_used = true;
        assert_eq!(
            runner_order(&runner, &map(), 200).thrust,
            Thrust::Power(200)
        );
    }

    #[test]
    fn coasting_through_the_checkpoint_turns_toward_the_next() {
        let fast = pod(8500.0, 1000.0, 700.0, 0.0, 0.0, 1);
        let order = runner_order(&fast, &map(), 200);
        assert_eq!(order.target, Vec2::new(10000.0 - 2100.0, 8000.0));
    }

    #[test]
    fn blocker_chases_the_opponent_leader_and_shields() {
        let map = map();
        let runner = pod(2000.0, 1000.0, 0.0, 0.0, 0.0, 1);
        // Blocker near the opponent leader's next checkpoint (2), the leader 2500 away from it.
        let blocker = pod(10000.0, 6500.0, 0.0, 0.0, 270.0, 2);
        let mut leader = pod(10000.0, 4000.0, 0.0, 300.0, 90.0, 2);
        leader.passes = 1;
        let trailer = pod(3000.0, 1000.0, 0.0, 0.0, 0.0, 1);
        let pods = [runner, blocker, leader, trailer];
        let order = blocker_order(&pods, 1, &map, 200);
        // Rams toward the leader's predicted position (above the blocker).
        assert!(order.target.y < 6500.0 && (order.target.x - 10000.0).abs() < 1.0);
        assert!(!collision_imminent(&pods, 1));
        // Leader about to hit the blocker hard: shield.
        let mut close = pods;
        close[2].pos = Vec2::new(10000.0, 5400.0);
        close[2].vel = Vec2::new(0.0, 500.0);
        assert!(collision_imminent(&close, 1));
        assert_eq!(blocker_order(&close, 1, &map, 200).thrust, Thrust::Shield);
        let orders = decide(&close, 0, &map, 200);
        assert_eq!(orders[1].thrust, Thrust::Shield);
    }
}
