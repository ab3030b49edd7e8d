//! The bot's settings and their defaults, which are what a bundle plays (it has no flags;
//! `flags.rs` sets them from the command line in the binary, so the arena can A/B any of them
//! without recompiling, DESIGN.md "Rules of the hot path").

use super::evaluation::EvalWeights;
use super::league::BUNDLED_LEAGUE;
use crate::engine::League;
use crate::search::SearchParams;

/// CodinGame allows 1000 ms for the first turn; the bot never plans more than this.
pub const MAX_FIRST_BUDGET_MS: f64 = 900.0;

/// Plies per search iteration for this game. At the real control (50 ms a turn) depth 10 beat
/// depth 8 in 19 of 22 games and depth 12 lost to it 17 of 20, both SPRT [0, 50] decisions
/// (docs/strength.md, rows S1 and S2); at 1000 iterations a turn depth 8 had beaten 6 and tied 10.
pub const BOT_DEPTH: u32 = 10;

/// Discount per ply on backpropagation: without one, a win now and a win in two turns look the
/// same and the search may dawdle. 0.99 against 1.0 was even over 300 games (docs/strength.md).
pub const BOT_DISCOUNT: f64 = 0.99;

/// Visits after which a node gets its children (`--expand-after`): with the default 10 random
/// visits, a node's children are made when it first chooses by UCB1, so the nodes that never get
/// that far (most of them) cost no memory. The trees stay small enough to stay in cache: 24% more
/// simulated turns per turn than expanding at once, and 55.5% (50.6–60.4%) of 400 games against
/// it at equal time (docs/strength.md, row I1).
pub const BOT_EXPAND_AFTER: u32 = 10;

/// Nodes per tree (`--nodes`). With [`BOT_EXPAND_AFTER`] 10 a 500 ms first turn uses about
/// 87,000 per tree and a 50 ms turn 12,000–26,000 (the `nodes=` of the diagnostic line on the
/// recorded game), so even a 900 ms first turn stays far below this; 16 bytes each, 25.6 MB for
/// the four trees.
pub const BOT_NODES_PER_AGENT: usize = 400_000;

/// Probability of the greedy default policy (`policy.rs`): with per-pod scores, 0.8 won 6 of 20
/// screening games against the GA where uniform random plies won 4 of 20, and with blocker
/// weight 1, 27 of 40 against 2 of 20 (docs/strength.md, section of 2026-11-23).
pub const BOT_GREEDY: f64 = 0.8;

/// Turns without a pass after which our blocker races for its own checkpoint (`--timeout-guard`):
/// 75 cut our checkpoint-timeout losses against the GA from 25 to 0 in 100 games and won 68 of
/// them (60 without), 85 comes too late (15 timeouts), 60 won 64 (docs/strength.md, rows H).
pub const BOT_TIMEOUT_GUARD: u32 = 75;

/// Everything the bot can be told (from the command line, in builds with feature `cli`).
#[derive(Clone, Debug, PartialEq)]
pub struct BotConfig {
    /// Time per turn, measured from the moment the turn's first line is read.
    pub budget_ms: f64,
    /// Time for the first turn (at most [`MAX_FIRST_BUDGET_MS`]).
    pub first_budget_ms: f64,
    /// A fixed number of search iterations per turn instead of the clock (reproducible output).
    pub iterations: Option<u64>,
    pub seed: u64,
    pub league: League,
    /// Nodes allocated per tree at start-up.
    pub nodes_per_agent: usize,
    pub search: SearchParams,
    pub eval: EvalWeights,
    /// SHIELD only when a collision is possible (`--shield-near`, on by default: 71.0% against
    /// the bot without it, docs/strength.md row F1).
    pub shield_near: bool,
    /// Probability of the greedy default policy on the search's random plies (`--greedy`,
    /// `policy.rs`).
    pub greedy: f64,
    /// Whether the search knows the 100-turn checkpoint timeout (`--timeout-aware 1`): a
    /// player whose pods pass nothing before it runs out loses.
    #[cfg(feature = "experiments")]
    pub timeout_aware: bool,
    /// Turns without a pass of our pods after which our blocker races for its own next
    /// checkpoint too, so that some pod passes before the 100-turn timeout
    /// (`--timeout-guard T`, 0 = never).
    pub timeout_guard: u32,
    /// Print each own pod's root statistics on stderr every turn (`--verbose 1`).
    #[cfg(feature = "experiments")]
    pub verbose: bool,
    /// Start each own pod's tree from the subtree under the action it played last turn
    /// (`--reuse-tree 1`; off: it lost every screen, docs/strength.md rows R1-R4).
    #[cfg(feature = "experiments")]
    pub reuse_tree: bool,
}

impl Default for BotConfig {
    fn default() -> Self {
        BotConfig {
            budget_ms: 50.0,
            first_budget_ms: 500.0,
            iterations: None,
            seed: 1,
            league: BUNDLED_LEAGUE,
            nodes_per_agent: BOT_NODES_PER_AGENT,
            search: SearchParams {
                depth: BOT_DEPTH,
                discount: BOT_DISCOUNT,
                expand_after: BOT_EXPAND_AFTER,
                ..SearchParams::default()
            },
            eval: EvalWeights::default(),
            #[cfg(feature = "experiments")]
            verbose: false,
            shield_near: true,
            greedy: BOT_GREEDY,
            #[cfg(feature = "experiments")]
            timeout_aware: false,
            timeout_guard: BOT_TIMEOUT_GUARD,
            #[cfg(feature = "experiments")]
            reuse_tree: false,
        }
    }
}

impl BotConfig {
    /// What a build without flags plays: the defaults, except that the bundler's check build
    /// fixes the iterations and the seed as `--iterations` and `--seed` do, through the
    /// compile-time variables `CSB_ITERATIONS` and `CSB_SEED` (`rustc` run with them set;
    /// bundler/README.md). CodinGame compiles without them: the clock and seed 1.
    #[cfg(not(feature = "cli"))]
    pub fn bundled() -> BotConfig {
        let mut config = BotConfig::default();
        if let Some(iterations) = option_env!("CSB_ITERATIONS") {
            config.iterations = iterations.parse().ok();
        }
        if let Some(seed) = option_env!("CSB_SEED").and_then(|seed| seed.parse().ok()) {
            config.seed = seed;
        }
        config
    }
}
