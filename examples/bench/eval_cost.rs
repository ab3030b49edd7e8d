//! The leaf evaluation's cost: `CsbGame::evaluate` (what the search calls once per iteration)
//! with the hand evaluation and with the value network (`--eval net`), on the fixed scenes'
//! positions. Prints `evaluation: mode=<hand|net> ns_per_eval=<median of the runs>`.

use super::{cpu_time_ns, measure, scenes, sorted_runs, RUNS};
use csb::bot::actions::ActionSet;
use csb::bot::evaluation::{EvalWeights, Roles};
use csb::bot::game::{CsbGame, RaceContext};
use csb::bot::value_net::network::Network;
use csb::engine::League;
use csb::search::{Game, MAX_AGENTS};
use std::hint::black_box;

/// Evaluations per timed run.
const EVALUATIONS_PER_RUN: usize = 1_000_000;

/// The search states of the scenes, scored by the network when `net`.
fn states(net: bool) -> Vec<CsbGame> {
    let network: Option<&'static Network> = if net {
        Some(Box::leak(Box::new(Network::embedded())))
    } else {
        None
    };
    scenes()
        .into_iter()
        .map(|scene| {
            let context: &'static RaceContext = Box::leak(Box::new(RaceContext {
                map: scene.map,
                actions: ActionSet::new(League::Legend),
                max_thrust: 200.0,
                passes_to_finish: 3 * scene.map.checkpoint_count() as u16,
                weights: EvalWeights {
                    net,
                    ..EvalWeights::default()
                },
                shield_near: true,
                greedy: 0.8,
                network,
            }));
            let roles = [0, 2].map(|runner| Roles {
                runner,
                blocker: runner + 1,
                blocker_races: false,
            });
            CsbGame::root(context, scene.fast_pods, roles)
        })
        .collect()
}

pub fn bench_evaluation() {
    for (mode, net) in [("hand", false), ("net", true)] {
        let states = states(net);
        let mut checksum = 0.0;
        let runs = sorted_runs(RUNS, || {
            let nanos = measure(|| {
                let mut scores = [0.0; MAX_AGENTS];
                for index in 0..EVALUATIONS_PER_RUN {
                    black_box(&states[index % states.len()]).evaluate(&mut scores);
                    black_box(&scores);
                }
            });
            nanos as f64 / EVALUATIONS_PER_RUN as f64
        });
        for state in &states {
            let mut scores = [0.0; MAX_AGENTS];
            state.evaluate(&mut scores);
            checksum += scores[0];
        }
        println!(
            "evaluation: mode={mode} ns_per_eval={:.1} best={:.1} worst={:.1} clock={} \
             player0_sum={checksum:.6}",
            runs[runs.len() / 2],
            runs[0],
            runs[runs.len() - 1],
            if cpu_time_ns().is_some() {
                "cpu"
            } else {
                "wall"
            },
        );
    }
}
