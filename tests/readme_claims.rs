//! The claims of README.md that a program can check, held to what they name, so that the page a
//! newcomer reads does not drift from the tree: it is at most 400 lines; its set-up section gives
//! the two commands `make` (the Makefile's default goal: build, bundle, run the bot on a
//! recorded game) and `make test`; every `make TARGET` is a rule of the Makefile; every flag
//! given to csb in a command is a flag of `csb --help`, with a value it accepts; every default
//! it states for a flag (`--eval` (default league), "the defaults `--net-weight 0.6` and ...",
//! "`LEAGUE=legend` (the default)") is the one `csb --help` or the Makefile gives; every file or
//! folder it names or links exists. The chapters that moved out of it (docs/learning.md,
//! docs/bundle.md, docs/arena.md) are held to the same commands, flags and files. A stale
//! README (`tests/readme_claims/stale-readme.md`) shows that each check can fail.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

#[path = "support/csb_help.rs"]
mod csb_help;
#[path = "support/makefile.rs"]
mod makefile;
#[path = "support/markdown_code.rs"]
mod markdown_code;
use csb_help::{help_flags, HelpFlag};
use makefile::Makefile;
use markdown_code::code_of;

const README: &str = "README.md";
/// The README's chapters that live in docs/.
const CHAPTERS: [&str; 3] = ["docs/learning.md", "docs/bundle.md", "docs/arena.md"];
/// At most this many lines, so that a newcomer reads it to the end.
const MAX_LINES: usize = 400;
/// Flags whose default the README must state (and the test checks against `csb --help`).
const STATED_DEFAULTS: [&str; 5] = [
    "--league",
    "--eval",
    "--net-weight",
    "--selection",
    "--budget-ms",
];
/// The section that gives the two set-up commands.
const SETUP_HEADING: &str = "## Set-up on a fresh machine";
/// Folders and files of the repository that a page may name (a name starting with one of these
/// must exist).
const REPO_PREFIXES: [&str; 12] = [
    "docs/",
    "src/",
    "scripts/",
    "tests/",
    "arena/",
    "bundler/",
    "viewer/",
    "sparring/",
    "learn/",
    "replays/inputs/",
    "ladder/players.toml",
    "Cargo.toml",
];

/// What the claims are checked against: `csb --help` and the Makefile.
struct Truth {
    flags: Vec<HelpFlag>,
    makefile: Makefile,
}

impl Truth {
    fn read() -> Truth {
        Truth {
            flags: help_flags(),
            makefile: Makefile::parse(&fs::read_to_string("Makefile").expect("the Makefile")),
        }
    }

    fn flag(&self, name: &str) -> Option<&HelpFlag> {
        self.flags.iter().find(|flag| flag.name() == name)
    }
}

/// `--name` if `token` is a long flag (its trailing punctuation dropped).
fn long_flag(token: &str) -> Option<&str> {
    let name = token.trim_end_matches(|c: char| ",;:.)\"'".contains(c));
    let rest = name.strip_prefix("--")?;
    rest.starts_with(|c: char| c.is_ascii_alphabetic())
        .then_some(name)
}

fn unquote(token: &str) -> &str {
    token.trim_matches(|c: char| "\"'(),;:".contains(c))
}

/// The arguments given to csb in one piece of code, for each csb command in it: the words after
/// `csb` (or `.../csb`) up to the end of its quotes, or without quotes up to a redirection, a
/// pipe or a comment. `-p csb` (a cargo package) is not a command.
fn csb_commands(code: &str) -> Vec<Vec<String>> {
    let tokens: Vec<&str> = code.split_whitespace().collect();
    let mut commands = Vec::new();
    for (index, token) in tokens.iter().enumerate() {
        let program = unquote(token);
        if program != "csb" && !program.ends_with("/csb") {
            continue;
        }
        if index > 0 && matches!(tokens[index - 1], "-p" | "--package") {
            continue;
        }
        let quoted = token.trim_start_matches('(').starts_with(['"', '\'']);
        if quoted && token.len() > 1 && token.ends_with(['"', '\'']) {
            continue;
        }
        let mut arguments = Vec::new();
        for word in &tokens[index + 1..] {
            let stop = ["<", ">", "|", "#", "2>", "&&", ";"];
            if !quoted && stop.iter().any(|s| word.starts_with(s)) {
                break;
            }
            arguments.push(word.trim_end_matches(['"', '\'']).to_string());
            if quoted && word.ends_with(['"', '\'']) {
                break;
            }
        }
        commands.push(arguments);
    }
    commands
}

/// Every `make TARGET` in the page's code names a rule of the Makefile.
fn check_make_targets(page: &str, markdown: &str, truth: &Truth, problems: &mut Vec<String>) {
    for code in code_of(markdown) {
        let tokens: Vec<&str> = code.text.split_whitespace().collect();
        for pair in tokens.windows(2) {
            let target = unquote(pair[1]);
            let is_target = !target.is_empty()
                && target.starts_with(|c: char| c.is_ascii_lowercase())
                && target
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            if unquote(pair[0]) == "make" && is_target && truth.makefile.rule(target).is_none() {
                problems.push(format!(
                    "{page}: `make {target}` is not a target of the Makefile (in `{}`)",
                    code.text.trim()
                ));
            }
        }
    }
}

/// Every flag given to csb in the page's code is one of `csb --help`'s, and a value of a flag
/// whose values `--help` lists (`--eval league|hand|net`) is one of them.
fn check_csb_flags(page: &str, markdown: &str, truth: &Truth, problems: &mut Vec<String>) {
    for code in code_of(markdown) {
        for arguments in csb_commands(&code.text) {
            for (index, argument) in arguments.iter().enumerate() {
                let Some(name) = long_flag(argument) else {
                    continue;
                };
                if name == "--help" {
                    continue;
                }
                let Some(flag) = truth.flag(name) else {
                    problems.push(format!(
                        "{page}: csb has no flag {name} (csb --help), in `{}`",
                        code.text.trim()
                    ));
                    continue;
                };
                let value = arguments.get(index + 1).map(|value| unquote(value));
                let is_word = |value: &str| {
                    !value.is_empty()
                        && value
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                };
                if let (Some(choices), Some(value)) = (flag.choices(), value) {
                    if is_word(value) && !choices.contains(&value) {
                        problems.push(format!(
                            "{page}: csb {name} takes {}, not {value}, in `{}`",
                            choices.join("|"),
                            code.text.trim()
                        ));
                    }
                }
            }
        }
    }
}

/// The last long flag of a piece of code and the word after it, if any: `csb --eval net` gives
/// (`--eval`, `net`).
fn flag_and_value(code: &str) -> Option<(String, Option<String>)> {
    let tokens: Vec<&str> = code.split_whitespace().collect();
    let index = tokens
        .iter()
        .rposition(|token| long_flag(token).is_some())?;
    let name = long_flag(tokens[index])?.to_string();
    let value = tokens
        .get(index + 1)
        .filter(|value| !value.starts_with("--"))
        .map(|value| unquote(value).to_string());
    Some((name, value))
}

/// `--name` must be a flag of csb whose default is `claimed`.
fn check_default(
    page: &str,
    name: &str,
    claimed: &str,
    context: &str,
    truth: &Truth,
    problems: &mut Vec<String>,
) -> String {
    match truth.flag(name) {
        None => problems.push(format!(
            "{page}: states a default of {name}, which csb does not have: {context}"
        )),
        Some(flag) if flag.default != claimed => problems.push(format!(
            "{page}: says the default of {name} is {claimed}; csb --help says {}: {context}",
            flag.default
        )),
        Some(_) => {}
    }
    name.to_string()
}

/// The defaults the page states: "`--flag` (default V" or "`csb --flag x` (default `V`)";
/// "`--flag V` (the default)" or "`--flag V`, the default:"; "the default(s) `--a V`, `--b W`
/// and `--c X`"; and for the Makefile's variables "`make bundle LEAGUE=V` (the default)".
/// Returns the flags whose default the page states.
fn check_defaults(
    page: &str,
    markdown: &str,
    truth: &Truth,
    problems: &mut Vec<String>,
) -> BTreeSet<String> {
    let mut stated = BTreeSet::new();
    let code = code_of(markdown);
    let mut in_defaults_list = false;
    for (index, piece) in code.iter().enumerate() {
        let context = format!("`{}`{}", piece.text, piece.after);
        let before = piece.before.to_lowercase();
        in_defaults_list = if before.ends_with("default ") || before.ends_with("defaults ") {
            true
        } else {
            in_defaults_list && matches!(before.as_str(), ", " | " and " | ", and ")
        };
        let flag = flag_and_value(&piece.text);
        if in_defaults_list {
            if let Some((name, Some(value))) = &flag {
                stated.insert(check_default(page, name, value, &context, truth, problems));
            }
        }
        if let Some(rest) = piece.after.strip_prefix(" (default ") {
            let claimed = if rest.is_empty() {
                code.get(index + 1).map(|next| next.text.clone())
            } else {
                rest.split([',', ')', ';', ':'])
                    .next()
                    .map(|value| value.trim().to_string())
            };
            if let (Some((name, _)), Some(claimed)) = (&flag, claimed) {
                stated.insert(check_default(
                    page, name, &claimed, &context, truth, problems,
                ));
            }
        }
        let says_the_default = [" (the default", ", the default"].iter().any(|prefix| {
            piece
                .after
                .strip_prefix(prefix)
                .map(|rest| rest.trim_start_matches('s'))
                .is_some_and(|rest| rest.is_empty() || rest.starts_with([')', ':', ';', ',', '.']))
        });
        if says_the_default {
            if let Some((name, Some(value))) = &flag {
                stated.insert(check_default(page, name, value, &context, truth, problems));
            }
            for word in piece.text.split_whitespace() {
                let Some((variable, value)) = word.split_once('=') else {
                    continue;
                };
                if !variable.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                    continue;
                }
                match truth.makefile.defaults.get(variable) {
                    Some(default) if default == value => {}
                    default => problems.push(format!(
                        "{page}: says {variable}={value} is the default; the Makefile's is {default:?}: {context}"
                    )),
                }
            }
        }
    }
    stated
}

/// The set-up section gives `make` and `make test` in a fenced block, and the Makefile makes
/// them what the page says: `make` builds, bundles and runs the bot on a recorded game; `make
/// test` installs the browser's and ssh's tools, then runs cargo's tests.
fn check_setup(page: &str, markdown: &str, truth: &Truth, problems: &mut Vec<String>) {
    let Some(start) = markdown.find(SETUP_HEADING) else {
        problems.push(format!("{page}: no section \"{SETUP_HEADING}\""));
        return;
    };
    let section = &markdown[start + SETUP_HEADING.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let block: Vec<&str> = section
        .split("```")
        .nth(1)
        .map(|block| block.lines().collect())
        .unwrap_or_default();
    let commands: Vec<Vec<&str>> = block
        .iter()
        .map(|line| {
            line.split('#')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect()
        })
        .collect();
    for wanted in [vec!["make"], vec!["make", "test"]] {
        if !commands.contains(&wanted) {
            problems.push(format!(
                "{page}: the set-up section's block does not give `{}`",
                wanted.join(" ")
            ));
        }
    }
    let makefile = &truth.makefile;
    match makefile.default_goal() {
        Some("all") => {}
        goal => problems.push(format!("Makefile: `make` makes {goal:?}, not all")),
    }
    if let Some(all) = makefile.rule("all") {
        for prerequisite in ["build", "bundle"] {
            if !all.prerequisites.iter().any(|p| p == prerequisite) {
                problems.push(format!("Makefile: `all` does not make {prerequisite}"));
            }
        }
        if !all
            .recipe
            .iter()
            .any(|line| line.contains("target/release/csb") && line.contains("< $(DEMO_INPUT)"))
        {
            problems.push("Makefile: `all` does not run the bot on a recorded game".to_string());
        }
    }
    match makefile.rule("test") {
        None => problems.push("Makefile: no rule test".to_string()),
        Some(test) => {
            for needed in [
                "scripts/install-chromium.sh",
                "scripts/install-ssh-tools.sh",
                "$(CARGO) test",
            ] {
                if !test.recipe.iter().any(|line| line.contains(needed)) {
                    problems.push(format!("Makefile: `make test` does not run {needed}"));
                }
            }
        }
    }
}

/// Where a name of the repository starts in `text`: at one of `REPO_PREFIXES`, not inside a
/// longer name.
fn repository_names(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let is_name_char = |c: char| c.is_ascii_alphanumeric() || "_./-".contains(c);
    for prefix in REPO_PREFIXES {
        for (start, _) in text.match_indices(prefix) {
            if text[..start].chars().next_back().is_some_and(is_name_char) {
                continue;
            }
            let rest = &text[start..];
            let end = rest.find(|c: char| !is_name_char(c)).unwrap_or(rest.len());
            let following = rest[end..].chars().next();
            if matches!(following, Some('<' | '*' | '{' | '$' | '…')) {
                continue;
            }
            let name = rest[..end].trim_end_matches('.');
            if name.contains("NNN") || name.contains("..") {
                continue;
            }
            names.insert(name.to_string());
        }
    }
    names
}

/// Every file the page links (`[..](path)`, relative to the page) and every name of the
/// repository it mentions (relative to the repository's root) exists.
fn check_paths(page: &str, markdown: &str, problems: &mut Vec<String>) {
    let folder = Path::new(page).parent().unwrap_or(Path::new(""));
    for (start, _) in markdown.match_indices("](") {
        let rest = &markdown[start + 2..];
        let target = &rest[..rest.find(')').unwrap_or(rest.len())];
        let target = target.split('#').next().unwrap_or("");
        if target.is_empty() || target.contains("://") {
            continue;
        }
        if !folder.join(target).exists() {
            problems.push(format!("{page}: links {target}, which does not exist"));
        }
    }
    for name in repository_names(markdown) {
        if !Path::new(&name).exists() {
            problems.push(format!("{page}: names {name}, which does not exist"));
        }
    }
}

fn check_length(page: &str, markdown: &str, problems: &mut Vec<String>) {
    let lines = markdown.lines().count();
    if lines > MAX_LINES {
        problems.push(format!(
            "{page}: {lines} lines, more than {MAX_LINES}: move a chapter to docs/"
        ));
    }
}

/// Every check of the README on `markdown`, read as the page `page`.
fn readme_problems(page: &str, markdown: &str, truth: &Truth) -> Vec<String> {
    let mut problems = Vec::new();
    check_length(page, markdown, &mut problems);
    check_setup(page, markdown, truth, &mut problems);
    check_make_targets(page, markdown, truth, &mut problems);
    check_csb_flags(page, markdown, truth, &mut problems);
    let stated = check_defaults(page, markdown, truth, &mut problems);
    check_paths(page, markdown, &mut problems);
    for name in STATED_DEFAULTS {
        if !stated.contains(name) {
            problems.push(format!(
                "{page}: states no default of {name} in a form this test reads (\"`{name}` (default V\", \"the defaults `{name} V`\")"
            ));
        }
    }
    problems
}

fn report(problems: &[String]) {
    assert!(
        problems.is_empty(),
        "{} stale claims:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn readmes_claims_hold() {
    let truth = Truth::read();
    let readme = fs::read_to_string(README).unwrap();
    report(&readme_problems(README, &readme, &truth));
}

#[test]
fn the_chapters_in_docs_name_what_exists() {
    let truth = Truth::read();
    let mut problems = Vec::new();
    for page in CHAPTERS {
        let markdown = fs::read_to_string(page).unwrap_or_else(|_| panic!("{page} exists"));
        check_make_targets(page, &markdown, &truth, &mut problems);
        check_csb_flags(page, &markdown, &truth, &mut problems);
        check_paths(page, &markdown, &mut problems);
    }
    report(&problems);
}

#[test]
fn the_readme_links_its_chapters() {
    let readme = fs::read_to_string(README).unwrap();
    for page in CHAPTERS {
        assert!(
            readme.contains(&format!("]({page})")),
            "README.md links {page}"
        );
    }
}

/// The checks fail where they should: a README with the stale `--eval` default of before, an
/// unknown target, flag and value, a set-up block without `make test`, a missing page and too
/// many lines.
#[test]
fn a_stale_readme_fails_each_check() {
    let truth = Truth::read();
    let stale = fs::read_to_string("tests/readme_claims/stale-readme.md").unwrap();
    let problems = readme_problems("stale", &stale, &truth);
    let expected = [
        "says the default of --eval is hand; csb --help says league",
        "says the default of --net-weight is 0.15; csb --help says 0.6",
        "says the default of --budget-ms is 40; csb --help says 50",
        "says the default of --league is gold; csb --help says legend",
        "says LEAGUE=gold is the default",
        "`make train-everything` is not a target",
        "csb has no flag --pod-scores",
        "csb --eval takes league|hand|net, not pods",
        "does not give `make test`",
        "links docs/no-such-page.md, which does not exist",
        "names docs/no-such-page.md, which does not exist",
        "names scripts/no-such-script.sh, which does not exist",
    ];
    for wanted in expected {
        assert!(
            problems.iter().any(|problem| problem.contains(wanted)),
            "a problem containing {wanted:?} among:\n{}",
            problems.join("\n")
        );
    }
    assert_eq!(problems.len(), expected.len(), "{}", problems.join("\n"));
    let long = "line\n".repeat(MAX_LINES + 1);
    let mut too_long = Vec::new();
    check_length("long", &long, &mut too_long);
    assert_eq!(too_long.len(), 1);
}
