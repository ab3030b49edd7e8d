//! The process groups of every live bot, so that nothing outlives the arena: each bot runs in
//! its own process group (so `sh -c` grandchildren are reached too), is registered here while
//! alive, and a Ctrl-C handler kills every registered group before the arena exits. The arena
//! makes itself a child subreaper, so grandchildren orphaned by a killed `sh` come back to it
//! and are reaped instead of lingering as zombies.

use std::collections::HashSet;
use std::process::Child;
use std::sync::{Mutex, MutexGuard, OnceLock};

#[derive(Default)]
struct Registry {
    groups: HashSet<i32>,
    /// Set by the interrupt handler: no more bots may start.
    shutting_down: bool,
}

fn registry() -> MutexGuard<'static, Registry> {
    static LIVE: OnceLock<Mutex<Registry>> = OnceLock::new();
    LIVE.get_or_init(|| Mutex::new(Registry::default()))
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// Starts a child that leads its own process group and records the group, under the registry
/// lock so that an interrupt cannot fall between the start and the record.
pub fn spawn_registered(spawn: impl FnOnce() -> std::io::Result<Child>) -> std::io::Result<Child> {
    let mut registry = registry();
    if registry.shutting_down {
        return Err(std::io::Error::other("the arena is shutting down"));
    }
    let child = spawn()?;
    registry.groups.insert(child.id() as i32);
    Ok(child)
}

/// Forgets a process group once it is killed and reaped.
pub fn unregister(group: i32) {
    registry().groups.remove(&group);
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

/// What a command that starts bots does first: the Ctrl-C handler that kills them all, and this
/// process as the reaper of their orphans.
pub fn watch_over_bots() {
    install_interrupt_handler();
    become_subreaper();
}

/// On Ctrl-C (SIGINT) or SIGTERM: stop new bots from starting, kill and reap every bot,
/// then exit with status 130 (still holding the registry, so nothing starts in between).
pub fn install_interrupt_handler() {
    let installed = ctrlc::set_handler(|| {
        let mut registry = registry();
        registry.shutting_down = true;
        for &group in &registry.groups {
            kill_group(group);
        }
        for &group in &registry.groups {
            reap_group(group);
        }
        eprintln!("arena: interrupted, all bots killed");
        std::process::exit(130);
    });
    if let Err(error) = installed {
        eprintln!("arena: warning: cannot install the Ctrl-C handler: {error}");
    }
}
