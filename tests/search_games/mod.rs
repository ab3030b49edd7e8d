//! Small simultaneous-move games the search tests are played on. Each test file uses only some
//! of them.
#![allow(dead_code)]

use csb::search::{Game, MAX_AGENTS};

/// A repeated matrix game in which each agent has one strictly dominant action: whatever the
/// others play, `dominant[a]` pays agent `a` at least 0.3 more per round than any other action.
/// The score is the average payoff per round played so far.
#[derive(Clone, Copy, Debug)]
pub struct DominantMatrixGame {
    pub action_counts: [usize; MAX_AGENTS],
    pub agent_count: usize,
    pub dominant: [u8; MAX_AGENTS],
    pub rounds: u32,
    pub round: u32,
    pub payoff: [f64; MAX_AGENTS],
}

impl DominantMatrixGame {
    pub fn new(action_counts: &[usize], dominant: &[u8], rounds: u32) -> Self {
        let mut game = DominantMatrixGame {
            action_counts: [0; MAX_AGENTS],
            agent_count: action_counts.len(),
            dominant: [0; MAX_AGENTS],
            rounds,
            round: 0,
            payoff: [0.0; MAX_AGENTS],
        };
        game.action_counts[..action_counts.len()].copy_from_slice(action_counts);
        game.dominant[..dominant.len()].copy_from_slice(dominant);
        game
    }
}

impl Game for DominantMatrixGame {
    type Context = ();
    fn agent_count(&self) -> usize {
        self.agent_count
    }
    fn action_count(&self, agent: usize) -> usize {
        self.action_counts[agent]
    }
    fn step(&mut self, _: &(), actions: &[u8; MAX_AGENTS]) {
        let others_total: u32 = actions[..self.agent_count]
            .iter()
            .map(|&a| u32::from(a))
            .sum();
        for (agent, &own) in actions.iter().enumerate().take(self.agent_count) {
            assert!((own as usize) < self.action_counts[agent], "illegal action");
            let base = if own == self.dominant[agent] {
                1.0
            } else {
                0.5 * f64::from(own + 1) / self.action_counts[agent] as f64
            };
            // Depends on everyone (own action included) but never by more than 0.2.
            let others = others_total - u32::from(own);
            let interaction = 0.2 * f64::from((others + 2 * u32::from(own)) % 5) / 4.0;
            self.payoff[agent] += base + interaction;
        }
        self.round += 1;
    }
    fn is_terminal(&self, _: &()) -> bool {
        self.round >= self.rounds
    }
    fn evaluate(&self, _: &(), scores: &mut [f64; MAX_AGENTS]) {
        let rounds = f64::from(self.round.max(1));
        for (score, payoff) in scores.iter_mut().zip(&self.payoff[..self.agent_count]) {
            *score = payoff / rounds;
        }
    }
}

/// One agent, two ways to win: action 0 ends the game next ply with 0.95, action 1 ends it three
/// plies from the start with 1.0 (whatever is played meanwhile).
#[derive(Clone, Copy, Debug, Default)]
pub struct QuickOrSlowWin {
    pub plies: u32,
    pub chose_slow: bool,
}

impl Game for QuickOrSlowWin {
    type Context = ();
    fn agent_count(&self) -> usize {
        1
    }
    fn action_count(&self, _: usize) -> usize {
        2
    }
    fn step(&mut self, _: &(), actions: &[u8; MAX_AGENTS]) {
        if self.plies == 0 {
            self.chose_slow = actions[0] == 1;
        }
        self.plies += 1;
    }
    fn is_terminal(&self, _: &()) -> bool {
        self.plies >= if self.chose_slow { 3 } else { 1 }
    }
    fn evaluate(&self, _: &(), scores: &mut [f64; MAX_AGENTS]) {
        scores[0] = match (self.is_terminal(&()), self.chose_slow) {
            (false, _) => 0.0,
            (true, false) => 0.95,
            (true, true) => 1.0,
        };
    }
}

/// One agent whose first action decides the game, but the evaluation only sees it at the end:
/// action 0 wins (1.0) at ply 3, action 1 looks good early (0.5 before the end) and loses (0.0).
#[derive(Clone, Copy, Debug, Default)]
pub struct DelayedReveal {
    pub plies: u32,
    pub first_action: u8,
}

impl Game for DelayedReveal {
    type Context = ();
    fn agent_count(&self) -> usize {
        1
    }
    fn action_count(&self, _: usize) -> usize {
        2
    }
    fn step(&mut self, _: &(), actions: &[u8; MAX_AGENTS]) {
        if self.plies == 0 {
            self.first_action = actions[0];
        }
        self.plies += 1;
    }
    fn is_terminal(&self, _: &()) -> bool {
        self.plies >= 3
    }
    fn evaluate(&self, _: &(), scores: &mut [f64; MAX_AGENTS]) {
        scores[0] = match (self.is_terminal(&()), self.first_action) {
            (false, 0) => 0.0,
            (false, _) => 0.5,
            (true, 0) => 1.0,
            (true, _) => 0.0,
        };
    }
}

/// Four agents with nine actions each on an endless, nearly free game: what is left of a search
/// on it is the search's own cost. Scores are pseudo-random but a deterministic function of the
/// action sequence.
#[derive(Clone, Copy, Debug, Default)]
pub struct HashGame {
    pub mix: [u32; MAX_AGENTS],
}

impl Game for HashGame {
    type Context = ();
    fn agent_count(&self) -> usize {
        MAX_AGENTS
    }
    fn action_count(&self, _: usize) -> usize {
        9
    }
    fn step(&mut self, _: &(), actions: &[u8; MAX_AGENTS]) {
        for (mix, &action) in self.mix.iter_mut().zip(actions) {
            *mix = (*mix ^ u32::from(action))
                .wrapping_mul(0x9e37_79b1)
                .rotate_left(7);
        }
    }
    fn is_terminal(&self, _: &()) -> bool {
        false
    }
    fn evaluate(&self, _: &(), scores: &mut [f64; MAX_AGENTS]) {
        for (score, &mix) in scores.iter_mut().zip(&self.mix) {
            *score = f64::from(mix >> 8) / f64::from(1u32 << 24);
        }
    }
}

/// Matching pennies: agent 0 wins when both actions match, agent 1 when they differ. No pure
/// equilibrium; the only equilibrium is 50/50.
#[derive(Clone, Copy, Debug, Default)]
pub struct MatchingPennies {
    pub matched: Option<bool>,
}

impl Game for MatchingPennies {
    type Context = ();
    fn agent_count(&self) -> usize {
        2
    }
    fn action_count(&self, _: usize) -> usize {
        2
    }
    fn step(&mut self, _: &(), actions: &[u8; MAX_AGENTS]) {
        self.matched = Some(actions[0] == actions[1]);
    }
    fn is_terminal(&self, _: &()) -> bool {
        self.matched.is_some()
    }
    fn evaluate(&self, _: &(), scores: &mut [f64; MAX_AGENTS]) {
        let matched = if self.matched == Some(true) { 1.0 } else { 0.0 };
        scores[0] = matched;
        scores[1] = 1.0 - matched;
    }
}
