//! The leaf evaluation's cost: `CsbGame::evaluate` (what the search calls once per iteration)
//! with the hand evaluation and with the value network (`--eval net`), on the fixed scenes'
//! positions. Prints `evaluation: mode=<hand|net> ns_per_eval=<median of the runs>`.
//!
//! Then the network's logit alone on the same positions, through each entry point and kernel:
//! `value: api=map` (`Network::player0_logit`, the legs computed from the map at each call) and
//! `value: api=course` (`Network::player0_logit_on`, the legs of a course built once),
//! `kernel=<the detected one|portable>`. `logit_sum` (the logits' sum, to the last bit) is the
//! same for all: the kernels and entry points give the same numbers.

use super::{cpu_time_ns, measure, scenes, sorted_runs, RUNS};
use csb::bot::actions::ActionSet;
use csb::bot::csb_game::{CsbGame, RaceContext};
use csb::bot::evaluation::{EvalWeights, Roles};
use csb::bot::leaf_evaluation::{HandEvaluation, LeafEvaluation, NetworkBlend};
use csb::bot::value_net::course::Course;
use csb::bot::value_net::network::Network;
use csb::engine::{League, Map};
use csb::search::{Game, MAX_AGENTS};
use std::hint::black_box;

/// Evaluations per timed run.
const EVALUATIONS_PER_RUN: usize = 1_000_000;

/// The search states of the scenes with their contexts, scored by the evaluation `evaluation`
/// makes for each scene's map.
fn states<E: LeafEvaluation>(evaluation: impl Fn(&Map) -> E) -> Vec<(RaceContext<E>, CsbGame<E>)> {
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
                evaluation: evaluation(&scene.map),
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
    time_evaluation("hand", &states(|_| HandEvaluation { weights }));
    time_evaluation("net", &states(|map| NetworkBlend::embedded(weights, map)));
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

/// One way to take the network's logit: the entry point's name, the network (with its kernel),
/// whether on a course.
type LogitOf<'a> = (&'a str, &'a Network, bool);

pub fn bench_value() {
    let detected = Network::embedded();
    let portable = Network::embedded().with_portable_kernel();
    let scenes = scenes();
    let courses: Vec<Course> = scenes.iter().map(|scene| Course::new(&scene.map)).collect();
    let ways: [LogitOf; 3] = [
        ("map", &detected, false),
        ("course", &detected, true),
        ("course", &portable, true),
    ];
    for (api, network, on_course) in ways {
        let logit = |index: usize| {
            let scene = &scenes[index];
            let passes = 3 * scene.map.checkpoint_count() as u16;
            if on_course {
                network.player0_logit_on(&scene.fast_pods, &courses[index], passes)
            } else {
                network.player0_logit(&scene.fast_pods, &scene.map, passes)
            }
        };
        let runs = sorted_runs(RUNS, || {
            let nanos = measure(|| {
                for index in 0..EVALUATIONS_PER_RUN {
                    black_box(logit(black_box(index % scenes.len())));
                }
            });
            nanos as f64 / EVALUATIONS_PER_RUN as f64
        });
        let logit_sum: f32 = (0..scenes.len()).map(logit).sum();
        println!(
            "value: api={api} kernel={:?} ns_per_logit={:.1} best={:.1} worst={:.1} \
             logit_sum={logit_sum:e} ({:08x})",
            network.kernel(),
            runs[runs.len() / 2],
            runs[0],
            runs[runs.len() - 1],
            logit_sum.to_bits(),
        );
    }
}
