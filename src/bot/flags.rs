//! The bot's command-line flags (feature `cli`): the tables of tunables of the bot
//! (`config.rs`), its evaluation (`evaluation.rs`) and the search (`search/params.rs`), in that
//! order, are the flags; `csb --help` prints them with their defaults and
//! [`BotConfig::from_args`] parses with them. A new flag is one line in one of those tables.

use super::config::{BotConfig, Depth, Evaluation, NetworkFile, Rollout, SelectionKind};
use super::evaluation::EvalWeights;
use crate::engine::League;
use crate::search::parse::{Tunable, TunableValue};
use crate::search::SearchParams;

impl TunableValue for League {
    fn show(&self) -> String {
        self.name().to_string()
    }
}

impl TunableValue for Evaluation {
    fn show(&self) -> String {
        match self {
            Evaluation::ByLeague => "league",
            Evaluation::Hand => "hand",
            Evaluation::Net => "net",
        }
        .to_string()
    }
}

impl TunableValue for NetworkFile {
    fn show(&self) -> String {
        self.path.clone()
    }
}

impl TunableValue for SelectionKind {
    fn show(&self) -> String {
        match self {
            SelectionKind::ByEvaluation => "eval",
            SelectionKind::Ucb1 => "ucb1",
            SelectionKind::Puct => "puct",
        }
        .to_string()
    }
}

impl TunableValue for Depth {
    fn show(&self) -> String {
        match self {
            Depth::ByEvaluation => "eval".to_string(),
            Depth::Plies(plies) => plies.to_string(),
        }
    }
}

impl TunableValue for Rollout {
    fn show(&self) -> String {
        match self {
            Rollout::Greedy => "greedy",
            Rollout::Policy => "policy",
        }
        .to_string()
    }
}

/// One flag: a tunable of one of the three tables, reached from a [`BotConfig`].
#[derive(Clone, Copy)]
pub enum Flag {
    Bot(&'static Tunable<BotConfig>),
    Eval(&'static Tunable<EvalWeights>),
    Search(&'static Tunable<SearchParams>),
}

impl Flag {
    fn describe(&self) -> (&'static str, &'static str, &'static str) {
        match self {
            Flag::Bot(t) => (t.name, t.values, t.meaning),
            Flag::Eval(t) => (t.name, t.values, t.meaning),
            Flag::Search(t) => (t.name, t.values, t.meaning),
        }
    }

    /// The flag's name, `--NAME VALUE`.
    pub fn name(&self) -> &'static str {
        self.describe().0
    }

    /// The value's placeholder or its alternatives separated by `|`.
    pub fn values(&self) -> &'static str {
        self.describe().1
    }

    /// One line: what the flag does.
    pub fn meaning(&self) -> &'static str {
        self.describe().2
    }

    /// Sets the flag's tunable in `config` from `value` (the error as [`Tunable::set`]'s).
    pub fn set(&self, config: &mut BotConfig, value: &str) -> Result<(), String> {
        match self {
            Flag::Bot(t) => (t.set)(config, value),
            Flag::Eval(t) => (t.set)(&mut config.eval, value),
            Flag::Search(t) => (t.set)(&mut config.search, value),
        }
    }

    /// The flag's value in `config`, as `--help` shows the default.
    pub fn show(&self, config: &BotConfig) -> String {
        match self {
            Flag::Bot(t) => (t.show)(config),
            Flag::Eval(t) => (t.show)(&config.eval),
            Flag::Search(t) => (t.show)(&config.search),
        }
    }
}

/// Every flag of the bot, in the order `--help` lists them.
pub fn flags() -> impl Iterator<Item = Flag> {
    let bot = BotConfig::TUNABLES.iter().map(Flag::Bot);
    let eval = EvalWeights::TUNABLES.iter().map(Flag::Eval);
    bot.chain(eval)
        .chain(SearchParams::TUNABLES.iter().map(Flag::Search))
}

/// `a|b|c` as `a, b or c`.
fn alternatives(values: &str) -> String {
    let names: Vec<&str> = values.split('|').collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => values.to_string(),
    }
}

/// `csb --help`: what the bot does, then every flag with its values, meaning and default.
pub fn help() -> String {
    let mut text = String::from(
        "usage: csb [--FLAG VALUE]...\n\
         Plays Coders Strike Back: reads the referee's lines on stdin, prints two commands a turn\n\
         on stdout and one line about its search on stderr. Flags (default in brackets):\n",
    );
    let defaults = BotConfig::default();
    for flag in flags() {
        let usage = format!("--{} {}", flag.name(), flag.values());
        let default = flag.show(&defaults);
        text.push_str(&format!(
            "  {usage:HELP_COLUMN$}  {} [{default}]\n",
            flag.meaning()
        ));
    }
    text
}

/// Width of the `--flag VALUES` column of `--help` (longer ones push their line out).
const HELP_COLUMN: usize = 26;

impl BotConfig {
    /// Parses `--name value` pairs with [`flags`]; an error is one line naming the flag and
    /// what it accepts.
    pub fn from_args(args: &[String]) -> Result<BotConfig, String> {
        let mut config = BotConfig::default();
        let mut index = 0;
        while index < args.len() {
            let argument = args[index].as_str();
            let flag = argument
                .strip_prefix("--")
                .and_then(|name| flags().find(|flag| flag.name() == name));
            let Some(flag) = flag else {
                return Err(if argument.starts_with("--") {
                    format!("unknown flag {argument} (csb --help lists the flags)")
                } else {
                    format!(
                        "unexpected argument \"{argument}\": flags go --NAME VALUE (csb --help)"
                    )
                });
            };
            let Some(value) = args.get(index + 1) else {
                return Err(format!("--{} needs a value (csb --help)", flag.name()));
            };
            flag.set(&mut config, value).map_err(|expected| {
                let expected = if expected.is_empty() {
                    alternatives(flag.values())
                } else {
                    expected
                };
                format!("--{} expects {expected}, got \"{value}\"", flag.name())
            })?;
            index += 2;
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::config::MAX_FIRST_BUDGET_MS;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_flags_and_search_options() {
        let config =
            BotConfig::from_args(&args("--iterations 500 --seed 7 --depth 4 --league gold"))
                .unwrap();
        assert_eq!(config.iterations, Some(500));
        assert_eq!(config.seed, 7);
        assert_eq!(config.search_played().depth, 4);
        assert_eq!(config.league, League::Gold);
        assert!(config.shield_near && !config.verbose);
        let config = BotConfig::from_args(&args("--shield-near 0 --verbose 1")).unwrap();
        assert!(!config.shield_near && config.verbose);
        let config = BotConfig::from_args(&args("--first-budget-ms 5000")).unwrap();
        assert_eq!(config.first_budget_ms, MAX_FIRST_BUDGET_MS);
    }

    #[test]
    fn the_selection_goes_with_the_evaluation_and_a_policy_file_must_be_readable() {
        let refused = |text: &str, words: &str| {
            let error = BotConfig::from_args(&args(text)).unwrap_err();
            assert!(error.contains(words), "{error}");
            assert!(!error.contains('\n'), "{error}");
        };
        refused(
            "--selection puct --policy-net /nonexistent/policy.txt",
            "cannot read the policy network /nonexistent/policy.txt",
        );
        refused("--selection uct", "eval, ucb1 or puct");
        let played = |text: &str| {
            let config = BotConfig::from_args(&args(text)).unwrap();
            (config.selection_played(), config.guided())
        };
        // PUCT with the network (the default in Legend, row R1, and in Gold, row GN1), UCB1
        // with the hand evaluation (below Gold).
        assert_eq!(played(""), (SelectionKind::Puct, true));
        assert_eq!(played("--eval net"), (SelectionKind::Puct, true));
        assert_eq!(played("--eval hand"), (SelectionKind::Ucb1, false));
        assert_eq!(played("--league gold"), (SelectionKind::Puct, true));
        assert_eq!(
            played("--league gold --eval hand"),
            (SelectionKind::Ucb1, false)
        );
        assert_eq!(played("--league silver"), (SelectionKind::Ucb1, false));
        assert_eq!(played("--selection ucb1"), (SelectionKind::Ucb1, false));
        assert_eq!(
            played("--eval hand --selection puct"),
            (SelectionKind::Puct, true)
        );
        assert_eq!(
            played("--selection ucb1 --rollout policy"),
            (SelectionKind::Ucb1, true)
        );
        // `embedded` is the default: no file.
        let config = BotConfig::from_args(&args("--policy-net embedded --selection eval")).unwrap();
        assert_eq!(config, BotConfig::default());
    }

    #[test]
    fn the_depth_goes_with_the_evaluation_unless_given() {
        let depth = |text: &str| {
            BotConfig::from_args(&args(text))
                .unwrap()
                .search_played()
                .depth
        };
        // 8 with the network (screens D6-D8, row R13), 10 with the hand evaluation (S1, S2).
        assert_eq!(depth(""), 8);
        assert_eq!(depth("--league gold"), 8);
        assert_eq!(depth("--eval hand"), 10);
        assert_eq!(depth("--league silver"), 10);
        assert_eq!(depth("--depth eval --league gold --eval hand"), 10);
        assert_eq!(depth("--depth 6"), 6);
        assert_eq!(depth("--depth 12 --eval hand"), 12);
        // Only the depth is resolved: every other search tunable is the flags'.
        let config = BotConfig::from_args(&args("--discount 0.95 --eval hand")).unwrap();
        assert_eq!(
            config.search_played(),
            SearchParams {
                discount: 0.95,
                ..SearchParams::default()
            }
        );
    }

    #[test]
    fn parses_the_evaluation_and_policy_options() {
        let config = BotConfig::default();
        assert_eq!(config.greedy, 0.8);
        let config = BotConfig::from_args(&args("--greedy 0.3")).unwrap();
        assert_eq!(config.greedy, 0.3);
        assert_eq!(config.evaluation, Evaluation::ByLeague);
        assert_eq!(config.evaluation.in_league(League::Legend), Evaluation::Net);
        assert_eq!(config.evaluation.in_league(League::Gold), Evaluation::Net);
        assert_eq!(
            config.evaluation.in_league(League::Silver),
            Evaluation::Hand
        );
        assert_eq!(Evaluation::Hand.in_league(League::Legend), Evaluation::Hand);
        let evaluation = |text| BotConfig::from_args(&args(text)).unwrap().evaluation;
        assert_eq!(evaluation("--eval net"), Evaluation::Net);
        assert_eq!(evaluation("--eval hand"), Evaluation::Hand);
        assert!(BotConfig::from_args(&args("--eval nnue")).is_err());
        let blend =
            BotConfig::from_args(&args("--eval net --net-weight 0.3 --net-gain 2")).unwrap();
        assert_eq!((blend.eval.net_weight, blend.eval.net_gain), (0.3, 2.0));
        assert!(BotConfig::from_args(&args("--net-weight 1.5")).is_err());
        let error = BotConfig::from_args(&args("--greedy 1.5")).unwrap_err();
        assert_eq!(error, "--greedy expects a number in [0, 1], got \"1.5\"");
        // The team score and its centring are gone (issue 33): their flags are unknown.
        assert!(BotConfig::from_args(&args("--pod-scores 1")).is_err());
        assert!(BotConfig::from_args(&args("--centred 0")).is_err());
        assert_eq!(config.timeout_guard, 75);
        let config = BotConfig::from_args(&args("--timeout-guard 0")).unwrap();
        assert_eq!(config.timeout_guard, 0);
        assert!(BotConfig::from_args(&args("--timeout-guard -1")).is_err());
    }

    #[test]
    fn rejects_bad_flags_clearly() {
        let cases = [
            (
                "--budget-ms -3",
                "--budget-ms expects a number > 0, got \"-3\"",
            ),
            (
                "--bogus",
                "unknown flag --bogus (csb --help lists the flags)",
            ),
            (
                "--bogus 1",
                "unknown flag --bogus (csb --help lists the flags)",
            ),
            ("--seed", "--seed needs a value (csb --help)"),
            (
                "--shield-near yes",
                "--shield-near expects 0 or 1, got \"yes\"",
            ),
            (
                "--league x",
                "--league expects wood3, wood2, wood1, bronze, silver, gold or legend, got \"x\"",
            ),
            (
                "--depth x",
                "--depth expects eval or an integer in 1..=32, got \"x\"",
            ),
            (
                "--iterations 0",
                "--iterations expects a whole number >= 1, got \"0\"",
            ),
            (
                "--nodes 0",
                "--nodes expects a whole number in 16..=10000000, got \"0\"",
            ),
            (
                "--timeout-guard 1001",
                "--timeout-guard expects a whole number in 0..=1000, got \"1001\"",
            ),
            (
                "seven",
                "unexpected argument \"seven\": flags go --NAME VALUE (csb --help)",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(BotConfig::from_args(&args(text)).unwrap_err(), expected);
        }
    }

    #[test]
    fn every_flag_accepts_the_default_it_shows_and_help_lists_it() {
        let defaults = BotConfig::default();
        let help = help();
        let mut names: Vec<&str> = Vec::new();
        for flag in flags() {
            assert!(!names.contains(&flag.name()), "--{} twice", flag.name());
            names.push(flag.name());
            let default = flag.show(&defaults);
            let line = help
                .lines()
                .find(|line| line.starts_with(&format!("  --{} ", flag.name())))
                .unwrap_or_else(|| panic!("--{} missing from help", flag.name()));
            assert!(line.ends_with(&format!(" [{default}]")), "{line}");
            if flag.name() == "iterations" {
                continue; // its default is "no fixed count", which no value sets
            }
            let parsed = BotConfig::from_args(&args(&format!("--{} {default}", flag.name())));
            assert_eq!(
                parsed.as_ref(),
                Ok(&defaults),
                "--{} {default}",
                flag.name()
            );
        }
        for name in [
            "depth",
            "exploration",
            "random-visits",
            "expand-after",
            "discount",
        ] {
            assert!(names.contains(&name), "search parameter {name} has no flag");
        }
    }
}
