//! Pipes the recorded input fixture through both binaries and checks the answers are what
//! CodinGame accepts: two lines per turn, `X Y THRUST`, thrust within the league's cap, at most
//! one BOOST per pod; the GA's output is byte-identical for a fixed seed and generation count;
//! end of input exits 0, malformed input exits 2 with one line on stderr.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const REFLEX: &str = env!("CARGO_BIN_EXE_reflex");
const GA: &str = env!("CARGO_BIN_EXE_ga");

fn fixture() -> String {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/input-seed-42.p0.txt");
    std::fs::read_to_string(path).expect("read the fixture")
}

fn turns(input: &str) -> usize {
    let lines: Vec<&str> = input.lines().collect();
    let checkpoints: usize = lines[1].parse().unwrap();
    (lines.len() - 2 - checkpoints) / 4
}

fn run(binary: &str, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(binary)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the bot");
    let mut stdin = child.stdin.take().unwrap();
    let text = input.to_string();
    let writer = std::thread::spawn(move || {
        // The bot may exit early on bad input; a broken pipe is fine then.
        let _ = stdin.write_all(text.as_bytes());
    });
    let output = child.wait_with_output().expect("wait for the bot");
    writer.join().unwrap();
    output
}

/// Checks the answers and returns them.
fn check_well_formed(output: &Output, turns: usize, cap: u32) -> String {
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout.clone()).expect("UTF-8 output");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2 * turns, "two lines per turn");
    let mut boosts = [0; 2];
    for (index, line) in lines.iter().enumerate() {
        let tokens: Vec<&str> = line.split(' ').collect();
        assert_eq!(tokens.len(), 3, "line {}: {line:?}", index + 1);
        for coordinate in &tokens[..2] {
            let value: i64 = coordinate.parse().unwrap_or_else(|_| panic!("{line:?}"));
            assert!(value.abs() < 1_000_000_000, "{line:?}");
        }
        match tokens[2] {
            "BOOST" => boosts[index % 2] += 1,
            "SHIELD" => {}
            thrust => {
                let power: u32 = thrust.parse().unwrap_or_else(|_| panic!("{line:?}"));
                assert!(
                    power <= cap,
                    "line {}: thrust {power} over {cap}",
                    index + 1
                );
            }
        }
    }
    assert!(boosts.iter().all(|&count| count <= 1), "{boosts:?}");
    text
}

#[test]
fn reflex_answers_every_turn_within_the_cap() {
    let input = fixture();
    let legend = run(REFLEX, &[], &input);
    let text = check_well_formed(&legend, turns(&input), 200);
    assert!(text.contains("BOOST"));
    let gold = run(REFLEX, &["--league", "gold"], &input);
    check_well_formed(&gold, turns(&input), 100);
    // Deterministic.
    assert_eq!(run(REFLEX, &[], &input).stdout, legend.stdout);
}

#[test]
fn ga_answers_every_turn_within_the_cap_and_reproducibly() {
    let input = fixture();
    let args = ["--iterations", "15", "--seed", "11"];
    let first = run(GA, &args, &input);
    check_well_formed(&first, turns(&input), 200);
    let second = run(GA, &args, &input);
    assert!(
        first.stdout == second.stdout,
        "same seed and iterations, different output"
    );
    let gold = run(
        GA,
        &["--league", "gold", "--iterations", "15", "--depth", "4"],
        &input,
    );
    check_well_formed(&gold, turns(&input), 100);
}

#[test]
fn ga_on_the_clock_answers_every_turn() {
    // A short game on the clock (first 20 turns, small budgets).
    let input = fixture();
    let lines: Vec<&str> = input.lines().collect();
    let checkpoints: usize = lines[1].parse().unwrap();
    let short = lines[..2 + checkpoints + 4 * 20].join("\n") + "\n";
    let output = run(
        GA,
        &["--budget-ms", "5", "--first-budget-ms", "20", "--stats"],
        &short,
    );
    check_well_formed(&output, 20, 200);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with("ga: 20 turns"), "{stderr}");
}

#[test]
fn end_of_input_exits_zero_and_bad_input_exits_two() {
    for binary in [REFLEX, GA] {
        let empty = run(binary, &[], "");
        assert!(empty.status.success() && empty.stdout.is_empty());
        // Init only, then end of input: no turn, exit 0.
        let init_only = run(binary, &[], "3\n2\n100 100\n5000 5000\n");
        assert_eq!(init_only.status.code(), Some(0));
        let cases = [
            "3\nfour\n",
            "3\n2\n100 100\n5000 5000\n1 2 3 4 -1 1\n1 2 3 4 -1\n",
            "3\n2\n100 100\n5000 5000\n1 2 3 4 -1 1\n1 2 3 4 -1 1\n",
            "3\n2\n100 100\n5000 5000\n1 2 3 4 -1 7\n",
        ];
        for case in cases {
            let output = run(
                binary,
                &["--iterations", "1"][..usize::from(binary == GA) * 2],
                case,
            );
            assert_eq!(output.status.code(), Some(2), "{case:?}: {output:?}");
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(stderr.contains("expected"), "{stderr}");
        }
        let bad_flag = run(binary, &["--league", "wood"], "");
        assert_eq!(bad_flag.status.code(), Some(2));
    }
}
