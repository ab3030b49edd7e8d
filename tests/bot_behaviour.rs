//! The bot on crafted positions, played on the exact engine: a lone runner is fast, a pod one
//! turn from winning wins, a blocker in front of the opponent's leader meets it.

use csb::bot::config::{BotConfig, Evaluation};
use csb::bot::timeout_clocks::TimeoutClocks;
use csb::bot::two_pod::player::Player;
use csb::engine::physics::Collision;
use csb::engine::{turn_input, Command, League, Map, Pod, Race, Thrust, Vec2};
use csb::protocol::{InitInput, TurnInput};
use std::time::Instant;

fn player(race: &Race, iterations: u64) -> Player {
    player_evaluating(race, iterations, Evaluation::ByLeague)
}

/// A bot of the default flags but its leaf evaluation.
fn player_evaluating(race: &Race, iterations: u64, evaluation: Evaluation) -> Player {
    player_seeded(race, iterations, evaluation, 3)
}

/// A bot of the default flags but its leaf evaluation and its search's seed.
fn player_seeded(race: &Race, iterations: u64, evaluation: Evaluation, seed: u64) -> Player {
    let config = BotConfig {
        iterations: Some(iterations),
        seed,
        nodes_per_agent: 200_000,
        league: race.league,
        evaluation,
        ..BotConfig::default()
    };
    let init = InitInput {
        laps: race.laps,
        checkpoints: race
            .map
            .checkpoints()
            .iter()
            .map(|c| (c.x as i32, c.y as i32))
            .collect(),
    };
    Player::new(config, &init).unwrap()
}

/// Puts the four pods at rest at `setups` (position, checkpoints passed), facing +x.
fn place_pods(race: &mut Race, setups: [(Vec2, u16); 4]) {
    for (pod, (pos, passes)) in race.pods_mut().iter_mut().zip(setups) {
        *pod = Pod {
            angle_rad: Some(0.0),
            passes,
            ..Pod::spawn(pos)
        };
    }
}

/// A bot that joins in the middle of the race: its memory is told the passes it would have
/// counted.
fn player_mid_race(race: &Race, iterations: u64, evaluation: Evaluation) -> Player {
    let mut bot = player_evaluating(race, iterations, evaluation);
    for (slot, pod) in race.pods().iter().enumerate() {
        bot.memory_mut().passes[slot] = pod.passes;
    }
    bot
}

fn bot_commands(bot: &mut Player, race: &Race) -> [Command; 2] {
    let input = TurnInput {
        pods: turn_input(race, 0),
        received_at: Instant::now(),
    };
    bot.play_turn(&input).commands
}

/// Aim at the next checkpoint at `thrust` (a plain reflex driver).
fn aim(race: &Race, pod: usize, thrust: u16) -> Command {
    let state = race.pods()[pod];
    let next = race
        .map
        .checkpoint(state.next_checkpoint(race.map.checkpoint_count()));
    Command::new(next.x as i32, next.y as i32, Thrust::Power(thrust))
}

/// Stand still: target = own position.
fn idle(race: &Race, pod: usize) -> Command {
    let pos = race.pods()[pod].pos;
    Command::new(pos.x as i32, pos.y as i32, Thrust::Power(0))
}

/// Turns a driver needs for its best pod to pass `passes` checkpoints, the opponent idle far away.
fn turns_to_pass(passes: u16, mut driver: impl FnMut(&Race) -> [Command; 2]) -> u16 {
    let mut race = Race::new(Map::from_seed(11), League::Legend);
    for pod in 2..4 {
        race.pods_mut()[pod].pos = Vec2::new(-20000.0, -20000.0 - 2000.0 * pod as f64);
    }
    while race.pods()[0].passes.max(race.pods()[1].passes) < passes && !race.is_over() {
        let ours = driver(&race);
        let commands = [ours[0], ours[1], idle(&race, 2), idle(&race, 3)];
        race.step(&commands, &mut ());
    }
    race.turn
}

#[test]
fn lone_runner_is_faster_than_a_reflex_driver() {
    let reflex = [100, 150, 200]
        .iter()
        .map(|&thrust| turns_to_pass(4, |race| [aim(race, 0, thrust), aim(race, 1, thrust)]))
        .min()
        .unwrap();
    let race = Race::new(Map::from_seed(11), League::Legend);
    let mut bot = player(&race, 3000);
    let ours = turns_to_pass(4, |race| bot_commands(&mut bot, race));
    eprintln!("4 checkpoints: bot {ours} turns, best reflex {reflex} turns");
    assert!(ours < 100, "the bot never got there");
    assert!(ours <= reflex, "bot {ours} turns, reflex {reflex}");
}

#[test]
fn a_pod_out_of_reach_of_every_pod_never_shields() {
    // A shield far from everyone only locks the thrust for four turns (the search used to play
    // it to coast, docs/strength.md row F1).
    let race = Race::new(Map::from_seed(11), League::Legend);
    let mut bot = player(&race, 3000);
    let mut lone_shields = 0;
    let mut turns = 0;
    turns_to_pass(6, |race| {
        let commands = bot_commands(&mut bot, race);
        let pods = race.pods();
        for (index, command) in commands.iter().enumerate() {
            let (me, mate) = (&pods[index], &pods[1 - index]);
            // Both pods' full thrust plus their relative speed: nothing closer can be touched.
            let reach =
                800.0 + 400.0 + (me.vel.x - mate.vel.x).abs() + (me.vel.y - mate.vel.y).abs();
            if command.thrust == Thrust::Shield && me.pos.distance(mate.pos) >= reach {
                lone_shields += 1;
            }
        }
        turns += 1;
        commands
    });
    assert!(turns > 20, "the race took {turns} turns");
    assert_eq!(lone_shields, 0, "SHIELD out of reach in {turns} turns");
}

#[test]
fn a_pod_one_turn_from_winning_takes_the_winning_move() {
    // Pod 0 has passed every checkpoint but the last; it stands 1000 from checkpoint 0 (the
    // finish), at rest, facing it. Thrust 200 moves it 200 (800 away: no pass); only BOOST (650)
    // brings it within 600. The opponent is two passes behind, too far away to interfere.
    let map = Map::new(&[(8000, 4500), (13000, 2000), (3000, 2000)]).unwrap();
    let mut race = Race::new(map, League::Legend);
    let finish = race.passes_to_finish();
    let setups = [
        (Vec2::new(7000.0, 4500.0), finish - 1),
        (Vec2::new(3000.0, 8000.0), 0),
        (Vec2::new(12000.0, 5500.0), finish - 2),
        (Vec2::new(12000.0, 8000.0), 0),
    ];
    place_pods(&mut race, setups);
    let mut bot = player_mid_race(&race, 3000, Evaluation::ByLeague);
    let ours = bot_commands(&mut bot, &race);
    let commands = [ours[0], ours[1], aim(&race, 2, 0), idle(&race, 3)];
    race.step(&commands, &mut ());
    assert_eq!(ours[0].thrust, Thrust::Boost, "{ours:?}");
    assert_eq!(race.outcome.and_then(|o| o.winner()), Some(0));
}

/// Seeds the blocker scene is searched with: a search is a draw, and one seed says little of a
/// bot that meets the leader three times in four.
const BLOCKER_SEEDS: std::ops::RangeInclusive<u64> = 1..=16;

#[test]
fn a_blocker_in_front_of_the_opponent_leader_meets_it() {
    let met: Vec<bool> = BLOCKER_SEEDS
        .map(|seed| the_blocker_meets_the_leader(seed, 3000))
        .collect();
    let times = met.iter().filter(|met| **met).count();
    // Generation 1's networks meet it 14 times in 16, generation 3's value network with row
    // R17's policy 16 times; row R17's policy with generation 1's value network 8 times.
    assert!(
        times * 4 >= met.len() * 3,
        "the blocker let the leader through too often: met {times} times of {} ({met:?})",
        met.len()
    );
}

/// Whether our blocker (pod 1), searched with `seed` at `iterations` a turn, collides with the
/// opponent's runner (pod 2) before it passes its checkpoint (within 8 turns). The runner races
/// from the left toward checkpoint 1 at full speed; the blocker waits 2500 in front of it, a
/// little off its line. Our runner is far away.
fn the_blocker_meets_the_leader(seed: u64, iterations: u64) -> bool {
    let map = Map::new(&[(2000, 4500), (12000, 4500), (7000, 8000)]).unwrap();
    let mut race = Race::new(map, League::Legend);
    let setups = [
        (Vec2::new(2000.0, 1000.0), Vec2::ZERO, 0.0),
        (Vec2::new(7000.0, 5300.0), Vec2::ZERO, std::f64::consts::PI),
        (Vec2::new(4500.0, 4500.0), Vec2::new(500.0, 0.0), 0.0),
        (Vec2::new(2000.0, 8000.0), Vec2::ZERO, 0.0),
    ];
    for (pod, (pos, vel, angle)) in race.pods_mut().iter_mut().zip(setups) {
        *pod = Pod {
            vel,
            angle_rad: Some(angle),
            ..Pod::spawn(pos)
        };
    }
    let mut bot = player_seeded(&race, iterations, Evaluation::ByLeague, seed);
    for _ in 0..8 {
        let ours = bot_commands(&mut bot, &race);
        let commands = [ours[0], ours[1], aim(&race, 2, 200), aim(&race, 3, 0)];
        let mut collisions: Vec<Collision> = Vec::new();
        race.step(&commands, &mut collisions);
        if collisions.iter().any(|c| (c.pod_a, c.pod_b) == (2, 1)) {
            return true;
        }
        if race.pods()[2].passes > 0 {
            return false;
        }
    }
    false
}

/// Turns (at most 12) until our blocker, pod 1, passes its next checkpoint, when our pods have
/// gone `turns_without_pass` turns without a pass and the bot runs `--timeout-guard 75` with
/// `evaluation` at its leaves.
fn turns_until_the_blocker_passes(turns_without_pass: u32, evaluation: Evaluation) -> Option<u32> {
    // Our runner (pod 0, two passes ahead) is far from its checkpoint; our blocker stands 3000
    // short of its own next checkpoint (1), facing it. The opposing runner (pod 2) is headed
    // for checkpoint 2, down to the left: a blocker turns away to meet it there.
    let map = Map::new(&[(2000, 4500), (12000, 4500), (7000, 8000)]).unwrap();
    let mut race = Race::new(map, League::Legend);
    let setups = [
        (Vec2::new(1000.0, 1000.0), 5),
        (Vec2::new(9000.0, 4500.0), 3),
        (Vec2::new(2000.0, 8000.0), 4),
        (Vec2::new(1000.0, 8500.0), 0),
    ];
    place_pods(&mut race, setups);
    let mut bot = player_mid_race(&race, 3000, evaluation);
    bot.config_mut().timeout_guard = 75;
    bot.memory_mut().turns_without_pass = [turns_without_pass, 0];
    for turn in 1..=12 {
        let ours = bot_commands(&mut bot, &race);
        let commands = [ours[0], ours[1], aim(&race, 2, 100), idle(&race, 3)];
        race.step(&commands, &mut ());
        if race.pods()[1].passes > 3 {
            return Some(turn);
        }
    }
    None
}

/// The clocks a bot's search starts from are the referee's: in a game where player 1 stands
/// still until its checkpoint timeout eliminates it, each bot's clocks (counted from its input)
/// equal the race's `checkpoint_timeout_left` of both players on every turn, through player 0's
/// refills and player 1's run down to the last turn.
#[test]
fn the_bots_checkpoint_clocks_are_the_referees() {
    let mut race = Race::new(Map::from_seed(5), League::Legend);
    let mut bots = [player(&race, 100), player(&race, 100)];
    let mut lowest = [i16::MAX; 2];
    while !race.is_over() {
        let mut commands = [idle(&race, 0); 4];
        for (seat, bot) in bots.iter_mut().enumerate() {
            let input = TurnInput {
                pods: turn_input(&race, seat),
                received_at: Instant::now(),
            };
            let decision = bot.play_turn(&input);
            let referee = TimeoutClocks::new([
                race.checkpoint_timeout_left(seat),
                race.checkpoint_timeout_left(1 - seat),
            ]);
            assert_eq!(
                bot.timeout_clocks(),
                referee,
                "turn {}, seat {seat}",
                race.turn
            );
            lowest[seat] = lowest[seat].min(referee.turns_left[0]);
            commands[2 * seat..2 * seat + 2].copy_from_slice(&decision.commands);
        }
        commands[2] = idle(&race, 2);
        commands[3] = idle(&race, 3);
        race.step(&commands, &mut ());
    }
    assert!(race.turn >= 100, "the game ended at turn {}", race.turn);
    assert!(race.pods()[0].passes.max(race.pods()[1].passes) >= 2);
    assert!(lowest[0] < 100, "player 0's clock never ran: {lowest:?}");
    assert!(
        lowest[1] <= 1,
        "player 1's clock did not run down: {lowest:?}"
    );
}

/// The guard's effect is shown against a control with the hand evaluation: far from the timeout
/// its blocker stays to block. With the default's network at half of each leaf score (since row
/// R10 of docs/strength.md) the blocker of this scene takes its checkpoint even far from the
/// timeout (its team's value counts the pass), so there the test asserts only that near the
/// timeout it passes in time.
#[test]
fn near_the_checkpoint_timeout_the_blocker_races_for_its_own_checkpoint() {
    assert_eq!(
        turns_until_the_blocker_passes(0, Evaluation::Hand),
        None,
        "far from the timeout the blocker blocks"
    );
    for evaluation in [Evaluation::Hand, Evaluation::ByLeague] {
        let turns = turns_until_the_blocker_passes(80, evaluation);
        assert!(
            turns.is_some_and(|turns| turns <= 8),
            "80 turns without a pass: the blocker should pass its checkpoint ({evaluation:?}), \
             took {turns:?}"
        );
    }
}
