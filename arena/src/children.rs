//! The process groups of every live bot, so that nothing outlives the arena: each bot runs in
//! its own process group (so `sh -c` grandchildren are reached too), is registered here while
//! alive, and a Ctrl-C handler kills every registered group before the arena exits. The arena
//! makes itself a child subreaper, so grandchildren orphaned by a killed `sh` come back to it
//! and are reaped instead of lingering as zombies.

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

/// Makes this process the reaper of its orphaned descendants (Linux; elsewhere a no-op).
pub fn become_subreaper() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER only sets a flag on this process.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

/// Waits for every child of this process that is in `group` (after the group was killed).
pub fn reap_group(group: i32) {
    if group <= 0 {
        return;
    }
    loop {
        let mut status = 0;
        // SAFETY: waitpid on a process group we created; `status` is a valid out pointer.
        let reaped = unsafe { libc::waitpid(-group, &mut status, 0) };
        if reaped < 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            break;
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
