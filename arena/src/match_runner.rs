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
use std::path::{Path, PathBuf};
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

fn play_one(config: &MatchConfig, run_dir: Option<&Path>, index: usize) -> Result<Played, String> {
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
    let (path, save_error) = match run_dir {
        Some(dir) => {
            let path = dir.join(format!("game-{index:05}-seed-{seed}.json"));
            let save_error = replay.save(&path).err();
            (path.display().to_string(), save_error)
        }
        None => (String::new(), Some("no replay directory".to_string())),
    };
    Ok(Played {
        line: GameLine {
            index,
            seed,
            p1_player,
            p1_score,
            turns: replay.result.turns,
            reason: replay.result.reason.clone(),
            replay: save_error.is_none().then_some(path),
        },
        eliminations,
        responses,
        save_error,
    })
}

/// A bot that exited before its first answer (a typo in its flags, a missing file): playing on
/// would score every game as its crash, so the match stops. Judged on the first game received.
fn start_failure(played: &Played, config: &MatchConfig) -> Option<String> {
    played
        .eliminations
        .iter()
        .find_map(|(bot, cause_name, detail)| {
            // Exited (or was killed) with no line given; a bot that only closed its stdout
            // is still running, and loses the game as a crash.
            let before_first_answer = cause_name == cause::CRASH
                && detail.contains(" after 0 of ")
                && !detail.starts_with("closed its stdout");
            (before_first_answer && played.line.turns == 0).then(|| {
                let (name, command) = if *bot == 0 {
                    ("p1", &config.p1)
                } else {
                    ("p2", &config.p2)
                };
                format!("{name} command `{command}` stopped before its first answer: {detail}")
            })
        })
}

/// Creates this run's replay directory `<out>/<unix seconds>-s<seed>[-shardIofN]`, with `-2`,
/// `-3`, ... appended when another run took the name: `create_dir` is atomic, so two runs started
/// in the same second never share one.
pub fn create_run_dir(config: &MatchConfig) -> Result<PathBuf, String> {
    let stamp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let shard_suffix = config
        .shard
        .map(|(i, n)| format!("-shard{i}of{n}"))
        .unwrap_or_default();
    let base = format!("{stamp}-s{}{shard_suffix}", config.seed);
    std::fs::create_dir_all(&config.out).map_err(|e| {
        format!(
            "cannot create the replay directory {}: {e}",
            config.out.display()
        )
    })?;
    for attempt in 1..=1000 {
        let name = match attempt {
            1 => base.clone(),
            n => format!("{base}-{n}"),
        };
        let dir = config.out.join(name);
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot create {}: {e}", dir.display())),
        }
    }
    Err(format!(
        "cannot create a replay directory {base}-N under {}: all taken",
        config.out.display()
    ))
}

pub fn run_match(config: &MatchConfig) -> Result<MatchResult, String> {
    let planned = planned_games(config.games, config.shard);
    // Replays that cannot be written are said on stderr at once (the progress bar may be
    // hidden) and make the run end with exit code 1 (`main.rs`).
    let run_dir = match create_run_dir(config) {
        Ok(dir) => Some(dir),
        Err(error) => {
            eprintln!("arena: warning: {error}; the games are played without replays");
            None
        }
    };
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
        replay_dir: run_dir.as_ref().map(|dir| dir.display().to_string()),
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
    let mut received = 0usize;
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<Result<Played, String>>();
        for _ in 0..config.threads.max(1) {
            let sender = sender.clone();
            let (planned, next, stop, run_dir) = (&planned, &next, &stop, run_dir.as_deref());
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
            received += 1;
            if received == 1 {
                if let Some(error) = start_failure(&played, config) {
                    fatal.get_or_insert(error);
                    stop.store(true, Ordering::SeqCst);
                    continue;
                }
            }
            if let Some(error) = &played.save_error {
                save_errors += 1;
                if run_dir.is_some() {
                    progress.suspend(|| eprintln!("arena: warning: {error}"));
                }
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
        if let Some(dir) = &run_dir {
            // Only when no replay was written into it.
            let _ = std::fs::remove_dir(dir);
        }
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
