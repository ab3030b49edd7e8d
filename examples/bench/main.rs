//! Benchmarks, run with `cargo run --release --example bench`; `... --example bench -- --engine`
//! times only the engine, `... --example bench -- FLAGS` only the search, with the bot flags
//! FLAGS (see `search::bench_flags`).
//!
//! `bench_engine` times one simulated turn (all 4 pods: commands, movement with collisions,
//! friction and rounding, checkpoint passes) on a few fixed mid-race scenes, for the exact path
//! (`physics::play_turn`, commands precomputed) and the fast path (`fast_turn`). It prints
//! `engine: mode=<exact|fast> ns_per_turn=<median of the runs>` and a checksum of the final
//! states, which changes only when the engine's results change, then the fast path on each scene
//! alone (`engine: mode=fast scene=<name> ns_per_turn=…`). Times are the thread's on-CPU
//! time where Linux reports it (so other jobs on the machine matter less), else wall-clock time.
//!
//! Four of the five fixed scenes collide (two are four-pod scrums), far more than the search
//! meets. `mode=fast-mix` times the fast turn on a representative mix instead: the positions of
//! a recorded game (`replays/inputs/cg-demo.p0.txt`), each followed by 6-turn rollouts of random
//! actions from the bot's action set, as the search plays them; it prints the share of its turns
//! with a pod–pod contact.
//!
//! `turn_profile.rs` (`--profile`, and last in the default run) shows where a turn's time goes:
//! the engine's steps, the leaf evaluations, the policy's priors, the default policy and the
//! rest, for the default bot and the hand one, at the real control's iterations.
//!
//! `eval_cost.rs` then times the leaf evaluation, hand-written and value network
//! (`evaluation: mode=<hand|net> ns_per_eval=…`), the network's logit alone
//! (`value: api=<map|course> kernel=… ns_per_logit=…`), and its two parts, the inputs and the
//! layers (`value: part=<inputs|layers> … ns_per_call=…`); then the policy network's cost
//! (`evaluation: mode=policy ns_per_eval=…`, `policy_cost.rs`).

mod eval_cost;
mod policy_cost;
mod search;
mod turn_profile;

use csb::bot::actions::{ActionSet, ACTION_COUNT};
use csb::bot::two_pod::memory::Memory;
use csb::engine::physics::{play_turn, Collision, CollisionSink};
use csb::engine::{
    fast_turn, Command, FastAction, FastPod, League, Map, Pod, Steering, Thrust, Vec2,
};
use csb::protocol::InputReader;
use std::hint::black_box;
use std::time::Instant;

/// Simulated turns per timed run, and timed runs per mode.
const TURNS_PER_RUN: usize = 1_000_000;
const RUNS: usize = 7;

/// One fixed position with the orders of all four pods in both representations.
struct Scene {
    name: &'static str,
    map: Map,
    pods: [Pod; 4],
    commands: [Command; 4],
    fast_pods: [FastPod; 4],
    actions: [FastAction; 4],
}

/// A pod with an integral position and speed, facing `angle_deg`, `passes` checkpoints passed.
fn pod(x: f64, y: f64, vx: f64, vy: f64, angle_deg: f64, passes: u16) -> Pod {
    Pod {
        pos: Vec2::new(x, y),
        vel: Vec2::new(vx, vy),
        angle_rad: Some(angle_deg.to_radians()),
        passes,
        ..Pod::spawn(Vec2::ZERO)
    }
}

fn action(steering_deg: f64, thrust: Thrust) -> FastAction {
    FastAction {
        steering: Steering::degrees(steering_deg),
        thrust,
    }
}

fn scene(name: &'static str, map: Map, pods: [Pod; 4], actions: [FastAction; 4]) -> Scene {
    let count = map.checkpoint_count();
    let commands = [0, 1, 2, 3].map(|index| actions[index].to_command(&pods[index], 0.0));
    let fast_pods = pods.map(|pod| FastPod::from_pod(&pod, count, 0.0));
    Scene {
        name,
        map,
        pods,
        commands,
        fast_pods,
        actions,
    }
}

/// Five scenes: a free race, a head-on crash, a four-pod scrum, pods overlapping at the start of
/// the turn, and a pass through two close checkpoints with a shield and a boost.
fn scenes() -> Vec<Scene> {
    let map = Map::from_seed(920111793);
    let close = Map::new(&[(8000, 8000), (2000, 4000), (3300, 4000), (9000, 1000)]).unwrap();
    let p = |thrust: u16| Thrust::Power(thrust);
    vec![
        scene(
            "free-race",
            map,
            [
                pod(3000.0, 2000.0, 400.0, 300.0, 30.0, 1),
                pod(9000.0, 6000.0, -500.0, 100.0, 170.0, 2),
                pod(12000.0, 3000.0, 0.0, -450.0, -95.0, 1),
                pod(6000.0, 7500.0, 300.0, -300.0, -40.0, 3),
            ],
            [
                action(10.0, p(100)),
                action(-18.0, p(100)),
                action(5.0, p(70)),
                action(18.0, p(100)),
            ],
        ),
        scene(
            "head-on-shield",
            map,
            [
                pod(5000.0, 4000.0, 600.0, 0.0, 0.0, 2),
                pod(2000.0, 1000.0, 300.0, 200.0, 30.0, 2),
                pod(6500.0, 4100.0, -600.0, 0.0, 180.0, 2),
                pod(12000.0, 8000.0, -200.0, -400.0, -120.0, 4),
            ],
            [
                action(0.0, p(100)),
                action(-7.0, p(100)),
                action(3.0, Thrust::Shield),
                action(12.0, p(50)),
            ],
        ),
        scene(
            "four-pod-scrum",
            map,
            [
                pod(8000.0, 4500.0, 300.0, 100.0, 15.0, 3),
                pod(8900.0, 4600.0, -200.0, 50.0, 170.0, 3),
                pod(8400.0, 5400.0, 50.0, -350.0, -80.0, 3),
                pod(8500.0, 3600.0, -20.0, 400.0, 95.0, 3),
            ],
            [
                action(18.0, p(100)),
                action(-18.0, Thrust::Boost),
                action(0.0, p(100)),
                action(4.0, Thrust::Shield),
            ],
        ),
        scene(
            "overlap-at-start",
            map,
            [
                pod(10000.0, 2000.0, 100.0, 0.0, 0.0, 5),
                pod(9201.0, 2000.0, -100.0, 0.0, 180.0, 5),
                pod(4000.0, 6000.0, 250.0, 250.0, 45.0, 4),
                pod(4600.0, 6500.0, 0.0, 0.0, -135.0, 4),
            ],
            [
                action(0.0, p(100)),
                action(0.0, p(100)),
                action(-18.0, p(100)),
                action(18.0, p(100)),
            ],
        ),
        scene(
            "scrum-boost-shield",
            close,
            [
                pod(1500.0, 4000.0, 566.0, 0.0, 0.0, 0),
                pod(1500.0, 5200.0, 500.0, -100.0, -10.0, 0),
                pod(2800.0, 4900.0, -300.0, -200.0, 200.0, 0),
                pod(6000.0, 2000.0, -400.0, 300.0, 140.0, 1),
            ],
            [
                action(0.0, Thrust::Boost),
                action(6.0, p(100)),
                action(-12.0, Thrust::Shield),
                action(18.0, p(100)),
            ],
        ),
    ]
}

/// Folds the final states of a turn into the checksum (positions, speeds, passes).
fn fold(checksum: u64, states: impl Iterator<Item = [f64; 5]>) -> u64 {
    states.flatten().fold(checksum, |sum, value| {
        (sum.rotate_left(5) ^ value.to_bits()).wrapping_mul(0x0100_0000_01B3)
    })
}

/// Nanoseconds this thread has run on a CPU (Linux `/proc/thread-self/schedstat`), if known.
/// Other processes compiling on the same cores inflate wall-clock time, not this.
pub fn cpu_time_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Nanoseconds of `work`: on-CPU time where the system reports it, wall-clock time otherwise.
pub fn measure(work: impl FnOnce()) -> u64 {
    let cpu_start = cpu_time_ns();
    let wall_start = Instant::now();
    work();
    let wall = wall_start.elapsed().as_nanos() as u64;
    match (cpu_start, cpu_time_ns()) {
        (Some(start), Some(end)) if end > start => end - start,
        _ => wall,
    }
}

/// `runs` results of `one_run`, sorted (median in the middle, best first).
pub fn sorted_runs(runs: usize, one_run: impl FnMut() -> f64) -> Vec<f64> {
    let mut results: Vec<f64> = std::iter::repeat_with(one_run).take(runs).collect();
    results.sort_by(|a, b| a.partial_cmp(b).expect("times are numbers"));
    results
}

/// Times `RUNS` runs of `TURNS_PER_RUN` calls of `one_turn` cycling through `items` (scenes or
/// turns of the mix); returns the sorted nanoseconds per turn of each run. `one_turn` passes its
/// result through `black_box`, so the work cannot be optimised away; the checksum is taken
/// outside the timing.
fn time_runs<T>(items: &[T], mut one_turn: impl FnMut(&T)) -> Vec<f64> {
    sorted_runs(RUNS, || {
        let nanos = measure(|| {
            for index in 0..TURNS_PER_RUN {
                one_turn(&items[index % items.len()]);
            }
        });
        nanos as f64 / TURNS_PER_RUN as f64
    })
}

fn report(mode: &str, per_turn: &[f64], checksum: u64) {
    println!(
        "engine: mode={mode} ns_per_turn={:.1}",
        per_turn[per_turn.len() / 2]
    );
    println!(
        "engine: mode={mode} clock={} best={:.1} worst={:.1} runs={} turns_per_run={} \
         checksum={checksum:016x}",
        if cpu_time_ns().is_some() {
            "cpu"
        } else {
            "wall"
        },
        per_turn[0],
        per_turn[per_turn.len() - 1],
        per_turn.len(),
        TURNS_PER_RUN,
    );
}

fn exact_turn(scene: &Scene) -> [Pod; 4] {
    let mut pods = black_box(scene.pods);
    play_turn(
        &mut pods,
        black_box(&scene.commands),
        &scene.map,
        League::Gold.max_thrust(),
        1,
        &[true; 4],
        &mut (),
    );
    black_box(pods)
}

fn fast_turn_of(scene: &Scene) -> [FastPod; 4] {
    let mut pods = black_box(scene.fast_pods);
    fast_turn(
        &mut pods,
        &scene.map,
        black_box(&scene.actions),
        f64::from(League::Gold.max_thrust()),
    );
    black_box(pods)
}

/// The engine benchmark: exact and fast turns on the fixed scenes.
fn bench_engine() {
    let scenes = scenes();

    let exact = time_runs(&scenes, |scene| {
        exact_turn(scene);
    });
    let exact_sum = scenes.iter().fold(0, |sum, scene| {
        let pods = exact_turn(scene);
        fold(
            sum,
            pods.iter()
                .map(|p| [p.pos.x, p.pos.y, p.vel.x, p.vel.y, f64::from(p.passes)]),
        )
    });
    report("exact", &exact, exact_sum);

    let fast = time_runs(&scenes, |scene| {
        fast_turn_of(scene);
    });
    let fast_sum = scenes.iter().fold(0, |sum, scene| {
        let pods = fast_turn_of(scene);
        fold(
            sum,
            pods.iter()
                .map(|p| [p.pos.x, p.pos.y, p.vel.x, p.vel.y, f64::from(p.passes)]),
        )
    });
    report("fast", &fast, fast_sum);
    for scene in &scenes {
        let per_turn = time_runs(std::slice::from_ref(scene), |scene| {
            fast_turn_of(scene);
        });
        println!(
            "engine: mode=fast scene={} ns_per_turn={:.1}",
            scene.name,
            per_turn[per_turn.len() / 2]
        );
    }
}

/// One turn of the representative mix: a state met in a rollout and the actions played from it.
struct MixTurn {
    pods: [FastPod; 4],
    actions: [u8; 4],
}

/// Rollouts per recorded position, turns per rollout, and turns kept for timing (a whole number
/// of kilobytes that stays in the L2 cache, like the search's working set).
const MIX_ROLLOUTS: usize = 8;
const MIX_DEPTH: usize = 6;
const MIX_TURNS: usize = 4096;

/// Counts the exact turn's bounces (to report how often the mix collides).
#[derive(Default)]
struct BounceCount(usize);

impl CollisionSink for BounceCount {
    fn record(&mut self, _collision: &Collision) {
        self.0 += 1;
    }
}

/// The recorded game's positions as the bot sees them, each followed by `MIX_ROLLOUTS` rollouts
/// of `MIX_DEPTH` turns with uniformly random actions (xorshift, fixed seed); an evenly spaced
/// sample of `MIX_TURNS` of the turns played. Also returns the share of them with a contact.
fn mix(actions: &ActionSet) -> (Map, Vec<MixTurn>, f64) {
    let input = include_str!("../../replays/inputs/cg-demo.p0.txt");
    let mut reader = InputReader::new(input.as_bytes());
    let init = reader
        .read_init()
        .expect("the recorded input parses")
        .expect("the recorded input has an init block");
    let map = Map::new(&init.checkpoints).expect("the recorded map is valid");
    let count = map.checkpoint_count();
    let mut memory = Memory::new(count);
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut random_action = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % ACTION_COUNT as u64) as u8
    };
    let mut turns = Vec::new();
    while let Some(turn) = reader
        .read_turn(4, count)
        .expect("the recorded input parses")
    {
        memory.observe(&turn.pods, League::Gold.max_thrust());
        let root = [0, 1, 2, 3].map(|index| {
            let pod = memory.pod(&turn.pods, index);
            let next = map.checkpoint(pod.next_checkpoint(count));
            FastPod::from_pod(&pod, count, (next.y - pod.pos.y).atan2(next.x - pod.pos.x))
        });
        for _ in 0..MIX_ROLLOUTS {
            let mut pods = root;
            for _ in 0..MIX_DEPTH {
                let chosen = [(); 4].map(|_| random_action());
                turns.push(MixTurn {
                    pods,
                    actions: chosen,
                });
                fast_turn(
                    &mut pods,
                    &map,
                    &chosen.map(|index| *actions.get(index)),
                    f64::from(League::Gold.max_thrust()),
                );
            }
        }
    }
    let stride = turns.len() / MIX_TURNS;
    let sample: Vec<MixTurn> = turns.into_iter().step_by(stride).take(MIX_TURNS).collect();
    // Contacts, counted with the exact turn on the same positions (headings as angles).
    let colliding = sample
        .iter()
        .filter(|turn| {
            let mut pods = turn.pods.map(|fast| Pod {
                pos: fast.pos,
                vel: fast.vel,
                angle_rad: Some(fast.heading.y.atan2(fast.heading.x)),
                ..Pod::spawn(Vec2::ZERO)
            });
            let commands = [0, 1, 2, 3].map(|index| {
                actions
                    .get(turn.actions[index])
                    .to_command(&pods[index], 0.0)
            });
            let mut bounces = BounceCount::default();
            play_turn(
                &mut pods,
                &commands,
                &map,
                League::Gold.max_thrust(),
                1,
                &[true; 4],
                &mut bounces,
            );
            bounces.0 > 0
        })
        .count();
    let share = colliding as f64 / sample.len() as f64;
    (map, sample, share)
}

/// The fast turn on the representative mix.
fn bench_mix() {
    let actions = ActionSet::new(League::Gold);
    let (map, turns, colliding) = mix(&actions);
    let max_thrust = f64::from(League::Gold.max_thrust());
    let play = |turn: &MixTurn| {
        let mut pods = black_box(turn.pods);
        let joint = black_box(turn.actions).map(|index| *actions.get(index));
        fast_turn(&mut pods, &map, &joint, max_thrust);
        black_box(pods)
    };
    let per_turn = time_runs(&turns, |turn| {
        play(turn);
    });
    let checksum = turns.iter().fold(0, |sum, turn| {
        let pods = play(turn);
        fold(
            sum,
            pods.iter()
                .map(|p| [p.pos.x, p.pos.y, p.vel.x, p.vel.y, f64::from(p.passes)]),
        )
    });
    report("fast-mix", &per_turn, checksum);
    println!(
        "engine: mode=fast-mix turns={} colliding={:.1}%",
        turns.len(),
        100.0 * colliding
    );
}

/// Without arguments, every benchmark; with `--engine`, only the engine's; with `--eval`, only
/// the leaf evaluation's and the networks' costs; with bot flags, only the search's speed with
/// them.
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let engine_only = args == ["--engine"];
    if args == ["--eval"] {
        eval_cost::bench_evaluation();
        eval_cost::bench_value();
        eval_cost::bench_value_parts();
        policy_cost::bench_policy();
        return;
    }
    if args == ["--profile"] {
        turn_profile::bench_turn_profile();
        return;
    }
    if !args.is_empty() && !engine_only {
        if let Err(message) = search::bench_flags(&args) {
            eprintln!("bench: {message}");
            std::process::exit(2);
        }
        return;
    }
    bench_engine();
    bench_mix();
    eval_cost::bench_evaluation();
    eval_cost::bench_value();
    eval_cost::bench_value_parts();
    policy_cost::bench_policy();
    if !engine_only {
        search::bench_search();
        turn_profile::bench_turn_profile();
    }
}
