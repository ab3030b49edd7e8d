//! One turn of pod physics exactly as CodinGame's referee computes it (csb-rules.md §4):
//! commands → thrust, rotation, acceleration; continuous movement with pod–pod collisions;
//! friction, rounding, truncation; checkpoint passes along the turn's polyline.
//!
//! This is the exact path, used by the referee and the replay checks. The search uses
//! [`crate::engine::fast`], whose difference from this path is bounded by tests.

use super::trig::atan2;
use crate::engine::command::{Command, Thrust};
use crate::engine::map::Map;
use crate::engine::pod::Pod;
use crate::engine::rounding::{java_round, truncate};
use crate::engine::rules::{
    BOOST_THRUST, CHECKPOINT_RADIUS, COLLISION_EPSILON, FRICTION_FACTOR, MAX_ROTATION, MIN_IMPULSE,
    NORMAL_INVERSE_MASS, POD_COUNT, SHIELD_INVERSE_MASS, SHIELD_LOCK_TURNS, TOUCH_DISTANCE,
};
use crate::engine::vec2::{point_segment_distance, Vec2};
use std::f64::consts::PI;

/// Bounce points kept per pod and turn; more bounces than this in one turn (never seen) overwrite
/// the last one.
const MAX_WAYPOINTS: usize = 16;
/// Collision rounds per turn after which movement is finished without further bounces: a guard
/// against pods locked in an endless cluster, which no real game reaches.
const MAX_COLLISION_ROUNDS: usize = 1000;
/// Candidate pairs among [`POD_COUNT`] pods.
const MAX_PAIRS: usize = POD_COUNT * (POD_COUNT - 1) / 2;

/// One bounce, as the referee's view records it (§4.5, §9.2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Collision {
    /// Time within the turn, in [0, 1].
    pub time: f64,
    /// The pod of higher index and its position when the bounce happened (before separation).
    pub pod_a: usize,
    pub pos_a: Vec2,
    /// The pod of lower index and its position.
    pub pod_b: usize,
    pub pos_b: Vec2,
    /// Total impulse `F = f + max(120, f)`.
    pub impulse: f64,
    /// `(A.v + B.v) / 2` before the bounce.
    pub mean_velocity: Vec2,
}

/// Receives the bounces of a turn; `()` ignores them, a `Vec` keeps them.
pub trait CollisionSink {
    fn record(&mut self, collision: &Collision);
}

impl CollisionSink for () {
    #[inline(always)]
    fn record(&mut self, _collision: &Collision) {}
}

impl CollisionSink for Vec<Collision> {
    fn record(&mut self, collision: &Collision) {
        self.push(*collision);
    }
}

/// A pod's polyline of the turn: start, bounce points, (rounded) end — §4.7.
#[derive(Clone, Copy, Debug)]
struct Path {
    points: [Vec2; MAX_WAYPOINTS + 2],
    last_bounce_time: f64,
    len: usize,
}

impl Path {
    fn new(start: Vec2) -> Path {
        let mut points = [Vec2::ZERO; MAX_WAYPOINTS + 2];
        points[0] = start;
        Path {
            points,
            last_bounce_time: f64::NAN,
            len: 1,
        }
    }

    /// Adds a bounce point; a second bounce at the same time replaces the first.
    fn add_bounce(&mut self, time: f64, pos: Vec2) {
        if self.len > 1 && (self.last_bounce_time == time || self.len == MAX_WAYPOINTS + 1) {
            self.points[self.len - 1] = pos;
        } else {
            self.points[self.len] = pos;
            self.len += 1;
        }
        self.last_bounce_time = time;
    }

    fn finish(&mut self, end: Vec2) {
        self.points[self.len] = end;
        self.len += 1;
    }

    fn comes_within(&self, point: Vec2, radius: f64) -> bool {
        self.points[..self.len]
            .windows(2)
            .any(|segment| point_segment_distance(segment[0], segment[1], point) <= radius)
    }
}

/// §4.1–§4.3 for one pod: thrust from the command (BOOST, SHIELD and its lock), rotation toward
/// the target, acceleration. Returns the pod's inverse mass for this turn's collisions.
pub fn apply_command(pod: &mut Pod, command: &Command, max_thrust: u16) -> f64 {
    let shield_now = command.thrust == Thrust::Shield;
    let mut power = match command.thrust {
        Thrust::Shield => 0.0,
        Thrust::Boost if !pod.boost_used => {
            pod.boost_used = true;
            BOOST_THRUST
        }
        Thrust::Boost => f64::from(max_thrust),
        Thrust::Power(thrust) => f64::from(thrust),
    };
    if shield_now {
        pod.shield_lock_turns = SHIELD_LOCK_TURNS;
    } else if pod.shield_lock_turns > 0 {
        pod.shield_lock_turns -= 1;
        power = 0.0;
    }
    if command.target != pod.pos {
        let angle = rotate(pod.angle_rad, pod.pos, command.target);
        pod.angle_rad = Some(angle);
        accelerate(pod, angle, power);
    }
    if shield_now {
        SHIELD_INVERSE_MASS
    } else {
        NORMAL_INVERSE_MASS
    }
}

/// §4.2: the new facing angle when aiming from `pos` at `target` (they differ).
pub fn rotate(angle: Option<f64>, pos: Vec2, target: Vec2) -> f64 {
    let wanted = atan2(target.y - pos.y, target.x - pos.x);
    let Some(current) = angle else {
        return wanted;
    };
    let full_turn = 2.0 * PI;
    let difference = (wanted - current) % full_turn;
    let shortest = (2.0 * difference) % full_turn - difference;
    if shortest.abs() >= MAX_ROTATION {
        current + shortest.signum() * MAX_ROTATION
    } else {
        wanted
    }
}

/// §4.3: `v += normalise(cos a, sin a) × power`.
fn accelerate(pod: &mut Pod, angle: f64, power: f64) {
    let mut dx = angle.cos();
    let mut dy = angle.sin();
    let length = (dx * dx + dy * dy).sqrt();
    if length != 0.0 {
        dx /= length;
        dy /= length;
    }
    pod.vel.x += dx * power * NORMAL_INVERSE_MASS;
    pod.vel.y += dy * power * NORMAL_INVERSE_MASS;
}

/// A pair of pods that touch at `time` (A has the higher index).
#[derive(Clone, Copy)]
struct Candidate {
    time: f64,
    a: usize,
    b: usize,
}

/// §4.4: when A and B (at the state of `begin`) first touch within the `remaining` time, if they do.
#[inline]
fn collision_time(a: &Pod, b: &Pod, begin: f64, remaining: f64) -> Option<f64> {
    let dx = a.pos.x - b.pos.x;
    let dy = a.pos.y - b.pos.y;
    if (dx * dx + dy * dy).sqrt() <= TOUCH_DISTANCE {
        return Some(begin);
    }
    let wx = a.vel.x - b.vel.x;
    let wy = a.vel.y - b.vel.y;
    let qa = wx * wx + wy * wy;
    let qb = dx * wx + dy * wy;
    let qc = dx * dx + dy * dy - TOUCH_DISTANCE * TOUCH_DISTANCE;
    let discriminant = qb * qb - qa * qc;
    if discriminant <= 0.0 || qa == 0.0 {
        return None;
    }
    let first_contact = (-qb - discriminant.sqrt()) / qa;
    if first_contact > 0.0 && first_contact <= remaining {
        Some(begin + first_contact)
    } else {
        None
    }
}

/// §4.5: the elastic bounce with its 120 minimum, then the separation push.
pub(crate) fn bounce(
    pods: &mut [Pod],
    inverse_mass: &[f64],
    a: usize,
    b: usize,
    time: f64,
) -> Collision {
    let (pa, pb) = (pods[a], pods[b]);
    let record = Collision {
        time,
        pod_a: a,
        pos_a: pa.pos,
        pod_b: b,
        pos_b: pb.pos,
        impulse: 0.0,
        mean_velocity: Vec2::new((pa.vel.x + pb.vel.x) / 2.0, (pa.vel.y + pb.vel.y) / 2.0),
    };
    let dx = pb.pos.x - pa.pos.x;
    let dy = pb.pos.y - pa.pos.y;
    let distance = (dx * dx + dy * dy).sqrt();
    let (nx, ny) = if distance == 0.0 {
        (0.0, 0.0)
    } else {
        (dx / distance, dy / distance)
    };
    let ux = pa.vel.x - pb.vel.x;
    let uy = pa.vel.y - pb.vel.y;
    let (inv_a, inv_b) = (inverse_mass[a], inverse_mass[b]);
    let f = (nx * ux + ny * uy) / (inv_a + inv_b);
    let impulse = f + MIN_IMPULSE.max(f);
    let ix = nx * -impulse;
    let iy = ny * -impulse;
    pods[a].vel.x = pa.vel.x + ix * inv_a;
    pods[a].vel.y = pa.vel.y + iy * inv_a;
    pods[b].vel.x = pb.vel.x + -ix * inv_b;
    pods[b].vel.y = pb.vel.y + -iy * inv_b;
    let overlap = distance - TOUCH_DISTANCE;
    if overlap <= 0.0 {
        let push = -overlap / 2.0 + COLLISION_EPSILON;
        pods[a].pos.x += nx * -push;
        pods[a].pos.y += ny * -push;
        pods[b].pos.x += nx * push;
        pods[b].pos.y += ny * push;
    }
    Collision { impulse, ..record }
}

fn advance(pods: &mut [Pod], step: f64) {
    for pod in pods.iter_mut() {
        pod.pos.x += pod.vel.x * step;
        pod.pos.y += pod.vel.y * step;
    }
}

/// §4.4: move all pods over the turn, bouncing every contact in time order.
fn move_pods<S: CollisionSink>(
    pods: &mut [Pod],
    inverse_mass: &[f64],
    paths: &mut [Path],
    sink: &mut S,
) {
    let mut time = 0.0;
    let mut rounds = 0;
    while time < 1.0 {
        let begin = time;
        let remaining = 1.0 - begin;
        let mut candidates = [Candidate {
            time: 0.0,
            a: 0,
            b: 0,
        }; MAX_PAIRS];
        let mut count = 0;
        rounds += 1;
        if rounds <= MAX_COLLISION_ROUNDS {
            for a in (0..pods.len()).rev() {
                for b in (0..a).rev() {
                    if let Some(at) = collision_time(&pods[a], &pods[b], begin, remaining) {
                        // Stable insertion by time: ties keep the pair order.
                        let mut slot = count;
                        while slot > 0 && candidates[slot - 1].time > at {
                            candidates[slot] = candidates[slot - 1];
                            slot -= 1;
                        }
                        candidates[slot] = Candidate { time: at, a, b };
                        count += 1;
                    }
                }
            }
        }
        if count == 0 {
            advance(pods, 1.0 - begin);
            time = begin + (1.0 - begin);
            continue;
        }
        let first = candidates[0].time;
        let step = first - begin;
        if step > 0.0 {
            advance(pods, step);
        }
        for candidate in &candidates[..count] {
            if candidate.time > first + COLLISION_EPSILON {
                break;
            }
            let record = bounce(pods, inverse_mass, candidate.a, candidate.b, candidate.time);
            sink.record(&record);
            paths[candidate.a].add_bounce(first, pods[candidate.a].pos);
            paths[candidate.b].add_bounce(first, pods[candidate.b].pos);
        }
        time = begin + (first - begin);
    }
}

/// §4.6: friction, Java rounding of the position, truncation of the speed.
#[inline]
pub fn end_of_turn(pod: &mut Pod) {
    pod.vel.x *= FRICTION_FACTOR;
    pod.vel.y *= FRICTION_FACTOR;
    pod.pos.x = java_round(pod.pos.x);
    pod.pos.y = java_round(pod.pos.y);
    pod.vel.x = truncate(pod.vel.x);
    pod.vel.y = truncate(pod.vel.y);
}

/// §4.7: count every checkpoint the polyline comes within 600 of, in order, several per turn.
fn pass_checkpoints(pod: &mut Pod, path: &Path, map: &Map, turn: u16) {
    let count = map.checkpoint_count();
    // The referee loops while the next checkpoint is in reach; no real map lets one segment reach
    // them all, and the bound keeps a degenerate map from looping forever.
    for _ in 0..count {
        let next = map.checkpoint(pod.next_checkpoint(count));
        if !path.comes_within(next, CHECKPOINT_RADIUS) {
            break;
        }
        pod.passes += 1;
        pod.last_pass_turn = turn;
    }
}

/// §6 steps 2–5 for the pods of one game (2 or 4 of them, in pod order): apply the commands,
/// move with collisions, end the turn, and count checkpoint passes for the pods whose
/// `counts_passes` is true (pods of players still in the game). `turn` is 1-based.
pub fn play_turn<S: CollisionSink>(
    pods: &mut [Pod],
    commands: &[Command],
    map: &Map,
    max_thrust: u16,
    turn: u16,
    counts_passes: &[bool],
    sink: &mut S,
) {
    let pod_count = pods.len();
    assert!(pod_count <= POD_COUNT && commands.len() == pod_count);
    let mut inverse_mass = [NORMAL_INVERSE_MASS; POD_COUNT];
    let mut paths = [Path::new(Vec2::ZERO); POD_COUNT];
    for index in 0..pod_count {
        paths[index] = Path::new(pods[index].pos);
        inverse_mass[index] = apply_command(&mut pods[index], &commands[index], max_thrust);
    }
    move_pods(
        pods,
        &inverse_mass[..pod_count],
        &mut paths[..pod_count],
        sink,
    );
    for (index, pod) in pods.iter_mut().enumerate() {
        end_of_turn(pod);
        paths[index].finish(pod.pos);
        if counts_passes[index] {
            pass_checkpoints(pod, &paths[index], map, turn);
        }
    }
}
