//! One game from the bot's side: the search set up once at start-up, then per turn the root
//! state from the input and memory, the search within the budget, and the two commands.

use super::memory::Memory;
use crate::bot::actions::ActionSet;
use crate::bot::config::BotConfig;
use crate::bot::evaluation::{progress, Roles};
use crate::bot::game::{network_for, CsbGame, RaceContext};
use crate::bot::search_turn::{chosen_action, elapsed_ms, run_search};
#[cfg(feature = "experiments")]
use crate::engine::rules::CHECKPOINT_TIMEOUT_TURNS;
use crate::engine::rules::POD_COUNT;
use crate::engine::{Command, FastPod, Map, MapError, Pod};
use crate::protocol::{InitInput, TurnInput};
use crate::search::Smitsimax;

/// What the bot decided in a turn, and what it cost.
#[derive(Clone, Copy, Debug)]
pub struct TurnDecision {
    pub commands: [Command; 2],
    pub iterations: u64,
    pub simulated_turns: u64,
    /// Nodes in use in the largest tree (against `--nodes`: a full pool stops growing).
    pub nodes: usize,
    /// Nodes each own pod's tree kept from the previous turn (`--reuse-tree 1`; 0: fresh).
    #[cfg(feature = "experiments")]
    pub kept_nodes: [usize; 2],
    pub elapsed_ms: f64,
    /// Our runner tree's mean score of the action it chose (`value=` of the diagnostic line).
    pub value: Option<f64>,
}

pub struct Player {
    config: BotConfig,
    context: &'static RaceContext,
    memory: Memory,
    search: Smitsimax<CsbGame>,
    /// What the last turn's trees assumed, for `--reuse-tree`.
    #[cfg(feature = "experiments")]
    last_turn: Option<SearchedTurn>,
}

/// What a turn's search was about, beyond the pods' states: the roles its evaluation scored, the
/// root action each own pod played and each pod's passes at the root. The next turn keeps an own
/// pod's subtree only if its scores still mean the same ([`SearchedTurn::keeps_tree`]). The
/// opponents' trees always start fresh: their moves are not known, only their new positions.
#[cfg(feature = "experiments")]
#[derive(Clone, Copy, Debug, PartialEq)]
struct SearchedTurn {
    roles: [Roles; 2],
    played: [u8; 2],
    passes: [u16; POD_COUNT],
}

#[cfg(feature = "experiments")]
impl SearchedTurn {
    /// Whether own pod `pod` may keep its tree from this turn into the next one, whose roles and
    /// passes are given: under other roles the evaluation is another; and each pod's score is
    /// squashed around its value at the root, so a pass that value counts (the pod's own when it
    /// races, the opposing runner's when it blocks) moves that centre by a checkpoint's worth
    /// between the turns. The squash is not shift-invariant: the kept scores, taken around the old
    /// centre, sit in its flat tail (a blocker's root means of 0.12 kept next to fresh ones of
    /// 0.47, on the cg-demo input), and the first action to get fresh visits takes all the rest.
    fn keeps_tree(&self, roles: &[Roles; 2], passes: &[u16; POD_COUNT], pod: usize) -> bool {
        let player = pod / 2;
        let counted = if roles[player].races(pod) {
            pod
        } else {
            roles[1 - player].runner
        };
        self.roles == *roles && self.passes[counted] == passes[counted]
    }
}

impl Player {
    /// Allocates everything the game will need (node pools included).
    pub fn new(config: BotConfig, init: &InitInput) -> Result<Player, MapError> {
        let map = Map::new(&init.checkpoints)?;
        // One context per process, alive for the whole game: search states refer to it.
        let context: &'static RaceContext = Box::leak(Box::new(RaceContext {
            map,
            actions: ActionSet::new(config.league),
            max_thrust: f64::from(config.league.max_thrust()),
            passes_to_finish: init.laps * map.checkpoint_count() as u16,
            weights: config.eval,
            shield_near: config.shield_near,
            greedy: config.greedy,
            network: network_for(&config.eval),
        }));
        let search = Smitsimax::new(config.nodes_per_agent, config.search, config.seed);
        Ok(Player {
            memory: Memory::new(map.checkpoint_count()),
            config,
            context,
            search,
            #[cfg(feature = "experiments")]
            last_turn: None,
        })
    }

    /// The direction a pod with an unset angle will face: its next checkpoint (the first move
    /// faces its target exactly, so the steering actions fan out from there).
    fn fallback_angle(&self, pod: &Pod) -> f64 {
        let map = &self.context.map;
        let next = map.checkpoint(pod.next_checkpoint(map.checkpoint_count()));
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

    /// Own pod `index`'s (0 or 1) root statistics from the last turn's search: `(action, visits,
    /// mean score)` per root action, in action order; empty before the first search. Read-only:
    /// self-play records them as training targets.
    pub fn root_stats(&self, index: usize) -> impl Iterator<Item = (u8, u32, f64)> + '_ {
        self.search.root_stats(index)
    }

    /// One line per own pod: each root action's visits and mean score, the chosen one marked.
    #[cfg(feature = "experiments")]
    pub fn root_summary(&self) -> String {
        let mut text = String::new();
        for index in 0..2 {
            let chosen = chosen_action(&self.search, index);
            text.push_str(&format!("pod {index}:"));
            for (action, visits, mean) in self.search.root_stats(index) {
                let mark = if action == chosen { "*" } else { "" };
                text.push_str(&format!(" {mark}{action}:{visits}/{mean:.4}"));
            }
            text.push('\n');
        }
        text
    }

    pub fn play_turn(&mut self, input: &TurnInput) -> TurnDecision {
        let first_turn = self.memory.turn == 0;
        self.memory
            .observe(&input.pods, self.config.league.max_thrust());
        let map = &self.context.map;
        let mut pods = [Pod::spawn(map.checkpoint(0)); POD_COUNT];
        let mut fast = [FastPod::from_pod(&pods[0], map.checkpoint_count(), 0.0); POD_COUNT];
        let mut fallback = [0.0; POD_COUNT];
        for index in 0..POD_COUNT {
            pods[index] = self.memory.pod(&input.pods, index);
            fallback[index] = self.fallback_angle(&pods[index]);
            fast[index] = FastPod::from_pod(&pods[index], map.checkpoint_count(), fallback[index]);
        }
        let guard = self.config.timeout_guard;
        let roles = |first: usize| {
            let (runner, blocker) = if progress(&fast[first + 1], map) > progress(&fast[first], map)
            {
                (first + 1, first)
            } else {
                (first, first + 1)
            };
            Roles {
                runner,
                blocker,
                // Our blocker races for its own checkpoint once our pods have gone `guard`
                // turns without a pass.
                blocker_races: first == 0
                    && guard > 0
                    && self.memory.turns_without_pass[0] >= guard,
            }
        };
        let team_roles = [roles(0), roles(2)];
        let root = CsbGame::root(self.context, fast, team_roles);
        #[cfg(feature = "experiments")]
        let root = match self.config.timeout_aware {
            true => root.with_timeout(
                self.memory
                    .turns_without_pass
                    .map(|turns| u32::from(CHECKPOINT_TIMEOUT_TURNS).saturating_sub(turns)),
            ),
            false => root,
        };
        #[cfg(feature = "experiments")]
        let passes = fast.map(|pod| pod.passes);
        #[cfg(feature = "experiments")]
        let mut played = crate::search::KEEP_NOTHING;
        #[cfg(feature = "experiments")]
        if let Some(last) = self.last_turn.filter(|_| self.config.reuse_tree) {
            for (pod, kept) in played.iter_mut().take(2).enumerate() {
                if last.keeps_tree(&team_roles, &passes, pod) {
                    *kept = Some(last.played[pod]);
                }
            }
        }
        let stats = run_search(
            &mut self.search,
            &root,
            #[cfg(feature = "experiments")]
            played,
            &self.config,
            first_turn,
            input.received_at,
        );
        let chosen = [
            chosen_action(&self.search, 0),
            chosen_action(&self.search, 1),
        ];
        #[cfg(feature = "experiments")]
        {
            self.last_turn = Some(SearchedTurn {
                roles: team_roles,
                played: chosen,
                passes,
            });
        }
        let mut commands = [Command::new(0, 0, crate::engine::Thrust::Power(0)); 2];
        for (index, command) in commands.iter_mut().enumerate() {
            // The search played an out-of-reach SHIELD as action 0; so does the bot.
            let action = self
                .context
                .actions
                .get(root.effective_action(index, chosen[index]));
            *command = action.to_command(&pods[index], fallback[index]);
            self.memory.record_own_command(index, command.thrust);
        }
        TurnDecision {
            commands,
            iterations: stats.iterations,
            simulated_turns: stats.simulated_plies,
            nodes: stats.nodes_used.iter().copied().max().unwrap_or(0),
            #[cfg(feature = "experiments")]
            kept_nodes: [stats.nodes_kept[0], stats.nodes_kept[1]],
            elapsed_ms: elapsed_ms(input.received_at),
            value: self
                .search
                .root_stats(team_roles[0].runner)
                .nth(usize::from(chosen[team_roles[0].runner]))
                .filter(|&(_, visits, _)| visits > 0)
                .map(|(_, _, mean)| mean),
        }
    }
}

#[cfg(all(test, feature = "experiments"))]
mod tests {
    use super::*;

    /// Pod 0 runs and pod 1 blocks for us, pod 2 runs and pod 3 blocks for them.
    fn roles(blocker_races: bool) -> [Roles; 2] {
        [
            Roles {
                runner: 0,
                blocker: 1,
                blocker_races,
            },
            Roles {
                runner: 2,
                blocker: 3,
                blocker_races: false,
            },
        ]
    }

    fn last_turn() -> SearchedTurn {
        SearchedTurn {
            roles: roles(false),
            played: [3, 4],
            passes: [5, 4, 6, 2],
        }
    }

    #[test]
    fn trees_are_kept_while_nothing_their_scores_count_has_passed() {
        let last = last_turn();
        let same = last.passes;
        assert!(last.keeps_tree(&roles(false), &same, 0));
        assert!(last.keeps_tree(&roles(false), &same, 1));
        // Passes the two scores do not count: our blocker's own, their blocker's.
        assert!(last.keeps_tree(&roles(false), &[5, 5, 6, 3], 0));
        assert!(last.keeps_tree(&roles(false), &[5, 5, 6, 3], 1));
    }

    #[test]
    fn a_counted_pass_or_other_roles_drop_the_tree() {
        let last = last_turn();
        // Our runner passed: its own score's centre moved; the blocker's did not.
        assert!(!last.keeps_tree(&roles(false), &[6, 4, 6, 2], 0));
        assert!(last.keeps_tree(&roles(false), &[6, 4, 6, 2], 1));
        // Their runner passed: our blocker's centre moved; our runner's did not.
        assert!(last.keeps_tree(&roles(false), &[5, 4, 7, 2], 0));
        assert!(!last.keeps_tree(&roles(false), &[5, 4, 7, 2], 1));
        // Our blocker races now: another evaluation for both.
        assert!(!last.keeps_tree(&roles(true), &last.passes, 0));
        assert!(!last.keeps_tree(&roles(true), &last.passes, 1));
    }

    #[test]
    fn a_racing_blocker_counts_its_own_passes() {
        let last = SearchedTurn {
            roles: roles(true),
            ..last_turn()
        };
        assert!(!last.keeps_tree(&roles(true), &[5, 5, 6, 2], 1));
        assert!(last.keeps_tree(&roles(true), &[5, 4, 7, 2], 1));
    }
}
