//! Command-line flags of the sparring bots: `--league gold|legend`, and for the GA `--budget-ms`,
//! `--first-budget-ms`, `--iterations`, `--seed`, `--depth` and `--stats`. Both `--flag value` and
//! `--flag=value` are accepted; each binary lists the flags it takes, anything else is an error.

use csb::engine::League;
use std::time::Duration;

/// Parsed flags, with the defaults the brief fixes.
#[derive(Clone, Debug, PartialEq)]
pub struct Flags {
    pub league: League,
    /// Per-turn budget, from the moment the turn's first line is read.
    pub budget: Duration,
    /// Budget of the first turn (CodinGame allows 1000 ms there).
    pub first_budget: Duration,
    /// Generations per turn instead of the clock (reproducible).
    pub iterations: Option<u32>,
    pub seed: u64,
    /// Turns per plan (4..=6).
    pub depth: usize,
    /// Print a summary of the search on stderr at the end.
    pub stats: bool,
}

impl Default for Flags {
    fn default() -> Flags {
        Flags {
            league: League::Legend,
            budget: Duration::from_millis(50),
            first_budget: Duration::from_millis(500),
            iterations: None,
            seed: 1,
            depth: 6,
            stats: false,
        }
    }
}

/// Why the flags were not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlagError {
    /// `--help` was asked for.
    Help,
    Invalid(String),
}

fn number<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, FlagError> {
    value.parse().map_err(|_| {
        FlagError::Invalid(format!(
            "{flag} expects a non-negative integer, got {value:?}"
        ))
    })
}

/// Parses `args` (without the program name); `allowed` lists the flags this binary takes.
pub fn parse<I: IntoIterator<Item = String>>(
    args: I,
    allowed: &[&str],
) -> Result<Flags, FlagError> {
    let mut flags = Flags::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if arg == "--help" || arg == "-h" {
            return Err(FlagError::Help);
        }
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) => (name.to_string(), Some(value.to_string())),
            None => (arg.clone(), None),
        };
        if !allowed.contains(&name.as_str()) {
            return Err(FlagError::Invalid(format!(
                "unknown argument {arg:?} (accepted: {})",
                allowed.join(", ")
            )));
        }
        if name == "--stats" {
            flags.stats = true;
            continue;
        }
        let value = match inline {
            Some(value) => value,
            None => args
                .next()
                .ok_or_else(|| FlagError::Invalid(format!("{name} expects a value")))?,
        };
        match name.as_str() {
            "--league" => {
                // These bots speak the two-pod protocol: Gold and Legend only (the leagues
                // below have their own racer, `racer.rs`).
                flags.league = League::parse(&value)
                    .filter(|league| league.pods_per_player() == 2)
                    .ok_or_else(|| {
                        FlagError::Invalid(format!(
                            "--league expects gold or legend, got {value:?}"
                        ))
                    })?
            }
            "--budget-ms" => flags.budget = Duration::from_millis(number(&name, &value)?),
            "--first-budget-ms" => {
                flags.first_budget = Duration::from_millis(number(&name, &value)?)
            }
            "--iterations" => flags.iterations = Some(number(&name, &value)?),
            "--seed" => flags.seed = number(&name, &value)?,
            "--depth" => {
                let depth: usize = number(&name, &value)?;
                if !(1..=crate::genome::MAX_DEPTH).contains(&depth) {
                    return Err(FlagError::Invalid(format!(
                        "--depth expects 1..={}, got {depth}",
                        crate::genome::MAX_DEPTH
                    )));
                }
                flags.depth = depth;
            }
            _ => return Err(FlagError::Invalid(format!("unknown argument {arg:?}"))),
        }
    }
    Ok(flags)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: &[&str] = &[
        "--league",
        "--budget-ms",
        "--first-budget-ms",
        "--iterations",
        "--seed",
        "--depth",
        "--stats",
    ];

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn defaults_and_values() {
        assert_eq!(parse(args(""), ALL).unwrap(), Flags::default());
        let flags = parse(
            args("--league gold --budget-ms=40 --iterations 12 --seed 9 --depth 4 --stats"),
            ALL,
        )
        .unwrap();
        assert_eq!(flags.league, League::Gold);
        assert_eq!(flags.budget, Duration::from_millis(40));
        assert_eq!(flags.iterations, Some(12));
        assert_eq!((flags.seed, flags.depth, flags.stats), (9, 4, true));
    }

    #[test]
    fn rejects_bad_flags() {
        assert!(matches!(
            parse(args("--league wood2"), ALL),
            Err(FlagError::Invalid(_))
        ));
        assert!(matches!(
            parse(args("--seed"), ALL),
            Err(FlagError::Invalid(_))
        ));
        assert!(matches!(
            parse(args("--depth 9"), ALL),
            Err(FlagError::Invalid(_))
        ));
        assert!(matches!(
            parse(args("--seed 1"), &["--league"]),
            Err(FlagError::Invalid(_))
        ));
        assert_eq!(parse(args("--help"), ALL), Err(FlagError::Help));
    }
}
