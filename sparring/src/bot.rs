//! The turn loop both binaries share: read the initialisation, then for each turn read the four
//! pod lines, update the memory, let the bot decide, print two command lines and flush. A
//! [`Player`] (memory + bot) is also what the in-process duel drives, so the binaries and the
//! duel run the same code.

use crate::memory::Memory;
use crate::world::{Course, POD_COUNT};
use csb::engine::{Command, League, Map, PodObservation, Thrust};
use csb::protocol::{format_command, InputReader, ParseError};
use std::fmt;
use std::io::{BufRead, Write};
use std::time::Instant;

/// Largest target coordinate an output line may carry (9 digits, csb-rules.md §3.3).
const MAX_COORDINATE: f64 = 999_999_999.0;

/// A decision maker for the two own pods.
pub trait Bot {
    /// Commands for own pods 0 and 1. `memory` has already taken in this turn's input;
    /// `started` is when the turn's first line was read (the time budget starts there).
    fn decide(
        &mut self,
        memory: &Memory,
        observations: &[PodObservation; POD_COUNT],
        started: Instant,
    ) -> [Command; 2];
}

/// A bot with its memory, for one game.
pub struct Player<B> {
    pub course: Course,
    pub memory: Memory,
    pub bot: B,
}

impl<B: Bot> Player<B> {
    pub fn new(course: Course, bot: B) -> Player<B> {
        Player {
            course,
            memory: Memory::new(course.map),
            bot,
        }
    }

    /// One turn: observe, decide, keep the thrust within the cap and the target printable,
    /// remember the commands.
    pub fn play_turn(
        &mut self,
        observations: &[PodObservation; POD_COUNT],
        started: Instant,
    ) -> [Command; 2] {
        self.memory.observe(observations);
        let mut commands = self.bot.decide(&self.memory, observations, started);
        let cap = self.course.cap();
        for command in commands.iter_mut() {
            if let Thrust::Power(power) = command.thrust {
                command.thrust = Thrust::Power(power.min(cap));
            }
            // The protocol allows at most 9 digits; only absurd input positions come near.
            command.target.x = command.target.x.clamp(-MAX_COORDINATE, MAX_COORDINATE);
            command.target.y = command.target.y.clamp(-MAX_COORDINATE, MAX_COORDINATE);
        }
        self.memory.record_commands(&commands);
        commands
    }
}

/// Why the loop stopped early.
#[derive(Debug)]
pub enum RunError {
    /// Malformed input (exit code 2).
    Parse(ParseError),
    /// Writing the answer failed (exit code 1).
    Output(std::io::Error),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Parse(error) => write!(f, "{error}"),
            RunError::Output(error) => write!(f, "cannot write the commands: {error}"),
        }
    }
}

impl RunError {
    pub fn exit_code(&self) -> i32 {
        match self {
            RunError::Parse(_) => 2,
            RunError::Output(_) => 1,
        }
    }
}

/// Plays a whole game over `input`/`output`. Returns the player at the end of input (`None` if the
/// input was empty).
pub fn run<B: Bot, R: BufRead, W: Write>(
    input: R,
    mut output: W,
    league: League,
    make_bot: impl FnOnce(&Course) -> B,
) -> Result<Option<Player<B>>, RunError> {
    let mut reader = InputReader::new(input);
    let Some(init) = reader.read_init().map_err(RunError::Parse)? else {
        return Ok(None);
    };
    let map = Map::new(&init.checkpoints).map_err(|error| {
        RunError::Parse(ParseError {
            line_number: 2,
            expected: "a valid checkpoint list".to_string(),
            got: error.to_string(),
        })
    })?;
    let course = Course {
        map,
        laps: init.laps,
        league,
    };
    let mut player = Player::new(course, make_bot(&course));
    while let Some(turn) = reader
        .read_turn(POD_COUNT, map.checkpoint_count())
        .map_err(RunError::Parse)?
    {
        let commands = player.play_turn(&turn.pods, turn.received_at);
        for command in &commands {
            writeln!(output, "{}", format_command(command, "")).map_err(RunError::Output)?;
        }
        output.flush().map_err(RunError::Output)?;
    }
    Ok(Some(player))
}

/// The `main` of a binary: run over stdin/stdout, report errors on one stderr line.
/// Returns the player (for end-of-game diagnostics) or exits with the error's code.
pub fn main_loop<B: Bot>(league: League, make_bot: impl FnOnce(&Course) -> B) -> Option<Player<B>> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    match run(stdin.lock(), stdout.lock(), league, make_bot) {
        Ok(player) => player,
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(error.exit_code());
        }
    }
}
