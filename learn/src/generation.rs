//! Self-play generations (`learn generation`): one turn of the loop per call. Generation `g`
//! (a folder `gen-NNN` under the root) is made by the current best generation `b`:
//!
//! 1. **selfplay**: `b`'s networks (`csb --eval net --net-file --policy-net`: its value network
//!    at the leaves, its policy's priors in PUCT) play themselves at a fixed iteration count into
//!    `gen-NNN/data` (`learn selfplay`, resumable game by game);
//! 2. **train**: the next value network is trained on the data of the last `window` generations
//!    (`learn train`, resumable epoch by epoch) into `gen-NNN/train`, with the hand
//!    evaluation's share of the target from the schedule (`target::hand_share`); then the next
//!    policy on the same window's root visits and values (`learn train-policy`, seeded, so an
//!    interrupted run trained again ends the same) into `gen-NNN/train-policy`, or with
//!    `--policy-epochs 0` the parent's policy is kept;
//! 3. **gate**: the candidate (`gen-NNN/network.txt` and `policy.txt`) plays `b` in game pairs
//!    (a map each, seats swapped) at a fixed iteration count, in-process on the referee's
//!    engine (`--jobs` games at once, recorded in order), until
//!    arena's SPRT (`arena::stats::sprt`, pentanomial) decides or the game budget ends; each
//!    finished game is appended to `gen-NNN/gate.txt` and never played again;
//! 4. **promote**: accepted, the candidate becomes the best (`best.txt`), its model, manifest,
//!    network file and state are kept (`--keep`, in the repository), it gets a ladder player and
//!    the generations table and plot are written again (`generations_table.rs`); otherwise the
//!    best stays.
//!
//! Each step ends with a line appended to `gen-NNN/state.txt` (written whole, in the
//! manifest format), so a run interrupted at any point resumes where it stopped when the same
//! command is run again: finished games, epochs, gate games and kept files are never played,
//! trained or written again. A folder begun with other settings is refused (one line), as are
//! data or models whose manifests do not match their files (checked by `learn train`).

use crate::common::files::{read_bytes, write_whole};
use crate::common::manifest::{sha256_hex, Manifest};
use crate::data::game_file::GameRecord;
use crate::policy::net_file::{write_embedded_policy, write_policy_model, POLICY_FILE};
use crate::policy::train::POLICY_MODEL_FILE;
use crate::selfplay::play::{play_games, Contestant};
use crate::value::net_file::{write_embedded, write_model, NET_FILE};
use crate::value::target::{hand_share, Target};
use arena::matches::seeds::p1_is_player0;
use arena::stats::pentanomial::Pentanomial;
use arena::stats::sprt::{Decision, Sprt};
use arena::stats::wdl::Wdl;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The state file of a generation's folder.
pub const STATE_FILE: &str = "state.txt";
/// The root's pointer to the best generation.
pub const BEST_FILE: &str = "best.txt";
/// The gate's games, one line each.
pub const GATE_FILE: &str = "gate.txt";
/// The policy's training folder in a generation's, and its report there (`learn
/// train-policy`'s: the test split's figures).
pub const POLICY_TRAIN_FOLDER: &str = "train-policy";
pub const POLICY_REPORT_FILE: &str = "report.txt";
const STATE_KIND: &str = "csb-generation 1";
const BEST_KIND: &str = "csb-best-generation 1";
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
    /// Generations whose data the next network trains on (this one and the ones before).
    pub window: usize,
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
    /// Most games of the gate (pairs: rounded up to even) and its iterations a turn.
    pub gate_games: u64,
    pub gate_iterations: u64,
    /// The SPRT's Elo bounds.
    pub sprt: (f64, f64),
    /// The loop's seed: self-play and gate seeds derive from it and the generation.
    pub seed: u64,
}

impl Settings {
    fn entries(&self) -> [(&'static str, String); 18] {
        [
            ("games", self.games.to_string()),
            ("iterations", self.iterations.to_string()),
            ("nodes", self.nodes.to_string()),
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
            ("gate-games", self.gate_games.to_string()),
            ("gate-iterations", self.gate_iterations.to_string()),
            ("sprt-elo0", self.sprt.0.to_string()),
            ("sprt-elo1", self.sprt.1.to_string()),
            ("seed", self.seed.to_string()),
        ]
    }
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
        let settings = if manifest.get("games").is_some() {
            Some(Settings {
                games: number("games")? as u64,
                iterations: number("iterations")? as u64,
                nodes: number("nodes")? as usize,
                window: number("window")? as usize,
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
                gate_games: number("gate-games")? as u64,
                gate_iterations: number("gate-iterations")? as u64,
                sprt: (number("sprt-elo0")?, number("sprt-elo1")?),
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

    fn done(&mut self, dir: &Path, step: &str, details: String) -> Result<(), String> {
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

fn write_best(root: &Path, generation: u32) -> Result<(), String> {
    let mut manifest = Manifest::new(BEST_KIND);
    manifest.push("generation", generation);
    manifest.push("folder", folder_name(generation));
    manifest.write(&root.join(BEST_FILE))
}

fn create_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir)
        .map_err(|error| format!("cannot create {}: {error}", dir.display()))
}

/// Generation 1, the network on main (embedded in the bot): its folder with its network file
/// and a state that says it is promoted, in the root and among the kept generations. Created
/// once.
fn first_generation(root: &Path, keep: &Path) -> Result<(), String> {
    for folder in [root, keep] {
        first_generation_in(folder)?;
    }
    Ok(())
}

/// Generation 1's folder in `folder` (a root or the kept generations), created once; its
/// policy file (the bot's embedded policy) is added to a folder made before generations
/// trained the policy.
pub fn first_generation_in(folder: &Path) -> Result<(), String> {
    let dir = folder.join(folder_name(1));
    if State::read(&dir)?.is_none() {
        create_dir(&dir)?;
        write_embedded(&dir.join(NET_FILE))?;
        first_state(&dir)?;
    }
    if !dir.join(POLICY_FILE).exists() {
        write_embedded_policy(&dir.join(POLICY_FILE))?;
    }
    Ok(())
}

fn first_state(dir: &Path) -> Result<(), String> {
    let sha = sha256_hex(&read_bytes(&dir.join(NET_FILE))?);
    State {
        generation: 1,
        parent: 0,
        parent_network_sha256: sha,
        parent_policy_sha256: None,
        hand_share: 0.0,
        settings: None,
        steps: vec![(
            "promoted".to_string(),
            "yes (the network on main, learn/model/value.safetensors, embedded in the bot: 64 \
             wide, trained by the TD chain, scripts/td-chain.sh)"
                .to_string(),
        )],
    }
    .write(dir)
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

/// Runs `learn ARGS` and returns what it printed on stdout (its report); its progress bars and
/// its one-line error go to our stderr. When it fails, the error is [`ALREADY_SAID`]: the
/// step's own line is the run's one line.
fn run_learn(places: &Places, args: &[String]) -> Result<String, String> {
    let output = Command::new(&places.learn)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|error| format!("cannot run {}: {error}", places.learn.display()))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(ALREADY_SAID.to_string())
    }
}

/// The error of a step whose own process already printed the one line that says what is
/// wrong (`learn selfplay`, `learn train`): the caller adds nothing.
pub const ALREADY_SAID: &str = "";

fn path_text(path: &Path) -> String {
    path.display().to_string()
}

/// The arguments both trainings take (`learn train` and `learn train-policy`): the newest data,
/// the output folder, the older data of the window, epochs, batch and learning rate, and the
/// seed (the generation).
fn training_args(
    command: &str,
    data: &Path,
    out: &Path,
    window: &[PathBuf],
    (epochs, batch, learning_rate): (usize, usize, f64),
    seed: u32,
) -> Vec<String> {
    let mut args = vec![
        command.to_string(),
        "--data".to_string(),
        path_text(data),
        "--out".to_string(),
        path_text(out),
        "--epochs".to_string(),
        epochs.to_string(),
        "--batch".to_string(),
        batch.to_string(),
        "--learning-rate".to_string(),
        learning_rate.to_string(),
        "--seed".to_string(),
        seed.to_string(),
    ];
    for older in window {
        args.extend(["--window-data".to_string(), path_text(older)]);
    }
    args
}

/// The training folder of TD round `round` (1-based) of `rounds`: the last round's is the
/// generation's `train` (its model is the generation's), the ones before it `td-round-R`.
fn td_round_dir(dir: &Path, round: usize, rounds: usize) -> PathBuf {
    if round == rounds {
        dir.join("train")
    } else {
        dir.join(format!("td-round-{round}"))
    }
}

/// The bot flags of a generation's networks (in its folder or a kept one).
fn bot_flags(dir: &Path) -> String {
    format!(
        "--eval net --net-file {} --policy-net {}",
        path_text(&dir.join(NET_FILE)),
        path_text(&dir.join(POLICY_FILE))
    )
}

/// Runs one turn of the loop (or resumes the unfinished one) and returns a one-paragraph
/// report. See the module's description.
pub fn run(settings: &Settings, places: &Places) -> Result<String, String> {
    if settings.games == 0 || settings.iterations == 0 || settings.gate_iterations == 0 {
        return Err("--games, --iterations and --gate-iterations must be at least 1".to_string());
    }
    if settings.window == 0 || settings.gate_games < 2 {
        return Err("--window must be at least 1 and --gate-games at least 2".to_string());
    }
    if settings.td_rounds == 0 {
        return Err("--td-rounds must be at least 1".to_string());
    }
    if settings.td_rounds > 1 && !matches!(settings.target, Target::Td { .. }) {
        return Err(format!(
            "--td-rounds {} needs a TD target (--target td:LAMBDA), not {}",
            settings.td_rounds, settings.target
        ));
    }
    if settings.sprt.0 >= settings.sprt.1 {
        return Err("--sprt ELO0 ELO1 needs ELO0 below ELO1".to_string());
    }
    create_dir(&places.root)?;
    first_generation(&places.root, &places.keep)?;
    let all = generations(&places.root)?;
    let best = best_generation(&places.root)?;
    let unfinished = all
        .iter()
        .find(|(_, state)| state.step("promoted").is_none());
    let (dir, mut state) = match unfinished {
        Some((dir, state)) => {
            if state.settings.as_ref() != Some(settings) {
                let recorded = state.settings.as_ref().map(Settings::entries);
                let difference = recorded
                    .iter()
                    .flatten()
                    .zip(settings.entries())
                    .find(|(mine, theirs)| **mine != *theirs)
                    .map_or("settings missing".to_string(), |((key, old), (_, new))| {
                        format!("{key} {old}, this command {new}")
                    });
                return Err(format!(
                    "{} was begun with other settings ({difference}): run it with the settings \
                     in its {STATE_FILE} to finish it",
                    dir.display()
                ));
            }
            (dir.clone(), state.clone())
        }
        None => {
            let generation = all.last().map_or(1, |(_, state)| state.generation) + 1;
            let dir = places.root.join(folder_name(generation));
            create_dir(&dir)?;
            let parent_dir = places.root.join(folder_name(best));
            let state = State {
                generation,
                parent: best,
                parent_network_sha256: sha256_hex(&read_bytes(&parent_dir.join(NET_FILE))?),
                parent_policy_sha256: Some(sha256_hex(&read_bytes(&parent_dir.join(POLICY_FILE))?)),
                hand_share: hand_share(
                    settings.hand_share_start,
                    settings.hand_share_generations,
                    generation,
                ),
                settings: Some(settings.clone()),
                steps: Vec::new(),
            };
            state.write(&dir)?;
            (dir, state)
        }
    };
    let parent_dir = places.root.join(folder_name(state.parent));
    let parent_network = parent_dir.join(NET_FILE);
    let parent_policy = parent_dir.join(POLICY_FILE);
    let recorded = [
        (&parent_network, Some(&state.parent_network_sha256)),
        (&parent_policy, state.parent_policy_sha256.as_ref()),
    ];
    for (file, sha) in recorded {
        if let Some(sha) = sha {
            if sha256_hex(&read_bytes(file)?) != *sha {
                return Err(format!(
                    "{} changed since {} began (its SHA-256 is not the one {STATE_FILE} records)",
                    file.display(),
                    dir.display()
                ));
            }
        }
    }
    let eta = Eta::new(settings, places.progress);
    eprintln!(
        "generation {}: made by generation {} ({}), hand share {:.3}, target {}",
        state.generation,
        state.parent,
        parent_network.display(),
        state.hand_share,
        settings.target
    );
    let stop = |step: &str| places.stop_after.as_deref() == Some(step);

    // 1. Self-play by the best.
    let data = dir.join("data");
    if state.step("selfplay").is_none() {
        eta.announce("selfplay", &state);
        let seed = settings.seed.wrapping_mul(1000) + u64::from(state.generation);
        let flags = [
            "--games".to_string(),
            settings.games.to_string(),
            "--iterations".to_string(),
            settings.iterations.to_string(),
            "--nodes".to_string(),
            settings.nodes.to_string(),
            "--seed".to_string(),
            seed.to_string(),
            "--bot-args".to_string(),
            bot_flags(&parent_dir),
        ];
        if places.progress {
            // The same run spread over hosts fills the same folder; this step then finds the
            // games there (README, "Self-play generations").
            eprintln!(
                "generation {}: on several hosts instead: scripts/selfplay-hosts.sh --hosts ... \
                 --out {} -- {} '{}'",
                state.generation,
                data.display(),
                flags[..flags.len() - 1].join(" "),
                flags[flags.len() - 1]
            );
        }
        let mut args = vec![
            "selfplay".to_string(),
            "--out".to_string(),
            path_text(&data),
            "--jobs".to_string(),
            places.jobs.to_string(),
        ];
        args.extend(flags);
        run_learn(places, &args)?;
        let manifest = crate::data::manifest::DataManifest::read(&data)?
            .ok_or_else(|| format!("{} has no manifest after self-play", data.display()))?;
        state.done(
            &dir,
            "selfplay",
            format!(
                "{} games data-sha256 {}",
                manifest.files.len(),
                manifest.data_sha256()
            ),
        )?;
    }
    if stop("selfplay") {
        return Ok(format!(
            "generation {}: stopped after self-play (--stop-after); run again to go on",
            state.generation
        ));
    }

    // 2. Training on the window: the value network, then the policy.
    let train_dir = dir.join("train");
    let model = train_dir.join(crate::value::train::MODEL_FILE);
    let network = dir.join(NET_FILE);
    let window: Vec<PathBuf> = all
        .iter()
        .filter(|(_, other)| {
            other.generation < state.generation
                && other.generation + settings.window as u32 > state.generation
                && other.step("selfplay").is_some()
        })
        .map(|(other_dir, _)| other_dir.join("data"))
        .collect();
    if state.step("train").is_none() {
        eta.announce("train", &state);
        // Round r of the TD rounds bootstraps from the network round r − 1 trained (the
        // first from the parent's); the last round's is the generation's.
        let mut bootstrap = parent_network.clone();
        for round in 1..=settings.td_rounds {
            let out = td_round_dir(&dir, round, settings.td_rounds);
            let mut args = training_args(
                "train",
                &data,
                &out,
                &window,
                (settings.epochs, settings.batch, settings.learning_rate),
                state.generation,
            );
            args.extend([
                "--result-weight".to_string(),
                (1.0 - state.hand_share).to_string(),
                "--target".to_string(),
                settings.target.to_string(),
            ]);
            if matches!(settings.target, Target::Td { .. }) {
                args.extend(["--td-network".to_string(), path_text(&bootstrap)]);
            }
            if settings.td_rounds > 1 {
                eprintln!(
                    "generation {}: TD round {round} of {}, bootstrapped from {}",
                    state.generation,
                    settings.td_rounds,
                    bootstrap.display()
                );
            }
            run_learn(places, &args)?;
            bootstrap = out.join(NET_FILE);
        }
        write_model(&model, &network)?;
        state.done(
            &dir,
            "train",
            format!(
                "model-sha256 {} network-sha256 {}",
                sha256_hex(&read_bytes(&model)?),
                sha256_hex(&read_bytes(&network)?)
            ),
        )?;
    }
    let policy = dir.join(POLICY_FILE);
    if state.step("policy").is_none() {
        eta.announce("policy", &state);
        let details = if settings.policy_epochs == 0 {
            let bytes = read_bytes(&parent_policy)?;
            write_whole(&policy, &bytes)?;
            format!(
                "kept-from {} policy-sha256 {}",
                state.parent,
                sha256_hex(&bytes)
            )
        } else {
            let policy_dir = dir.join(POLICY_TRAIN_FOLDER);
            let args = training_args(
                "train-policy",
                &data,
                &policy_dir,
                &window,
                (
                    settings.policy_epochs,
                    settings.batch,
                    settings.policy_learning_rate,
                ),
                state.generation,
            );
            let report = run_learn(places, &args)?;
            write_whole(&policy_dir.join(POLICY_REPORT_FILE), report.as_bytes())?;
            write_policy_model(&policy_dir.join(POLICY_MODEL_FILE), &policy)?;
            format!(
                "trained policy-sha256 {}",
                sha256_hex(&read_bytes(&policy)?)
            )
        };
        state.done(&dir, "policy", details)?;
    }
    if stop("train") {
        return Ok(format!(
            "generation {}: stopped after training (--stop-after); run again to go on",
            state.generation
        ));
    }

    // 3. The gate.
    if state.step("gate").is_none() {
        eta.announce("gate", &state);
        let gate = play_gate(&dir, &parent_dir, settings, &state, places)?;
        state.done(&dir, "gate", gate.details())?;
    }
    if stop("gate") {
        return Ok(format!(
            "generation {}: stopped after the gate (--stop-after); run again to go on",
            state.generation
        ));
    }

    // 4. Promotion.
    let gate = GateResult::parse(state.step("gate").unwrap_or(""))?;
    let promoted = gate.decision == "accepted";
    if promoted {
        keep(&dir, &state, places)?;
        write_best(&places.root, state.generation)?;
    }
    state.done(
        &dir,
        "promoted",
        if promoted { "yes" } else { "no" }.to_string(),
    )?;
    if let Some(folder) = places.table.parent().filter(|f| !f.as_os_str().is_empty()) {
        create_dir(folder)?;
    }
    crate::generations_table::write(&places.keep, &places.table)?;
    Ok(format!(
        "generation {}: gate against generation {} {} ({}/{}/{} W/D/L, Elo {:+.0} [{:+.0}, \
         {:+.0}]); {}",
        state.generation,
        state.parent,
        gate.decision,
        gate.wdl.wins,
        gate.wdl.draws,
        gate.wdl.losses,
        gate.elo.0,
        gate.elo.1,
        gate.elo.2,
        if promoted {
            format!("promoted: the best is now generation {}", state.generation)
        } else {
            format!("kept generation {} as the best", state.parent)
        }
    ))
}

/// Keeps a promoted generation in the repository: its model, manifest, network file and
/// state into `keep/gen-NNN` (refused if that folder holds another generation's files), and a
/// ladder player.
fn keep(dir: &Path, state: &State, places: &Places) -> Result<(), String> {
    let name = folder_name(state.generation);
    let kept = places.keep.join(&name);
    create_dir(&kept)?;
    let train = dir.join("train");
    let mut files = vec![
        (
            train.join(crate::value::train::MODEL_FILE),
            "model.safetensors",
        ),
        (
            crate::value::model_manifest::manifest_path(
                &train.join(crate::value::train::MODEL_FILE),
            ),
            "model.manifest",
        ),
        (dir.join(NET_FILE), NET_FILE),
        (train.join("loss.csv"), "loss.csv"),
        (dir.join(POLICY_FILE), POLICY_FILE),
    ];
    let policy_report = dir.join(POLICY_TRAIN_FOLDER).join(POLICY_REPORT_FILE);
    if policy_report.exists() {
        files.push((policy_report, "policy-report.txt"));
    }
    for (from, to) in &files {
        let bytes = read_bytes(from)?;
        let target = kept.join(to);
        if let Ok(existing) = std::fs::read(&target) {
            if existing != bytes {
                return Err(format!(
                    "{} already holds another {to}: a kept generation is never overwritten",
                    kept.display()
                ));
            }
            continue;
        }
        write_whole(&target, &bytes)?;
    }
    // The state as it will read once promoted.
    let mut promoted = state.clone();
    promoted
        .steps
        .push(("promoted".to_string(), "yes".to_string()));
    promoted.write(&kept)?;
    add_ladder_player(&places.players, &name, &kept, state)
}

/// Appends generation `name`'s ladder player to the roster `players` (once).
fn add_ladder_player(players: &Path, name: &str, kept: &Path, state: &State) -> Result<(), String> {
    let text = std::fs::read_to_string(players)
        .map_err(|error| format!("cannot read {}: {error}", players.display()))?;
    let player = format!("csb-{name}");
    if text.contains(&format!("name = \"{player}\"")) {
        return Ok(());
    }
    let commit = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_string())
        .unwrap_or_else(|| "HEAD".to_string());
    let gate = GateResult::parse(state.step("gate").unwrap_or(""))?;
    let gate = format!(
        "{} ({}/{}/{} W/D/L, Elo {:+.0} [{:+.0}, {:+.0}])",
        gate.decision,
        gate.wdl.wins,
        gate.wdl.draws,
        gate.wdl.losses,
        gate.elo.0,
        gate.elo.1,
        gate.elo.2
    );
    let mut entry = String::new();
    let _ = write!(
        entry,
        "\n# Self-play generation {} (learn generation, docs/generations.md): its network and \
         policy files, played by --eval net with this commit's code; gate against generation \
         {}: {gate}.\n[[players]]\nname = \"{player}\"\ncommit = \"{commit}\"\nflags = \"{}\"\n",
        state.generation,
        state.parent,
        bot_flags(kept)
    );
    write_whole(players, format!("{text}{entry}").as_bytes())
}

/// The gate's outcome as the state records it.
#[derive(Clone, Debug, PartialEq)]
pub struct GateResult {
    /// `accepted`, `rejected` or `inconclusive`.
    pub decision: String,
    pub wdl: Wdl,
    /// Elo and its 95% interval (pentanomial).
    pub elo: (f64, f64, f64),
}

impl GateResult {
    fn details(&self) -> String {
        format!(
            "{} wins {} draws {} losses {} elo {:.1} {:.1} {:.1}",
            self.decision,
            self.wdl.wins,
            self.wdl.draws,
            self.wdl.losses,
            self.elo.0,
            self.elo.1,
            self.elo.2
        )
    }

    /// Reads [`GateResult::details`]' text.
    pub fn parse(text: &str) -> Result<GateResult, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let number = |index: usize| -> Result<f64, String> {
            words
                .get(index)
                .and_then(|word| word.parse().ok())
                .ok_or_else(|| format!("the gate's record {text:?} is not one of this program"))
        };
        Ok(GateResult {
            decision: words.first().copied().unwrap_or("").to_string(),
            wdl: Wdl {
                wins: number(2)? as u64,
                draws: number(4)? as u64,
                losses: number(6)? as u64,
            },
            elo: (number(8)?, number(9)?, number(10)?),
        })
    }
}

/// The candidate's score in game `index` of the gate (the candidate is the first contestant).
fn candidate_score(game: &GameRecord) -> f64 {
    let candidate_seat = if p1_is_player0(game.index as usize) {
        0
    } else {
        1
    };
    match game.winner {
        None => 0.5,
        Some(winner) if usize::from(winner) == candidate_seat => 1.0,
        Some(_) => 0.0,
    }
}

/// Plays the gate's game pairs not yet in `gate.txt` (the candidate, the generation in `dir`,
/// against the best, in `best`), appending each finished game, until the SPRT decides or
/// `gate_games` are played.
fn play_gate(
    dir: &Path,
    best: &Path,
    settings: &Settings,
    state: &State,
    places: &Places,
) -> Result<GateResult, String> {
    let contestant = |name: &str, folder: &Path| -> Result<Contestant, String> {
        let flags: Vec<String> = bot_flags(folder)
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let mut config = csb::bot::config::BotConfig::from_args(&flags)
            .map_err(|error| format!("{}: {error}", folder.display()))?;
        config.iterations = Some(settings.gate_iterations);
        config.nodes_per_agent = settings.nodes;
        Ok(Contestant {
            name: name.to_string(),
            config,
        })
    };
    let contestants = [
        contestant(&format!("gen-{}", state.generation), dir)?,
        contestant(&format!("gen-{}", state.parent), best)?,
    ];
    let path = dir.join(GATE_FILE);
    let mut scores: Vec<f64> = match std::fs::read_to_string(&path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(error) => return Err(format!("cannot read {}: {error}", path.display())),
        Ok(text) => text
            .lines()
            .enumerate()
            .map(|(index, line)| {
                let parsed = line
                    .strip_prefix(&format!("game {index} score "))
                    .and_then(|score| score.parse::<f64>().ok());
                parsed.ok_or_else(|| {
                    format!(
                        "{} line {}: expected `game {index} score S`, got {line:?}",
                        path.display(),
                        index + 1
                    )
                })
            })
            .collect::<Result<_, _>>()?,
    };
    let sprt = Sprt::new(settings.sprt.0, settings.sprt.1);
    let most = settings.gate_games.div_ceil(2) * 2;
    let seed = settings.seed.wrapping_mul(1000) + 500 + u64::from(state.generation);
    let bar = if places.progress {
        let bar = indicatif::ProgressBar::new(most);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "gate {pos}/{len} games (at most) [{elapsed_precise} < {eta_precise}] \
                 {wide_bar} {msg}",
            )
            .expect("a valid template"),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_position(scores.len() as u64);
    loop {
        let (decision, wdl, pairs) = tally(&scores, &sprt);
        bar.set_message(format!(
            "{}/{}/{} W/D/L, LLR {:.2}",
            wdl.wins,
            wdl.draws,
            wdl.losses,
            sprt.llr_pairs(&pairs)
        ));
        let finished = scores.len().is_multiple_of(2);
        if finished && (decision != Decision::Continue || scores.len() as u64 >= most) {
            bar.finish_and_clear();
            let (low, high) = pairs.elo_interval();
            return Ok(GateResult {
                decision: match decision {
                    Decision::AcceptH1 => "accepted",
                    Decision::AcceptH0 => "rejected",
                    Decision::Continue => "inconclusive",
                }
                .to_string(),
                wdl,
                elo: (pairs.elo(), low, high),
            });
        }
        // The next games, up to one a job, played at once; they are recorded in order and
        // only until the SPRT decides at the end of a pair, so the gate's record is the one a
        // single job writes.
        let first = scores.len() as u64;
        let batch: Vec<u64> = (first..most).take(places.jobs.max(1)).collect();
        let mut played = std::collections::BTreeMap::new();
        play_games(seed, &batch, &contestants, places.jobs, |index, game| {
            played.insert(index, candidate_score(&game));
            Ok(())
        })?;
        for (index, score) in played {
            let mut text = std::fs::read_to_string(&path).unwrap_or_default();
            let _ = writeln!(text, "game {index} score {score}");
            write_whole(&path, text)?;
            scores.push(score);
            bar.inc(1);
            if scores.len().is_multiple_of(2) && tally(&scores, &sprt).0 != Decision::Continue {
                break;
            }
        }
    }
}

/// The SPRT's decision, the games' W/D/L and the pairs' pentanomial of the gate's scores.
fn tally(scores: &[f64], sprt: &Sprt) -> (Decision, Wdl, Pentanomial) {
    let mut wdl = Wdl::default();
    let mut pairs = Pentanomial::default();
    for &score in scores {
        wdl.add_score(score);
    }
    for pair in scores.chunks_exact(2) {
        pairs.add_pair(pair[0] + pair[1]);
    }
    let decision = if pairs.pairs() == 0 {
        Decision::Continue
    } else {
        sprt.decide(sprt.llr_pairs(&pairs))
    };
    (decision, wdl, pairs)
}

/// The loop's ETA between steps: what is left of this generation from the settings and the
/// rates measured on this machine (README, "Self-play generations"), printed at each step.
struct Eta {
    settings: Settings,
    progress: bool,
}

/// Seconds of one core per search iteration with the network, measured on this machine: 2
/// self-play games at 2,500 iterations (575 turns, two searches each) took 4.33 s of CPU
/// (README, "Self-play generations").
const SECONDS_PER_ITERATION: f64 = 1.5e-6;
/// Searches of an average game: two a turn, 290 turns (the same 2 games: 273 and 302).
const SEARCHES_PER_GAME: f64 = 2.0 * 290.0;

impl Eta {
    fn new(settings: &Settings, progress: bool) -> Eta {
        Eta {
            settings: settings.clone(),
            progress,
        }
    }

    fn selfplay_seconds(&self) -> f64 {
        self.settings.games as f64
            * SEARCHES_PER_GAME
            * self.settings.iterations as f64
            * SECONDS_PER_ITERATION
    }

    fn gate_seconds(&self) -> f64 {
        self.settings.gate_games as f64
            * SEARCHES_PER_GAME
            * self.settings.gate_iterations as f64
            * SECONDS_PER_ITERATION
    }

    fn announce(&self, step: &str, state: &State) {
        if !self.progress {
            return;
        }
        let left = match step {
            "selfplay" => self.selfplay_seconds() + self.gate_seconds(),
            _ => self.gate_seconds(),
        };
        eprintln!(
            "generation {}: {step} (the step's own bar gives its ETA; self-play and the gate \
             left: about {:.0} minutes of one core, the gate's at most)",
            state.generation,
            (left / 60.0).ceil()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gate_record_reads_back() {
        let gate = GateResult {
            decision: "accepted".to_string(),
            wdl: Wdl {
                wins: 30,
                draws: 1,
                losses: 9,
            },
            elo: (120.4, 60.0, 190.5),
        };
        let parsed = GateResult::parse(&gate.details()).unwrap();
        assert_eq!(parsed.decision, "accepted");
        assert_eq!(parsed.wdl, gate.wdl);
        assert_eq!(parsed.elo, (120.4, 60.0, 190.5));
        assert!(GateResult::parse("accepted wins x").is_err());
    }

    #[test]
    fn the_sprt_decides_on_pairs() {
        let sprt = Sprt::new(0.0, 50.0);
        let (decision, wdl, _) = tally(&[1.0; 40], &sprt);
        assert_eq!(decision, Decision::AcceptH1);
        assert_eq!(wdl.wins, 40);
        let (decision, _, _) = tally(&[0.0; 40], &sprt);
        assert_eq!(decision, Decision::AcceptH0);
        assert_eq!(tally(&[1.0], &sprt).0, Decision::Continue);
    }
}
