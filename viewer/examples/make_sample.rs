//! Writes the sample replay `tests/fixtures/sample-replay.json` by playing a short race on the
//! real engine (`csb::engine::Race`): two simple built-in policies that aim at their pods' next
//! checkpoint, one of which BOOSTs once and the other SHIELDs when a pod comes close. The race is
//! one lap long so that it finishes with a genuine result in about sixty turns. The engine is
//! built with its `exact` feature (the viewer's dev-dependency enables it), so the file is the same
//! whether it is regenerated alone or in a workspace build.
//!
//! Run with `cargo run -p viewer --example make_sample [-- OUTPUT_PATH]`.

use csb::engine::{Collision, Command, League, Map, Pod, Race, Thrust};
use serde_json::{json, Value};
use std::path::PathBuf;

/// CodinGame-style referee seed of the map.
const SEED: i64 = 1_234_567;
const LAPS: u16 = 1;
/// Safety stop; the race is over long before.
const TURN_LIMIT: u16 = 200;
const NAMES: [&str; 2] = ["aim-boost", "aim-shield"];

fn main() {
    let output = std::env::args_os().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sample-replay.json"),
        PathBuf::from,
    );
    let replay = play();
    let text = serde_json::to_string_pretty(&replay).expect("a JSON value serialises") + "\n";
    let temporary = output.with_extension("json.tmp");
    std::fs::write(&temporary, text).expect("write the replay");
    std::fs::rename(&temporary, &output).expect("move the replay in place");
    eprintln!(
        "wrote {} ({} turns)",
        output.display(),
        replay["result"]["turns"]
    );
}

/// Plays the race and returns it as a replay (arena/REPLAY_FORMAT.md, version 1).
fn play() -> Value {
    let map = Map::from_seed(SEED);
    let mut race = Race::with_options(map, League::Legend, LAPS, 2);
    let checkpoints: Vec<Value> = map
        .checkpoints()
        .iter()
        .map(|point| json!([point.x as i64, point.y as i64]))
        .collect();
    let initial_pods: Vec<Value> = race
        .pods()
        .iter()
        .map(|pod| pod_json(pod, &map, None))
        .collect();
    let mut turns = Vec::new();
    while !race.is_over() && race.turn < TURN_LIMIT {
        let before: Vec<Pod> = race.pods().to_vec();
        let orders: Vec<(Command, String)> = (0..before.len())
            .map(|index| decide(&race, index))
            .collect();
        let commands: Vec<Command> = orders.iter().map(|(command, _)| *command).collect();
        let mut collisions: Vec<Collision> = Vec::new();
        race.step(&commands, &mut collisions);
        let pods: Vec<Value> = race
            .pods()
            .iter()
            .zip(&before)
            .zip(&orders)
            .map(|((after, before), (command, message))| {
                let applied = Applied {
                    command,
                    thrust: applied_thrust(before, command, League::Legend),
                    message,
                };
                pod_json(after, &map, Some(applied))
            })
            .collect();
        let outputs: Vec<Vec<String>> = orders
            .chunks(race.pods_per_player)
            .map(|player| {
                player
                    .iter()
                    .map(|(command, message)| output_line(command, message))
                    .collect()
            })
            .collect();
        turns.push(json!({
            "turn": race.turn,
            "outputs": outputs,
            "response_ms": [null, null],
            "pods": pods,
            "collisions": collisions.iter().map(collision_json).collect::<Vec<_>>(),
            "checkpoint_timeout": [race.checkpoint_timeout_left(0), race.checkpoint_timeout_left(1)],
        }));
    }
    let outcome = race.outcome.expect("the sample race finishes");
    let reason = match outcome.reason {
        csb::engine::EndReason::RaceComplete => "race complete",
        csb::engine::EndReason::Elimination => "elimination",
        csb::engine::EndReason::TurnLimit => "turn limit",
    };
    json!({
        "format": "csb-replay",
        "version": 1,
        "source": "arena",
        "seed": SEED,
        "league": League::Legend.name(),
        "laps": LAPS,
        "pods_per_player": race.pods_per_player,
        "checkpoints": checkpoints,
        "players": NAMES.iter().map(|name| json!({
            "name": name,
            "command": format!("built-in policy of viewer/examples/make_sample.rs ({name})"),
        })).collect::<Vec<_>>(),
        "initial_pods": initial_pods,
        "turns": turns,
        "result": {
            "ranks": outcome.ranks,
            "winner": outcome.winner(),
            "reason": reason,
            "turns": race.turn,
            "eliminations": [],
        },
    })
}

/// The built-in policies. Every pod aims at its next checkpoint at thrust 100, 30 when it faces
/// more than 90° away. Player 0's first pod BOOSTs once, on a long straight; player 1's pods
/// SHIELD when another pod is about to touch them.
fn decide(race: &Race, index: usize) -> (Command, String) {
    let pods = race.pods();
    let pod = &pods[index];
    let next = pod.next_checkpoint(race.map.checkpoint_count());
    let target = race.map.checkpoint(next);
    let (tx, ty) = (target.x as i32, target.y as i32);
    let distance = pod.pos.distance(target);
    let off_angle = pod.angle_rad.map_or(0.0, |angle| {
        let wanted = (target.y - pod.pos.y).atan2(target.x - pod.pos.x);
        let difference = (wanted - angle).rem_euclid(std::f64::consts::TAU);
        difference.min(std::f64::consts::TAU - difference)
    });
    let thrust = if off_angle > std::f64::consts::FRAC_PI_2 {
        30
    } else {
        100
    };
    if index == 0 && !pod.boost_used && off_angle < 0.1 && distance > 5000.0 {
        return (Command::new(tx, ty, Thrust::Boost), "boost!".to_string());
    }
    if race.player_of(index) == 1 {
        let threatened = pods.iter().enumerate().any(|(other, rival)| {
            other != index && {
                let here = pod.pos + pod.vel;
                let there = rival.pos + rival.vel;
                here.distance(there) < 850.0
            }
        });
        if threatened {
            return (Command::new(tx, ty, Thrust::Shield), "shield".to_string());
        }
    }
    let message = if distance < 2000.0 {
        format!("cp {next}")
    } else {
        String::new()
    };
    (Command::new(tx, ty, Thrust::Power(thrust)), message)
}

/// What a pod was told this turn, for its replay record.
struct Applied<'a> {
    command: &'a Command,
    thrust: u16,
    message: &'a str,
}

/// The thrust the engine applies for `command` to `pod` (its state before the turn):
/// 0 under SHIELD and its lock, 650 for a first BOOST, the league cap for a later one.
fn applied_thrust(pod: &Pod, command: &Command, league: League) -> u16 {
    match command.thrust {
        Thrust::Shield => 0,
        _ if pod.shield_lock_turns > 0 => 0,
        Thrust::Boost if !pod.boost_used => 650,
        Thrust::Boost => league.max_thrust(),
        Thrust::Power(power) => power,
    }
}

fn pod_json(pod: &Pod, map: &Map, applied: Option<Applied>) -> Value {
    let (thrust, target, shield, message) = match applied {
        None => (0, Value::Null, false, ""),
        Some(applied) => (
            applied.thrust,
            json!([
                applied.command.target.x as i64,
                applied.command.target.y as i64
            ]),
            applied.command.thrust == Thrust::Shield,
            applied.message,
        ),
    };
    json!({
        "x": pod.pos.x as i64,
        "y": pod.pos.y as i64,
        "vx": pod.vel.x as i64,
        "vy": pod.vel.y as i64,
        "angle": pod.angle_rad,
        "next_checkpoint": pod.next_checkpoint(map.checkpoint_count()),
        "passes": pod.passes,
        "thrust": thrust,
        "target": target,
        "shield": shield,
        "boost_used": pod.boost_used,
        "message": message,
    })
}

fn output_line(command: &Command, message: &str) -> String {
    let thrust = match command.thrust {
        Thrust::Power(power) => power.to_string(),
        Thrust::Boost => "BOOST".to_string(),
        Thrust::Shield => "SHIELD".to_string(),
    };
    let line = format!(
        "{} {} {thrust}",
        command.target.x as i64, command.target.y as i64
    );
    if message.is_empty() {
        line
    } else {
        format!("{line} {message}")
    }
}

fn collision_json(collision: &Collision) -> Value {
    json!({
        "time": collision.time,
        "a": collision.pod_a,
        "b": collision.pod_b,
        "ax": collision.pos_a.x,
        "ay": collision.pos_a.y,
        "bx": collision.pos_b.x,
        "by": collision.pos_b.y,
        "impulse": collision.impulse,
    })
}
