//! A generation's folder (`gen-NNN`, named by [`folder_name`]) and its state (`state.txt`, in
//! the manifest format): its number, its parent, the parent's files' SHA-256, its hand share,
//! its settings and the steps done; the root's pointer to the best generation (`best.txt`);
//! the generation folders under a root, and the training folders inside one.

use crate::common::manifest::Manifest;
use crate::data::deep_turns::DeepTurns;
use crate::generation::settings::{OutsideData, Settings, DEFAULT_POLICY_LEARNING_RATE};
use crate::value::target::Target;
use std::path::{Path, PathBuf};

/// The state file of a generation's folder.
pub const STATE_FILE: &str = "state.txt";

/// The root's pointer to the best generation.
pub const BEST_FILE: &str = "best.txt";

const STATE_KIND: &str = "csb-generation 1";

const BEST_KIND: &str = "csb-best-generation 1";

/// A generation folder's name.
pub fn folder_name(generation: u32) -> String {
    format!("gen-{generation:03}")
}

/// One generation's state: its number, the best generation that made it, the settings, and
/// the steps done (`(step, details)` in order).
#[derive(Clone, Debug)]
pub struct State {
    pub generation: u32,
    pub parent: u32,
    pub parent_network_sha256: String,
    /// The parent's policy file's SHA-256 (`None` in a state written before generations
    /// trained the policy).
    pub parent_policy_sha256: Option<String>,
    pub hand_share: f32,
    pub settings: Option<Settings>,
    pub steps: Vec<(String, String)>,
}

impl State {
    fn manifest(&self) -> Manifest {
        let mut manifest = Manifest::new(STATE_KIND);
        manifest.push("generation", self.generation);
        manifest.push("parent", self.parent);
        manifest.push("parent-network-sha256", &self.parent_network_sha256);
        if let Some(sha) = &self.parent_policy_sha256 {
            manifest.push("parent-policy-sha256", sha);
        }
        manifest.push("hand-share", self.hand_share);
        if let Some(settings) = &self.settings {
            for (key, value) in settings.entries() {
                manifest.push(key, value);
            }
        }
        for (step, details) in &self.steps {
            manifest.push("step", format!("{step} {details}"));
        }
        manifest
    }

    pub fn write(&self, dir: &Path) -> Result<(), String> {
        self.manifest().write(&dir.join(STATE_FILE))
    }

    /// The state in `dir`, `None` when there is none.
    pub fn read(dir: &Path) -> Result<Option<State>, String> {
        let path = dir.join(STATE_FILE);
        let Some(manifest) = Manifest::read(&path, STATE_KIND)? else {
            return Ok(None);
        };
        let error = |message: String| format!("{}: {message}", path.display());
        let field = |key: &str| manifest.require(key, "the state").map_err(error);
        let number = |key: &str| -> Result<f64, String> {
            let value = field(key)?;
            value
                .parse()
                .map_err(|_| error(format!("`{key}:` is {value:?}, not a number")))
        };
        // A switch added after states were first written: a missing entry reads as no.
        let switch = |key: &str| match manifest.get(key) {
            None | Some("no") => Ok(false),
            Some("yes") => Ok(true),
            Some(other) => Err(error(format!("`{key}:` is {other:?}, not yes or no"))),
        };
        let settings = if manifest.get("games").is_some() {
            Some(Settings {
                games: number("games")? as u64,
                iterations: number("iterations")? as u64,
                nodes: number("nodes")? as usize,
                deep: DeepTurns::parse_setting(manifest.get("deep-turns")).map_err(error)?,
                window: number("window")? as usize,
                // A state from before outside data had none.
                window_data: manifest
                    .all("window-data")
                    .map(OutsideData::parse_setting)
                    .collect::<Result<_, _>>()
                    .map_err(error)?,
                epochs: number("epochs")? as usize,
                batch: number("batch")? as usize,
                learning_rate: number("learning-rate")?,
                // A state from before generations trained the policy kept its parent's.
                policy_epochs: match manifest.get("policy-epochs") {
                    None => 0,
                    Some(_) => number("policy-epochs")? as usize,
                },
                policy_learning_rate: match manifest.get("policy-learning-rate") {
                    None => DEFAULT_POLICY_LEARNING_RATE,
                    Some(_) => number("policy-learning-rate")?,
                },
                hand_share_start: number("hand-share-start")? as f32,
                hand_share_generations: number("hand-share-generations")? as u32,
                target: Target::parse(field("target")?).map_err(error)?,
                // A state from before the TD rounds trained once.
                td_rounds: match manifest.get("td-rounds") {
                    None => 1,
                    Some(_) => number("td-rounds")? as usize,
                },
                // States from before warm starts, tempering and inputs per action trained from
                // the seed's weights, played the trained policy as trained, and without them.
                warm_start: switch("warm-start")?,
                temper_policy: switch("temper-policy")?,
                action_inputs: switch("action-inputs")?,
                action_context: switch("action-context")?,
                action_middle: switch("action-middle")?,
                // A state from before trained the policy on the games as played, at a
                // constant rate.
                policy_mirror: switch("policy-mirror")?,
                policy_anneal: switch("policy-anneal")?,
                // A state from before the choice carried the trained value network.
                select_value: switch("select-value")?,
                gate_games: number("gate-games")? as u64,
                gate_iterations: number("gate-iterations")? as u64,
                // A state from before clocked gates played its gate at fixed iterations.
                gate_budget_ms: match manifest.get("gate-budget-ms") {
                    None | Some("none") => None,
                    Some(_) => Some(number("gate-budget-ms")?),
                },
                sprt: (number("sprt-elo0")?, number("sprt-elo1")?),
                // A state from before the switch promoted on an accepted gate alone.
                promote_inconclusive: switch("promote-inconclusive")?,
                seed: number("seed")? as u64,
            })
        } else {
            None
        };
        let steps = manifest
            .all("step")
            .map(|entry| {
                let (step, details) = entry.split_once(' ').unwrap_or((entry, ""));
                (step.to_string(), details.to_string())
            })
            .collect();
        Ok(Some(State {
            generation: number("generation")? as u32,
            parent: number("parent")? as u32,
            parent_network_sha256: field("parent-network-sha256")?.to_string(),
            parent_policy_sha256: manifest.get("parent-policy-sha256").map(str::to_string),
            hand_share: number("hand-share")? as f32,
            settings,
            steps,
        }))
    }

    /// The details of step `step` when it is done.
    pub fn step(&self, step: &str) -> Option<&str> {
        self.steps
            .iter()
            .find(|(name, _)| name == step)
            .map(|(_, details)| details.as_str())
    }

    pub(crate) fn done(&mut self, dir: &Path, step: &str, details: String) -> Result<(), String> {
        self.steps.push((step.to_string(), details));
        self.write(dir)
    }
}

/// The best generation: its number (`best.txt` of the root, generation 1 when there is none).
pub fn best_generation(root: &Path) -> Result<u32, String> {
    let path = root.join(BEST_FILE);
    match Manifest::read(&path, BEST_KIND)? {
        None => Ok(1),
        Some(manifest) => {
            let value = manifest.require("generation", "best.txt")?;
            value
                .parse()
                .map_err(|_| format!("{}: `generation:` is {value:?}", path.display()))
        }
    }
}

pub(crate) fn write_best(root: &Path, generation: u32) -> Result<(), String> {
    let mut manifest = Manifest::new(BEST_KIND);
    manifest.push("generation", generation);
    manifest.push("folder", folder_name(generation));
    manifest.write(&root.join(BEST_FILE))
}

/// The generation folders under `root` with their states, by number.
pub fn generations(root: &Path) -> Result<Vec<(PathBuf, State)>, String> {
    let mut found = Vec::new();
    let entries = match std::fs::read_dir(root) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        other => other.map_err(|error| format!("cannot read {}: {error}", root.display()))?,
    };
    for entry in entries {
        let path = entry
            .map_err(|error| format!("cannot read {}: {error}", root.display()))?
            .path();
        let is_generation = path
            .file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| name.starts_with("gen-"));
        if is_generation {
            if let Some(state) = State::read(&path)? {
                found.push((path, state));
            }
        }
    }
    found.sort_by_key(|(_, state)| state.generation);
    Ok(found)
}

/// The policy's training folder in a generation's, and its report there (`learn
/// train-policy`'s: the test split's figures).
pub const POLICY_TRAIN_FOLDER: &str = "train-policy";

pub const POLICY_REPORT_FILE: &str = "report.txt";

/// With `--temper-policy`: the trained policy's file before tempering, and `learn
/// temper-policy`'s report (the temperature, and the test split's figures before and after), in
/// the policy's training folder.
pub const TRAINED_POLICY_FILE: &str = "policy-trained.txt";

pub const TEMPER_REPORT_FILE: &str = "temper.txt";

/// The training folder of TD round `round` (1-based) of `rounds`: the last round's is the
/// generation's `train` (its model is the generation's), the ones before it `td-round-R`.
pub(crate) fn td_round_dir(dir: &Path, round: usize, rounds: usize) -> PathBuf {
    if round == rounds {
        dir.join("train")
    } else {
        dir.join(format!("td-round-{round}"))
    }
}
