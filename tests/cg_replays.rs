//! Re-simulates every turn of the ground-truth CodinGame games in `../shared/data/cg-replays/`
//! from the recorded state and commands, and compares with the recorded result
//! (csb-rules.md §9, §10). Run with and without feature `exact`: positions, speeds, next
//! checkpoints and collisions must match in both; facing angles to the last bit with `exact`.

use csb::engine::physics::{play_turn, Collision};
use csb::engine::rounding::java_round;
use csb::engine::{Command, Map, Pod, Thrust, Vec2};
use std::fs;

const REPLAY_DIR: &str = "../shared/data/cg-replays";

/// One pod line of a key frame (§9.2).
struct ViewPod {
    x: f64,
    y: f64,
    vx: f64,
    vy: f64,
    thrust: u16,
    target: Option<(i32, i32)>,
    angle: Option<f64>,
    shield: bool,
    next_checkpoint: usize,
}

fn parse_view_pod(line: &str) -> ViewPod {
    let f: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(f.len(), 12, "pod line: {line}");
    let num = |i: usize| f[i].parse::<f64>().unwrap();
    ViewPod {
        x: num(0),
        y: num(1),
        vx: num(2),
        vy: num(3),
        thrust: f[4].parse().unwrap(),
        target: (f[6] != "null").then(|| (f[6].parse().unwrap(), f[7].parse().unwrap())),
        angle: (f[8] != "null").then(|| num(8)),
        shield: f[9] == "1",
        next_checkpoint: f[10].parse().unwrap(),
    }
}

fn demo_frames() -> Vec<Vec<String>> {
    let text = fs::read_to_string(format!("{REPLAY_DIR}/csb-viewer-demo-game.json"))
        .expect("the ground-truth games are in ../shared/data/cg-replays");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|frame| {
            frame
                .as_array()
                .unwrap()
                .iter()
                .map(|line| line.as_str().unwrap().to_string())
                .collect()
        })
        .collect()
}

#[derive(Default)]
struct Tally {
    pod_states: usize,
    angles_bit_exact: usize,
    angles_within_ulp: usize,
    collisions: usize,
    collisions_bit_exact: usize,
}

/// Compares an angle; returns (bit-exact, within one ulp).
fn compare_angle(ours: f64, theirs: f64) -> (bool, bool) {
    let bit_exact = ours.to_bits() == theirs.to_bits();
    let ulps = (ours.to_bits() as i64 - theirs.to_bits() as i64).abs();
    (bit_exact, ulps <= 4)
}

#[test]
fn demo_game_every_turn_matches_codingame() {
    let frames = demo_frames();
    let header = &frames[0];
    let numbers: Vec<i32> = header[3]
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    let checkpoints: Vec<(i32, i32)> = numbers.chunks(2).map(|c| (c[0], c[1])).collect();
    let map = Map::new(&checkpoints).unwrap();
    let count = map.checkpoint_count();
    // Frame 0 keeps its 4 header lines before the pods.
    let key_pods = |frame: &[String], skip: usize| -> Vec<ViewPod> {
        (0..4)
            .map(|p| parse_view_pod(&frame[skip + 1 + 2 * p]))
            .collect()
    };
    let mut before = key_pods(&frames[0], 4);
    let mut passes = [0u16; 4];
    let mut shield_lock = [0u8; 4];
    let mut tally = Tally::default();
    let key_frames: Vec<&Vec<String>> = frames
        .iter()
        .enumerate()
        .filter(|(i, _)| *i > 0 && i % 2 == 0)
        .map(|(_, f)| f)
        .collect();
    assert_eq!(key_frames.len(), 277);
    for (turn_index, frame) in key_frames.iter().enumerate() {
        let turn = turn_index as u16 + 1;
        let after = key_pods(frame, 0);
        let mut pods = [Pod::spawn(Vec2::ZERO); 4];
        let mut commands = [Command::new(0, 0, Thrust::Power(0)); 4];
        for p in 0..4 {
            pods[p] = Pod {
                pos: Vec2::new(before[p].x, before[p].y),
                vel: Vec2::new(before[p].vx, before[p].vy),
                angle_rad: before[p].angle,
                passes: passes[p],
                last_pass_turn: 0,
                boost_used: true,
                shield_lock_turns: shield_lock[p],
            };
            let (tx, ty) = after[p].target.unwrap();
            let thrust = if after[p].shield {
                Thrust::Shield
            } else {
                Thrust::Power(after[p].thrust)
            };
            commands[p] = Command::new(tx, ty, thrust);
        }
        let mut collisions: Vec<Collision> = Vec::new();
        play_turn(
            &mut pods,
            &commands,
            &map,
            200,
            turn,
            &[true; 4],
            &mut collisions,
        );
        for p in 0..4 {
            let (ours, theirs) = (&pods[p], &after[p]);
            assert_eq!(
                (ours.pos.x, ours.pos.y, ours.vel.x, ours.vel.y),
                (theirs.x, theirs.y, theirs.vx, theirs.vy),
                "turn {turn} pod {p}: position/speed"
            );
            assert_eq!(
                ours.next_checkpoint(count),
                theirs.next_checkpoint,
                "turn {turn} pod {p}: next checkpoint"
            );
            let (bit_exact, close) = compare_angle(ours.angle_rad.unwrap(), theirs.angle.unwrap());
            assert!(close, "turn {turn} pod {p}: angle far off");
            if cfg!(feature = "exact") {
                assert!(bit_exact, "turn {turn} pod {p}: angle not bit-exact");
            }
            tally.angles_bit_exact += bit_exact as usize;
            tally.angles_within_ulp += close as usize;
            tally.pod_states += 1;
            passes[p] = ours.passes;
            shield_lock[p] = ours.shield_lock_turns;
        }
        // Collision lines follow the pods and the rank:timeout line.
        let recorded: Vec<Vec<&str>> = frame[10..]
            .iter()
            .filter(|line| !line.is_empty())
            .map(|line| line.split_whitespace().collect())
            .collect();
        assert_eq!(
            recorded.len(),
            collisions.len(),
            "turn {turn}: collision count"
        );
        for (line, ours) in recorded.iter().zip(&collisions) {
            let int = |i: usize| line[i].parse::<f64>().unwrap();
            assert_eq!(
                (
                    ours.pod_a as f64,
                    java_round(ours.pos_a.x),
                    java_round(ours.pos_a.y)
                ),
                (int(2), int(3), int(4)),
                "turn {turn}: collision pod A"
            );
            assert_eq!(
                (
                    ours.pod_b as f64,
                    java_round(ours.pos_b.x),
                    java_round(ours.pos_b.y)
                ),
                (int(5), int(6), int(7)),
                "turn {turn}: collision pod B"
            );
            // Time and impulse: one collision of the 40 (turn 117) differs by a few ulps because
            // the recording JVM's Math.sin is one ulp off glibc's there (csb-rules.md §12.6).
            let relative = |a: f64, b: f64| ((a - b) / b).abs();
            assert!(
                relative(ours.time, int(1)) < 1e-13,
                "turn {turn}: collision time"
            );
            assert!(
                relative(ours.impulse, int(8)) < 1e-13,
                "turn {turn}: impulse"
            );
            tally.collisions_bit_exact += (ours.time == int(1) && ours.impulse == int(8)) as usize;
            assert_eq!(
                (
                    java_round(ours.mean_velocity.x),
                    java_round(ours.mean_velocity.y)
                ),
                (int(9), int(10)),
                "turn {turn}: mean velocity"
            );
            tally.collisions += 1;
        }
        before = after;
    }
    assert_eq!(tally.pod_states, 1108);
    assert_eq!(tally.collisions, 40);
    eprintln!(
        "demo game: {} pod states, {} collisions ({} with bit-exact time and impulse), angles bit-exact {}/{}",
        tally.pod_states,
        tally.collisions,
        tally.collisions_bit_exact,
        tally.angles_bit_exact,
        tally.angles_within_ulp
    );
}

#[test]
fn fixture_870433349_every_turn_matches_codingame() {
    let text = fs::read_to_string(format!("{REPLAY_DIR}/pduhard-fixture-game-870433349.txt"))
        .expect("the ground-truth games are in ../shared/data/cg-replays");
    let mut lines = text.lines();
    let mut next_line = || lines.next().expect("fixture ends early");
    let count: usize = next_line().trim().parse().unwrap();
    let checkpoints: Vec<(i32, i32)> = (0..count)
        .map(|_| {
            let v: Vec<i32> = next_line()
                .split_whitespace()
                .map(|n| n.parse().unwrap())
                .collect();
            (v[0], v[1])
        })
        .collect();
    let map = Map::new(&checkpoints).unwrap();
    let turns: usize = next_line().trim().parse().unwrap();
    let mut boost_used = [false; 2];
    let mut shield_lock = [0u8; 2];
    let mut passes = [0u16; 2];
    let mut states = 0;
    let mut bit_exact_angles = 0;
    for turn_index in 0..turns {
        let turn = turn_index as u16 + 1;
        let f: Vec<f64> = next_line()
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect();
        assert_eq!(f.len(), 27);
        let first = f[0] == 1.0;
        let mut pods = [Pod::spawn(Vec2::ZERO); 2];
        let mut commands = [Command::new(0, 0, Thrust::Power(0)); 2];
        for p in 0..2 {
            let c = &f[1 + 3 * p..4 + 3 * p];
            let thrust = match c[2] as i32 {
                -1 => Thrust::Boost,
                -2 => Thrust::Shield,
                t => Thrust::Power(t as u16),
            };
            commands[p] = Command::new(c[0] as i32, c[1] as i32, thrust);
            let pre = &f[7 + 5 * p..12 + 5 * p];
            pods[p] = Pod {
                pos: Vec2::new(pre[0], pre[1]),
                vel: Vec2::new(pre[2], pre[3]),
                angle_rad: if first { None } else { Some(pre[4]) },
                passes: passes[p],
                last_pass_turn: 0,
                boost_used: boost_used[p],
                shield_lock_turns: shield_lock[p],
            };
        }
        play_turn(&mut pods, &commands, &map, 100, turn, &[true; 2], &mut ());
        for p in 0..2 {
            let post = &f[17 + 5 * p..22 + 5 * p];
            let ours = &pods[p];
            assert_eq!(
                (ours.pos.x, ours.pos.y, ours.vel.x, ours.vel.y),
                (post[0], post[1], post[2], post[3]),
                "turn {turn} pod {p}"
            );
            let (bit_exact, close) = compare_angle(ours.angle_rad.unwrap(), post[4]);
            assert!(close, "turn {turn} pod {p}: angle far off");
            if cfg!(feature = "exact") {
                assert!(bit_exact, "turn {turn} pod {p}: angle not bit-exact");
            }
            bit_exact_angles += bit_exact as usize;
            boost_used[p] = ours.boost_used;
            shield_lock[p] = ours.shield_lock_turns;
            passes[p] = ours.passes;
            states += 1;
        }
    }
    assert_eq!(states, 280);
    // The winner's 9th pass (3 laps × 3 checkpoints) is exactly its last turn (§5.1).
    assert_eq!(passes.iter().max(), Some(&9));
    eprintln!("fixture 870433349: {states} pod states, angles bit-exact {bit_exact_angles}");
}

#[test]
fn seed_sample_generates_the_codingame_map_and_spawns() {
    let text = fs::read_to_string(format!("{REPLAY_DIR}/map-seed-samples.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    for sample in json["samples"].as_array().unwrap() {
        let input = sample["refereeInput"].as_str().unwrap();
        let seed: i64 = input
            .lines()
            .find_map(|l| l.strip_prefix("seed="))
            .unwrap()
            .parse()
            .unwrap();
        let map = Map::from_seed(seed);
        let expected: Vec<(f64, f64)> = sample["checkpoints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_f64().unwrap(), p[1].as_f64().unwrap()))
            .collect();
        let ours: Vec<(f64, f64)> = map.checkpoints().iter().map(|c| (c.x, c.y)).collect();
        assert_eq!(ours, expected, "seed {seed}");
        let spawns = map.spawn_positions(4);
        for (spawn, want) in spawns.iter().zip(sample["spawn"].as_array().unwrap()) {
            assert_eq!(
                (spawn.x, spawn.y),
                (want[0].as_f64().unwrap(), want[1].as_f64().unwrap())
            );
        }
    }
}
