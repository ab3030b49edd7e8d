//! The policy network's cost (`--policy-net`, `bot/policy_net/`): one team's outputs (both
//! views' inputs, one view through the layers, each own pod's softmax and value) on the fixed
//! scenes' positions, with a network of fixed synthetic weights (the cost does not depend on
//! their values). Prints `evaluation: mode=policy-pod ns_per_eval=<median of the runs>`, one
//! pod's priors alone (`PolicyNetwork::pod_priors`, what a search node's expansion and a rollout
//! ply with `--rollout policy` take, per pod), then `mode=policy`, a team's whole outputs.

use super::{cpu_time_ns, measure, scenes, sorted_runs, RUNS};
use csb::bot::policy_net::network::PolicyNetwork;
use csb::bot::timeout_clocks::TimeoutClocks;
use csb::bot::value_net::course::Course;
use std::hint::black_box;

/// Evaluations per timed run.
const EVALUATIONS_PER_RUN: usize = 1_000_000;

pub fn bench_policy() {
    let mut network = PolicyNetwork::zeros();
    for (input, row) in network.input.weights.iter_mut().enumerate() {
        for (hidden, weight) in row.iter_mut().enumerate() {
            *weight = ((input * 7 + hidden * 3) % 11) as f32 / 11.0 - 0.5;
        }
    }
    for (hidden, row) in network.heads.weights.iter_mut().enumerate() {
        for (output, weight) in row.iter_mut().enumerate() {
            *weight = ((hidden * 5 + output) % 13) as f32 / 13.0 - 0.5;
        }
    }
    let scenes = scenes();
    let courses: Vec<Course> = scenes.iter().map(|scene| Course::new(&scene.map)).collect();
    let outputs = |index: usize| {
        let scene = &scenes[index % scenes.len()];
        let passes = 3 * scene.map.checkpoint_count() as u16;
        network.team_outputs(
            &scene.fast_pods,
            &courses[index % scenes.len()],
            passes,
            TimeoutClocks::FULL,
            index % 2,
        )
    };
    let priors = |index: usize| {
        let scene = &scenes[index % scenes.len()];
        let passes = 3 * scene.map.checkpoint_count() as u16;
        network.pod_priors(
            &scene.fast_pods,
            &courses[index % scenes.len()],
            passes,
            TimeoutClocks::FULL,
            index % 4,
        )
    };
    let runs = sorted_runs(RUNS, || {
        let nanos = measure(|| {
            for index in 0..EVALUATIONS_PER_RUN {
                black_box(priors(black_box(index)));
            }
        });
        nanos as f64 / EVALUATIONS_PER_RUN as f64
    });
    println!(
        "evaluation: mode=policy-pod ns_per_eval={:.1} best={:.1} worst={:.1}",
        runs[runs.len() / 2],
        runs[0],
        runs[runs.len() - 1],
    );
    let runs = sorted_runs(RUNS, || {
        let nanos = measure(|| {
            for index in 0..EVALUATIONS_PER_RUN {
                black_box(outputs(black_box(index)));
            }
        });
        nanos as f64 / EVALUATIONS_PER_RUN as f64
    });
    let prior_sum: f32 = (0..2 * scenes.len())
        .map(|index| outputs(index).priors[0][0])
        .sum();
    println!(
        "evaluation: mode=policy ns_per_eval={:.1} best={:.1} worst={:.1} clock={} \
         prior_sum={prior_sum:.6}",
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
