//! Generation 1: the loop's first generation, its folder with its network and policy files and
//! a state that says it is promoted. The kept folder's (`learn/generations/gen-001`, in the
//! repository) is made once, from the networks embedded in the bot at the time; a root's is a
//! copy of the kept one, so that generation 1 stays the networks the loop began from after the
//! default has moved on (generation 3's from row R23, generation 7's since row R36:
//! docs/strength.md).

use crate::common::files::{create_dir, read_bytes, write_whole};
use crate::common::manifest::sha256_hex;
use crate::generation::restore::copy_generation;
use crate::generation::state::{folder_name, State};
use crate::policy::net_file::{write_embedded_policy, POLICY_FILE};
use crate::value::net_file::{write_embedded, NET_FILE};
use std::path::Path;

/// Generation 1 in the kept generations (made from the embedded networks if missing) and in the
/// root (a copy of the kept one if missing). Created once each.
pub(crate) fn first_generation(root: &Path, keep: &Path) -> Result<(), String> {
    first_generation_in(keep)?;
    let kept = keep.join(folder_name(1));
    let dir = root.join(folder_name(1));
    if State::read(&dir)?.is_none() {
        copy_generation(&kept, &dir)?;
    }
    // A root's generation 1 made before generations trained the policy has none yet.
    if !dir.join(POLICY_FILE).exists() {
        write_whole(&dir.join(POLICY_FILE), read_bytes(&kept.join(POLICY_FILE))?)?;
    }
    Ok(())
}

/// Generation 1's folder in `folder` (the kept generations), created once from the networks
/// embedded in the bot; its policy file (the bot's embedded policy) is added to a folder made
/// before generations trained the policy.
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
            "yes (the networks embedded in the bot when this folder was made: \
             learn/model/value.safetensors and learn/model/policy.txt)"
                .to_string(),
        )],
    }
    .write(dir)
}
