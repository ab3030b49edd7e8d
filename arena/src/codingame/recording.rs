//! A CodinGame recording in one common shape, whichever of the three forms it was read from
//! (`read.rs`): the map, the players, each turn's pod lines, stdout, ranks and collisions as the
//! recording shows them, and how it says the game ended (csb-rules.md §9). Types only; used by
//! the reading, the laps inference and the import.

use csb::engine::League;

/// One pod state line of a key frame (§9.2); fields a form does not record are `None`.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewPod {
    pub x: f64,
    pub y: f64,
    pub vx: f64,
    pub vy: f64,
    pub thrust: Option<i64>,
    pub target: Option<(i32, i32)>,
    pub angle: Option<f64>,
    pub shield: bool,
    pub next_checkpoint: Option<i64>,
    pub rank: Option<i64>,
    pub message: String,
}

/// One collision line: `id t podA ax ay podB bx by F meanVx meanVy`.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewCollision {
    pub time: f64,
    pub a: usize,
    pub ax: f64,
    pub ay: f64,
    pub b: usize,
    pub bx: f64,
    pub by: f64,
    pub impulse: f64,
    pub mean_vx: f64,
    pub mean_vy: f64,
}

/// The state after one turn and what produced it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordedTurn {
    pub pods: Vec<ViewPod>,
    /// Each player's stdout lines for the turn, when the replay has them.
    pub stdout: Option<[Vec<String>; 2]>,
    /// `(rank, timeout)` per player, when recorded.
    pub rank_timeout: Option<Vec<(i64, i64)>>,
    /// `None` when the form does not record collisions.
    pub collisions: Option<Vec<ViewCollision>>,
    /// The end reason the frame's header names, if any.
    pub header_end: Option<HeaderEnd>,
}

/// An end reason a key frame's header names (csb-rules.md §9.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderEnd {
    /// `endReached`: a pod completed the race.
    EndReached,
    /// `maxRoundsCountReached`: the 500-turn limit.
    MaxRoundsCountReached,
}

impl HeaderEnd {
    pub fn name(self) -> &'static str {
        match self {
            HeaderEnd::EndReached => "endReached",
            HeaderEnd::MaxRoundsCountReached => "maxRoundsCountReached",
        }
    }
}

/// How a recording says its game ended. A recording's game ends at its last frame whatever the
/// header says there; the header names the cause for a finish or the turn limit and nothing for
/// an elimination (checkpoint timeout, time-out, invalid output: CodinGame's framework prints no
/// reason for those).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedEnd {
    /// The last key frame's header names this reason.
    Named(HeaderEnd),
    /// The form writes reasons but the last key frame names none: an elimination.
    Unnamed,
    /// The form records no end reason at all (the fixture text).
    NotRecorded,
}

/// A CodinGame game in the common shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    pub form: &'static str,
    pub checkpoints: Vec<(i32, i32)>,
    pub pods_per_player: usize,
    pub laps: u16,
    /// The league when the form fixes it (contest-era frames: cap 200; the fixture: cap 100).
    pub league: Option<League>,
    pub seed: Option<i64>,
    pub players: [String; 2],
    pub initial: Vec<ViewPod>,
    pub turns: Vec<RecordedTurn>,
    /// Final ranks (1 = first) when recorded.
    pub ranks: Option<Vec<u8>>,
    /// Why `laps` is what it is (the rule assumed, and what in the recording chose it).
    pub laps_rule: String,
}

impl Recording {
    /// How the recording says the game ended (see `RecordedEnd`).
    pub fn recorded_end(&self) -> RecordedEnd {
        if self.form == "fixture" {
            return RecordedEnd::NotRecorded;
        }
        match self.turns.last().and_then(|turn| turn.header_end) {
            Some(end) => RecordedEnd::Named(end),
            None => RecordedEnd::Unnamed,
        }
    }
}
