//! The edge cases of csb-rules.md §4, §5 and §7, one test each, through the public engine API.
//! Every expected number is derived by hand from the rules in the comment above its assertion;
//! velocities and positions are set directly where a case needs a state no short game reaches.

use csb::engine::physics::{play_turn, rotate, Collision};
use csb::engine::rules::MAX_ROTATION;
use csb::engine::vec2::point_segment_distance;
use csb::engine::{Command, EndReason, League, Map, Pod, Race, Thrust, Vec2};
use std::f64::consts::PI;

/// A pod at `(x, y)` moving at `(vx, vy)` with the given facing, nothing passed, boost and shield
/// unused.
fn pod(x: f64, y: f64, vx: f64, vy: f64, angle_rad: Option<f64>) -> Pod {
    Pod {
        pos: Vec2::new(x, y),
        vel: Vec2::new(vx, vy),
        angle_rad,
        ..Pod::spawn(Vec2::ZERO)
    }
}

/// A parked pod far from everything (keeps four-pod turns free of unwanted contacts).
fn parked(x: f64, y: f64) -> Pod {
    pod(x, y, 0.0, 0.0, None)
}

/// The command that leaves a pod alone: target = its own position (no rotation, no thrust).
fn idle(pod: &Pod) -> Command {
    Command::new(pod.pos.x as i32, pod.pos.y as i32, Thrust::Power(100))
}

/// Aim due east of the pod (atan2(0, dx > 0) = 0 exactly, so cos = 1 and sin = 0).
fn east(pod: &Pod, thrust: Thrust) -> Command {
    Command::new(pod.pos.x as i32 + 10000, pod.pos.y as i32, thrust)
}

/// Aim due west of the pod (atan2(0, dx < 0) = π).
fn west(pod: &Pod, thrust: Thrust) -> Command {
    Command::new(pod.pos.x as i32 - 10000, pod.pos.y as i32, thrust)
}

/// A map whose checkpoints are far from the test scenes unless a test says otherwise.
fn far_map() -> Map {
    Map::new(&[(15000, 8000), (15000, 1000), (9000, 8500)]).unwrap()
}

/// Plays one turn of `pods` with `commands`, every pod counting passes; returns the bounces.
fn turn(
    pods: &mut [Pod],
    commands: &[Command],
    map: &Map,
    league: League,
    turn: u16,
) -> Vec<Collision> {
    let mut collisions = Vec::new();
    let counts = vec![true; pods.len()];
    play_turn(
        pods,
        commands,
        map,
        league.max_thrust(),
        turn,
        &counts,
        &mut collisions,
    );
    collisions
}

fn xy(pod: &Pod) -> (f64, f64) {
    (pod.pos.x, pod.pos.y)
}

fn vxy(pod: &Pod) -> (f64, f64) {
    (pod.vel.x, pod.vel.y)
}

// ---------------------------------------------------------------------------------------------
// §4.4, §7: collisions

#[test]
fn overlap_at_turn_start_bounces_at_time_zero_even_when_separating() {
    // Pods 799 apart, moving apart at 100 each. §4.4: distance ≤ 800 → candidate at time 0.
    // Bounce A = pod 1 (higher index), B = pod 0: n = (B − A)/799 = (−1, 0); u = A.v − B.v = (200, 0);
    // f = n·u / (1 + 1) = −100; F = f + max(120, f) = 20; I = n × (−F) = (20, 0);
    // A.v = 100 + 20 = 120, B.v = −100 − 20 = −120. δ = 799 − 800 = −1 → push 0.5 + 0.00001:
    // A.x = 799.50001, B.x = −0.50001. Then no contact (separating); move 1: A.x = 919.50001,
    // B.x = −120.50001. Friction: ±102 exactly. Java rounding: 920 and −121.
    // Without the overlap rule they would just drift to 899 / −100 at ±85.
    let mut pods = [
        pod(0.0, 0.0, -100.0, 0.0, Some(PI)),
        pod(799.0, 0.0, 100.0, 0.0, Some(0.0)),
    ];
    let commands = [
        west(&pods[0], Thrust::Power(0)),
        east(&pods[1], Thrust::Power(0)),
    ];
    let collisions = turn(&mut pods, &commands, &far_map(), League::Gold, 1);
    assert_eq!(collisions.len(), 1);
    assert_eq!(collisions[0].time, 0.0);
    assert_eq!((collisions[0].pod_a, collisions[0].pod_b), (1, 0));
    assert_eq!(collisions[0].impulse, 20.0);
    assert_eq!(xy(&pods[0]), (-121.0, 0.0));
    assert_eq!(xy(&pods[1]), (920.0, 0.0));
    assert_eq!(vxy(&pods[0]), (-102.0, 0.0));
    assert_eq!(vxy(&pods[1]), (102.0, 0.0));
}

/// Three pods on the x axis: pod 0 at `x0` moving +400, pod 1 at rest at 0, pod 2 at 1000 moving
/// −400; pod 3 parked far away.
fn cradle(x0: f64) -> [Pod; 4] {
    [
        pod(x0, 0.0, 400.0, 0.0, Some(0.0)),
        pod(0.0, 0.0, 0.0, 0.0, Some(0.0)),
        pod(1000.0, 0.0, -400.0, 0.0, Some(PI)),
        parked(10000.0, 8000.0),
    ]
}

fn cradle_commands(pods: &[Pod; 4]) -> [Command; 4] {
    [
        east(&pods[0], Thrust::Power(0)),
        east(&pods[1], Thrust::Power(0)),
        west(&pods[2], Thrust::Power(0)),
        idle(&pods[3]),
    ]
}

#[test]
fn simultaneous_collisions_bounce_in_pair_order_with_the_updated_state() {
    // Pairs (2,1) and (1,0) both touch at t = 200/400 = 0.5 (qa = 160000, qb = −400000,
    // qc = 360000, √Δ = 320000, c = 80000/160000 exactly). Pair order puts (2,1) first:
    //   (2,1): n = (−1,0), u = −400 − 0, f = 200, F = 400 → pod 2 v = 0, pod 1 v = −400.
    //   (1,0) with pod 1 already at −400: u = −400 − 400 = −800, f = 400, F = 800
    //         → pod 1 v = +400, pod 0 v = −400.
    // (In the other order, or with the velocities of the round's start, (1,0) would get F = 400.)
    // Pod 1 then catches pod 2 (pushed only 0.00001 + 0.000015 apart) a hair later: F = 400, pod 1
    // stops, pod 2 leaves at −(−400) = +400. End: speeds −400, 0, +400 → ×0.85 = −340, 0, 340;
    // positions −800 − 200 = −1000, 0, 800 + 200 = 1000 (to within 0.0001 before rounding).
    let mut pods = cradle(-1000.0);
    let commands = cradle_commands(&pods);
    let collisions = turn(&mut pods, &commands, &far_map(), League::Gold, 1);
    let summary: Vec<(usize, usize, f64)> = collisions
        .iter()
        .map(|c| (c.pod_a, c.pod_b, c.impulse))
        .collect();
    assert_eq!(summary, vec![(2, 1, 400.0), (1, 0, 800.0), (2, 1, 400.0)]);
    assert_eq!((collisions[0].time, collisions[1].time), (0.5, 0.5));
    assert!(collisions[2].time > 0.5 && collisions[2].time < 0.5 + 1e-6);
    let speeds: Vec<f64> = pods[..3].iter().map(|p| p.vel.x).collect();
    assert_eq!(speeds, vec![-340.0, 0.0, 340.0]);
    let xs: Vec<f64> = pods[..3].iter().map(|p| p.pos.x).collect();
    assert_eq!(xs, vec![-1000.0, 0.0, 1000.0]);
}

#[test]
fn collisions_within_the_epsilon_window_bounce_in_the_same_round() {
    // Same cradle with pod 0 0.002 further back: (1,0) would touch at 200.002/400 = 0.500005,
    // within 0.00001 of the first contact (2,1) at 0.5. Both bounce in the round of t = 0.5, the
    // second with its own candidate time 0.500005 and the positions of t = 0.5 (pods 800.002 −
    // 0.00001 apart: no separation push), F = 800 as above. Recomputing contacts after the first
    // bounce instead would find (1,0) at 0.5 + 0.00199/800 ≈ 0.5000025.
    let mut pods = cradle(-1000.002);
    let commands = cradle_commands(&pods);
    let collisions = turn(&mut pods, &commands, &far_map(), League::Gold, 1);
    assert!(collisions.len() >= 2);
    assert_eq!((collisions[0].pod_a, collisions[0].pod_b), (2, 1));
    assert_eq!(collisions[0].time, 0.5);
    assert_eq!((collisions[1].pod_a, collisions[1].pod_b), (1, 0));
    assert!(
        (collisions[1].time - 0.500005).abs() < 1e-9,
        "{}",
        collisions[1].time
    );
    assert_eq!(collisions[1].impulse, 800.0);
    // The bounce happened where pod 0 was at t = 0.5, not at its own contact time.
    assert!((collisions[1].pos_b.x - -800.002).abs() < 1e-9);
}

// ---------------------------------------------------------------------------------------------
// §4.6, §7: rounding

#[test]
fn negative_halves_round_toward_positive_infinity() {
    // No thrust (target = own position). x = 0 + (−2.5) × 1 = −2.5 → Java round −2 (Rust's
    // f64::round would give −3); y = 0 + 2.5 = 2.5 → 3. Pod 1: −1 + (−1.5) = −2.5 → −2 as well.
    // Speeds: ±2.5 × 0.85 = ±2.125 → truncated toward zero: ±2.
    let mut pods = [
        pod(0.0, 0.0, -2.5, 2.5, None),
        pod(-1.0, 5000.0, -1.5, -0.5, None),
    ];
    let commands = [idle(&pods[0]), idle(&pods[1])];
    turn(&mut pods, &commands, &far_map(), League::Gold, 1);
    assert_eq!(xy(&pods[0]), (-2.0, 3.0));
    // y = 5000 − 0.5 = 4999.5 → 5000.
    assert_eq!(xy(&pods[1]), (-2.0, 5000.0));
    assert_eq!(vxy(&pods[0]), (-2.0, 2.0));
    // −1.5 × 0.85 = −1.275 → −1 (toward zero, not −2); −0.5 × 0.85 → −0.
    assert_eq!(vxy(&pods[1]), (-1.0, 0.0));
}

// ---------------------------------------------------------------------------------------------
// §4.1: shield

/// The speed of a pod at rest at the origin facing east after each turn of `thrusts`, all aimed
/// east (a pod far away keeps the slice realistic and out of reach).
fn speeds_after(thrusts: &[Thrust]) -> Vec<f64> {
    let map = far_map();
    let mut pods = [pod(0.0, 0.0, 0.0, 0.0, Some(0.0)), parked(0.0, 8000.0)];
    let mut speeds = Vec::new();
    for (index, &thrust) in thrusts.iter().enumerate() {
        let commands = [east(&pods[0], thrust), idle(&pods[1])];
        turn(&mut pods, &commands, &map, League::Gold, index as u16 + 1);
        speeds.push(pods[0].vel.x);
    }
    speeds
}

#[test]
fn shield_locks_thrust_for_its_turn_and_the_three_following() {
    // §4.1 step 4: the SHIELD turn and the next 3 have power 0: speed stays 0 for 4 turns; the
    // 5th turn's thrust 100 gives 100 × 0.85 = 85.
    let p = Thrust::Power(100);
    assert_eq!(
        speeds_after(&[Thrust::Shield, p, p, p, p]),
        vec![0.0, 0.0, 0.0, 0.0, 85.0]
    );
}

#[test]
fn reissuing_shield_restarts_the_lock() {
    // SHIELD on turns 1 and 3: no thrust on turns 1..=6 (3 + 3), thrust again on turn 7.
    // A BOOST during the lock gives 0 as well.
    let p = Thrust::Power(100);
    let s = Thrust::Shield;
    assert_eq!(
        speeds_after(&[s, p, s, p, Thrust::Boost, p, p]),
        vec![0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 85.0]
    );
}

#[test]
fn a_shielded_pod_weighs_ten_on_its_shield_turn() {
    // Pod 1 at 1000 comes at −400 toward pod 0 at rest at 0 and issues SHIELD (power 0, mass 10).
    // Contact at t = 200/400 = 0.5. A = pod 1, B = pod 0, n = (−1, 0), u = −400,
    // f = 400 / (0.1 + 1) = 363.63…, F = 2f = 727.27…; pod 0 v = 0 − 727.27 × 1 = −727.27…,
    // pod 1 v = −400 + 727.27 × 0.1 = −327.27…. After friction: −618.18… → −618, −278.18… → −278.
    // With mass 1 (no shield): F = 400 and pod 0 leaves at −400 → −340.
    let mut pods = [
        pod(0.0, 0.0, 0.0, 0.0, Some(0.0)),
        pod(1000.0, 0.0, -400.0, 0.0, Some(PI)),
    ];
    let commands = [idle(&pods[0]), west(&pods[1], Thrust::Shield)];
    let collisions = turn(&mut pods, &commands, &far_map(), League::Gold, 1);
    assert_eq!(collisions.len(), 1);
    assert!((collisions[0].impulse - 8000.0 / 11.0).abs() < 1e-9);
    assert_eq!(pods[0].vel.x, -618.0);
    assert_eq!(pods[1].vel.x, -278.0);
}

#[test]
fn shield_mass_lasts_only_the_shield_turn() {
    // Turn 1: pod 1 (at 1400, speed −400) shields; no contact (600 to close at 400 → t = 1.5).
    // It ends at 1000 with speed −340. Turn 2: it asks thrust 100 west, locked → power 0, mass 1.
    // Contact at t = 200/340; F = 2 × 340/2 = 340 → pod 0 leaves at −340 → ×0.85 = −289.
    // (Mass 10 kept: F = 618.18… → −525; lock ignored: −440 → −374.)
    let map = far_map();
    let mut pods = [
        pod(0.0, 0.0, 0.0, 0.0, Some(0.0)),
        pod(1400.0, 0.0, -400.0, 0.0, Some(PI)),
    ];
    let commands = [idle(&pods[0]), west(&pods[1], Thrust::Shield)];
    assert!(turn(&mut pods, &commands, &map, League::Gold, 1).is_empty());
    assert_eq!((pods[1].pos.x, pods[1].vel.x), (1000.0, -340.0));
    let commands = [idle(&pods[0]), west(&pods[1], Thrust::Power(100))];
    let collisions = turn(&mut pods, &commands, &map, League::Gold, 2);
    assert_eq!(collisions.len(), 1);
    assert_eq!(collisions[0].impulse, 340.0);
    assert_eq!(pods[0].vel.x, -289.0);
    assert_eq!(pods[1].vel.x, 0.0);
}

// ---------------------------------------------------------------------------------------------
// §4.1: boost

#[test]
fn second_boost_gives_the_league_cap_and_boost_is_per_pod() {
    // Turn 1: pod 0 BOOST from rest: 650 × 0.85 = 552.5 → 552. Turn 2: BOOST again → league cap:
    // Gold (552 + 100) × 0.85 = 554.2 → 554; Legend (552 + 200) × 0.85 = 639.2 → 639.
    // Pod 1 (same player) boosts first on turn 2: its own 650 → 552.
    for (league, second) in [(League::Gold, 554.0), (League::Legend, 639.0)] {
        let map = far_map();
        let mut pods = [
            pod(0.0, 0.0, 0.0, 0.0, Some(0.0)),
            pod(0.0, 3000.0, 0.0, 0.0, Some(0.0)),
        ];
        let commands = [
            east(&pods[0], Thrust::Boost),
            east(&pods[1], Thrust::Power(0)),
        ];
        turn(&mut pods, &commands, &map, league, 1);
        assert_eq!(pods[0].vel.x, 552.0);
        assert!(pods[0].boost_used && !pods[1].boost_used);
        let commands = [east(&pods[0], Thrust::Boost), east(&pods[1], Thrust::Boost)];
        turn(&mut pods, &commands, &map, league, 2);
        assert_eq!(pods[0].vel.x, second, "{league:?}");
        assert_eq!(pods[1].vel.x, 552.0, "{league:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// §4.2, §7: rotation

#[test]
fn target_on_the_pod_means_no_rotation_no_thrust_and_the_angle_stays_unset() {
    // §4.2: target = position → no rotation, no acceleration; the pod only drifts (speed 100 →
    // position 1100, speed 85). A pod at rest stays put with its angle unset.
    let mut pods = [
        pod(1000.0, 1000.0, 0.0, 0.0, None),
        pod(1000.0, 5000.0, 100.0, 0.0, Some(1.0)),
    ];
    let commands = [
        Command::new(1000, 1000, Thrust::Power(100)),
        Command::new(1000, 5000, Thrust::Power(100)),
    ];
    turn(&mut pods, &commands, &far_map(), League::Gold, 1);
    assert_eq!(pods[0].angle_rad, None);
    assert_eq!(
        (xy(&pods[0]), vxy(&pods[0])),
        ((1000.0, 1000.0), (0.0, 0.0))
    );
    assert_eq!(pods[1].angle_rad, Some(1.0));
    assert_eq!(
        (xy(&pods[1]), vxy(&pods[1])),
        ((1100.0, 5000.0), (85.0, 0.0))
    );
}

#[test]
fn first_move_faces_the_target_without_the_18_degree_limit() {
    // Angle unset → a = atan2(1000, 0) = π/2 (90°, straight down), no clamp. Thrust 100:
    // v = (cos(π/2) ≈ 6e-17, 1) × 100 → × 0.85 → (0, 85) after truncation.
    // The same order to a pod already facing east (a = 0) turns it by π/10 only.
    let mut pods = [
        pod(1000.0, 1000.0, 0.0, 0.0, None),
        pod(5000.0, 1000.0, 0.0, 0.0, Some(0.0)),
    ];
    let commands = [
        Command::new(1000, 2000, Thrust::Power(100)),
        Command::new(5000, 2000, Thrust::Power(100)),
    ];
    turn(&mut pods, &commands, &far_map(), League::Gold, 1);
    assert_eq!(pods[0].angle_rad, Some(PI / 2.0));
    assert_eq!(
        (xy(&pods[0]), vxy(&pods[0])),
        ((1000.0, 1100.0), (0.0, 85.0))
    );
    assert_eq!(pods[1].angle_rad, Some(MAX_ROTATION));
}

#[test]
fn a_difference_of_exactly_18_degrees_is_clamped() {
    // Target due east: wanted = atan2(0, 1) = 0. Current a = 2π − π/10 (unnormalised, as the
    // referee keeps it). da = (0 − a) % 2π = −a; r = (−2a) % 2π + a = π/10 exactly (checked in f64).
    // §4.2 `|r| ≥ π/10` → a + π/10 = 2π (6.283185307179586); a strict `>` would snap to 0.
    let current = 2.0 * PI - MAX_ROTATION;
    let turned = rotate(Some(current), Vec2::new(0.0, 0.0), Vec2::new(1000.0, 0.0));
    assert_eq!(turned, current + MAX_ROTATION);
    assert_eq!(turned, 2.0 * PI);
    // Just under 18° the pod snaps to the exact target direction.
    let current = 2.0 * PI - MAX_ROTATION + 1e-9;
    assert_eq!(
        rotate(Some(current), Vec2::new(0.0, 0.0), Vec2::new(1000.0, 0.0)),
        0.0
    );
}

// ---------------------------------------------------------------------------------------------
// §4.7: checkpoints

#[test]
fn a_fast_pod_passes_two_close_checkpoints_in_one_turn() {
    // Checkpoints 1 and 2 are 1300 apart on y = 4000. Pod 0 at x = 1500 with the Gold top speed
    // 566 boosts east: v = 566 + 650 = 1216, ends at 2716. The segment 1500→2716 passes through
    // checkpoint 1 (2000) and comes within 3300 − 2716 = 584 ≤ 600 of checkpoint 2 → 2 passes
    // in turn 7, next checkpoint 3.
    let map = Map::new(&[(8000, 8000), (2000, 4000), (3300, 4000), (9000, 1000)]).unwrap();
    let mut pods = [
        pod(1500.0, 4000.0, 566.0, 0.0, Some(0.0)),
        parked(1500.0, 7000.0),
    ];
    let commands = [east(&pods[0], Thrust::Boost), idle(&pods[1])];
    turn(&mut pods, &commands, &map, League::Gold, 7);
    assert_eq!(xy(&pods[0]), (2716.0, 4000.0));
    assert_eq!(pods[0].passes, 2);
    assert_eq!(pods[0].next_checkpoint(4), 3);
    assert_eq!(pods[0].last_pass_turn, 7);
}

#[test]
fn a_checkpoint_near_the_bounce_point_counts() {
    // Pod 0 at (4000, 4000) moves east at 1000; pod 1 rests at (5200, 4600). Contact when
    // (1000t − 1200)² + 600² = 800² → t = (1200 − √280000)/1000 = 0.67085, pod 0 at
    // W = (4670.85, 4000). n = (W − (5200, 4600))/800 = (−0.66144, −0.75), u = (−1000, 0),
    // f = 330.72, F = 661.44: pod 0 leaves at (562.5, −496.08) and ends at (4856.00, 3836.72)
    // → rounded (4856, 3837). Checkpoint 1 at (4700, 4560): 560.76 from W (on the polyline), but
    // 681.06 from the straight segment start→end. §4.7: the polyline counts → 1 pass.
    let map = Map::new(&[(12000, 8000), (4700, 4560), (12000, 1000)]).unwrap();
    let mut pods = [
        pod(4000.0, 4000.0, 1000.0, 0.0, Some(0.0)),
        pod(5200.0, 4600.0, 0.0, 0.0, None),
    ];
    let start = pods[0].pos;
    let commands = [east(&pods[0], Thrust::Power(0)), idle(&pods[1])];
    let mut collisions = Vec::new();
    // Pod 1 would pass checkpoint 1 too (501.6 from its path): only pod 0 counts here.
    play_turn(
        &mut pods,
        &commands,
        &map,
        100,
        1,
        &[true, false],
        &mut collisions,
    );
    assert_eq!(collisions.len(), 1);
    assert!((collisions[0].time - 0.670_849_737_787).abs() < 1e-9);
    assert_eq!(xy(&pods[0]), (4856.0, 3837.0));
    let checkpoint = map.checkpoint(1);
    let straight = point_segment_distance(start, pods[0].pos, checkpoint);
    assert!(straight > 680.0 && straight < 682.0, "{straight}");
    assert!(point_segment_distance(start, collisions[0].pos_b, checkpoint) < 561.0);
    assert_eq!(pods[0].passes, 1);
    assert_eq!(pods[1].passes, 0);
}

// ---------------------------------------------------------------------------------------------
// §5.4, §5.5: timeouts, eliminations, turn limit

fn template_map() -> Map {
    Map::new(&[(12460, 1350), (10540, 5980), (3580, 5180), (13580, 7600)]).unwrap()
}

/// Full thrust at the pod's next checkpoint.
fn drive(race: &Race, pod: usize, thrust: u16) -> Command {
    let state = &race.pods()[pod];
    let target = race
        .map
        .checkpoint(state.next_checkpoint(race.map.checkpoint_count()));
    Command::new(target.x as i32, target.y as i32, Thrust::Power(thrust))
}

/// One turn where `drives[pod]` decides whether the pod drives or sits still.
fn step_pods(race: &mut Race, drives: [bool; 4]) {
    let commands: Vec<Command> = (0..4)
        .map(|pod| {
            if drives[pod] {
                drive(race, pod, 100)
            } else {
                idle(&race.pods()[pod])
            }
        })
        .collect();
    race.step(&commands, &mut ());
}

/// One turn where `player_drives[p]` decides whether player p's pods drive or sit still.
fn step(race: &mut Race, player_drives: [bool; 2]) {
    let [p0, p1] = player_drives;
    step_pods(race, [p0, p0, p1, p1]);
}

fn latest_pass(race: &Race, player: usize) -> u16 {
    race.pods()[2 * player..2 * player + 2]
        .iter()
        .map(|pod| pod.last_pass_turn)
        .max()
        .unwrap()
}

#[test]
fn a_player_that_never_passes_is_eliminated_at_the_end_of_turn_100() {
    // §5.4: eliminated at the end of turn R when R − 0 ≥ 100, i.e. turn 100, not 99. Player 1
    // passes checkpoint 1 early (and again later), so only player 0 goes and player 1 wins.
    let mut race = Race::new(template_map(), League::Gold);
    for _ in 0..99 {
        step(&mut race, [false, true]);
    }
    assert!(!race.is_over());
    assert!(latest_pass(&race, 1) > 0);
    assert_eq!(race.checkpoint_timeout_left(0), 1);
    step(&mut race, [false, true]);
    assert_eq!(race.turn, 100);
    let outcome = race.outcome.expect("eliminated at turn 100");
    assert_eq!(outcome.reason, EndReason::Elimination);
    assert_eq!(race.eliminated, [true, false]);
    assert_eq!(outcome.winner(), Some(1));
}

#[test]
fn after_a_pass_at_turn_r_elimination_comes_at_the_end_of_turn_r_plus_100() {
    // Player 1 drives one pod until its first pass at turn r, then idles (drifting, passing
    // nothing more); player 0 keeps driving. Player 1 is out at the end of turn r + 100 exactly.
    let mut race = Race::new(template_map(), League::Gold);
    while latest_pass(&race, 1) == 0 {
        step_pods(&mut race, [true, true, true, false]);
    }
    let r = latest_pass(&race, 1);
    let passes: u16 = race.pods()[2..].iter().map(|pod| pod.passes).sum();
    while race.turn < r + 99 {
        step(&mut race, [true, false]);
    }
    assert!(!race.is_over(), "turn {}", race.turn);
    step(&mut race, [true, false]);
    assert_eq!(
        race.pods()[2..].iter().map(|pod| pod.passes).sum::<u16>(),
        passes
    );
    let outcome = race.outcome.expect("eliminated at r + 100");
    assert_eq!(race.turn, r + 100);
    assert_eq!(outcome.reason, EndReason::Elimination);
    assert_eq!(race.eliminated, [false, true]);
    assert_eq!(outcome.winner(), Some(0));
}

#[test]
fn both_players_eliminated_in_the_same_turn_is_a_draw() {
    // Nobody moves: both reach the checkpoint timeout at the end of turn 100 → ranks 1/1.
    let mut race = Race::new(template_map(), League::Gold);
    while !race.is_over() {
        step(&mut race, [false, false]);
    }
    let outcome = race.outcome.unwrap();
    assert_eq!(race.turn, 100);
    assert_eq!(race.eliminated, [true, true]);
    assert_eq!(outcome.reason, EndReason::Elimination);
    assert_eq!(outcome.ranks, [1, 1]);
    assert_eq!(outcome.winner(), None);
}

#[test]
fn turn_limit_500_lets_the_ranking_decide() {
    // With 50 laps nobody finishes; both players keep passing checkpoints (player 1 at thrust
    // 100, player 0 at 70), so only the 500-turn limit ends the game and §5.2 decides.
    let mut race = Race::with_options(template_map(), League::Gold, 50, 2);
    while !race.is_over() {
        let commands: Vec<Command> = (0..4)
            .map(|pod| drive(&race, pod, if pod < 2 { 70 } else { 100 }))
            .collect();
        race.step(&commands, &mut ());
        if race.turn == 499 {
            assert!(!race.is_over());
        }
    }
    let outcome = race.outcome.unwrap();
    assert_eq!(race.turn, 500);
    assert_eq!(outcome.reason, EndReason::TurnLimit);
    assert_eq!(race.eliminated, [false, false]);
    // The winner is the player whose best pod has more passes (then is closer to its next
    // checkpoint), recomputed here from the pods.
    let best = |player: usize| {
        race.pods()[2 * player..2 * player + 2]
            .iter()
            .map(|pod| {
                let next = race.map.checkpoint(pod.next_checkpoint(4));
                (pod.passes, -pod.pos.distance(next))
            })
            .fold((0, f64::NEG_INFINITY), |a, b| if b > a { b } else { a })
    };
    let expected = if best(0) > best(1) { Some(0) } else { Some(1) };
    assert_ne!(best(0), best(1));
    assert_eq!(outcome.winner(), expected);
    assert_eq!(outcome.ranks, race.player_ranks());
}

// ---------------------------------------------------------------------------------------------
// §5.1, §5.2: finishing and ranking

/// A one-lap race on a map whose checkpoints 0 and 1 are 1000 apart on y = 4500, with pods 0 and
/// 2 one pass from the finish just before checkpoint 0, moving east at `speed0` / `speed2` from
/// x = 7000 / `x2`, at y = 4000 and y = 5000 (mirror images across the checkpoints' line). Pods
/// 1 and 3 are parked with nothing passed (next checkpoint 1).
fn finish_race(speed0: f64, x2: f64, speed2: f64) -> Race {
    let map = Map::new(&[(8000, 4500), (9000, 4500), (12000, 8500), (3000, 1000)]).unwrap();
    let mut race = Race::with_options(map, League::Gold, 1, 2);
    let pods = race.pods_mut();
    pods[0] = Pod {
        passes: 3,
        ..pod(7000.0, 4000.0, speed0, 0.0, Some(0.0))
    };
    pods[2] = Pod {
        passes: 3,
        ..pod(x2, 5000.0, speed2, 0.0, Some(0.0))
    };
    pods[1] = parked(1000.0, 8000.0);
    pods[3] = parked(3000.0, 8000.0);
    race
}

fn finish_turn(race: &mut Race) {
    let pods = race.pods();
    let commands = [
        east(&pods[0], Thrust::Power(0)),
        idle(&pods[1]),
        east(&pods[2], Thrust::Power(0)),
        idle(&pods[3]),
    ];
    race.step(&commands, &mut ());
}

#[test]
fn simultaneous_finish_closer_to_the_next_checkpoint_wins() {
    // Both pass checkpoint 0 (500 from their segments) → 4 passes = 1 lap × 4: race complete for
    // both. Pod 0 ends at x = 7000 + 800 = 7800, pod 2 at 7700; next checkpoint 1 at (9000, 4500):
    // √(1200² + 500²) = 1300 < √(1300² + 500²) = 1392.8 → player 0 wins. (Pod 2's segment ends
    // √(300² + 500²) = 583 from checkpoint 0.) Pod ranks: 0, 2, then the parked pods by distance
    // to checkpoint 1 (9000, 4500): pod 3 at (3000, 8000) √(6000² + 3500²) = 6946 before pod 1 at
    // (1000, 8000) √(8000² + 3500²) = 8732.
    let mut race = finish_race(800.0, 7000.0, 700.0);
    finish_turn(&mut race);
    let outcome = race.outcome.unwrap();
    assert_eq!(outcome.reason, EndReason::RaceComplete);
    assert_eq!((race.pods()[0].passes, race.pods()[2].passes), (4, 4));
    assert_eq!(race.pods()[0].pos.distance(race.map.checkpoint(1)), 1300.0);
    assert_eq!(outcome.ranks, [1, 2]);
    assert_eq!(race.pod_ranks(), [1, 4, 2, 3]);
}

#[test]
fn simultaneous_finish_more_passes_wins_over_distance() {
    // Pod 2 from x = 7700 at 1100 ends at 8800: 500 from checkpoint 0 and √(200² + 500²) = 538.5
    // from checkpoint 1 → 5 passes; pod 0 ends 1300 from checkpoint 1 with 4 passes. Pod 2 is
    // √(3200² + 3500²) = 4742.4 from its next checkpoint 2 (12000, 8500), yet more passes win.
    let mut race = finish_race(800.0, 7700.0, 1100.0);
    finish_turn(&mut race);
    let outcome = race.outcome.unwrap();
    assert_eq!(outcome.reason, EndReason::RaceComplete);
    assert_eq!((race.pods()[0].passes, race.pods()[2].passes), (4, 5));
    assert_eq!(outcome.winner(), Some(1));
}

#[test]
fn identical_simultaneous_finish_is_a_draw_and_ties_share_a_rank() {
    // Mirror images across y = 4500 → same passes, same distance to checkpoint 1 → player ranks
    // 1/1. Pod ranks: pods 0 and 2 share rank 1; the parked pods come next, pod 3 (6946 from
    // checkpoint 1) with rank 3 (two pods strictly ahead), pod 1 (8732) with rank 4.
    let mut race = finish_race(800.0, 7000.0, 800.0);
    finish_turn(&mut race);
    let outcome = race.outcome.unwrap();
    assert_eq!(outcome.reason, EndReason::RaceComplete);
    assert_eq!(outcome.ranks, [1, 1]);
    assert_eq!(outcome.winner(), None);
    assert_eq!(race.pod_ranks(), [1, 4, 1, 3]);
    assert_eq!(race.player_ranks(), [1, 1]);
}

#[test]
fn an_eliminated_player_ranks_last_whatever_its_progress() {
    // §5.2, §5.5: player 0 is ahead (3 passes vs 0) but eliminated → its pods rank 3 and 4,
    // player 1 wins.
    let mut race = finish_race(0.0, 7000.0, 0.0);
    race.pods_mut()[2].passes = 0;
    let outcome = race.eliminate(0);
    assert_eq!(outcome.reason, EndReason::Elimination);
    assert_eq!(outcome.winner(), Some(1));
    // Player 1: pod 2 at (7000, 5000) is nearer checkpoint 1 than pod 3 at (3000, 8000).
    assert_eq!(race.pod_ranks(), [3, 4, 1, 2]);
}
