//! One team's search for one leaf evaluation and one selection policy: the game's context (the
//! map, the actions, the evaluation) and the Smitsimax trees, set up once a game; each turn the
//! root from the pods, the search within the budget, and each own pod's chosen action.

// Nested paths: the Gold bundle pays for every `use` line.
use crate::bot::{
    actions::ActionSet,
    config::BotConfig,
    csb_game::{CsbGame, RaceContext},
    evaluation::Roles,
    leaf_evaluation::LeafEvaluation,
    search_turn::{chosen_action, run_search},
    timeout_clocks::TimeoutClocks,
};
use crate::engine::{rules::POD_COUNT, FastPod, Map};
use crate::search::{Node, NodeId, SearchStats, Selection, Smitsimax, Ucb1};
use std::time::Instant;

/// The game's context and its search, for one leaf evaluation and one selection policy: the
/// player owns both.
pub struct TeamSearch<E: LeafEvaluation, S: Selection = Ucb1> {
    context: RaceContext<E>,
    search: Smitsimax<CsbGame<E>, S>,
}

impl<E: LeafEvaluation, S: Selection> TeamSearch<E, S> {
    /// The context of a race on `map` with `evaluation`, and a search allocated for it.
    pub fn new(config: &BotConfig, map: Map, passes_to_finish: u16, evaluation: E) -> Self {
        TeamSearch {
            context: RaceContext {
                map,
                actions: ActionSet::new(config.league),
                max_thrust: f64::from(config.league.max_thrust()),
                passes_to_finish,
                shield_near: config.shield_near,
                greedy: config.greedy,
                evaluation,
            },
            search: Smitsimax::with_selection(config.nodes_per_agent, config.search, config.seed),
        }
    }

    /// Searches from `pods` with the checkpoint clocks `clocks` and `roles`; the stats, each own
    /// pod's chosen action and that action as it is played (an out-of-reach SHIELD as action 0,
    /// as the search played it).
    pub fn decide(
        &mut self,
        pods: [FastPod; POD_COUNT],
        clocks: TimeoutClocks,
        roles: [Roles; 2],
        config: &BotConfig,
        first_turn: bool,
        received_at: Instant,
    ) -> (SearchStats, [u8; 2], [u8; 2]) {
        let root = CsbGame::root(&self.context, pods, clocks, roles);
        let stats = run_search(
            &mut self.search,
            &self.context,
            &root,
            config,
            first_turn,
            received_at,
        );
        let chosen = [0, 1].map(|index| chosen_action(&self.search, index));
        let played = [0, 1].map(|index| root.effective_action(&self.context, index, chosen[index]));
        (stats, chosen, played)
    }

    /// Own pod `index`'s root children; empty before the first search.
    pub fn root_children(&self, index: usize) -> &[Node] {
        let tree = self.search.tree(index);
        if tree.node(NodeId::ROOT).is_expanded() {
            tree.children(NodeId::ROOT)
        } else {
            &[]
        }
    }
}
