//! Generation 1: the networks on main (embedded in the bot) as the loop's first generation, its
//! folder with its network and policy files and a state that says it is promoted, in the root
//! and among the kept generations.

use crate::common::files::{create_dir, read_bytes};
use crate::common::manifest::sha256_hex;
use crate::generation::state::{folder_name, State};
use crate::policy::net_file::{write_embedded_policy, POLICY_FILE};
use crate::value::net_file::{write_embedded, NET_FILE};
use std::path::Path;

/// Generation 1, the network on main (embedded in the bot): its folder with its network file
/// and a state that says it is promoted, in the root and among the kept generations. Created
/// once.
pub(crate) fn first_generation(root: &Path, keep: &Path) -> Result<(), String> {
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
