//! `arena import-cg`: re-simulates every turn of a CodinGame game from the recorded state
//! before it (position, speed and exact angle resynchronised from the previous key frame;
//! passes, shield and boost tracked from the commands) and compares the result bit for bit:
//! positions, speeds, angles, next checkpoints, pod ranks, collisions (pods, rounded
//! positions, time and impulse within 1e-9 relative, bit-exact counted), the rank:timeout line
//! and the end of the game and its cause (see `check_end`). Optionally writes the game in the csb
//! replay format.

use crate::codingame::laps;
use crate::codingame::read;
use crate::codingame::recording::{HeaderEnd, RecordedEnd, Recording, ViewPod};
use crate::protocol::output_line::parse_output_line;
use crate::replay::file::{
    cause, reason_name, CollisionRecord, Elimination, GameResult, PlayerInfo, PodState, Replay,
    TurnDetails, TurnRecord, FORMAT, VERSION,
};
use crate::replay::verify::CODINGAME_RELATIVE_TOLERANCE;
use csb::engine::rounding::java_round;
use csb::engine::{Collision, Command, EndReason, League, Map, Race, Thrust, Vec2};
use std::fmt::Write;
use std::path::Path;

/// What checking one file found.
pub struct ImportReport {
    pub mismatches: usize,
    /// The `turns=.. mismatches=..` line and detail lines.
    pub text: String,
}

#[derive(Default)]
struct Tally {
    mismatches: Vec<String>,
    pod_states: usize,
    collisions: usize,
    collisions_bit_exact: usize,
    /// The report's line on the end of the game.
    end: String,
}

impl Tally {
    fn mismatch(&mut self, text: String) {
        self.mismatches.push(text);
    }
}

/// The league: given, fixed by the form, or guessed (a thrust over 100 that is not a BOOST).
fn league_of(game: &Recording, given: Option<League>) -> League {
    if let Some(league) = given.or(game.league) {
        return league;
    }
    let over_100 = game.turns.iter().any(|turn| {
        turn.pods
            .iter()
            .any(|p| p.thrust.is_some_and(|t| t > 100 && t != 650))
            || turn.stdout.as_ref().is_some_and(|outs| {
                outs.iter().flatten().any(|line| {
                    line.split_whitespace()
                        .nth(2)
                        .and_then(|t| t.parse::<u32>().ok())
                        .is_some_and(|t| t > 100)
                })
            })
    });
    if over_100 {
        League::Legend
    } else {
        League::Gold
    }
}

/// The command a view line implies (viewer form, no stdout): target, SHIELD flag, thrust.
fn command_from_view(pod: &ViewPod, position: Vec2) -> Command {
    let thrust = if pod.shield {
        Thrust::Shield
    } else {
        match pod.thrust {
            Some(650) => Thrust::Boost,
            Some(t) => Thrust::Power(t.clamp(0, 200) as u16),
            None => Thrust::Power(0),
        }
    };
    match pod.target {
        Some((x, y)) => Command::new(x, y, thrust),
        None => Command {
            target: position,
            thrust,
        },
    }
}

/// The output line a view line implies, for conversion.
fn line_from_command(command: &Command, message: &str) -> String {
    let thrust = match command.thrust {
        Thrust::Boost => "BOOST".to_string(),
        Thrust::Shield => "SHIELD".to_string(),
        Thrust::Power(p) => p.to_string(),
    };
    let mut line = format!(
        "{} {} {thrust}",
        command.target.x as i64, command.target.y as i64
    );
    if !message.is_empty() {
        line.push(' ');
        line.push_str(message);
    }
    line
}

fn relative(a: f64, b: f64) -> f64 {
    if a == b {
        0.0
    } else {
        ((a - b) / b).abs()
    }
}

/// What a recorded end is, in the report's words.
fn recorded_end_name(end: RecordedEnd) -> &'static str {
    match end {
        RecordedEnd::Named(HeaderEnd::EndReached) => "endReached (a pod finished)",
        RecordedEnd::Named(HeaderEnd::MaxRoundsCountReached) => {
            "maxRoundsCountReached (the turn limit)"
        }
        RecordedEnd::Unnamed => "no reason (an elimination)",
        RecordedEnd::NotRecorded => "no end reason (the form records none)",
    }
}

/// Compares the end of our race with the recording's: the recording's game ends after its last
/// turn, whatever its header says, so our race must not end before it (checked turn by turn) and
/// must end there for the cause the header names. With no cause named the end is an
/// elimination: a checkpoint timeout our race reproduces, or one outside the physics (time-out,
/// invalid output) that only the recorded ranks tell. Returns the report's line on the end.
fn check_end(
    game: &Recording,
    race: &Race,
    eliminations: &[Elimination],
    mismatches: &mut Vec<String>,
) -> String {
    let recorded = game.recorded_end();
    let last = game.turns.len();
    let ours = match race.outcome {
        Some(outcome) if outcome.reason == EndReason::Elimination => {
            let players: Vec<String> = eliminations
                .iter()
                .map(|e| format!("player {}", e.player))
                .collect();
            format!("checkpoint timeout of {}", players.join(" and "))
        }
        Some(outcome) => reason_name(outcome.reason).to_string(),
        None => "race still on".to_string(),
    };
    let agrees = match (recorded, race.outcome.map(|o| o.reason)) {
        (_, Some(_)) if usize::from(race.turn) != last => false,
        (RecordedEnd::Named(HeaderEnd::EndReached), Some(EndReason::RaceComplete)) => true,
        (RecordedEnd::Named(HeaderEnd::MaxRoundsCountReached), Some(EndReason::TurnLimit)) => true,
        (RecordedEnd::Unnamed, Some(EndReason::Elimination) | None) => true,
        (RecordedEnd::NotRecorded, _) => true,
        _ => false,
    };
    let explained = match (recorded, race.outcome) {
        (RecordedEnd::Unnamed | RecordedEnd::NotRecorded, None) => {
            "; so the end was an elimination outside the physics (a time-out or an invalid \
             output), ranks taken from the recording"
        }
        _ => "",
    };
    if !agrees {
        mismatches.push(format!(
            "end: the recording ends after turn {last} with {} but here: {ours} after turn {}",
            recorded_end_name(recorded),
            race.turn
        ));
    }
    format!(
        "end: the recording ends after turn {last} with {}; ours: {ours} after turn {}{explained}",
        recorded_end_name(recorded),
        race.turn
    )
}

/// Checks a parsed game; returns the tally and, for conversion, the replay.
fn check(game: &Recording, league: League) -> Result<(Tally, Replay), String> {
    let map = Map::new(&game.checkpoints).map_err(|e| format!("bad checkpoints: {e}"))?;
    let mut race = Race::with_options(map, league, game.laps, game.pods_per_player);
    let count = map.checkpoint_count();
    let per_player = game.pods_per_player;
    let cap = league.max_thrust();
    let mut tally = Tally::default();
    if game.initial.len() != race.pod_count() {
        return Err(format!(
            "{} initial pods, expected {}",
            game.initial.len(),
            race.pod_count()
        ));
    }
    for (index, (ours, theirs)) in race.pods().iter().zip(&game.initial).enumerate() {
        if (ours.pos.x, ours.pos.y) != (theirs.x, theirs.y) {
            tally.mismatch(format!(
                "initial pod {index}: spawn ({}, {}) but recorded ({}, {})",
                ours.pos.x, ours.pos.y, theirs.x, theirs.y
            ));
        }
    }
    let initial_pods: Vec<PodState> = game
        .initial
        .iter()
        .zip(race.pods())
        .map(|(view, pod)| {
            let mut state = PodState::of(pod, count, None);
            (state.x, state.y) = (view.x as i64, view.y as i64);
            state
        })
        .collect();
    let mut previous = game.initial.clone();
    let mut records = Vec::new();
    let mut eliminations = Vec::new();
    for (index, recorded) in game.turns.iter().enumerate() {
        let turn = index as u16 + 1;
        if race.is_over() {
            tally.mismatch(format!(
                "turn {turn}: the game is over after turn {} here but the replay goes on",
                race.turn
            ));
            break;
        }
        if recorded.pods.len() != race.pod_count() {
            return Err(format!("turn {turn}: wrong number of pods"));
        }
        for (pod, before) in race.pods_mut().iter_mut().zip(&previous) {
            pod.pos = Vec2::new(before.x, before.y);
            pod.vel = Vec2::new(before.vx, before.vy);
            pod.angle_rad = before.angle;
        }
        let mut commands = Vec::new();
        let mut details = Vec::new();
        let mut outputs: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        for (pod_index, pod) in race.pods().iter().enumerate() {
            let player = pod_index / per_player;
            let from_stdout = recorded
                .stdout
                .as_ref()
                .and_then(|outs| outs[player].get(pod_index % per_player));
            let parsed = match from_stdout.map(|line| (line, parse_output_line(line, cap))) {
                Some((_, Ok(parsed))) => parsed,
                Some((line, Err(why))) => {
                    tally.mismatch(format!(
                        "turn {turn} pod {pod_index}: recorded output {line:?} is invalid here: {why}"
                    ));
                    let command = command_from_view(&recorded.pods[pod_index], pod.pos);
                    crate::protocol::output_line::ParsedLine {
                        command,
                        message: recorded.pods[pod_index].message.clone(),
                    }
                }
                None => {
                    let command = command_from_view(&recorded.pods[pod_index], pod.pos);
                    crate::protocol::output_line::ParsedLine {
                        command,
                        message: recorded.pods[pod_index].message.clone(),
                    }
                }
            };
            outputs[player].push(match from_stdout {
                Some(line) => line.clone(),
                None => line_from_command(&parsed.command, &parsed.message),
            });
            commands.push(parsed.command);
            details.push(TurnDetails::new(pod, &parsed, cap));
        }
        let mut collisions: Vec<Collision> = Vec::new();
        let timed_out = race.step(&commands, &mut collisions);
        let pod_ranks = race.pod_ranks();
        for (pod_index, (ours, theirs)) in race.pods().iter().zip(&recorded.pods).enumerate() {
            let place = format!("turn {turn} pod {pod_index}");
            if (ours.pos.x, ours.pos.y, ours.vel.x, ours.vel.y)
                != (theirs.x, theirs.y, theirs.vx, theirs.vy)
            {
                tally.mismatch(format!(
                    "{place}: position/speed ({}, {}, {}, {}) but recorded ({}, {}, {}, {})",
                    ours.pos.x,
                    ours.pos.y,
                    ours.vel.x,
                    ours.vel.y,
                    theirs.x,
                    theirs.y,
                    theirs.vx,
                    theirs.vy
                ));
            }
            if ours.angle_rad.map(f64::to_bits) != theirs.angle.map(f64::to_bits) {
                tally.mismatch(format!(
                    "{place}: angle {:?} but recorded {:?}",
                    ours.angle_rad, theirs.angle
                ));
            }
            if let Some(next) = theirs.next_checkpoint {
                // An eliminated player's pods keep their real next checkpoint id (§9.2).
                let mine = ours.next_checkpoint(count) as i64;
                if mine != next {
                    tally.mismatch(format!(
                        "{place}: next checkpoint {mine} but recorded {next}"
                    ));
                }
            }
            if let Some(thrust) = theirs.thrust {
                if i64::from(details[pod_index].thrust) != thrust && recorded.stdout.is_some() {
                    tally.mismatch(format!(
                        "{place}: thrust {} but recorded {thrust}",
                        details[pod_index].thrust
                    ));
                }
            }
            if let Some(rank) = theirs.rank {
                if i64::from(pod_ranks[pod_index]) != rank {
                    tally.mismatch(format!(
                        "{place}: rank {} but recorded {rank}",
                        pod_ranks[pod_index]
                    ));
                }
            }
            tally.pod_states += 1;
        }
        // Keep following the recording if the next checkpoint drifted.
        for (pod_index, theirs) in recorded.pods.iter().enumerate() {
            if let Some(next) = theirs.next_checkpoint.filter(|n| *n >= 0) {
                let pod = &mut race.pods_mut()[pod_index];
                let mine = pod.next_checkpoint(count) as i64;
                let drift = (next - mine).rem_euclid(count as i64) as u16;
                pod.passes += drift;
            }
        }
        if let Some(pairs) = &recorded.rank_timeout {
            let ranks = race.player_ranks();
            let ours: Vec<(i64, i64)> = (0..2)
                .map(|p| {
                    (
                        i64::from(ranks[p]),
                        i64::from(race.checkpoint_timeout_left(p)),
                    )
                })
                .collect();
            if *pairs != ours {
                tally.mismatch(format!(
                    "turn {turn}: rank:timeout {ours:?} but recorded {pairs:?}"
                ));
            }
        }
        let mut collision_records = Vec::new();
        if let Some(recorded_collisions) = &recorded.collisions {
            if recorded_collisions.len() != collisions.len() {
                tally.mismatch(format!(
                    "turn {turn}: {} collisions but {} recorded",
                    collisions.len(),
                    recorded_collisions.len()
                ));
            }
            for (number, (ours, theirs)) in collisions.iter().zip(recorded_collisions).enumerate() {
                let place = format!("turn {turn} collision {number}");
                let same_pods = (ours.pod_a, ours.pod_b) == (theirs.a, theirs.b);
                let same_positions = [ours.pos_a.x, ours.pos_a.y, ours.pos_b.x, ours.pos_b.y]
                    .map(java_round)
                    == [theirs.ax, theirs.ay, theirs.bx, theirs.by];
                let same_mean = [ours.mean_velocity.x, ours.mean_velocity.y].map(java_round)
                    == [theirs.mean_vx, theirs.mean_vy];
                let close = relative(ours.time, theirs.time) <= CODINGAME_RELATIVE_TOLERANCE
                    && relative(ours.impulse, theirs.impulse) <= CODINGAME_RELATIVE_TOLERANCE;
                if !(same_pods && same_positions && same_mean && close) {
                    tally.mismatch(format!("{place}: ours {ours:?}, recorded {theirs:?}"));
                }
                tally.collisions += 1;
                tally.collisions_bit_exact +=
                    usize::from(ours.time == theirs.time && ours.impulse == theirs.impulse);
                collision_records.push(CollisionRecord {
                    time: theirs.time,
                    a: theirs.a,
                    b: theirs.b,
                    ax: theirs.ax,
                    ay: theirs.ay,
                    bx: theirs.bx,
                    by: theirs.by,
                    impulse: theirs.impulse,
                });
            }
        } else {
            collision_records = collisions
                .iter()
                .map(|c| {
                    let mut record = CollisionRecord::from(c);
                    [record.ax, record.ay, record.bx, record.by] =
                        [record.ax, record.ay, record.bx, record.by].map(java_round);
                    record
                })
                .collect();
        }
        if let Some(end) = recorded.header_end.filter(|_| index + 1 < game.turns.len()) {
            tally.mismatch(format!(
                "turn {turn}: the header names an end ({}) but the recording goes on",
                end.name()
            ));
        }
        for (player, _) in timed_out.iter().enumerate().filter(|(_, out)| **out) {
            eliminations.push(Elimination::checkpoint_timeout(player, turn));
        }
        records.push(TurnRecord {
            turn,
            outputs: outputs.to_vec(),
            response_ms: vec![None, None],
            stderr: None,
            pods: race
                .pods()
                .iter()
                .zip(details)
                .map(|(pod, details)| PodState::of(pod, count, Some(details)))
                .collect(),
            collisions: collision_records,
            checkpoint_timeout: (0..2).map(|p| race.checkpoint_timeout_left(p)).collect(),
        });
        previous = recorded.pods.clone();
    }
    tally.end = check_end(game, &race, &eliminations, &mut tally.mismatches);
    let result = match race.outcome {
        Some(outcome) => {
            if let Some(ranks) = &game.ranks {
                if *ranks != outcome.ranks.to_vec() {
                    tally.mismatch(format!(
                        "result: ranks {:?} but recorded {ranks:?}",
                        outcome.ranks
                    ));
                }
            }
            GameResult {
                ranks: outcome.ranks.to_vec(),
                winner: outcome.winner(),
                reason: reason_name(outcome.reason).to_string(),
                turns: race.turn,
                eliminations,
            }
        }
        None => {
            // The recording stops before the race ends: a bot was eliminated by CodinGame.
            let ranks = game.ranks.clone().unwrap_or(vec![1, 1]);
            for (player, rank) in ranks.iter().enumerate() {
                if *rank == 2 {
                    eliminations.push(Elimination {
                        player,
                        turn: race.turn + 1,
                        cause: cause::TIMEOUT.to_string(),
                        detail: "eliminated on CodinGame (taken from the recorded ranks)"
                            .to_string(),
                    });
                }
            }
            GameResult {
                winner: match ranks.as_slice() {
                    [1, 2] => Some(0),
                    [2, 1] => Some(1),
                    _ => None,
                },
                ranks,
                reason: crate::replay::file::reason::ELIMINATION.to_string(),
                turns: race.turn,
                eliminations,
            }
        }
    };
    let replay = Replay {
        format: FORMAT.to_string(),
        version: VERSION,
        source: "codingame".to_string(),
        seed: game.seed,
        league: league.name().to_string(),
        laps: game.laps,
        pods_per_player: per_player,
        checkpoints: game.checkpoints.iter().map(|&(x, y)| [x, y]).collect(),
        players: game
            .players
            .iter()
            .map(|name| PlayerInfo {
                name: name.clone(),
                command: String::new(),
            })
            .collect(),
        time_limits_ms: None,
        initial_pods,
        turns: records,
        result,
        stderr: None,
    };
    Ok((tally, replay))
}

/// Checks one file, prints-ready; converts it when `convert` names a directory.
pub fn import_file(
    path: &Path,
    league: Option<League>,
    laps: Option<u16>,
    convert: Option<&Path>,
) -> Result<ImportReport, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut game = read::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(laps) = laps {
        let choice = laps::given(laps);
        (game.laps, game.laps_rule) = (choice.laps, choice.rule);
    }
    let league = league_of(&game, league);
    let (tally, replay) = check(&game, league).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = String::new();
    let collisions = if game.turns.iter().any(|t| t.collisions.is_some()) {
        format!(
            ", {} collisions ({} bit-exact in time and impulse)",
            tally.collisions, tally.collisions_bit_exact
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "{}: turns={} mismatches={} ({}, league {}, {} laps, {} pod states{collisions})",
        path.display(),
        game.turns.len(),
        tally.mismatches.len(),
        game.form,
        league.name(),
        game.laps,
        tally.pod_states
    );
    let _ = writeln!(out, "  {}", tally.end);
    let _ = writeln!(out, "  laps: {} ({})", game.laps, game.laps_rule);
    for detail in &tally.mismatches {
        let _ = writeln!(out, "  mismatch: {detail}");
    }
    if let Some(dir) = convert {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "game".to_string());
        let target = dir.join(format!("{stem}.json"));
        replay.save(&target)?;
        let _ = writeln!(out, "  converted: {}", target.display());
    }
    Ok(ImportReport {
        mismatches: tally.mismatches.len(),
        text: out,
    })
}
