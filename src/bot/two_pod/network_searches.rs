//! The searches that play the networks (feature `net`): the value network blended into the
//! leaf scores under UCB1, or guided by the policy network as well (PUCT's priors, or the
//! rollouts' moves). Which one the settings ask for is set up once a game; each turn's decision and root
//! statistics are dispatched to it.

use super::team_search::TeamSearch;
use crate::bot::config::{BotConfig, Evaluation, Rollout, SelectionKind};
use crate::bot::evaluation::Roles;
use crate::bot::leaf_evaluation::NetworkBlend;
use crate::bot::policy_net::guided::Guided;
use crate::bot::policy_net::{embedded, network::PolicyNetwork};
use crate::bot::timeout_clocks::TimeoutClocks;
use crate::engine::rules::POD_COUNT;
use crate::engine::{FastPod, Map};
use crate::search::puct::Puct;
use crate::search::{Node, SearchStats};
use std::time::Instant;

/// A search with a network, each compiled for its evaluation and its selection.
pub enum NetworkSearches {
    /// The value network blended in, UCB1 (`--selection ucb1`).
    Blend(Box<TeamSearch<NetworkBlend>>),
    /// Blended and guided, UCB1 (`--selection ucb1 --rollout policy`).
    Guided(Box<TeamSearch<Guided<NetworkBlend>>>),
    /// Blended and guided, PUCT: the default in Legend (docs/strength.md, row R1).
    GuidedPuct(Box<TeamSearch<Guided<NetworkBlend>, Puct>>),
}

/// `$body` on the search of whichever variant `$searches` is, bound to `$search`.
macro_rules! on_search {
    ($searches:expr, $search:ident => $body:expr) => {
        match $searches {
            NetworkSearches::Blend($search) => $body,
            NetworkSearches::Guided($search) => $body,
            NetworkSearches::GuidedPuct($search) => $body,
        }
    };
}

/// The value network `config` plays: the file of `--net-file` (flags only), else the embedded
/// one.
fn network_blend(config: &BotConfig, map: &Map) -> NetworkBlend {
    #[cfg(feature = "cli")]
    if let Some(file) = &config.net_file {
        let network = crate::bot::value_net::file::network_of(&file.values);
        return NetworkBlend::with_network(network, config.eval, map);
    }
    NetworkBlend::embedded(config.eval, map)
}

/// The policy network `config` plays: `--policy-net`'s file, else the embedded one, at
/// `--policy-temperature`.
fn policy_network(config: &BotConfig) -> PolicyNetwork {
    let network = match &config.policy_net {
        Some(file) => PolicyNetwork::from_values_with_actions(&file.values),
        None => embedded::embedded(),
    };
    network.tempered(config.policy_temperature as f32)
}

impl NetworkSearches {
    /// The search `config` plays on `map` if it plays a network: guided by the policy network
    /// (`--policy-net`'s file, else the embedded one) when [`BotConfig::guided`], else the
    /// blend alone when the league's evaluation is the network; `None` for the hand evaluation.
    pub fn of(config: &BotConfig, map: Map, passes_to_finish: u16) -> Option<NetworkSearches> {
        let rollout = config.rollout == Rollout::Policy;
        if !config.guided() {
            if config.evaluation.in_league(config.league) != Evaluation::Net {
                return None;
            }
            let blend = network_blend(config, &map);
            let search = TeamSearch::new(config, map, passes_to_finish, blend);
            return Some(NetworkSearches::Blend(Box::new(search)));
        }
        let policy = policy_network(config);
        let evaluation = Guided::new(network_blend(config, &map), policy, &map, rollout);
        Some(match config.selection_played() {
            SelectionKind::Puct => NetworkSearches::GuidedPuct(Box::new(TeamSearch::new(
                config,
                map,
                passes_to_finish,
                evaluation,
            ))),
            _ => NetworkSearches::Guided(Box::new(TeamSearch::new(
                config,
                map,
                passes_to_finish,
                evaluation,
            ))),
        })
    }

    /// Own pod `index`'s root children from the last turn's search.
    pub fn root_children(&self, index: usize) -> &[Node] {
        on_search!(self, search => search.root_children(index))
    }

    /// [`TeamSearch::root_priors`] of the search.
    #[cfg(feature = "cli")]
    pub fn root_priors(&self, index: usize) -> Option<[f32; crate::bot::actions::ACTION_COUNT]> {
        on_search!(self, search => search.root_priors(index))
    }

    /// [`TeamSearch::decide`] of the search.
    pub fn decide(
        &mut self,
        pods: [FastPod; POD_COUNT],
        clocks: TimeoutClocks,
        roles: [Roles; 2],
        config: &BotConfig,
        first_turn: bool,
        received_at: Instant,
    ) -> (SearchStats, [u8; 2], [u8; 2]) {
        on_search!(self, search => search.decide(pods, clocks, roles, config, first_turn, received_at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::policy_net::{file, network::tests::random_network_with_actions};

    /// `--policy-net FILE` plays the whole file, its action layers included, tempered with the
    /// rest. (Before this test the flag handed the search the position's layers alone: rows
    /// R17 and R17b played their file without its action layers, docs/strength.md.)
    #[test]
    fn the_policy_flag_plays_the_files_action_layers() {
        let text = file::write_text(&random_network_with_actions(41));
        let written = file::parse_text(&text).unwrap();
        let path = std::env::temp_dir().join(format!("csb-policy-flag-{}.txt", std::process::id()));
        std::fs::write(&path, &text).unwrap();
        let config = |extra: &[&str]| {
            let mut args = vec!["--policy-net".to_string(), path.display().to_string()];
            args.extend(extra.iter().map(|arg| arg.to_string()));
            BotConfig::from_args(&args).unwrap()
        };
        let (plain, tempered) = (config(&[]), config(&["--policy-temperature", "2"]));
        let _ = std::fs::remove_file(&path);
        assert!(written.actions.is_some());
        assert_eq!(policy_network(&plain), written);
        assert_eq!(policy_network(&tempered), written.tempered(2.0));
    }
}
