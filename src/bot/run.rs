//! The bot's entry point: the settings (flags with feature `cli`, else the defaults), then the
//! league's protocol (`two_pod/` from Gold, `one_pod/` below), each playing its turns through
//! the shared loop of `turn_loop.rs`. Malformed input gives one clear line on stderr and exit
//! code 2; end of input exits 0.

use super::config::BotConfig;
#[cfg(feature = "cli")]
use super::flags::help;
pub use super::turn_loop::EXIT_BAD_INPUT;
use std::io::{BufRead, Write};

/// Runs a whole game over the given streams with the settings of `args`; returns the process
/// exit code.
#[cfg(feature = "cli")]
pub fn run<R: BufRead, W: Write, E: Write>(
    args: &[String],
    input: R,
    mut output: W,
    mut diagnostics: E,
) -> i32 {
    if args.iter().any(|arg| arg == "--help" || arg == "-h") {
        let _ = write!(output, "{}", help());
        return 0;
    }
    match BotConfig::from_args(args) {
        Ok(config) => play(config, input, output, diagnostics),
        Err(error) => {
            let _ = writeln!(diagnostics, "csb: {error}");
            EXIT_BAD_INPUT
        }
    }
}

/// Plays a whole game of `config`'s league over the given streams; returns the exit code.
pub fn play<R: BufRead, W: Write, E: Write>(
    config: BotConfig,
    input: R,
    output: W,
    mut diagnostics: E,
) -> i32 {
    match config.league.pods_per_player() {
        #[cfg(feature = "one-pod")]
        1 => super::one_pod::turns::play(config, input, output, diagnostics),
        #[cfg(feature = "two-pod")]
        2 => super::two_pod::turns::play(config, input, output, diagnostics),
        _ => {
            let _ = writeln!(
                diagnostics,
                "csb: this build has no protocol for {} pods a player (features one-pod, two-pod)",
                config.league.pods_per_player()
            );
            EXIT_BAD_INPUT
        }
    }
}

/// A whole game on the process's standard streams: with feature `cli` the settings of the
/// command line, without it the defaults ([`BotConfig::bundled`]).
pub fn run_stdio() -> i32 {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    #[cfg(feature = "cli")]
    {
        let args: Vec<String> = std::env::args().skip(1).collect();
        run(&args, stdin.lock(), stdout.lock(), stderr.lock())
    }
    #[cfg(not(feature = "cli"))]
    {
        play(
            BotConfig::bundled(),
            stdin.lock(),
            stdout.lock(),
            stderr.lock(),
        )
    }
}
