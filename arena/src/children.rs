//! The process groups of every live bot, so that nothing outlives the arena: each bot runs in
//! its own process group (so `sh -c` grandchildren are reached too), is registered here while
//! alive, and a Ctrl-C handler kills every registered group before the arena exits.

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

fn registry() -> &'static Mutex<HashSet<i32>> {
    static LIVE: OnceLock<Mutex<HashSet<i32>>> = OnceLock::new();
    LIVE.get_or_init(|| Mutex::new(HashSet::new()))
}

/// Records a live process group (its id is the leader's pid).
pub fn register(group: i32) {
    registry()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(group);
}

/// Forgets a process group once it is killed and reaped.
pub fn unregister(group: i32) {
    registry()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&group);
}

/// Sends SIGKILL to every process of a group.
pub fn kill_group(group: i32) {
    if group > 0 {
        // SAFETY: kill(2) with a negative pid signals a process group; no memory is involved.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
}

/// Kills every registered group (Ctrl-C, or a fatal error while bots run).
pub fn kill_all() {
    let groups: Vec<i32> = registry()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .copied()
        .collect();
    for group in groups {
        kill_group(group);
    }
}

/// On Ctrl-C (SIGINT) or SIGTERM: kill all bots, then exit with status 130.
pub fn install_interrupt_handler() {
    let installed = ctrlc::set_handler(|| {
        kill_all();
        eprintln!("arena: interrupted, all bots killed");
        std::process::exit(130);
    });
    if let Err(error) = installed {
        eprintln!("arena: warning: cannot install the Ctrl-C handler: {error}");
    }
}
