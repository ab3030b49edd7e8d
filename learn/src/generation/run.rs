//! One turn of the loop, `learn generation`, step by step (the module's list): the settings
//! checked, the unfinished generation resumed or a new one begun by the best, its parent's
//! files checked, then self-play, the value network's training, the policy's, the gate and the
//! promotion, each done once and recorded in the generation's state. Self-play and the
//! trainings run as `learn` subcommands (`learn_process.rs`).

use crate::common::files::{create_dir, read_bytes, write_whole};
use crate::common::manifest::sha256_hex;
use crate::data::manifest::{DataManifest, MANIFEST_FILE};
use crate::generation::eta::Eta;
use crate::generation::first::first_generation;
use crate::generation::gate::{play_gate, GateResult};
use crate::generation::learn_process::{bot_flags, path_text, run_learn, training_args};
use crate::generation::promote::keep;
use crate::generation::restore::restore_kept_generations;
use crate::generation::select::{select_value, SELECT_STEP};
use crate::generation::settings::{Places, Settings};
use crate::generation::state::{
    best_generation, folder_name, generations, td_round_dir, write_best, State, POLICY_REPORT_FILE,
    POLICY_TRAIN_FOLDER, STATE_FILE, TEMPER_REPORT_FILE, TRAINED_POLICY_FILE,
};
use crate::generation::table;
use crate::policy::net_file::{write_policy_model, POLICY_FILE};
use crate::policy::train::POLICY_MODEL_FILE;
use crate::value::net_file::{write_model, NET_FILE};
use crate::value::target::{hand_share, Target};
use crate::value::train::MODEL_FILE;
use std::path::{Path, PathBuf};

/// Runs one turn of the loop (or resumes the unfinished one) and returns a one-paragraph
/// report. See the module's description: each numbered step is one function below.
pub fn run(settings: &Settings, places: &Places) -> Result<String, String> {
    check(settings)?;
    create_dir(&places.root)?;
    first_generation(&places.root, &places.keep)?;
    let restored = restore_kept_generations(&places.root, &places.keep)?;
    if let Some(last) = restored.last() {
        let list: Vec<String> = restored.iter().map(u32::to_string).collect();
        eprintln!(
            "generation: a new root: kept generations {} copied from {} (their networks, not \
             their games), generation {last} the best",
            list.join(", "),
            places.keep.display()
        );
    }
    let all = generations(&places.root)?;
    let best = best_generation(&places.root)?;
    let (dir, mut state) = begin_or_resume(settings, places, &all, best)?;
    let parent_dir = places.root.join(folder_name(state.parent));
    check_parent(&dir, &state, &parent_dir)?;
    eprintln!(
        "generation {}: made by generation {} ({}), hand share {:.3}, target {}",
        state.generation,
        state.parent,
        parent_dir.join(NET_FILE).display(),
        state.hand_share,
        settings.target
    );
    let turn = Turn {
        settings,
        places,
        dir,
        parent_dir,
        eta: Eta::new(settings, places.progress),
    };
    let stop = |step: &str| places.stop_after.as_deref() == Some(step);

    // 1. Self-play by the best.
    if state.step("selfplay").is_none() {
        selfplay(&turn, &mut state)?;
    }
    if stop("selfplay") {
        return Ok(format!(
            "generation {}: stopped after self-play (--stop-after); run again to go on",
            state.generation
        ));
    }

    // 2. Training on the window: the value network, then the policy.
    let window = window_data(&all, &state, settings);
    if state.step("train").is_none() {
        train_value(&turn, &mut state, &window)?;
    }
    if settings.select_value && state.step(SELECT_STEP).is_none() {
        choose_value(&turn, &mut state, &window)?;
    }
    if state.step("policy").is_none() {
        train_policy(&turn, &mut state, &window)?;
    }
    if stop("train") {
        return Ok(format!(
            "generation {}: stopped after training (--stop-after); run again to go on",
            state.generation
        ));
    }

    // 3. The gate.
    if state.step("gate").is_none() {
        turn.eta.announce("gate", &state);
        let gate = play_gate(&turn.dir, &turn.parent_dir, settings, &state, places)?;
        state.done(&turn.dir, "gate", gate.details())?;
    }
    if stop("gate") {
        return Ok(format!(
            "generation {}: stopped after the gate (--stop-after); run again to go on",
            state.generation
        ));
    }

    // 4. Promotion.
    promote(&turn.dir, &mut state, places)
}

/// One turn of the loop as its steps see it: the command's settings and places, the
/// generation's folder, its parent's (the best generation when it began), and the ETA.
struct Turn<'a> {
    settings: &'a Settings,
    places: &'a Places,
    dir: PathBuf,
    parent_dir: PathBuf,
    eta: Eta,
}

/// The settings' own checks, before anything is written.
fn check(settings: &Settings) -> Result<(), String> {
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
    if let Some(budget_ms) = settings.gate_budget_ms {
        if !(budget_ms.is_finite() && budget_ms > 0.0) {
            return Err(format!(
                "--gate-budget-ms must be a positive number of milliseconds, not {budget_ms}"
            ));
        }
    }
    if settings.sprt.0 >= settings.sprt.1 {
        return Err("--sprt ELO0 ELO1 needs ELO0 below ELO1".to_string());
    }
    Ok(())
}

/// The unfinished generation, refused when it was begun with other settings, or a new one made
/// by the best generation `best` (its folder and first state written).
fn begin_or_resume(
    settings: &Settings,
    places: &Places,
    all: &[(PathBuf, State)],
    best: u32,
) -> Result<(PathBuf, State), String> {
    let unfinished = all
        .iter()
        .find(|(_, state)| state.step("promoted").is_none());
    let (dir, state) = match unfinished {
        Some((dir, state)) => {
            if state.settings.as_ref() != Some(settings) {
                let difference = match &state.settings {
                    None => "settings missing".to_string(),
                    Some(recorded) => first_difference(recorded, settings),
                };
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
    Ok((dir, state))
}

/// The parent's network and policy files must be the ones the state recorded when the
/// generation began.
fn check_parent(dir: &Path, state: &State, parent_dir: &Path) -> Result<(), String> {
    let recorded = [
        (
            &parent_dir.join(NET_FILE),
            Some(&state.parent_network_sha256),
        ),
        (
            &parent_dir.join(POLICY_FILE),
            state.parent_policy_sha256.as_ref(),
        ),
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
    Ok(())
}

/// The first setting in which `recorded` and `asked` differ, as `key old, this command new`
/// (`none` for an entry one of them lacks: a repeated setting given fewer times).
fn first_difference(recorded: &Settings, asked: &Settings) -> String {
    let (recorded, asked) = (recorded.entries(), asked.entries());
    let value = |entries: &[(&str, String)], at: usize| {
        entries
            .get(at)
            .map_or("none".to_string(), |(_, value)| value.clone())
    };
    (0..recorded.len().max(asked.len()))
        .find_map(|at| {
            let (key, _) = recorded.get(at).or(asked.get(at))?;
            let (old, new) = (value(&recorded, at), value(&asked, at));
            (old != new).then(|| format!("{key} {old}, this command {new}"))
        })
        .unwrap_or_else(|| "the same settings".to_string())
}

/// Step 1: the best generation's networks play themselves into the generation's `data`
/// (`learn selfplay`).
fn selfplay(turn: &Turn, state: &mut State) -> Result<(), String> {
    let data = turn.dir.join("data");
    turn.eta.announce("selfplay", state);
    let seed = turn.settings.seed.wrapping_mul(1000) + u64::from(state.generation);
    let mut flags = vec![
        "--games".to_string(),
        turn.settings.games.to_string(),
        "--iterations".to_string(),
        turn.settings.iterations.to_string(),
        "--nodes".to_string(),
        turn.settings.nodes.to_string(),
        "--seed".to_string(),
        seed.to_string(),
    ];
    if let Some(deep) = turn.settings.deep {
        flags.extend([
            "--deep-iterations".to_string(),
            deep.iterations.to_string(),
            "--deep-share".to_string(),
            deep.share().to_string(),
        ]);
    }
    flags.extend(["--bot-args".to_string(), bot_flags(&turn.parent_dir)]);
    if turn.places.progress {
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
        turn.places.jobs.to_string(),
    ];
    args.extend(flags);
    run_learn(turn.places, &args)?;
    let manifest = DataManifest::read(&data)?
        .ok_or_else(|| format!("{} has no manifest after self-play", data.display()))?;
    state.done(
        &turn.dir,
        "selfplay",
        format!(
            "{} games data-sha256 {}",
            manifest.files.len(),
            manifest.data_sha256()
        ),
    )?;
    Ok(())
}

/// The data folders of the window's older generations (those whose self-play is done), then
/// the outside folders of `--window-data`. A generation restored from the kept ones
/// (`restore.rs`) has no games on this machine: the window leaves it out, with a line saying
/// so.
fn window_data(all: &[(PathBuf, State)], state: &State, settings: &Settings) -> Vec<PathBuf> {
    all.iter()
        .filter(|(_, other)| {
            other.generation < state.generation
                && other.generation + settings.window as u32 > state.generation
                && other.step("selfplay").is_some()
        })
        .map(|(other_dir, _)| other_dir.join("data"))
        .filter(|data| {
            let here = data.join(MANIFEST_FILE).exists();
            if !here {
                eprintln!(
                    "generation {}: {} is not on this machine (a restored generation's games): \
                     the window trains without them",
                    state.generation,
                    data.display()
                );
            }
            here
        })
        .chain(
            settings
                .window_data
                .iter()
                .map(|outside| outside.dir.clone()),
        )
        .collect()
}

/// Step 2a: the value network trained on the window (`learn train`, in TD rounds when
/// asked), and its network file.
fn train_value(turn: &Turn, state: &mut State, window: &[PathBuf]) -> Result<(), String> {
    let data = turn.dir.join("data");
    let parent_network = turn.parent_dir.join(NET_FILE);
    let model = turn.dir.join("train").join(MODEL_FILE);
    let network = turn.dir.join(NET_FILE);
    turn.eta.announce("train", state);
    // Round r of the TD rounds bootstraps from the network round r − 1 trained (the
    // first from the parent's), and with a warm start begins from its weights; the last
    // round's is the generation's.
    let mut bootstrap = parent_network.clone();
    for round in 1..=turn.settings.td_rounds {
        let out = td_round_dir(&turn.dir, round, turn.settings.td_rounds);
        let mut args = training_args(
            "train",
            &data,
            &out,
            window,
            (
                turn.settings.epochs,
                turn.settings.batch,
                turn.settings.learning_rate,
            ),
            state.generation,
        );
        args.extend([
            "--result-weight".to_string(),
            (1.0 - state.hand_share).to_string(),
            "--target".to_string(),
            turn.settings.target.to_string(),
        ]);
        if matches!(turn.settings.target, Target::Td { .. }) {
            args.extend(["--td-network".to_string(), path_text(&bootstrap)]);
        }
        if turn.settings.warm_start {
            args.extend(["--init".to_string(), path_text(&bootstrap)]);
        }
        if turn.settings.td_rounds > 1 {
            eprintln!(
                "generation {}: TD round {round} of {}, bootstrapped from {}",
                state.generation,
                turn.settings.td_rounds,
                bootstrap.display()
            );
        }
        run_learn(turn.places, &args)?;
        bootstrap = out.join(NET_FILE);
    }
    write_model(&model, &network)?;
    state.done(
        &turn.dir,
        "train",
        format!(
            "model-sha256 {} network-sha256 {}",
            sha256_hex(&read_bytes(&model)?),
            sha256_hex(&read_bytes(&network)?)
        ),
    )?;
    Ok(())
}

/// Step 2c with `--select-value`: the trained value network or the parent's, whichever scores
/// the lower log-loss on the window's test split, becomes the generation's (`select.rs`).
fn choose_value(turn: &Turn, state: &mut State, window: &[PathBuf]) -> Result<(), String> {
    let trained =
        td_round_dir(&turn.dir, turn.settings.td_rounds, turn.settings.td_rounds).join(NET_FILE);
    let (choice, network_sha256) = select_value(
        &turn.dir,
        &trained,
        &turn.parent_dir,
        state.parent,
        (&turn.dir.join("data"), window),
    )?;
    eprintln!(
        "generation {}: test log-loss of the trained value network {:.4}, of generation {}'s \
         {:.4}: {}",
        state.generation,
        choice.trained_log_loss,
        state.parent,
        choice.parent_log_loss,
        match choice.kept_from {
            Some(parent) => format!("generation {parent}'s is kept"),
            None => "the trained one is kept".to_string(),
        }
    );
    state.done(&turn.dir, SELECT_STEP, choice.details(&network_sha256))
}

/// With deep turns, the policy's flags that read their positions alone (`--min-visits`: more
/// root visits than a fast turn's iterations); none without.
fn deep_positions_only(settings: &Settings) -> Vec<String> {
    match settings.deep {
        Some(_) => vec![
            "--min-visits".to_string(),
            (settings.iterations + 1).to_string(),
        ],
        None => Vec::new(),
    }
}

/// Step 2b: the policy trained on the same window (`learn train-policy`), or the parent's kept
/// with `--policy-epochs 0`.
fn train_policy(turn: &Turn, state: &mut State, window: &[PathBuf]) -> Result<(), String> {
    let data = turn.dir.join("data");
    let parent_policy = turn.parent_dir.join(POLICY_FILE);
    let policy = turn.dir.join(POLICY_FILE);
    turn.eta.announce("policy", state);
    let details = if turn.settings.policy_epochs == 0 {
        let bytes = read_bytes(&parent_policy)?;
        write_whole(&policy, &bytes)?;
        format!(
            "kept-from {} policy-sha256 {}",
            state.parent,
            sha256_hex(&bytes)
        )
    } else {
        let policy_dir = turn.dir.join(POLICY_TRAIN_FOLDER);
        let mut args = training_args(
            "train-policy",
            &data,
            &policy_dir,
            window,
            (
                turn.settings.policy_epochs,
                turn.settings.batch,
                turn.settings.policy_learning_rate,
            ),
            state.generation,
        );
        if turn.settings.warm_start {
            args.extend(["--init".to_string(), path_text(&parent_policy)]);
        }
        if turn.settings.action_inputs {
            args.push("--action-inputs".to_string());
        }
        if turn.settings.action_context {
            args.push("--action-context".to_string());
        }
        if turn.settings.action_middle {
            args.push("--action-middle".to_string());
        }
        if turn.settings.policy_mirror {
            args.push("--mirror".to_string());
        }
        if turn.settings.policy_anneal {
            args.push("--anneal".to_string());
        }
        args.extend(deep_positions_only(turn.settings));
        let report = run_learn(turn.places, &args)?;
        write_whole(&policy_dir.join(POLICY_REPORT_FILE), report.as_bytes())?;
        let details = if turn.settings.temper_policy {
            let trained = policy_dir.join(TRAINED_POLICY_FILE);
            write_policy_model(&policy_dir.join(POLICY_MODEL_FILE), &trained)?;
            let mut args = vec!["temper-policy".to_string(), "--policy".to_string()];
            args.extend([path_text(&trained), "--like".to_string()]);
            args.extend([path_text(&parent_policy), "--data".to_string()]);
            args.extend([path_text(&data), "--out".to_string(), path_text(&policy)]);
            for dir in window {
                args.extend(["--window-data".to_string(), path_text(dir)]);
            }
            args.extend(deep_positions_only(turn.settings));
            let report = run_learn(turn.places, &args)?;
            write_whole(&policy_dir.join(TEMPER_REPORT_FILE), report.as_bytes())?;
            "trained tempered"
        } else {
            write_policy_model(&policy_dir.join(POLICY_MODEL_FILE), &policy)?;
            "trained"
        };
        format!(
            "{details} policy-sha256 {}",
            sha256_hex(&read_bytes(&policy)?)
        )
    };
    state.done(&turn.dir, "policy", details)?;
    Ok(())
}

/// Step 4, promotion: accepted by the gate (or left undecided by it, with
/// `--promote-inconclusive`), the generation is kept and becomes the best; either way the step
/// is recorded and the table written again. Returns the turn's report.
fn promote(dir: &Path, state: &mut State, places: &Places) -> Result<String, String> {
    let gate = GateResult::parse(state.step("gate").unwrap_or(""))?;
    let promote_inconclusive = state
        .settings
        .as_ref()
        .is_some_and(|settings| settings.promote_inconclusive);
    let promoted =
        gate.decision == "accepted" || (promote_inconclusive && gate.decision == "inconclusive");
    if promoted {
        keep(dir, state, places)?;
        write_best(&places.root, state.generation)?;
    }
    state.done(
        dir,
        "promoted",
        if promoted { "yes" } else { "no" }.to_string(),
    )?;
    table::write(&places.keep, &places.table)?;
    Ok(format!(
        "generation {}: gate against generation {} {}; {}",
        state.generation,
        state.parent,
        gate.outcome(),
        if promoted {
            format!("promoted: the best is now generation {}", state.generation)
        } else {
            format!("kept generation {} as the best", state.parent)
        }
    ))
}
