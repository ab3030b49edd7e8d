//! The cheaper turn the search runs.
//!
//! Same rules as [`super::physics`], three shortcuts: a pod's facing is a unit vector turned by a
//! precomputed rotation (no `atan2`, `cos`, `sin`), checkpoints are tested on the straight segment
//! from the start to the rounded end of the turn (bounce points ignored, squared distances), and
//! collision tests reject separating pairs before any square root. Tests bound its difference from
//! the exact turn over many random turns (`tests/fast_path.rs`).

use super::command::{Command, Thrust};
use super::map::Map;
use super::pod::Pod;
use super::rounding::{java_round, java_round_small, truncate_small};
use super::rules::{
    BOOST_THRUST, CHECKPOINT_RADIUS, COLLISION_EPSILON, FRICTION_FACTOR, MAX_ROTATION, MIN_IMPULSE,
    NORMAL_INVERSE_MASS, POD_COUNT, SHIELD_INVERSE_MASS, SHIELD_LOCK_TURNS, TOUCH_DISTANCE,
};
use super::vec2::{point_segment_distance_squared, Vec2};

/// Distance of a target printed for a steering action: far enough that rounding the target to
/// integers moves the aimed direction by under 0.01°.
pub const STEERING_TARGET_DISTANCE: f64 = 10000.0;

/// A pod in the search's representation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FastPod {
    pub pos: Vec2,
    pub vel: Vec2,
    /// Unit vector of the facing direction.
    pub heading: Vec2,
    /// Checkpoints passed, and the index of the next one (kept to avoid a modulo per turn).
    pub passes: u16,
    pub next_checkpoint: u8,
    pub boost_used: bool,
    pub shield_lock_turns: u8,
}

impl FastPod {
    /// The search's view of an engine pod; an unset angle takes `fallback_angle_rad` (a pod's
    /// first move faces its target exactly, so the caller passes the direction it will aim at).
    pub fn from_pod(pod: &Pod, checkpoint_count: usize, fallback_angle_rad: f64) -> FastPod {
        let angle = pod.angle_rad.unwrap_or(fallback_angle_rad);
        FastPod {
            pos: pod.pos,
            vel: pod.vel,
            heading: Vec2::new(angle.cos(), angle.sin()),
            passes: pod.passes,
            next_checkpoint: pod.next_checkpoint(checkpoint_count) as u8,
            boost_used: pod.boost_used,
            shield_lock_turns: pod.shield_lock_turns,
        }
    }
}

/// A turn of the facing by a fixed angle, as a precomputed rotation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Steering {
    pub angle_rad: f64,
    cos: f64,
    sin: f64,
}

impl Steering {
    /// A turn by `angle_deg` degrees, clamped to the 18° a pod may turn (§4.2).
    pub fn degrees(angle_deg: f64) -> Steering {
        let angle_rad = (angle_deg.to_radians()).clamp(-MAX_ROTATION, MAX_ROTATION);
        Steering {
            angle_rad,
            cos: angle_rad.cos(),
            sin: angle_rad.sin(),
        }
    }

    /// `heading` turned by this steering.
    #[inline(always)]
    pub fn apply(&self, heading: Vec2) -> Vec2 {
        Vec2::new(
            heading.x * self.cos - heading.y * self.sin,
            heading.x * self.sin + heading.y * self.cos,
        )
    }
}

/// What the search decides for one pod in one turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FastAction {
    pub steering: Steering,
    pub thrust: Thrust,
}

impl FastAction {
    /// The command that does the same in the real game: aim [`STEERING_TARGET_DISTANCE`] away in
    /// the turned direction (from the pod's exact angle, or `fallback_angle_rad` if unset).
    pub fn to_command(&self, pod: &Pod, fallback_angle_rad: f64) -> Command {
        let angle = pod.angle_rad.unwrap_or(fallback_angle_rad) + self.steering.angle_rad;
        let target_x = java_round(pod.pos.x + angle.cos() * STEERING_TARGET_DISTANCE);
        let target_y = java_round(pod.pos.y + angle.sin() * STEERING_TARGET_DISTANCE);
        Command::new(target_x as i32, target_y as i32, self.thrust)
    }
}

/// §4.1, §4.3 for one pod with the facing turned by the steering; returns the inverse mass.
/// `max_thrust` is what a used BOOST gives.
///
/// Written to keep branches on the thrust few (the search plays every action from every state,
/// so which one comes is unpredictable): the power is chosen as an integer (conditional moves; a
/// choice between two `f64` on an integer condition compiles to a branch) and converted once.
#[inline(always)]
fn apply_action(pod: &mut FastPod, action: &FastAction, max_thrust: u32) -> f64 {
    const BOOST_POWER: u32 = BOOST_THRUST as u32;
    const INVERSE_MASS: [f64; 2] = [NORMAL_INVERSE_MASS, SHIELD_INVERSE_MASS];
    let (power, shield_now, boost_now) = match action.thrust {
        Thrust::Power(thrust) => (u32::from(thrust), false, false),
        Thrust::Shield => (0, true, false),
        Thrust::Boost => (0, false, true),
    };
    let boost_power = if pod.boost_used {
        max_thrust
    } else {
        BOOST_POWER
    };
    let power = if boost_now { boost_power } else { power };
    pod.boost_used |= boost_now;
    let locked = pod.shield_lock_turns > 0;
    pod.shield_lock_turns = if shield_now {
        SHIELD_LOCK_TURNS
    } else {
        pod.shield_lock_turns - u8::from(locked)
    };
    // No thrust while locked (the SHIELD turn itself has power 0 already).
    let power = f64::from(if locked { 0 } else { power });
    pod.heading = action.steering.apply(pod.heading);
    pod.vel.x += pod.heading.x * power;
    pod.vel.y += pod.heading.y * power;
    INVERSE_MASS[usize::from(shield_now)]
}

/// The six pod pairs (higher index first) in the referee's order (§4.4); ties between contacts
/// at the same time keep this order.
const PAIRS: [(usize, usize); 6] = [(3, 2), (3, 1), (3, 0), (2, 1), (2, 0), (1, 0)];

/// Widening of the bounding boxes in the conservative rejects: far more than any rounding error
/// of the exact tests they guard, so a reject never hides a contact or a pass those tests find.
const REJECT_MARGIN: f64 = 1.0;

/// `a < b ? a : b` (one `minsd`; `f64::min` adds NaN handling no value here needs).
#[inline(always)]
fn min(a: f64, b: f64) -> f64 {
    if a < b {
        a
    } else {
        b
    }
}

#[inline(always)]
fn max(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}

/// A lower bound on how far apart two pods stay over `remaining`, on one axis: the relative
/// position moves along a segment from `d` to `d + w·remaining`; the result is the larger of the
/// two axes' distances from 0 to that segment's projection. A pair can touch only if it is at
/// most 800 (`TOUCH_DISTANCE`). Branch-free (min/max only).
#[inline(always)]
fn pair_gap(a: &FastPod, b: &FastPod, remaining: f64) -> f64 {
    let dx = a.pos.x - b.pos.x;
    let dy = a.pos.y - b.pos.y;
    let end_x = dx + (a.vel.x - b.vel.x) * remaining;
    let end_y = dy + (a.vel.y - b.vel.y) * remaining;
    let gap_x = max(min(dx, end_x), min(-dx, -end_x));
    let gap_y = max(min(dy, end_y), min(-dy, -end_y));
    max(gap_x, gap_y)
}

/// [`pair_gap`] of the six pairs, in the order of [`PAIRS`].
#[inline(always)]
fn pair_gaps(pods: &[FastPod; POD_COUNT], remaining: f64) -> [f64; 6] {
    PAIRS.map(|(a, b)| pair_gap(&pods[a], &pods[b], remaining))
}

/// Largest gap at which [`contact_time`] may still find a contact: the touching distance plus a
/// margin far above the rounding errors of either computation.
const CONTACT_REACH: f64 = TOUCH_DISTANCE + REJECT_MARGIN;

/// First contact time of a pair within `remaining`, separating pairs rejected early.
#[inline(always)]
fn contact_time(a: &FastPod, b: &FastPod, remaining: f64) -> Option<f64> {
    let dx = a.pos.x - b.pos.x;
    let dy = a.pos.y - b.pos.y;
    let qc = dx * dx + dy * dy - TOUCH_DISTANCE * TOUCH_DISTANCE;
    if qc <= 0.0 {
        return Some(0.0);
    }
    let wx = a.vel.x - b.vel.x;
    let wy = a.vel.y - b.vel.y;
    let qb = dx * wx + dy * wy;
    if qb >= 0.0 {
        return None;
    }
    let qa = wx * wx + wy * wy;
    let discriminant = qb * qb - qa * qc;
    if discriminant <= 0.0 {
        return None;
    }
    // Contact before `remaining` ⇔ −qb − √Δ ≤ remaining·qa; test without the root first.
    let limit = -qb - remaining * qa;
    if limit > 0.0 && limit * limit > discriminant {
        return None;
    }
    // The reciprocal does not wait for the root: both run at once.
    let inverse_qa = 1.0 / qa;
    let time = (-qb - discriminant.sqrt()) * inverse_qa;
    if time > 0.0 && time <= remaining {
        Some(time)
    } else {
        None
    }
}

/// The reciprocal distance of a pair near touching as `NEWTON_OFFSET − NEWTON_SLOPE · d²`: one
/// Newton step for `1/√(d²)` from `1/800`, `(1/800)·(1.5 − 0.5·d²/800²)`.
const NEWTON_OFFSET: f64 = 1.5 / TOUCH_DISTANCE;
const NEWTON_SLOPE: f64 = 0.5 / (TOUCH_DISTANCE * TOUCH_DISTANCE * TOUCH_DISTANCE);

/// Half-width of the band of squared distances around 800² taken as touching: distances within
/// `800·(1 ± 5e-7)`, where the Newton step is exact to `1.5·(5e-7)² ≈ 4e-13`.
const TOUCHING_BAND: f64 = TOUCH_DISTANCE * TOUCH_DISTANCE * 1e-6;

/// §4.5 for pods `a` and `b`, in terms of the centre difference `d` and the reciprocal of its
/// length (the exact path's normal is `d` times it). Most bounces are of a pair met at its
/// contact time, 800 apart up to rounding: for those the reciprocal is one Newton step from
/// `1/800` instead of a square root and divisions on the turn's critical path. A pair farther
/// from touching (overlapping at the start of the round, or moved by another pair's separation
/// push at the same instant) takes the root. The impulse is divided by the mass sum through its
/// reciprocal, which does not wait for the contact. Results differ from the exact path's in the
/// last places only (`tests/fast_path.rs` bounds the fast path).
#[inline(always)]
fn bounce(pods: &mut [FastPod; POD_COUNT], inverse_mass: &[f64; POD_COUNT], a: usize, b: usize) {
    let dx = pods[b].pos.x - pods[a].pos.x;
    let dy = pods[b].pos.y - pods[a].pos.y;
    let distance_squared = dx * dx + dy * dy;
    let inverse_distance =
        if (distance_squared - TOUCH_DISTANCE * TOUCH_DISTANCE).abs() <= TOUCHING_BAND {
            NEWTON_OFFSET - NEWTON_SLOPE * distance_squared
        } else if distance_squared == 0.0 {
            // Coincident centres: no normal, so no impulse (as the exact path).
            0.0
        } else {
            1.0 / distance_squared.sqrt()
        };
    let ux = pods[a].vel.x - pods[b].vel.x;
    let uy = pods[a].vel.y - pods[b].vel.y;
    let (inv_a, inv_b) = (inverse_mass[a], inverse_mass[b]);
    let mass_factor = 1.0 / (inv_a + inv_b);
    let f = (dx * ux + dy * uy) * (inverse_distance * mass_factor);
    let impulse = f + max(MIN_IMPULSE, f);
    // Velocity change along `d`, per unit of `d`, for each pod.
    let along_d = impulse * inverse_distance;
    pods[a].vel.x -= dx * (along_d * inv_a);
    pods[a].vel.y -= dy * (along_d * inv_a);
    pods[b].vel.x += dx * (along_d * inv_b);
    pods[b].vel.y += dy * (along_d * inv_b);
    let overlap = distance_squared * inverse_distance - TOUCH_DISTANCE;
    // Coincident centres (`inverse_distance` 0) get no push: `d` is zero.
    if overlap <= 0.0 {
        let push = (-overlap / 2.0 + COLLISION_EPSILON) * inverse_distance;
        pods[a].pos.x -= dx * push;
        pods[a].pos.y -= dy * push;
        pods[b].pos.x += dx * push;
        pods[b].pos.y += dy * push;
    }
}

#[inline(always)]
fn advance(pods: &mut [FastPod; POD_COUNT], step: f64) {
    for pod in pods.iter_mut() {
        pod.pos.x += pod.vel.x * step;
        pod.pos.y += pod.vel.y * step;
    }
}

/// §4.4 with the earliest contact (and those within 1e-5 of it) bounced per round.
#[inline(always)]
fn move_pods(pods: &mut [FastPod; POD_COUNT], inverse_mass: &[f64; POD_COUNT]) {
    let gaps = pair_gaps(pods, 1.0);
    let closest = min(
        min(gaps[0], gaps[1]),
        min(min(gaps[2], gaps[3]), min(gaps[4], gaps[5])),
    );
    if closest > CONTACT_REACH {
        // The common turn: no pair comes near, one straight move.
        advance(pods, 1.0);
        return;
    }
    collide_and_move(pods, inverse_mass, gaps);
}

/// The rounds of §4.4 once some pair may touch; `gaps` are [`pair_gaps`] of the first round.
#[inline]
fn collide_and_move(
    pods: &mut [FastPod; POD_COUNT],
    inverse_mass: &[f64; POD_COUNT],
    mut gaps: [f64; 6],
) {
    let mut time = 0.0;
    // A pod cluster could in theory keep bouncing at one instant; the referee's guard is the
    // same bound as the exact path's, far above anything a game reaches.
    for round in 0..1000 {
        let remaining = 1.0 - time;
        if round > 0 {
            gaps = pair_gaps(pods, remaining);
        }
        let mut first = f64::INFINITY;
        let mut contacts = [(0.0, 0u8, 0u8); 6];
        let mut count = 0;
        for (&(a, b), &gap) in PAIRS.iter().zip(&gaps) {
            if gap > CONTACT_REACH {
                continue;
            }
            if let Some(at) = contact_time(&pods[a], &pods[b], remaining) {
                contacts[count] = (at, a as u8, b as u8);
                count += 1;
                if at < first {
                    first = at;
                }
            }
        }
        if count == 0 {
            advance(pods, remaining);
            return;
        }
        if first > 0.0 {
            advance(pods, first);
        }
        // Bounce in time order; equal times keep the pair order (stable).
        let mut bounced = 0;
        while bounced < count {
            let mut pick = usize::MAX;
            for (index, contact) in contacts[..count].iter().enumerate() {
                if contact.0 <= first + COLLISION_EPSILON
                    && (pick == usize::MAX || contact.0 < contacts[pick].0)
                {
                    pick = index;
                }
            }
            if pick == usize::MAX {
                break;
            }
            let (_, a, b) = contacts[pick];
            contacts[pick].0 = f64::INFINITY;
            bounce(pods, inverse_mass, a as usize, b as usize);
            bounced += 1;
        }
        time += first;
        if time >= 1.0 {
            return;
        }
    }
}

/// Whether the segment `start`–`end` may pass within the checkpoint radius of `checkpoint`: its
/// bounding box, widened by the radius, contains the checkpoint (the largest of the four
/// distances outside the box is small enough). Any pass the exact test of
/// [`point_segment_distance_squared`] finds is among them.
#[inline(always)]
fn may_pass(start: Vec2, end: Vec2, checkpoint: Vec2) -> bool {
    let outside_x = max(
        checkpoint.x - max(start.x, end.x),
        min(start.x, end.x) - checkpoint.x,
    );
    let outside_y = max(
        checkpoint.y - max(start.y, end.y),
        min(start.y, end.y) - checkpoint.y,
    );
    max(outside_x, outside_y) <= CHECKPOINT_RADIUS + REJECT_MARGIN
}
/// §4.7 on the straight segment `start`–`pod.pos`: every checkpoint in reach, in order.
#[inline(always)]
fn pass_checkpoints(pod: &mut FastPod, start: Vec2, map: &Map) {
    let checkpoint_count = map.checkpoint_count() as u8;
    for _ in 0..checkpoint_count {
        let checkpoint = map.checkpoint(pod.next_checkpoint as usize);
        if !may_pass(start, pod.pos, checkpoint)
            || point_segment_distance_squared(start, pod.pos, checkpoint)
                > CHECKPOINT_RADIUS * CHECKPOINT_RADIUS
        {
            break;
        }
        pod.passes += 1;
        pod.next_checkpoint += 1;
        if pod.next_checkpoint == checkpoint_count {
            pod.next_checkpoint = 0;
        }
    }
}

/// One turn of the fast path for four pods: actions, movement with collisions, friction and
/// rounding, checkpoint passes. `max_thrust` is what a used BOOST gives.
#[inline]
pub fn fast_turn(
    pods: &mut [FastPod; POD_COUNT],
    map: &Map,
    actions: &[FastAction; POD_COUNT],
    max_thrust: f64,
) {
    // Thrusts are whole numbers (the league's cap: 100 or 200).
    let max_thrust = max_thrust as u32;
    let mut inverse_mass = [NORMAL_INVERSE_MASS; POD_COUNT];
    let mut starts = [Vec2::ZERO; POD_COUNT];
    for index in 0..POD_COUNT {
        starts[index] = pods[index].pos;
        inverse_mass[index] = apply_action(&mut pods[index], &actions[index], max_thrust);
    }
    move_pods(pods, &inverse_mass);
    for (pod, start) in pods.iter_mut().zip(starts) {
        pod.vel.x = truncate_small(pod.vel.x * FRICTION_FACTOR);
        pod.vel.y = truncate_small(pod.vel.y * FRICTION_FACTOR);
        pod.pos.x = java_round_small(pod.pos.x);
        pod.pos.y = java_round_small(pod.pos.y);
        pass_checkpoints(pod, start, map);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod_at(x: f64, y: f64, vx: f64, vy: f64) -> FastPod {
        FastPod {
            pos: Vec2::new(x, y),
            vel: Vec2::new(vx, vy),
            heading: Vec2::new(1.0, 0.0),
            passes: 0,
            next_checkpoint: 1,
            boost_used: false,
            shield_lock_turns: 0,
        }
    }

    #[test]
    fn newton_reciprocal_is_exact_to_1e_12_across_the_touching_band() {
        for step in -100..=100 {
            let distance_squared =
                TOUCH_DISTANCE * TOUCH_DISTANCE + TOUCHING_BAND * step as f64 / 100.0;
            let newton = NEWTON_OFFSET - NEWTON_SLOPE * distance_squared;
            let exact = 1.0 / distance_squared.sqrt();
            assert!(
                (newton - exact).abs() <= 1e-12 * exact,
                "{distance_squared}"
            );
        }
    }

    /// Touching pairs (the Newton step), overlapping and far-apart pairs (the root), with and
    /// without a shield: the same bounce as the exact path's, to a millionth of a unit.
    #[cfg(feature = "referee")]
    #[test]
    fn bounce_matches_the_exact_path_on_and_off_the_touching_band() {
        let far = Vec2::new(9000.0, 9000.0);
        for (distance, angle_deg) in [
            (800.0, 0.0),
            (800.0, 37.0),
            (800.0003, -120.0),
            (650.0, 80.0),
            (802.0, 200.0),
        ] {
            for inverse_mass in [
                [1.0, 1.0, 1.0, 1.0],
                [0.1, 1.0, 1.0, 1.0],
                [0.1, 0.1, 1.0, 1.0],
            ] {
                let angle = f64::to_radians(angle_deg);
                let mut pods = [
                    pod_at(5000.0, 4000.0, -300.0, 120.0),
                    pod_at(
                        5000.0 + distance * angle.cos(),
                        4000.0 + distance * angle.sin(),
                        250.0,
                        -40.0,
                    ),
                    pod_at(far.x, far.y, 0.0, 0.0),
                    pod_at(far.x, 0.0, 0.0, 0.0),
                ];
                let mut exact = pods.map(|pod| Pod {
                    pos: pod.pos,
                    vel: pod.vel,
                    ..Pod::spawn(Vec2::ZERO)
                });
                bounce(&mut pods, &inverse_mass, 1, 0);
                super::super::physics::bounce(&mut exact, &inverse_mass, 1, 0, 0.0);
                for (fast, exact) in pods.iter().zip(&exact) {
                    assert!(
                        fast.pos.distance(exact.pos) <= 1e-6,
                        "{fast:?} vs {exact:?}"
                    );
                    assert!(
                        fast.vel.distance(exact.vel) <= 1e-6,
                        "{fast:?} vs {exact:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn coincident_centres_bounce_without_a_normal() {
        let mut pods = [
            pod_at(5000.0, 4000.0, 100.0, 0.0),
            pod_at(5000.0, 4000.0, -100.0, 0.0),
            pod_at(9000.0, 9000.0, 0.0, 0.0),
            pod_at(9000.0, 0.0, 0.0, 0.0),
        ];
        let before = pods;
        bounce(&mut pods, &[1.0; POD_COUNT], 1, 0);
        assert_eq!(pods, before);
    }
}
