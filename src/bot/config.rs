//! The bot's settings, one line each (`search/tunable.rs`): the defaults it plays, which are what
//! a bundle plays (it has no flags), and the flag, range and meaning of each; `flags.rs` sets
//! them from the command line in the binary, so the arena can A/B any of them without
//! recompiling. The search's tunables are `search/params.rs`, the evaluation's
//! `evaluation.rs`.

use super::evaluation::EvalWeights;
use super::league::BUNDLED_LEAGUE;
use crate::engine::League;
use crate::search::{tunables, SearchParams};

/// CodinGame allows 1000 ms for the first turn; the bot never plans more than this.
pub const MAX_FIRST_BUDGET_MS: f64 = 900.0;

/// Nodes per tree the flag accepts: the smallest pool the search runs in, and a cap that keeps
/// the four trees under 1 GB (16 bytes a node).
pub const NODES_RANGE: (u64, u64) = (16, 10_000_000);

/// Longest checkpoint guard (`--timeout-guard`): far above the 100-turn timeout it guards against.
pub const MAX_TIMEOUT_GUARD: u64 = 1000;

/// Whether this build holds the value network (feature `net`). An attribute, not `cfg!`: the
/// bundler resolves `cfg` attributes for the bundle's features, while `cfg!` would be read by
/// `rustc` compiling the bundle alone, where no feature is set.
#[cfg(feature = "net")]
pub const HAS_NETWORK: bool = true;
#[cfg(not(feature = "net"))]
pub const HAS_NETWORK: bool = false;

/// A network read from a file at start-up (`--net-file`, `value_net/file.rs`): its path and its
/// weights, played by `--eval net` instead of the embedded network.
#[derive(Clone, Debug, PartialEq)]
pub struct NetworkFile {
    pub path: String,
    pub values: Vec<f32>,
}

/// Which leaf evaluation the search plays (`leaf_evaluation.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The one the league plays by default ([`Evaluation::in_league`]).
    ByLeague,
    /// The hand-written evaluation alone.
    Hand,
    /// The value network blended with it (two pods a side; feature `net`).
    Net,
}

impl Evaluation {
    /// The evaluation played in `league`: `ByLeague` is the network in the two-pod leagues:
    /// in Legend, where it won 190/0/10 of 200 games against csb-8169e53 at the real control
    /// (docs/strength.md, row R12), and in Gold, though it was trained on Legend games (thrust
    /// 200), where it beat Gold's hand evaluation at the real control (row GN1); the hand
    /// evaluation below Gold, where the network knows no one-pod race.
    pub fn in_league(self, league: League) -> Evaluation {
        match self {
            Evaluation::ByLeague
                if matches!(league, League::Legend | League::Gold) && HAS_NETWORK =>
            {
                Evaluation::Net
            }
            Evaluation::ByLeague => Evaluation::Hand,
            chosen => chosen,
        }
    }
}

/// How a node of the search chooses its child (`search/selection.rs`, `search/puct.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectionKind {
    /// The one that goes with the evaluation ([`SelectionKind::with`]).
    ByEvaluation,
    /// UCB1 from uniform.
    Ucb1,
    /// PUCT, guided by the policy network's priors (`--policy-net`).
    Puct,
}

impl SelectionKind {
    /// The selection played with the evaluation `evaluation` (as the league resolves it): PUCT
    /// on the policy network's priors with the network, where it won 136/1/63 of 200 games
    /// (68.2%, 61.5–74.3%) against UCB1 at the real control (docs/strength.md, row R1); UCB1
    /// with the hand evaluation.
    pub fn with(self, evaluation: Evaluation) -> SelectionKind {
        match self {
            SelectionKind::ByEvaluation if evaluation == Evaluation::Net => SelectionKind::Puct,
            SelectionKind::ByEvaluation => SelectionKind::Ucb1,
            chosen => chosen,
        }
    }
}

/// Tree plies per search iteration with the value network, which judges the leaf from nearer:
/// at 10 ms a turn depth 8 beat depth 10 82/0/18 in 100 games (docs/strength.md, screens D6-D8),
/// and at the real control the default with it was even with csb-a3f6b1e (row R13: 101/0/99)
/// at 20% more iterations a turn.
pub const NETWORK_DEPTH: u32 = 8;

/// How deep a search iteration descends ([`SearchParams::depth`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// The depth that goes with the evaluation ([`Depth::with`]).
    ByEvaluation,
    /// This many tree plies, 1..=[`MAX_DEPTH`](crate::search::MAX_DEPTH).
    Plies(u32),
}

impl Depth {
    /// The plies played with the evaluation `evaluation` (as the league resolves it).
    pub fn with(self, evaluation: Evaluation) -> u32 {
        match self {
            Depth::ByEvaluation if evaluation == Evaluation::Net => NETWORK_DEPTH,
            // The search's own default: the hand evaluation's depth.
            Depth::ByEvaluation => SearchParams::default().depth,
            Depth::Plies(plies) => plies,
        }
    }

    /// `--depth eval|D`.
    #[cfg(feature = "cli")]
    fn parse(text: &str) -> Result<Depth, String> {
        match text {
            "eval" => Ok(Depth::ByEvaluation),
            _ => crate::search::parse::integer_in(text, 1, crate::search::MAX_DEPTH as u32)
                .map(Depth::Plies)
                .map_err(|range| format!("eval or {range}")),
        }
    }
}

/// What the plies without statistics play where the default policy drives greedily.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// The greedy move (`policy.rs`).
    Greedy,
    /// A move drawn from the policy network's priors (`--policy-net`).
    Policy,
}

/// The parsers of the flags that name a network file (`--net-file`, `--policy-net`): each reads
/// its file now, so that a bad file stops the bot before its first turn; `none`, the default, is
/// no file. A build without the network refuses any other value.
#[cfg(feature = "cli")]
mod file_flags {
    use super::NetworkFile;

    /// `--net-file FILE`: the network file's weights (`value_net/file.rs`); `none` is the
    /// embedded network, `control` the same paying its cost for a value of one half
    /// (`value_net/network.rs`).
    pub fn read_network_file(path: &str) -> Result<Option<NetworkFile>, String> {
        if path == "none" {
            return Ok(None);
        }
        let values = with_network::network_values(path)?;
        Ok(Some(NetworkFile {
            path: path.to_string(),
            values,
        }))
    }

    /// `--policy-net FILE`: the policy network file's weights (`policy_net/file.rs`); `none`
    /// (the default) or `embedded` is the network the source holds, `control` the same paying
    /// its cost for uniform priors (`policy_net/embedded.rs`).
    pub fn policy_net_file(path: &str) -> Result<Option<NetworkFile>, String> {
        if path == "none" || path == "embedded" {
            return Ok(None);
        }
        let values = with_network::policy_values(path)?;
        Ok(Some(NetworkFile {
            path: path.to_string(),
            values,
        }))
    }

    #[cfg(feature = "net")]
    mod with_network {
        pub fn network_values(path: &str) -> Result<Vec<f32>, String> {
            use crate::bot::value_net::{file, network::Network};
            if path == "control" {
                return Ok(file::values_of(&Network::control()));
            }
            let text = std::fs::read_to_string(path).map_err(|error| {
                format!("a network file written by learn (cannot read it: {error})")
            })?;
            file::read_values(&text)
                .map_err(|error| format!("a network file written by learn ({error})"))
        }

        pub fn policy_values(path: &str) -> Result<Vec<f32>, String> {
            use crate::bot::policy_net::{embedded, file};
            let network = match path {
                "control" => embedded::control(),
                _ => file::load(path)?,
            };
            Ok(network.values_with_actions())
        }
    }

    #[cfg(not(feature = "net"))]
    mod with_network {
        pub fn network_values(path: &str) -> Result<Vec<f32>, String> {
            Err(format!(
                "no network file in this build (feature net), not {path:?}"
            ))
        }

        pub fn policy_values(_path: &str) -> Result<Vec<f32>, String> {
            Err("a build with the network (feature net)".to_string())
        }
    }
}

tunables! {
    /// Everything the bot can be told (from the command line, in builds with feature `cli`).
    #[derive(Clone, Debug, PartialEq)]
    pub struct BotConfig {
        /// Time per turn, measured from the moment the turn's first line is read.
        budget_ms: f64 = 50.0 => "budget-ms", "MS", positive,
            "time per turn, counted from reading the turn's first line";
        /// Time for the first turn (at most [`MAX_FIRST_BUDGET_MS`]).
        first_budget_ms: f64 = 500.0 => "first-budget-ms", "MS",
            |text| positive(text).map(|ms: f64| ms.min(MAX_FIRST_BUDGET_MS)),
            "time for the first turn (more than 900 is taken as 900)";
        /// A fixed number of search iterations per turn instead of the clock (reproducible
        /// output).
        iterations: Option<u64> = None => "iterations", "N",
            |text| whole(text, 1, u64::MAX).map(Some),
            "fixed search iterations per turn instead of the clock (none: the clock)";
        seed: u64 = 1 => "seed", "S", |text| whole(text, 0, u64::MAX),
            "seed of the search's random numbers";
        league: League = BUNDLED_LEAGUE => "league", "wood3|wood2|wood1|bronze|silver|gold|legend",
            |text| League::parse(text).ok_or_else(String::new),
            "league whose protocol and actions the bot plays (one pod below gold)";
        /// Nodes allocated per tree at start-up. A 500 ms first turn uses about 87,000 per tree
        /// and a 50 ms turn 12,000–26,000 (the `nodes=` of the diagnostic line on the recorded
        /// game), so even a 900 ms first turn stays far below this; 25.6 MB for the four trees.
        nodes_per_agent: usize = 400_000 => "nodes", "N",
            |text| whole(text, NODES_RANGE.0, NODES_RANGE.1).map(|nodes| nodes as usize),
            "nodes allocated per tree (4 trees, 16 bytes a node)";
        /// The leaf evaluation.
        evaluation: Evaluation = Evaluation::ByLeague => "eval", "league|hand|net",
            |text| match text {
                "league" => Ok(Evaluation::ByLeague),
                "hand" => Ok(Evaluation::Hand),
                "net" if HAS_NETWORK => Ok(Evaluation::Net),
                "net" => {
                    Err("league or hand (this build has no network: feature net)".to_string())
                }
                _ => Err(String::new()),
            },
            "leaf evaluation: hand-written, the value network blended in (two pods a side), or \
             the league's (net in gold and legend, hand below gold)";
        /// The network `--eval net` plays instead of the embedded one (self-play generations,
        /// `learn generation`; flags only).
        net_file: Option<NetworkFile> = None => "net-file", "FILE", file_flags::read_network_file,
            "play this network file (learn generation) instead of the embedded network (control: \
             a value of one half at its cost)";
        /// SHIELD only when a collision is possible: 71.0% against the bot without it
        /// (docs/strength.md, row F1).
        shield_near: bool = true => "shield-near", "0|1", switch,
            "consider SHIELD only when a collision is possible";
        /// Probability of the greedy default policy on the search's random plies (`policy.rs`):
        /// with per-pod scores, 0.8 won 6 of 20 screening games against the GA where uniform
        /// random plies won 4 of 20, and with blocker weight 1, 27 of 40 against 2 of 20
        /// (docs/strength.md, section of 2026-11-23).
        greedy: f64 = 0.8 => "greedy", "P", fraction,
            "probability of the greedy move on the search's random plies";
        /// The selection of the search's nodes: the evaluation's ([`SelectionKind::with`]),
        /// UCB1, or PUCT guided by the policy network (`--policy-net`).
        selection: SelectionKind = SelectionKind::ByEvaluation => "selection", "eval|ucb1|puct",
            |text| match text {
                "eval" => Ok(SelectionKind::ByEvaluation),
                "ucb1" => Ok(SelectionKind::Ucb1),
                "puct" if HAS_NETWORK => Ok(SelectionKind::Puct),
                "puct" => Err("eval or ucb1 (this build has no network: feature net)".to_string()),
                _ => Err(String::new()),
            },
            "how a node chooses its child: the evaluation's (PUCT with the network, UCB1 with the \
             hand evaluation), UCB1, or PUCT on the policy network's priors";
        /// Tree plies per search iteration: the evaluation's ([`Depth::with`]) or a number.
        depth: Depth = Depth::ByEvaluation => "depth", "eval|D", Depth::parse,
            "tree plies per search iteration: the evaluation's (8 with the network, 10 with the \
             hand evaluation) or D";
        /// The moves of the plies without statistics where the greedy policy would play:
        /// greedy, or drawn from the policy network (`--policy-net`).
        rollout: Rollout = Rollout::Greedy => "rollout", "greedy|policy",
            |text| match text {
                "greedy" => Ok(Rollout::Greedy),
                "policy" => Ok(Rollout::Policy),
                _ => Err(String::new()),
            },
            "moves of the plies without statistics: greedy, or the policy network's";
        /// The policy network's file (`learn export-policy`), read at start-up, instead of the
        /// embedded one (`policy_net/embedded.rs`; the bundles play that one).
        policy_net: Option<NetworkFile> = None => "policy-net", "PATH", file_flags::policy_net_file,
            "policy network file of PUCT and --rollout policy (none or embedded: the embedded \
             network; control: uniform priors at its cost)";
        /// The policy network's temperature: its action logits divided by it (flatter priors
        /// above 1; [`PolicyNetwork::tempered`](crate::bot::policy_net::network::PolicyNetwork::tempered)).
        policy_temperature: f64 = 1.0 => "policy-temperature", "T", positive,
            "the policy network's priors as softmax(logits / T): flatter above 1";
        /// Turns without a pass of our pods after which our blocker races for its own next
        /// checkpoint too, so that some pod passes before the 100-turn timeout (0 = never): 75
        /// cut our checkpoint-timeout losses against the GA from 25 to 0 in 100 games and won 68
        /// of them (60 without), 85 comes too late (15 timeouts), 60 won 64 (docs/strength.md,
        /// rows H).
        timeout_guard: u32 = 75 => "timeout-guard", "T",
            |text| whole(text, 0, MAX_TIMEOUT_GUARD).map(|turns| turns as u32),
            "turns without a pass before our blocker races too (0: never)";
        /// Print each own pod's root statistics on stderr every turn (flags only).
        verbose: bool = false => "verbose", "0|1", switch,
            "print each pod's root statistics on stderr every turn";
        search: SearchParams = SearchParams::default();
        eval: EvalWeights = EvalWeights::default();
    }
}

impl BotConfig {
    /// The selection this configuration plays ([`SelectionKind::with`] its league's
    /// evaluation).
    pub fn selection_played(&self) -> SelectionKind {
        self.selection.with(self.evaluation.in_league(self.league))
    }

    /// The search's tunables as played: the flags' values with the depth resolved for the
    /// league's evaluation ([`Depth::with`]).
    pub fn search_played(&self) -> SearchParams {
        SearchParams {
            depth: self.depth.with(self.evaluation.in_league(self.league)),
            ..self.search
        }
    }

    /// Whether the policy network guides the search (PUCT's priors or the rollouts' moves).
    pub fn guided(&self) -> bool {
        self.selection_played() == SelectionKind::Puct || self.rollout == Rollout::Policy
    }

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
