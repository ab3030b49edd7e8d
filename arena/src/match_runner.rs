//! `arena match`: plays the games of a match (or of one shard) on worker threads — seats
//! swapped on alternate games over shared seeds — saves each replay, tallies the results as
//! they come in, shows a progress bar, and stops early when the SPRT decides.

use crate::match_result::{GameLine, MatchResult, RESULT_FORMAT};
use crate::referee::{bot_name, play_game, GameSetup, TimeLimits};
use crate::replay::{cause, Replay};
use crate::response_times::ResponseTimes;
use crate::seeds::{game_seed, p1_is_player0};
use crate::sprt::Sprt;
use crate::stats::Wdl;
use csb::engine::{League, Map};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{SystemTime, UNIX_EPOCH};

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub p1: String,
    pub p2: String,
    pub games: usize,
    pub threads: usize,
    pub seed: u64,
    pub league: League,
    pub time_scale: f64,
    /// Directory under which this run's replays go.
    pub out: PathBuf,
    pub sprt: Option<Sprt>,
    /// `(I, N)`: play only the pairs whose index is I mod N.
    pub shard: Option<(usize, usize)>,
}

/// The game indices this run plays: all of them, or one shard's pairs.
pub fn planned_games(games: usize, shard: Option<(usize, usize)>) -> Vec<usize> {
    (0..games)
        .filter(|game| shard.is_none_or(|(index, count)| (game / 2) % count == index))
        .collect()
}

/// What one finished game adds to the tallies.
struct Played {
    line: GameLine,
    /// (bot 0 = p1 / 1 = p2, cause, detail)
    eliminations: Vec<(usize, String, String)>,
    responses: [Vec<f64>; 2],
    save_error: Option<String>,
}

fn play_one(
    config: &MatchConfig,
    run_dir: &std::path::Path,
    index: usize,
) -> Result<Played, String> {
    let seed = game_seed(config.seed, index);
    let p1_player = if p1_is_player0(index) { 0 } else { 1 };
    let (commands, names) = if p1_player == 0 {
        (
            [config.p1.clone(), config.p2.clone()],
            [bot_name(&config.p1), bot_name(&config.p2)],
        )
    } else {
        (
            [config.p2.clone(), config.p1.clone()],
            [bot_name(&config.p2), bot_name(&config.p1)],
        )
    };
    let setup = GameSetup {
        seed: Some(seed),
        map: Map::from_seed(seed),
        league: config.league,
        commands,
        names,
        limits: TimeLimits::scaled(config.time_scale),
    };
    let replay: Replay = play_game(&setup)?;
    let bot_of = |player: usize| usize::from(player != p1_player);
    let p1_score = match replay.result.winner {
        None => 0.5,
        Some(winner) if winner == p1_player => 1.0,
        Some(_) => 0.0,
    };
    let mut responses = [Vec::new(), Vec::new()];
    for turn in &replay.turns {
        for (player, ms) in turn.response_ms.iter().enumerate() {
            if let Some(ms) = ms {
                responses[bot_of(player)].push(*ms);
            }
        }
    }
    let eliminations = replay
        .result
        .eliminations
        .iter()
        .map(|e| (bot_of(e.player), e.cause.clone(), e.detail.clone()))
        .collect();
    let path = run_dir.join(format!("game-{index:05}-seed-{seed}.json"));
    let save_error = replay.save(&path).err();
    Ok(Played {
        line: GameLine {
            index,
            seed,
            p1_player,
            p1_score,
            turns: replay.result.turns,
            reason: replay.result.reason.clone(),
            replay: save_error.is_none().then(|| path.display().to_string()),
        },
        eliminations,
        responses,
        save_error,
    })
}

/// A bot that could not even start (`sh` says not found / not executable) on turn 1.
fn start_failure(played: &Played, config: &MatchConfig) -> Option<String> {
    played
        .eliminations
        .iter()
        .find_map(|(bot, cause_name, detail)| {
            let cannot_start = cause_name == cause::CRASH
                && (detail.contains("status 127") || detail.contains("status 126"));
            (cannot_start && played.line.turns == 0).then(|| {
                let (name, command) = if *bot == 0 {
                    ("p1", &config.p1)
                } else {
                    ("p2", &config.p2)
                };
                format!("{name} command `{command}` could not be started: {detail}")
            })
        })
}

pub fn run_match(config: &MatchConfig) -> Result<MatchResult, String> {
    let planned = planned_games(config.games, config.shard);
    let stamp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let shard_suffix = config
        .shard
        .map(|(i, n)| format!("-shard{i}of{n}"))
        .unwrap_or_default();
    let run_dir = config
        .out
        .join(format!("{stamp}-s{}{shard_suffix}", config.seed));
    let mut result = MatchResult {
        format: RESULT_FORMAT.to_string(),
        p1: config.p1.clone(),
        p2: config.p2.clone(),
        seed: config.seed,
        league: config.league.name().to_string(),
        time_scale: config.time_scale,
        games_planned: config.games,
        shard: config.shard.map(|(i, n)| [i, n]),
        sprt: config.sprt,
        stopped_early: false,
        results: Wdl::default(),
        per_seat: [Wdl::default(); 2],
        eliminations: [BTreeMap::new(), BTreeMap::new()],
        response_times: [ResponseTimes::default(), ResponseTimes::default()],
        replay_dir: Some(run_dir.display().to_string()),
        games: Vec::new(),
    };
    let progress = ProgressBar::new(planned.len() as u64);
    progress.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed} < {eta}]")
            .expect("a valid progress template"),
    );
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut fatal: Option<String> = None;
    let mut save_errors = 0usize;
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<Result<Played, String>>();
        for _ in 0..config.threads.max(1) {
            let sender = sender.clone();
            let (planned, next, stop, run_dir) = (&planned, &next, &stop, &run_dir);
            scope.spawn(move || loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let slot = next.fetch_add(1, Ordering::SeqCst);
                let Some(&index) = planned.get(slot) else {
                    break;
                };
                if sender.send(play_one(config, run_dir, index)).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        for played in receiver {
            let played = match played {
                Ok(played) => played,
                Err(error) => {
                    fatal.get_or_insert(error);
                    stop.store(true, Ordering::SeqCst);
                    continue;
                }
            };
            if let Some(error) = start_failure(&played, config) {
                fatal.get_or_insert(error);
                stop.store(true, Ordering::SeqCst);
                continue;
            }
            if let Some(error) = &played.save_error {
                save_errors += 1;
                progress.println(format!("arena: warning: {error}"));
            }
            for (bot, cause_name, _) in &played.eliminations {
                *result.eliminations[*bot]
                    .entry(cause_name.clone())
                    .or_insert(0) += 1;
            }
            for (bot, times) in played.responses.iter().enumerate() {
                for ms in times {
                    result.response_times[bot].add(*ms);
                }
            }
            result.add_game(played.line);
            progress.inc(1);
            progress.set_message(format!(
                "p1 W/D/L {}/{}/{}  {:.1}%",
                result.results.wins,
                result.results.draws,
                result.results.losses,
                100.0 * result.results.score()
            ));
            if !result.stopped_early && result.sprt_decided() {
                result.stopped_early = true;
                stop.store(true, Ordering::SeqCst);
            }
        }
    });
    progress.finish_and_clear();
    if let Some(error) = fatal {
        return Err(error);
    }
    if save_errors == planned.len() && save_errors > 0 {
        result.replay_dir = None;
    }
    result.games.sort_by_key(|g| g.index);
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_keep_pairs_together_and_cover_every_game() {
        assert_eq!(planned_games(5, None), vec![0, 1, 2, 3, 4]);
        assert_eq!(planned_games(10, Some((0, 2))), vec![0, 1, 4, 5, 8, 9]);
        assert_eq!(planned_games(10, Some((1, 2))), vec![2, 3, 6, 7]);
        let mut all: Vec<usize> = (0..3)
            .flat_map(|i| planned_games(11, Some((i, 3))))
            .collect();
        all.sort();
        assert_eq!(all, (0..11).collect::<Vec<_>>());
    }
}
