//! The policy network's training set: every recorded position (both players' views, each with
//! its own search's root statistics) as one view's inputs (the bot's features,
//! `csb::bot::value_net::features`), and per own pod, in the features' slot order (runner,
//! blocker), the targets: the root's visit counts as a distribution over the 10 actions, and the
//! root's visit-weighted mean score (what that pod's tree backed up) as its value, and its inputs
//! per action (`csb::bot::policy_net::action_inputs`, read by a policy trained with them). A pod whose
//! root was never expanded (no visits) is masked out. Split by map as the value network's data
//! (`data::split::split_of_map`), read only when the files are their manifest's.

use crate::data::game_file::{parse_game, GameRecord, PositionRecord, STAT_ACTIONS};
use crate::data::manifest::{verified_games, DataManifest};
use crate::data::mirror::mirrored;
use crate::data::position::fast_pods;
use crate::data::split::{split_of_map, Split};
use csb::bot::actions::ACTION_COUNT;
use csb::bot::policy_net::action_inputs::{action_inputs, ACTION_INPUTS};
use csb::bot::timeout_clocks::TimeoutClocks;
use csb::bot::value_net::course::Course;
use csb::bot::value_net::features::{Inputs, FEATURE_COUNT};
use csb::engine::Map;
use std::path::Path;

/// Positions as flat arrays, row-major.
#[derive(Clone, Debug, Default)]
pub struct PolicySamples {
    /// `FEATURE_COUNT` inputs per sample (the viewing player's view).
    pub inputs: Vec<f32>,
    /// `2 × STAT_ACTIONS` per sample: the runner's visit distribution, then the blocker's.
    pub visits: Vec<f32>,
    /// 2 per sample: the runner's and the blocker's root mean score, in [0, 1].
    pub values: Vec<f32>,
    /// 2 per sample: 1 where the slot's pod had root visits, else 0.
    pub masks: Vec<f32>,
    /// [`ACTION_VALUES`] per sample: per slot, per action, its [`ACTION_INPUTS`] inputs.
    pub action_inputs: Vec<f32>,
}

/// Inputs per action of one sample: both slots' ten actions'.
pub const ACTION_VALUES: usize = 2 * ACTION_COUNT * ACTION_INPUTS;

impl PolicyDataSet {
    /// The hash that names the data, as the value network's data set's
    /// ([`crate::data::manifest::window_sha256`]).
    pub fn data_sha256(&self) -> String {
        crate::data::manifest::window_sha256(&self.manifest, &self.window)
    }
}

impl PolicySamples {
    pub fn len(&self) -> usize {
        self.inputs.len() / FEATURE_COUNT
    }

    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
    }

    /// Appends `other`'s samples.
    fn extend(&mut self, other: PolicySamples) {
        self.inputs.extend(other.inputs);
        self.visits.extend(other.visits);
        self.values.extend(other.values);
        self.masks.extend(other.masks);
        self.action_inputs.extend(other.action_inputs);
    }
}

/// Training, validation and test samples with their directory's manifest.
#[derive(Clone, Debug)]
pub struct PolicyDataSet {
    pub train: PolicySamples,
    pub validation: PolicySamples,
    pub test: PolicySamples,
    pub games: usize,
    pub manifest: DataManifest,
    /// Older data directories read with it ([`load_window`], a generation's window) and their
    /// data hashes, oldest first; empty for one directory.
    pub window: Vec<(std::path::PathBuf, String)>,
    /// The fewest root visits of a position read (0: every position).
    pub min_visits: u32,
    /// Whether the training split holds each game's reflection too (`data::mirror`).
    pub mirror: bool,
}

impl PolicyDataSet {
    /// The report's line naming the positions read with `--min-visits` (none without it).
    pub fn positions_line(&self) -> Option<String> {
        (self.min_visits > 0).then(|| {
            format!(
                "positions: those searched at least {} iterations only (--min-visits)",
                self.min_visits
            )
        })
    }

    /// The report's line saying the training split holds the games' reflections (none
    /// without `--mirror`).
    pub fn mirror_line(&self) -> Option<String> {
        self.mirror.then(|| {
            "training positions: each game's and its reflection's (--mirror); validation and \
             test: the games as played"
                .to_string()
        })
    }
}

/// Adds every position of `game` (both views) whose search ran at least `min_visits`
/// iterations (its own pods' root visits; 0 keeps all) to `samples`: with deep turns
/// (`data/deep_turns.rs`), the deep searches' positions alone.
pub fn add_game(
    game: &GameRecord,
    samples: &mut PolicySamples,
    min_visits: u32,
) -> Result<(), String> {
    let map = Map::new(&game.checkpoints).map_err(|error| format!("bad course: {error}"))?;
    let course = Course::new(&map);
    let passes_to_finish = game.laps * map.checkpoint_count() as u16;
    for position in &game.positions {
        if root_visits(position) < min_visits {
            continue;
        }
        // The record's own pods come first: its player 0 is the viewing player.
        let pods = fast_pods(&position.pods, &map);
        let legs = pods.map(|pod| course.leg(pod.next_checkpoint as usize));
        let clocks = TimeoutClocks::new(position.timeout_left);
        let inputs = Inputs::of(&pods, &map, &legs, passes_to_finish, clocks);
        samples.inputs.extend_from_slice(&inputs.view(0));
        let opposing_runner = inputs.slot_pod(0, 2);
        for slot in 0..2 {
            let rows = action_inputs(&pods, &course, inputs.slot_pod(0, slot), opposing_runner);
            samples.action_inputs.extend(rows.iter().flatten());
        }
        for slot in 0..2 {
            let stats = &position.stats[inputs.slot_pod(0, slot)];
            let total: u32 = stats.iter().map(|stat| stat.visits).sum();
            let weighted: f64 = stats
                .iter()
                .map(|stat| f64::from(stat.visits) * stat.mean)
                .sum();
            if total == 0 {
                samples.visits.extend([0.0; STAT_ACTIONS]);
                samples.values.push(0.5);
                samples.masks.push(0.0);
            } else {
                let total_f = f64::from(total);
                samples.visits.extend(
                    stats
                        .iter()
                        .map(|stat| (f64::from(stat.visits) / total_f) as f32),
                );
                samples
                    .values
                    .push((weighted / total_f).clamp(0.0, 1.0) as f32);
                samples.masks.push(1.0);
            }
        }
    }
    Ok(())
}

/// The most root visits of a position's own pods: the iterations its search ran.
fn root_visits(position: &PositionRecord) -> u32 {
    position.stats[..2]
        .iter()
        .map(|stats| stats.iter().map(|stat| stat.visits).sum::<u32>())
        .max()
        .unwrap_or(0)
}

/// Reads the games of `dir`, checked against its manifest, into the three splits, the
/// positions searched at least `min_visits` iterations only ([`add_game`]; errors as
/// `value::dataset::load`'s: one line each).
pub fn load(dir: &Path, min_visits: u32) -> Result<PolicyDataSet, String> {
    load_window(dir, &[], min_visits, false)
}

/// The games of `dir`, checked against its manifest, in their splits; the splits may be empty.
/// With `mirror`, the training split holds each of its games' reflections too.
fn read_dir(dir: &Path, min_visits: u32, mirror: bool) -> Result<PolicyDataSet, String> {
    let (mut train, mut validation, mut test) = Default::default();
    let mut games = 0;
    let manifest = verified_games(dir, |path, text| {
        let game = parse_game(text).map_err(|error| format!("{}: {error}", path.display()))?;
        let samples = match split_of_map(game.map_seed) {
            Split::Train => &mut train,
            Split::Validation => &mut validation,
            Split::Test => &mut test,
        };
        let add = |game: &GameRecord, samples: &mut PolicySamples| {
            add_game(game, samples, min_visits)
                .map_err(|error| format!("{}: {error}", path.display()))
        };
        if mirror && split_of_map(game.map_seed) == Split::Train {
            add(&mirrored(&game), samples)?;
        }
        add(&game, samples)?;
        games += 1;
        Ok(())
    })?;
    Ok(PolicyDataSet {
        train,
        validation,
        test,
        games,
        manifest,
        window: Vec::new(),
        min_visits,
        mirror,
    })
}

/// Reads `newest` and the older directories `older` (each checked against its manifest, as
/// [`load`], positions of at least `min_visits` iterations) as one data set, as the value
/// network's `value::dataset::load_window` does. Each split must hold a position in the end
/// (an older directory of fast searches only adds none under `min_visits`). With `mirror`, the
/// training split holds each of its games' reflections too (`data::mirror`).
pub fn load_window(
    newest: &Path,
    older: &[std::path::PathBuf],
    min_visits: u32,
    mirror: bool,
) -> Result<PolicyDataSet, String> {
    let mut data = read_dir(newest, min_visits, mirror)?;
    for dir in older {
        let set = read_dir(dir, min_visits, mirror)?;
        data.window.push((dir.clone(), set.manifest.data_sha256()));
        data.games += set.games;
        data.train.extend(set.train);
        data.validation.extend(set.validation);
        data.test.extend(set.test);
    }
    if data.train.is_empty() || data.validation.is_empty() || data.test.is_empty() {
        let searched = if min_visits > 0 {
            format!(" searched at least {min_visits} iterations (--min-visits)")
        } else {
            String::new()
        };
        return Err(format!(
            "{} holds {} games: each split (training, validation, test, by map) needs a \
             position{searched}",
            newest.display(),
            data.games,
        ));
    }
    Ok(data)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::data::deep_turns::DeepTurns;
    use crate::selfplay::play::{play_game, Contestant};
    use csb::bot::config::BotConfig;

    /// A short self-play game of run `seed`, number `game`, both bots at 30 iterations (with
    /// `deep` turns searched deeper).
    pub(crate) fn quick_game(seed: u64, game: u64, deep: Option<DeepTurns>) -> GameRecord {
        let contestant = Contestant {
            name: "csb".to_string(),
            config: BotConfig {
                iterations: Some(30),
                nodes_per_agent: 20_000,
                ..BotConfig::default()
            },
            deep,
        };
        play_game(seed, game, &[contestant.clone(), contestant]).unwrap()
    }

    /// `min_visits` keeps the deep turns' positions of a game with deep turns, and only them.
    #[test]
    fn min_visits_keeps_the_deep_searches_only() {
        let game = quick_game(5, 2, Some(DeepTurns::new(90, 0.5, 30).unwrap()));
        let deep = game
            .positions
            .iter()
            .filter(|position| root_visits(position) > 30)
            .count();
        assert!(deep > 0 && deep < game.positions.len());
        let mut every = PolicySamples::default();
        add_game(&game, &mut every, 0).unwrap();
        assert_eq!(every.len(), game.positions.len());
        let mut deep_only = PolicySamples::default();
        add_game(&game, &mut deep_only, 31).unwrap();
        assert_eq!(deep_only.len(), deep);
        assert_eq!(deep_only.action_inputs.len(), deep * ACTION_VALUES);
        let mut none = PolicySamples::default();
        add_game(&game, &mut none, 91).unwrap();
        assert!(none.is_empty());
    }
}
