//! The leaf evaluation's cost: `CsbGame::evaluate` (what the search calls once per iteration)
//! with the hand evaluation and with the value network (`--eval net`), on the fixed scenes'
//! positions. Prints `evaluation: mode=<hand|net> ns_per_eval=<median of the runs>`.
//!
//! Then the network's logit alone on the same positions, through each entry point and kernel:
//! `value: api=map` (`Network::player0_logit`, the legs computed from the map at each call) and
//! `value: api=course` (`Network::player0_logit_on`, the legs of a course built once),
//! `kernel=<the detected one|portable>`. `logit_sum` (the logits' sum, to the last bit) is the
//! same for all: the kernels and entry points give the same numbers.
//!
//! Last, where a logit's time goes: `value: part=inputs` times both views' inputs alone
//! (`Inputs::of` from the course's legs, compiled for the baseline x86-64: inside the AVX2 entry
//! point they are compiled for AVX2, a little faster), `value: part=layers kernel=…` the layers
//! alone on inputs computed beforehand (`Network::paired_logits`). The two overlap in a whole
//! logit, so they add up to a little more than `api=course`.

use super::{cpu_time_ns, measure, scenes, sorted_runs, RUNS};
use csb::bot::actions::ActionSet;
use csb::bot::csb_game::{CsbGame, RaceContext};
use csb::bot::evaluation::{EvalWeights, Roles};
use csb::bot::leaf_evaluation::{HandEvaluation, LeafEvaluation, NetworkBlend};
use csb::bot::timeout_clocks::TimeoutClocks;
use csb::bot::value_net::course::Course;
use csb::bot::value_net::features::Inputs;
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
            let root = CsbGame::root(&context, scene.fast_pods, TimeoutClocks::FULL, roles);
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
                network.player0_logit_on(
                    &scene.fast_pods,
                    &courses[index],
                    passes,
                    TimeoutClocks::FULL,
                )
            } else {
                network.player0_logit(&scene.fast_pods, &scene.map, passes, TimeoutClocks::FULL)
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

/// Times `one_call` (on the scene of the index it is given) and returns the sorted nanoseconds
/// per call of each run.
fn time_calls(scene_count: usize, mut one_call: impl FnMut(usize)) -> Vec<f64> {
    sorted_runs(RUNS, || {
        let nanos = measure(|| {
            for index in 0..EVALUATIONS_PER_RUN {
                one_call(black_box(index % scene_count));
            }
        });
        nanos as f64 / EVALUATIONS_PER_RUN as f64
    })
}

/// The inputs alone, then the layers alone with each kernel (see the module's text).
pub fn bench_value_parts() {
    let scenes = scenes();
    let courses: Vec<Course> = scenes.iter().map(|scene| Course::new(&scene.map)).collect();
    let inputs_of = |index: usize| {
        let (scene, course) = (&scenes[index], &courses[index]);
        let legs = scene
            .fast_pods
            .map(|pod| course.leg(pod.next_checkpoint as usize));
        let passes = 3 * scene.map.checkpoint_count() as u16;
        Inputs::of(
            &scene.fast_pods,
            &scene.map,
            &legs,
            passes,
            TimeoutClocks::FULL,
        )
    };
    let runs = time_calls(scenes.len(), |index| {
        black_box(inputs_of(index));
    });
    println!(
        "value: part=inputs ns_per_call={:.1} best={:.1} worst={:.1}",
        runs[runs.len() / 2],
        runs[0],
        runs[runs.len() - 1],
    );
    let inputs: Vec<Inputs> = (0..scenes.len()).map(inputs_of).collect();
    for network in [
        Network::embedded(),
        Network::embedded().with_portable_kernel(),
    ] {
        let runs = time_calls(inputs.len(), |index| {
            black_box(network.paired_logits(black_box(&inputs[index])));
        });
        let logit_sum: f32 = inputs
            .iter()
            .map(|inputs| {
                let [own, theirs] = network.paired_logits(inputs);
                own - theirs
            })
            .sum();
        println!(
            "value: part=layers kernel={:?} ns_per_call={:.1} best={:.1} worst={:.1} \
             logit_sum={logit_sum:e} ({:08x})",
            network.kernel(),
            runs[runs.len() / 2],
            runs[0],
            runs[runs.len() - 1],
            logit_sum.to_bits(),
        );
    }
}
