//! The bot's settings and the command-line flags that set them, so the arena can A/B any of them
//! without recompiling (DESIGN.md "Rules of the hot path").

use super::evaluation::EvalWeights;
use super::league::BUNDLED_LEAGUE;
use crate::engine::League;
use crate::search::SearchParams;

/// CodinGame allows 1000 ms for the first turn; the bot never plans more than this.
pub const MAX_FIRST_BUDGET_MS: f64 = 900.0;

/// Plies per search iteration for this game: at equal simulated turns, depth 8 beat depth 6
/// 65.5% (300 games) and tied depth 10 (docs/strength.md).
pub const BOT_DEPTH: u32 = 8;

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

/// Everything the bot can be told from the command line.
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
    pub timeout_aware: bool,
    /// Turns without a pass of our pods after which our blocker races for its own next
    /// checkpoint too, so that some pod passes before the 100-turn timeout
    /// (`--timeout-guard T`, 0 = never).
    pub timeout_guard: u32,
    /// Print each own pod's root statistics on stderr every turn (`--verbose 1`).
    pub verbose: bool,
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
            verbose: false,
            shield_near: true,
            greedy: BOT_GREEDY,
            timeout_aware: false,
            timeout_guard: BOT_TIMEOUT_GUARD,
        }
    }
}

pub const USAGE: &str =
    "usage: csb [--budget-ms MS] [--first-budget-ms MS] [--iterations N] [--seed S] \
[--league wood3|wood2|wood1|bronze|silver|gold|legend] [--nodes N] [--blocker-weight W] [--chase-weight W] [--momentum-weight W] \
[--score-scale S] [--runner-angle-weight W] [--centred 0|1] [--shield-near 0|1] [--greedy P] [--timeout-aware 0|1] [--timeout-guard T] [--pod-scores 0|1] [--depth D] [--exploration C] [--random-visits K] \
[--expand-after T] [--discount G] [--rollout P] [--final-move most-visited|best-average] \
[--selection ucb1|ucb1-tuned|smooth-uct|exp3] [--smooth-eta E] [--smooth-gamma G] [--smooth-d D] \
[--exp3-gamma G] [--verbose 0|1]";

impl BotConfig {
    /// Parses `--name value` pairs; an error says which flag and why.
    pub fn from_args(args: &[String]) -> Result<BotConfig, String> {
        let mut config = BotConfig::default();
        let mut index = 0;
        while index < args.len() {
            let flag = args[index].as_str();
            let Some(name) = flag.strip_prefix("--") else {
                return Err(format!("unexpected argument {flag:?}"));
            };
            let value = args
                .get(index + 1)
                .ok_or_else(|| format!("flag {flag} needs a value"))?
                .as_str();
            index += 2;
            let number = |what: &str| -> Result<f64, String> {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v > 0.0)
                    .ok_or_else(|| format!("{flag} expects {what}, got {value:?}"))
            };
            let weight = || -> Result<f64, String> {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .ok_or_else(|| format!("{flag} expects a weight >= 0, got {value:?}"))
            };
            let switch = || -> Result<bool, String> {
                match value {
                    "0" => Ok(false),
                    "1" => Ok(true),
                    _ => Err(format!("{flag} expects 0 or 1, got {value:?}")),
                }
            };
            let integer = |what: &str| -> Result<u64, String> {
                value
                    .parse::<u64>()
                    .map_err(|_| format!("{flag} expects {what}, got {value:?}"))
            };
            match name {
                "budget-ms" => config.budget_ms = number("a positive number of milliseconds")?,
                "first-budget-ms" => {
                    config.first_budget_ms =
                        number("a positive number of milliseconds")?.min(MAX_FIRST_BUDGET_MS)
                }
                "iterations" => config.iterations = Some(integer("a whole number")?.max(1)),
                "seed" => config.seed = integer("a whole number")?,
                "nodes" => config.nodes_per_agent = integer("a whole number")?.max(16) as usize,
                "blocker-weight" => config.eval.blocker = weight()?,
                "chase-weight" => config.eval.chase = weight()?,
                "momentum-weight" => config.eval.momentum = weight()?,
                "runner-angle-weight" => config.eval.runner_angle = weight()?,
                "shield-near" => config.shield_near = switch()?,
                "pod-scores" => config.eval.pod_scores = switch()?,
                "timeout-aware" => config.timeout_aware = switch()?,
                "timeout-guard" => {
                    config.timeout_guard = integer("a whole number")?.min(1000) as u32
                }
                "greedy" => {
                    config.greedy = value
                        .parse::<f64>()
                        .ok()
                        .filter(|p| (0.0..=1.0).contains(p))
                        .ok_or_else(|| {
                            format!("{flag} expects a probability in [0, 1], got {value:?}")
                        })?
                }
                "centred" => config.eval.centred = switch()?,
                "verbose" => config.verbose = switch()?,
                "score-scale" => config.eval.score_scale = number("a positive number")?,
                "league" => {
                    config.league = League::parse(value)
                        .ok_or_else(|| format!(
                            "{flag} expects wood3, wood2, wood1, bronze, silver, gold or legend, got {value:?}"
                        ))?
                }
                _ => config.search.set(name, value).map_err(|error| {
                    if SearchParams::NAMES.contains(&name) {
                        format!("{flag}: {error}")
                    } else {
                        format!("unknown flag {flag}")
                    }
                })?,
            }
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_flags_and_search_options() {
        let config =
            BotConfig::from_args(&args("--iterations 500 --seed 7 --depth 4 --league gold"))
                .unwrap();
        assert_eq!(config.iterations, Some(500));
        assert_eq!(config.seed, 7);
        assert_eq!(config.search.depth, 4);
        assert_eq!(config.league, League::Gold);
        assert!(config.shield_near && !config.eval.centred && !config.verbose);
        let config =
            BotConfig::from_args(&args("--shield-near 0 --centred 1 --verbose 1")).unwrap();
        assert!(!config.shield_near && config.eval.centred && config.verbose);
        let config = BotConfig::from_args(&args("--first-budget-ms 5000")).unwrap();
        assert_eq!(config.first_budget_ms, MAX_FIRST_BUDGET_MS);
    }

    #[test]
    fn parses_the_evaluation_and_policy_options() {
        let config = BotConfig::default();
        assert_eq!(config.greedy, BOT_GREEDY);
        assert!(config.eval.pod_scores);
        let config = BotConfig::from_args(&args("--greedy 0.3 --pod-scores 0")).unwrap();
        assert_eq!(config.greedy, 0.3);
        assert!(!config.eval.pod_scores);
        let error = BotConfig::from_args(&args("--greedy 1.5")).unwrap_err();
        assert_eq!(
            error,
            "--greedy expects a probability in [0, 1], got \"1.5\""
        );
        assert!(BotConfig::from_args(&args("--pod-scores 2")).is_err());
        assert_eq!(config.timeout_guard, BOT_TIMEOUT_GUARD);
        let config = BotConfig::from_args(&args("--timeout-guard 0")).unwrap();
        assert_eq!(config.timeout_guard, 0);
        assert!(BotConfig::from_args(&args("--timeout-guard -1")).is_err());
    }

    #[test]
    fn rejects_bad_flags_clearly() {
        let error = BotConfig::from_args(&args("--budget-ms -3")).unwrap_err();
        assert!(error.contains("--budget-ms"), "{error}");
        let error = BotConfig::from_args(&args("--bogus 1")).unwrap_err();
        assert_eq!(error, "unknown flag --bogus");
        assert!(BotConfig::from_args(&args("--seed")).is_err());
        let error = BotConfig::from_args(&args("--centred yes")).unwrap_err();
        assert_eq!(error, "--centred expects 0 or 1, got \"yes\"");
        assert!(BotConfig::from_args(&args("--depth x")).is_err());
    }
}
