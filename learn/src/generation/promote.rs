//! Keeping a promoted generation (step 4): its model, manifest, network and policy files,
//! curves and state copied into the kept generations (in the repository; never overwritten),
//! and its ladder player added to the roster.

use crate::common::files::{create_dir, read_bytes, write_whole};
use crate::generation::gate::GateResult;
use crate::generation::learn_process::bot_flags;
use crate::generation::select::{ValueChoice, SELECT_STEP};
use crate::generation::settings::Places;
use crate::generation::state::{
    folder_name, State, POLICY_REPORT_FILE, POLICY_TRAIN_FOLDER, TEMPER_REPORT_FILE,
};
use crate::policy::net_file::POLICY_FILE;
use crate::value::net_file::NET_FILE;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// Keeps a promoted generation in the repository: its model, manifest, network file and
/// state into `keep/gen-NNN` (refused if that folder holds another generation's files), and a
/// ladder player.
pub(crate) fn keep(dir: &Path, state: &State, places: &Places) -> Result<(), String> {
    let name = folder_name(state.generation);
    let kept = places.keep.join(&name);
    create_dir(&kept)?;
    let train = dir.join("train");
    let model = train.join(crate::value::train::MODEL_FILE);
    let mut files = vec![
        (model.clone(), "model.safetensors"),
        (
            crate::value::model_manifest::manifest_path(&model),
            "model.manifest",
        ),
        (train.join("loss.csv"), "loss.csv"),
    ];
    // A generation that kept its parent's value network (`--select-value`) keeps the parent's
    // model, manifest and curves with it (those the parent's kept folder has), so that the
    // kept model is the network the generation plays.
    if let Some(parent) = state.step(SELECT_STEP).and_then(ValueChoice::kept_from) {
        let parent_kept = places.keep.join(folder_name(parent));
        files = files
            .into_iter()
            .map(|(_, name)| (parent_kept.join(name), name))
            .filter(|(from, _)| from.exists())
            .collect();
    }
    files.extend([
        (dir.join(NET_FILE), NET_FILE),
        (dir.join(POLICY_FILE), POLICY_FILE),
    ]);
    let policy_folder = dir.join(POLICY_TRAIN_FOLDER);
    let reports = [
        (POLICY_REPORT_FILE, "policy-report.txt"),
        (TEMPER_REPORT_FILE, "policy-temper.txt"),
    ];
    for (report, kept_as) in reports {
        if policy_folder.join(report).exists() {
            files.push((policy_folder.join(report), kept_as));
        }
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
    let gate = gate.outcome();
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
