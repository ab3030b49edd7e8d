//! One game from the bot's side: the search set up once at start-up with the evaluation the
//! settings ask for, then per turn the root state from the input and memory, the search within
//! the budget, and the two commands.

// Nested paths: the Gold bundle pays for every `use` line.
use super::{memory::Memory, team_search::TeamSearch};
use crate::bot::{
    actions::ActionSet, config::BotConfig, evaluation::Roles, leaf_evaluation::HandEvaluation,
    search_turn::elapsed_ms, timeout_clocks::TimeoutClocks,
};
use crate::engine::{rules::POD_COUNT, Command, FastPod, Map, MapError, Pod};
use crate::protocol::{InitInput, TurnInput};
use crate::search::Node;
use std::time::Instant;

/// What the bot decided in a turn, and what it cost.
#[derive(Clone, Copy, Debug)]
pub struct TurnDecision {
    pub commands: [Command; 2],
    pub iterations: u64,
    pub simulated_turns: u64,
    /// Nodes in use in the largest tree (against `--nodes`: a full pool stops growing).
    pub nodes: usize,
    pub elapsed_ms: f64,
    /// Our runner tree's mean score of the action it chose (`value=` of the diagnostic line).
    pub value: Option<f64>,
}

/// What a turn's search starts from ([`Player::search_root`]).
#[derive(Clone, Copy, Debug)]
pub struct SearchRoot {
    pub pods: [Pod; POD_COUNT],
    pub fallback: [f64; POD_COUNT],
    pub fast: [FastPod; POD_COUNT],
    pub roles: [Roles; 2],
    pub clocks: TimeoutClocks,
}

/// The search chosen at start-up: the hand evaluation's, or one of the networks'.
enum Searches {
    Hand(Box<TeamSearch<HandEvaluation>>),
    #[cfg(feature = "net")]
    Net(super::network_searches::NetworkSearches),
}

pub struct Player {
    config: BotConfig,
    map: Map,
    actions: ActionSet,
    memory: Memory,
    searches: Searches,
    /// Each own pod's action the last search chose (before SHIELD out of reach became 0).
    chosen: [u8; 2],
}

impl Player {
    /// Allocates everything the game will need (node pools, the network).
    pub fn new(config: BotConfig, init: &InitInput) -> Result<Player, MapError> {
        let map = Map::new(&init.checkpoints)?;
        let passes_to_finish = init.laps * map.checkpoint_count() as u16;
        #[cfg(feature = "net")]
        if let Some(search) =
            super::network_searches::NetworkSearches::of(&config, map, passes_to_finish)
        {
            return Ok(Player::with(config, map, Searches::Net(search)));
        }
        // Without the network's code, `--eval net` is refused by the flag already.
        let hand = HandEvaluation {
            weights: config.eval,
        };
        let search = TeamSearch::new(&config, map, passes_to_finish, hand);
        Ok(Player::with(config, map, Searches::Hand(Box::new(search))))
    }

    /// The player of `config` on `map` with its search.
    fn with(config: BotConfig, map: Map, searches: Searches) -> Player {
        Player {
            memory: Memory::new(map.checkpoint_count()),
            actions: ActionSet::new(config.league),
            config,
            map,
            searches,
            chosen: [0; 2],
        }
    }

    /// The direction a pod with an unset angle will face: its next checkpoint (the first move
    /// faces its target exactly, so the steering actions fan out from there).
    fn fallback_angle(&self, pod: &Pod) -> f64 {
        let next = self
            .map
            .checkpoint(pod.next_checkpoint(self.map.checkpoint_count()));
        (next.y - pod.pos.y).atan2(next.x - pod.pos.x)
    }

    /// The settings read each turn (budget, iterations); search settings were fixed at start-up.
    pub fn config_mut(&mut self) -> &mut BotConfig {
        &mut self.config
    }

    /// What the bot remembers of the race so far (e.g. to start it in the middle of a game).
    pub fn memory_mut(&mut self) -> &mut Memory {
        &mut self.memory
    }

    /// Pod `index`'s root children from the last turn's search (0 and 1 our own, 2 and 3 the
    /// opponent's as we model them).
    fn root_children(&self, index: usize) -> &[Node] {
        // Written out, not by a macro: the bundler resolves `cfg` attributes outside macros only.
        match &self.searches {
            Searches::Hand(search) => search.root_children(index),
            #[cfg(feature = "net")]
            Searches::Net(search) => search.root_children(index),
        }
    }

    /// Own pod `index`'s (0 or 1) root statistics from the last turn's search: `(action, visits,
    /// mean score)` per root action, in action order; empty before the first search. Read-only:
    /// self-play records them as training targets.
    pub fn root_stats(&self, index: usize) -> impl Iterator<Item = (u8, u32, f64)> + '_ {
        self.root_children(index)
            .iter()
            .enumerate()
            .map(|(action, child)| (action as u8, child.visits, child.mean()))
    }

    /// Pod `index`'s prior at the last turn's root, `None` where the evaluation gives none.
    #[cfg(feature = "cli")]
    fn root_priors(&self, index: usize) -> Option<[f32; crate::bot::actions::ACTION_COUNT]> {
        match &self.searches {
            Searches::Hand(search) => search.root_priors(index),
            #[cfg(feature = "net")]
            Searches::Net(search) => search.root_priors(index),
        }
    }

    /// One candidate line per tree (`candidates.rs`; `--verbose 1`): our pods' with the action
    /// the search chose starred, the opponent's with the one it expects (the most visited, ties
    /// to the higher mean, then the lower action, as our own pods' best action).
    #[cfg(feature = "cli")]
    pub fn root_summary(&self) -> String {
        use crate::bot::candidates::{Candidate, CandidateLine};
        let mut text = String::new();
        for pod in 0..POD_COUNT {
            let children = self.root_children(pod);
            let priors = self.root_priors(pod);
            let candidates: Vec<Candidate> = children
                .iter()
                .enumerate()
                .map(|(action, child)| Candidate {
                    visits: child.visits,
                    mean: child.mean(),
                    prior: priors.map(|priors| f64::from(priors[action])),
                })
                .collect();
            let starred = match pod {
                0 | 1 => self.chosen[pod],
                _ => (0..candidates.len())
                    .reduce(|best, action| {
                        let (a, b) = (&candidates[action], &candidates[best]);
                        if a.visits > b.visits || (a.visits == b.visits && a.mean > b.mean) {
                            action
                        } else {
                            best
                        }
                    })
                    .unwrap_or(0) as u8,
            };
            let line = CandidateLine {
                pod: pod as u8,
                starred,
                candidates,
            };
            text.push_str(&line.write());
            text.push('\n');
        }
        text
    }

    /// Each player's checkpoint clock (own first) as the memory counts it from the input: what
    /// the search starts from.
    pub fn timeout_clocks(&self) -> TimeoutClocks {
        TimeoutClocks::from_turns_without_pass(self.memory.turns_without_pass)
    }

    /// The turn's root as the search starts from it (the memory has observed `input`): the
    /// pods as read and as the fast engine takes them, their fallback angles, the roles and
    /// the clocks.
    pub fn search_root(&mut self, input: &TurnInput) -> SearchRoot {
        self.memory
            .observe(&input.pods, self.config.league.max_thrust());
        let map = &self.map;
        let mut pods = [Pod::spawn(map.checkpoint(0)); POD_COUNT];
        let mut fast = [FastPod::from_pod(&pods[0], map.checkpoint_count(), 0.0); POD_COUNT];
        let mut fallback = [0.0; POD_COUNT];
        for index in 0..POD_COUNT {
            pods[index] = self.memory.pod(&input.pods, index);
            fallback[index] = self.fallback_angle(&pods[index]);
            fast[index] = FastPod::from_pod(&pods[index], map.checkpoint_count(), fallback[index]);
        }
        // Our blocker races for its own checkpoint once our pods have gone `timeout_guard`
        // turns without a pass.
        let guard = self.config.timeout_guard;
        let guarding = guard > 0 && self.memory.turns_without_pass[0] >= guard;
        SearchRoot {
            pods,
            fallback,
            fast,
            roles: [
                Roles::of_player(&fast, map, 0, guarding),
                Roles::of_player(&fast, map, 2, false),
            ],
            clocks: self.timeout_clocks(),
        }
    }

    pub fn play_turn(&mut self, input: &TurnInput) -> TurnDecision {
        let first_turn = self.memory.turn == 0;
        let root = self.search_root(input);
        self.play_root(root, first_turn, input.received_at)
    }

    /// The turn played from `root` ([`Player::search_root`] of the turn's input, received at
    /// `received_at`).
    pub fn play_root(
        &mut self,
        root: SearchRoot,
        first_turn: bool,
        received_at: Instant,
    ) -> TurnDecision {
        let SearchRoot {
            pods,
            fallback,
            fast,
            roles,
            clocks,
        } = root;
        let config = &self.config;
        let (stats, chosen, played) = match &mut self.searches {
            Searches::Hand(search) => {
                search.decide(fast, clocks, roles, config, first_turn, received_at)
            }
            #[cfg(feature = "net")]
            Searches::Net(search) => {
                search.decide(fast, clocks, roles, config, first_turn, received_at)
            }
        };
        self.chosen = chosen;
        let mut commands = [Command::new(0, 0, crate::engine::Thrust::Power(0)); 2];
        for (index, command) in commands.iter_mut().enumerate() {
            let action = self.actions.get(played[index]);
            *command = action.to_command(&pods[index], fallback[index]);
            self.memory.record_own_command(index, command.thrust);
        }
        TurnDecision {
            commands,
            iterations: stats.iterations,
            simulated_turns: stats.simulated_plies,
            nodes: stats.nodes_used.iter().copied().max().unwrap_or(0),
            elapsed_ms: elapsed_ms(received_at),
            value: self
                .root_stats(roles[0].runner)
                .nth(usize::from(chosen[roles[0].runner]))
                .filter(|&(_, visits, _)| visits > 0)
                .map(|(_, _, mean)| mean),
        }
    }
}
