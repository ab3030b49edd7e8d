//! Tests of `data::mirror` on self-played games (here, above `selfplay` in the crate's order).

use crate::data::game_file::{GameRecord, PositionRecord, STAT_ACTIONS};
use crate::data::mirror::{mirrored, MIRRORED_ACTION};
use crate::data::position::fast_pods;
use crate::policy::data::tests::quick_game;
use csb::bot::policy_net::action_inputs::{action_inputs, ACTION_INPUTS};
use csb::bot::timeout_clocks::TimeoutClocks;
use csb::bot::value_net::course::Course;
use csb::bot::value_net::features::Inputs;
use csb::engine::Map;

fn short_game() -> GameRecord {
    quick_game(11, 3, None)
}

/// Reflecting twice gives the game back, and the mirror table is its own inverse.
#[test]
fn a_mirror_of_a_mirror_is_the_game() {
    let game = short_game();
    assert_ne!(mirrored(&game), game);
    let twice = mirrored(&mirrored(&game));
    assert_eq!(twice.checkpoints, game.checkpoints);
    for (back, original) in twice.positions.iter().zip(&game.positions) {
        assert_eq!(back.stats, original.stats);
        for (a, b) in back.pods.iter().zip(&original.pods) {
            assert_eq!((a.x, a.y, a.vx, a.vy), (b.x, b.y, b.vx, b.vy));
            let gap = (a.angle_rad.unwrap_or(0.0) - b.angle_rad.unwrap_or(0.0)).abs();
            assert!(gap < 1e-9 || (gap - std::f64::consts::TAU).abs() < 1e-9);
        }
    }
    for action in 0..STAT_ACTIONS {
        assert_eq!(MIRRORED_ACTION[MIRRORED_ACTION[action]], action);
    }
}

/// In the reflected position, every pod's action `MIRRORED_ACTION[a]` goes where action `a`
/// went, reflected: its inputs equal the original's with the across components (the cross
/// products) negated. So the table pairs the actions the right way round, and the
/// reflection is one of the whole geometry the policy reads.
#[test]
fn mirrored_actions_move_as_the_originals_reflected() {
    let game = short_game();
    let original_map = Map::new(&game.checkpoints).unwrap();
    let reflected = mirrored(&game);
    let reflected_map = Map::new(&reflected.checkpoints).unwrap();
    let across = [2, 4, 7, 10, 20];
    let mut compared = 0;
    for (original, mirror) in game.positions.iter().zip(&reflected.positions).step_by(7) {
        let pods = fast_pods(&original.pods, &original_map);
        let mirror_pods = fast_pods(&mirror.pods, &reflected_map);
        let (course, mirror_course) = (Course::new(&original_map), Course::new(&reflected_map));
        for pod in 0..4 {
            let opposing = if pod < 2 { 2 } else { 0 };
            let rows = action_inputs(&pods, &course, pod, opposing);
            let mirror_rows = action_inputs(&mirror_pods, &mirror_course, pod, opposing);
            for action in 0..STAT_ACTIONS {
                for input in 0..ACTION_INPUTS {
                    let sign = if across.contains(&input) { -1.0 } else { 1.0 };
                    let expected = sign * rows[action][input];
                    let got = mirror_rows[MIRRORED_ACTION[action]][input];
                    assert!(
                        (expected - got).abs() < 1e-3,
                        "pod {pod} action {action} input {input}: {expected} vs {got}"
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 1000);
}

/// The position's own inputs are the reflection's up to the sign of the across ones: no
/// input reads which side of the board a pod is on.
#[test]
fn position_inputs_only_change_sign() {
    let game = short_game();
    let reflected = mirrored(&game);
    let (map, mirror_map) = (
        Map::new(&game.checkpoints).unwrap(),
        Map::new(&reflected.checkpoints).unwrap(),
    );
    let passes = game.laps * map.checkpoint_count() as u16;
    let inputs_of = |position: &PositionRecord, map: &Map| {
        let course = Course::new(map);
        let pods = fast_pods(&position.pods, map);
        let legs = pods.map(|pod| course.leg(pod.next_checkpoint as usize));
        Inputs::of(
            &pods,
            map,
            &legs,
            passes,
            TimeoutClocks::new(position.timeout_left),
        )
        .view(0)
    };
    for (original, mirror) in game.positions.iter().zip(&reflected.positions).step_by(5) {
        let (a, b) = (inputs_of(original, &map), inputs_of(mirror, &mirror_map));
        for (index, (x, y)) in a.iter().zip(&b).enumerate() {
            assert!(
                (x.abs() - y.abs()).abs() < 1e-3,
                "input {index}: {x} vs {y}"
            );
        }
    }
}
