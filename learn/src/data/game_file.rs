//! The self-play data format, version 1: one text file per game (`game-NNNNNN.csbsp`), written
//! whole after the game ended (to a temporary name, then renamed), so a file that exists is a
//! finished game. [`parse_game`] is a pure function over the file's text, for the trainer and
//! for fuzzing; every error names the line and what was expected there.
//!
//! ```text
//! csb-selfplay 1
//! game <index> map-seed <seed> laps <laps> checkpoints <n> <x0> <y0> ... <x(n-1)> <y(n-1)>
//! players <name of player 0> <name of player 1>
//! result <winner: 0|1|draw> <reason: race|elimination|turns> turns <turns played>
//! position <turn> view <p> timeout <own> <theirs> pods <4 pods> stats <2 × 10 entries>
//! ...
//! end <number of position lines>
//! ```
//!
//! Each turn gives two `position` lines, one per player's point of view (`view p`): the pods as
//! player `p` is sent them, its own two first (lower index first), then the opponent's. A pod is
//! 9 fields `x y vx vy angle next passes boost shield`: position and speed (integers), the exact
//! facing angle in radians (`-` while unset), the next checkpoint index, checkpoints passed, 1
//! if its BOOST is spent, the coming turns a SHIELD still locks its thrust. `timeout` is the
//! turns each player has left before the 100-turn checkpoint timeout (csb-rules.md §5.4), own
//! first. `stats` is the viewing player's search at that turn: for each of its two pods, each of
//! the 10 root actions as `visits/mean` (mean score of the visits, written to 5 decimals, 0 when
//! none). The winner is absolute (player 0 or 1); [`PositionRecord::outcome`] gives it from a
//! view.

use std::fmt::{self, Write};

/// The first line of every file of this format and version.
pub const MAGIC: &str = "csb-selfplay 1";
/// Root actions per pod in the `stats` of a position (the bot's action set).
pub const STAT_ACTIONS: usize = 10;
/// Fields per pod in a `position` line.
const POD_FIELDS: usize = 9;
/// Most checkpoints a course has (csb-rules.md §2.2).
const MAX_CHECKPOINTS: usize = 8;

/// A malformed file: the 1-based line and what was wrong. Displays as one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    pub line_number: usize,
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line_number, self.message)
    }
}

/// One pod in a position (see the module's format description).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PodRecord {
    pub x: i32,
    pub y: i32,
    pub vx: i32,
    pub vy: i32,
    pub angle_rad: Option<f64>,
    pub next_checkpoint: u8,
    pub passes: u16,
    pub boost_used: bool,
    pub shield_lock_turns: u8,
}

/// One root action's statistics: visits and mean score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionStat {
    pub visits: u32,
    pub mean: f64,
}

/// One position from one player's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionRecord {
    pub turn: u16,
    /// The player whose view this is (0 or 1).
    pub view: u8,
    /// Turns left before the checkpoint timeout: the viewing player's, then the opponent's.
    pub timeout_left: [i32; 2],
    /// Own pods first, then the opponent's.
    pub pods: [PodRecord; 4],
    /// The viewing player's root statistics, per own pod, per action.
    pub stats: [[ActionStat; STAT_ACTIONS]; 2],
}

/// How a game ended for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
}

impl Outcome {
    /// The training target: 1 for a win, 0 for a loss, ½ for a draw.
    pub fn target(self) -> f32 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Loss => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

/// A whole self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub index: u64,
    pub map_seed: i64,
    pub laps: u16,
    pub checkpoints: Vec<(i32, i32)>,
    pub players: [String; 2],
    /// The winning player, `None` for a draw.
    pub winner: Option<u8>,
    /// `race`, `elimination` or `turns`.
    pub reason: String,
    pub turns: u16,
    pub positions: Vec<PositionRecord>,
}

impl PositionRecord {
    /// The game's result for the viewing player.
    pub fn outcome(&self, winner: Option<u8>) -> Outcome {
        match winner {
            None => Outcome::Draw,
            Some(player) if player == self.view => Outcome::Win,
            Some(_) => Outcome::Loss,
        }
    }
}

/// The end reasons a file may name.
pub const REASONS: [&str; 3] = ["race", "elimination", "turns"];

/// The file's text for `game`.
pub fn write_game(game: &GameRecord) -> String {
    let mut text = String::new();
    let _ = writeln!(text, "{MAGIC}");
    let _ = write!(
        text,
        "game {} map-seed {} laps {} checkpoints {}",
        game.index,
        game.map_seed,
        game.laps,
        game.checkpoints.len()
    );
    for (x, y) in &game.checkpoints {
        let _ = write!(text, " {x} {y}");
    }
    let _ = writeln!(text);
    let _ = writeln!(text, "players {} {}", game.players[0], game.players[1]);
    let winner = game
        .winner
        .map_or("draw".to_string(), |player| player.to_string());
    let _ = writeln!(text, "result {winner} {} turns {}", game.reason, game.turns);
    for position in &game.positions {
        write_position(&mut text, position);
    }
    let _ = writeln!(text, "end {}", game.positions.len());
    text
}

fn write_position(text: &mut String, position: &PositionRecord) {
    let _ = write!(
        text,
        "position {} view {} timeout {} {} pods",
        position.turn, position.view, position.timeout_left[0], position.timeout_left[1]
    );
    for pod in &position.pods {
        let _ = write!(text, " {} {} {} {} ", pod.x, pod.y, pod.vx, pod.vy);
        match pod.angle_rad {
            Some(angle) => {
                let _ = write!(text, "{angle:?}");
            }
            None => text.push('-'),
        }
        let _ = write!(
            text,
            " {} {} {} {}",
            pod.next_checkpoint,
            pod.passes,
            u8::from(pod.boost_used),
            pod.shield_lock_turns
        );
    }
    text.push_str(" stats");
    for pod in &position.stats {
        for stat in pod {
            let _ = write!(text, " {}/{:.5}", stat.visits, stat.mean);
        }
    }
    text.push('\n');
}

/// Reads the fields of one line, naming the line in errors.
struct Fields<'a> {
    tokens: std::str::SplitWhitespace<'a>,
    line_number: usize,
}

impl<'a> Fields<'a> {
    fn error(&self, message: String) -> FormatError {
        FormatError {
            line_number: self.line_number,
            message,
        }
    }

    fn next(&mut self, what: &str) -> Result<&'a str, FormatError> {
        let line_number = self.line_number;
        self.tokens.next().ok_or_else(|| FormatError {
            line_number,
            message: format!("expected {what}, got the end of the line"),
        })
    }

    fn keyword(&mut self, keyword: &str) -> Result<(), FormatError> {
        let token = self.next(&format!("`{keyword}`"))?;
        if token == keyword {
            Ok(())
        } else {
            Err(self.error(format!("expected `{keyword}`, got {token:?}")))
        }
    }

    fn number<T: std::str::FromStr>(&mut self, what: &str) -> Result<T, FormatError> {
        let token = self.next(what)?;
        token
            .parse()
            .map_err(|_| self.error(format!("expected {what}, got {token:?}")))
    }

    /// A number within `low..=high`.
    fn bounded<T: std::str::FromStr + PartialOrd + fmt::Display + Copy>(
        &mut self,
        what: &str,
        low: T,
        high: T,
    ) -> Result<T, FormatError> {
        let value: T = self.number(&format!("{what} ({low}..={high})"))?;
        if value < low || value > high {
            return Err(self.error(format!("expected {what} in {low}..={high}, got {value}")));
        }
        Ok(value)
    }

    fn finish(&mut self) -> Result<(), FormatError> {
        match self.tokens.next() {
            None => Ok(()),
            Some(token) => Err(self.error(format!("unexpected {token:?} at the end of the line"))),
        }
    }
}

/// Reads a game file's text. Errors name the line: a truncated file (no `end` line, or fewer
/// positions than it announces), a wrong magic line, a field out of range or not a number.
pub fn parse_game(text: &str) -> Result<GameRecord, FormatError> {
    let mut lines = text.lines().enumerate().map(|(index, line)| Fields {
        tokens: line.split_whitespace(),
        line_number: index + 1,
    });
    let mut next_line = |what: &str, after: usize| {
        lines.next().ok_or_else(|| FormatError {
            line_number: after + 1,
            message: format!("the file is truncated: expected {what}, got the end of the file"),
        })
    };
    let magic_line = text.lines().next().unwrap_or("");
    if magic_line.trim_end() != MAGIC {
        return Err(FormatError {
            line_number: 1,
            message: format!(
                "not a self-play file of this version: expected {MAGIC:?}, got {:?}",
                truncate(magic_line)
            ),
        });
    }
    next_line("the magic line", 0)?;

    let mut fields = next_line("the `game` line", 1)?;
    fields.keyword("game")?;
    let index: u64 = fields.number("the game index")?;
    fields.keyword("map-seed")?;
    let map_seed: i64 = fields.number("the map seed")?;
    fields.keyword("laps")?;
    let laps: u16 = fields.bounded("the laps", 1, 10)?;
    fields.keyword("checkpoints")?;
    let count: usize = fields.bounded("the checkpoint count", 2, MAX_CHECKPOINTS)?;
    let mut checkpoints = Vec::with_capacity(count);
    for _ in 0..count {
        let x = fields.bounded("a checkpoint x", -100_000, 100_000)?;
        let y = fields.bounded("a checkpoint y", -100_000, 100_000)?;
        checkpoints.push((x, y));
    }
    fields.finish()?;

    let mut fields = next_line("the `players` line", 2)?;
    fields.keyword("players")?;
    let players = [
        fields.next("player 0's name")?.to_string(),
        fields.next("player 1's name")?.to_string(),
    ];
    fields.finish()?;

    let mut fields = next_line("the `result` line", 3)?;
    fields.keyword("result")?;
    let winner = match fields.next("the winner (0, 1 or draw)")? {
        "0" => Some(0),
        "1" => Some(1),
        "draw" => None,
        other => {
            return Err(fields.error(format!("expected the winner (0, 1 or draw), got {other:?}")))
        }
    };
    let reason = fields.next("the end reason")?;
    if !REASONS.contains(&reason) {
        return Err(fields.error(format!(
            "expected the end reason ({}), got {reason:?}",
            REASONS.join(", ")
        )));
    }
    let reason = reason.to_string();
    fields.keyword("turns")?;
    let turns: u16 = fields.bounded("the turns played", 0, 1000)?;
    fields.finish()?;

    let mut positions = Vec::new();
    let mut last_line = 4;
    loop {
        let mut fields = next_line("a `position` or the `end` line", last_line)?;
        last_line = fields.line_number;
        match fields.next("`position` or `end`")? {
            "position" => positions.push(parse_position(&mut fields, count)?),
            "end" => {
                let announced: usize = fields.number("the number of positions")?;
                fields.finish()?;
                if announced != positions.len() {
                    return Err(fields.error(format!(
                        "the file is truncated or corrupt: `end` announces {announced} positions, \
                         the file holds {}",
                        positions.len()
                    )));
                }
                break;
            }
            other => {
                return Err(fields.error(format!("expected `position` or `end`, got {other:?}")))
            }
        }
    }
    if let Some(extra) = lines.next() {
        return Err(FormatError {
            line_number: extra.line_number,
            message: "unexpected text after the `end` line".to_string(),
        });
    }
    Ok(GameRecord {
        index,
        map_seed,
        laps,
        checkpoints,
        players,
        winner,
        reason,
        turns,
        positions,
    })
}

fn parse_position(
    fields: &mut Fields,
    checkpoint_count: usize,
) -> Result<PositionRecord, FormatError> {
    let turn: u16 = fields.bounded("the turn", 0, 1000)?;
    fields.keyword("view")?;
    let view: u8 = fields.bounded("the view", 0, 1)?;
    fields.keyword("timeout")?;
    let timeout_left = [
        fields.bounded("the own timeout", -1000, 1000)?,
        fields.bounded("the opponent's timeout", -1000, 1000)?,
    ];
    fields.keyword("pods")?;
    let mut pods = [PodRecord {
        x: 0,
        y: 0,
        vx: 0,
        vy: 0,
        angle_rad: None,
        next_checkpoint: 0,
        passes: 0,
        boost_used: false,
        shield_lock_turns: 0,
    }; 4];
    for pod in pods.iter_mut() {
        const COORDINATE: i32 = 1_000_000;
        pod.x = fields.bounded("a pod's x", -COORDINATE, COORDINATE)?;
        pod.y = fields.bounded("a pod's y", -COORDINATE, COORDINATE)?;
        pod.vx = fields.bounded("a pod's vx", -COORDINATE, COORDINATE)?;
        pod.vy = fields.bounded("a pod's vy", -COORDINATE, COORDINATE)?;
        let angle = fields.next("a pod's angle (radians or -)")?;
        pod.angle_rad = if angle == "-" {
            None
        } else {
            match angle.parse::<f64>() {
                Ok(value) if value.is_finite() && value.abs() <= 1e6 => Some(value),
                _ => {
                    return Err(fields.error(format!(
                        "expected a pod's angle (finite radians or -), got {angle:?}"
                    )))
                }
            }
        };
        pod.next_checkpoint =
            fields.bounded("a pod's next checkpoint", 0, checkpoint_count as u8 - 1)?;
        pod.passes = fields.bounded("a pod's passes", 0, 100)?;
        pod.boost_used = fields.bounded("a pod's boost flag", 0u8, 1)? == 1;
        pod.shield_lock_turns = fields.bounded("a pod's shield lock", 0, 3)?;
    }
    debug_assert_eq!(POD_FIELDS, 9);
    fields.keyword("stats")?;
    let mut stats = [[ActionStat {
        visits: 0,
        mean: 0.0,
    }; STAT_ACTIONS]; 2];
    for pod in stats.iter_mut() {
        for stat in pod.iter_mut() {
            let token = fields.next("an action's `visits/mean`")?;
            let parsed = token.split_once('/').and_then(|(visits, mean)| {
                let visits = visits.parse::<u32>().ok()?;
                let mean = mean.parse::<f64>().ok().filter(|m| m.is_finite())?;
                Some(ActionStat { visits, mean })
            });
            *stat = parsed.ok_or_else(|| {
                fields.error(format!("expected an action's `visits/mean`, got {token:?}"))
            })?;
        }
    }
    fields.finish()?;
    Ok(PositionRecord {
        turn,
        view,
        timeout_left,
        pods,
        stats,
    })
}

/// At most 40 characters of `text`, for error messages.
fn truncate(text: &str) -> String {
    text.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn sample_game() -> GameRecord {
        let pod = |x: i32, angle: Option<f64>| PodRecord {
            x,
            y: 2000,
            vx: -31,
            vy: 400,
            angle_rad: angle,
            next_checkpoint: 1,
            passes: 3,
            boost_used: x > 5000,
            shield_lock_turns: 2,
        };
        let mut stats = [[ActionStat {
            visits: 0,
            mean: 0.0,
        }; STAT_ACTIONS]; 2];
        stats[1][4] = ActionStat {
            visits: 17,
            mean: 0.625,
        };
        let position = |view: u8| PositionRecord {
            turn: 12,
            view,
            timeout_left: [88, 95],
            pods: [
                pod(1000, None),
                pod(6000, Some(-1.25)),
                pod(3000, Some(0.1 + 0.2)),
                pod(4000, Some(3.0)),
            ],
            stats,
        };
        GameRecord {
            index: 7,
            map_seed: 123456,
            laps: 3,
            checkpoints: vec![(1000, 2000), (9000, 3000), (5000, 7000)],
            players: ["csb".to_string(), "csb-b".to_string()],
            winner: Some(1),
            reason: "race".to_string(),
            turns: 201,
            positions: vec![position(0), position(1)],
        }
    }

    #[test]
    fn a_game_round_trips() {
        let game = sample_game();
        let text = write_game(&game);
        assert_eq!(parse_game(&text), Ok(game.clone()));
        assert_eq!(game.positions[0].outcome(game.winner), Outcome::Loss);
        assert_eq!(game.positions[1].outcome(game.winner), Outcome::Win);
        assert_eq!(game.positions[1].outcome(None), Outcome::Draw);
    }

    #[test]
    fn a_truncated_file_says_so_with_its_line() {
        let text = write_game(&sample_game());
        let lines: Vec<&str> = text.lines().collect();
        // Without the `end` line.
        let cut = lines[..lines.len() - 1].join("\n");
        let error = parse_game(&cut).unwrap_err();
        assert_eq!(error.line_number, lines.len());
        assert!(error.message.contains("truncated"), "{error}");
        // Cut in the middle of a position line.
        let cut = &text[..text.find("stats").unwrap()];
        let error = parse_game(cut).unwrap_err();
        assert_eq!(error.line_number, 5);
        assert!(error.message.contains("stats"), "{error}");
        // A position line lost: `end` announces more than there are.
        let mut dropped = lines.clone();
        dropped.remove(5);
        let error = parse_game(&dropped.join("\n")).unwrap_err();
        assert!(error.message.contains("announces 2 positions"), "{error}");
        assert!(parse_game("")
            .unwrap_err()
            .message
            .contains("not a self-play file"));
    }

    #[test]
    fn corrupt_fields_name_what_was_expected() {
        let text = write_game(&sample_game());
        let corrupt = |from: &str, to: &str| parse_game(&text.replacen(from, to, 1)).unwrap_err();
        assert!(corrupt("view 0", "view 2")
            .message
            .contains("the view in 0..=1"));
        assert!(corrupt("result 1", "result 3").message.contains("winner"));
        assert!(corrupt("17/0.62500", "17/x")
            .message
            .contains("visits/mean"));
        assert!(corrupt("-1.25", "NaN").message.contains("angle"));
        assert!(corrupt("csb-selfplay 1", "csb-selfplay 2")
            .message
            .contains("version"));
        let error = corrupt("checkpoints 3", "checkpoints 4");
        assert_eq!(error.line_number, 2);
        // Next checkpoint out of the course's range.
        let error = corrupt(" 1 3 0 2", " 5 3 0 2");
        assert!(error.message.contains("next checkpoint"), "{error}");
        assert!(parse_game(&format!("{text}junk\n"))
            .unwrap_err()
            .message
            .contains("after"));
    }
}
