//! Check 4: the compiled bundle and a reference binary (the cargo-built bot), run on the same
//! recorded input with the same arguments (the reference may get a few more, e.g. the league the
//! bundle has built in), print byte-identical stdout and exit alike. A run that compared nothing
//! fails: either program exiting non-zero (bad `--args`, unreadable input) or printing no command
//! line.

use std::fs::File;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::error::{check, input, Result};

/// What one program printed.
struct Run {
    stdout: Vec<u8>,
    status: ExitStatus,
    /// The first and the last non-empty lines of its stderr ("" when none).
    stderr_head: String,
    stderr_tail: String,
}

impl Run {
    /// Why this run cannot stand for the program's behaviour, if it cannot.
    fn compared_nothing(&self, who: &str, program: &Path, input_file: &Path) -> Option<String> {
        let said = if self.stderr_head.is_empty() {
            String::new()
        } else {
            format!(" (stderr begins: {})", clip(&self.stderr_head))
        };
        if !self.status.success() {
            return Some(format!(
                "the {who} {} {} on {}{said}, so nothing was compared",
                program.display(),
                self.status,
                input_file.display()
            ));
        }
        if !self.stdout.contains(&b'\n') {
            return Some(format!(
                "the {who} {} printed no command line on {}{said}, so nothing was compared",
                program.display(),
                input_file.display()
            ));
        }
        None
    }
}

/// Runs both programs and compares; returns the number of output lines on success.
pub fn compare(
    bundle: &Path,
    reference: &Path,
    input_file: &Path,
    args: &[String],
    reference_args: &[String],
    timeout: Duration,
) -> Result<usize> {
    if !reference.is_file() {
        return Err(input(format!(
            "reference binary {} not found (build it first, e.g. cargo build --release)",
            reference.display()
        )));
    }
    if !input_file.is_file() {
        return Err(input(format!(
            "input file {} not found",
            input_file.display()
        )));
    }
    let ours = run(bundle, args, input_file, timeout, "bundle")?;
    let all_reference_args: Vec<String> = args.iter().chain(reference_args).cloned().collect();
    let theirs = run(
        reference,
        &all_reference_args,
        input_file,
        timeout,
        "reference",
    )?;
    for (who, program, side) in [("reference", reference, &theirs), ("bundle", bundle, &ours)] {
        if let Some(why) = side.compared_nothing(who, program, input_file) {
            return Err(check(why));
        }
    }
    if ours.stdout == theirs.stdout {
        if ours.status.code() != theirs.status.code() {
            return Err(check(format!(
                "same output, but the bundle exited with {} and the reference with {}{}",
                ours.status,
                theirs.status,
                tail(&ours.stderr_tail)
            )));
        }
        return Ok(ours.stdout.split(|b| *b == b'\n').count().saturating_sub(1));
    }
    let a = String::from_utf8_lossy(&ours.stdout);
    let b = String::from_utf8_lossy(&theirs.stdout);
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.split('\n').collect(), b.split('\n').collect());
    let i = la
        .iter()
        .zip(&lb)
        .position(|(x, y)| x != y)
        .unwrap_or(la.len().min(lb.len()));
    let show = |v: &[&str]| {
        v.get(i)
            .map(|l| format!("{:?}", clip(l)))
            .unwrap_or_else(|| "end of output".to_string())
    };
    Err(check(format!(
        "the bundle's output differs from {} at line {}: bundle printed {}, reference printed {}{}",
        reference.display(),
        i + 1,
        show(&la),
        show(&lb),
        tail(&ours.stderr_tail)
    )))
}

fn clip(line: &str) -> String {
    if line.chars().count() > 100 {
        format!("{}...", line.chars().take(100).collect::<String>())
    } else {
        line.to_string()
    }
}

fn tail(stderr: &str) -> String {
    if stderr.is_empty() {
        String::new()
    } else {
        format!(" (bundle stderr ends: {})", clip(stderr))
    }
}

fn run(
    program: &Path,
    args: &[String],
    input_file: &Path,
    timeout: Duration,
    who: &str,
) -> Result<Run> {
    let scratch = tempfile::tempdir()
        .map_err(|e| input(format!("cannot create a temporary directory: {e}")))?;
    let out_path = scratch.path().join("stdout");
    let err_path = scratch.path().join("stderr");
    let open = |p: &Path| {
        File::create(p).map_err(|e| input(format!("cannot create {}: {e}", p.display())))
    };
    let stdin = File::open(input_file)
        .map_err(|e| input(format!("cannot open {}: {e}", input_file.display())))?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::from(stdin))
        .stdout(Stdio::from(open(&out_path)?))
        .stderr(Stdio::from(open(&err_path)?))
        .spawn()
        .map_err(|e| input(format!("cannot run {}: {e}", program.display())))?;
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(check(format!(
                    "the {who} ({}) ran longer than {} s on {}",
                    program.display(),
                    timeout.as_secs(),
                    input_file.display()
                )));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(input(format!("cannot wait for {}: {e}", program.display()))),
        }
    };
    let stdout = std::fs::read(&out_path).unwrap_or_default();
    let stderr = std::fs::read(&err_path).unwrap_or_default();
    let stderr = String::from_utf8_lossy(&stderr);
    let mut said = stderr.lines().filter(|l| !l.trim().is_empty());
    let stderr_head = said.next().unwrap_or("").to_string();
    let stderr_tail = said.next_back().unwrap_or(&stderr_head).to_string();
    Ok(Run {
        stdout,
        status,
        stderr_head,
        stderr_tail,
    })
}
