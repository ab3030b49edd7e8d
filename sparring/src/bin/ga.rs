//! The genetic-algorithm sparring bot: CodinGame protocol on stdin/stdout.
//! Flags: `--league gold|legend`, `--budget-ms` (50), `--first-budget-ms` (500),
//! `--iterations N` (generations per turn instead of the clock), `--seed S`, `--depth D` (6),
//! `--stats` (search summary on stderr at the end).

use sparring::bot::main_loop;
use sparring::flags::{parse, FlagError};
use sparring::ga::{GaBot, GaParams};

const USAGE: &str = "usage: ga [--league gold|legend] [--budget-ms MS] [--first-budget-ms MS] \
                     [--iterations N] [--seed S] [--depth 1..6] [--stats]";

fn main() {
    let allowed = [
        "--league",
        "--budget-ms",
        "--first-budget-ms",
        "--iterations",
        "--seed",
        "--depth",
        "--stats",
    ];
    let flags = match parse(std::env::args().skip(1), &allowed) {
        Ok(flags) => flags,
        Err(FlagError::Help) => {
            eprintln!("{USAGE}");
            return;
        }
        Err(FlagError::Invalid(message)) => {
            eprintln!("{message}; {USAGE}");
            std::process::exit(2);
        }
    };
    let params = GaParams {
        depth: flags.depth,
        budget: flags.budget,
        first_budget: flags.first_budget,
        iterations: flags.iterations,
        seed: flags.seed,
        ..GaParams::default()
    };
    let player = main_loop(flags.league, |course| GaBot::new(course, params));
    if flags.stats {
        if let Some(player) = player {
            eprintln!("{}", player.bot.stats.summary());
        }
    }
}
