//! The search itself: Smitsimax (MSmits' decoupled UCT for simultaneous moves). One tree per
//! agent; each iteration descends all trees jointly from a copy of the root, plays the joint
//! move, evaluates once at the end, and lets each agent backpropagate its own score along its own
//! path only. A new turn starts every tree fresh, or (feature `experiments`,
//! [`Smitsimax::reset_keeping`]) lets an agent keep the subtree of the action it played, re-rooted.
//! The selection is UCB1; feature `experiments` adds the other policies of [`Selection`], the
//! final moves and rollouts.

use super::game::{Game, MAX_AGENTS};
#[cfg(feature = "experiments")]
use super::params::{FinalMove, Selection};
use super::params::{SearchParams, MAX_DEPTH};
use super::pool::{Node, NodeId, NodePool};
use super::rng::Rng;
#[cfg(feature = "experiments")]
use super::selection::{exp3, sample_by_visits, select_child, smooth_ucb_probability};
use super::selection::{ScoreScale, VisitTables};

/// [`Smitsimax::run_until`] asks its predicate once per this many iterations.
pub const CHECK_INTERVAL: u64 = 64;

/// What a search did this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SearchStats {
    /// Iterations run since the last reset.
    pub iterations: u64,
    /// Game steps played in those iterations, tree and rollout plies alike.
    pub simulated_plies: u64,
    /// Nodes in use in each agent's tree, root included (0 for agents the game does not have).
    pub nodes_used: [usize; MAX_AGENTS],
    /// Nodes each agent's tree kept from the previous turn at the last reset (0: started fresh).
    #[cfg(feature = "experiments")]
    pub nodes_kept: [usize; MAX_AGENTS],
}

/// No agent keeps anything: [`Smitsimax::reset_keeping`] with this is [`Smitsimax::reset`].
#[cfg(feature = "experiments")]
pub const KEEP_NOTHING: [Option<u8>; MAX_AGENTS] = [None; MAX_AGENTS];

/// A Smitsimax search over the game `G`. Allocates only in [`Smitsimax::new`].
pub struct Smitsimax<G: Game> {
    params: SearchParams,
    rng: Rng,
    /// The state every iteration starts from; `None` until the first reset.
    root: Option<G>,
    agent_count: usize,
    /// The selection policy, fixed at reset (it decides whether trees keep squared scores).
    #[cfg(feature = "experiments")]
    selection: Selection,
    /// Action count of each agent, fixed at reset.
    action_counts: [u32; MAX_AGENTS],
    trees: [NodePool; MAX_AGENTS],
    /// `paths[a][0..=d]`: the nodes agent `a` went through this iteration, root first.
    paths: [[NodeId; MAX_DEPTH + 1]; MAX_AGENTS],
    /// EXP3 only: `probabilities[a][d]`, the probability with which `paths[a][d]` was drawn.
    #[cfg(feature = "experiments")]
    probabilities: [[f64; MAX_DEPTH + 1]; MAX_AGENTS],
    /// Lowest and highest score backpropagated into a non-root node of each tree this turn.
    lowest_scores: [f64; MAX_AGENTS],
    highest_scores: [f64; MAX_AGENTS],
    /// The normalisation derived from the two above, cached.
    scales: [ScoreScale; MAX_AGENTS],
    tables: VisitTables,
    /// [`SearchParams::depth`] at the last reset: a tree is only kept under the same depth.
    #[cfg(feature = "experiments")]
    tree_depth: u32,
    /// Nodes each tree kept at the last reset.
    #[cfg(feature = "experiments")]
    nodes_kept: [usize; MAX_AGENTS],
    iterations: u64,
    simulated_plies: u64,
}

impl<G: Game> Smitsimax<G> {
    /// A search whose trees hold up to `nodes_per_agent` nodes each, with its own RNG seeded by
    /// `seed`. The only place the search allocates.
    pub fn new(nodes_per_agent: usize, params: SearchParams, seed: u64) -> Self {
        Smitsimax {
            params,
            rng: Rng::new(seed),
            root: None,
            agent_count: 0,
            #[cfg(feature = "experiments")]
            selection: params.selection,
            action_counts: [0; MAX_AGENTS],
            trees: std::array::from_fn(|_| NodePool::with_capacity(nodes_per_agent)),
            paths: [[NodeId::ROOT; MAX_DEPTH + 1]; MAX_AGENTS],
            #[cfg(feature = "experiments")]
            probabilities: [[1.0; MAX_DEPTH + 1]; MAX_AGENTS],
            lowest_scores: [f64::INFINITY; MAX_AGENTS],
            highest_scores: [f64::NEG_INFINITY; MAX_AGENTS],
            scales: [ScoreScale::new(f64::INFINITY, f64::NEG_INFINITY); MAX_AGENTS],
            tables: VisitTables::new(),
            #[cfg(feature = "experiments")]
            tree_depth: params.depth,
            #[cfg(feature = "experiments")]
            nodes_kept: [0; MAX_AGENTS],
            iterations: 0,
            simulated_plies: 0,
        }
    }

    /// The params the next iteration will use.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Params may be changed at any time; they apply from the next iteration, except
    /// [`SearchParams::selection`], which applies from the next reset.
    pub fn params_mut(&mut self) -> &mut SearchParams {
        &mut self.params
    }

    /// Start a new turn from `root`: empty trees, fresh score ranges and counters. O(agents).
    ///
    /// Panics if the game breaks its contract: agent count outside 1..=[`MAX_AGENTS`] or an
    /// action count outside 1..=256.
    #[cfg(feature = "experiments")]
    pub fn reset(&mut self, root: &G) {
        self.reset_keeping(root, KEEP_NOTHING);
    }

    /// Start a new turn from `root` (without feature `experiments`: no tree is ever kept).
    #[cfg(not(feature = "experiments"))]
    pub fn reset(&mut self, root: &G) {
        let agent_count = Self::agent_count_of(root);
        for agent in 0..MAX_AGENTS {
            let action_count = Self::action_count_of(root, agent, agent_count);
            self.action_counts[agent] = action_count as u32;
            self.trees[agent].reset(action_count);
            self.forget_score_range(agent);
        }
        self.start_turn(root, agent_count);
    }

    /// `root`'s agent count, checked against the [`Game`] contract.
    fn agent_count_of(root: &G) -> usize {
        let agent_count = root.agent_count();
        assert!(
            (1..=MAX_AGENTS).contains(&agent_count),
            "Game::agent_count must be in 1..={MAX_AGENTS}, got {agent_count}"
        );
        agent_count
    }

    /// Agent `agent`'s action count at `root` (0 for agents the game does not have), checked
    /// against the [`Game`] contract.
    fn action_count_of(root: &G, agent: usize, agent_count: usize) -> usize {
        let action_count = if agent < agent_count {
            root.action_count(agent)
        } else {
            0
        };
        assert!(
            agent >= agent_count || (1..=256).contains(&action_count),
            "Game::action_count({agent}) must be in 1..=256, got {action_count}"
        );
        action_count
    }

    /// Selection normalises by this turn's scores (a range kept over the turns would only
    /// widen, and with it the weight of exploration).
    fn forget_score_range(&mut self, agent: usize) {
        self.lowest_scores[agent] = f64::INFINITY;
        self.highest_scores[agent] = f64::NEG_INFINITY;
        self.scales[agent] = ScoreScale::new(f64::INFINITY, f64::NEG_INFINITY);
    }

    /// The turn's root and fresh counters.
    fn start_turn(&mut self, root: &G, agent_count: usize) {
        self.root = Some(*root);
        self.agent_count = agent_count;
        self.iterations = 0;
        self.simulated_plies = 0;
    }

    /// Like [`Smitsimax::reset`], except that each agent `a` with `played[a] = Some(action)`
    /// keeps the subtree under its root action `action` from the previous turn, re-rooted, with
    /// its statistics (the score range starts afresh, as for every tree). The caller vouches that `root` is what that subtree
    /// stood for (the agent played `action`, and the evaluation is the same); the search checks
    /// the rest and starts the agent's tree fresh when it cannot keep it: no previous turn, other
    /// agent or action counts, another selection policy or depth, or `action` never expanded at
    /// the root. Allocates nothing; time linear in the nodes in use.
    #[cfg(feature = "experiments")]
    pub fn reset_keeping(&mut self, root: &G, played: [Option<u8>; MAX_AGENTS]) {
        let agent_count = Self::agent_count_of(root);
        let same_search = self.root.is_some()
            && agent_count == self.agent_count
            && self.selection == self.params.selection
            && self.tree_depth == self.params.depth;
        self.selection = self.params.selection;
        self.tree_depth = self.params.depth;
        let track_squares = self.selection == Selection::Ucb1Tuned;
        for (agent, played_action) in played.into_iter().enumerate() {
            let action_count = Self::action_count_of(root, agent, agent_count);
            let kept = match played_action {
                Some(action)
                    if same_search
                        && agent < agent_count
                        && self.action_counts[agent] == action_count as u32 =>
                {
                    let tree = &mut self.trees[agent];
                    let root_children = tree.node(NodeId::ROOT).first_child;
                    if root_children == NodeId::NONE || u32::from(action) >= action_count as u32 {
                        0
                    } else {
                        // The kept nodes stand a ply nearer the root now: the scores of this turn's
                        // iterations reach them discounted once more than the kept ones did.
                        let kept = tree.keep_subtree(
                            NodeId(root_children.0 + u32::from(action)),
                            self.params.reuse_decay,
                            self.params.discount,
                        );
                        // A never-visited action holds nothing worth keeping.
                        if tree.node(NodeId::ROOT).visits == 0 {
                            0
                        } else {
                            kept
                        }
                    }
                }
                _ => 0,
            };
            self.nodes_kept[agent] = kept;
            if kept == 0 {
                self.action_counts[agent] = action_count as u32;
                if self.selection == Selection::Exp3 {
                    self.trees[agent].reset_with_estimates(action_count);
                } else {
                    self.trees[agent].reset(action_count, track_squares);
                }
            }
            // Kept trees too.
            self.forget_score_range(agent);
        }
        self.start_turn(root, agent_count);
    }

    /// One iteration: copy the root, descend all trees jointly for up to `depth` plies (or until
    /// terminal), play `rollout_plies` random plies, evaluate, and backpropagate each agent's
    /// score along its own path. Returns the plies simulated (0 before the first reset).
    pub fn iterate(&mut self) -> u32 {
        let Some(mut state) = self.root else {
            return 0;
        };
        let params = self.params;
        let depth = (params.depth as usize).clamp(1, MAX_DEPTH);
        let agent_count = self.agent_count;

        let mut current = [NodeId::ROOT; MAX_AGENTS];
        let mut path_lengths = [0usize; MAX_AGENTS];
        let mut actions = [0u8; MAX_AGENTS];
        let mut tree_plies = 0;
        while tree_plies < depth && !state.is_terminal() {
            for agent in 0..agent_count {
                actions[agent] = self.choose_in_tree(
                    agent,
                    &mut current[agent],
                    &mut path_lengths[agent],
                    &params,
                    &state,
                );
            }
            state.step(&actions);
            tree_plies += 1;
        }

        #[cfg(feature = "experiments")]
        let mut rollout_plies = 0;
        #[cfg(feature = "experiments")]
        while rollout_plies < params.rollout_plies as usize && !state.is_terminal() {
            for (agent, action) in actions[..agent_count].iter_mut().enumerate() {
                *action = state.default_action(agent, &mut self.rng);
            }
            state.step(&actions);
            rollout_plies += 1;
        }
        #[cfg(not(feature = "experiments"))]
        let rollout_plies = 0;

        let leaf_depth = tree_plies + rollout_plies;
        let mut scores = [0.0; MAX_AGENTS];
        state.evaluate(&mut scores);
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
    ) -> u8 {
        let action_count = self.action_counts[agent];
        if *current == NodeId::NONE {
            return state.default_action(agent, &mut self.rng);
        }
        let tree = &mut self.trees[agent];
        let node: Node = *tree.node(*current);
        let first_child = if node.is_expanded() {
            node.first_child
        } else if node.visits < params.expand_after {
            *current = NodeId::NONE;
            return state.default_action(agent, &mut self.rng);
        } else {
            match tree.expand(*current) {
                Some(first_child) => first_child,
                None => {
                    *current = NodeId::NONE;
                    return state.default_action(agent, &mut self.rng);
                }
            }
        };
        let index = if node.visits < params.random_visits {
            // EXP3's importance weight assumes the uniform default policy.
            #[cfg(feature = "experiments")]
            if self.selection == Selection::Exp3 {
                self.probabilities[agent][*path_length + 1] = 1.0 / f64::from(action_count);
            }
            let index = u32::from(state.default_action(agent, &mut self.rng));
            debug_assert!(index < action_count, "Game::default_action out of range");
            index
        } else {
            self.select(
                agent,
                *current,
                &node,
                #[cfg(feature = "experiments")]
                path_length,
                params,
            )
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

    /// The child index UCB1 picks at `current` (a node past its random visits) for agent
    /// `agent`.
    #[cfg(not(feature = "experiments"))]
    #[inline(always)]
    fn select(&mut self, agent: usize, current: NodeId, node: &Node, params: &SearchParams) -> u32 {
        super::selection::ucb1(
            &self.tables,
            self.trees[agent].children(current),
            node.visits,
            params.exploration,
            self.scales[agent],
        ) as u32
    }

    /// The child index the selection policy picks at `current` (a node past its random visits)
    /// for agent `agent`: EXP3's draw, Smooth UCT's sample by visits, else the UCB family's
    /// bound. EXP3 records the probability of its draw for the child at depth
    /// `path_length + 1`, which the backpropagation divides by.
    #[cfg(feature = "experiments")]
    #[inline(always)]
    fn select(
        &mut self,
        agent: usize,
        current: NodeId,
        node: &Node,
        path_length: &usize,
        params: &SearchParams,
    ) -> u32 {
        let tree = &self.trees[agent];
        match self.selection {
            Selection::Exp3 => {
                let (index, drawn_with) = exp3(
                    tree.children_square_sums(current),
                    params.exp3_gamma,
                    &mut self.rng,
                );
                self.probabilities[agent][*path_length + 1] = drawn_with;
                index as u32
            }
            _ => {
                let smooth_sample = self.selection == Selection::SmoothUct
                    && self.rng.next_f64()
                        >= smooth_ucb_probability(
                            params.smooth_eta,
                            params.smooth_gamma,
                            params.smooth_d,
                            node.visits,
                        );
                let by_visits = if smooth_sample {
                    sample_by_visits(tree.children(current), &mut self.rng)
                } else {
                    None
                };
                match by_visits {
                    Some(index) => index as u32,
                    None => select_child(
                        &self.tables,
                        self.selection,
                        tree.children(current),
                        tree.children_square_sums(current),
                        node.visits,
                        params.exploration,
                        self.scales[agent],
                    ) as u32,
                }
            }
        }
    }

    /// Add `score` to agent `agent`'s path: the node at depth d gets
    /// `discount^(leaf_depth − d) × score`.
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
        let mut lowest = self.lowest_scores[agent];
        let mut highest = self.highest_scores[agent];
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
        if lowest != self.lowest_scores[agent] || highest != self.highest_scores[agent] {
            self.lowest_scores[agent] = lowest;
            self.highest_scores[agent] = highest;
            self.scales[agent] = ScoreScale::new(lowest, highest);
        }
        #[cfg(feature = "experiments")]
        if self.selection == Selection::Exp3 {
            self.add_exp3_estimates(agent, path_length, leaf_depth, score, discount);
        }
    }

    /// EXP3's update: each non-root node on the path gets its normalised (discounted) score
    /// divided by the probability it was drawn with.
    #[cfg(feature = "experiments")]
    fn add_exp3_estimates(
        &mut self,
        agent: usize,
        path_length: usize,
        leaf_depth: usize,
        score: f64,
        discount: f64,
    ) {
        let scale = self.scales[agent];
        let tree = &mut self.trees[agent];
        let mut value = score * discount.powi((leaf_depth - path_length) as i32);
        for depth in (1..=path_length).rev() {
            let reward = ((value - scale.lowest) * scale.inverse_range).clamp(0.0, 1.0);
            tree.add_estimate(
                self.paths[agent][depth],
                reward / self.probabilities[agent][depth],
            );
            value *= discount;
        }
    }

    /// Reset to `root` and run exactly `iterations` iterations.
    pub fn run_iterations(&mut self, root: &G, iterations: u64) -> SearchStats {
        self.reset(root);
        self.iterate_times(iterations)
    }

    /// [`Smitsimax::reset_keeping`] to `root`, then run exactly `iterations` iterations.
    #[cfg(feature = "experiments")]
    pub fn run_iterations_keeping(
        &mut self,
        root: &G,
        played: [Option<u8>; MAX_AGENTS],
        iterations: u64,
    ) -> SearchStats {
        self.reset_keeping(root, played);
        self.iterate_times(iterations)
    }

    /// Reset to `root` and iterate until `should_stop()` returns true. The predicate is asked
    /// after every [`CHECK_INTERVAL`] iterations, so at least that many run and a clock read
    /// there costs next to nothing.
    pub fn run_until<F: FnMut() -> bool>(&mut self, root: &G, should_stop: F) -> SearchStats {
        self.reset(root);
        self.iterate_until(should_stop)
    }

    /// [`Smitsimax::reset_keeping`] to `root`, then iterate as [`Smitsimax::run_until`] does.
    #[cfg(feature = "experiments")]
    pub fn run_until_keeping<F: FnMut() -> bool>(
        &mut self,
        root: &G,
        played: [Option<u8>; MAX_AGENTS],
        should_stop: F,
    ) -> SearchStats {
        self.reset_keeping(root, played);
        self.iterate_until(should_stop)
    }

    fn iterate_times(&mut self, iterations: u64) -> SearchStats {
        for _ in 0..iterations {
            self.iterate();
        }
        self.stats()
    }

    fn iterate_until<F: FnMut() -> bool>(&mut self, mut should_stop: F) -> SearchStats {
        loop {
            for _ in 0..CHECK_INTERVAL {
                self.iterate();
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
            #[cfg(feature = "experiments")]
            nodes_kept: self.nodes_kept,
        }
    }

    /// The chosen root action of `agent`, the most visited (feature `experiments`: per
    /// `SearchParams::final_move`); 0 when the root was
    /// never expanded (no iteration, terminal root, or a pool too small for the root's children).
    pub fn best_action(&self, agent: usize) -> u8 {
        let children = self.root_children(agent);
        let mut best_index = 0;
        for (index, child) in children.iter().enumerate().skip(1) {
            let best = &children[best_index];
            #[cfg(not(feature = "experiments"))]
            let better = more_visited(child, best);
            #[cfg(feature = "experiments")]
            let better = match self.params.final_move {
                FinalMove::MostVisited => more_visited(child, best),
                FinalMove::BestAverage => {
                    child.visits > 0
                        && (best.visits == 0
                            || child.mean() > best.mean()
                            || (child.mean() == best.mean() && child.visits > best.visits))
                }
            };
            if better {
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

/// Whether `child` beats `best` as the most visited root child (ties: the higher mean).
#[inline]
fn more_visited(child: &Node, best: &Node) -> bool {
    child.visits > best.visits || (child.visits == best.visits && child.mean() > best.mean())
}
