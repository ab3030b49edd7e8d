//! A checksum of the fast engine's exact results, for speed work on `engine::fast_turn` that
//! must not change a single bit: `cargo run --release --example fast_digest [states]`.
//!
//! Plays 6-turn rollouts of random actions (steering ±18°, ±9°, 0° or anywhere in between; any
//! thrust, BOOST, SHIELD) from random seeded states (maps from `Map::from_seed`, pods often
//! overlapping or touching, often near a checkpoint, shield locks, used boosts, both leagues'
//! caps) and folds every field of every pod after every turn (positions, speeds, headings,
//! passes, next checkpoint, boost, shield lock) into one FNV-style checksum. The bench's
//! `checksum=` covers 5 scenes and 4096 turns; this covers 1.8 million turns by default, many of
//! them with collisions and checkpoint passes. A faster `fast_turn` must print the same
//! `digest=` as the one it replaces (at the commit that added this tool: 18dd20bf9bb20c91 for
//! the default 300000 states, on x86_64 Linux; the states' facings come from the platform's
//! `cos`/`sin`, so compare digests on one machine).

use csb::engine::referee::splitmix64::SplitMix64;
use csb::engine::{fast_turn, FastAction, FastPod, Map, Pod, Steering, Thrust, Vec2};
use std::f64::consts::PI;

/// splitmix64, seeded: the same states on every machine.
struct Rng(SplitMix64);

impl Rng {
    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        self.0.unit()
    }

    /// Uniform integer in [low, high].
    fn int(&mut self, low: i64, high: i64) -> i64 {
        low + (self.0.next_u64() % (high - low + 1) as u64) as i64
    }

    fn chance(&mut self, probability: f64) -> bool {
        self.unit() < probability
    }
}

/// A point at a random angle and a distance below `reach` from `centre`, rounded.
fn near(rng: &mut Rng, centre: Vec2, reach: f64) -> Vec2 {
    let angle = rng.unit() * 2.0 * PI;
    let distance = rng.unit() * reach;
    Vec2::new(
        (centre.x + angle.cos() * distance).round(),
        (centre.y + angle.sin() * distance).round(),
    )
}

/// A seeded map and four pods; `spread` bounds how far a pod placed near another one starts.
fn random_state(rng: &mut Rng, spread: f64) -> (Map, [FastPod; 4]) {
    let map = Map::from_seed(rng.int(0, i64::from(i32::MAX)));
    let count = map.checkpoint_count();
    let checkpoints = count as i64;
    let mut pods = [Pod::spawn(Vec2::ZERO); 4];
    for index in 0..4 {
        let pos = if index > 0 && rng.chance(0.6) {
            let other = pods[rng.int(0, index as i64 - 1) as usize].pos;
            near(rng, other, spread)
        } else if rng.chance(0.3) {
            let checkpoint = map.checkpoint(rng.int(0, checkpoints - 1) as usize);
            near(rng, checkpoint, 1500.0)
        } else {
            Vec2::new(rng.int(-500, 16500) as f64, rng.int(-500, 9500) as f64)
        };
        let speed = rng.unit() * 1100.0;
        let heading = rng.unit() * 2.0 * PI;
        pods[index] = Pod {
            pos,
            vel: Vec2::new(
                (heading.cos() * speed).trunc(),
                (heading.sin() * speed).trunc(),
            ),
            angle_rad: Some((rng.unit() * 2.0 - 1.0) * PI),
            passes: rng.int(0, 3 * checkpoints - 2) as u16,
            last_pass_turn: 0,
            boost_used: rng.chance(0.5),
            shield_lock_turns: if rng.chance(0.1) {
                rng.int(1, 3) as u8
            } else {
                0
            },
        };
    }
    (map, pods.map(|pod| FastPod::from_pod(&pod, count, 0.3)))
}

fn random_action(rng: &mut Rng, max_thrust: u16) -> FastAction {
    let degrees = match rng.int(0, 9) {
        0 => 18.0,
        1 => -18.0,
        2 => 0.0,
        3 => 9.0,
        4 => -9.0,
        _ => (rng.unit() * 2.0 - 1.0) * 18.0,
    };
    let thrust = match rng.int(0, 19) {
        0 => Thrust::Boost,
        1 => Thrust::Shield,
        2 => Thrust::Power(0),
        3..=9 => Thrust::Power(max_thrust),
        _ => Thrust::Power(rng.int(0, i64::from(max_thrust)) as u16),
    };
    FastAction {
        steering: Steering::degrees(degrees),
        thrust,
    }
}

/// Folds every field of the four pods into `sum`.
fn fold(sum: u64, pods: &[FastPod; 4]) -> u64 {
    let mut sum = sum;
    for pod in pods {
        let floats = [
            pod.pos.x,
            pod.pos.y,
            pod.vel.x,
            pod.vel.y,
            pod.heading.x,
            pod.heading.y,
        ];
        let integers = [
            u64::from(pod.passes),
            u64::from(pod.next_checkpoint),
            u64::from(pod.boost_used),
            u64::from(pod.shield_lock_turns),
        ];
        for value in floats.map(f64::to_bits).into_iter().chain(integers) {
            sum = (sum.rotate_left(5) ^ value).wrapping_mul(0x0100_0000_01B3);
        }
    }
    sum
}

fn main() {
    let states: usize = std::env::args()
        .nth(1)
        .map_or(300_000, |arg| arg.parse().expect("a number of states"));
    let mut rng = Rng(SplitMix64::new(12345));
    let mut digest = 0u64;
    for state in 0..states {
        let spread = [900.0, 1600.0, 3000.0][state % 3];
        let (map, mut pods) = random_state(&mut rng, spread);
        let max_thrust = if rng.chance(0.5) { 100 } else { 200 };
        for _ in 0..6 {
            let actions = [(); 4].map(|_| random_action(&mut rng, max_thrust));
            fast_turn(&mut pods, &map, &actions, f64::from(max_thrust));
            digest = fold(digest, &pods);
        }
    }
    println!("digest={digest:016x} states={states} turns={}", states * 6);
}
