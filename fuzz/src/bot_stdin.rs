//! The bot's stdin: the whole turn loop of `csb` (`csb::bot::run::run`, what `main` runs) on
//! arbitrary input, at a few search iterations a turn so that a long input stays fast. The bot
//! must end with exit code 0 (end of input) or 2 (bad input, with one `csb: ...` line on stderr
//! as its last diagnostic), and every command it prints must be `X Y THRUST` of the league.

use crate::check::one_line;
use csb::bot::run::{run, EXIT_BAD_INPUT};
use csb::engine::League;

/// Search iterations per turn: enough to run the search, few enough for thousands of inputs a
/// second.
const ITERATIONS: &str = "8";
/// Nodes per tree: room for those iterations; the default pools (allocated whole at the start)
/// would cost more than the game.
const NODES: &str = "4096";

/// Runs the bot of `league` on `input`; checks its exit code, its error line and its commands.
fn run_bot(league: League, input: &[u8]) {
    let args: Vec<String> = [
        "--iterations",
        ITERATIONS,
        "--nodes",
        NODES,
        "--seed",
        "1",
        "--league",
        league.name(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut output = Vec::new();
    let mut diagnostics = Vec::new();
    let code = run(&args, input, &mut output, &mut diagnostics);
    let diagnostics = String::from_utf8_lossy(&diagnostics);
    match code {
        0 => {}
        EXIT_BAD_INPUT => {
            let last = diagnostics.lines().last().unwrap_or_default();
            assert!(
                last.starts_with("csb: "),
                "exit 2 without a `csb:` line last: {diagnostics:?}"
            );
            one_line("csb", last);
        }
        other => panic!("exit code {other}: {diagnostics:?}"),
    }
    for line in String::from_utf8(output)
        .expect("the bot prints UTF-8")
        .lines()
    {
        check_command(line, league);
    }
}

/// A command line as the referee reads it: two integers and a thrust the league allows.
fn check_command(line: &str, league: League) {
    let tokens: Vec<&str> = line.split(' ').collect();
    assert!(tokens.len() >= 3, "command {line:?}");
    for coordinate in &tokens[..2] {
        assert!(coordinate.parse::<i32>().is_ok(), "command {line:?}");
    }
    match tokens[2] {
        "BOOST" => assert!(league.has_boost(), "command {line:?}"),
        "SHIELD" => assert!(league.has_shield(), "command {line:?}"),
        thrust => {
            let thrust: u16 = thrust
                .parse()
                .unwrap_or_else(|_| panic!("command {line:?}"));
            assert!(thrust <= league.max_thrust(), "command {line:?}");
        }
    }
}

/// Legend (two pods a player, BOOST and SHIELD, thrust up to 200 with the boost rules).
pub fn two_pod(input: &[u8]) {
    run_bot(League::Legend, input);
}

/// Wood 3 (the short line, no next-checkpoint distance and angle) and Silver (the long line),
/// the one-pod protocols of the leagues below Gold, on the same input.
pub fn one_pod(input: &[u8]) {
    run_bot(League::Wood3, input);
    run_bot(League::Silver, input);
}
