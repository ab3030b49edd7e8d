//! Invariants of the exact engine over random turns and random races: random seeded maps, pods
//! anywhere with any speed and facing, random commands (any integer target, thrust 0..=cap,
//! BOOST, SHIELD). Whatever the draw: positions end each turn rounded and speeds truncated to
//! integers, a pod turns by at most 18° (csb-rules.md §4.2), passes only grow and by one at most
//! per turn, bounces come in time order within the turn, the same turn replayed gives the same
//! bits, and a race always ends within 500 turns by one of its causes, with no player left in it
//! past its checkpoint timeout. The draws come from `rand` (`tests/seeded/mod.rs`): a default
//! seed per test, `CSB_TEST_SEED` to try others, the seed printed when a test fails.

mod seeded;

use csb::engine::physics::play_turn;
use csb::engine::rules::MAX_TURNS;
use csb::engine::{Collision, Command, EndReason, League, Map, Pod, Race, Thrust, Vec2};
use seeded::Seeded;
use std::f64::consts::PI;

/// The largest turn a pod makes in one turn: 18° (csb-rules.md §4.2), plus rounding slack.
const MAX_TURN_RAD: f64 = PI / 10.0 + 1e-9;

fn random_pod(rng: &mut Seeded, checkpoints: usize) -> Pod {
    let speed = rng.range(0.0, 1100.0);
    let heading = rng.range(0.0, 2.0 * PI);
    Pod {
        pos: Vec2::new(rng.int(-500, 16500) as f64, rng.int(-500, 9500) as f64),
        vel: Vec2::new(
            (heading.cos() * speed).trunc(),
            (heading.sin() * speed).trunc(),
        ),
        angle_rad: if rng.chance(0.05) {
            None
        } else {
            Some(rng.range(-PI, PI))
        },
        passes: rng.int(0, 3 * checkpoints as i64 - 2) as u16,
        last_pass_turn: 0,
        boost_used: rng.chance(0.5),
        shield_lock_turns: if rng.chance(0.1) {
            rng.int(1, 3) as u8
        } else {
            0
        },
    }
}

fn random_command(rng: &mut Seeded, pod: &Pod, cap: u16) -> Command {
    let thrust = match rng.int(0, 19) {
        0 => Thrust::Boost,
        1 => Thrust::Shield,
        _ => Thrust::Power(rng.int(0, i64::from(cap)) as u16),
    };
    if rng.chance(0.7) {
        // Near the pod, so that the facing limit matters.
        let x = pod.pos.x as i64 + rng.int(-3000, 3000);
        let y = pod.pos.y as i64 + rng.int(-3000, 3000);
        Command::new(x as i32, y as i32, thrust)
    } else {
        Command::new(
            rng.int(-20000, 36000) as i32,
            rng.int(-20000, 29000) as i32,
            thrust,
        )
    }
}

fn normalised(angle: f64) -> f64 {
    let turned = angle.rem_euclid(2.0 * PI);
    if turned > PI {
        turned - 2.0 * PI
    } else {
        turned
    }
}

#[test]
fn single_turns_keep_the_engine_invariants() {
    let mut rng = Seeded::new("single_turns_keep_the_engine_invariants", 3);
    let mut bounces = 0;
    for turn_index in 0..20_000u32 {
        let map = Map::from_seed(rng.int(0, i64::from(i32::MAX)));
        let cap = if rng.chance(0.5) {
            League::Gold.max_thrust()
        } else {
            League::Legend.max_thrust()
        };
        let before: Vec<Pod> = (0..4)
            .map(|_| random_pod(&mut rng, map.checkpoint_count()))
            .collect();
        let commands: Vec<Command> = before
            .iter()
            .map(|pod| random_command(&mut rng, pod, cap))
            .collect();
        let turn = (turn_index % 500 + 1) as u16;
        let counts = [true; 4];
        let mut after = before.clone();
        let mut collisions: Vec<Collision> = Vec::new();
        play_turn(
            &mut after,
            &commands,
            &map,
            cap,
            turn,
            &counts,
            &mut collisions,
        );
        let mut again = before.clone();
        let mut collisions_again: Vec<Collision> = Vec::new();
        play_turn(
            &mut again,
            &commands,
            &map,
            cap,
            turn,
            &counts,
            &mut collisions_again,
        );
        assert_eq!(after, again, "the same turn played twice differs");
        assert_eq!(collisions.len(), collisions_again.len());
        bounces += collisions.len();
        let mut last_time = 0.0;
        for collision in &collisions {
            assert!(
                (0.0..=1.0).contains(&collision.time) && collision.time >= last_time,
                "bounce times out of order: {collisions:?}"
            );
            last_time = collision.time;
        }
        for (index, (old, new)) in before.iter().zip(&after).enumerate() {
            let place = format!("draw {turn_index} pod {index}");
            for value in [new.pos.x, new.pos.y, new.vel.x, new.vel.y] {
                assert_eq!(value, value.trunc(), "{place}: not an integer: {new:?}");
            }
            assert!(
                new.passes == old.passes || new.passes == old.passes + 1,
                "{place}: passes {} then {}",
                old.passes,
                new.passes
            );
            if let (Some(from), Some(to)) = (old.angle_rad, new.angle_rad) {
                assert!(
                    normalised(to - from).abs() <= MAX_TURN_RAD,
                    "{place}: turned from {from} to {to}"
                );
            }
        }
    }
    assert!(
        bounces > 100,
        "only {bounces} bounces: the draws rarely collide"
    );
}

#[test]
fn random_races_end_within_the_turn_limit_by_one_of_their_causes() {
    let mut rng = Seeded::new(
        "random_races_end_within_the_turn_limit_by_one_of_their_causes",
        4,
    );
    let mut reasons = Vec::new();
    for _ in 0..40 {
        let map = Map::from_seed(rng.int(0, i64::from(i32::MAX)));
        let league = if rng.chance(0.5) {
            League::Gold
        } else {
            League::Legend
        };
        let mut race = Race::new(map, league);
        // Pods head for their next checkpoint with probability `focus`, elsewhere otherwise.
        let focus = rng.range(0.0, 1.0);
        while !race.is_over() {
            let commands: Vec<Command> = race
                .pods()
                .iter()
                .map(|pod| {
                    if rng.chance(focus) {
                        let next = map.checkpoint(pod.next_checkpoint(map.checkpoint_count()));
                        Command::new(next.x as i32, next.y as i32, Thrust::Power(100))
                    } else {
                        random_command(&mut rng, pod, league.max_thrust())
                    }
                })
                .collect();
            race.step(&commands, &mut ());
            assert!(race.turn <= MAX_TURNS);
            if !race.is_over() {
                for player in 0..2 {
                    assert!(!race.eliminated[player]);
                    assert!(race.checkpoint_timeout_left(player) > 0);
                }
            }
        }
        let outcome = race.outcome.unwrap();
        match outcome.reason {
            EndReason::RaceComplete => assert!(race
                .pods()
                .iter()
                .any(|pod| pod.passes >= race.passes_to_finish())),
            EndReason::Elimination => assert!(race.eliminated.contains(&true)),
            EndReason::TurnLimit => assert_eq!(race.turn, MAX_TURNS),
        }
        if race.eliminated == [true, true] {
            assert_eq!(outcome.ranks, [1, 1], "a double elimination is a draw");
        }
        reasons.push(outcome.reason);
    }
    assert!(reasons.contains(&EndReason::RaceComplete), "{reasons:?}");
    assert!(reasons.contains(&EndReason::Elimination), "{reasons:?}");
}
