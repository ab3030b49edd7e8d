//! Self-play over ssh, end to end: each test starts a real OpenSSH server (Debian's sshd) on the
//! loopback address on a free port, with a host key, a user key, its configuration and its
//! clients' (`ssh -F`) made in a temporary folder (the machine's ~/.ssh and /etc/ssh are not
//! touched), and runs `scripts/selfplay-hosts.sh` over it with GNU parallel: the "hosts" are
//! aliases of that server (`shard-a`, `shard-b`) and of a loopback port where nothing listens
//! (`shard-refused`). Tiny settings (4 or 6 games, 12 or 60 iterations a turn).
//!
//! - Two shards played over ssh and merged give the files of an unsharded run, byte for byte
//!   (games and manifest).
//! - A host that refuses the connection: one line naming the shard, its host and the cause,
//!   exit 1, the other shard's games kept; run again over good hosts, the kept shard is resumed
//!   (no game played again, its files unchanged) and the merge is the unsharded run's.
//! - Connections dropped mid-shard (the server's session processes killed, as when a host
//!   goes away): one line, exit 1, the finished games kept; run again, they are resumed.
//!
//! Needs sshd, ssh, ssh-keygen, GNU parallel and rsync: `make test` installs Debian's first
//! (scripts/install-ssh-tools.sh, as root); without them these tests fail and say how.

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

mod common;
use common::text;

const INSTALL: &str = "install Debian's openssh-server, openssh-client, parallel and rsync: run \
                       `sh scripts/install-ssh-tools.sh` as root (`make test` runs it), or \
                       `apt-get install -y openssh-server openssh-client parallel rsync`";

/// The run's settings (besides --out and --shard).
const QUICK: [&str; 8] = [
    "--games",
    "4",
    "--iterations",
    "12",
    "--nodes",
    "5000",
    "--seed",
    "12",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A fresh scratch directory for one test, in cargo's temporary directory for tests
/// (target/tmp): one per test name, emptied when the test starts, so none accumulate.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("learn-ssh-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `tool` on PATH.
fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(tool).is_file()))
}

/// Debian's sshd (which must be run by its absolute path).
fn sshd_binary() -> PathBuf {
    let found = ["/usr/sbin/sshd", "/usr/local/sbin/sshd", "/sbin/sshd"]
        .iter()
        .map(PathBuf::from)
        .find(|path| path.is_file());
    let sshd = found.unwrap_or_else(|| panic!("sshd is not installed: {INSTALL}"));
    for tool in ["ssh", "ssh-keygen", "parallel", "rsync"] {
        assert!(on_path(tool), "{tool} is not installed: {INSTALL}");
    }
    sshd
}

fn run(command: &mut Command) -> Output {
    let output = command
        .output()
        .unwrap_or_else(|error| panic!("{command:?} does not run ({error}): {INSTALL}"));
    assert!(
        output.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// A free TCP port on the loopback address (nothing listens on it once this returns).
fn free_ports() -> (u16, u16) {
    let first = TcpListener::bind("127.0.0.1:0").unwrap();
    let second = TcpListener::bind("127.0.0.1:0").unwrap();
    (
        first.local_addr().unwrap().port(),
        second.local_addr().unwrap().port(),
    )
}

/// An OpenSSH server of this test on 127.0.0.1, stopped when dropped.
struct Sshd {
    child: Child,
    dir: PathBuf,
}

impl Sshd {
    /// Keys, configurations and the server in `dir`; panics with the way to install what is
    /// missing when it cannot start.
    fn start(dir: &Path) -> Sshd {
        let sshd = sshd_binary();
        for key in ["host_key", "user_key"] {
            run(Command::new("ssh-keygen")
                .args(["-q", "-t", "ed25519", "-N", "", "-C", key, "-f"])
                .arg(dir.join(key)));
        }
        std::fs::copy(dir.join("user_key.pub"), dir.join("authorized_keys")).unwrap();
        let (port, closed_port) = free_ports();
        let config = format!(
            "Port {port}\nListenAddress 127.0.0.1\nHostKey {host_key}\nPidFile {pid}\n\
             AuthorizedKeysFile {authorized}\nPubkeyAuthentication yes\n\
             PasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\n\
             StrictModes no\nPermitRootLogin prohibit-password\n",
            host_key = text(&dir.join("host_key")),
            pid = text(&dir.join("sshd.pid")),
            authorized = text(&dir.join("authorized_keys")),
        );
        std::fs::write(dir.join("sshd_config"), config).unwrap();
        let log = std::fs::File::create(dir.join("sshd.log")).unwrap();
        let mut child = Command::new(&sshd)
            .args(["-D", "-e", "-f"])
            .arg(dir.join("sshd_config"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|error| {
                panic!("{} does not start ({error}): {INSTALL}", sshd.display())
            });
        let started = Instant::now();
        loop {
            let log = std::fs::read_to_string(dir.join("sshd.log")).unwrap_or_default();
            if log.contains("Server listening") {
                break;
            }
            if let Some(status) = child.try_wait().unwrap() {
                panic!(
                    "sshd exited ({status}) before listening: {}; {INSTALL} (as root the script \
                     also creates sshd's /run/sshd)",
                    log.trim()
                );
            }
            if started.elapsed() > Duration::from_secs(20) {
                let _ = child.kill();
                panic!("sshd did not listen within 20 s: {}", log.trim());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let host_key = std::fs::read_to_string(dir.join("host_key.pub")).unwrap();
        let host_key: Vec<&str> = host_key.split_whitespace().take(2).collect();
        std::fs::write(
            dir.join("known_hosts"),
            format!("[127.0.0.1]:{port} {}\n", host_key.join(" ")),
        )
        .unwrap();
        let user = String::from_utf8(run(Command::new("id").arg("-un")).stdout).unwrap();
        let clients = format!(
            "Host shard-a shard-b\n  Port {port}\nHost shard-refused\n  Port {closed_port}\n\
             Host *\n  HostName 127.0.0.1\n  User {user}\n  IdentityFile {key}\n\
             IdentitiesOnly yes\n  UserKnownHostsFile {known}\n  GlobalKnownHostsFile /dev/null\n\
             StrictHostKeyChecking yes\n  BatchMode yes\n  ConnectTimeout 10\n  LogLevel ERROR\n",
            user = user.trim(),
            key = text(&dir.join("user_key")),
            known = text(&dir.join("known_hosts")),
        );
        std::fs::write(dir.join("ssh_config"), clients).unwrap();
        Sshd {
            child,
            dir: dir.to_path_buf(),
        }
    }

    /// The ssh command of the server's clients.
    fn ssh_command(&self) -> String {
        format!("ssh -F {}", text(&self.dir.join("ssh_config")))
    }

    /// Kills the server's session processes and everything they started (the remote
    /// commands): every connection drops and the "host's" work stops with it, as when a host
    /// goes away; the server keeps listening. Killing the sessions alone left a remote
    /// `learn selfplay` writing games after the drop (it learns of the closed connection only
    /// when it next writes to it), so the games counted after the drop were sometimes fewer
    /// than those the rerun found.
    fn drop_connections(&self) {
        let parents: Vec<(String, String)> = std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter_map(|entry| {
                let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
                // pid (comm) state ppid ...: the fields after the command's closing parenthesis.
                let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
                let parent = after.split_whitespace().nth(1)?.to_string();
                Some((entry.file_name().to_string_lossy().into_owned(), parent))
            })
            .collect();
        let mut doomed = Vec::new();
        let mut frontier = vec![self.child.id().to_string()];
        while let Some(parent) = frontier.pop() {
            for (pid, _) in parents.iter().filter(|(_, p)| *p == parent) {
                doomed.push(pid.clone());
                frontier.push(pid.clone());
            }
        }
        if !doomed.is_empty() {
            let _ = Command::new("kill")
                .args(&doomed)
                .stderr(Stdio::null())
                .status();
        }
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        self.drop_connections();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The unsharded run of [`QUICK`], played once for the tests that compare with it.
fn unsharded() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("unsharded").join("data");
        run(Command::new(env!("CARGO_BIN_EXE_learn"))
            .args(["selfplay", "--out", &text(&dir)])
            .args(QUICK));
        dir
    })
}

/// `scripts/selfplay-hosts.sh` over `hosts` into `dir/merged` (shards in `dir/merged.shards`,
/// played in `dir/remote`), with this build's `learn` here and on the hosts.
fn selfplay_hosts(sshd: &Sshd, dir: &Path, hosts: &str, settings: &[&str]) -> Output {
    let learn = format!("'{}'", env!("CARGO_BIN_EXE_learn"));
    Command::new("bash")
        .arg(repo().join("scripts/selfplay-hosts.sh"))
        .args(["--hosts", hosts, "--ssh", &sshd.ssh_command()])
        .args(["--checkout", &text(&repo())])
        .args(["--remote-dir", &text(&dir.join("remote"))])
        .args(["--remote-learn", &learn, "--local-learn", &learn])
        .args(["--out", &text(&dir.join("merged")), "--"])
        .args(settings)
        .output()
        .expect("bash runs")
}

/// Every file of `dir` (name → bytes); empty when `dir` does not exist.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return BTreeMap::new();
    };
    entries
        .flatten()
        .filter(|entry| entry.path().is_file())
        .map(|entry| {
            (
                entry.file_name().to_string_lossy().into_owned(),
                std::fs::read(entry.path()).unwrap(),
            )
        })
        .collect()
}

/// The game files of `dir`.
fn games(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut all = files(dir);
    all.retain(|name, _| name.ends_with(".csbsp"));
    all
}

fn describe(output: &Output, dir: &Path) -> String {
    format!(
        "exit {:?}\nstdout: {}\nstderr: {}\nparallel.log: {}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
        std::fs::read_to_string(dir.join("merged.shards/parallel.log")).unwrap_or_default()
    )
}

/// The script's one-line failure: exit 1, naming a shard that failed on a host whose name
/// starts with `host`, with ssh's exit code.
fn assert_one_line_failure(output: &Output, dir: &Path, host: &str) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{}", describe(output, dir));
    assert_eq!(stderr.lines().count(), 1, "{}", describe(output, dir));
    assert!(
        stderr.starts_with("selfplay-hosts.sh: shard ")
            && stderr.contains(&format!("failed on {host}"))
            && stderr.contains(" (exit 255: ")
            && stderr.contains("run the same command again to resume"),
        "{stderr}"
    );
    stderr
}

/// The games the `selfplay: shard I/N ...` lines of a run's stdout say were already there.
fn already_there(stdout: &str) -> Vec<u64> {
    stdout
        .lines()
        .filter(|line| line.starts_with("selfplay: shard "))
        .map(|line| {
            let before = line.split(" already there").next().unwrap();
            before.rsplit(' ').next().unwrap().parse().unwrap()
        })
        .collect()
}

#[test]
fn two_shards_over_ssh_merge_into_the_unsharded_runs_files() {
    let dir = scratch("two-shards");
    let sshd = Sshd::start(&dir);
    let output = selfplay_hosts(&sshd, &dir, "shard-a,shard-b", &QUICK);
    assert!(output.status.success(), "{}", describe(&output, &dir));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(already_there(&stdout), [0, 0], "{stdout}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr
            .contains("4 games written now, 0 already there; its manifest lists 4 of the run's 4"),
        "{stderr}"
    );
    assert_eq!(games(&dir.join("merged.shards/shard-0-of-2")).len(), 2);
    assert!(
        files(&dir.join("merged")) == files(unsharded()),
        "the merged files differ from the unsharded run's"
    );
    drop(sshd);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_refused_host_is_one_line_and_the_rerun_resumes() {
    let dir = scratch("refused");
    let sshd = Sshd::start(&dir);
    let output = selfplay_hosts(&sshd, &dir, "shard-a,shard-refused", &QUICK);
    let stderr = assert_one_line_failure(&output, &dir, "shard-refused");
    assert!(stderr.contains("Connection refused"), "{stderr}");
    // parallel picks which shard goes to which host: the other one finished and came back.
    let failed = if stderr.contains("shard 0/2 failed") {
        0
    } else {
        1
    };
    assert!(
        stderr.contains(&format!("shard {failed}/2 failed")),
        "{stderr}"
    );
    let shards = dir.join("merged.shards");
    let finished = shards.join(format!("shard-{}-of-2", 1 - failed));
    let kept = files(&finished);
    assert_eq!(games(&finished).len(), 2, "{}", describe(&output, &dir));
    assert!(games(&shards.join(format!("shard-{failed}-of-2"))).is_empty());
    assert!(
        !dir.join("merged").exists(),
        "nothing is merged from a failed run"
    );

    let output = selfplay_hosts(&sshd, &dir, "shard-a,shard-b", &QUICK);
    assert!(output.status.success(), "{}", describe(&output, &dir));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut resumed = already_there(&stdout);
    resumed.sort();
    assert_eq!(resumed, [0, 2], "{stdout}");
    assert!(
        files(&finished) == kept,
        "the finished shard's files changed"
    );
    assert!(
        files(&dir.join("merged")) == files(unsharded()),
        "the merged files differ from the unsharded run's"
    );
    drop(sshd);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn connections_dropped_mid_shard_are_one_line_and_the_rerun_resumes() {
    let dir = scratch("dropped");
    let sshd = Sshd::start(&dir);
    // Slower games (about a second each), so the shards are mid-way when the connections drop.
    let settings = [
        "--games",
        "6",
        "--iterations",
        "60",
        "--nodes",
        "5000",
        "--seed",
        "12",
    ];
    let script = {
        let learn = format!("'{}'", env!("CARGO_BIN_EXE_learn"));
        Command::new("bash")
            .arg(repo().join("scripts/selfplay-hosts.sh"))
            .args(["--hosts", "shard-a,shard-b", "--ssh", &sshd.ssh_command()])
            .args(["--checkout", &text(&repo())])
            .args(["--remote-dir", &text(&dir.join("remote"))])
            .args(["--remote-learn", &learn, "--local-learn", &learn])
            .args(["--out", &text(&dir.join("merged")), "--"])
            .args(settings)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("bash runs")
    };
    let remote = |index: usize| dir.join(format!("remote/shard-{index}-of-2"));
    let started = Instant::now();
    while games(&remote(0)).is_empty() && games(&remote(1)).is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no game was written within 300 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    sshd.drop_connections();
    let output = script.wait_with_output().unwrap();
    let stderr = assert_one_line_failure(&output, &dir, "shard-");
    assert!(stderr.contains("closed by remote host"), "{stderr}");
    // Every game written so far is kept (on the "host", and returned here).
    let mut written = BTreeMap::new();
    for index in 0..2 {
        written.extend(games(&remote(index)));
        let here = games(&dir.join(format!("merged.shards/shard-{index}-of-2")));
        assert!(here
            .iter()
            .all(|(name, bytes)| written.get(name) == Some(bytes)));
    }
    assert!(!written.is_empty() && written.len() < 6, "{written:?}");

    let output = selfplay_hosts(&sshd, &dir, "shard-a,shard-b", &settings);
    assert!(output.status.success(), "{}", describe(&output, &dir));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let resumed: u64 = already_there(&stdout).iter().sum();
    assert_eq!(resumed as usize, written.len(), "{stdout}");
    let merged = games(&dir.join("merged"));
    assert_eq!(merged.len(), 6);
    assert!(written
        .iter()
        .all(|(name, bytes)| merged.get(name) == Some(bytes)));
    drop(sshd);
    let _ = std::fs::remove_dir_all(&dir);
}
