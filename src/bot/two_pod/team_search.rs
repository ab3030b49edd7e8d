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
    /// Each pod's prior at the last turn's root, `None` where the evaluation knows none; kept
    /// for `--verbose 1` only.
    #[cfg(feature = "cli")]
    root_priors: [Option<[f32; crate::bot::actions::ACTION_COUNT]>; POD_COUNT],
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
            search: Smitsimax::with_selection(
                config.nodes_per_agent,
                config.search_played(),
                config.seed,
            ),
            #[cfg(feature = "cli")]
            root_priors: [None; POD_COUNT],
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
        #[cfg(feature = "cli")]
        if config.verbose {
            self.keep_root_priors(&root);
        }
        let chosen = [0, 1].map(|index| chosen_action(&self.search, index));
        let played = [0, 1].map(|index| root.effective_action(&self.context, index, chosen[index]));
        (stats, chosen, played)
    }

    /// Keeps each pod's prior at `root`: what the search's expansion of the root read from the
    /// evaluation (`CsbGame::action_priors`), asked again.
    #[cfg(feature = "cli")]
    fn keep_root_priors(&mut self, root: &CsbGame<E>) {
        let context = &self.context;
        self.root_priors = std::array::from_fn(|pod| {
            let mut priors = [0.0; crate::bot::actions::ACTION_COUNT];
            let at = context.at(&root.pods, root.clocks);
            (context.evaluation.priors(at, pod, &mut priors)).then_some(priors)
        });
    }

    /// Pod `index`'s prior at the last root (`--verbose 1` only), `None` without one.
    #[cfg(feature = "cli")]
    pub fn root_priors(&self, index: usize) -> Option<[f32; crate::bot::actions::ACTION_COUNT]> {
        self.root_priors[index]
    }

    /// Pod `index`'s root children (0 and 1 our own, 2 and 3 the opponent's as we model them);
    /// empty before the first search.
    pub fn root_children(&self, index: usize) -> &[Node] {
        let tree = self.search.tree(index);
        if tree.node(NodeId::ROOT).is_expanded() {
            tree.children(NodeId::ROOT)
        } else {
            &[]
        }
    }
}
