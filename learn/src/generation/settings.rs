//! What one turn of the loop is asked to do (`Settings`, recorded in the generation's state, so
//! a generation is finished with the settings it began with) and where it keeps things
//! (`Places`: the generations' folders, the kept ones, the ladder's roster, the table).

use crate::data::deep_turns::DeepTurns;
use crate::data::manifest::{DataManifest, MANIFEST_FILE};
use crate::value::target::Target;
use std::path::{Path, PathBuf};

/// The policy's learning rate (`learn train-policy --learning-rate`) of the embedded policy's
/// training (docs/strength.md).
pub const DEFAULT_POLICY_LEARNING_RATE: f64 = 3e-3;

/// The settings of one generation, recorded in its state file.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Self-play games of the generation.
    pub games: u64,
    /// Search iterations a turn in self-play.
    pub iterations: u64,
    /// Nodes per search tree.
    pub nodes: usize,
    /// A share of self-play's turns searched with more iterations (KataGo's playout-cap
    /// randomisation, `data/deep_turns.rs`), whose positions alone train the policy.
    pub deep: Option<DeepTurns>,
    /// Generations whose data the next network trains on (this one and the ones before).
    pub window: usize,
    /// Self-play folders from outside the loop that join the window (`--window-data`): games
    /// a generation's networks played on another machine, or by `learn selfplay` at the loop's
    /// settings, standing in for generations whose games are not on this machine.
    pub window_data: Vec<OutsideData>,
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f64,
    /// Epochs of the policy's training (0: the generation keeps its parent's policy) and its
    /// learning rate.
    pub policy_epochs: usize,
    pub policy_learning_rate: f64,
    /// The hand evaluation's share of the target at generation 1 and the generations it takes
    /// to fall to 0.
    pub hand_share_start: f32,
    pub hand_share_generations: u32,
    pub target: Target,
    /// Trainings of the value network in a row (fitted TD, `scripts/td-chain.sh`'s way): the
    /// first bootstraps a TD target from the parent's network, each later one from the network
    /// the one before it trained. 1 is one training; a `result` or `root` target takes 1.
    pub td_rounds: usize,
    /// Whether the trainings start from the parent's networks (the value network's first TD
    /// round from the parent's, each later round from the one before it; the policy from the
    /// parent's policy) instead of from the seed's weights: a warm start, as AlphaZero's and
    /// KataGo's networks keep training from one generation to the next.
    pub warm_start: bool,
    /// Whether a trained policy is tempered to its parent's sharpness (`learn temper-policy`:
    /// its action logits divided by the temperature at which its priors' mean entropy on the
    /// validation split is the parent's), since PUCT explores in proportion to the priors.
    pub temper_policy: bool,
    /// Whether the policy is trained with inputs per action (`learn train-policy
    /// --action-inputs`, `csb::bot::policy_net::action_inputs`).
    pub action_inputs: bool,
    /// Whether the policy's action layers have a context layer (`learn train-policy
    /// --action-context`, `ActionLayers::context`).
    pub action_context: bool,
    /// Whether the policy's action layers have a second layer (`learn train-policy
    /// --action-middle`, `ActionLayers::middle`).
    pub action_middle: bool,
    /// Whether the policy trains on each training game's reflection too (`learn train-policy
    /// --mirror`, `data::mirror`).
    pub policy_mirror: bool,
    /// Whether the policy's learning rate is annealed to zero (`learn train-policy --anneal`).
    pub policy_anneal: bool,
    /// Whether the generation keeps the trained value network only when it scores a lower
    /// log-loss than its parent's on the window's test split, and its parent's otherwise
    /// (`select.rs`).
    pub select_value: bool,
    /// Most games of the gate (pairs: rounded up to even) and its iterations a turn.
    pub gate_games: u64,
    pub gate_iterations: u64,
    /// The gate on the clock instead of at `gate_iterations`: both bots search this many
    /// milliseconds a turn and ten times it on the first (the real control: 50, and 500 first),
    /// with the bot's own node pools. Rows R13–R16 found gains and losses at a fraction of the
    /// real control's iterations that were gone at it (docs/strength.md).
    pub gate_budget_ms: Option<f64>,
    /// The SPRT's Elo bounds.
    pub sprt: (f64, f64),
    /// Whether a gate that ends its games undecided promotes the candidate too: "not measurably
    /// worse", as AlphaZero replaced its network without a gate and Leela Zero dropped its
    /// 55% one. With bounds such as [-25, 25] the gate then refuses only a candidate the SPRT
    /// finds worse.
    pub promote_inconclusive: bool,
    /// The loop's seed: self-play and gate seeds derive from it and the generation.
    pub seed: u64,
}

/// A self-play folder from outside the loop in the window, with the data-sha256 of its
/// manifest when the generation began: a resumed generation trains on the same games.
#[derive(Clone, Debug, PartialEq)]
pub struct OutsideData {
    pub dir: PathBuf,
    pub data_sha256: String,
}

impl OutsideData {
    /// The folder `dir` as it is now: refused unless it holds a self-play manifest.
    pub fn read(dir: &Path) -> Result<OutsideData, String> {
        let manifest = DataManifest::read(dir)?.ok_or_else(|| {
            format!(
                "{} holds no self-play data (no {MANIFEST_FILE}): --window-data takes a folder \
                 `learn selfplay` wrote",
                dir.display()
            )
        })?;
        Ok(OutsideData {
            dir: dir.to_path_buf(),
            data_sha256: manifest.data_sha256(),
        })
    }

    /// Its state entry: the data's SHA-256, a space, the folder.
    fn setting_text(&self) -> String {
        format!("{} {}", self.data_sha256, self.dir.display())
    }

    /// Reads a state entry written by [`OutsideData::setting_text`].
    pub(crate) fn parse_setting(text: &str) -> Result<OutsideData, String> {
        match text.split_once(' ') {
            Some((sha, dir)) if sha.len() == 64 && !dir.is_empty() => Ok(OutsideData {
                dir: PathBuf::from(dir),
                data_sha256: sha.to_string(),
            }),
            _ => Err(format!(
                "`window-data:` is {text:?}, not a data-sha256 and a folder"
            )),
        }
    }
}

impl Settings {
    /// The state's entries, in order; `window-data` once per outside folder (none without).
    pub(crate) fn entries(&self) -> Vec<(&'static str, String)> {
        let mut entries = vec![
            ("games", self.games.to_string()),
            ("iterations", self.iterations.to_string()),
            ("nodes", self.nodes.to_string()),
            ("deep-turns", DeepTurns::setting_text(self.deep)),
            ("window", self.window.to_string()),
            ("epochs", self.epochs.to_string()),
            ("batch", self.batch.to_string()),
            ("learning-rate", self.learning_rate.to_string()),
            ("policy-epochs", self.policy_epochs.to_string()),
            (
                "policy-learning-rate",
                self.policy_learning_rate.to_string(),
            ),
            ("hand-share-start", self.hand_share_start.to_string()),
            (
                "hand-share-generations",
                self.hand_share_generations.to_string(),
            ),
            ("target", self.target.to_string()),
            ("td-rounds", self.td_rounds.to_string()),
            ("warm-start", yes_no(self.warm_start)),
            ("temper-policy", yes_no(self.temper_policy)),
            ("action-inputs", yes_no(self.action_inputs)),
            ("action-context", yes_no(self.action_context)),
            ("action-middle", yes_no(self.action_middle)),
            ("policy-mirror", yes_no(self.policy_mirror)),
            ("policy-anneal", yes_no(self.policy_anneal)),
            ("select-value", yes_no(self.select_value)),
            ("gate-games", self.gate_games.to_string()),
            ("gate-iterations", self.gate_iterations.to_string()),
            (
                "gate-budget-ms",
                self.gate_budget_ms
                    .map_or("none".to_string(), |budget_ms| budget_ms.to_string()),
            ),
            ("sprt-elo0", self.sprt.0.to_string()),
            ("sprt-elo1", self.sprt.1.to_string()),
            ("promote-inconclusive", yes_no(self.promote_inconclusive)),
            ("seed", self.seed.to_string()),
        ];
        // Last, one line per folder: the state reads them back in order.
        entries.extend(
            self.window_data
                .iter()
                .map(|outside| ("window-data", outside.setting_text())),
        );
        entries
    }
}

/// A switch as the state writes it (`State::read` reads a missing entry as no).
fn yes_no(switch: bool) -> String {
    if switch { "yes" } else { "no" }.to_string()
}

/// Where the loop keeps things and which programs it runs.
#[derive(Clone, Debug)]
pub struct Places {
    /// The generations' folders (data, training, gates): large, not in the repository.
    pub root: PathBuf,
    /// Where promoted generations' models, manifests, network files and states are kept (in
    /// the repository: `learn/generations`).
    pub keep: PathBuf,
    /// The ladder's roster a promoted generation is added to.
    pub players: PathBuf,
    /// The generations table (markdown) and, beside it, the Elo and loss plots.
    pub table: PathBuf,
    /// The `learn` binary (self-play and training run as its subcommands).
    pub learn: PathBuf,
    /// Show progress bars.
    pub progress: bool,
    /// Stop after this step (`selfplay`, `train`, `gate`): a session's share of the work.
    pub stop_after: Option<String>,
    /// Games played at once in self-play and in the gate (one a core); nothing the loop
    /// writes depends on it.
    pub jobs: usize,
}
