//! Where a turn's time goes (`--profile`, and in the default run): the share of the engine's
//! steps, the leaf evaluations, the policy's priors, the default policy of the plies without
//! statistics, and the rest (selection, expansion, backpropagation, copying the root), for the
//! default bot and for `--eval hand`, on every [`EVERY`]th turn of a recorded game at the real
//! control's iterations a turn (about 28,000 for the default, 38,800 for the hand bot, row R12).
//!
//! How: the bot's own search types run on a game wrapped in [`Probed`], which times each call of
//! the [`Game`] methods with the processor's time-stamp counter. The bot is untouched (the
//! wrapper lives here); the wrapper's calls do what the bot's do, in the same order, so the
//! search decides the same (checked: on the first turn, a probed search and the bot's at equal
//! iterations build trees of the same size and play the same moves). The counter's own cost,
//! measured on empty intervals, is taken off each timed call; the rest is the same search run
//! again unprobed, minus the timed phases. Times are wall-clock cycles of the one thread: a
//! preemption lands in a phase in proportion to its length, so shares stay fair under load, but
//! run on a quiet machine for steady figures.

use csb::bot::actions::ActionSet;
use csb::bot::config::{BotConfig, Evaluation};
use csb::bot::csb_game::{CsbGame, RaceContext};
use csb::bot::leaf_evaluation::{HandEvaluation, LeafEvaluation, NetworkBlend};
use csb::bot::policy_net::{embedded, guided::Guided};
use csb::bot::two_pod::player::{Player, SearchRoot};
use csb::engine::Map;
use csb::protocol::{InitInput, TurnInput};
use csb::search::puct::Puct;
use csb::search::{Game, Rng, Selection, Smitsimax, Ucb1, MAX_AGENTS};
use std::cell::Cell;

/// Profiled turns: every this many of the recorded game.
const EVERY: usize = 10;
/// The real control's iterations a turn (row R12, docs/strength.md).
const DEFAULT_ITERATIONS: u64 = 28_000;
const HAND_ITERATIONS: u64 = 38_800;
/// Iterations of the bot's turns between the profiled ones (they only move its memory on).
const WARM_UP_ITERATIONS: u64 = 64;

/// The timed phases.
const PHASES: [&str; 4] = [
    "engine steps",
    "leaf evaluations",
    "policy priors",
    "default policy",
];
const STEP: usize = 0;
const LEAF: usize = 1;
const PRIORS: usize = 2;
const DEFAULT_POLICY: usize = 3;

/// A cycle count: the time-stamp counter where there is one, else nanoseconds.
#[inline(always)]
fn now() -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: every x86-64 processor has the time-stamp counter.
    unsafe {
        std::arch::x86_64::_rdtsc()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        use std::sync::OnceLock;
        static START: OnceLock<std::time::Instant> = OnceLock::new();
        START
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_nanos() as u64
    }
}

/// A game whose [`Game`] calls are timed into its context's [`Probe`].
#[derive(Clone, Copy)]
struct Probed<G>(G);

/// The wrapped game's context and each phase's cycles and calls.
struct Probe<C> {
    inner: C,
    cycles: [Cell<u64>; PHASES.len()],
    calls: [Cell<u64>; PHASES.len()],
}

impl<C> Probe<C> {
    fn new(inner: C) -> Probe<C> {
        Probe {
            inner,
            cycles: Default::default(),
            calls: Default::default(),
        }
    }

    #[inline(always)]
    fn time<T>(&self, phase: usize, work: impl FnOnce() -> T) -> T {
        let start = now();
        let result = work();
        let cycles = now() - start;
        self.cycles[phase].set(self.cycles[phase].get() + cycles);
        self.calls[phase].set(self.calls[phase].get() + 1);
        result
    }
}

impl<G: Game> Game for Probed<G> {
    type Context = Probe<G::Context>;

    #[inline(always)]
    fn agent_count(&self) -> usize {
        self.0.agent_count()
    }

    #[inline(always)]
    fn action_count(&self, agent: usize) -> usize {
        self.0.action_count(agent)
    }

    #[inline(always)]
    fn step(&mut self, context: &Probe<G::Context>, actions: &[u8; MAX_AGENTS]) {
        context.time(STEP, || self.0.step(&context.inner, actions));
    }

    #[inline(always)]
    fn is_terminal(&self, context: &Probe<G::Context>) -> bool {
        self.0.is_terminal(&context.inner)
    }

    #[inline(always)]
    fn evaluate(&self, context: &Probe<G::Context>, scores: &mut [f64; MAX_AGENTS]) {
        context.time(LEAF, || self.0.evaluate(&context.inner, scores));
    }

    #[inline(always)]
    fn action_priors(&self, context: &Probe<G::Context>, agent: usize, priors: &mut [f32]) {
        context.time(PRIORS, || {
            self.0.action_priors(&context.inner, agent, priors)
        });
    }

    #[inline(always)]
    fn default_action(&self, context: &Probe<G::Context>, agent: usize, rng: &mut Rng) -> u8 {
        context.time(DEFAULT_POLICY, || {
            self.0.default_action(&context.inner, agent, rng)
        })
    }
}

/// The race's context as the bot sets it up (`two_pod/team_search.rs`) with `evaluation`.
fn race_context<E>(config: &BotConfig, map: Map, passes: u16, evaluation: E) -> RaceContext<E> {
    RaceContext {
        map,
        actions: ActionSet::new(config.league),
        max_thrust: f64::from(config.league.max_thrust()),
        passes_to_finish: passes,
        shield_near: config.shield_near,
        greedy: config.greedy,
        evaluation,
    }
}

/// One bot's profile, summed over the profiled turns: cycles per timed phase and of the probed
/// searches (both less the counter's cost), calls per phase, the unprobed searches' on-CPU
/// nanoseconds, and iterations.
#[derive(Default)]
struct Profile {
    phases: [u64; PHASES.len()],
    calls: [u64; PHASES.len()],
    probed: u64,
    unprobed_ns: u64,
    iterations: u64,
}

/// The cycles of an empty timed interval: the least of many batches' means, so that a
/// preemption does not count.
fn timer_cost() -> u64 {
    let rounds = 1_000;
    (0..200)
        .map(|_| {
            let probe = Probe::new(());
            for _ in 0..rounds {
                probe.time(0, || std::hint::black_box(()));
            }
            probe.cycles[0].get() / rounds
        })
        .min()
        .unwrap_or(0)
}

/// The profile of a search of `iterations` a turn with `evaluation` and the selection `S`, on
/// every [`EVERY`]th turn of the game; also, on the first turn, whether the probed search
/// played what the bot plays with `config` at 2,000 iterations.
fn profile<E: LeafEvaluation, S: Selection>(
    config: &BotConfig,
    init: &InitInput,
    turns: &[TurnInput],
    iterations: u64,
    evaluation: impl Fn(&Map) -> E,
) -> (Profile, bool) {
    let map = Map::new(&init.checkpoints).expect("the recorded map");
    let passes = init.laps * map.checkpoint_count() as u16;
    let context = race_context(config, map, passes, evaluation(&map));
    let probe = Probe::new(race_context(config, map, passes, evaluation(&map)));
    let (nodes, params, seed) = (config.nodes_per_agent, config.search_played(), config.seed);
    let mut plain: Smitsimax<CsbGame<E>, S> = Smitsimax::with_selection(nodes, params, seed);
    let mut probed: Smitsimax<Probed<CsbGame<E>>, S> =
        Smitsimax::with_selection(nodes, params, seed);
    let player = |iterations: u64| {
        let config = BotConfig {
            iterations: Some(iterations),
            ..config.clone()
        };
        Player::new(config, init).expect("the recorded map")
    };

    // The check: the bot's first turn at 2,000 iterations against the probed search's.
    let check_iterations = 2_000;
    let mut bot = player(check_iterations);
    let root = bot.search_root(&turns[0]);
    let game = |root: &SearchRoot| CsbGame::root(&context, root.fast, root.clocks, root.roles);
    let stats = probed.run_iterations(&probe, &Probed(game(&root)), check_iterations);
    let moves = [0, 1].map(|pod| probed.best_action(pod));
    let played = bot.play_root(root, true, turns[0].received_at);
    let same = stats.simulated_plies == played.simulated_turns
        && stats.nodes_used.iter().max() == Some(&played.nodes)
        && (0..2).all(|pod| bot.root_stats(pod).count() == 10)
        && moves
            .iter()
            .zip(0..2)
            .all(|(&action, pod)| most_visited(&bot, pod) == action);
    let probe = Probe::new(probe.inner);

    let mut bot = player(WARM_UP_ITERATIONS);
    let mut profile = Profile::default();
    for (turn, input) in turns.iter().enumerate() {
        let root = bot.search_root(input);
        if turn % EVERY == 0 {
            let game = game(&root);
            profile.unprobed_ns += super::measure(|| {
                std::hint::black_box(plain.run_iterations(&context, &game, iterations));
            });
            let start = now();
            probed.run_iterations(&probe, &Probed(game), iterations);
            profile.probed += now() - start;
            profile.iterations += iterations;
        }
        bot.play_root(root, turn == 0, input.received_at);
    }
    let cost = timer_cost();
    for phase in 0..PHASES.len() {
        profile.calls[phase] = probe.calls[phase].get();
        let overhead = cost * profile.calls[phase];
        profile.phases[phase] = probe.cycles[phase].get().saturating_sub(overhead);
        // Each call pays the counter once inside its interval and about once outside.
        profile.probed = profile.probed.saturating_sub(2 * overhead);
    }
    (profile, same)
}

/// The action of own pod `pod`'s most visited root child in the bot's last search (the first
/// of equals: the search's own choice breaks ties by the mean, which a check at 2,000
/// iterations does not meet in practice).
fn most_visited(bot: &Player, pod: usize) -> u8 {
    let mut best = (0, 0, f64::NEG_INFINITY);
    for (action, visits, mean) in bot.root_stats(pod) {
        if visits > best.1 || (visits == best.1 && mean > best.2) {
            best = (action, visits, mean);
        }
    }
    best.0
}

fn print(name: &str, profile: &Profile, same: bool) {
    let total = profile.probed as f64;
    let timed: u64 = profile.phases.iter().sum();
    println!(
        "profile: bot={name} iterations={} ns_per_iteration={:.0} (on-CPU, unprobed) \
         checked_against_the_bot={}",
        profile.iterations,
        profile.unprobed_ns as f64 / profile.iterations as f64,
        if same { "same" } else { "DIFFERENT" }
    );
    for (phase, label) in PHASES.iter().enumerate() {
        println!(
            "profile: bot={name} phase=\"{label}\" share={:.1}% calls_per_iteration={:.2} \
             cycles_per_call={:.0}",
            100.0 * profile.phases[phase] as f64 / total,
            profile.calls[phase] as f64 / profile.iterations as f64,
            profile.phases[phase] as f64 / profile.calls[phase].max(1) as f64,
        );
    }
    println!(
        "profile: bot={name} phase=\"selection, expansion, backpropagation, the rest\" \
         share={:.1}%",
        100.0 * (total - timed as f64).max(0.0) / total
    );
}

/// Both bots' profiles, printed.
pub fn bench_turn_profile() {
    let (init, turns) = super::search::recorded_game();
    let config = BotConfig::default();
    let (default, same) = profile::<_, Puct>(&config, &init, &turns, DEFAULT_ITERATIONS, |map| {
        Guided::new(
            NetworkBlend::embedded(config.eval, map),
            embedded::embedded(),
            map,
            false,
        )
    });
    print("default", &default, same);
    let hand_config = BotConfig {
        evaluation: Evaluation::Hand,
        ..config.clone()
    };
    let (hand, same) = profile::<_, Ucb1>(&hand_config, &init, &turns, HAND_ITERATIONS, |_| {
        HandEvaluation {
            weights: config.eval,
        }
    });
    print("hand", &hand, same);
    let per_iteration = |profile: &Profile| profile.unprobed_ns as f64 / profile.iterations as f64;
    println!(
        "profile: default_iterations_per_hand_iteration={:.3} (on-CPU time per iteration, \
         unprobed)",
        per_iteration(&hand) / per_iteration(&default)
    );
}
