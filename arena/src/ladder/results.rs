//! The ladder's results file: one JSON object per line and per game, appended as each game
//! ends, so that a run can stop and resume, and files of runs on other machines (shards) can
//! simply be listed together. A game is identified by its control, match seed, players (in
//! name order: A before B), pair index and A's seat; a game listed twice counts once. A game
//! imported from a row played by `arena match` (`arena ladder import`) carries the row it came
//! from: its folder, its command and the commits that built its binaries.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

pub const GAME_FORMAT: &str = "csb-ladder-game";

/// One game of the ladder, from A's side (A's name sorts before B's).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderGame {
    pub format: String,
    pub control: String,
    pub seed: u64,
    pub a: String,
    pub b: String,
    pub pair: usize,
    /// A's seat: 0 or 1.
    pub a_player: usize,
    /// Referee seed of the pair's map.
    pub map_seed: i64,
    /// A's score: 1, 0.5 or 0.
    pub a_score: f64,
    pub turns: u16,
    pub reason: String,
    /// (bot: "a"/"b", cause) of each elimination.
    #[serde(default)]
    pub eliminations: Vec<(String, String)>,
    pub a_command: String,
    pub b_command: String,
    /// The row this game was imported from (absent for games `arena ladder play` played).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row: Option<ImportedRow>,
}

/// Where an imported game was played: a row of `arena match` (scripts/row.sh).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImportedRow {
    /// The row's folder as given to the import.
    pub dir: String,
    /// The row's command (its options.txt).
    pub command: String,
    /// The game's index in the match.
    pub game: usize,
    /// Full hashes of the commits that built A's and B's binaries.
    pub a_build: String,
    pub b_build: String,
}

/// What identifies a game.
pub type GameKey = (String, u64, String, String, usize, usize);

impl LadderGame {
    pub fn key(&self) -> GameKey {
        (
            self.control.clone(),
            self.seed,
            self.a.clone(),
            self.b.clone(),
            self.pair,
            self.a_player,
        )
    }
}

/// Reads the games of results files (a missing file has none), keeping the first of any
/// duplicate. A last line cut short (a run killed mid-write) is skipped with a warning; any
/// other bad line is an error.
pub fn load(paths: &[impl AsRef<Path>]) -> Result<Vec<LadderGame>, String> {
    let mut games: BTreeMap<GameKey, LadderGame> = BTreeMap::new();
    for path in paths {
        let path = path.as_ref();
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let lines: Vec<&str> = text.lines().collect();
        for (number, line) in lines.iter().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<LadderGame>(line) {
                Ok(game) if game.format == GAME_FORMAT => {
                    games.entry(game.key()).or_insert(game);
                }
                Ok(game) => {
                    return Err(format!(
                        "{}:{}: format {:?}, expected {GAME_FORMAT:?}",
                        path.display(),
                        number + 1,
                        game.format
                    ))
                }
                Err(_) if number + 1 == lines.len() && !text.ends_with('\n') => {
                    eprintln!(
                        "arena: warning: {}:{}: last line is incomplete, skipped",
                        path.display(),
                        number + 1
                    );
                }
                Err(e) => {
                    return Err(format!(
                        "{}:{}: not a ladder game: {e}",
                        path.display(),
                        number + 1
                    ))
                }
            }
        }
    }
    Ok(games.into_values().collect())
}

/// Appends one game as a line and flushes it to disk. A last line cut short (a run killed
/// mid-write, which [`load`] skips) is cut off first, so the new line does not join it.
pub fn append(path: &Path, game: &LadderGame) -> Result<(), String> {
    append_all(path, std::slice::from_ref(game))
}

/// Appends games as lines in one write, as [`append`] does one.
pub fn append_all(path: &Path, games: &[LadderGame]) -> Result<(), String> {
    let cannot_write = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let length = file.metadata().map_err(cannot_write)?.len();
    if length > 0 {
        let mut last = [0u8];
        file.seek(SeekFrom::Start(length - 1))
            .and_then(|_| file.read_exact(&mut last))
            .map_err(cannot_write)?;
        if last[0] != b'\n' {
            let mut text = Vec::new();
            file.seek(SeekFrom::Start(0))
                .and_then(|_| file.read_to_end(&mut text))
                .map_err(cannot_write)?;
            let complete = text
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |end| end + 1);
            file.set_len(complete as u64).map_err(cannot_write)?;
        }
    }
    let lines: String = games
        .iter()
        .map(|game| serde_json::to_string(game).expect("a ladder game encodes") + "\n")
        .collect();
    file.write_all(lines.as_bytes())
        .and_then(|()| file.sync_data())
        .map_err(cannot_write)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(pair: usize, a_player: usize, a_score: f64) -> LadderGame {
        LadderGame {
            format: GAME_FORMAT.to_string(),
            control: "screen".to_string(),
            seed: 1,
            a: "ga".to_string(),
            b: "reflex".to_string(),
            pair,
            a_player,
            map_seed: 42,
            a_score,
            turns: 100,
            reason: "race finished".to_string(),
            eliminations: Vec::new(),
            a_command: "ga".to_string(),
            b_command: "reflex".to_string(),
            row: None,
        }
    }

    #[test]
    fn appended_games_load_back_once_and_a_cut_last_line_is_skipped() {
        let dir = std::env::temp_dir().join(format!("ladder-results-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let first = dir.join("a.jsonl");
        let second = dir.join("b.jsonl");
        append(&first, &game(0, 0, 1.0)).unwrap();
        append(&first, &game(0, 1, 0.5)).unwrap();
        append(&second, &game(0, 1, 0.5)).unwrap();
        append(&second, &game(1, 0, 0.0)).unwrap();
        let mut text = std::fs::read_to_string(&second).unwrap();
        text.push_str("{\"format\":\"csb-ladder-ga");
        std::fs::write(&second, text).unwrap();
        let games = load(&[&first, &second, &dir.join("missing.jsonl")]).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(games[0], game(0, 0, 1.0));
        // The next game appended replaces the cut line instead of joining it.
        append(&second, &game(2, 0, 1.0)).unwrap();
        assert_eq!(load(&[&second]).unwrap().len(), 3);
        assert!(std::fs::read_to_string(&second).unwrap().ends_with("}\n"));
        std::fs::write(&second, "not json\n").unwrap();
        assert!(load(&[&second]).unwrap_err().contains("b.jsonl:1"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
