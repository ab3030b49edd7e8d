//! Driving Debian's headless Chromium from a test: render a page to a temporary file, load it with
//! a `#turn=K` hash, and read back the DOM (`--dump-dom`) or a screenshot. Chromium missing is a
//! failure that says how to install it, never a skip.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Longest a single Chromium run may take before the test fails.
const RUN_LIMIT: Duration = Duration::from_secs(90);

/// The Chromium executable: `$CHROMIUM` if set, else `chromium` on PATH. Panics with
/// installation advice when it cannot be started.
pub fn executable() -> String {
    static FOUND: OnceLock<String> = OnceLock::new();
    FOUND.get_or_init(find).clone()
}

fn find() -> String {
    let name = std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium".to_string());
    let works = Command::new(&name)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    assert!(
        works,
        "cannot run `{name} --version`: the viewer's browser test needs Debian's chromium. \
         Install it with `scripts/install-chromium.sh` (as root: apt-get update && apt-get install -y chromium), \
         or point $CHROMIUM at a Chromium binary."
    );
    name
}

/// A scratch directory for one test, removed when dropped.
pub struct Scratch {
    pub dir: PathBuf,
}

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("csb-viewer-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a scratch directory");
        Scratch { dir }
    }

    /// Writes `html` as `page.html` and returns its path.
    pub fn page(&self, html: &str) -> PathBuf {
        let path = self.dir.join("page.html");
        std::fs::write(&path, html).expect("write the page");
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `file://` URL of `page` with `#fragment`.
fn url(page: &Path, fragment: &str) -> String {
    let absolute = page.canonicalize().expect("the page exists");
    format!("file://{}#{fragment}", absolute.display())
}

/// Runs headless Chromium on `page#fragment` with `extra` arguments in a fresh profile; returns
/// its standard output and standard error.
fn run(page: &Path, fragment: &str, profile: &Path, extra: &[String]) -> (String, String) {
    let mut command = Command::new(executable());
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--window-size=1280,800",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url(page, fragment))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("start chromium");
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let out_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let err_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for chromium") {
            break status;
        }
        if started.elapsed() > RUN_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within {RUN_LIMIT:?} on {fragment}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = out_reader.join().expect("stdout reader");
    let errors = err_reader.join().expect("stderr reader");
    assert!(
        status.success(),
        "chromium failed ({status}) on {fragment}:\n{errors}"
    );
    (output, errors)
}

/// The DOM of `page#fragment` after the page has run, as Chromium serialises it.
pub fn dump_dom(page: &Path, fragment: &str, scratch: &Scratch) -> String {
    let profile = scratch
        .dir
        .join(format!("profile-dom-{}", sanitize(fragment)));
    run(page, fragment, &profile, &["--dump-dom".to_string()]).0
}

/// The DOM of `page#fragment` after the page has run, and the messages the page wrote on its
/// console (`console.log`, `console.warn`, …), one a line as Chromium logs them
/// (`…:CONSOLE:N] "message", source: …`).
#[allow(dead_code)]
pub fn dump_dom_and_console(page: &Path, fragment: &str, scratch: &Scratch) -> (String, String) {
    let profile = scratch
        .dir
        .join(format!("profile-console-{}", sanitize(fragment)));
    let extra = ["--dump-dom", "--enable-logging=stderr", "--v=0"].map(String::from);
    let (dom, log) = run(page, fragment, &profile, &extra);
    let console = log
        .lines()
        .filter(|line| line.contains(":CONSOLE"))
        .collect::<Vec<_>>()
        .join("\n");
    (dom, console)
}

/// Saves a 1280×800 screenshot of `page#fragment` to `png`.
pub fn screenshot(page: &Path, fragment: &str, png: &Path, scratch: &Scratch) {
    let profile = scratch
        .dir
        .join(format!("profile-shot-{}", sanitize(fragment)));
    run(
        page,
        fragment,
        &profile,
        &[format!("--screenshot={}", png.display())],
    );
}

fn sanitize(fragment: &str) -> String {
    fragment
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// Text content of the element that starts with `open_tag` (no nested elements), with the
/// serialiser's entities decoded.
pub fn element_text<'a>(dom: &'a str, open_tag: &str) -> Option<String> {
    let start = dom.find(open_tag)? + open_tag.len();
    let length = dom[start..].find('<')?;
    let raw: &'a str = &dom[start..start + length];
    Some(
        raw.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&nbsp;", "\u{a0}")
            .replace("&amp;", "&"),
    )
}
