//! The genetic-algorithm bot, in the style of the 2016 top bots: a population of plans (a move
//! sequence of a few turns for each own pod), evolved within the turn's time budget by tournament
//! selection, uniform crossover, mutation and elitism, each plan scored by simulating it on the
//! fast engine against an opponent predicted by the reflex policy. Last turn's best plan, shifted
//! by one turn, and the reflex policy's own plan seed the population, so the search starts from
//! something sensible and keeps its thread between turns.

use crate::bot::Bot;
use crate::genome::{GeneParams, Plan, MAX_DEPTH};
use crate::memory::Memory;
use crate::plan_score::{evaluate, terminal, EvalContext, Weights};
use crate::pods::{engine_pod, fallback_angle, fast_pods};
use crate::reflex;
use crate::rng::Rng;
use crate::world::{swap_sides, Course, POD_COUNT};
use csb::engine::{fast_turn, Command, FastPod, Map, PodObservation, Thrust};
use std::time::{Duration, Instant};

/// Every tunable of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GaParams {
    /// Plans kept from one generation to the next (the elite).
    pub population: usize,
    /// New plans bred per generation.
    pub children: usize,
    /// Turns per plan.
    pub depth: usize,
    /// Probability a child is bred by crossover (otherwise a copy of one parent).
    pub crossover_chance: f64,
    /// A child gets 1..=this many mutations.
    pub max_mutations: u32,
    /// Share of the initial population drawn fully at random.
    pub random_share: f64,
    pub budget: Duration,
    pub first_budget: Duration,
    /// Generations per turn instead of the clock.
    pub iterations: Option<u32>,
    pub seed: u64,
    pub weights: Weights,
}

impl Default for GaParams {
    fn default() -> GaParams {
        GaParams {
            population: 10,
            children: 10,
            depth: 6,
            crossover_chance: 0.4,
            max_mutations: 2,
            random_share: 0.2,
            budget: Duration::from_millis(50),
            first_budget: Duration::from_millis(500),
            iterations: None,
            seed: 1,
            weights: Weights::default(),
        }
    }
}

/// Search counters, for `--stats`.
#[derive(Clone, Debug, Default)]
pub struct GaStats {
    /// Generations run in each turn.
    pub generations: Vec<u32>,
    /// Simulated turns (of four pods) in each turn.
    pub simulated_turns: Vec<u64>,
}

impl GaStats {
    /// One line: turns, mean and minimum generations per turn (first turn excluded when possible).
    pub fn summary(&self) -> String {
        let later = if self.generations.len() > 1 {
            &self.generations[1..]
        } else {
            &self.generations[..]
        };
        let sims: u64 = self.simulated_turns.iter().sum();
        if later.is_empty() {
            return "ga: no turn played".to_string();
        }
        let mean = later.iter().map(|&g| u64::from(g)).sum::<u64>() as f64 / later.len() as f64;
        format!(
            "ga: {} turns, generations per turn after the first: mean {:.0}, min {}, max {}; first turn {}; simulated turns {}",
            self.generations.len(),
            mean,
            later.iter().min().copied().unwrap_or(0),
            later.iter().max().copied().unwrap_or(0),
            self.generations[0],
            sims
        )
    }
}

/// Everything a simulation needs, fixed for the turn.
struct Simulation {
    root: [FastPod; POD_COUNT],
    map: Map,
    cap: u16,
    depth: usize,
    context: EvalContext,
}

impl Simulation {
    /// Plays `plan` against the reflex-predicted opponent and scores the result.
    fn score(&self, plan: &Plan) -> f64 {
        let mut pods = self.root;
        let max_thrust = f64::from(self.cap);
        for turn in 0..self.depth {
            let theirs = reflex::fast_actions(&swap_sides(&pods), &self.map, self.cap);
            let actions = [
                plan.moves[0][turn],
                plan.moves[1][turn],
                theirs[0],
                theirs[1],
            ];
            fast_turn(&mut pods, &self.map, &actions, max_thrust);
            if let Some(score) = terminal(&pods, &self.context, turn) {
                return score;
            }
        }
        evaluate(&pods, &self.context, self.depth)
    }

    /// The reflex policy's own moves over the plan's turns, as a seed plan.
    fn reflex_plan(&self, runner: usize) -> Plan {
        let mut plan = Plan::straight(self.cap);
        let mut pods = self.root;
        let max_thrust = f64::from(self.cap);
        for turn in 0..MAX_DEPTH {
            let orders = reflex::decide(&pods, runner, &self.map, self.cap);
            let mine = [orders[0].to_action(&pods[0]), orders[1].to_action(&pods[1])];
            plan.moves[0][turn] = mine[0];
            plan.moves[1][turn] = mine[1];
            let theirs = reflex::fast_actions(&swap_sides(&pods), &self.map, self.cap);
            fast_turn(
                &mut pods,
                &self.map,
                &[mine[0], mine[1], theirs[0], theirs[1]],
                max_thrust,
            );
        }
        plan
    }
}

/// The GA bot.
pub struct GaBot {
    pub params: GaParams,
    course: Course,
    rng: Rng,
    /// Best plan of the previous turn (not yet shifted).
    previous_best: Option<Plan>,
    /// Plans and scores; allocated once.
    pool: Vec<(Plan, f64)>,
    pub stats: GaStats,
}

impl GaBot {
    pub fn new(course: &Course, params: GaParams) -> GaBot {
        let depth = params.depth.clamp(1, MAX_DEPTH);
        let params = GaParams {
            depth,
            population: params.population.max(2),
            children: params.children.max(1),
            ..params
        };
        GaBot {
            course: *course,
            rng: Rng::new(params.seed),
            previous_best: None,
            pool: Vec::with_capacity(params.population + params.children),
            stats: GaStats::default(),
            params,
        }
    }

    fn tournament(&mut self) -> usize {
        let size = self.pool.len() as u32;
        let a = self.rng.below(size) as usize;
        let b = self.rng.below(size) as usize;
        if self.pool[a].1 >= self.pool[b].1 {
            a
        } else {
            b
        }
    }

    fn sort_pool(&mut self) {
        self.pool.sort_unstable_by(|a, b| b.1.total_cmp(&a.1));
    }

    /// Runs the search from `root` and returns the best plan.
    fn search(
        &mut self,
        simulation: &Simulation,
        runner: usize,
        can_boost: [bool; 2],
        deadline: Option<Instant>,
    ) -> Plan {
        let genes = GeneParams::new(self.course.cap());
        let depth = self.params.depth;
        let mut seeds = vec![simulation.reflex_plan(runner)];
        if let Some(best) = self.previous_best {
            seeds.insert(0, best.shifted(self.course.cap(), can_boost));
        }
        self.pool.clear();
        for seed in &seeds {
            self.pool.push((*seed, simulation.score(seed)));
        }
        let mut simulated = seeds.len() as u64;
        while self.pool.len() < self.params.population {
            let plan = if self.rng.chance(self.params.random_share) {
                Plan::random(&mut self.rng, &genes, can_boost)
            } else {
                let mut plan = seeds[self.pool.len() % seeds.len()];
                let mutations = 1 + self.rng.below(4);
                for _ in 0..mutations {
                    plan.mutate(&mut self.rng, &genes, depth, can_boost);
                }
                plan
            };
            let score = simulation.score(&plan);
            self.pool.push((plan, score));
            simulated += 1;
        }
        self.sort_pool();
        let mut generations = 0u32;
        loop {
            match (self.params.iterations, deadline) {
                (Some(limit), _) if generations >= limit => break,
                (None, Some(deadline)) if Instant::now() >= deadline => break,
                (None, None) => break,
                _ => {}
            }
            for _ in 0..self.params.children {
                let first = self.tournament();
                let mut child = self.pool[first].0;
                if self.rng.chance(self.params.crossover_chance) {
                    let second = self.tournament();
                    child = child.crossover(&self.pool[second].0, &mut self.rng);
                }
                let mutations = 1 + self.rng.below(self.params.max_mutations.max(1));
                for _ in 0..mutations {
                    child.mutate(&mut self.rng, &genes, depth, can_boost);
                }
                let score = simulation.score(&child);
                self.pool.push((child, score));
            }
            simulated += self.params.children as u64;
            self.sort_pool();
            self.pool.truncate(self.params.population);
            generations += 1;
        }
        self.stats.generations.push(generations);
        self.stats
            .simulated_turns
            .push(simulated * simulation.depth as u64);
        self.pool[0].0
    }
}

impl Bot for GaBot {
    fn decide(
        &mut self,
        memory: &Memory,
        observations: &[PodObservation; POD_COUNT],
        started: Instant,
    ) -> [Command; 2] {
        let map = self.course.map;
        let root = fast_pods(memory, observations);
        let context = EvalContext {
            map,
            finish_passes: self.course.finish_passes(),
            runner: memory.runner,
            root_own_passes: memory.player_passes(0),
            timeout_left: memory.timeout_left(0),
            weights: self.params.weights,
        };
        let simulation = Simulation {
            root,
            map,
            cap: self.course.cap(),
            depth: self.params.depth,
            context,
        };
        let can_boost = [!memory.pods[0].boost_used, !memory.pods[1].boost_used];
        let budget = if memory.turn <= 1 {
            self.params.first_budget
        } else {
            self.params.budget
        };
        let deadline = started.checked_add(budget);
        let best = self.search(&simulation, memory.runner, can_boost, deadline);
        self.previous_best = Some(best);
        std::array::from_fn(|index| {
            let pod = engine_pod(memory, observations, index);
            let mut action = best.moves[index][0];
            if action.thrust == Thrust::Boost && !can_boost[index] {
                action.thrust = Thrust::Power(self.course.cap());
            }
            action.to_command(&pod, fallback_angle(&map, &observations[index]))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::run;
    use csb::engine::League;

    const FIXTURE: &str = include_str!("../tests/fixtures/input-seed-42.p0.txt");

    fn play_fixture(seed: u64, iterations: u32) -> String {
        let params = GaParams {
            iterations: Some(iterations),
            seed,
            ..GaParams::default()
        };
        let mut output = Vec::new();
        run(FIXTURE.as_bytes(), &mut output, League::Legend, |course| {
            GaBot::new(course, params)
        })
        .unwrap();
        String::from_utf8(output).unwrap()
    }

    #[test]
    fn fixed_iterations_and_seed_give_identical_output() {
        let first = play_fixture(7, 5);
        assert_eq!(first, play_fixture(7, 5));
        assert_ne!(first, play_fixture(8, 5));
        assert_eq!(
            first.lines().count(),
            2 * ((FIXTURE.lines().count() - 6) / 4)
        );
    }

    #[test]
    fn search_never_loses_its_seeds() {
        // With elitism the best score can only grow over generations: more generations never
        // give a worse best plan than the seeds (the reflex plan and the shifted best).
        let course = Course {
            map: Map::from_seed(42),
            laps: 3,
            league: League::Legend,
        };
        let mut memory = Memory::new(course.map);
        let mut input = FIXTURE.lines().skip(6);
        let mut lines = [PodObservation::BLANK; POD_COUNT];
        for turn in 0..40 {
            for line in lines.iter_mut() {
                let values: Vec<i32> = input
                    .next()
                    .unwrap()
                    .split(' ')
                    .map(|v| v.parse().unwrap())
                    .collect();
                *line = PodObservation {
                    x: values[0],
                    y: values[1],
                    vx: values[2],
                    vy: values[3],
                    angle_deg: values[4],
                    next_checkpoint: values[5],
                };
            }
            memory.observe(&lines);
            if turn % 10 != 9 {
                continue;
            }
            let mut scores = Vec::new();
            for iterations in [0, 30] {
                let params = GaParams {
                    iterations: Some(iterations),
                    ..GaParams::default()
                };
                let mut bot = GaBot::new(&course, params);
                bot.decide(&memory, &lines, Instant::now());
                scores.push(bot.pool[0].1);
            }
            assert!(scores[1] >= scores[0], "turn {turn}: {scores:?}");
        }
    }
}
