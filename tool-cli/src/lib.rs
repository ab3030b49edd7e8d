//! What the workspace's command-line tools (`arena`, `bundler`, `learn`) share about their
//! command line: a usage error as one line, the way every error of theirs is written (clap's own
//! are several lines, with a usage block), and the value parsers more than one of them takes.

use clap::error::ErrorKind;
use clap::Parser;
use std::str::FromStr;

/// Parses the process's command line into `P`. Help and version are printed by clap, which
/// then exits (0) as usual; any other error is returned as one line: clap's first paragraph
/// without its `error: `, then `(see PROGRAM --help)`. The caller prints it and exits 2.
pub fn parse_args<P: Parser>(program: &str) -> Result<P, String> {
    P::try_parse().map_err(|error| match error.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => error.exit(),
        _ => one_line(&error, program),
    })
}

/// A clap error's first paragraph on one line, for `program`.
pub fn one_line(error: &clap::Error, program: &str) -> String {
    let text = error.render().to_string();
    let paragraph: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|line| !line.is_empty())
        .collect();
    let message = paragraph.join(" ");
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    format!("{message} (see {program} --help)")
}

/// A count or limit that must be a whole number of at least 1 (games, threads, characters,
/// seconds).
pub fn at_least_one<T: FromStr + PartialOrd + From<u8>>(text: &str) -> Result<T, String> {
    match text.parse::<T>() {
        Ok(value) if value >= T::from(1) => Ok(value),
        _ => Err(format!("expected a whole number >= 1, got {text:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Parser)]
    #[command(name = "demo")]
    struct Demo {
        /// At least one.
        #[arg(long, value_parser = at_least_one::<usize>)]
        games: usize,
    }

    #[test]
    fn a_usage_error_is_one_line() {
        let error = Demo::try_parse_from(["demo", "--games", "0"]).unwrap_err();
        assert_eq!(
            one_line(&error, "demo"),
            "invalid value '0' for '--games <GAMES>': expected a whole number >= 1, got \"0\" \
             (see demo --help)"
        );
        let error = Demo::try_parse_from(["demo", "--bogus"]).unwrap_err();
        let line = one_line(&error, "demo");
        assert!(
            line.starts_with("unexpected argument '--bogus' found"),
            "{line}"
        );
        assert!(!line.contains('\n'), "{line}");
    }

    #[test]
    fn at_least_one_refuses_zero_and_words() {
        assert_eq!(at_least_one::<u64>("3"), Ok(3));
        assert!(at_least_one::<usize>("0").is_err());
        assert!(at_least_one::<usize>("-1").is_err());
        assert_eq!(
            at_least_one::<usize>("lots"),
            Err("expected a whole number >= 1, got \"lots\"".to_string())
        );
    }
}
