//! The search's tunables, one line each (`tunable.rs`): what the bot plays by default, the
//! flag that sets each, its range and meaning. A selection policy reads the ones it needs.

use super::tunable::tunables;

/// Deepest tree descent; [`SearchParams::depth`] is at most this.
pub const MAX_DEPTH: usize = 32;

tunables! {
    /// All tunables of the search, with the defaults the bot plays.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct SearchParams {
        /// Tree plies per iteration, 1..=[`MAX_DEPTH`]: the hand evaluation's depth. At the real
        /// control (50 ms a turn) depth 10 beat depth 8 in 19 of 22 games and depth 12 lost to it
        /// 17 of 20, both SPRT [0, 50] decisions (docs/strength.md, rows S1 and S2). The bot
        /// sets it from its `--depth` (`bot/config.rs`), whose default goes with the leaf
        /// evaluation.
        depth: u32 = 10;
        /// C in UCB1; the exploitation term is normalised to [0, 1].
        exploration: f64 = 1.0 => "exploration", "C", finite_non_negative,
            "exploration constant of UCB1";
        /// c of the prior-guided selection (`puct.rs`, `--selection puct`), on scores
        /// normalised to [0, 1]; UCB1 does not read it.
        puct_exploration: f64 = 1.5 => "puct-exploration", "C", finite_non_negative,
            "exploration constant of the prior-guided selection (--selection puct)";
        /// K: while a node has been visited fewer than K times it picks children by the game's
        /// default policy.
        random_visits: u32 = 10 => "random-visits", "K", integer,
            "visits during which a node picks its children at random";
        /// T: a node gets its children only once it has been visited T times; until then its
        /// agent plays the default policy below it and backpropagates no deeper. With 10 random
        /// visits, a node's children are made when it first chooses by UCB1, so the many nodes
        /// that never get that far cost no memory: 24% more simulated turns per turn than
        /// expanding at once, and 55.5% (50.6–60.4%) of 400 games against it at equal time
        /// (docs/strength.md, row I1).
        expand_after: u32 = 10 => "expand-after", "T", integer,
            "visits after which a node gets its children";
        /// γ in (0, 1]: the node at depth d (root children d = 1) receives
        /// γ^(leaf_depth − d) × the leaf score, so earlier terminal wins are worth more. Without
        /// one a win now and a win in two turns look the same; 0.99 against 1.0 was even over
        /// 300 games (docs/strength.md).
        discount: f64 = 0.99 => "discount", "G", positive_fraction,
            "score discount per ply on backpropagation";
    }
}

#[cfg(all(test, feature = "cli"))]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_sets_its_field_and_shows_it_back() {
        let mut params = SearchParams::default();
        for (name, value) in [
            ("exploration", "0.7"),
            ("puct-exploration", "2.5"),
            ("random-visits", "3"),
            ("expand-after", "2"),
            ("discount", "0.95"),
        ] {
            let tunable = SearchParams::TUNABLES
                .iter()
                .find(|tunable| tunable.name == name)
                .unwrap();
            (tunable.set)(&mut params, value).unwrap();
            assert_eq!((tunable.show)(&params), value);
        }
        assert_eq!(
            params,
            SearchParams {
                depth: 10,
                exploration: 0.7,
                puct_exploration: 2.5,
                random_visits: 3,
                expand_after: 2,
                discount: 0.95,
            }
        );
        let exploration = &SearchParams::TUNABLES[0];
        assert!((exploration.set)(&mut params, "-1").is_err());
        assert_eq!(params.exploration, 0.7, "a refused value changes nothing");
    }
}
