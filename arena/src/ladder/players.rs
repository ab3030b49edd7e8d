//! The ladder's reference players and time controls, read from `ladder/players.toml`: each
//! player is a binary of this repository at a git commit (`csb`, or the sparring bots `reflex`
//! and `ga`) with extra flags, or an already-built binary given by `path` (work in progress,
//! tests); each control gives the per-turn and first-turn budgets passed to the bots that take
//! them (csb and ga; `budget = false` turns it off), the referee's time scale and the league.
//! Beside them: other builds of a listed player (`[[builds]]`, a commit and flags whose binary
//! makes that player's moves with its code on the hot path, so that a row it played is imported
//! as that player's games), and the lineage (`lineage`: the defaults in the order they were
//! adopted, which `arena ladder plot` draws).

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The binaries a player can be.
pub const BOTS: [&str; 3] = ["csb", "reflex", "ga"];

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub name: String,
    /// A git commit (hash, tag or branch) of this repository...
    #[serde(default)]
    pub commit: Option<String>,
    /// ...or a binary that is already built (relative to the working directory).
    #[serde(default)]
    pub path: Option<PathBuf>,
    /// Which binary of that commit: csb (default), reflex or ga.
    #[serde(default = "default_bot")]
    pub bot: String,
    /// Extra flags after the control's budgets.
    #[serde(default)]
    pub flags: String,
    /// Whether the binary takes `--budget-ms` / `--first-budget-ms` (default: all but reflex).
    #[serde(default)]
    pub budget: Option<bool>,
}

fn default_bot() -> String {
    "csb".to_string()
}

impl Player {
    /// Whether the binary takes `--budget-ms` / `--first-budget-ms` (reflex does not).
    pub fn takes_budget(&self) -> bool {
        self.budget.unwrap_or(self.bot != "reflex")
    }

    /// The cargo package that builds the binary.
    pub fn package(&self) -> &'static str {
        if self.bot == "csb" {
            "csb"
        } else {
            "sparring"
        }
    }
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Control {
    pub budget_ms: f64,
    pub first_budget_ms: f64,
    #[serde(default = "default_time_scale")]
    pub time_scale: f64,
    #[serde(default = "default_league")]
    pub league: String,
}

fn default_time_scale() -> f64 {
    1.0
}

fn default_league() -> String {
    "legend".to_string()
}

impl Control {
    /// One line for reports.
    pub fn describe(&self, name: &str) -> String {
        format!(
            "control {name}: {} ms per turn, {} ms first (csb, ga), time scale {}, league {}",
            self.budget_ms, self.first_budget_ms, self.time_scale, self.league
        )
    }
}

/// Another build of a listed player: the binary of `commit` run with `flags` makes `player`'s
/// moves (same decisions at fixed iterations, same code on the hot path; `why` says how that is
/// known). `arena ladder import` counts a row played by it as that player's games.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Build {
    pub player: String,
    pub commit: String,
    #[serde(default)]
    pub flags: String,
    pub why: String,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Roster {
    pub controls: BTreeMap<String, Control>,
    pub players: Vec<Player>,
    #[serde(default)]
    pub builds: Vec<Build>,
    /// The defaults in the order they were adopted (names of listed players).
    #[serde(default)]
    pub lineage: Vec<String>,
}

impl Roster {
    pub fn load(path: &Path) -> Result<Roster, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Roster::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn parse(text: &str) -> Result<Roster, String> {
        // toml's messages can span lines ("invalid string\nexpected ..."); errors here are one line.
        let roster: Roster = toml::from_str(text).map_err(|e| one_line(e.message()))?;
        let mut seen = std::collections::BTreeSet::new();
        for player in &roster.players {
            if player.name.is_empty() || player.name.contains(char::is_whitespace) {
                return Err(format!("player name {:?} must be one word", player.name));
            }
            if !seen.insert(player.name.as_str()) {
                return Err(format!("player {} is listed twice", player.name));
            }
            if player.commit.is_some() == player.path.is_some() {
                return Err(format!(
                    "player {}: give either commit or path",
                    player.name
                ));
            }
            if !BOTS.contains(&player.bot.as_str()) {
                return Err(format!(
                    "player {}: bot {:?} is not one of {}",
                    player.name,
                    player.bot,
                    BOTS.join(", ")
                ));
            }
        }
        for build in &roster.builds {
            if !seen.contains(build.player.as_str()) {
                return Err(format!(
                    "builds: player {:?} is not listed",
                    build.player.escape_debug().to_string()
                ));
            }
            if build.why.trim().is_empty() {
                return Err(format!(
                    "builds: the build of {} at {:?} needs a why",
                    build.player,
                    build.commit.escape_debug().to_string()
                ));
            }
        }
        let mut in_lineage = std::collections::BTreeSet::new();
        for name in &roster.lineage {
            if !seen.contains(name.as_str()) {
                return Err(format!(
                    "lineage: player {:?} is not listed",
                    name.escape_debug().to_string()
                ));
            }
            if !in_lineage.insert(name.as_str()) {
                return Err(format!("lineage: player {name} is named twice"));
            }
        }
        for (name, control) in &roster.controls {
            let positive = |v: f64| v > 0.0 && v.is_finite();
            if !positive(control.budget_ms)
                || !positive(control.first_budget_ms)
                || !positive(control.time_scale)
            {
                return Err(format!(
                    "control {name}: budgets and time scale must be positive"
                ));
            }
            if csb::engine::League::parse(&control.league).is_none() {
                return Err(format!(
                    "control {name}: unknown league {:?} (gold or legend)",
                    control.league
                ));
            }
        }
        Ok(roster)
    }

    pub fn player(&self, name: &str) -> Result<&Player, String> {
        self.players.iter().find(|p| p.name == name).ok_or_else(|| {
            format!(
                "no player {name:?} in the roster (players: {})",
                self.players
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    }

    pub fn control(&self, name: &str) -> Result<&Control, String> {
        self.controls.get(name).ok_or_else(|| {
            format!(
                "no control {name:?} in the roster (controls: {})",
                self.controls.keys().cloned().collect::<Vec<_>>().join(", ")
            )
        })
    }
}

/// Words of a flags string, split on white space (how the shell splits these simple flags).
pub fn flag_words(flags: &str) -> Vec<&str> {
    flags.split_whitespace().collect()
}

/// The shell command of a player at a control, given its binary.
pub fn command(player: &Player, control: &Control, binary: &Path) -> String {
    let mut command = binary.display().to_string();
    if player.takes_budget() {
        command.push_str(&format!(
            " --budget-ms {} --first-budget-ms {}",
            control.budget_ms, control.first_budget_ms
        ));
    }
    if !player.flags.trim().is_empty() {
        command.push(' ');
        command.push_str(player.flags.trim());
    }
    command
}

/// toml's message as one line: its lines joined, blank ones dropped ("not valid TOML" if none).
fn one_line(message: &str) -> String {
    // A lone carriage return breaks a line too: toml quotes an unknown key as it was written.
    let lines: Vec<&str> = message
        .split(['\n', '\r'])
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect();
    if lines.is_empty() {
        "not valid TOML".to_string()
    } else {
        lines.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_roster_parses() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ladder/players.toml");
        let roster = Roster::load(&path).unwrap();
        assert!(roster.player("reflex").is_ok() && roster.player("ga").is_ok());
        assert_eq!(
            roster.lineage.first().map(String::as_str),
            Some("csb-3e2eeb0")
        );
        assert!(roster
            .builds
            .iter()
            .all(|b| roster.player(&b.player).is_ok()));
        let real = roster.control("real").unwrap();
        assert_eq!(
            (real.budget_ms, real.first_budget_ms, real.time_scale),
            (50.0, 500.0, 1.0)
        );
        let reflex = roster.player("reflex").unwrap();
        assert_eq!(command(reflex, real, Path::new("/b/reflex")), "/b/reflex");
        let ga = roster.player("ga").unwrap();
        assert_eq!(
            command(ga, real, Path::new("/b/ga")),
            "/b/ga --budget-ms 50 --first-budget-ms 500"
        );
    }

    #[test]
    fn bad_rosters_are_refused_with_a_reason() {
        let control = "[controls.c]\nbudget_ms = 5\nfirst_budget_ms = 50\n";
        let twice = format!(
            "{control}[[players]]\nname = \"a\"\ncommit = \"x\"\n[[players]]\nname = \"a\"\ncommit = \"y\"\n"
        );
        assert!(Roster::parse(&twice).unwrap_err().contains("twice"));
        let bot = format!("{control}[[players]]\nname = \"a\"\ncommit = \"x\"\nbot = \"zz\"\n");
        assert!(Roster::parse(&bot).unwrap_err().contains("zz"));
        let both = format!("{control}[[players]]\nname = \"a\"\ncommit = \"x\"\npath = \"y\"\n");
        assert!(Roster::parse(&both).unwrap_err().contains("either"));
        let unknown = format!("{control}[[players]]\nname = \"a\"\ncommit = \"x\"\nflag = \"\"\n");
        assert!(Roster::parse(&unknown).is_err());
        // A quoted key holding a carriage return, which toml's message repeats: still one line
        // (found by the fuzzer, fuzz/regressions/ladder_players/toml-key-with-carriage-return.toml).
        let error = Roster::parse("\"a\\rb\" = 1\n").unwrap_err();
        assert!(!error.contains('\r') && !error.contains('\n'), "{error:?}");
        assert!(error.contains("unknown field"), "{error}");
        let player = format!("{control}[[players]]\nname = \"a\"\ncommit = \"x\"\n");
        let lineage = format!("lineage = [\"a\", \"b\"]\n{player}");
        assert!(Roster::parse(&lineage)
            .unwrap_err()
            .contains("\"b\" is not listed"));
        let twice = format!("lineage = [\"a\", \"a\"]\n{player}");
        assert!(Roster::parse(&twice).unwrap_err().contains("twice"));
        let build = |who: &str, why: &str| {
            format!("{player}[[builds]]\nplayer = \"{who}\"\ncommit = \"y\"\nwhy = \"{why}\"\n")
        };
        assert!(Roster::parse(&build("b", "same"))
            .unwrap_err()
            .contains("not listed"));
        assert!(Roster::parse(&build("a", " "))
            .unwrap_err()
            .contains("needs a why"));
        let roster = Roster::parse(&build("a", "same moves")).unwrap();
        assert_eq!(
            (
                roster.builds[0].commit.as_str(),
                roster.builds[0].flags.as_str()
            ),
            ("y", "")
        );
    }
}
