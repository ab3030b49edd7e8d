//! `arena replay`: re-simulates a saved game from its map and the recorded outputs alone and
//! checks every recorded state — pods, collisions, checkpoint timeouts, the result. The first
//! divergence is reported with its turn, pod and field.

use crate::protocol::output_line::parse_output_line;
use crate::replay::file::reason_name;
use crate::replay::file::{cause, CollisionRecord, PodState, Replay, TurnDetails};
use csb::engine::rounding::java_round;
use csb::engine::{Collision, League, Map, Race};

/// Relative tolerance for collision times and impulses recorded by CodinGame (their JVM's `sin`
/// differs from ours by an ulp now and then, csb-rules.md §12.6).
pub const CODINGAME_RELATIVE_TOLERANCE: f64 = 1e-9;

/// What a successful check saw.
#[derive(Debug, PartialEq)]
pub struct Verified {
    pub turns: usize,
    pub collisions: usize,
    /// Collisions whose time and impulse are equal to the last bit.
    pub collisions_bit_exact: usize,
}

/// Builds the race a replay starts from.
pub fn race_of(replay: &Replay) -> Result<Race, String> {
    let league = League::parse(&replay.league)
        .ok_or_else(|| format!("unknown league {:?}", replay.league))?;
    let points: Vec<(i32, i32)> = replay.checkpoints.iter().map(|c| (c[0], c[1])).collect();
    let map = Map::new(&points).map_err(|e| format!("bad checkpoints: {e}"))?;
    if replay.pods_per_player != 1 && replay.pods_per_player != 2 {
        return Err(format!(
            "pods_per_player must be 1 or 2, got {}",
            replay.pods_per_player
        ));
    }
    Ok(Race::with_options(
        map,
        league,
        replay.laps,
        replay.pods_per_player,
    ))
}

fn compare_pod(place: &str, ours: &PodState, theirs: &PodState) -> Result<(), String> {
    let mismatch = |field: &str, ours: String, theirs: String| {
        Err(format!(
            "{place}: {field} is {ours} when re-simulated, the replay says {theirs}"
        ))
    };
    macro_rules! check {
        ($field:ident) => {
            if ours.$field != theirs.$field {
                return mismatch(
                    stringify!($field),
                    format!("{:?}", ours.$field),
                    format!("{:?}", theirs.$field),
                );
            }
        };
    }
    check!(x);
    check!(y);
    check!(vx);
    check!(vy);
    if ours.angle.map(f64::to_bits) != theirs.angle.map(f64::to_bits) {
        return mismatch(
            "angle",
            format!("{:?}", ours.angle),
            format!("{:?}", theirs.angle),
        );
    }
    check!(next_checkpoint);
    check!(passes);
    check!(thrust);
    check!(target);
    check!(shield);
    check!(boost_used);
    check!(message);
    Ok(())
}

fn relative_difference(a: f64, b: f64) -> f64 {
    if a == b {
        0.0
    } else {
        ((a - b) / b).abs()
    }
}

/// Compares a collision; `tolerant` for CodinGame records (rounded positions, 1e-9 relative).
fn compare_collision(
    place: &str,
    ours: &Collision,
    theirs: &CollisionRecord,
    tolerant: bool,
) -> Result<bool, String> {
    let mine = CollisionRecord::from(ours);
    let fail = |field: &str, a: String, b: String| {
        Err(format!(
            "{place}: {field} is {a} when re-simulated, the replay says {b}"
        ))
    };
    if (mine.a, mine.b) != (theirs.a, theirs.b) {
        return fail(
            "pods",
            format!("{}-{}", mine.a, mine.b),
            format!("{}-{}", theirs.a, theirs.b),
        );
    }
    let bit_exact = mine.time.to_bits() == theirs.time.to_bits()
        && mine.impulse.to_bits() == theirs.impulse.to_bits();
    if tolerant {
        let rounded = [mine.ax, mine.ay, mine.bx, mine.by].map(java_round);
        let recorded = [theirs.ax, theirs.ay, theirs.bx, theirs.by];
        if rounded != recorded {
            return fail("positions", format!("{rounded:?}"), format!("{recorded:?}"));
        }
        for (field, a, b) in [
            ("time", mine.time, theirs.time),
            ("impulse", mine.impulse, theirs.impulse),
        ] {
            if relative_difference(a, b) > CODINGAME_RELATIVE_TOLERANCE {
                return fail(field, format!("{a:?}"), format!("{b:?}"));
            }
        }
    } else if mine != *theirs {
        return fail("collision", format!("{mine:?}"), format!("{theirs:?}"));
    }
    Ok(bit_exact)
}

/// Re-simulates `replay` and returns the first divergence as an error.
pub fn verify(replay: &Replay) -> Result<Verified, String> {
    let mut race = race_of(replay)?;
    let count = race.map.checkpoint_count();
    let per_player = race.pods_per_player;
    let cap = race.league.max_thrust();
    let tolerant = replay.source == "codingame";
    if replay.initial_pods.len() != race.pod_count() {
        return Err(format!(
            "initial_pods has {} pods, expected {}",
            replay.initial_pods.len(),
            race.pod_count()
        ));
    }
    for (index, (pod, recorded)) in race.pods().iter().zip(&replay.initial_pods).enumerate() {
        compare_pod(
            &format!("initial state, pod {index}"),
            &PodState::of(pod, count, None),
            recorded,
        )?;
    }
    let mut verified = Verified {
        turns: 0,
        collisions: 0,
        collisions_bit_exact: 0,
    };
    for (index, record) in replay.turns.iter().enumerate() {
        let turn = index as u16 + 1;
        if record.turn != turn {
            return Err(format!(
                "turns[{index}] is numbered {}, expected {turn}",
                record.turn
            ));
        }
        if race.is_over() {
            return Err(format!(
                "turn {turn}: the game was already over after turn {}",
                race.turn
            ));
        }
        if record.outputs.len() != 2 || record.pods.len() != race.pod_count() {
            return Err(format!(
                "turn {turn}: expected 2 output lists and {} pods",
                race.pod_count()
            ));
        }
        let mut commands = Vec::with_capacity(race.pod_count());
        let mut details = Vec::with_capacity(race.pod_count());
        for (pod_index, pod) in race.pods().iter().enumerate() {
            let player = pod_index / per_player;
            let line = record.outputs[player]
                .get(pod_index % per_player)
                .ok_or_else(|| format!("turn {turn}: player {player} has too few output lines"))?;
            let parsed = parse_output_line(line, cap).map_err(|e| {
                format!("turn {turn} pod {pod_index}: recorded output {line:?} is invalid: {e}")
            })?;
            commands.push(parsed.command);
            details.push(TurnDetails::new(pod, &parsed, cap));
        }
        let mut collisions: Vec<Collision> = Vec::new();
        race.step(&commands, &mut collisions);
        for (pod_index, (pod, details)) in race.pods().iter().zip(details).enumerate() {
            compare_pod(
                &format!("turn {turn} pod {pod_index}"),
                &PodState::of(pod, count, Some(details)),
                &record.pods[pod_index],
            )?;
        }
        if collisions.len() != record.collisions.len() {
            return Err(format!(
                "turn {turn}: {} collisions when re-simulated, the replay has {}",
                collisions.len(),
                record.collisions.len()
            ));
        }
        for (number, (ours, theirs)) in collisions.iter().zip(&record.collisions).enumerate() {
            let place = format!(
                "turn {turn} collision {number} (pods {}-{})",
                theirs.a, theirs.b
            );
            verified.collisions_bit_exact +=
                usize::from(compare_collision(&place, ours, theirs, tolerant)?);
            verified.collisions += 1;
        }
        let timeouts: Vec<i32> = (0..2).map(|p| race.checkpoint_timeout_left(p)).collect();
        if timeouts != record.checkpoint_timeout {
            return Err(format!(
                "turn {turn}: checkpoint_timeout is {timeouts:?} when re-simulated, the replay says {:?}",
                record.checkpoint_timeout
            ));
        }
        verified.turns += 1;
    }
    // Output eliminations happen before the turn is played.
    if !race.is_over() {
        let next_turn = race.turn + 1;
        let mut any = false;
        for elimination in &replay.result.eliminations {
            if elimination.cause != cause::CHECKPOINT_TIMEOUT && elimination.turn == next_turn {
                if elimination.player > 1 {
                    return Err(format!(
                        "elimination of unknown player {}",
                        elimination.player
                    ));
                }
                race.eliminate(elimination.player);
                any = true;
            }
        }
        if !any {
            return Err(format!(
                "the replay stops after turn {} but the game is not over and nobody was eliminated on turn {next_turn}",
                race.turn
            ));
        }
    }
    let outcome = race.outcome.expect("the game is over");
    let result = &replay.result;
    if result.turns != race.turn {
        return Err(format!(
            "result: {} turns played when re-simulated, the replay says {}",
            race.turn, result.turns
        ));
    }
    if result.ranks != outcome.ranks.to_vec() || result.winner != outcome.winner() {
        return Err(format!(
            "result: ranks {:?} (winner {:?}) when re-simulated, the replay says {:?} (winner {:?})",
            outcome.ranks,
            outcome.winner(),
            result.ranks,
            result.winner
        ));
    }
    if result.reason != reason_name(outcome.reason) {
        return Err(format!(
            "result: reason {:?} when re-simulated, the replay says {:?}",
            reason_name(outcome.reason),
            result.reason
        ));
    }
    Ok(verified)
}
