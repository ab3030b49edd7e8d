//! The reflex sparring bot: CodinGame protocol on stdin/stdout, deterministic.
//! Flags: `--league gold|legend` (thrust cap 100/200, default legend).

use sparring::bot::main_loop;
use sparring::flags::{parse, FlagError};
use sparring::reflex::ReflexBot;

const USAGE: &str = "usage: reflex [--league gold|legend]";

fn main() {
    let flags = match parse(std::env::args().skip(1), &["--league"]) {
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
    main_loop(flags.league, |course| ReflexBot { cap: course.cap() });
}
