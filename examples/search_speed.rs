//! Search overhead micro-benchmark: Smitsimax on a nearly free 4-agent × 9-action game, depth 6.
//! What it measures is the search's own cost per ply and per agent, the game step aside.
//!
//! `cargo run --release --example search_speed [iterations-per-turn] [turns]`

#[path = "../tests/search_games/mod.rs"]
mod search_games;

use std::hint::black_box;
use std::time::Instant;

use csb::search::{Game, Rng, SearchParams, Selection, Smitsimax, MAX_AGENTS};
use search_games::HashGame;

fn main() {
    let mut args = std::env::args().skip(1);
    let iterations: u64 = args
        .next()
        .map_or(20_000, |a| a.parse().expect("iterations"));
    let turns: u64 = args.next().map_or(20, |a| a.parse().expect("turns"));
    let depth = 6;

    // The game alone: the same number of random plies, to subtract from the search time.
    let mut rng = Rng::new(1);
    let start = Instant::now();
    let mut checksum = 0.0;
    for turn in 0..turns {
        let root = HashGame {
            mix: [turn as u32, 1, 2, 3],
        };
        for _ in 0..iterations {
            let mut state = root;
            for _ in 0..depth {
                let mut actions = [0u8; MAX_AGENTS];
                for action in &mut actions {
                    *action = rng.below(9) as u8;
                }
                state.step(black_box(&actions));
            }
            let mut scores = [0.0; MAX_AGENTS];
            state.evaluate(&mut scores);
            checksum += scores[0];
        }
    }
    black_box(checksum);
    let game_ns = start.elapsed().as_nanos() as f64 / (turns * iterations) as f64;
    println!("game alone (random actions): {game_ns:.1} ns per {depth}-ply playout");

    for selection in [Selection::Ucb1, Selection::Ucb1Tuned] {
        for random_visits in [10, 0] {
            let params = SearchParams {
                depth: depth as u32,
                selection,
                random_visits,
                ..SearchParams::default()
            };
            let mut search = Smitsimax::new(1_000_000, params, 7);
            let mut nodes = 0;
            let mut signature = 0u64;
            let start = Instant::now();
            for turn in 0..turns {
                let root = HashGame {
                    mix: [turn as u32, 1, 2, 3],
                };
                let stats = search.run_iterations(&root, iterations);
                nodes = nodes.max(stats.nodes_used.iter().copied().max().unwrap_or(0));
                for agent in 0..MAX_AGENTS {
                    signature = signature
                        .wrapping_mul(31)
                        .wrapping_add(search.best_action(agent).into());
                }
            }
            let elapsed = start.elapsed().as_secs_f64();
            let per_iteration_ns = elapsed * 1e9 / (turns * iterations) as f64;
            let overhead_ns = (per_iteration_ns - game_ns) / (depth * MAX_AGENTS) as f64;
            println!(
                "{selection:?} K={random_visits}: {:.0} iterations/s, {per_iteration_ns:.0} ns/iteration, \
                 search overhead {overhead_ns:.1} ns per ply per agent, max nodes/agent {nodes}, signature {signature:x}",
                (turns * iterations) as f64 / elapsed
            );
        }
    }
}
