//! Reflex vs GA in-process on the exact engine, over a range of CodinGame map seeds, each seed
//! played twice with the sides swapped. The GA runs a fixed number of generations per turn, so
//! the result is deterministic and does not depend on the machine's speed. With
//! `--opponent-iterations K` the opponent is a GA with K generations per turn instead of the
//! reflex bot (the reflex bot is what the GA predicts its opponent with, so against it the GA
//! plays its best case).
//!
//! `cargo run --release -p sparring --example duel -- [--seeds N] [--first-seed S] [--iterations G]
//! [--opponent-iterations K] [--league gold|legend]`

use csb::engine::{League, Map};
use sparring::duel::{play, DuelResult};
use sparring::ga::{GaBot, GaParams};
use sparring::reflex::ReflexBot;
use std::time::Instant;

fn value(args: &[String], flag: &str, default: u64) -> u64 {
    args.iter()
        .position(|arg| arg == flag)
        .and_then(|index| args.get(index + 1))
        .map(|text| text.parse().expect("a non-negative integer"))
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seeds = value(&args, "--seeds", 20);
    let first_seed = value(&args, "--first-seed", 1);
    let iterations = value(&args, "--iterations", 40) as u32;
    let league = args
        .iter()
        .position(|arg| arg == "--league")
        .and_then(|index| args.get(index + 1))
        .and_then(|name| League::parse(name))
        .unwrap_or(League::Legend);
    let cap = league.max_thrust();
    let opponent_iterations = args
        .iter()
        .any(|arg| arg == "--opponent-iterations")
        .then(|| value(&args, "--opponent-iterations", 0) as u32);
    let opponent = match opponent_iterations {
        Some(iterations) => format!("GA ({iterations} generations/turn)"),
        None => "reflex".to_string(),
    };
    let params = GaParams {
        iterations: Some(iterations),
        ..GaParams::default()
    };
    let (mut ga_wins, mut other_wins, mut draws) = (0, 0, 0);
    let clock = Instant::now();
    println!("seed  ga-side  winner  turns  passes(ga/other)");
    for seed in first_seed..first_seed + seeds {
        let map = Map::from_seed(seed as i64);
        for ga_side in 0..2 {
            let params = GaParams {
                seed: seed * 2 + ga_side as u64,
                ..params
            };
            let opponent_params = opponent_iterations.map(|iterations| GaParams {
                iterations: Some(iterations),
                seed: seed * 2 + 1 - ga_side as u64 + 1000,
                ..GaParams::default()
            });
            let result: DuelResult = match (ga_side, opponent_params) {
                (0, None) => play(
                    map,
                    league,
                    |c| GaBot::new(c, params),
                    |_| ReflexBot { cap },
                    |_| {},
                ),
                (_, None) => play(
                    map,
                    league,
                    |_| ReflexBot { cap },
                    |c| GaBot::new(c, params),
                    |_| {},
                ),
                (0, Some(other)) => play(
                    map,
                    league,
                    |c| GaBot::new(c, params),
                    |c| GaBot::new(c, other),
                    |_| {},
                ),
                (_, Some(other)) => play(
                    map,
                    league,
                    |c| GaBot::new(c, other),
                    |c| GaBot::new(c, params),
                    |_| {},
                ),
            };
            let winner = match result.outcome.winner() {
                Some(player) if player == ga_side => {
                    ga_wins += 1;
                    "ga"
                }
                Some(_) => {
                    other_wins += 1;
                    "other"
                }
                None => {
                    draws += 1;
                    "draw"
                }
            };
            println!(
                "{seed:>4}  {ga_side:>7}  {winner:>6}  {:>5}  {}/{} ({:?})",
                result.turns,
                result.best_passes[ga_side],
                result.best_passes[1 - ga_side],
                result.outcome.reason
            );
        }
    }
    let games = ga_wins + other_wins + draws;
    println!(
        "GA ({iterations} generations/turn) vs {opponent}, {games} games: GA {ga_wins}, other {other_wins}, draws {draws} ({:.1}% GA) in {:.1}s",
        100.0 * (f64::from(ga_wins) + 0.5 * f64::from(draws)) / f64::from(games),
        clock.elapsed().as_secs_f64()
    );
}
