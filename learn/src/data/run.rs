//! A self-play run: its settings and its two bots (flags and decision signatures), what a data
//! directory's manifest records (`manifest.rs`), and what the run's seed decides: game `i` of a
//! run seeded `S` is played on the arena's map of `(S, i)` ([`map_seed`]: a pair of games per
//! map, seats swapped) and written as `game-NNNNNN.csbsp` ([`game_file_name`]).

use crate::data::deep_turns::DeepTurns;
use arena::matches::seeds::game_seed;

/// The referee seed of game `index` of a run seeded `seed`: the arena's (`arena match`), so
/// games `2k` and `2k + 1` share a map with the seats swapped.
pub fn map_seed(seed: u64, index: u64) -> i64 {
    game_seed(seed, index as usize)
}

/// The file name of game `index`.
pub fn game_file_name(index: u64) -> String {
    format!("game-{index:06}.csbsp")
}

/// One bot of a run: its csb flags (words joined by single spaces) and decision signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunBot {
    pub flags: String,
    pub signature: String,
}

/// The run that plays a directory's games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub seed: u64,
    /// Games of the whole run (all shards).
    pub games: u64,
    pub iterations: u64,
    pub nodes: usize,
    /// A share of the turns searched with more iterations (`deep_turns.rs`), if any.
    pub deep: Option<DeepTurns>,
    /// The first bot (`--bot-args`) and its opponent (`--opponent-args`, the first's flags in
    /// self-play).
    pub bots: [RunBot; 2],
}

impl Run {
    /// The settings every manifest holds as `(key, value)` in the manifest's order (the game
    /// count apart; the deep turns, where the run has them, come after them).
    pub(crate) fn settings(&self) -> [(&'static str, String); 7] {
        [
            ("seed", self.seed.to_string()),
            ("iterations", self.iterations.to_string()),
            ("nodes", self.nodes.to_string()),
            ("bot-flags", self.bots[0].flags.clone()),
            ("bot-signature", self.bots[0].signature.clone()),
            ("opponent-flags", self.bots[1].flags.clone()),
            ("opponent-signature", self.bots[1].signature.clone()),
        ]
    }

    /// The first setting (the game count apart) where `self` and `other` differ, as
    /// `key (self's value, other's value)`.
    pub(crate) fn first_difference(&self, other: &Run) -> Option<(&'static str, String, String)> {
        self.settings()
            .into_iter()
            .zip(other.settings())
            .find(|((_, mine), (_, theirs))| mine != theirs)
            .map(|((key, mine), (_, theirs))| (key, mine, theirs))
            .or_else(|| {
                (self.deep != other.deep).then(|| {
                    let shown = DeepTurns::setting_text;
                    ("deep-turns", shown(self.deep), shown(other.deep))
                })
            })
    }
}
