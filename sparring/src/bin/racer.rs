//! The boss-like racer of the leagues below Gold (`sparring::racer`): the one-pod protocol on
//! stdin/stdout. Flags: `--league wood3|wood2|wood1|bronze|silver` (default wood2).

use csb::engine::League;
use sparring::racer::{parse_input, Racer};
use std::io::{BufRead, Write};

const USAGE: &str = "usage: racer [--league wood3|wood2|wood1|bronze|silver]";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let league = match args.as_slice() {
        [] => League::Wood2,
        [flag] if flag == "--help" || flag == "-h" => {
            println!("{USAGE}");
            return;
        }
        [flag, name] if flag == "--league" => match League::parse(name) {
            Some(league) if league.pods_per_player() == 1 => league,
            _ => {
                eprintln!("racer: --league expects a league below Gold, got {name:?}; {USAGE}");
                std::process::exit(2);
            }
        },
        _ => {
            eprintln!("racer: unexpected arguments {args:?}; {USAGE}");
            std::process::exit(2);
        }
    };
    let fields = if league == League::Wood3 { 4 } else { 6 };
    let mut racer = Racer::new(league);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut stdout = std::io::stdout();
    loop {
        let (Some(Ok(pod)), Some(Ok(opponent))) = (lines.next(), lines.next()) else {
            return;
        };
        let Some(input) = parse_input(&pod, &opponent, fields) else {
            eprintln!("racer: malformed input {pod:?} / {opponent:?}");
            std::process::exit(2);
        };
        if writeln!(stdout, "{}", racer.play(&input))
            .and_then(|_| stdout.flush())
            .is_err()
        {
            return;
        }
    }
}
