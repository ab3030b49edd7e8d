//! The bot's command-line flags (feature `cli`): one table says what each takes, means and
//! sets in [`BotConfig`]; `csb --help` prints it and [`BotConfig::from_args`] parses with it.

use super::config::{BotConfig, MAX_FIRST_BUDGET_MS};
use crate::engine::League;

/// Nodes per tree the flag accepts: the smallest pool the search runs in, and a cap that keeps
/// the four trees under 1 GB (16 bytes a node).
pub const NODES_RANGE: (u64, u64) = (16, 10_000_000);

/// Longest checkpoint guard (`--timeout-guard`): far above the 100-turn timeout it guards against.
pub const MAX_TIMEOUT_GUARD: u64 = 1000;

/// One command-line flag `--NAME VALUE`: the single place that says what it takes, what it means,
/// how it sets the config and how its default is shown. `csb --help` prints this table and
/// [`BotConfig::from_args`] parses with it, so a new flag or value is one entry here.
pub struct Flag {
    pub name: &'static str,
    /// The value's placeholder (`MS`, `N`) or its alternatives separated by `|` (`0|1`).
    pub values: &'static str,
    /// One line: what the flag does.
    pub meaning: &'static str,
    /// Sets the flag's field from `value`. The error says what the value must be (`a number
    /// > 0`); an empty error means "one of [`Flag::values`]".
    pub set: fn(&mut BotConfig, name: &str, value: &str) -> Result<(), String>,
    /// The flag's value in a config, as `--help` shows the default.
    pub show: fn(&BotConfig, name: &str) -> String,
}

/// Every flag of the bot, in the order `--help` lists them.
pub const FLAGS: &[Flag] = &[
    Flag {
        name: "budget-ms",
        values: "MS",
        meaning: "time per turn, counted from reading the turn's first line",
        set: |c, _, v| {
            c.budget_ms = positive(v)?;
            Ok(())
        },
        show: |c, _| c.budget_ms.to_string(),
    },
    Flag {
        name: "first-budget-ms",
        values: "MS",
        meaning: "time for the first turn (more than 900 is taken as 900)",
        set: |c, _, v| {
            c.first_budget_ms = positive(v)?.min(MAX_FIRST_BUDGET_MS);
            Ok(())
        },
        show: |c, _| c.first_budget_ms.to_string(),
    },
    Flag {
        name: "iterations",
        values: "N",
        meaning: "fixed search iterations per turn instead of the clock",
        set: |c, _, v| {
            c.iterations = Some(whole(v, 1, u64::MAX)?);
            Ok(())
        },
        show: |c, _| {
            c.iterations
                .map_or("none: the clock".to_string(), |n| n.to_string())
        },
    },
    Flag {
        name: "seed",
        values: "S",
        meaning: "seed of the search's random numbers",
        set: |c, _, v| {
            c.seed = whole(v, 0, u64::MAX)?;
            Ok(())
        },
        show: |c, _| c.seed.to_string(),
    },
    Flag {
        name: "league",
        values: "wood3|wood2|wood1|bronze|silver|gold|legend",
        meaning: "league whose protocol and actions the bot plays (one pod below gold)",
        set: |c, _, v| {
            c.league = League::parse(v).ok_or("")?;
            Ok(())
        },
        show: |c, _| c.league.name().to_string(),
    },
    Flag {
        name: "nodes",
        values: "N",
        meaning: "nodes allocated per tree (4 trees, 16 bytes a node)",
        set: |c, _, v| {
            c.nodes_per_agent = whole(v, NODES_RANGE.0, NODES_RANGE.1)? as usize;
            Ok(())
        },
        show: |c, _| c.nodes_per_agent.to_string(),
    },
    Flag {
        name: "blocker-weight",
        values: "W",
        meaning: "weight of the blocker's closeness to the enemy runner's next checkpoint",
        set: |c, _, v| {
            c.eval.blocker = weight(v)?;
            Ok(())
        },
        show: |c, _| c.eval.blocker.to_string(),
    },
    Flag {
        name: "chase-weight",
        values: "W",
        meaning: "weight of the blocker's closeness to the enemy runner itself",
        set: |c, _, v| {
            c.eval.chase = weight(v)?;
            Ok(())
        },
        show: |c, _| c.eval.chase.to_string(),
    },
    Flag {
        name: "momentum-weight",
        values: "W",
        meaning: "weight of the runner's speed toward its next checkpoint",
        set: |c, _, v| {
            c.eval.momentum = weight(v)?;
            Ok(())
        },
        show: |c, _| c.eval.momentum.to_string(),
    },
    Flag {
        name: "runner-angle-weight",
        values: "W",
        meaning: "progress lost per degree the runner faces away from its checkpoint",
        set: |c, _, v| {
            c.eval.runner_angle = weight(v)?;
            Ok(())
        },
        show: |c, _| c.eval.runner_angle.to_string(),
    },
    Flag {
        name: "score-scale",
        values: "S",
        meaning: "progress lead at which a position scores 0.75",
        set: |c, _, v| {
            c.eval.score_scale = positive(v)?;
            Ok(())
        },
        show: |c, _| c.eval.score_scale.to_string(),
    },
    Flag {
        name: "centred",
        values: "0|1",
        meaning: "centre the score on the root's lead",
        set: |c, _, v| {
            c.eval.centred = switch(v)?;
            Ok(())
        },
        show: |c, _| u8::from(c.eval.centred).to_string(),
    },
    Flag {
        name: "pod-scores",
        values: "0|1",
        meaning: "score each pod on what it does itself, not the team's score",
        set: |c, _, v| {
            c.eval.pod_scores = switch(v)?;
            Ok(())
        },
        show: |c, _| u8::from(c.eval.pod_scores).to_string(),
    },
    Flag {
        name: "eval",
        values: "hand|net",
        meaning: "leaf evaluation: the hand-written one or the value network (two pods a side)",
        set: |c, _, v| {
            c.eval.net = match v {
                "hand" => false,
                "net" => true,
                _ => return Err(String::new()),
            };
            Ok(())
        },
        show: |c, _| if c.eval.net { "net" } else { "hand" }.to_string(),
    },
    Flag {
        name: "net-weight",
        values: "W",
        meaning:
            "with --eval net: the network's share of each pod's score, the rest the hand one's",
        set: |c, _, v| {
            c.eval.net_weight = fraction(v)?;
            Ok(())
        },
        show: |c, _| c.eval.net_weight.to_string(),
    },
    Flag {
        name: "net-gain",
        values: "G",
        meaning: "with --eval net: factor on the network's logit change from the root",
        set: |c, _, v| {
            c.eval.net_gain = positive(v)?;
            Ok(())
        },
        show: |c, _| c.eval.net_gain.to_string(),
    },
    Flag {
        name: "shield-near",
        values: "0|1",
        meaning: "consider SHIELD only when a collision is possible",
        set: |c, _, v| {
            c.shield_near = switch(v)?;
            Ok(())
        },
        show: |c, _| u8::from(c.shield_near).to_string(),
    },
    Flag {
        name: "greedy",
        values: "P",
        meaning: "probability of the greedy move on the search's random plies",
        set: |c, _, v| {
            c.greedy = fraction(v)?;
            Ok(())
        },
        show: |c, _| c.greedy.to_string(),
    },
    Flag {
        name: "timeout-aware",
        values: "0|1",
        meaning: "let the search know the 100-turn checkpoint timeout",
        set: |c, _, v| {
            c.timeout_aware = switch(v)?;
            Ok(())
        },
        show: |c, _| u8::from(c.timeout_aware).to_string(),
    },
    Flag {
        name: "timeout-guard",
        values: "T",
        meaning: "turns without a pass before our blocker races too (0: never)",
        set: |c, _, v| {
            c.timeout_guard = whole(v, 0, MAX_TIMEOUT_GUARD)? as u32;
            Ok(())
        },
        show: |c, _| c.timeout_guard.to_string(),
    },
    Flag {
        name: "depth",
        values: "D",
        meaning: "tree plies per search iteration",
        set: set_search,
        show: show_search,
    },
    Flag {
        name: "exploration",
        values: "C",
        meaning: "exploration constant of UCB1",
        set: set_search,
        show: show_search,
    },
    Flag {
        name: "random-visits",
        values: "K",
        meaning: "visits during which a node picks its children at random",
        set: set_search,
        show: show_search,
    },
    Flag {
        name: "expand-after",
        values: "T",
        meaning: "visits after which a node gets its children",
        set: set_search,
        show: show_search,
    },
    Flag {
        name: "discount",
        values: "G",
        meaning: "score discount per ply on backpropagation",
        set: set_search,
        show: show_search,
    },
    Flag {
        name: "rollout",
        values: "P",
        meaning: "random plies after the last tree ply",
        set: set_search,
        show: show_search,
    },
    Flag {
        name: "final-move",
        values: "most-visited|best-average",
        meaning: "how the move is chosen at the root",
        set: set_search,
        show: show_search,
    },
    Flag {
        name: "selection",
        values: "ucb1|ucb1-tuned|smooth-uct|exp3",
        meaning: "how a node chooses a child",
        set: set_search,
        show: show_search,
    },
    Flag {
        name: "smooth-eta",
        values: "E",
        meaning: "smooth-uct: first probability of the UCB1 choice",
        set: set_search,
        show: show_search,
    },
    Flag {
        name: "smooth-gamma",
        values: "G",
        meaning: "smooth-uct: lowest probability of the UCB1 choice",
        set: set_search,
        show: show_search,
    },
    Flag {
        name: "smooth-d",
        values: "D",
        meaning: "smooth-uct: decay of that probability with sqrt(visits)",
        set: set_search,
        show: show_search,
    },
    Flag {
        name: "exp3-gamma",
        values: "G",
        meaning: "exp3: uniform share of the mix",
        set: set_search,
        show: show_search,
    },
    Flag {
        name: "reuse-decay",
        values: "L",
        meaning: "with --reuse-tree 1: share of its visits each kept node keeps",
        set: set_search,
        show: show_search,
    },
    Flag {
        name: "reuse-tree",
        values: "0|1",
        meaning:
            "two-pod leagues: each pod's tree keeps the subtree of its last move (lost in screens)",
        set: |c, _, v| {
            c.reuse_tree = switch(v)?;
            Ok(())
        },
        show: |c, _| u8::from(c.reuse_tree).to_string(),
    },
    Flag {
        name: "verbose",
        values: "0|1",
        meaning: "print each pod's root statistics on stderr every turn",
        set: |c, _, v| {
            c.verbose = switch(v)?;
            Ok(())
        },
        show: |c, _| u8::from(c.verbose).to_string(),
    },
];

/// A search tunable, by the flag's name (`SearchParams::set` checks the value).
fn set_search(config: &mut BotConfig, name: &str, value: &str) -> Result<(), String> {
    config.search.set(name, value)
}

/// A search tunable's value, from the `name=value` list `SearchParams` displays.
fn show_search(config: &BotConfig, name: &str) -> String {
    let text = config.search.to_string();
    let prefix = format!("{name}=");
    let value = text.split(' ').find_map(|pair| pair.strip_prefix(&prefix));
    value.unwrap_or("?").to_string()
}

fn positive(value: &str) -> Result<f64, String> {
    let number = value.parse::<f64>().ok();
    number
        .filter(|v| v.is_finite() && *v > 0.0)
        .ok_or_else(|| "a number > 0".to_string())
}

fn weight(value: &str) -> Result<f64, String> {
    let number = value.parse::<f64>().ok();
    number
        .filter(|v| v.is_finite() && *v >= 0.0)
        .ok_or_else(|| "a number >= 0".to_string())
}

fn fraction(value: &str) -> Result<f64, String> {
    let number = value.parse::<f64>().ok();
    number
        .filter(|p| (0.0..=1.0).contains(p))
        .ok_or_else(|| "a number in [0, 1]".to_string())
}

/// A whole number in `low..=high`.
fn whole(value: &str, low: u64, high: u64) -> Result<u64, String> {
    let number = value.parse::<u64>().ok();
    number
        .filter(|n| (low..=high).contains(n))
        .ok_or_else(|| match high {
            u64::MAX => format!("a whole number >= {low}"),
            _ => format!("a whole number in {low}..={high}"),
        })
}

fn switch(value: &str) -> Result<bool, String> {
    match value {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(String::new()),
    }
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
    for flag in FLAGS {
        let usage = format!("--{} {}", flag.name, flag.values);
        let default = (flag.show)(&defaults, flag.name);
        text.push_str(&format!(
            "  {usage:HELP_COLUMN$}  {} [{default}]\n",
            flag.meaning
        ));
    }
    text
}

/// Width of the `--flag VALUES` column of `--help` (longer ones push their line out).
const HELP_COLUMN: usize = 26;

impl BotConfig {
    /// Parses `--name value` pairs with [`FLAGS`]; an error is one line naming the flag and
    /// what it accepts.
    pub fn from_args(args: &[String]) -> Result<BotConfig, String> {
        let mut config = BotConfig::default();
        let mut index = 0;
        while index < args.len() {
            let argument = args[index].as_str();
            let flag = argument
                .strip_prefix("--")
                .and_then(|name| FLAGS.iter().find(|flag| flag.name == name));
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
                return Err(format!("--{} needs a value (csb --help)", flag.name));
            };
            (flag.set)(&mut config, flag.name, value).map_err(|expected| {
                let expected = if expected.is_empty() {
                    alternatives(flag.values)
                } else {
                    expected
                };
                format!("--{} expects {expected}, got \"{value}\"", flag.name)
            })?;
            index += 2;
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::config::{BOT_GREEDY, BOT_TIMEOUT_GUARD};
    use crate::search::SearchParams;

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
        assert_eq!(config.search.depth, 4);
        assert_eq!(config.league, League::Gold);
        assert!(config.shield_near && !config.eval.centred && !config.verbose);
        let config =
            BotConfig::from_args(&args("--shield-near 0 --centred 1 --verbose 1")).unwrap();
        assert!(!config.shield_near && config.eval.centred && config.verbose);
        assert!(!config.reuse_tree);
        assert!(
            BotConfig::from_args(&args("--reuse-tree 1"))
                .unwrap()
                .reuse_tree
        );
        assert!(BotConfig::from_args(&args("--reuse-tree on")).is_err());
        let config = BotConfig::from_args(&args("--first-budget-ms 5000")).unwrap();
        assert_eq!(config.first_budget_ms, MAX_FIRST_BUDGET_MS);
    }

    #[test]
    fn parses_the_evaluation_and_policy_options() {
        let config = BotConfig::default();
        assert_eq!(config.greedy, BOT_GREEDY);
        assert!(config.eval.pod_scores);
        let config = BotConfig::from_args(&args("--greedy 0.3 --pod-scores 0")).unwrap();
        assert_eq!(config.greedy, 0.3);
        assert!(!config.eval.pod_scores);
        assert!(!config.eval.net);
        assert!(BotConfig::from_args(&args("--eval net")).unwrap().eval.net);
        assert!(!BotConfig::from_args(&args("--eval hand")).unwrap().eval.net);
        assert!(BotConfig::from_args(&args("--eval nnue")).is_err());
        let blend =
            BotConfig::from_args(&args("--eval net --net-weight 0.3 --net-gain 2")).unwrap();
        assert_eq!((blend.eval.net_weight, blend.eval.net_gain), (0.3, 2.0));
        assert!(BotConfig::from_args(&args("--net-weight 1.5")).is_err());
        let error = BotConfig::from_args(&args("--greedy 1.5")).unwrap_err();
        assert_eq!(error, "--greedy expects a number in [0, 1], got \"1.5\"");
        assert!(BotConfig::from_args(&args("--pod-scores 2")).is_err());
        assert_eq!(config.timeout_guard, BOT_TIMEOUT_GUARD);
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
            ("--centred yes", "--centred expects 0 or 1, got \"yes\""),
            (
                "--league x",
                "--league expects wood3, wood2, wood1, bronze, silver, gold or legend, got \"x\"",
            ),
            (
                "--depth x",
                "--depth expects an integer in 1..=32, got \"x\"",
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
        for flag in FLAGS {
            assert!(!names.contains(&flag.name), "--{} twice", flag.name);
            names.push(flag.name);
            let default = (flag.show)(&defaults, flag.name);
            let line = help
                .lines()
                .find(|line| line.starts_with(&format!("  --{} ", flag.name)))
                .unwrap_or_else(|| panic!("--{} missing from help", flag.name));
            assert!(line.ends_with(&format!(" [{default}]")), "{line}");
            if flag.name == "iterations" {
                continue; // its default is "no fixed count", which no value sets
            }
            let parsed = BotConfig::from_args(&args(&format!("--{} {default}", flag.name)));
            assert_eq!(parsed.as_ref(), Ok(&defaults), "--{} {default}", flag.name);
        }
        for name in SearchParams::NAMES {
            assert!(names.contains(&name), "search parameter {name} has no flag");
        }
    }
}
