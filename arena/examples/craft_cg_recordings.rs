//! Writes the crafted CodinGame recordings of `arena/tests/data/cg-crafted/`: games played on our
//! referee (`csb::engine::Race`) by a few scripted drivers and written the way CodinGame writes
//! them (csb-rules.md §9), one for each way a recording can end or show its rules that the two
//! real games we hold do not cover: a checkpoint timeout, the 500-turn limit, both players
//! eliminated in the same turn, a time-out (the recording stops with no cause the physics shows),
//! and current rules in the viewer-frame form (with and without a BOOST). `arena import-cg` must
//! read each with no mismatch and name the cause of its end (`arena/tests/import_cg.rs`).
//!
//! `cargo run -p arena --example craft_cg_recordings [-- OUT_DIR]` (default: the test data
//! folder). Numbers are written with Rust's shortest round-trip formatting, which is Java's
//! `Double.toString` except in exponent notation (`1e-5` for `1.0E-5`); both parse to the same
//! double. Each game is checked to end as intended, or the program stops with an error.

use csb::engine::rounding::java_round;
use csb::engine::{Collision, Command, EndReason, League, Map, Pod, Race, Thrust, Vec2};
use serde_json::{json, Value};
use std::f64::consts::PI;
use std::path::PathBuf;

/// How a scripted pod drives.
#[derive(Clone, Copy, PartialEq)]
enum Driver {
    /// Aims at its next checkpoint (corrected for its drift) at full thrust, slower in sharp turns.
    Racer,
    /// Like `Racer`, with a BOOST on turn 1.
    Booster,
    /// Stays where it is: thrust 0.
    Idle,
    /// Waits (thrust 0) until its player's checkpoint timer is low, then races to the next
    /// checkpoint: passes now and then but never finishes within 500 turns.
    Dawdler,
}

/// The two forms CodinGame recordings come in (csb-rules.md §9.1, §9.2).
#[derive(Clone, Copy, PartialEq)]
enum Form {
    ViewerFrames,
    GameResult,
}

struct Case {
    name: &'static str,
    description: &'static str,
    form: Form,
    checkpoints: usize,
    pods_per_player: usize,
    drivers: [Driver; 2],
    /// Stop after this turn with player 0 eliminated outside the physics (a time-out).
    time_out_after: Option<u16>,
    expected: Option<EndReason>,
}

/// Turns of the timer left below which a `Dawdler` sets off.
const DAWDLER_SETS_OFF_AT: i32 = 40;
/// The thrust of the drivers, within every league's cap (csb-rules.md §1).
const FULL_THRUST: u16 = 100;

fn normalised(angle: f64) -> f64 {
    let mut a = angle % (2.0 * PI);
    if a > PI {
        a -= 2.0 * PI;
    } else if a < -PI {
        a += 2.0 * PI;
    }
    a
}

fn racing_command(pod: &Pod, next: Vec2) -> Command {
    let target = Vec2::new(next.x - 3.0 * pod.vel.x, next.y - 3.0 * pod.vel.y);
    let wanted = (target.y - pod.pos.y).atan2(target.x - pod.pos.x);
    let off = pod.angle_rad.map_or(0.0, |a| normalised(wanted - a).abs());
    let thrust = if off > PI / 2.0 { 30 } else { FULL_THRUST };
    Command::new(
        target.x.round() as i32,
        target.y.round() as i32,
        Thrust::Power(thrust),
    )
}

fn command_of(race: &Race, pod_index: usize, driver: Driver) -> Command {
    let pod = &race.pods()[pod_index];
    let next = race
        .map
        .checkpoint(pod.next_checkpoint(race.map.checkpoint_count()));
    let player = race.player_of(pod_index);
    match driver {
        Driver::Racer => racing_command(pod, next),
        Driver::Booster if race.turn == 0 => {
            Command::new(next.x as i32, next.y as i32, Thrust::Boost)
        }
        Driver::Booster => racing_command(pod, next),
        Driver::Idle => Command::new(next.x as i32, next.y as i32, Thrust::Power(0)),
        Driver::Dawdler if race.checkpoint_timeout_left(player) > DAWDLER_SETS_OFF_AT => {
            Command::new(next.x as i32, next.y as i32, Thrust::Power(0))
        }
        Driver::Dawdler => racing_command(pod, next),
    }
}

/// The output line a bot would have printed for `command`.
fn output_line(command: &Command) -> String {
    let thrust = match command.thrust {
        Thrust::Boost => "BOOST".to_string(),
        Thrust::Shield => "SHIELD".to_string(),
        Thrust::Power(p) => p.to_string(),
    };
    format!(
        "{} {} {thrust}",
        command.target.x as i64, command.target.y as i64
    )
}

/// The thrust a pod line shows (field 4): 650 for a first BOOST (the drivers never SHIELD).
fn applied_thrust(pod: &Pod, command: &Command, cap: u16) -> u16 {
    match command.thrust {
        Thrust::Shield => 0,
        _ if pod.shield_lock_turns > 0 => 0,
        Thrust::Boost if pod.boost_used => cap,
        Thrust::Boost => 650,
        Thrust::Power(p) => p,
    }
}

fn number(value: f64) -> String {
    format!("{value:?}")
}

/// The pod state line and its message line (csb-rules.md §9.2).
fn pod_lines(
    race: &Race,
    pod_index: usize,
    turn: Option<(&Command, u16)>,
    rank: u8,
) -> [String; 2] {
    let pod = &race.pods()[pod_index];
    let count = race.map.checkpoint_count();
    let eliminated = u8::from(race.eliminated[race.player_of(pod_index)]);
    let (thrust, target, shield) = match turn {
        Some((command, thrust)) => (
            thrust,
            format!("{} {}", command.target.x as i64, command.target.y as i64),
            u8::from(command.thrust == Thrust::Shield),
        ),
        None => (0, "null null".to_string(), 0),
    };
    let angle = pod.angle_rad.map_or("null".to_string(), number);
    [
        format!(
            "{} {} {} {} {thrust} {eliminated} {target} {angle} {shield} {} {rank}",
            number(pod.pos.x),
            number(pod.pos.y),
            pod.vel.x as i64,
            pod.vel.y as i64,
            pod.next_checkpoint(count),
        ),
        "\"\"".to_string(),
    ]
}

fn rank_timeout_line(race: &Race) -> String {
    let ranks = race.player_ranks();
    format!(
        "{}:{} {}:{}",
        ranks[0],
        race.checkpoint_timeout_left(0),
        ranks[1],
        race.checkpoint_timeout_left(1)
    )
}

fn header(form: Form, frame: usize, key: bool, end: Option<&str>) -> String {
    let end = end.map(|e| format!(" {e}")).unwrap_or_default();
    match (form, key) {
        (Form::ViewerFrames, true) => format!("KEY_FRAME {frame}{end}"),
        (Form::ViewerFrames, false) => format!("INTERMEDIATE_FRAME {frame}"),
        (Form::GameResult, _) => format!(" {frame}{end}"),
    }
}

/// A map from the CodinGame generator with `checkpoints` checkpoints (the first such seed).
fn map_with(checkpoints: usize) -> (i64, Map) {
    (1..)
        .map(|seed| (seed, Map::from_seed(seed)))
        .find(|(_, map)| map.checkpoint_count() == checkpoints)
        .expect("the generator makes maps of 3 to 6 checkpoints")
}

/// Plays the case and returns the recording as JSON.
fn craft(case: &Case) -> Result<Value, String> {
    let (seed, map) = map_with(case.checkpoints);
    let mut race = Race::with_options(map, League::Legend, 3, case.pods_per_player);
    let cap = race.league.max_thrust();
    let pod_count = race.pod_count();
    let checkpoint_numbers: Vec<String> = map
        .checkpoints()
        .iter()
        .map(|c| format!("{} {}", c.x as i64, c.y as i64))
        .collect();
    let spawns: Vec<String> = race
        .pods()
        .iter()
        .enumerate()
        .map(|(i, p)| {
            format!(
                "{} {} {}",
                race.player_of(i),
                number(p.pos.x),
                number(p.pos.y)
            )
        })
        .collect();
    let mut first = vec![
        header(case.form, 0, true, None),
        "CodersStrikeBack".to_string(),
        format!("16000 9000 400 600 {pod_count} 0.3141592653589793"),
        checkpoint_numbers.join(" "),
        spawns.join(" "),
    ];
    for pod in 0..pod_count {
        first.extend(pod_lines(&race, pod, None, 1));
    }
    first.push("1:100 1:100".to_string());
    first.push(String::new());
    // (view lines, agent, stdout) per frame.
    let mut frames: Vec<(Vec<String>, i64, Option<String>)> = vec![(first, -1, None)];
    let mut collision_id = 0;
    while !race.is_over() {
        if case.time_out_after == Some(race.turn) {
            break;
        }
        let drivers: Vec<Driver> = (0..pod_count)
            .map(|p| case.drivers[race.player_of(p)])
            .collect();
        let commands: Vec<Command> = (0..pod_count)
            .map(|p| command_of(&race, p, drivers[p]))
            .collect();
        let thrusts: Vec<u16> = (0..pod_count)
            .map(|p| applied_thrust(&race.pods()[p], &commands[p], cap))
            .collect();
        let mut collisions: Vec<Collision> = Vec::new();
        race.step(&commands, &mut collisions);
        let frame = 2 * usize::from(race.turn);
        let end = match race.outcome.map(|o| o.reason) {
            Some(EndReason::RaceComplete) => Some("endReached"),
            Some(EndReason::TurnLimit) => Some("maxRoundsCountReached"),
            _ => None,
        };
        let ranks = race.pod_ranks();
        let mut key = vec![header(case.form, frame, true, end)];
        for pod in 0..pod_count {
            key.extend(pod_lines(
                &race,
                pod,
                Some((&commands[pod], thrusts[pod])),
                ranks[pod],
            ));
        }
        key.push(rank_timeout_line(&race));
        for c in &collisions {
            collision_id += 1;
            key.push(format!(
                "{collision_id} {} {} {} {} {} {} {} {} {} {}",
                number(c.time),
                c.pod_a,
                java_round(c.pos_a.x) as i64,
                java_round(c.pos_a.y) as i64,
                c.pod_b,
                java_round(c.pos_b.x) as i64,
                java_round(c.pos_b.y) as i64,
                number(c.impulse),
                java_round(c.mean_velocity.x) as i64,
                java_round(c.mean_velocity.y) as i64,
            ));
        }
        key.push(String::new());
        let stdout = |player: usize| -> String {
            (0..pod_count)
                .filter(|&p| race.player_of(p) == player)
                .map(|p| output_line(&commands[p]) + "\n")
                .collect()
        };
        let intermediate = vec![header(case.form, frame - 1, false, None), String::new()];
        frames.push((intermediate, 0, Some(stdout(0))));
        frames.push((key, 1, Some(stdout(1))));
    }
    let reached = race.outcome.map(|o| o.reason);
    if reached != case.expected {
        return Err(format!(
            "{}: the game ended with {reached:?} after turn {}, not {:?}",
            case.name, race.turn, case.expected
        ));
    }
    // CodinGame's ranks: 0 = first; a player eliminated outside the physics is last.
    let ranks: Vec<u8> = match race.outcome {
        Some(outcome) => outcome.ranks.iter().map(|r| r - 1).collect(),
        None => vec![1, 0],
    };
    Ok(match case.form {
        Form::ViewerFrames => json!({
            "description": case.description,
            "frames": frames.into_iter().map(|(lines, _, _)| lines).collect::<Vec<_>>(),
        }),
        Form::GameResult => json!({
            "description": case.description,
            "gameResult": {
                "refereeInput": format!(
                    "seed={seed}\npod_timeout=100\nmap={}\npod_per_player={}",
                    checkpoint_numbers.join(" "),
                    case.pods_per_player
                ),
                "ranks": ranks,
                "agents": [
                    {"codingamer": {"pseudo": "crafted-0"}},
                    {"codingamer": {"pseudo": "crafted-1"}}
                ],
                "frames": frames.into_iter().map(|(lines, agent, stdout)| {
                    let mut frame = json!({
                        "view": lines.join("\n"),
                        "keyframe": agent != 0,
                        "agentId": agent,
                    });
                    if let Some(stdout) = stdout {
                        frame["stdout"] = stdout.into();
                    }
                    frame
                }).collect::<Vec<_>>(),
            }
        }),
    })
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "checkpoint-timeout",
            description: "Crafted on our referee: player 1's pods never move and are eliminated by \
                          the checkpoint timeout after turn 100; the last frame names no reason and \
                          shows player 1's pods with their real next checkpoint id.",
            form: Form::GameResult,
            checkpoints: 4,
            pods_per_player: 2,
            drivers: [Driver::Racer, Driver::Idle],
            time_out_after: None,
            expected: Some(EndReason::Elimination),
        },
        Case {
            name: "turn-limit",
            description: "Crafted on our referee: both players dawdle (pass a checkpoint only when \
                          their timer runs low) and the game stops at the 500-turn limit \
                          (maxRoundsCountReached).",
            form: Form::GameResult,
            checkpoints: 4,
            pods_per_player: 1,
            drivers: [Driver::Dawdler, Driver::Dawdler],
            time_out_after: None,
            expected: Some(EndReason::TurnLimit),
        },
        Case {
            name: "double-elimination",
            description: "Crafted on our referee: no pod moves; both players are eliminated by the \
                          checkpoint timeout after turn 100, a draw (ranks [0, 0]).",
            form: Form::GameResult,
            checkpoints: 3,
            pods_per_player: 2,
            drivers: [Driver::Idle, Driver::Idle],
            time_out_after: None,
            expected: Some(EndReason::Elimination),
        },
        Case {
            name: "time-out",
            description: "Crafted on our referee: the recording stops after turn 60 with player 0 \
                          ranked last and no reason in the header, as when a bot times out; nothing \
                          in the physics ends the race there.",
            form: Form::GameResult,
            checkpoints: 5,
            pods_per_player: 2,
            drivers: [Driver::Racer, Driver::Racer],
            time_out_after: Some(60),
            expected: None,
        },
        Case {
            name: "viewer-current-rules-boost",
            description: "Crafted on our referee, viewer-frame form, current rules: 3 laps of 3 \
                          checkpoints, player 0's pods BOOST on turn 1 (thrust 650 in their pod \
                          lines).",
            form: Form::ViewerFrames,
            checkpoints: 3,
            pods_per_player: 2,
            drivers: [Driver::Booster, Driver::Racer],
            time_out_after: None,
            expected: Some(EndReason::RaceComplete),
        },
        Case {
            name: "viewer-current-rules-no-boost",
            description: "Crafted on our referee, viewer-frame form, current rules without a \
                          BOOST: the race ends on the 9th pass of 3 checkpoints, which only 3 laps \
                          explain (the contest-era rule would race 5).",
            form: Form::ViewerFrames,
            checkpoints: 3,
            pods_per_player: 2,
            drivers: [Driver::Racer, Driver::Racer],
            time_out_after: None,
            expected: Some(EndReason::RaceComplete),
        },
    ]
}

fn main() {
    let out = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/cg-crafted"));
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("craft_cg_recordings: cannot create {}: {e}", out.display());
        std::process::exit(1);
    }
    for case in cases() {
        let written = craft(&case).and_then(|value| {
            let path = out.join(format!("{}.json", case.name));
            let text = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?;
            std::fs::write(&path, text + "\n")
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            Ok(path)
        });
        match written {
            Ok(path) => println!("wrote {}", path.display()),
            Err(e) => {
                eprintln!("craft_cg_recordings: {e}");
                std::process::exit(1);
            }
        }
    }
}
