//! `arena ladder import`: the games of a row already played by `arena match` (the folder
//! scripts/row.sh keeps: `shard-*.json`, the row's command in `options.txt`) appended to a
//! ladder's results file as games between two listed players, each game with the row's folder,
//! command and builds. The row's folder also says which commit built each binary it ran
//! (`commits.txt`: one `BINARY COMMIT` line per binary), since a match's files name binaries by
//! path only.
//!
//! Refused with one line and nothing appended: a row not played at the ladder's control (league,
//! time scale, both bots' budgets, one game at a time), a side that is not the named player (its
//! binary's commit and its flags are neither the player's nor one of its `[[builds]]`), and a
//! row already in the results file. Each game keeps its key (the row's seed, its pair and A's
//! seat): `arena match` and `arena ladder play` derive the maps from the seed the same way, so
//! an imported game is the game the ladder would play at that seed.

use super::players::{flag_words, Control, Player, Roster};
use super::results::{self, ImportedRow, LadderGame, GAME_FORMAT};
use crate::matches::result::{merge, MatchResult};
use crate::matches::seeds::game_seed;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// csb's budgets when its command gives none (50 ms a turn, 500 ms the first): the defaults of
/// every commit of the lineage (`src/bot/config.rs`).
pub const CSB_DEFAULT_BUDGETS: (f64, f64) = (50.0, 500.0);

/// What `arena ladder import` was asked.
pub struct ImportRequest {
    pub roster: PathBuf,
    pub control: String,
    /// The row's folder.
    pub row: PathBuf,
    /// The players that were the row's p1 and p2.
    pub p1: String,
    pub p2: String,
    /// The row's command when its folder has no options.txt.
    pub row_command: Option<String>,
    pub results: PathBuf,
    /// The git repository the commits belong to.
    pub repo: PathBuf,
}

/// One side of the row: its command read as binary, budgets and the other flags.
#[derive(Debug, PartialEq)]
struct Side<'a> {
    command: &'a str,
    binary: &'a str,
    budget_ms: Option<f64>,
    first_budget_ms: Option<f64>,
    iterations: bool,
    flags: Vec<&'a str>,
}

/// The name of a binary: its path's last part.
fn bot_of(binary: &str) -> &str {
    binary.rsplit('/').next().unwrap_or(binary)
}

/// Reads a bot's command. Only plain words are read: a command with quotes or other shell
/// syntax is refused, since its flags could not be compared word by word.
fn side(command: &str) -> Result<Side<'_>, String> {
    if let Some(c) = command
        .chars()
        .find(|c| "'\"\\$`;|&<>(){}*?~#".contains(*c))
    {
        return Err(format!(
            "command {:?} has shell syntax ({c:?}); only plain words can be compared",
            command.escape_debug().to_string()
        ));
    }
    let mut words = command.split_whitespace();
    let binary = words.next().ok_or("an empty command")?;
    let mut side = Side {
        command,
        binary,
        budget_ms: None,
        first_budget_ms: None,
        iterations: false,
        flags: Vec::new(),
    };
    while let Some(word) = words.next() {
        let (flag, inline) = match word.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value)),
            _ => (word, None),
        };
        let slot = match flag {
            "--budget-ms" => &mut side.budget_ms,
            "--first-budget-ms" => &mut side.first_budget_ms,
            "--iterations" => {
                side.iterations = true;
                continue;
            }
            _ => {
                side.flags.push(word);
                continue;
            }
        };
        let value = inline.or_else(|| words.next()).unwrap_or("");
        let ms = value
            .parse::<f64>()
            .map_err(|_| format!("{flag} {value:?} is not a number"))?;
        *slot = Some(ms);
    }
    Ok(side)
}

/// The value of `--NAME` in a command's words (`--NAME V` or `--NAME=V`).
fn option_value<'a>(words: &[&'a str], name: &str) -> Option<&'a str> {
    words.iter().enumerate().find_map(|(i, word)| {
        if *word == name {
            words.get(i + 1).copied()
        } else {
            word.strip_prefix(name)?.strip_prefix('=')
        }
    })
}

/// Refuses a row not played at the control: league, time scale, budgets, one game at a time.
fn check_control(
    result: &MatchResult,
    sides: &[Side; 2],
    command: &str,
    control_name: &str,
    control: &Control,
) -> Result<(), String> {
    let not = |what: String| Err(format!("not control {control_name}: {what}"));
    if result.league != control.league {
        return not(format!(
            "league {}, the control's is {}",
            result.league.escape_debug(),
            control.league
        ));
    }
    if result.time_scale != control.time_scale {
        return not(format!(
            "time scale {}, the control's is {}",
            result.time_scale, control.time_scale
        ));
    }
    let words: Vec<&str> = command.split_whitespace().collect();
    let threads = option_value(&words, "--threads").unwrap_or("1");
    if threads != "1" {
        return not(format!(
            "{} games at a time (--threads {}); the ladder's rows are played one at a time",
            threads.escape_debug(),
            threads.escape_debug()
        ));
    }
    for (side, seat) in sides.iter().zip(["p1", "p2"]) {
        let bot = bot_of(side.binary);
        if side.iterations {
            return not(format!(
                "{seat} plays a fixed number of iterations (--iterations), not the clock"
            ));
        }
        if bot == "reflex" {
            continue;
        }
        let defaults = if bot == "csb" {
            (Some(CSB_DEFAULT_BUDGETS.0), Some(CSB_DEFAULT_BUDGETS.1))
        } else {
            (None, None)
        };
        let budget = side.budget_ms.or(defaults.0);
        let first = side.first_budget_ms.or(defaults.1);
        if budget != Some(control.budget_ms) || first != Some(control.first_budget_ms) {
            let shown = |ms: Option<f64>| ms.map_or("not given".to_string(), |ms| format!("{ms}"));
            return not(format!(
                "{seat}'s budgets are {} ms and {} ms first, the control's {} ms and {} ms",
                shown(budget),
                shown(first),
                control.budget_ms,
                control.first_budget_ms
            ));
        }
    }
    Ok(())
}

/// The full hash of a commit of the repository.
fn full_hash(repo: &Path, commit: &str) -> Result<String, String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["rev-parse", "--verify", "--quiet"])
        .arg(format!("{commit}^{{commit}}"))
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "{:?} is not a commit of {}",
            commit.escape_debug().to_string(),
            repo.display()
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// `commits.txt`: binary → the commit that built it.
fn read_commits(row: &Path) -> Result<BTreeMap<String, String>, String> {
    let path = row.join("commits.txt");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "cannot read {} (one 'BINARY COMMIT' line per binary of the row): {e}",
            path.display()
        )
    })?;
    let mut commits = BTreeMap::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_whitespace().collect::<Vec<_>>()[..] {
            [binary, commit] => {
                commits.insert(binary.to_string(), commit.to_string());
            }
            _ => {
                return Err(format!(
                    "{}:{}: expected 'BINARY COMMIT'",
                    path.display(),
                    number + 1
                ))
            }
        }
    }
    Ok(commits)
}

/// Refuses a side that is not the player: its bot, its binary's commit and its flags must be
/// the player's own or those of one of the player's other builds.
fn check_player(
    roster: &Roster,
    player: &Player,
    side: &Side,
    build: &str,
    seat: &str,
    repo: &Path,
) -> Result<(), String> {
    let Some(commit) = &player.commit else {
        return Err(format!(
            "player {} is a binary by path, not a commit: a row cannot be checked against it",
            player.name
        ));
    };
    let bot = bot_of(side.binary);
    if bot != player.bot {
        return Err(format!(
            "{seat} runs {}, player {} is {}",
            bot.escape_debug(),
            player.name,
            player.bot
        ));
    }
    let mut known = vec![(commit.as_str(), player.flags.as_str())];
    known.extend(
        roster
            .builds
            .iter()
            .filter(|b| b.player == player.name)
            .map(|b| (b.commit.as_str(), b.flags.as_str())),
    );
    for (commit, flags) in &known {
        if full_hash(repo, commit)? == build && flag_words(flags) == side.flags {
            return Ok(());
        }
    }
    let listed: Vec<String> = known
        .iter()
        .map(|(commit, flags)| format!("{commit} {flags:?}"))
        .collect();
    Err(format!(
        "{seat} ({} built at {}, flags {:?}) is not player {} (builds: {})",
        side.binary.escape_debug(),
        &build[..build.len().min(10)],
        side.flags.join(" ").escape_debug().to_string(),
        player.name,
        listed.join(", ")
    ))
}

/// The row's shard results, merged (they must be shards of one match).
fn read_row(row: &Path) -> Result<MatchResult, String> {
    let entries =
        std::fs::read_dir(row).map_err(|e| format!("cannot read {}: {e}", row.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("shard-") && n.ends_with(".json"))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("{}: no shard-*.json", row.display()));
    }
    let mut parts = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        parts.push(MatchResult::from_json(&text).map_err(|e| format!("{}: {e}", file.display()))?);
    }
    merge(parts).map_err(|e| format!("{}: {e}", row.display()))
}

/// The row's command: options.txt, or the one given when there is none.
fn row_command(row: &Path, given: Option<&str>) -> Result<String, String> {
    let path = row.join("options.txt");
    match (std::fs::read_to_string(&path), given) {
        (Ok(text), None) => Ok(text.trim().to_string()),
        (Ok(text), Some(given)) if text.trim() == given.trim() => Ok(text.trim().to_string()),
        (Ok(_), Some(_)) => Err(format!(
            "{} is there and differs from --row-command",
            path.display()
        )),
        (Err(_), Some(given)) => Ok(given.trim().to_string()),
        (Err(e), None) => Err(format!(
            "cannot read {} ({e}): give the row's command with --row-command",
            path.display()
        )),
    }
}

/// Checks the row and returns its games as the ladder's, A and B in name order.
pub fn imported_games(request: &ImportRequest) -> Result<Vec<LadderGame>, String> {
    let row_name = request.row.display().to_string();
    let in_row = |e: String| format!("{row_name}: {e}");
    let roster = Roster::load(&request.roster)?;
    let control = roster.control(&request.control)?;
    if request.p1 == request.p2 {
        return Err(format!("p1 and p2 are both {}", request.p1));
    }
    let players = [roster.player(&request.p1)?, roster.player(&request.p2)?];
    let result = read_row(&request.row)?;
    let command = row_command(&request.row, request.row_command.as_deref())?;
    let words: Vec<&str> = command.split_whitespace().collect();
    let seed_text = result.seed.to_string();
    if !command.contains(&result.p1)
        || !command.contains(&result.p2)
        || option_value(&words, "--seed") != Some(seed_text.as_str())
    {
        return Err(in_row(format!(
            "the row's command is not its shards' (p1 {:?}, p2 {:?}, seed {}): {:?}",
            result.p1.escape_debug().to_string(),
            result.p2.escape_debug().to_string(),
            result.seed,
            command.escape_debug().to_string()
        )));
    }
    let sides = [
        side(&result.p1).map_err(in_row)?,
        side(&result.p2).map_err(in_row)?,
    ];
    check_control(&result, &sides, &command, &request.control, control).map_err(in_row)?;
    let commits = read_commits(&request.row)?;
    let mut builds = Vec::new();
    for ((side, player), seat) in sides.iter().zip(players).zip(["p1", "p2"]) {
        let commit = commits.get(side.binary).ok_or_else(|| {
            in_row(format!(
                "commits.txt does not say which commit built {}",
                side.binary.escape_debug()
            ))
        })?;
        let build = full_hash(&request.repo, commit).map_err(in_row)?;
        check_player(&roster, player, side, &build, seat, &request.repo).map_err(in_row)?;
        builds.push(build);
    }
    for game in &result.games {
        if game.seed != game_seed(result.seed, game.index) {
            return Err(in_row(format!(
                "game {}'s map seed {} is not the one of match seed {}",
                game.index, game.seed, result.seed
            )));
        }
    }
    let p1_is_a = request.p1 < request.p2;
    let (a, b) = if p1_is_a { (0, 1) } else { (1, 0) };
    let names = [&request.p1, &request.p2];
    let commands = [&result.p1, &result.p2];
    Ok(result
        .games
        .iter()
        .map(|game| LadderGame {
            format: GAME_FORMAT.to_string(),
            control: request.control.clone(),
            seed: result.seed,
            a: names[a].clone(),
            b: names[b].clone(),
            pair: game.index / 2,
            a_player: if p1_is_a {
                game.p1_player
            } else {
                1 - game.p1_player
            },
            map_seed: game.seed,
            a_score: if p1_is_a {
                game.p1_score
            } else {
                1.0 - game.p1_score
            },
            turns: game.turns,
            reason: game.reason.clone(),
            eliminations: Vec::new(),
            a_command: commands[a].clone(),
            b_command: commands[b].clone(),
            row: Some(ImportedRow {
                dir: row_name.clone(),
                command: command.clone(),
                game: game.index,
                a_build: builds[a].clone(),
                b_build: builds[b].clone(),
            }),
        })
        .collect())
}

/// Imports the row into the results file; returns the number of games appended.
pub fn import(request: &ImportRequest) -> Result<usize, String> {
    let games = imported_games(request)?;
    let existing = results::load(&[&request.results])?;
    let keys: BTreeSet<_> = existing.iter().map(LadderGame::key).collect();
    let row_games: BTreeSet<(&str, usize)> = existing
        .iter()
        .filter_map(|g| g.row.as_ref().map(|r| (r.command.as_str(), r.game)))
        .collect();
    if let Some(game) = games.iter().find(|g| {
        let row = g.row.as_ref().expect("imported games carry their row");
        keys.contains(&g.key()) || row_games.contains(&(row.command.as_str(), row.game))
    }) {
        return Err(format!(
            "{}: already in {} (game {} of seed {}, {} vs {}); nothing appended",
            request.row.display(),
            request.results.display(),
            game.row.as_ref().map_or(0, |r| r.game),
            game.seed,
            game.a,
            game.b
        ));
    }
    results::append_all(&request.results, &games)?;
    Ok(games.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_as_binary_budgets_and_flags() {
        let read = side("/b/csb --budget-ms=50 --net-weight 0.5 --first-budget-ms 500").unwrap();
        assert_eq!(read.binary, "/b/csb");
        assert_eq!(
            (read.budget_ms, read.first_budget_ms),
            (Some(50.0), Some(500.0))
        );
        assert_eq!(read.flags, ["--net-weight", "0.5"]);
        assert!(!read.iterations);
        assert!(side("/b/csb --iterations 5000").unwrap().iterations);
        assert!(side("/b/csb --budget-ms x")
            .unwrap_err()
            .contains("not a number"));
        assert!(side("/b/csb --net-file '/a b'")
            .unwrap_err()
            .contains("shell syntax"));
        assert_eq!(bot_of("/work/b-new/csb"), "csb");
        let words = ["--p1", "x", "--threads=2", "--seed", "7"];
        assert_eq!(option_value(&words, "--threads"), Some("2"));
        assert_eq!(option_value(&words, "--seed"), Some("7"));
        assert_eq!(option_value(&words, "--games"), None);
    }

    #[test]
    fn csb_budgets_by_default_are_the_ones_assumed() {
        let config = csb::bot::config::BotConfig::default();
        assert_eq!(
            (config.budget_ms, config.first_budget_ms),
            CSB_DEFAULT_BUDGETS
        );
    }
}
