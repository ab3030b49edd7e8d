//! Self-play: csb against itself, in-process, through the engine's referee (`Race`) and the
//! bot's own `Player` (the code CodinGame runs, with the input it would be sent), at a fixed
//! number of search iterations per turn, so every game is reproducible from the seed.
//!
//! Game `i` of a run with seed `S` is played on the CodinGame map of the referee seed the arena
//! derives from `(S, i)` (`arena::matches::seeds`: a pair of games per map); each bot's search
//! seed is derived from `(S, i, player)`. When the two players differ (`--opponent-args`), even
//! games seat the first as player 0 and odd games as player 1, as `arena match` does.
//! Each position is recorded from both players' points of view, with the viewing player's root
//! statistics (`data/game_file.rs`).

use crate::data::deep_turns::DeepTurns;
use crate::data::game_file::{ActionStat, GameRecord, PodRecord, PositionRecord, STAT_ACTIONS};
use crate::data::run::map_seed;
use arena::matches::seeds::p1_is_player0;
use csb::bot::config::BotConfig;
use csb::bot::two_pod::player::Player;
use csb::engine::referee::splitmix64::splitmix64;
use csb::engine::rules::POD_COUNT;
use csb::engine::{turn_input, EndReason, League, Map, Pod, Race};
use csb::protocol::{InitInput, TurnInput};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// A player of self-play: its name in the data and its bot settings (iterations set), and the
/// turns it searches deeper, if any (`data/deep_turns.rs`: the iterations set are then the
/// other turns').
#[derive(Clone, Debug)]
pub struct Contestant {
    pub name: String,
    pub config: BotConfig,
    pub deep: Option<DeepTurns>,
}

/// Plays game `index` of a run seeded `seed` between `contestants` (the first seated as player
/// 0 on even games, as player 1 on odd ones) and records it. Errors only on a map the bot
/// rejects (never for CodinGame's maps).
pub fn play_game(
    seed: u64,
    index: u64,
    contestants: &[Contestant; 2],
) -> Result<GameRecord, String> {
    let mut positions = Vec::new();
    let (race, seated) = play_observed(seed, index, contestants, |race, player, _, bot| {
        positions.push(position(race, player, race.turn + 1, bot));
    })?;
    let outcome = race.outcome.expect("the loop ends with the game over");
    Ok(GameRecord {
        index,
        map_seed: map_seed(seed, index),
        laps: race.laps,
        checkpoints: init_input(&race).checkpoints,
        players: [seated[0].name.clone(), seated[1].name.clone()],
        winner: outcome.winner().map(|player| player as u8),
        reason: match outcome.reason {
            EndReason::RaceComplete => "race",
            EndReason::Elimination => "elimination",
            EndReason::TurnLimit => "turns",
        }
        .to_string(),
        turns: race.turn,
        positions,
    })
}

/// What a bot is sent before the first turn of `race`.
pub fn init_input(race: &Race) -> InitInput {
    InitInput {
        laps: race.laps,
        checkpoints: race
            .map
            .checkpoints()
            .iter()
            .map(|c| (c.x as i32, c.y as i32))
            .collect(),
    }
}

/// The race of game `index` of a run seeded `seed`, before its first turn.
pub fn new_race(seed: u64, index: u64) -> Race {
    Race::new(Map::from_seed(map_seed(seed, index)), League::Legend)
}

/// The contestants of game `index` by seat: player 0's, then player 1's.
pub fn seated(index: u64, contestants: &[Contestant; 2]) -> [&Contestant; 2] {
    if p1_is_player0(index as usize) {
        [&contestants[0], &contestants[1]]
    } else {
        [&contestants[1], &contestants[0]]
    }
}

/// Plays game `index` of a run seeded `seed` out, and calls `observe(race, player, input,
/// bot)` each turn after each player's bot decided (the race before the turn, the input the
/// bot was sent). Returns the finished race and the contestants by seat.
pub fn play_observed<F>(
    seed: u64,
    index: u64,
    contestants: &[Contestant; 2],
    mut observe: F,
) -> Result<(Race, [&Contestant; 2]), String>
where
    F: FnMut(&Race, usize, &TurnInput, &Player),
{
    let seated = seated(index, contestants);
    let mut race = new_race(seed, index);
    let init = init_input(&race);
    let mut players = Vec::with_capacity(2);
    for (player, contestant) in seated.iter().enumerate() {
        let mut config = contestant.config.clone();
        config.seed = splitmix64(splitmix64(seed ^ 0x5EED) ^ (index * 2 + player as u64));
        config.league = League::Legend;
        players.push(Player::new(config, &init).map_err(|error| format!("bad map: {error}"))?);
    }
    while !race.is_over() {
        let mut commands = [csb::engine::Command::new(0, 0, csb::engine::Thrust::Power(0)); 4];
        for (player, bot) in players.iter_mut().enumerate() {
            if let (Some(deep), Some(fast)) =
                (seated[player].deep, seated[player].config.iterations)
            {
                bot.config_mut().iterations =
                    Some(deep.iterations_on(seed, index, race.turn.into(), fast));
            }
            let input = TurnInput {
                pods: turn_input(&race, player),
                received_at: Instant::now(),
            };
            let decision = bot.play_turn(&input);
            commands[2 * player] = decision.commands[0];
            commands[2 * player + 1] = decision.commands[1];
            observe(&race, player, &input, bot);
        }
        race.step(&commands, &mut ());
    }
    Ok((race, seated))
}

/// Stack of a thread that plays games (the main thread's size: the bot was written for it).
const GAME_THREAD_STACK_BYTES: usize = 8 << 20;

/// Plays games `indices` of a run seeded `seed` (each as [`play_game`]) on `jobs` threads at
/// once, and hands each finished game to `finished`, one at a time, in the order they finish.
/// A game is the same whatever thread plays it, so the games do not depend on `jobs`. The first
/// error (a game's or `finished`'s) stops the threads from starting more games and is returned
/// once the games under way end; what `finished` was handed stays handed.
pub fn play_games<F>(
    seed: u64,
    indices: &[u64],
    contestants: &[Contestant; 2],
    jobs: usize,
    finished: F,
) -> Result<(), String>
where
    F: FnMut(u64, GameRecord) -> Result<(), String> + Send,
{
    on_threads(
        indices,
        jobs,
        |game| play_game(seed, game, contestants),
        finished,
    )
}

/// Runs `play(index)` for each of `indices` on `jobs` threads at once (each with the main
/// thread's stack) and hands each result to `finished`, one at a time, in the order they
/// finish; the first error stops the threads from starting more and is returned once the ones
/// under way end.
pub fn on_threads<T, P, F>(indices: &[u64], jobs: usize, play: P, finished: F) -> Result<(), String>
where
    P: Fn(u64) -> Result<T, String> + Sync,
    F: FnMut(u64, T) -> Result<(), String> + Send,
{
    let next = AtomicUsize::new(0);
    let shared = Mutex::new((finished, None::<String>));
    let lock = || shared.lock().unwrap_or_else(PoisonError::into_inner);
    let worker = || loop {
        if lock().1.is_some() {
            return;
        }
        let Some(&game) = indices.get(next.fetch_add(1, Ordering::Relaxed)) else {
            return;
        };
        let played = play(game);
        let mut guard = lock();
        let (finished, error) = &mut *guard;
        if error.is_none() {
            if let Err(message) = played.and_then(|result| finished(game, result)) {
                *error = Some(message);
            }
        }
    };
    std::thread::scope(|scope| {
        let threads = jobs.clamp(1, indices.len().max(1));
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(GAME_THREAD_STACK_BYTES)
                    .spawn_scoped(scope, worker)
            })
            .collect();
        for handle in handles {
            let joined = match handle {
                Ok(handle) => handle
                    .join()
                    .map_err(|_| "a game's thread panicked".to_string()),
                Err(error) => Err(format!("cannot start a game's thread: {error}")),
            };
            if let Err(message) = joined {
                lock().1.get_or_insert(message);
            }
        }
    });
    match shared
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .1
    {
        Some(message) => Err(message),
        None => Ok(()),
    }
}

/// The race before turn `turn` from `player`'s view, with the root statistics of `bot`'s search
/// of that turn.
fn position(race: &Race, player: usize, turn: u16, bot: &Player) -> PositionRecord {
    let count = race.map.checkpoint_count();
    let pods = race.pods();
    let order = [
        2 * player,
        2 * player + 1,
        2 * (1 - player),
        2 * (1 - player) + 1,
    ];
    let record = |pod: &Pod| PodRecord {
        x: pod.pos.x as i32,
        y: pod.pos.y as i32,
        vx: pod.vel.x as i32,
        vy: pod.vel.y as i32,
        angle_rad: pod.angle_rad,
        next_checkpoint: pod.next_checkpoint(count) as u8,
        passes: pod.passes,
        boost_used: pod.boost_used,
        shield_lock_turns: pod.shield_lock_turns,
    };
    let mut stats = [[ActionStat {
        visits: 0,
        mean: 0.0,
    }; STAT_ACTIONS]; 2];
    for (own, pod_stats) in stats.iter_mut().enumerate() {
        for (action, visits, mean) in bot.root_stats(own) {
            if let Some(stat) = pod_stats.get_mut(usize::from(action)) {
                *stat = ActionStat { visits, mean };
            }
        }
    }
    debug_assert_eq!(pods.len(), POD_COUNT);
    PositionRecord {
        turn,
        view: player as u8,
        timeout_left: [
            race.checkpoint_timeout_left(player),
            race.checkpoint_timeout_left(1 - player),
        ],
        pods: order.map(|pod| record(&pods[pod])),
        stats,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::deep_turns::DeepTurns;
    use crate::data::game_file::{parse_game, write_game};

    fn contestants(iterations: u64) -> [Contestant; 2] {
        let config = BotConfig {
            iterations: Some(iterations),
            nodes_per_agent: 20_000,
            ..BotConfig::default()
        };
        [
            Contestant {
                name: "a".to_string(),
                config: config.clone(),
                deep: None,
            },
            Contestant {
                name: "b".to_string(),
                config,
                deep: None,
            },
        ]
    }

    #[test]
    fn a_game_is_recorded_from_both_views_and_reproducible() {
        let game = play_game(3, 1, &contestants(30)).unwrap();
        assert_eq!(game.positions.len(), 2 * usize::from(game.turns));
        assert_eq!(game.players, ["b".to_string(), "a".to_string()]);
        let (first, second) = (&game.positions[0], &game.positions[1]);
        assert_eq!((first.view, second.view), (0, 1));
        assert_eq!(first.pods[0], second.pods[2]);
        assert_eq!(first.pods[3], second.pods[1]);
        let visits: u32 = first.stats[0].iter().map(|stat| stat.visits).sum();
        assert!(visits > 0 && visits <= 30, "{visits}");
        assert_eq!(
            parse_game(&write_game(&game)).unwrap().positions.len(),
            game.positions.len()
        );
        let again = play_game(3, 1, &contestants(30)).unwrap();
        assert_eq!(write_game(&again), write_game(&game));
        assert_eq!(map_seed(3, 0), map_seed(3, 1));
        assert_ne!(map_seed(3, 1), map_seed(3, 2));
    }

    /// Games `indices` played on `jobs` threads, as text by index.
    fn played(indices: &[u64], jobs: usize) -> Vec<(u64, String)> {
        let mut games = Vec::new();
        play_games(5, indices, &contestants(20), jobs, |index, game| {
            games.push((index, write_game(&game)));
            Ok(())
        })
        .unwrap();
        games.sort();
        games
    }

    /// With deep turns, the turns the schedule draws are searched with the deep iterations
    /// (their root visits above the fast turns'), the others with the fast ones, by both players.
    #[test]
    fn deep_turns_search_deeper_on_the_turns_drawn() {
        let deep = DeepTurns::new(90, 0.5, 30).unwrap();
        let mut players = contestants(30);
        for player in &mut players {
            player.deep = Some(deep);
        }
        let game = play_game(3, 1, &players).unwrap();
        let mut deep_turns = 0;
        for position in &game.positions {
            let visits: u32 = position.stats[0].iter().map(|stat| stat.visits).sum();
            let drawn = deep.is_deep(3, 1, u32::from(position.turn) - 1);
            deep_turns += usize::from(drawn);
            if drawn {
                assert!(
                    visits > 30 && visits <= 90,
                    "turn {}: {visits}",
                    position.turn
                );
            } else {
                assert!(visits <= 30, "turn {}: {visits}", position.turn);
            }
        }
        assert!(deep_turns > 0 && deep_turns < game.positions.len());
        let again = play_game(3, 1, &players).unwrap();
        assert_eq!(write_game(&again), write_game(&game));
    }

    #[test]
    fn games_on_threads_are_the_games_played_one_by_one() {
        let indices = [0, 1, 2, 5];
        let alone = played(&indices, 1);
        assert_eq!(
            alone.iter().map(|(index, _)| *index).collect::<Vec<_>>(),
            indices
        );
        assert_eq!(played(&indices, 3), alone);
        assert!(played(&[], 2).is_empty());
    }

    #[test]
    fn the_first_error_stops_the_games() {
        let mut handed = 0;
        let error = play_games(5, &[0, 1, 2, 3, 4, 5], &contestants(10), 2, |_, _| {
            handed += 1;
            Err("disk full".to_string())
        });
        assert_eq!(error, Err("disk full".to_string()));
        // The game under way on the other thread is played out but not handed over.
        assert_eq!(handed, 1);
    }
}
