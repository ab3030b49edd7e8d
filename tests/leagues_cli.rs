//! The bot in the leagues below Gold, as CodinGame runs it: on a recorded one-pod game of each
//! protocol it prints one line per turn and never an action its league lacks, searches once it
//! has seen a lap, and a first line of another league's protocol is named, with exit code 2.

mod bot_run;

use bot_run::run_bot;

const ONE_POD_INPUT: &str = "replays/inputs/silver-racer.p0.txt";
const WOOD3_INPUT: &str = "replays/inputs/wood3-racer.p0.txt";

#[test]
fn every_lower_league_plays_its_recorded_game_with_its_actions_only() {
    for league in ["wood3", "wood2", "wood1", "bronze", "silver"] {
        let file = if league == "wood3" {
            WOOD3_INPUT
        } else {
            ONE_POD_INPUT
        };
        let input = std::fs::read(file).unwrap();
        let turns = String::from_utf8_lossy(&input).lines().count() / 2;
        let output = run_bot(&["--league", league, "--iterations", "100"], &input);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{league}: {stderr}");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), turns, "{league}: one line a turn");
        for line in &lines {
            let tokens: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(tokens.len(), 3, "{league}: {line}");
            match tokens[2] {
                "BOOST" => assert!(!league.starts_with("wood"), "{league}: {line}"),
                "SHIELD" => assert_eq!(league, "silver", "{line}"),
                thrust => assert!(thrust.parse::<u16>().unwrap() <= 100, "{league}: {line}"),
            }
        }
        // The course is learnt after a lap: the first turns race, later ones search.
        assert!(
            stderr.contains("(racing policy: course not known yet)"),
            "{league}"
        );
        // The search's value only on the turns it searched.
        for line in stderr.lines() {
            let value = line
                .split(' ')
                .find_map(|token| token.strip_prefix("value="));
            match value {
                None => assert!(line.contains("racing policy"), "{league}: {line}"),
                Some(value) => {
                    let value: f64 = value.parse().unwrap();
                    assert!((0.0..=1.0).contains(&value), "{league}: {line}");
                }
            }
        }
        let last = stderr.lines().last().unwrap();
        assert!(
            !last.contains("racing policy") && last.contains("iterations=100"),
            "{league}: {last}"
        );
    }
}

#[test]
fn a_first_line_of_another_protocol_is_named() {
    let cases = [
        (
            "wood2",
            "1 2 3 4\n5 6\n",
            "looks like the Wood 3 one-pod protocol",
        ),
        (
            "wood3",
            "1 2 3 4 5 6\n5 6\n",
            "looks like the Wood 2 to Silver",
        ),
        ("silver", "3\n3\n", "looks like the Gold/Legend protocol"),
        (
            "legend",
            "1 2 3 4 5 6\n5 6\n",
            "looks like the Wood 2 to Silver",
        ),
    ];
    for (league, input, says) in cases {
        let output = run_bot(&["--league", league], input.as_bytes());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{league}: {stderr}");
        assert!(stderr.contains(says), "{league}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(output.stdout.is_empty());
    }
}
