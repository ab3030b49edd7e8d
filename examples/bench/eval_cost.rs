//! The leaf evaluation's cost: `CsbGame::evaluate` (what the search calls once per iteration)
//! with the hand evaluation and with the value network (`--eval net`), on the fixed scenes'
//! positions. Prints `evaluation: mode=<hand|net> ns_per_eval=<median of the runs>`.

use super::{cpu_time_ns, measure, scenes, sorted_runs, RUNS};
use csb::bot::actions::ActionSet;
use csb::bot::csb_game::{CsbGame, RaceContext};
use csb::bot::evaluation::{EvalWeights, Roles};
use csb::bot::leaf_evaluation::{HandEvaluation, LeafEvaluation, NetworkBlend};
use csb::engine::League;
use csb::search::{Game, MAX_AGENTS};
use std::hint::black_box;

/// Evaluations per timed run.
const EVALUATIONS_PER_RUN: usize = 1_000_000;

/// The search states of the scenes with their contexts, scored by `evaluation`.
fn states<E: LeafEvaluation + Clone>(evaluation: E) -> Vec<(RaceContext<E>, CsbGame<E>)> {
    scenes()
        .into_iter()
        .map(|scene| {
            let context = RaceContext {
                map: scene.map,
                actions: ActionSet::new(League::Legend),
                max_thrust: 200.0,
                passes_to_finish: 3 * scene.map.checkpoint_count() as u16,
                shield_near: true,
                greedy: 0.8,
                evaluation: evaluation.clone(),
            };
            let roles = [0, 2].map(|runner| Roles {
                runner,
                blocker: runner + 1,
                blocker_races: false,
            });
            let root = CsbGame::root(&context, scene.fast_pods, roles);
            (context, root)
        })
        .collect()
}

pub fn bench_evaluation() {
    let weights = EvalWeights::default();
    time_evaluation("hand", &states(HandEvaluation { weights }));
    time_evaluation("net", &states(NetworkBlend::embedded(weights)));
}

/// Times `CsbGame::evaluate` on `states` and prints its line.
fn time_evaluation<E: LeafEvaluation>(mode: &str, states: &[(RaceContext<E>, CsbGame<E>)]) {
    let mut checksum = 0.0;
    let runs = sorted_runs(RUNS, || {
        let nanos = measure(|| {
            let mut scores = [0.0; MAX_AGENTS];
            for index in 0..EVALUATIONS_PER_RUN {
                let (context, state) = black_box(&states[index % states.len()]);
                state.evaluate(context, &mut scores);
                black_box(&scores);
            }
        });
        nanos as f64 / EVALUATIONS_PER_RUN as f64
    });
    for (context, state) in states {
        let mut scores = [0.0; MAX_AGENTS];
        state.evaluate(context, &mut scores);
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
