//! The search benchmark: the bot's whole turn (root from the input, Smitsimax on the fast
//! engine, decision) on fixed positions of a recorded CodinGame game, single thread.
//!
//! Speed: each position is searched for a fixed number of iterations and timed on-CPU (see
//! `measure`); the figures per 50 ms turn are scaled from that, so they do not depend on what
//! else the machine runs. Signature: a checksum of the decisions at a fixed iteration count,
//! which changes only when the bot's behaviour changes.

use super::{measure, sorted_runs};
use csb::bot::config::BotConfig;
use csb::bot::signature::{POSITIONS, SIGNATURE_ITERATIONS, TIMEOUT_POSITION};
use csb::bot::two_pod::player::Player;
use csb::protocol::{InitInput, InputReader, TurnInput};

const RECORDED_INPUT: &str = "replays/inputs/cg-demo.p0.txt";
const BUDGET_MS: f64 = 50.0;
/// Iterations per position for the speed figures.
const TIMED_ITERATIONS: u64 = 40_000;

pub fn recorded_game() -> (InitInput, Vec<TurnInput>) {
    let text = std::fs::read_to_string(RECORDED_INPUT).expect("run from the repository root");
    let mut reader = InputReader::new(text.as_bytes());
    let init = reader.read_init().unwrap().expect("an init block");
    let mut turns = Vec::new();
    while let Some(turn) = reader.read_turn(4, init.checkpoints.len()).unwrap() {
        turns.push(turn);
    }
    (init, turns)
}

/// A player with `config` that has played the game up to `turn` (cheaply), so its memory is
/// right.
fn player_at(
    config: &BotConfig,
    init: &InitInput,
    turns: &[TurnInput],
    turn: usize,
    iterations: u64,
) -> Player {
    let config = BotConfig {
        iterations: Some(64),
        ..config.clone()
    };
    let mut player = Player::new(config, init).unwrap();
    for input in &turns[..turn] {
        player.play_turn(input);
    }
    player.config_mut().iterations = Some(iterations);
    player
}

/// Iterations, simulated turns and on-CPU nanoseconds of [`TIMED_ITERATIONS`] iterations at
/// each of the [`POSITIONS`], with `config`.
fn time_search(config: &BotConfig, init: &InitInput, turns: &[TurnInput]) -> (u64, u64, u64) {
    let (mut iterations, mut plies, mut nanoseconds) = (0u64, 0u64, 0u64);
    for &turn in &POSITIONS {
        let mut player = player_at(config, init, turns, turn, TIMED_ITERATIONS);
        let mut decision = None;
        nanoseconds += measure(|| decision = Some(player.play_turn(&turns[turn])));
        let decision = decision.unwrap();
        iterations += decision.iterations;
        plies += decision.simulated_turns;
    }
    (iterations, plies, nanoseconds)
}

/// Runs of [`time_search`] per setting when comparing bot flags.
const FLAG_RUNS: usize = 5;

/// The search's speed with the bot flags `args` (the defaults where they say nothing): median,
/// fastest and slowest of [`FLAG_RUNS`] runs, in nanoseconds per simulated turn. For A/B-ing a
/// setting's speed, e.g. `cargo run --release --example bench -- --expand-after 0`.
pub fn bench_flags(args: &[String]) -> Result<(), String> {
    let config = BotConfig::from_args(args)?;
    let (init, turns) = recorded_game();
    let per_ply = sorted_runs(FLAG_RUNS, || {
        let (_, plies, nanoseconds) = time_search(&config, &init, &turns);
        nanoseconds as f64 / plies as f64
    });
    println!(
        "search: flags=\"{}\" ns_per_simulated_turn={:.1} best={:.1} worst={:.1} runs={FLAG_RUNS}",
        args.join(" "),
        per_ply[FLAG_RUNS / 2],
        per_ply[0],
        per_ply[FLAG_RUNS - 1]
    );
    Ok(())
}

pub fn bench_search() {
    let (init, turns) = recorded_game();
    let config = BotConfig::default();
    let depth = config.search_played().depth;
    let (iterations, plies, nanoseconds) = time_search(&config, &init, &turns);
    let per_turn = |count: u64| (count as f64 * BUDGET_MS * 1e6 / nanoseconds as f64).round();
    println!(
        "search: depth={depth} iterations_per_turn={} simulated_turns_per_turn={} budget_ms={BUDGET_MS}",
        per_turn(iterations),
        per_turn(plies)
    );
    println!(
        "search: ns_per_simulated_turn={:.1} (on-CPU, {TIMED_ITERATIONS} iterations at each of {} positions)",
        nanoseconds as f64 / plies as f64,
        POSITIONS.len()
    );
    // The positions as they are, then one as if our pods had gone 80 turns without a pass (what
    // the timeout guard reacts to; the recorded game never gets there): the recipe `learn`
    // records in its manifests too.
    let signature = csb::bot::signature::decision_signature(&config).expect("the defaults play");
    println!(
        "search: signature={signature:016x} (iterations={SIGNATURE_ITERATIONS} at each position, \
         turn {TIMEOUT_POSITION} also near the checkpoint timeout)"
    );
}
