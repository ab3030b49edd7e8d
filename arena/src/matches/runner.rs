//! `arena match`: plays the games of a match (or of one shard) on worker threads
//! (`parallel::run_parallel`, each game by `pair::play_seated_game`) — seats swapped on
//! alternate games over shared seeds — saves each replay, tallies the results as they come in,
//! shows a progress bar, and stops early when the SPRT decides.

use crate::matches::pair::{play_seated_game, Contest, SeatedGame};
use crate::matches::parallel::{run_parallel, Flow};
use crate::matches::response_times::ResponseTimes;
use crate::matches::result::{GameLine, MatchResult, RESULT_FORMAT};
use crate::matches::seeds::{game_seed, p1_is_player0};
use crate::referee::game_loop::TimeLimits;
use crate::stats::sprt::Sprt;
use crate::stats::wdl::Wdl;
use csb::engine::League;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
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

/// Plays game `index` of the match (p1 = bot A) and saves its replay under `run_dir` (when there
/// is none, the save error says so).
fn play_one(
    config: &MatchConfig,
    contest: &Contest,
    run_dir: Option<&Path>,
    index: usize,
) -> Result<(GameLine, SeatedGame, Option<String>), String> {
    let seed = game_seed(config.seed, index);
    let p1_player = if p1_is_player0(index) { 0 } else { 1 };
    let game = play_seated_game(contest, seed, p1_player)?;
    let (path, save_error) = match run_dir {
        Some(dir) => {
            let path = dir.join(format!("game-{index:05}-seed-{seed}.json"));
            let save_error = game.replay.save(&path).err();
            (path.display().to_string(), save_error)
        }
        None => (String::new(), Some("no replay directory".to_string())),
    };
    let line = GameLine {
        index,
        seed,
        p1_player,
        p1_score: game.a_score,
        turns: game.turns,
        reason: game.reason.clone(),
        replay: save_error.is_none().then_some(path),
    };
    Ok((line, game, save_error))
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
    let contest = Contest {
        commands: [config.p1.clone(), config.p2.clone()],
        league: config.league,
        limits: TimeLimits::scaled(config.time_scale),
    };
    let mut fatal: Option<String> = None;
    let mut save_errors = 0usize;
    let mut received = 0usize;
    let play = |&index: &usize| play_one(config, &contest, run_dir.as_deref(), index);
    run_parallel(&planned, config.threads, play, |_, played| {
        let (line, game, save_error) = match played {
            Ok(played) => played,
            Err(error) => {
                fatal.get_or_insert(error);
                return Flow::Stop;
            }
        };
        received += 1;
        // A bot that exited before its first answer in the first game (a typo in its flags, a
        // missing file): playing on would score every game as its crash, so the match stops.
        if received == 1 {
            if let Some((bot, detail)) = game.start_failure() {
                let (name, command) = if bot == 0 {
                    ("p1", &config.p1)
                } else {
                    ("p2", &config.p2)
                };
                fatal.get_or_insert(format!(
                    "{name} command `{command}` stopped before its first answer: {detail}"
                ));
                return Flow::Stop;
            }
        }
        if let Some(error) = &save_error {
            save_errors += 1;
            if run_dir.is_some() {
                progress.suspend(|| eprintln!("arena: warning: {error}"));
            }
        }
        for (bot, cause_name, _) in &game.eliminations {
            *result.eliminations[*bot]
                .entry(cause_name.clone())
                .or_insert(0) += 1;
        }
        for (bot, times) in game.responses.iter().enumerate() {
            for ms in times {
                result.response_times[bot].add(*ms);
            }
        }
        result.add_game(line);
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
        }
        if fatal.is_some() || result.stopped_early {
            Flow::Stop
        } else {
            Flow::Continue
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
