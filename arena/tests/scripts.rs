//! The scripts in `scripts/`, run with the mistakes people make: each refuses in one line with a
//! non-zero exit (2 for wrong arguments), loses nothing, and leaves no process behind.

mod common;

use common::*;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scripts")
        .join(name)
}

fn repo_file(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    path.to_str().unwrap().to_string()
}

/// Runs a script from a scratch directory (not the repository root) with extra environment.
fn run_script(name: &str, args: &[&str], env: &[(&str, &str)], cwd: &Path) -> Output {
    Command::new(script(name))
        .args(args)
        .envs(env.iter().copied())
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{name} runs: {e}"))
}

/// Exit code `code` and a last stderr line containing `needle`, no traceback.
fn assert_refused(output: &Output, code: i32, needle: &str, case: &str) {
    let message = stderr(output);
    assert_eq!(output.status.code(), Some(code), "{case}: {message}");
    let last = message.lines().last().unwrap_or("");
    assert!(last.contains(needle), "{case}: {message}");
    assert!(!message.contains("Traceback"), "{case}: {message}");
    assert!(!message.contains("unbound variable"), "{case}: {message}");
}

/// Directory of the arena and test bot binaries this test was built with.
fn binaries() -> String {
    let arena = Path::new(arena());
    arena.parent().unwrap().to_str().unwrap().to_string()
}

#[test]
fn race_pace_checks_its_arguments_and_shows_the_arena_s_error() {
    let dir = scratch("script_race_pace");
    let bin = binaries();
    let env = [("ARENA_DIR", bin.as_str())];
    let testbot = testbot("good");
    let cases: &[(&[&str], i32, &str)] = &[
        (&[], 2, "usage: race-pace.sh \"BOT COMMAND\" [games] [seed]"),
        (
            &[&testbot, "x"],
            2,
            "games must be a whole number >= 1, got \"x\"",
        ),
        (
            &[&testbot, "0"],
            2,
            "games must be a whole number >= 1, got \"0\"",
        ),
        (
            &[&testbot, "2", "-1"],
            2,
            "seed must be a whole number >= 0, got \"-1\"",
        ),
        (&[" "], 2, "the bot command is empty"),
        (
            &["/nonexistent/bot", "2"],
            2,
            "p1 command `/nonexistent/bot` stopped before its first answer",
        ),
    ];
    for (args, code, needle) in cases {
        let output = run_script("race-pace.sh", args, &env, &dir);
        assert_refused(&output, *code, needle, &format!("{args:?}"));
    }
    let output = run_script(
        "race-pace.sh",
        &[&testbot, "2"],
        &[("ARENA_DIR", "/nonexistent")],
        &dir,
    );
    assert_refused(&output, 2, "/nonexistent/arena is missing", "no arena");
}

#[test]
fn viewer_screenshot_refuses_bad_turns_and_keeps_the_old_picture_when_chromium_fails() {
    let dir = scratch("script_viewer_screenshot");
    let replay = repo_file("viewer/tests/fixtures/sample-replay.json");
    let picture = dir.join("shot.png");
    fs::write(&picture, b"the old picture").unwrap();
    let picture = picture.to_str().unwrap();
    let chromium = [("CHROMIUM", "/bin/false")];
    let turns = load_json(&replay)["turns"].as_array().unwrap().len();
    let too_far = (turns + 1).to_string();
    let range = format!("TURN must be in 0..{turns} for {replay}, got {too_far}");
    let cases: &[(&[&str], &str)] = &[
        (
            &[&replay, "abc", picture],
            "TURN must be a whole number >= 0, got \"abc\"",
        ),
        (
            &[&replay, "-3", picture],
            "TURN must be a whole number >= 0, got \"-3\"",
        ),
        (&[&replay, &too_far, picture], &range),
        (
            &["/nonexistent/game.json", "3", picture],
            "no replay file /nonexistent/game.json",
        ),
    ];
    for (args, needle) in cases {
        let output = run_script("viewer-screenshot.sh", args, &chromium, &dir);
        assert_refused(&output, 2, needle, &format!("{args:?}"));
    }
    let output = run_script(
        "viewer-screenshot.sh",
        &[&replay, "3", picture],
        &chromium,
        &dir,
    );
    assert_refused(
        &output,
        1,
        "viewer-screenshot.sh: chromium failed",
        "chromium fails",
    );
    assert_eq!(fs::read(picture).unwrap(), b"the old picture");
}

#[test]
fn turn_time_refuses_in_one_line_and_stops_its_children_on_sigterm() {
    let dir = scratch("script_turn_time");
    let bot = env!("CARGO_BIN_EXE_testbot");
    let cases: &[(&[&str], &str)] = &[
        (
            &["--games", "0"],
            "turn-time.py: --games must be at least 1, got 0",
        ),
        (
            &["--input", "nope.txt"],
            "turn-time.py: no input file nope.txt",
        ),
        (
            &["--", "/nonexistent/bot"],
            "turn-time.py: cannot start /nonexistent/bot",
        ),
        (
            &["--games", "1", "--", bot, "crash"],
            "turn-time.py: the bot stopped answering at turn 6 (exit 101): pid=",
        ),
    ];
    for (args, needle) in cases {
        let output = run_script("turn-time.py", args, &[], &dir);
        assert_refused(&output, 2, needle, &format!("{args:?}"));
        assert_eq!(stderr(&output).lines().count(), 1, "{args:?}");
    }
    let output = run_script(
        "turn-time.py",
        &["--games", "1", "--", bot, "good"],
        &[],
        &dir,
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).starts_with("turn-time: games=1 "),
        "{}",
        stdout(&output)
    );

    // Killed alone with SIGTERM while busy: the spinner and the bot go with it.
    let mut child = Command::new(script("turn-time.py"))
        .args(["--busy", "--games", "100000", "--", bot, "good"])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut children = Vec::new();
    while children.len() < 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
        children = children_of(child.id());
    }
    assert!(children.len() >= 2, "spinner and bot running: {children:?}");
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    child.wait().unwrap();
    // The spinner is not a bot: it spins until killed, so it must be gone at once.
    let spinner_gone = Instant::now() + Duration::from_secs(5);
    while children.iter().any(|pid| process_exists(*pid)) && Instant::now() < spinner_gone {
        std::thread::sleep(Duration::from_millis(50));
    }
    for pid in children {
        assert!(!process_exists(pid), "process {pid} outlived turn-time.py");
    }
}

/// Pids whose parent is `parent` (from /proc).
fn children_of(parent: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`; comm may hold spaces, so read after the last ')'.
        let after = &stat[stat.rfind(')').unwrap_or(0) + 1..];
        let ppid = after
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(parent) {
            found.push(pid);
        }
    }
    found
}

#[test]
fn bench_ab_says_why_a_binary_gave_nothing() {
    let dir = scratch("script_bench_ab");
    let cases: &[(&[&str], &str)] = &[
        (
            &["/bin/false"],
            "bench-ab: /bin/false exited with status 1: no message on stderr",
        ),
        (
            &["/bin/true"],
            "bench-ab: /bin/true printed no timed figure",
        ),
        (
            &["/nonexistent/bench"],
            "bench-ab: /nonexistent/bench is not an executable file",
        ),
        (
            &["--rounds", "0", "/bin/true"],
            "bench-ab: --rounds must be at least 1, got 0",
        ),
    ];
    for (args, needle) in cases {
        let output = run_script("bench-ab.py", args, &[], &dir);
        assert_refused(&output, 2, needle, &format!("{args:?}"));
        assert!(stdout(&output).is_empty(), "{args:?}: no table");
    }
    let help = run_script("bench-ab.py", &["--help"], &[], &dir);
    assert!(help.status.success());
    assert!(
        stdout(&help).contains("pinned to one core, and\nprints for every timed line"),
        "{}",
        stdout(&help)
    );
}

#[test]
fn cg_demo_input_refuses_arguments_and_says_where_the_demo_game_is() {
    let dir = scratch("script_cg_demo_input");
    let output = run_script("cg-demo-input.py", &["out.txt"], &[], &dir);
    assert_refused(
        &output,
        2,
        "cg-demo-input.py: takes no arguments, got out.txt",
        "argument",
    );
    // A copy of the script with no ../shared next to its repository.
    let copy = dir.join("repo/scripts");
    fs::create_dir_all(&copy).unwrap();
    fs::copy(script("cg-demo-input.py"), copy.join("cg-demo-input.py")).unwrap();
    let output = Command::new("python3")
        .arg(copy.join("cg-demo-input.py"))
        .output()
        .unwrap();
    assert_refused(&output, 1, "cannot read the demo game", "no ../shared");
    assert_eq!(stderr(&output).lines().count(), 1);
}

#[test]
fn ab_refuses_options_without_values_and_bad_revisions_before_building() {
    let dir = scratch("script_ab");
    let tmp = dir.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["--rev-a"],
            "ab.sh: --rev-a needs 1 value(s) (ab.sh --help)",
        ),
        (
            &["--sprt", "0"],
            "ab.sh: --sprt needs 2 value(s) (ab.sh --help)",
        ),
        (
            &["--games"],
            "ab.sh: --games needs 1 value(s) (ab.sh --help)",
        ),
        (&["--bogus"], "ab.sh: unknown option --bogus (ab.sh --help)"),
        (
            &["--rev-b", "no-such-revision-x"],
            "ab.sh: --rev-b no-such-revision-x is not a revision of",
        ),
    ];
    for (args, needle) in cases {
        let start = Instant::now();
        let output = run_script("ab.sh", args, &[("TMPDIR", tmp)], &dir);
        assert_refused(&output, 2, needle, &format!("{args:?}"));
        assert_eq!(stderr(&output).lines().count(), 1, "{args:?}");
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{args:?}: refused before building"
        );
    }
    let help = run_script("ab.sh", &["--help"], &[], &dir);
    assert!(
        stdout(&help).starts_with("A/B two versions"),
        "{}",
        stdout(&help)
    );
    assert!(!stdout(&help).contains("set -euo"), "{}", stdout(&help));
}

/// The files `row.sh` played into `row`: its shards' results, sorted.
fn shard_results(row: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(row)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("shard-") && name.ends_with(".json"))
        .collect();
    names.sort();
    names
}

#[test]
fn row_with_an_sprt_stops_once_it_decides_and_resumes_to_the_same_report() {
    let dir = scratch("script_row_sprt");
    let row = dir.join("row");
    let replays = dir.join("replays");
    let (good, garbage) = (testbot("good"), testbot("garbage"));
    let args = [
        row.to_str().unwrap(),
        "6",
        "--p1",
        &good,
        "--p2",
        &garbage,
        "--games",
        "120",
        "--seed",
        "5",
        "--time-scale",
        "20",
        "--out",
        replays.to_str().unwrap(),
    ];
    let env = [("ARENA", arena()), ("SPRT", "0 50")];
    let first = run_script("row.sh", &args, &env, &dir);
    assert!(first.status.success(), "{}", stderr(&first));
    // Every pair a win: H1 long before the sixth shard.
    let played = shard_results(&row);
    assert!(!played.is_empty() && played.len() < 6, "{played:?}");
    let progress = fs::read_to_string(row.join("progress.txt")).unwrap();
    assert!(
        progress.contains(&format!(
            "SPRT 0 50 decided after shard {}: shards {} to 5 not played",
            played.len() - 1,
            played.len()
        )),
        "{progress}"
    );
    let report = fs::read_to_string(row.join("report.txt")).unwrap();
    assert!(report.contains(": H1 accepted"), "{report}");
    let games = format!("games: {} of 120", 20 * played.len());
    assert!(report.contains(&games), "{report}");

    // The same command again: nothing played, the same report.
    let again = run_script("row.sh", &args, &env, &dir);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(shard_results(&row), played);
    assert_eq!(fs::read_to_string(row.join("report.txt")).unwrap(), report);

    // Another SPRT, or none, is another row; a malformed one is refused before anything.
    for (sprt, code, needle) in [
        ("0 40", 2, "holds a row of other options"),
        ("", 2, "holds a row of other options"),
        (
            "fifty",
            2,
            "SPRT must be two Elo numbers \"ELO0 ELO1\" (got \"fifty\")",
        ),
        ("0 50 7", 2, "SPRT must be two Elo numbers"),
    ] {
        let env = [("ARENA", arena()), ("SPRT", sprt)];
        let refused = run_script("row.sh", &args, &env, &dir);
        assert_refused(&refused, code, needle, sprt);
        assert_eq!(shard_results(&row), played, "{sprt}");
    }
}

/// Each case (arguments, exit code, last stderr line's needle) refused by `name` in one line.
fn assert_refusals(name: &str, cases: &[(&[&str], i32, &str)], cwd: &Path) {
    for &(args, code, needle) in cases {
        let output = run_script(name, args, &[], cwd);
        assert_refused(&output, code, needle, needle);
        assert_eq!(stderr(&output).lines().count(), 1, "{needle}");
    }
}

#[test]
fn widen_policy_net_pads_with_zeros_and_refuses_what_is_not_a_narrower_policy() {
    let dir = scratch("script_widen_policy_net");
    let narrow = dir.join("narrow.txt");
    fs::write(
        &narrow,
        "csb-policy-net 1\nshape 2 1 2\ninput.weight 0.5 -1.5\ninput.bias 0.25\n\
         heads.weight 2.0 -3.0\nheads.bias 0.1 0.2\n",
    )
    .unwrap();
    let wide = dir.join("wide.txt");
    let (narrow_path, wide_path) = (narrow.to_str().unwrap(), wide.to_str().unwrap());
    let output = run_script(
        "widen-policy-net.py",
        &[narrow_path, wide_path, "3"],
        &[],
        &dir,
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        fs::read_to_string(&wide).unwrap(),
        "csb-policy-net 1\nshape 2 3 2\ninput.weight 0.5 0.0 0.0 -1.5 0.0 0.0\n\
         input.bias 0.25 0.0 0.0\nheads.weight 2.0 -3.0 0.0 0.0 0.0 0.0\nheads.bias 0.1 0.2\n"
    );
    let not_policy = dir.join("not-policy.txt");
    fs::write(&not_policy, "csb-value-net 2\n0.5\n").unwrap();
    let not_policy = not_policy.to_str().unwrap();
    let cases: [(&[&str], i32, &str); 4] = [
        (
            &[narrow_path, wide_path],
            2,
            "usage: scripts/widen-policy-net.py IN OUT WIDTH",
        ),
        (
            &["missing.txt", wide_path, "3"],
            1,
            "cannot read missing.txt",
        ),
        (
            &[wide_path, "out.txt", "2"],
            1,
            "a 3-wide network does not widen to 2",
        ),
        (
            &[not_policy, "out.txt", "4"],
            1,
            "is not a policy network file",
        ),
    ];
    assert_refusals("widen-policy-net.py", &cases, &dir);
    assert!(!dir.join("out.txt").exists());
}

#[test]
fn visit_noise_compares_each_seed_with_the_others_and_refuses_a_bot_without_candidates() {
    let dir = scratch("script_visit_noise");
    // A bot whose two pods' roots split their visits evenly over two actions on three turns.
    let bot = dir.join("even-bot.sh");
    fs::write(
        &bot,
        "#!/bin/sh\nfor turn in 1 2 3; do\n  echo \"turn $turn: iterations=4\" >&2\n  \
         echo 'candidates/1 pod=0 *0:2/0.5/- 1:2/0.5/-' >&2\n  \
         echo 'candidates/1 pod=1 0:2/0.5/- *1:2/0.5/-' >&2\n  \
         echo 'candidates/1 pod=2 *0:4/0.5/- 1:0/0.5/-' >&2\ndone\n",
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&bot).status().unwrap();
    let input = dir.join("input.txt");
    fs::write(&input, "3\n").unwrap();
    let (bot, input) = (bot.to_str().unwrap(), input.to_str().unwrap());
    let output = run_script("visit-noise.py", &[bot, input, "4", "3"], &[], &dir);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        "positions 4 x 3 seeds: cross-entropy against the other seeds' mean 0.6931, the \
         visits' own entropy 0.6931, uniform 2.3026"
    );
    // The arena's test bot prints moves, no candidate lines.
    let silent = env!("CARGO_BIN_EXE_testbot");
    let cases: [(&[&str], i32, &str); 4] = [
        (
            &[bot, input, "4", "1"],
            2,
            "usage: scripts/visit-noise.py CSB INPUT ITERATIONS SEEDS",
        ),
        (&[bot, "missing.txt", "4", "2"], 1, "cannot run"),
        (
            &["./no-such-bot", input, "4", "2"],
            1,
            "cannot run ./no-such-bot",
        ),
        (&[silent, input, "4", "2"], 1, "gave no root visits"),
    ];
    assert_refusals("visit-noise.py", &cases, &dir);
}
