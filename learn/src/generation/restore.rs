//! A new root given the kept generations: on a machine where the loop has not run (the roots
//! under `data/` are machine-local; `learn/generations` is in the repository), every kept
//! generation after the first is copied into the root (its network, its policy and its state,
//! the state last) and `best.txt` names the last of them, so the next generation is made by the
//! loop's best, not by generation 1 again. Their games are not copied (the repository does
//! not hold them): a window that reaches a restored generation trains without its games
//! (`run.rs`, `window_data`).

use crate::common::files::{create_dir, read_bytes, write_whole};
use crate::generation::state::{folder_name, generations, write_best, BEST_FILE, STATE_FILE};
use crate::policy::net_file::POLICY_FILE;
use crate::value::net_file::NET_FILE;
use std::path::Path;

/// Copies the kept generations after the first into `root` and names the last of them the
/// best, when the root has no best of its own (no `best.txt`) and no generation beyond the
/// first but such copies (a restoration cut short is done again whole). Returns the
/// generations restored: none for a root with its own line, or when only generation 1 is kept.
pub(crate) fn restore_kept_generations(root: &Path, keep: &Path) -> Result<Vec<u32>, String> {
    if root.join(BEST_FILE).exists() {
        return Ok(Vec::new());
    }
    let kept: Vec<_> = generations(keep)?
        .into_iter()
        .filter(|(_, state)| state.generation > 1)
        .collect();
    for (dir, state) in generations(root)? {
        let copy_of_kept = || {
            kept.iter().any(|(kept_dir, kept_state)| {
                kept_state.generation == state.generation
                    && read_bytes(&kept_dir.join(STATE_FILE)).ok()
                        == read_bytes(&dir.join(STATE_FILE)).ok()
            })
        };
        if state.generation > 1 && !copy_of_kept() {
            return Ok(Vec::new());
        }
    }
    let mut restored = Vec::new();
    for (kept_dir, state) in &kept {
        if state.step("promoted").is_none() {
            return Err(format!(
                "{} is kept but its {STATE_FILE} does not say it was promoted",
                kept_dir.display()
            ));
        }
        copy_generation(kept_dir, &root.join(folder_name(state.generation)))?;
        restored.push(state.generation);
    }
    if let Some(&last) = restored.last() {
        write_best(root, last)?;
    }
    Ok(restored)
}

/// A kept generation's network, policy and state copied into `dir` (made if missing), the
/// state last: a copy cut short before it is no generation yet, and is made again whole.
pub(crate) fn copy_generation(kept: &Path, dir: &Path) -> Result<(), String> {
    create_dir(dir)?;
    for name in [NET_FILE, POLICY_FILE, STATE_FILE] {
        write_whole(&dir.join(name), read_bytes(&kept.join(name))?)?;
    }
    Ok(())
}
