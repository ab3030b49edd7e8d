//! The contract between the search and a game: a small `Copy` state that agents move
//! simultaneously, a per-agent evaluation, and optionally a default policy for the plies the
//! search has no statistics for. What stays fixed during a search (a map, an evaluation's
//! weights or network) is the game's [`Game::Context`]: the caller owns it and lends it to each
//! search, so the state copied at every iteration carries none of it.

use super::rng::Rng;

/// Most agents (trees) a search handles.
pub const MAX_AGENTS: usize = 4;

/// A simultaneous-move game as the search sees it. Copy: each iteration starts from a copy of the
/// root.
pub trait Game: Copy {
    /// What every state of a search shares and never changes (`()` if nothing).
    type Context;
    /// Number of agents (one tree each), 1..=MAX_AGENTS.
    fn agent_count(&self) -> usize;
    /// Number of actions of `agent`, 1..=256; must stay the same for the whole search (queried on
    /// the root).
    fn action_count(&self, agent: usize) -> usize;
    /// Play one joint move: `actions[a]` is agent a's action index (< action_count(a)).
    fn step(&mut self, context: &Self::Context, actions: &[u8; MAX_AGENTS]);
    /// True when the game is over (no more steps).
    fn is_terminal(&self, context: &Self::Context) -> bool;
    /// Each agent's evaluation of this state, higher is better for that agent (>= 0 recommended,
    /// see [`SearchParams::discount`](super::SearchParams::discount)). Written to
    /// scores[0..agent_count].
    fn evaluate(&self, context: &Self::Context, scores: &mut [f64; MAX_AGENTS]);
    /// `agent`'s prior probability of each of its actions in this state, written to
    /// `priors[..action_count(agent)]` (`priors` is that long) and summing to 1: where a
    /// prior-guided selection looks first. Uniform unless the game knows better.
    #[inline(always)]
    fn action_priors(&self, context: &Self::Context, agent: usize, priors: &mut [f32]) {
        let _ = (context, agent);
        priors.fill(1.0 / priors.len() as f32);
    }
    /// The action `agent` plays where the search has nothing to choose by: a node's first
    /// visits, below the grown tree. Uniformly random unless the game knows a better default
    /// policy; must be `< action_count(agent)`.
    #[inline(always)]
    fn default_action(&self, context: &Self::Context, agent: usize, rng: &mut Rng) -> u8 {
        let _ = context;
        rng.below(self.action_count(agent) as u32) as u8
    }
}
