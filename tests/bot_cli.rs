//! The bot binary as CodinGame runs it: reproducible output, clean exits, clear errors on bad
//! input and flags, no panic on any input.

mod bot_run;

use bot_run::run_bot;

const RECORDED_INPUT: &str = "replays/inputs/cg-demo.p0.txt";

fn recorded_input() -> Vec<u8> {
    let text = std::fs::read_to_string(RECORDED_INPUT).unwrap();
    // The first 30 turns keep the debug-build test quick.
    let lines: Vec<&str> = text.lines().take(5 + 4 * 30).collect();
    (lines.join("\n") + "\n").into_bytes()
}

#[test]
fn same_seed_and_iterations_give_identical_output() {
    let input = recorded_input();
    let args = ["--iterations", "300", "--seed", "42"];
    let first = run_bot(&args, &input);
    let second = run_bot(&args, &input);
    assert!(first.status.success());
    assert_eq!(String::from_utf8_lossy(&first.stdout).lines().count(), 60);
    assert_eq!(first.stdout, second.stdout);
    let other_seed = run_bot(&["--iterations", "300", "--seed", "43"], &input);
    assert!(other_seed.status.success());
}

/// `(iterations, simulated_turns, nodes)` of a diagnostic line
/// `turn N: iterations=… simulated_turns=… nodes=… ms=…`.
fn diagnostic_counts(line: &str) -> (u64, u64, u64) {
    let value = |name: &str| -> u64 {
        let field = line
            .split(' ')
            .find_map(|token| token.strip_prefix(name))
            .unwrap_or_else(|| panic!("no {name} in {line:?}"));
        field.parse().unwrap()
    };
    (
        value("iterations="),
        value("simulated_turns="),
        value("nodes="),
    )
}

/// The `value=` of a diagnostic line, if it has one.
fn diagnostic_value(line: &str) -> Option<f64> {
    let field = line
        .split(' ')
        .find_map(|token| token.strip_prefix("value="))?;
    Some(
        field
            .parse()
            .unwrap_or_else(|_| panic!("value {field:?} in {line:?}")),
    )
}

#[test]
fn each_turn_reports_its_search_on_one_stderr_line() {
    let output = run_bot(&["--iterations", "300"], &recorded_input());
    let stderr = String::from_utf8(output.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 30, "{stderr}");
    for (turn, line) in lines.iter().enumerate() {
        assert!(line.starts_with(&format!("turn {}: ", turn + 1)), "{line}");
        let (iterations, simulated_turns, nodes) = diagnostic_counts(line);
        assert_eq!(iterations, 300, "{line}");
        assert!(simulated_turns > iterations, "{line}");
        // 300 iterations give a tree of more than the root, far below the pool (and below
        // 300 iterations × 8 plies × 10 children).
        assert!(nodes > 1 && nodes < 300 * 8 * 10, "{line}");
        let value = diagnostic_value(line).unwrap_or_else(|| panic!("no value= in {line:?}"));
        assert!((0.0..=1.0).contains(&value), "{line}");
    }
    // A pool too small for the search fills and stops growing; the bot plays on.
    let output = run_bot(&["--iterations", "300", "--nodes", "16"], &recorded_input());
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    for line in stderr.lines() {
        assert!(diagnostic_counts(line).2 <= 16, "{line}");
    }
}

/// `value=` is the mean score of the action one of our pods chose, as `--verbose 1` lists
/// it (`candidates/1 pod=I … *ACTION:VISITS/MEAN/PRIOR …`, one line per tree, ours first): our
/// runner's pod.
#[test]
fn the_value_is_the_chosen_action_mean_of_one_of_our_trees() {
    use csb::bot::candidates::CandidateLine;
    let output = run_bot(
        &["--iterations", "300", "--verbose", "1"],
        &recorded_input(),
    );
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines.len(),
        5 * 30,
        "a turn line and four tree lines a turn"
    );
    let mut differed = false;
    for turn in lines.chunks(5) {
        let value = diagnostic_value(turn[0]).unwrap_or_else(|| panic!("{turn:?}"));
        let trees: Vec<CandidateLine> = turn[1..]
            .iter()
            .map(|line| CandidateLine::parse(line).unwrap_or_else(|e| panic!("{line:?}: {e}")))
            .collect();
        assert_eq!(
            trees.iter().map(|tree| tree.pod).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
        for tree in &trees {
            assert_eq!(tree.candidates.len(), 10, "{turn:?}");
            let visits: u32 = tree.candidates.iter().map(|c| c.visits).sum();
            assert!(visits > 0 && visits <= 300, "{turn:?}");
            let priors: f64 = tree.candidates.iter().map(|c| c.prior.unwrap()).sum();
            assert!(
                (priors - 1.0).abs() < 0.002,
                "the policy's priors sum to 1: {turn:?}"
            );
        }
        // The opponent's starred action is its most visited.
        for tree in &trees[2..] {
            let most = tree.candidates.iter().map(|c| c.visits).max().unwrap();
            assert_eq!(tree.candidates[usize::from(tree.starred)].visits, most);
        }
        let chosen_means: Vec<f64> = trees[..2]
            .iter()
            .map(|tree| tree.candidates[usize::from(tree.starred)].mean)
            .collect();
        assert!(
            chosen_means
                .iter()
                .any(|mean| (mean - value).abs() <= 0.00051),
            "{turn:?}"
        );
        differed |= (chosen_means[0] - chosen_means[1]).abs() > 0.001;
    }
    assert!(
        differed,
        "the two pods' means tell the runner apart somewhere"
    );
}

/// With the hand evaluation the search has no priors: each is written `-`.
#[test]
fn the_hand_evaluation_writes_no_priors() {
    use csb::bot::candidates::CandidateLine;
    let output = run_bot(
        &["--iterations", "200", "--verbose", "1", "--eval", "hand"],
        &recorded_input(),
    );
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    let trees: Vec<CandidateLine> = stderr
        .lines()
        .filter(|line| line.starts_with("candidates/"))
        .map(|line| CandidateLine::parse(line).unwrap())
        .collect();
    assert_eq!(trees.len(), 4 * 30);
    assert!(trees
        .iter()
        .all(|tree| tree.candidates.iter().all(|c| c.prior.is_none())));
}

#[test]
fn every_output_line_is_a_valid_command_under_the_cap() {
    for (league, cap) in [("gold", 100), ("legend", 200)] {
        let output = run_bot(
            &["--iterations", "200", "--league", league],
            &recorded_input(),
        );
        for line in String::from_utf8(output.stdout).unwrap().lines() {
            let tokens: Vec<&str> = line.split(' ').collect();
            assert_eq!(tokens.len(), 3, "{line}");
            tokens[0].parse::<i32>().unwrap();
            tokens[1].parse::<i32>().unwrap();
            match tokens[2] {
                "BOOST" | "SHIELD" => {}
                thrust => assert!(thrust.parse::<u16>().unwrap() <= cap, "{line}"),
            }
        }
    }
}

#[test]
fn end_of_input_exits_zero() {
    for input in ["", "3\n2\n0 0\n1000 0\n"] {
        let output = run_bot(&["--iterations", "10"], input.as_bytes());
        assert_eq!(output.status.code(), Some(0), "input {input:?}");
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn malformed_input_gives_one_clear_line_and_exit_2() {
    let cases: [(&str, &str); 5] = [
        ("three\n", "input line 1: expected the number of laps"),
        (
            "3\n1\n0 0\n",
            "input line 2: expected the number of checkpoints",
        ),
        ("3\n2\n0 0\n5 5 5\n", "input line 4: expected checkpoint 1"),
        (
            "3\n2\n0 0\n9000 0\n1 2 3 4 5 1\n1 2 3 4 5\n",
            "input line 6: expected pod line 2 of 4",
        ),
        (
            "3\n2\n0 0\n9000 0\n1 2 3 4 5 7\n",
            "input line 5: expected pod line 1 of 4",
        ),
    ];
    for (input, message) in cases {
        let output = run_bot(&["--iterations", "10"], input.as_bytes());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "input {input:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// Wrong flags, as people type them: exit 2 and exactly this one line on stderr, nothing on stdout.
#[test]
fn every_wrong_flag_gives_one_line_naming_it_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["--bogus"],
            "csb: unknown flag --bogus (csb --help lists the flags)",
        ),
        (
            &["--iteration", "300"],
            "csb: unknown flag --iteration (csb --help lists the flags)",
        ),
        (
            &["300"],
            "csb: unexpected argument \"300\": flags go --NAME VALUE (csb --help)",
        ),
        (&["--seed"], "csb: --seed needs a value (csb --help)"),
        (
            &["--depth", "zero"],
            "csb: --depth expects eval or an integer in 1..=32, got \"zero\"",
        ),
        (
            &["--iterations", "0"],
            "csb: --iterations expects a whole number >= 1, got \"0\"",
        ),
        (
            &["--nodes", "0"],
            "csb: --nodes expects a whole number in 16..=10000000, got \"0\"",
        ),
        (
            &["--budget-ms", "0"],
            "csb: --budget-ms expects a number > 0, got \"0\"",
        ),
        (
            &["--league", "bronze9"],
            "csb: --league expects wood3, wood2, wood1, bronze, silver, gold or legend, got \"bronze9\"",
        ),
        (
            &["--verbose", "yes"],
            "csb: --verbose expects 0 or 1, got \"yes\"",
        ),
        (
            &["--discount", "2"],
            "csb: --discount expects a number in (0, 1], got \"2\"",
        ),
    ];
    for (args, expected) in cases {
        let output = run_bot(args, &recorded_input());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr, format!("{expected}\n"), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn help_goes_to_stdout_with_every_flag_its_default_and_meaning() {
    for flag in ["--help", "-h"] {
        let output = run_bot(&[flag], b"");
        assert_eq!(output.status.code(), Some(0));
        assert!(output.stderr.is_empty());
        let help = String::from_utf8(output.stdout).unwrap();
        assert!(help.starts_with("usage: csb "), "{help}");
        for (flag, default) in [
            ("--budget-ms MS", "[50]"),
            ("--depth eval|D", "[eval]"),
            ("--league", "[legend]"),
        ] {
            let line = help
                .lines()
                .find(|line| line.trim_start().starts_with(flag))
                .unwrap_or_else(|| panic!("{flag} missing: {help}"));
            assert!(line.ends_with(default), "{line}");
            // A meaning between the flag and its default.
            assert!(line.split_whitespace().count() > 4, "{line}");
        }
    }
}

#[test]
fn garbage_never_panics() {
    // Deterministic pseudo-random inputs mixing valid prefixes with noise.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet = b"0123456789 -\n\nxBOOST";
    for case in 0..40 {
        let mut input = if case % 2 == 0 {
            b"3\n3\n1000 1000\n9000 5000\n4000 7000\n".to_vec()
        } else {
            Vec::new()
        };
        for _ in 0..(next() % 200) {
            input.push(alphabet[(next() % alphabet.len() as u64) as usize]);
        }
        let output = run_bot(&["--iterations", "20"], &input);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            matches!(output.status.code(), Some(0) | Some(2)),
            "{input:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
