//! Check `--check-debug`: the bundle as CodinGame's IDE runs it. The IDE (the "Play" button a
//! user presses first) compiles Rust in debug mode: no `-O`, integer overflow checks and debug
//! assertions on, so arithmetic that wraps silently in the arena's release build panics there.
//! This check compiles the bundle so (`compile::Profile::Debug`), without the check build's
//! compile-time variables (the bundle then plays by the clock, as on CodinGame), and plays it the
//! league's recorded game turn by turn as a referee would: one turn's lines, then its answers
//! (one line per own pod, `X Y THRUST|BOOST|SHIELD`), then the next turn, to the end; then stdin
//! closes and the bundle must exit 0. It fails on the first turn without its answers, on a
//! panic (named with its message and the bundle's line), on any other exit or a run longer than
//! `--timeout`, and it reports the time each turn took, from its lines written to its last
//! answer read.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use csb::engine::League;

use crate::compile::{self, Profile};
use crate::error::{check, input, Result};

/// How a league's protocol splits a recorded game into turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Protocol {
    /// Whether the game opens with the initialisation block (laps, checkpoint count, then one
    /// line per checkpoint): the two-pod leagues' protocol.
    pub init_block: bool,
    /// Lines a turn sends: one per pod, ours then theirs.
    pub lines_per_turn: usize,
    /// Lines the bot answers each turn: one per own pod.
    pub answers_per_turn: usize,
}

impl Protocol {
    /// The protocol `league` plays (docs/leagues.md): one pod a side below Gold, each turn our
    /// pod's line and the opponent's; two from Gold, after the initialisation block.
    pub fn of(league: League) -> Protocol {
        let pods = league.pods_per_player();
        Protocol {
            init_block: pods == 2,
            lines_per_turn: 2 * pods,
            answers_per_turn: pods,
        }
    }
}

/// A recorded game cut into what is sent before the first turn and each turn's lines.
#[derive(Debug, PartialEq, Eq)]
pub struct RecordedGame {
    pub init: Vec<String>,
    pub turns: Vec<Vec<String>>,
}

/// Cuts `text` (a recorded input, as under `replays/inputs/`) into turns; an input that is not
/// whole turns of the protocol is an error naming what is wrong. Trailing blank lines are ignored.
pub fn split_turns(text: &str, protocol: Protocol) -> std::result::Result<RecordedGame, String> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    while lines.last().is_some_and(|line| line.trim().is_empty()) {
        lines.pop();
    }
    let mut init = Vec::new();
    if protocol.init_block {
        if lines.len() < 2 {
            return Err(format!(
                "{} lines, fewer than the initialisation block's first two (laps, checkpoint count)",
                lines.len()
            ));
        }
        let count: usize = lines[1].trim().parse().map_err(|_| {
            format!(
                "line 2 should be the checkpoint count, got {:?}",
                clip(&lines[1])
            )
        })?;
        let end = 2 + count;
        if lines.len() < end {
            return Err(format!(
                "the initialisation block names {count} checkpoints but the input has {} lines",
                lines.len()
            ));
        }
        init = lines.drain(..end).collect();
    }
    if lines.is_empty() {
        return Err("no turn after the initialisation block".to_string());
    }
    if !lines.len().is_multiple_of(protocol.lines_per_turn) {
        return Err(format!(
            "{} lines after the initialisation block are not whole turns of {} lines",
            lines.len(),
            protocol.lines_per_turn
        ));
    }
    let turns = lines
        .chunks(protocol.lines_per_turn)
        .map(<[String]>::to_vec)
        .collect();
    Ok(RecordedGame { init, turns })
}

/// Whether `line` reads as an answer CodinGame accepts: `X Y` (integers), then the thrust or
/// `BOOST` or `SHIELD`, then possibly a message.
pub fn is_answer(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let integer = |word: Option<&str>| word.is_some_and(|w| w.parse::<i64>().is_ok());
    integer(words.next()) && integer(words.next()) && words.next().is_some()
}

/// What the debug build did on the whole game.
#[derive(Debug)]
pub struct DebugRun {
    /// rustc's warnings on the debug build.
    pub warnings: usize,
    /// Each turn's time, from its lines written to its last answer read.
    pub turn_times: Vec<Duration>,
}

impl DebugRun {
    /// `turn 1 512.3 ms, then mean 50.2 ms, slowest 53.0 ms (turn 17)`.
    pub fn timing(&self) -> String {
        let ms = |d: &Duration| d.as_secs_f64() * 1000.0;
        let Some((first, rest)) = self.turn_times.split_first() else {
            return "no turn".to_string();
        };
        let mut text = format!("turn 1 {:.1} ms", ms(first));
        if let Some((slowest, time)) = rest
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.cmp(b.1))
            .map(|(i, time)| (i + 2, time))
        {
            let mean = rest.iter().map(ms).sum::<f64>() / rest.len() as f64;
            text.push_str(&format!(
                ", then mean {mean:.1} ms, slowest {:.1} ms (turn {slowest})",
                ms(time)
            ));
        }
        text
    }
}

/// Compiles `text` as the IDE does with `rustc_cmd`, without the variables named in `unset`
/// (the check build's `--check-env`), and plays it `input_file` by `league`'s protocol.
pub fn check_debug(
    text: &str,
    rustc_cmd: &str,
    unset: &[&str],
    league: League,
    input_file: &Path,
    timeout: Duration,
) -> Result<DebugRun> {
    let recorded = std::fs::read_to_string(input_file)
        .map_err(|e| input(format!("cannot read {}: {e}", input_file.display())))?;
    let game = split_turns(&recorded, Protocol::of(league)).map_err(|why| {
        input(format!(
            "--check-debug: {} is not a game of {}'s protocol: {why}",
            input_file.display(),
            league.name()
        ))
    })?;
    let compiled = compile::compile(text, rustc_cmd, Profile::Debug, &[], unset)?;
    let turn_times = play(
        &compiled.binary,
        &game,
        Protocol::of(league).answers_per_turn,
        timeout,
    )
    .map_err(|why| {
        check(quote_bundle_line(
            format!(
                "the debug build (CodinGame's IDE) on {}: {why}",
                input_file.display()
            ),
            text,
        ))
    })?;
    Ok(DebugRun {
        warnings: compiled.warnings,
        turn_times,
    })
}

/// `message`, and the bundle's line that a panic location in it (`main.rs:L:C`) names, so that
/// the one-line error shows the code.
fn quote_bundle_line(message: String, text: &str) -> String {
    match panic_line(&message).and_then(|n| text.lines().nth(n - 1)) {
        Some(code) => format!("{message} (bundle line: {})", clip(code.trim())),
        None => message,
    }
}

/// The line number of the first `main.rs:L:C` in `message`.
fn panic_line(message: &str) -> Option<usize> {
    let at = message.find("main.rs:")? + "main.rs:".len();
    let digits: String = message[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok().filter(|&n| n > 0)
}

/// Plays `game` to `binary` turn by turn; each turn's time, or why the run failed (which turn,
/// the panic or the exit).
fn play(
    binary: &Path,
    game: &RecordedGame,
    answers_per_turn: usize,
    timeout: Duration,
) -> std::result::Result<Vec<Duration>, String> {
    let scratch = tempfile::tempdir().map_err(|e| format!("cannot create a directory: {e}"))?;
    let err_path = scratch.path().join("stderr");
    let stderr = File::create(&err_path).map_err(|e| format!("cannot create a file: {e}"))?;
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(stderr))
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    let deadline = Instant::now() + timeout;
    let answers = read_lines(&mut child);
    let mut stdin = child.stdin.take();
    let mut times = Vec::with_capacity(game.turns.len());
    let mut sent = game.init.join("\n");
    for (index, turn) in game.turns.iter().enumerate() {
        let number = index + 1;
        for line in turn {
            if !sent.is_empty() {
                sent.push('\n');
            }
            sent.push_str(line);
        }
        sent.push('\n');
        let start = Instant::now();
        let wrote = stdin
            .as_mut()
            .is_some_and(|pipe| pipe.write_all(sent.as_bytes()).and(pipe.flush()).is_ok());
        sent.clear();
        let mut last = start;
        for answer in 0..answers_per_turn {
            if !wrote {
                return Err(end_of_run(
                    &mut child,
                    &err_path,
                    number,
                    "it stopped reading its input",
                ));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match answers.recv_timeout(left) {
                Ok((line, at)) if is_answer(&line) => last = at,
                Ok((line, _)) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!(
                        "turn {number}: answer {} is not `X Y THRUST|BOOST|SHIELD`: {:?}",
                        answer + 1,
                        clip(&line)
                    ));
                }
                Err(RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!(
                        "no answer on turn {number} of {} within the --timeout of {} s",
                        game.turns.len(),
                        timeout.as_secs()
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let what = format!("{answer} of {answers_per_turn} answers");
                    return Err(end_of_run(&mut child, &err_path, number, &what));
                }
            }
        }
        times.push(last - start);
    }
    drop(stdin);
    let left = deadline.saturating_duration_since(Instant::now());
    match answers.recv_timeout(left) {
        Ok((line, _)) => {
            let _ = child.kill();
            let _ = child.wait();
            Err(format!(
                "it answered every turn, then printed more: {:?}",
                clip(&line)
            ))
        }
        Err(RecvTimeoutError::Timeout) => {
            let _ = child.kill();
            let _ = child.wait();
            Err(format!(
                "it answered every turn but did not exit at the end of its input within the \
                 --timeout of {} s",
                timeout.as_secs()
            ))
        }
        Err(RecvTimeoutError::Disconnected) => {
            let status = child
                .wait()
                .map_err(|e| format!("cannot wait for it: {e}"))?;
            let said = std::fs::read_to_string(&err_path).unwrap_or_default();
            if let Some(panic) = panic_message(&said) {
                return Err(format!("it answered every turn, then panicked: {panic}"));
            }
            if !status.success() {
                return Err(format!("it answered every turn, then {status}"));
            }
            Ok(times)
        }
    }
}

/// The error of a run that ended on turn `number` without all its answers: what it gave
/// (`what`), then its panic or its exit.
fn end_of_run(child: &mut Child, err_path: &Path, number: usize, what: &str) -> String {
    // Stopped answering: give it a moment to finish dying, else stop it.
    let give_up = Instant::now() + Duration::from_secs(2);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < give_up => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let said = std::fs::read_to_string(err_path).unwrap_or_default();
    let ending = match (panic_message(&said), status) {
        (Some(panic), _) => format!("it panicked: {panic}"),
        (None, Some(status)) => format!("it ended ({status})"),
        (None, None) => "it stopped answering".to_string(),
    };
    format!("turn {number}: {what}, then {ending}")
}

/// A thread reading `child`'s stdout, sending each line with the time it was read; the channel
/// closes with the stdout.
fn read_lines(child: &mut Child) -> Receiver<(String, Instant)> {
    let (sender, receiver) = mpsc::channel();
    if let Some(stdout) = child.stdout.take() {
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send((line, Instant::now())).is_err() {
                    break;
                }
            }
        });
    }
    receiver
}

/// The panic in a program's stderr, `message at main.rs:L:C`: rustc's two formats, from 1.73
/// (`thread 'main' panicked at main.rs:L:C:` then the message on the next line) and before
/// (`thread 'main' panicked at 'message', main.rs:L:C`).
pub fn panic_message(stderr: &str) -> Option<String> {
    let mut lines = stderr.lines();
    let line = lines.by_ref().find(|line| line.contains("panicked at "))?;
    let after = &line[line.find("panicked at ")? + "panicked at ".len()..];
    if let Some(location) = after.strip_suffix(':') {
        let message = lines.next().unwrap_or("").trim();
        return Some(format!("{} at {location}", clip(message)));
    }
    match after.rsplit_once(", ") {
        Some((message, location)) => Some(format!(
            "{} at {location}",
            clip(message.trim_matches('\''))
        )),
        None => Some(clip(after)),
    }
}

fn clip(line: &str) -> String {
    if line.chars().count() > 100 {
        format!("{}...", line.chars().take(100).collect::<String>())
    } else {
        line.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_POD: Protocol = Protocol {
        init_block: true,
        lines_per_turn: 4,
        answers_per_turn: 2,
    };
    const ONE_POD: Protocol = Protocol {
        init_block: false,
        lines_per_turn: 2,
        answers_per_turn: 1,
    };

    #[test]
    fn the_protocols_of_the_leagues() {
        assert_eq!(Protocol::of(League::Legend), TWO_POD);
        assert_eq!(Protocol::of(League::Gold), TWO_POD);
        for league in [
            League::Wood3,
            League::Wood2,
            League::Wood1,
            League::Bronze,
            League::Silver,
        ] {
            assert_eq!(Protocol::of(league), ONE_POD, "{league:?}");
        }
    }

    #[test]
    fn a_two_pod_game_splits_after_its_initialisation_block() {
        let text = "3\n2\n1 2\n3 4\na\nb\nc\nd\ne\nf\ng\nh\n\n";
        let game = split_turns(text, TWO_POD).unwrap();
        assert_eq!(game.init, ["3", "2", "1 2", "3 4"]);
        assert_eq!(game.turns, [["a", "b", "c", "d"], ["e", "f", "g", "h"]]);
    }

    #[test]
    fn a_one_pod_game_splits_in_pairs() {
        let game = split_turns("1 2 3 4\n5 6\n7 8 9 10\n11 12\n", ONE_POD).unwrap();
        assert!(game.init.is_empty());
        assert_eq!(game.turns, [["1 2 3 4", "5 6"], ["7 8 9 10", "11 12"]]);
    }

    #[test]
    fn inputs_that_are_not_whole_turns_are_named() {
        let cases = [
            ("3\n", TWO_POD, "fewer than the initialisation block"),
            ("3\nx\n", TWO_POD, "line 2 should be the checkpoint count"),
            (
                "3\n3\n1 2\n",
                TWO_POD,
                "names 3 checkpoints but the input has 3",
            ),
            ("3\n1\n1 2\n", TWO_POD, "no turn"),
            ("3\n1\n1 2\na\nb\nc\n", TWO_POD, "3 lines after"),
            ("1 2\n3 4\n5 6\n", ONE_POD, "not whole turns of 2 lines"),
            ("", ONE_POD, "no turn"),
        ];
        for (text, protocol, expected) in cases {
            let why = split_turns(text, protocol).unwrap_err();
            assert!(why.contains(expected), "{text:?}: {why}");
        }
    }

    #[test]
    fn answers_are_a_point_and_a_thrust() {
        for good in ["1 2 100", "-3 4 BOOST", "5 6 SHIELD", "7 8 0 hello there"] {
            assert!(is_answer(good), "{good}");
        }
        for bad in ["", "1 2", "x 2 100", "1 2.5 100", "BOOST"] {
            assert!(!is_answer(bad), "{bad}");
        }
    }

    #[test]
    fn panics_are_read_in_both_formats() {
        let new = "turn 1: ms=3\nthread 'main' panicked at main.rs:12:5:\nattempt to add with \
                   overflow\nnote: run with `RUST_BACKTRACE=1`\n";
        assert_eq!(
            panic_message(new).unwrap(),
            "attempt to add with overflow at main.rs:12:5"
        );
        let old = "thread 'main' panicked at 'attempt to multiply with overflow', main.rs:3:9\n";
        assert_eq!(
            panic_message(old).unwrap(),
            "attempt to multiply with overflow at main.rs:3:9"
        );
        assert_eq!(panic_message("turn 1: ms=3\n"), None);
    }

    #[test]
    fn a_panics_bundle_line_is_quoted() {
        let text = "fn main() {\n    let x = a + b;\n}\n";
        let message = "turn 3: panicked: attempt to add with overflow at main.rs:2:7";
        assert_eq!(
            quote_bundle_line(message.to_string(), text),
            format!("{message} (bundle line: let x = a + b;)")
        );
        for elsewhere in [
            "turn 3: panicked: at lib.rs:2:7",
            "at main.rs:9:1",
            "main.rs:0:1",
        ] {
            assert_eq!(quote_bundle_line(elsewhere.to_string(), text), elsewhere);
        }
    }

    #[test]
    fn timing_names_the_first_turn_apart_and_the_slowest() {
        let run = DebugRun {
            warnings: 0,
            turn_times: [500, 40, 60, 50].map(Duration::from_millis).to_vec(),
        };
        assert_eq!(
            run.timing(),
            "turn 1 500.0 ms, then mean 50.0 ms, slowest 60.0 ms (turn 3)"
        );
    }
}
