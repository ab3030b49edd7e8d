//! Games between two bots in-process on the exact engine (`csb::engine::Race`), with the input
//! each player would read on stdin: used to record the input fixtures the tests pipe through the
//! binaries, and by the duel example to compare the bots.

use crate::bot::{Bot, Player};
use crate::reflex::ReflexBot;
use crate::world::{Course, POD_COUNT};
use csb::engine::{turn_input, Command, League, Map, Outcome, PodObservation, Race, Thrust};
use std::fmt::Write;
use std::time::Instant;

/// The initialisation lines a player reads: laps, checkpoint count, one line per checkpoint.
pub fn init_text(map: &Map, laps: u16) -> String {
    let mut text = format!("{laps}\n{}\n", map.checkpoint_count());
    for checkpoint in map.checkpoints() {
        let _ = writeln!(text, "{} {}", checkpoint.x as i64, checkpoint.y as i64);
    }
    text
}

/// A turn's four pod lines.
pub fn turn_text(observations: &[PodObservation; POD_COUNT]) -> String {
    let mut text = String::new();
    for pod in observations {
        let _ = writeln!(
            text,
            "{} {} {} {} {} {}",
            pod.x, pod.y, pod.vx, pod.vy, pod.angle_deg, pod.next_checkpoint
        );
    }
    text
}

/// How a duel ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DuelResult {
    pub outcome: Outcome,
    pub turns: u16,
    /// Passes of each player's best pod at the end.
    pub best_passes: [u16; 2],
}

fn valid(command: &Command, cap: u16) -> bool {
    match command.thrust {
        Thrust::Power(power) => power <= cap,
        Thrust::Boost | Thrust::Shield => true,
    }
}

/// Plays a full game on `map` between the bots `make_first` (player 0) and `make_second`
/// (player 1) builds; `on_turn(race, player)` sees the race before each turn's input is given.
pub fn play<A: Bot, B: Bot>(
    map: Map,
    league: League,
    make_first: impl FnOnce(&Course) -> A,
    make_second: impl FnOnce(&Course) -> B,
    mut on_turn: impl FnMut(&Race),
) -> DuelResult {
    let mut race = Race::new(map, league);
    let course = Course {
        map,
        laps: race.laps,
        league,
    };
    let mut first = Player::new(course, make_first(&course));
    let mut second = Player::new(course, make_second(&course));
    let cap = league.max_thrust();
    while !race.is_over() {
        on_turn(&race);
        let a = first.play_turn(&turn_input(&race, 0), Instant::now());
        let b = second.play_turn(&turn_input(&race, 1), Instant::now());
        if !a.iter().all(|command| valid(command, cap)) {
            race.eliminate(0);
            break;
        }
        if !b.iter().all(|command| valid(command, cap)) {
            race.eliminate(1);
            break;
        }
        race.step(&[a[0], a[1], b[0], b[1]], &mut ());
    }
    let pods = race.pods();
    DuelResult {
        outcome: race.outcome.expect("the loop ends with the game"),
        turns: race.turn,
        best_passes: [
            pods[0].passes.max(pods[1].passes),
            pods[2].passes.max(pods[3].passes),
        ],
    }
}

/// The exact stdin text player 0 reads in a reflex-vs-reflex game on the map of CodinGame seed
/// `seed` (Legend): the initialisation, then every turn's four lines until the game ends.
pub fn record_input(seed: i64) -> String {
    let map = Map::from_seed(seed);
    let league = League::Legend;
    let mut text = String::new();
    let mut started = false;
    let cap = league.max_thrust();
    play(
        map,
        league,
        |_| ReflexBot { cap },
        |_| ReflexBot { cap },
        |race| {
            if !started {
                text.push_str(&init_text(&race.map, race.laps));
                started = true;
            }
            text.push_str(&turn_text(&turn_input(race, 0)));
        },
    );
    text
}
