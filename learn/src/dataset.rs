//! The training set: self-play positions turned into the bot's features (both teams' views) and
//! targets (the game's result), with the hand evaluation's advantage beside them for the
//! baseline. Games whose index is a multiple of [`VALIDATION_EVERY`] are held out for validation,
//! so no position of a validation game is trained on.
//!
//! Only the `view 0` line of each turn is used: with the network's value
//! `g(own view) − g(their view)`, the `view 1` line is the same sample mirrored and would add
//! the same loss again.

use crate::game_file::{parse_game, GameRecord, PodRecord};
use csb::bot::evaluation::{player0_advantage, progress, EvalWeights, Roles};
use csb::bot::value_net::features::{features, swap_teams, FEATURE_COUNT};
use csb::engine::{FastPod, Map, Pod, Vec2};
use std::path::Path;

/// Every this many games (by index), one is held out for validation.
pub const VALIDATION_EVERY: u64 = 10;

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

    /// Sets the training targets to `result_weight × result + (1 − result_weight) ×
    /// σ(slope × future advantage / 10,000 + intercept)`, the result alone where the game ended
    /// within [`LOOKAHEAD_TURNS`]: a denser signal than one result per game, which a few thousand
    /// games cannot give a network without it memorising them.
    pub fn bootstrap(&mut self, result_weight: f32, slope: f64, intercept: f64) {
        self.targets = self
            .results
            .iter()
            .zip(&self.future_hand)
            .map(|(&result, &future)| {
                if future.is_nan() {
                    result
                } else {
                    let logit = slope * f64::from(future) / 10_000.0 + intercept;
                    let later = (1.0 / (1.0 + (-logit).exp())) as f32;
                    result_weight * result + (1.0 - result_weight) * later
                }
            })
            .collect();
    }
}

/// The training and validation sets.
#[derive(Clone, Debug, Default)]
pub struct DataSet {
    pub train: Samples,
    pub validation: Samples,
    pub games: usize,
}

/// The engine pod of a recorded pod.
pub fn engine_pod(record: &PodRecord) -> Pod {
    Pod {
        pos: Vec2::new(f64::from(record.x), f64::from(record.y)),
        vel: Vec2::new(f64::from(record.vx), f64::from(record.vy)),
        angle_rad: record.angle_rad,
        passes: record.passes,
        last_pass_turn: 0,
        boost_used: record.boost_used,
        shield_lock_turns: record.shield_lock_turns,
    }
}

/// The search's pods of a recorded position (an unset angle faces the next checkpoint, as the
/// bot assumes).
pub fn fast_pods(pods: &[PodRecord; 4], map: &Map) -> [FastPod; 4] {
    pods.map(|record| {
        let pod = engine_pod(&record);
        let next = map.checkpoint(usize::from(record.next_checkpoint));
        let fallback = (next.y - pod.pos.y).atan2(next.x - pod.pos.x);
        let mut fast = FastPod::from_pod(&pod, map.checkpoint_count(), fallback);
        fast.next_checkpoint = record.next_checkpoint;
        fast
    })
}

/// The hand evaluation's roles: each team's runner the pod with more progress.
pub fn hand_roles(pods: &[FastPod; 4], map: &Map) -> [Roles; 2] {
    [0, 2].map(|first| {
        let (runner, blocker) = if progress(&pods[first + 1], map) > progress(&pods[first], map) {
            (first + 1, first)
        } else {
            (first, first + 1)
        };
        Roles {
            runner,
            blocker,
            blocker_races: false,
        }
    })
}

/// Adds the `view 0` positions of `game` to `samples`.
pub fn add_game(game: &GameRecord, samples: &mut Samples) -> Result<(), String> {
    let map = Map::new(&game.checkpoints).map_err(|error| format!("bad course: {error}"))?;
    let passes_to_finish = game.laps * map.checkpoint_count() as u16;
    let weights = EvalWeights::default();
    let mut own = [0.0; FEATURE_COUNT];
    let mut theirs = [0.0; FEATURE_COUNT];
    let first = samples.len();
    for position in game.positions.iter().filter(|position| position.view == 0) {
        let pods = fast_pods(&position.pods, &map);
        features(&pods, &map, passes_to_finish, &mut own);
        features(&swap_teams(&pods), &map, passes_to_finish, &mut theirs);
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

/// Reads every `*.csbsp` file of `dir`. Errors (one line each): a missing or unreadable
/// directory, a directory without games, a malformed file (named, with its line).
pub fn load(dir: &Path) -> Result<DataSet, String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|error| format!("cannot read the data directory {}: {error}", dir.display()))?;
    let mut paths = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|error| format!("cannot read the data directory {}: {error}", dir.display()))?
            .path();
        if path
            .extension()
            .is_some_and(|extension| extension == "csbsp")
        {
            paths.push(path);
        }
    }
    paths.sort();
    if paths.is_empty() {
        return Err(format!(
            "no game files (*.csbsp) in {}: run `learn selfplay --out {}` first",
            dir.display(),
            dir.display()
        ));
    }
    let mut data = DataSet::default();
    for path in &paths {
        let text = std::fs::read_to_string(path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        let game = parse_game(&text).map_err(|error| format!("{}: {error}", path.display()))?;
        let samples = if game.index % VALIDATION_EVERY == 0 {
            &mut data.validation
        } else {
            &mut data.train
        };
        add_game(&game, samples).map_err(|error| format!("{}: {error}", path.display()))?;
        data.games += 1;
    }
    if data.train.is_empty() || data.validation.is_empty() {
        return Err(format!(
            "{} holds {} games: too few for a training and a validation set (game indices that \
             are multiples of {VALIDATION_EVERY} validate)",
            dir.display(),
            data.games
        ));
    }
    Ok(data)
}
