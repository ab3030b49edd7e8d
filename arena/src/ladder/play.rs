//! `arena ladder play`: a round robin among the listed players (or a gauntlet: one player
//! against each of the others) at a named control. Every pairing plays the same game pairs:
//! pair k is played on the map of the match seed's pair k, once with each seat. Each game's
//! result is appended to the results file as soon as it ends (the first game of a pair without
//! waiting for the second; never a game cut short by Ctrl-C); games already in the file are
//! not played again, so a run resumes where it stopped, and `--shard I/N` plays only the pairs
//! k with k mod N = I, so that machines can share a run and their files be read together.

use super::build::build_players;
use super::players::{command, Roster};
use super::results::{self, LadderGame, GAME_FORMAT};
use crate::matches::pair::{play_seated_game, Contest, SeatedGame};
use crate::matches::parallel::{run_parallel, Flow};
use crate::matches::seeds::game_seed;
use crate::referee::children;
use crate::referee::game_loop::TimeLimits;
use csb::engine::League;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What `arena ladder play` was asked.
pub struct PlayRequest {
    pub roster: PathBuf,
    pub control: String,
    /// Players taking part (all of the roster when empty).
    pub only: Vec<String>,
    pub gauntlet: Option<String>,
    pub pairs: usize,
    pub seed: u64,
    pub threads: usize,
    pub shard: Option<(usize, usize)>,
    pub results: PathBuf,
    pub repo: PathBuf,
    pub cache: PathBuf,
}

/// The pairings to play: every two players (A's name before B's), or the gauntlet player
/// against each other one.
pub fn pairings(names: &[String], gauntlet: Option<&str>) -> Vec<(String, String)> {
    let mut sorted: Vec<&String> = names.iter().collect();
    sorted.sort();
    sorted.dedup();
    let mut list = Vec::new();
    for (i, a) in sorted.iter().enumerate() {
        for b in &sorted[i + 1..] {
            if gauntlet.is_none_or(|g| g == a.as_str() || g == b.as_str()) {
                list.push(((*a).clone(), (*b).clone()));
            }
        }
    }
    list
}

/// One unit of work: the games of one pair of one pairing still to play (A's seats).
struct Job {
    a: String,
    b: String,
    pair: usize,
    seats: Vec<usize>,
}

/// Plays what is missing and returns the number of games played.
pub fn play(request: &PlayRequest) -> Result<usize, String> {
    let roster = Roster::load(&request.roster)?;
    let control = roster.control(&request.control)?;
    let league = League::parse(&control.league).expect("the roster checks its leagues");
    let mut names: Vec<String> = if request.only.is_empty() {
        roster.players.iter().map(|p| p.name.clone()).collect()
    } else {
        request.only.clone()
    };
    if let Some(gauntlet) = &request.gauntlet {
        if !names.contains(gauntlet) {
            names.push(gauntlet.clone());
        }
    }
    let players = names
        .iter()
        .map(|name| roster.player(name))
        .collect::<Result<Vec<_>, _>>()?;
    if players.len() < 2 {
        return Err("a ladder needs at least two players".to_string());
    }
    let binaries = build_players(&request.repo, &request.cache, &players)?;
    let command_of = |name: &str| -> String {
        let player = roster.player(name).expect("a listed player");
        command(player, control, &binaries[name])
    };
    let done: BTreeSet<_> = results::load(&[&request.results])?
        .iter()
        .map(LadderGame::key)
        .collect();
    let mut jobs = Vec::new();
    let list = pairings(&names, request.gauntlet.as_deref());
    for pair in 0..request.pairs {
        if request
            .shard
            .is_some_and(|(index, count)| pair % count != index)
        {
            continue;
        }
        for (a, b) in &list {
            let seats: Vec<usize> = (0..2)
                .filter(|&seat| {
                    let key = (
                        request.control.clone(),
                        request.seed,
                        a.clone(),
                        b.clone(),
                        pair,
                        seat,
                    );
                    !done.contains(&key)
                })
                .collect();
            if !seats.is_empty() {
                jobs.push(Job {
                    a: a.clone(),
                    b: b.clone(),
                    pair,
                    seats,
                });
            }
        }
    }
    let total: usize = jobs.iter().map(|j| j.seats.len()).sum();
    eprintln!(
        "arena ladder: {} pairing(s), {} pair(s) each, {total} game(s) to play ({} already in {})",
        list.len(),
        request.pairs,
        done.len(),
        request.results.display()
    );
    let limits = TimeLimits::scaled(control.time_scale);
    let progress = ProgressBar::new(total as u64);
    progress.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed} < {eta}]")
            .expect("a valid progress template"),
    );
    // Each game is appended as soon as it ends (the first of a pair too), from the worker
    // that played it, so an interrupted run keeps every finished game.
    let work = |job: &Job| -> Result<usize, String> {
        let contest = Contest {
            commands: [command_of(&job.a), command_of(&job.b)],
            league,
            limits,
        };
        let seed = game_seed(request.seed, 2 * job.pair);
        let mut played = 0;
        for &seat in &job.seats {
            let game = play_seated_game(&contest, seed, seat)?;
            if let Some((bot, detail)) = game.start_failure() {
                let name = if bot == 0 { &job.a } else { &job.b };
                return Err(format!("player {name} could not be started: {detail}"));
            }
            let line = ladder_game(
                request,
                job,
                &game,
                [command_of(&job.a), command_of(&job.b)],
            );
            match children::record_unless_interrupted(|| results::append(&request.results, &line)) {
                Some(appended) => appended?,
                // Interrupted: the game may have been cut short by the interrupt's kills.
                None => return Ok(played),
            }
            played += 1;
            progress.inc(1);
            progress.set_message(format!("{} vs {} pair {}", job.a, job.b, job.pair));
        }
        Ok(played)
    };
    let mut fatal: Option<String> = None;
    let mut played = 0;
    run_parallel(&jobs, request.threads, work, |_, games| match games {
        Ok(count) => {
            played += count;
            Flow::Continue
        }
        Err(error) => {
            fatal.get_or_insert(error);
            Flow::Stop
        }
    });
    progress.finish_and_clear();
    match fatal {
        Some(error) => Err(error),
        None => Ok(played),
    }
}

/// The results file's line for one finished game of a job.
fn ladder_game(
    request: &PlayRequest,
    job: &Job,
    game: &SeatedGame,
    [a_command, b_command]: [String; 2],
) -> LadderGame {
    LadderGame {
        format: GAME_FORMAT.to_string(),
        control: request.control.clone(),
        seed: request.seed,
        a: job.a.clone(),
        b: job.b.clone(),
        pair: job.pair,
        a_player: game.a_player,
        map_seed: game.seed,
        a_score: game.a_score,
        turns: game.turns,
        reason: game.reason.clone(),
        eliminations: game
            .eliminations
            .iter()
            .map(|(bot, cause, _)| {
                (
                    (if *bot == 0 { "a" } else { "b" }).to_string(),
                    cause.clone(),
                )
            })
            .collect(),
        a_command,
        b_command,
        row: None,
    }
}

/// The default results file of a control: `ladder/results-<control>.jsonl`.
pub fn default_results(control: &str) -> PathBuf {
    Path::new("ladder").join(format!("results-{control}.jsonl"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_and_gauntlet_pairings() {
        let names: Vec<String> = ["reflex", "csb", "ga"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let all = pairings(&names, None);
        let expected: Vec<(String, String)> = [("csb", "ga"), ("csb", "reflex"), ("ga", "reflex")]
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(all, expected);
        assert_eq!(
            pairings(&names, Some("ga")),
            vec![expected[0].clone(), expected[2].clone()]
        );
    }
}
