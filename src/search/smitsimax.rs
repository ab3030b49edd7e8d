//! The search itself: Smitsimax (MSmits' decoupled UCT for simultaneous moves). One tree per
//! agent; each iteration descends all trees jointly from a copy of the root, plays the joint
//! move, evaluates once at the end, and lets each agent backpropagate its own score along its own
//! path only. A new turn starts every tree fresh (keeping the subtree of the move played lost
//! every screen, docs/strength.md rows R1-R4). How a node chooses a child is the selection
//! policy `S` (`selection.rs`); the root's move is its most visited child.

use super::game::{Game, MAX_AGENTS};
use super::params::{SearchParams, MAX_DEPTH};
use super::pool::{Node, NodeId, NodePool};
use super::rng::Rng;
use super::selection::{Selection, Ucb1};

/// [`Smitsimax::run_until`] asks its predicate once per this many iterations.
pub const CHECK_INTERVAL: u64 = 64;

/// What a search did this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SearchStats {
    /// Iterations run since the last reset.
    pub iterations: u64,
    /// Game steps played in those iterations.
    pub simulated_plies: u64,
    /// Nodes in use in each agent's tree, root included (0 for agents the game does not have).
    pub nodes_used: [usize; MAX_AGENTS],
}

/// A Smitsimax search over the game `G` with the selection policy `S`. Allocates only in
/// [`Smitsimax::new`]. The game's context is lent to each run, never kept.
pub struct Smitsimax<G: Game, S: Selection = Ucb1> {
    params: SearchParams,
    rng: Rng,
    /// The state every iteration starts from; `None` until the first reset.
    root: Option<G>,
    agent_count: usize,
    /// Action count of each agent, fixed at reset.
    action_counts: [u32; MAX_AGENTS],
    trees: [NodePool; MAX_AGENTS],
    /// `paths[a][0..=d]`: the nodes agent `a` went through this iteration, root first.
    paths: [[NodeId; MAX_DEPTH + 1]; MAX_AGENTS],
    selection: S,
    iterations: u64,
    simulated_plies: u64,
}

impl<G: Game> Smitsimax<G> {
    /// A UCB1 search whose trees hold up to `nodes_per_agent` nodes each, with its own RNG
    /// seeded by `seed`.
    pub fn new(nodes_per_agent: usize, params: SearchParams, seed: u64) -> Self {
        Smitsimax::with_selection(nodes_per_agent, params, seed)
    }
}

impl<G: Game, S: Selection> Smitsimax<G, S> {
    /// A search with the selection policy `S` whose trees hold up to `nodes_per_agent` nodes
    /// each, with its own RNG seeded by `seed`. The only place the search allocates.
    pub fn with_selection(nodes_per_agent: usize, params: SearchParams, seed: u64) -> Self {
        Smitsimax {
            params,
            rng: Rng::new(seed),
            root: None,
            agent_count: 0,
            action_counts: [0; MAX_AGENTS],
            trees: std::array::from_fn(|_| NodePool::with_capacity(nodes_per_agent)),
            paths: [[NodeId::ROOT; MAX_DEPTH + 1]; MAX_AGENTS],
            selection: S::new(nodes_per_agent),
            iterations: 0,
            simulated_plies: 0,
        }
    }

    /// The params the next iteration will use.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Params may be changed at any time; they apply from the next iteration.
    pub fn params_mut(&mut self) -> &mut SearchParams {
        &mut self.params
    }

    /// Start a new turn from `root`: empty trees, fresh selection state and counters. O(agents).
    ///
    /// Panics if the game breaks its contract: agent count outside 1..=[`MAX_AGENTS`] or an
    /// action count outside 1..=256.
    pub fn reset(&mut self, root: &G) {
        let agent_count = root.agent_count();
        assert!(
            (1..=MAX_AGENTS).contains(&agent_count),
            "Game::agent_count must be in 1..={MAX_AGENTS}, got {agent_count}"
        );
        for agent in 0..MAX_AGENTS {
            let action_count = if agent < agent_count {
                root.action_count(agent)
            } else {
                0
            };
            assert!(
                agent >= agent_count || (1..=256).contains(&action_count),
                "Game::action_count({agent}) must be in 1..=256, got {action_count}"
            );
            self.action_counts[agent] = action_count as u32;
            self.trees[agent].reset(action_count);
            self.selection.reset(agent);
        }
        self.root = Some(*root);
        self.agent_count = agent_count;
        self.iterations = 0;
        self.simulated_plies = 0;
    }

    /// One iteration: copy the root, descend all trees jointly for up to `depth` plies (or until
    /// terminal), evaluate, and backpropagate each agent's score along its own path. Returns the
    /// plies simulated (0 before the first reset).
    pub fn iterate(&mut self, context: &G::Context) -> u32 {
        let Some(mut state) = self.root else {
            return 0;
        };
        let params = self.params;
        let depth = (params.depth as usize).clamp(1, MAX_DEPTH);
        let agent_count = self.agent_count;

        let mut current = [NodeId::ROOT; MAX_AGENTS];
        let mut path_lengths = [0usize; MAX_AGENTS];
        let mut actions = [0u8; MAX_AGENTS];
        let mut leaf_depth = 0;
        while leaf_depth < depth && !state.is_terminal(context) {
            for agent in 0..agent_count {
                actions[agent] = self.choose_in_tree(
                    agent,
                    &mut current[agent],
                    &mut path_lengths[agent],
                    &params,
                    &state,
                    context,
                );
            }
            state.step(context, &actions);
            leaf_depth += 1;
        }

        let mut scores = [0.0; MAX_AGENTS];
        state.evaluate(context, &mut scores);
        for agent in 0..agent_count {
            self.backpropagate(
                agent,
                path_lengths[agent],
                leaf_depth,
                scores[agent],
                &params,
            );
        }
        self.iterations += 1;
        self.simulated_plies += leaf_depth as u64;
        leaf_depth as u32
    }

    /// Agent `agent`'s action at its node `*current`, expanding the node once it has had
    /// [`SearchParams::expand_after`] visits, and moving `*current` to the chosen child. Off-tree
    /// (`NodeId::NONE`: below a node not expanded yet, or after the pool ran out) the action is
    /// the game's [`Game::default_action`] in `state`, as are a node's first `random_visits`.
    #[inline(always)]
    fn choose_in_tree(
        &mut self,
        agent: usize,
        current: &mut NodeId,
        path_length: &mut usize,
        params: &SearchParams,
        state: &G,
        context: &G::Context,
    ) -> u8 {
        if *current == NodeId::NONE {
            return state.default_action(context, agent, &mut self.rng);
        }
        let tree = &mut self.trees[agent];
        let node: Node = *tree.node(*current);
        let first_child = if node.is_expanded() {
            node.first_child
        } else if node.visits < params.expand_after {
            *current = NodeId::NONE;
            return state.default_action(context, agent, &mut self.rng);
        } else {
            match tree.expand(*current) {
                Some(first_child) => {
                    self.selection.expanded(agent, first_child, state, context);
                    first_child
                }
                None => {
                    *current = NodeId::NONE;
                    return state.default_action(context, agent, &mut self.rng);
                }
            }
        };
        let index = if node.visits < params.random_visits {
            let index = u32::from(state.default_action(context, agent, &mut self.rng));
            debug_assert!(
                index < self.action_counts[agent],
                "Game::default_action out of range"
            );
            index
        } else {
            self.selection
                .select(agent, &self.trees[agent], *current, params, &mut self.rng)
                as u32
        };
        let tree = &mut self.trees[agent];
        let child = NodeId(first_child.0 + index);
        // Start loading the block the next ply will read while this ply's step runs.
        tree.prefetch_children(child);
        *path_length += 1;
        self.paths[agent][*path_length] = child;
        *current = child;
        index as u8
    }

    /// Add `score` to agent `agent`'s path: the node at depth d gets
    /// `discount^(leaf_depth − d) × score`; the selection policy hears the range of what the
    /// non-root nodes got.
    #[inline(always)]
    fn backpropagate(
        &mut self,
        agent: usize,
        path_length: usize,
        leaf_depth: usize,
        score: f64,
        params: &SearchParams,
    ) {
        let discount = params.discount;
        let tree = &mut self.trees[agent];
        let path = &self.paths[agent][..=path_length];
        let mut value = if discount == 1.0 {
            score
        } else {
            score * discount.powi((leaf_depth - path_length) as i32)
        };
        let mut lowest = f64::INFINITY;
        let mut highest = f64::NEG_INFINITY;
        for &id in path[1..].iter().rev() {
            tree.add_score(id, value);
            // Plain comparisons, not f64::min/max: a NaN score is ignored the same way, without
            // their NaN-handling code on the hot path.
            if value < lowest {
                lowest = value;
            }
            if value > highest {
                highest = value;
            }
            value *= discount;
        }
        tree.add_score(NodeId::ROOT, value);
        self.selection.backed_up(agent, lowest, highest);
    }

    /// Reset to `root` and run exactly `iterations` iterations.
    pub fn run_iterations(
        &mut self,
        context: &G::Context,
        root: &G,
        iterations: u64,
    ) -> SearchStats {
        self.reset(root);
        for _ in 0..iterations {
            self.iterate(context);
        }
        self.stats()
    }

    /// Reset to `root` and iterate until `should_stop()` returns true. The predicate is asked
    /// after every [`CHECK_INTERVAL`] iterations, so at least that many run and a clock read
    /// there costs next to nothing.
    pub fn run_until<F: FnMut() -> bool>(
        &mut self,
        context: &G::Context,
        root: &G,
        mut should_stop: F,
    ) -> SearchStats {
        self.reset(root);
        loop {
            for _ in 0..CHECK_INTERVAL {
                self.iterate(context);
            }
            if should_stop() {
                return self.stats();
            }
        }
    }

    /// Counters since the last reset.
    pub fn stats(&self) -> SearchStats {
        let mut nodes_used = [0; MAX_AGENTS];
        for (used, tree) in nodes_used.iter_mut().zip(&self.trees[..self.agent_count]) {
            *used = tree.len();
        }
        SearchStats {
            iterations: self.iterations,
            simulated_plies: self.simulated_plies,
            nodes_used,
        }
    }

    /// The chosen root action of `agent`: the most visited (ties: the higher mean, then the
    /// lower index); 0 when the root was never expanded (no iteration, terminal root, or a pool
    /// too small for the root's children).
    pub fn best_action(&self, agent: usize) -> u8 {
        let children = self.root_children(agent);
        let mut best_index = 0;
        for (index, child) in children.iter().enumerate().skip(1) {
            let best = &children[best_index];
            if child.visits > best.visits
                || (child.visits == best.visits && child.mean() > best.mean())
            {
                best_index = index;
            }
        }
        best_index as u8
    }

    /// `(action, visits, mean score)` of each root child of `agent`, in action order; empty when
    /// the root was never expanded.
    pub fn root_stats(&self, agent: usize) -> impl Iterator<Item = (u8, u32, f64)> + '_ {
        self.root_children(agent)
            .iter()
            .enumerate()
            .map(|(action, child)| (action as u8, child.visits, child.mean()))
    }

    /// Agent `agent`'s tree, for diagnostics. Panics if `agent >= MAX_AGENTS`.
    pub fn tree(&self, agent: usize) -> &NodePool {
        &self.trees[agent]
    }

    fn root_children(&self, agent: usize) -> &[Node] {
        if agent < self.agent_count {
            self.trees[agent].children(NodeId::ROOT)
        } else {
            &[]
        }
    }
}
