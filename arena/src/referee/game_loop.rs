//! The referee's turn loop: plays one game between two bot processes exactly as CodinGame does
//! (csb-rules.md §3, §5, §6) and returns its replay. Each turn it checks for lines printed
//! out of turn, sends both bots their input, waits for their lines within the time limit (each
//! bot timed from its own input, see `bot_process`), validates them, and either eliminates a
//! player or plays the turn on the engine's `Race`, recording each bot's stderr of the turn.

use crate::protocol::input_text::{init_text, turn_text};
use crate::protocol::output_line::{excerpt, parse_output_line, ParsedLine};
use crate::referee::bot_process::{BotProcess, ReadFailure};
use crate::replay::file::{
    cause, reason_name, CollisionRecord, Elimination, GameResult, PlayerInfo, PodState, Replay,
    TurnDetails, TurnRecord, FORMAT, VERSION,
};
use csb::engine::rules::LAPS;
use csb::engine::{Collision, Command, League, Map, Race, Thrust};
use std::time::Duration;

/// CodinGame's limits: 1000 ms for the first turn, 75 ms after.
pub const FIRST_TURN_MS: f64 = 1000.0;
pub const LATER_TURN_MS: f64 = 75.0;

/// Per-turn time limits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeLimits {
    pub first: Duration,
    pub later: Duration,
}

impl TimeLimits {
    /// CodinGame's limits multiplied by `scale`.
    pub fn scaled(scale: f64) -> TimeLimits {
        TimeLimits {
            first: Duration::from_secs_f64(FIRST_TURN_MS * scale / 1000.0),
            later: Duration::from_secs_f64(LATER_TURN_MS * scale / 1000.0),
        }
    }

    fn for_turn(&self, turn: u16) -> Duration {
        if turn == 1 {
            self.first
        } else {
            self.later
        }
    }
}

/// Everything that defines one game.
#[derive(Clone, Debug)]
pub struct GameSetup {
    pub seed: Option<i64>,
    pub map: Map,
    pub league: League,
    /// Shell commands of player 0 and player 1.
    pub commands: [String; 2],
    pub names: [String; 2],
    pub limits: TimeLimits,
}

/// A short name for a bot command: the file name of its first word.
pub fn bot_name(command: &str) -> String {
    let first = command.split_whitespace().next().unwrap_or(command);
    first.rsplit('/').next().unwrap_or(first).to_string()
}

fn milliseconds(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// A failed answer: (cause, detail).
type Failure = (&'static str, String);
/// A valid answer: the raw lines, their parsed form, the response time in ms, the stderr of
/// the turn.
type Answer = (Vec<String>, Vec<ParsedLine>, f64, String);

/// What a crashed bot's end looked like, for the elimination detail.
fn crash_detail(bot: &mut BotProcess, received: usize, expected: usize) -> String {
    let status = bot.exit_status();
    bot.kill();
    let what = match status {
        Some(status) => match (
            status.code(),
            std::os::unix::process::ExitStatusExt::signal(&status),
        ) {
            (Some(code), _) => format!("exited with status {code}"),
            (None, Some(signal)) => format!("killed by signal {signal}"),
            _ => "exited".to_string(),
        },
        None => "closed its stdout".to_string(),
    };
    let mut detail = format!("{what} after {received} of {expected} lines");
    // The first line usually says why (`csb: unknown flag ...`), the last what happened last.
    let stderr = bot.stderr_tail();
    let mut lines = stderr.lines().map(str::trim).filter(|l| !l.is_empty());
    match (lines.next(), lines.next_back()) {
        (Some(first), Some(last)) => detail.push_str(&format!(
            " (stderr begins {}, ends {})",
            excerpt(first),
            excerpt(last)
        )),
        (Some(only), None) => detail.push_str(&format!(" (stderr: {})", excerpt(only))),
        _ => {}
    }
    detail
}

/// Reads and validates one player's answer for `turn`.
fn read_answer(
    bot: &mut BotProcess,
    limit: Duration,
    expected: usize,
    league: League,
) -> Result<Answer, Failure> {
    let cap = league.max_thrust();
    match bot.read_lines(expected, limit) {
        Ok(answer) => {
            let response = milliseconds(answer.response);
            let mut parsed = Vec::with_capacity(expected);
            for (index, line) in answer.lines.iter().enumerate() {
                match parse_output_line(line, cap).and_then(|parsed| allowed(parsed, league)) {
                    Ok(line) => parsed.push(line),
                    Err(why) => {
                        return Err((
                            cause::INVALID_OUTPUT,
                            format!("line {}: {why}: {}", index + 1, excerpt(line)),
                        ))
                    }
                }
            }
            Ok((answer.lines, parsed, response, bot.take_turn_stderr()))
        }
        Err((ReadFailure::Timeout { received: 0 }, _)) => Err((
            cause::TIMEOUT,
            format!("no answer within {:.0} ms", milliseconds(limit)),
        )),
        Err((ReadFailure::Timeout { received }, _)) => Err((
            cause::TOO_FEW_LINES,
            format!(
                "only {received} of {expected} lines within {:.0} ms",
                milliseconds(limit)
            ),
        )),
        Err((ReadFailure::Closed { received }, _)) => {
            Err((cause::CRASH, crash_detail(bot, received, expected)))
        }
    }
}

/// A parsed line if its league has its action: BOOST from Bronze, SHIELD from Silver
/// (docs/leagues.md; printing one the league lacks is taken as invalid output).
fn allowed(line: ParsedLine, league: League) -> Result<ParsedLine, String> {
    match line.command.thrust {
        Thrust::Boost if !league.has_boost() => Err(format!(
            "BOOST is not available in league {}",
            league.name()
        )),
        Thrust::Shield if !league.has_shield() => Err(format!(
            "SHIELD is not available in league {}",
            league.name()
        )),
        _ => Ok(line),
    }
}

/// Plays one game to its end. Errors only when a bot process cannot be started at all.
pub fn play_game(setup: &GameSetup) -> Result<Replay, String> {
    let mut race = Race::with_options(
        setup.map,
        setup.league,
        LAPS,
        setup.league.pods_per_player(),
    );
    let cap = setup.league.max_thrust();
    let per_player = race.pods_per_player;
    let checkpoint_count = race.map.checkpoint_count();
    let initial_pods: Vec<PodState> = race
        .pods()
        .iter()
        .map(|pod| PodState::of(pod, checkpoint_count, None))
        .collect();
    let mut bots = [
        BotProcess::spawn(&setup.commands[0])?,
        BotProcess::spawn(&setup.commands[1])?,
    ];
    let init = init_text(&race);
    let mut turns: Vec<TurnRecord> = Vec::new();
    let mut eliminations: Vec<Elimination> = Vec::new();

    while !race.is_over() {
        let turn = race.turn + 1;
        let mut failures: [Option<Failure>; 2] = [None, None];

        // Lines that arrived after the previous answer and before this input: too many lines.
        if turn > 1 {
            for (player, bot) in bots.iter_mut().enumerate() {
                let extra = bot.unexpected_lines();
                if let Some(first) = extra.first() {
                    failures[player] = Some((
                        cause::TOO_MANY_LINES,
                        format!(
                            "{} extra line(s) after the answer of turn {}, first: {}",
                            extra.len(),
                            turn - 1,
                            excerpt(first)
                        ),
                    ));
                }
            }
        }

        let mut answers: [Option<Answer>; 2] = [None, None];
        if failures.iter().all(Option::is_none) {
            let limit = setup.limits.for_turn(turn);
            for (player, bot) in bots.iter_mut().enumerate() {
                let mut text = if turn == 1 {
                    init.clone()
                } else {
                    String::new()
                };
                text.push_str(&turn_text(&race, player));
                bot.send(text);
            }
            for (player, bot) in bots.iter_mut().enumerate() {
                match read_answer(bot, limit, per_player, setup.league) {
                    Ok(answer) => answers[player] = Some(answer),
                    Err(failure) => failures[player] = Some(failure),
                }
            }
        }

        if failures.iter().any(Option::is_some) {
            for (player, failure) in failures.iter().enumerate() {
                if let Some((cause, detail)) = failure {
                    race.eliminate(player);
                    eliminations.push(Elimination {
                        player,
                        turn,
                        cause: cause.to_string(),
                        detail: detail.clone(),
                    });
                }
            }
            break;
        }

        let answers = answers.map(|a| a.expect("no failure means an answer"));
        let mut commands: Vec<Command> = Vec::with_capacity(race.pod_count());
        let mut details: Vec<TurnDetails> = Vec::with_capacity(race.pod_count());
        for (pod_index, pod) in race.pods().iter().enumerate() {
            let line = &answers[pod_index / per_player].1[pod_index % per_player];
            commands.push(line.command);
            details.push(TurnDetails::new(pod, line, cap));
        }
        let mut collisions: Vec<Collision> = Vec::new();
        let timed_out = race.step(&commands, &mut collisions);
        for (player, _) in timed_out.iter().enumerate().filter(|(_, out)| **out) {
            eliminations.push(Elimination::checkpoint_timeout(player, turn));
        }
        turns.push(TurnRecord {
            turn,
            outputs: answers.iter().map(|a| a.0.clone()).collect(),
            response_ms: answers.iter().map(|a| Some(a.2)).collect(),
            stderr: Some(answers.iter().map(|a| a.3.clone()).collect()),
            pods: race
                .pods()
                .iter()
                .zip(details)
                .map(|(pod, details)| PodState::of(pod, checkpoint_count, Some(details)))
                .collect(),
            collisions: collisions.iter().map(CollisionRecord::from).collect(),
            checkpoint_timeout: (0..2).map(|p| race.checkpoint_timeout_left(p)).collect(),
        });
    }

    for bot in bots.iter_mut() {
        bot.kill();
    }
    let outcome = race.outcome.expect("the loop ends with the game over");
    Ok(Replay {
        format: FORMAT.to_string(),
        version: VERSION,
        source: "arena".to_string(),
        seed: setup.seed,
        league: setup.league.name().to_string(),
        laps: race.laps,
        pods_per_player: per_player,
        checkpoints: race
            .map
            .checkpoints()
            .iter()
            .map(|c| [c.x as i32, c.y as i32])
            .collect(),
        players: (0..2)
            .map(|p| PlayerInfo {
                name: setup.names[p].clone(),
                command: setup.commands[p].clone(),
            })
            .collect(),
        time_limits_ms: Some([
            milliseconds(setup.limits.first),
            milliseconds(setup.limits.later),
        ]),
        initial_pods,
        turns,
        result: GameResult {
            ranks: outcome.ranks.to_vec(),
            winner: outcome.winner(),
            reason: reason_name(outcome.reason).to_string(),
            turns: race.turn,
            eliminations,
        },
        stderr: Some(bots.iter().map(BotProcess::stderr_tail).collect()),
    })
}
