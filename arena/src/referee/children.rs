//! The process groups of every live bot, so that nothing outlives the arena: each bot runs in
//! its own process group (so `sh -c` grandchildren are reached too), is registered here while
//! alive, and a Ctrl-C handler kills every registered group before the arena exits. The arena
//! makes itself a child subreaper, so grandchildren orphaned by a killed `sh` come back to it
//! and are reaped instead of lingering as zombies. A descendant that left its bot's process
//! group (`setsid`) is out of reach of the group kill; each bot's environment carries a tag
//! ([`BOT_TAG_VARIABLE`]) that such a stray inherits, and once orphaned it is the arena's child,
//! so [`kill_strays`] finds it by tag among the arena's children and kills it.

use std::collections::HashSet;
use std::process::Child;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// The environment variable that tags every process a bot starts, even those that leave its
/// process group.
pub const BOT_TAG_VARIABLE: &str = "CSB_ARENA_BOT";
/// Rounds of [`kill_strays`]: each round kills the strays found, whose own children then
/// come back to the arena for the next round.
const STRAY_ROUNDS: usize = 64;

/// A tag no other bot of this arena has.
pub fn new_bot_tag() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

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

/// Runs `record` (the writing of a finished game's result) unless the arena is being
/// interrupted, holding the interrupt handler off meanwhile: a result being written is complete
/// before the arena exits, and a game cut short by the interrupt's kills is never recorded.
/// None if interrupted.
pub fn record_unless_interrupted<T>(record: impl FnOnce() -> T) -> Option<T> {
    let registry = registry();
    if registry.shutting_down {
        return None;
    }
    let recorded = record();
    drop(registry);
    Some(recorded)
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

/// The arena's child processes (`/proc/PID/stat`'s parent field), those whose environment
/// holds `BOT_TAG_VARIABLE=tag` if a tag is given (Linux; elsewhere none).
fn children_tagged(tag: Option<&str>) -> Vec<i32> {
    let mut found = Vec::new();
    #[cfg(target_os = "linux")]
    {
        let me = std::process::id().to_string();
        let wanted = tag.map(|tag| format!("{BOT_TAG_VARIABLE}={tag}"));
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return found;
        };
        for entry in entries.flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // `pid (comm) state ppid ...`: the name may hold anything, so read after its `)`.
            let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
            if after_name.split_whitespace().nth(1) != Some(me.as_str()) {
                continue;
            }
            if let Some(wanted) = &wanted {
                let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
                if !environ
                    .split(|&b| b == 0)
                    .any(|variable| variable == wanted.as_bytes())
                {
                    continue;
                }
            }
            found.push(pid);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = tag;
    found
}

/// Kills and reaps the arena's children tagged `tag` (every child if None): a bot's
/// descendants that left its process group and were orphaned. Call after the bot's group was
/// killed and reaped, so its strays have come back to the arena.
pub fn kill_strays(tag: Option<&str>) {
    for _ in 0..STRAY_ROUNDS {
        let strays = children_tagged(tag);
        if strays.is_empty() {
            return;
        }
        for &pid in &strays {
            // SAFETY: kill(2) and waitpid(2) on our own child; `status` is a valid out pointer.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                let mut status = 0;
                while libc::waitpid(pid, &mut status, 0) < 0
                    && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
                {
                }
            }
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
        kill_strays(None);
        eprintln!("arena: interrupted, all bots killed");
        std::process::exit(130);
    });
    if let Err(error) = installed {
        eprintln!("arena: warning: cannot install the Ctrl-C handler: {error}");
    }
}
