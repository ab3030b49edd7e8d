//! The training set: self-play positions turned into the bot's features (both teams' views) and
//! targets (the game's result), with the hand evaluation's advantage beside them for the
//! baseline, split by map into training, validation (early stopping) and test (the figures
//! reported): a map's split is a function of its map seed alone ([`split_of_map`]), so the two
//! games of a map (self-play's games `2k` and `2k + 1`, seats swapped) and any game replayed on
//! it fall in one split, and no test position has a mirrored twin in training. The data are
//! read only when they are the files their manifest lists (`data/manifest.rs`).
//!
//! Only the `view 0` line of each turn is used: with the network's value
//! `g(own view) − g(their view)`, the `view 1` line is the same sample mirrored and would add
//! the same loss again.

use crate::data::game_file::{parse_game, GameRecord, PositionRecord};
use crate::data::manifest::{verified_games, window_sha256, DataManifest};
use crate::data::position::fast_pods;
use crate::data::split::{split_of_map, Split};
use crate::value::target::{root_value, td_lambda, Target};
use csb::bot::evaluation::{player0_advantage, EvalWeights, Roles};
use csb::bot::timeout_clocks::TimeoutClocks;
use csb::bot::value_net::features::{features, swap_teams, FEATURE_COUNT};
use csb::engine::{FastPod, Map};
use std::collections::BTreeSet;
use std::path::Path;

/// Positions with their inputs and targets, in flat arrays (row-major).
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// `FEATURE_COUNT` inputs per sample from player 0's view.
    pub own: Vec<f32>,
    /// The same from player 1's view.
    pub theirs: Vec<f32>,
    /// What the network is trained toward: the result, or a blend with the hand evaluation's
    /// view of a later position ([`Samples::bootstrap`]).
    pub targets: Vec<f32>,
    /// 1 when player 0 won, 0 when it lost, ½ for a draw.
    pub results: Vec<f32>,
    /// The hand evaluation's advantage of player 0 (progress units), for the baseline.
    pub hand: Vec<f32>,
    /// The hand evaluation's advantage [`LOOKAHEAD_TURNS`] turns later in the same game; NaN
    /// when the game ended before.
    pub future_hand: Vec<f32>,
    /// The searches' own value of the position for player 0 (`target::root_value` of both
    /// views' root statistics, player 1's complemented, averaged); NaN without visits.
    pub root: Vec<f32>,
    /// The index of each game's first sample, in order (a game's samples are consecutive).
    pub game_starts: Vec<usize>,
}

/// How far ahead the bootstrapped target looks.
pub const LOOKAHEAD_TURNS: usize = 20;

impl Samples {
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Sets the training targets to `result_weight × learned + (1 − result_weight) ×
    /// σ(slope × future advantage / 10,000 + intercept)`, the learned part alone where the game
    /// ended within [`LOOKAHEAD_TURNS`]: a denser signal than one result per game, which a few
    /// thousand games cannot give a network without it memorising them. `learned` is
    /// `target`'s (`target.rs`): the result, the searches' root value (the result where a
    /// position has none), or TD(λ) over `network_values` (player 0's win probability of
    /// each sample by the network the target bootstraps from; required for TD).
    pub fn bootstrap(
        &mut self,
        result_weight: f32,
        slope: f64,
        intercept: f64,
        target: Target,
        network_values: Option<&[f32]>,
    ) -> Result<(), String> {
        let learned: Vec<f32> = match target {
            Target::Result => self.results.clone(),
            Target::Root => self
                .root
                .iter()
                .zip(&self.results)
                .map(|(&root, &result)| if root.is_nan() { result } else { root })
                .collect(),
            Target::Td { lambda } => {
                let values = network_values
                    .filter(|values| values.len() == self.len())
                    .ok_or("the td target needs the network's value of every position")?;
                let mut learned = Vec::with_capacity(self.len());
                for (index, &start) in self.game_starts.iter().enumerate() {
                    let end = self
                        .game_starts
                        .get(index + 1)
                        .copied()
                        .unwrap_or(self.len());
                    if end > start {
                        let result = self.results[start];
                        learned.extend(td_lambda(&values[start..end], result, lambda));
                    }
                }
                learned
            }
        };
        self.targets = learned
            .iter()
            .zip(&self.future_hand)
            .map(|(&learned, &future)| {
                if future.is_nan() {
                    learned
                } else {
                    let logit = slope * f64::from(future) / 10_000.0 + intercept;
                    let later = (1.0 / (1.0 + (-logit).exp())) as f32;
                    result_weight * learned + (1.0 - result_weight) * later
                }
            })
            .collect();
        Ok(())
    }
}

/// The training, validation and test sets, and the manifest of the directory they come from.
#[derive(Clone, Debug)]
pub struct DataSet {
    pub train: Samples,
    pub validation: Samples,
    pub test: Samples,
    pub games: usize,
    /// Distinct maps in training, validation and test.
    pub maps: [usize; 3],
    pub manifest: DataManifest,
    /// Older data directories read with it (`load_window`, a generation's window) and their
    /// data hashes, oldest first; empty for one directory.
    pub window: Vec<(std::path::PathBuf, String)>,
}

impl DataSet {
    /// The hash that names the data: the directory's own ([`DataManifest::data_sha256`]), or
    /// with a window the SHA-256 of every directory's hash, one a line, the window's first.
    pub fn data_sha256(&self) -> String {
        window_sha256(&self.manifest, &self.window)
    }
}

impl Samples {
    /// Appends `other`'s samples (a game's samples stay together).
    fn extend(&mut self, other: Samples) {
        let offset = self.len();
        self.own.extend(other.own);
        self.theirs.extend(other.theirs);
        self.targets.extend(other.targets);
        self.results.extend(other.results);
        self.hand.extend(other.hand);
        self.future_hand.extend(other.future_hand);
        self.root.extend(other.root);
        self.game_starts
            .extend(other.game_starts.iter().map(|start| start + offset));
    }
}

/// Reads `newest` and the older directories `older` (each checked against its manifest, as
/// [`load`]) as one data set: the samples of all, the maps counted once, the manifest
/// `newest`'s, the others named in [`DataSet::window`].
pub fn load_window(newest: &Path, older: &[std::path::PathBuf]) -> Result<DataSet, String> {
    let mut data = load(newest)?;
    if older.is_empty() {
        return Ok(data);
    }
    let mut sets = Vec::new();
    for dir in older {
        sets.push((dir.clone(), load(dir)?));
    }
    for (dir, set) in sets {
        data.window.push((dir, set.manifest.data_sha256()));
        data.games += set.games;
        for split in 0..3 {
            data.maps[split] += set.maps[split];
        }
        data.train.extend(set.train);
        data.validation.extend(set.validation);
        data.test.extend(set.test);
    }
    Ok(data)
}

/// The hand evaluation's roles: each team's runner the pod with more progress (the bot's own
/// rule, `Roles::of_player`, without the timeout guard).
pub fn hand_roles(pods: &[FastPod; 4], map: &Map) -> [Roles; 2] {
    [0, 2].map(|first| Roles::of_player(pods, map, first, false))
}

/// Adds the `view 0` positions of `game` to `samples`.
pub fn add_game(game: &GameRecord, samples: &mut Samples) -> Result<(), String> {
    let map = Map::new(&game.checkpoints).map_err(|error| format!("bad course: {error}"))?;
    let passes_to_finish = game.laps * map.checkpoint_count() as u16;
    let weights = EvalWeights::default();
    let mut own = [0.0; FEATURE_COUNT];
    let mut theirs = [0.0; FEATURE_COUNT];
    let first = samples.len();
    samples.game_starts.push(first);
    let side_value = |position: &PositionRecord| {
        let stats: Vec<(u32, f64)> = position
            .stats
            .iter()
            .flatten()
            .map(|stat| (stat.visits, stat.mean))
            .collect();
        root_value(&stats)
    };
    let their_roots: std::collections::HashMap<u16, f64> = game
        .positions
        .iter()
        .filter(|position| position.view == 1)
        .filter_map(|position| Some((position.turn, 1.0 - side_value(position)?)))
        .collect();
    for position in game.positions.iter().filter(|position| position.view == 0) {
        let roots: Vec<f64> = side_value(position)
            .into_iter()
            .chain(their_roots.get(&position.turn).copied())
            .collect();
        samples.root.push(if roots.is_empty() {
            f32::NAN
        } else {
            (roots.iter().sum::<f64>() / roots.len() as f64) as f32
        });
        let pods = fast_pods(&position.pods, &map);
        let clocks = TimeoutClocks::new(position.timeout_left);
        features(&pods, &map, passes_to_finish, clocks, &mut own);
        let mirror = swap_teams(&pods);
        features(
            &mirror,
            &map,
            passes_to_finish,
            clocks.swapped(),
            &mut theirs,
        );
        let hand = player0_advantage(&pods, &map, &hand_roles(&pods, &map), &weights);
        let result = position.outcome(game.winner).target();
        samples.own.extend_from_slice(&own);
        samples.theirs.extend_from_slice(&theirs);
        samples.targets.push(result);
        samples.results.push(result);
        samples.hand.push(hand as f32);
    }
    // One view-0 position per turn, in turn order.
    let added = samples.len() - first;
    for index in 0..added {
        let later = index + LOOKAHEAD_TURNS;
        let future = if later < added {
            samples.hand[first + later]
        } else {
            f32::NAN
        };
        samples.future_hand.push(future);
    }
    Ok(())
}

/// Reads the games of `dir`, checked against its manifest, into the three splits. Errors (one
/// line each): a missing or unreadable directory, one without games or without a manifest, files
/// that are not the manifest's (`data::manifest::verified_games`), a malformed file (named, with
/// its line), a split left empty.
pub fn load(dir: &Path) -> Result<DataSet, String> {
    let (mut train, mut validation, mut test) = Default::default();
    let mut maps: [BTreeSet<i64>; 3] = Default::default();
    let mut games = 0;
    let manifest = verified_games(dir, |path, text| {
        let game = parse_game(text).map_err(|error| format!("{}: {error}", path.display()))?;
        let (samples, split) = match split_of_map(game.map_seed) {
            Split::Train => (&mut train, 0),
            Split::Validation => (&mut validation, 1),
            Split::Test => (&mut test, 2),
        };
        maps[split].insert(game.map_seed);
        add_game(&game, samples).map_err(|error| format!("{}: {error}", path.display()))?;
        games += 1;
        Ok(())
    })?;
    let data = DataSet {
        train,
        validation,
        test,
        games,
        maps: maps.map(|seeds| seeds.len()),
        manifest,
        window: Vec::new(),
    };
    if data.train.is_empty() || data.validation.is_empty() || data.test.is_empty() {
        return Err(format!(
            "{} holds {} games on {} maps ({} training, {} validation, {} test): each split \
             needs one (a map's split is `split_of_map` of its seed: a tenth test, a tenth \
             validation)",
            dir.display(),
            data.games,
            data.maps.iter().sum::<usize>(),
            data.maps[0],
            data.maps[1],
            data.maps[2]
        ));
    }
    Ok(data)
}
