//! Search overhead micro-benchmark: Smitsimax on a nearly free 4-agent × 9-action game, depth 6.
//! What it measures is the search's own cost per ply and per agent, the game step aside. Each
//! figure is the best of several repetitions, so other load on the machine matters less.
//!
//! `cargo run --release --example search_speed [iterations-per-turn] [turns] [repetitions]`

#[path = "../tests/search_games/mod.rs"]
mod search_games;

use std::hint::black_box;
use std::time::Instant;

use csb::search::{Game, Rng, SearchParams, Smitsimax, MAX_AGENTS};
use search_games::HashGame;

const DEPTH: usize = 6;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut next = |default: u64| {
        args.next()
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let iterations = next(20_000);
    let turns = next(10);
    let repetitions = next(5);
    let total = (turns * iterations) as f64;
    let roots: Vec<HashGame> = (0..turns as u32)
        .map(|turn| HashGame {
            mix: [turn, 1, 2, 3],
        })
        .collect();

    let game_seconds = best_of(repetitions, || random_playouts(&roots, iterations));
    let game_ns = game_seconds * 1e9 / total;
    println!("game alone, random actions: {game_ns:.1} ns per {DEPTH}-ply playout");
    println!("{iterations} iterations per turn, {turns} turns, best of {repetitions}:");

    let configurations = [(10, 0), (0, 0), (10, 2), (10, 10)];
    for (random_visits, expand_after) in configurations {
        let params = SearchParams {
            depth: DEPTH as u32,
            random_visits,
            expand_after,
            ..SearchParams::default()
        };
        let mut nodes = 0;
        let mut signature = 0u64;
        let mut seconds = f64::INFINITY;
        for _ in 0..repetitions.max(1) {
            // A fresh search each time, built outside the timing: same seed, same signature.
            let mut search: Smitsimax<HashGame> = Smitsimax::new(2_000_000, params, 7);
            signature = 0;
            let start = Instant::now();
            for root in &roots {
                let stats = search.run_iterations(&(), root, iterations);
                nodes = stats.nodes_used.iter().copied().max().unwrap_or(0);
                for agent in 0..MAX_AGENTS {
                    let action = u64::from(search.best_action(agent));
                    signature = signature.wrapping_mul(31).wrapping_add(action);
                }
            }
            seconds = seconds.min(start.elapsed().as_secs_f64());
        }
        let iteration_ns = seconds * 1e9 / total;
        let overhead_ns = (iteration_ns - game_ns) / (DEPTH * MAX_AGENTS) as f64;
        println!(
            "  UCB1 K={random_visits} T={expand_after}: {:.2} M iterations/s, \
             {iteration_ns:.0} ns/iteration, overhead {overhead_ns:.1} ns per ply per agent, \
             nodes/agent {nodes}, signature {signature:x}",
            total / seconds / 1e6
        );
    }
}

/// The same number of plies the search plays, with random actions and no tree.
fn random_playouts(roots: &[HashGame], iterations: u64) {
    let mut rng = Rng::new(1);
    let mut checksum = 0.0;
    for root in roots {
        for _ in 0..iterations {
            let mut state = *root;
            for _ in 0..DEPTH {
                let mut actions = [0u8; MAX_AGENTS];
                for action in &mut actions {
                    *action = rng.below(9) as u8;
                }
                state.step(&(), black_box(&actions));
            }
            let mut scores = [0.0; MAX_AGENTS];
            state.evaluate(&(), &mut scores);
            checksum += scores[0];
        }
    }
    black_box(checksum);
}

/// Shortest wall time of `repetitions` runs of `work`, in seconds.
fn best_of(repetitions: u64, mut work: impl FnMut()) -> f64 {
    (0..repetitions.max(1))
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}
