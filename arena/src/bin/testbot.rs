//! A test bot for the arena's own tests: a simple, deterministic racer (aim at the next
//! checkpoint, fixed thrust) that can also misbehave on purpose, one way per mode.
//!
//! `testbot MODE [OPTION...] [--record FILE] [--knob K]`; modes: good, sleep-first, sleep-later, crash,
//! exit-early, garbage, one-line, three-lines, thrust-over-cap, thrust=N, close-stdout,
//! slow-then-fine, and from turn 6 on: long-line (20 MB without a newline), invalid-utf8,
//! fork-exit (a child keeps the pipes, the bot exits), fork-setsid-exit (the same, the child in a
//! session of its own), ignore-sigterm (ignores SIGTERM and stops answering), answer-thrice (each
//! answer three times in one write). Options, after the mode or instead of it (then the mode is good):
//! `sleep=MS[:TURNS]` thinks MS ms before each answer (of the first TURNS turns only, if given);
//! `talk` prints `before answer N` on stderr before the answer of turn N and `after answer N`
//! once it has read the input of turn N + 1 (so the arena has surely taken answer N first, however
//! loaded the machine); `flood=BYTES` prints BYTES bytes of `#` (then a newline) on stderr before each answer.
//! It prints `pid=N` on stderr first, so tests can check the process is gone afterwards;
//! `--record FILE` writes every input line it reads to FILE.
//! `--knob K` (a real number) sets the thrust of mode good to 100 − 2·|K − 30|: a flag whose
//! best value is known (30), for the tuner's test.

use std::fs::File;
use std::io::{self, Write};
use std::process::exit;
use std::thread::sleep;
use std::time::Duration;

/// Turn (1-based) on which the "later" misbehaviours happen.
const LATER_TURN: usize = 6;
/// The best value of `--knob`: the only one that gives full thrust.
const KNOB_BEST: f64 = 30.0;
/// Thrust lost per unit of `--knob` away from [`KNOB_BEST`].
const KNOB_THRUST_SLOPE: f64 = 2.0;

/// Long enough to miss any scaled time limit the tests use.
const LONG_SLEEP: Duration = Duration::from_secs(3);
/// How long the misbehaving modes that hang (a forked child, a bot deaf to SIGTERM) would
/// live if nobody killed them: far past any test's end, so a survivor is seen.
const HANG: Duration = Duration::from_secs(120);
/// What mode long-line prints without a newline.
const LONG_LINE_BYTES: usize = 20 * 1024 * 1024;

/// Forks a child that keeps the inherited stdin, stdout and stderr and sleeps for [`HANG`]
/// (in a session of its own if `new_session`, out of the bot's process group), while the bot
/// itself exits.
fn fork_and_exit(new_session: bool) -> ! {
    // SAFETY: fork in a single-threaded process; the child only calls async-signal-safe
    // functions (setsid) and sleeps.
    match unsafe { libc::fork() } {
        0 => {
            if new_session {
                // SAFETY: setsid only changes this process's session and group.
                unsafe {
                    libc::setsid();
                }
            }
            sleep(HANG);
            exit(0)
        }
        _ => exit(0),
    }
}

struct Input {
    lines: io::Lines<io::StdinLock<'static>>,
    record: Option<File>,
}

impl Input {
    fn line(&mut self) -> String {
        match self.lines.next() {
            Some(Ok(line)) => {
                if let Some(file) = &mut self.record {
                    let _ = writeln!(file, "{line}");
                }
                line
            }
            _ => exit(0),
        }
    }

    fn numbers(&mut self) -> Vec<i64> {
        self.line()
            .split_whitespace()
            .map(|n| n.parse().unwrap_or(0))
            .collect()
    }
}

/// `sleep=MS[:TURNS]`: how long to think, and on how many turns (all if None).
fn sleep_option(args: &[String]) -> Option<(Duration, Option<usize>)> {
    let value = args.iter().find_map(|a| a.strip_prefix("sleep="))?;
    let (ms, turns) = match value.split_once(':') {
        Some((ms, turns)) => (ms, Some(turns.parse().expect("sleep=MS:TURNS"))),
        None => (value, None),
    };
    Some((Duration::from_millis(ms.parse().expect("sleep=MS")), turns))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().cloned().unwrap_or_else(|| "good".to_string());
    let think = sleep_option(&args);
    let talk = args.iter().any(|a| a == "talk");
    let flood: usize = args
        .iter()
        .find_map(|a| a.strip_prefix("flood="))
        .map_or(0, |bytes| bytes.parse().expect("flood=BYTES"));
    let record = args
        .iter()
        .position(|a| a == "--record")
        .and_then(|i| args.get(i + 1))
        .map(|path| File::create(path).expect("cannot create the record file"));
    let knob: Option<f64> = args
        .iter()
        .position(|a| a == "--knob")
        .and_then(|i| args.get(i + 1))
        .map(|k| {
            k.parse().unwrap_or_else(|_| {
                eprintln!("testbot: --knob expects a number, got {k:?}");
                exit(2)
            })
        });
    eprintln!("pid={}", std::process::id());
    let mut input = Input {
        lines: io::stdin().lines(),
        record,
    };
    let laps = input.numbers();
    let count = input.numbers()[0] as usize;
    let checkpoints: Vec<(i64, i64)> = (0..count)
        .map(|_| {
            let n = input.numbers();
            (n[0], n[1])
        })
        .collect();
    let _ = laps;
    let thrust: String = match mode.as_str() {
        "thrust-over-cap" => "201".to_string(),
        m if m.starts_with("thrust=") => m["thrust=".len()..].to_string(),
        _ => match knob {
            Some(k) => format!(
                "{}",
                (100.0 - KNOB_THRUST_SLOPE * (k - KNOB_BEST).abs())
                    .round()
                    .clamp(0.0, 100.0)
            ),
            None => "100".to_string(),
        },
    };
    if mode == "close-stdout" {
        // SAFETY: closing our own stdout descriptor; nothing else uses it afterwards.
        unsafe {
            libc::close(1);
        }
        loop {
            input.line();
        }
    }
    let mut out = io::stdout().lock();
    for turn in 1.. {
        let pods: Vec<Vec<i64>> = (0..4).map(|_| input.numbers()).collect();
        if talk && turn > 1 {
            // The arena sends this turn's input only after it has taken the previous answer.
            eprintln!("after answer {}", turn - 1);
        }
        match (mode.as_str(), turn) {
            ("sleep-first", 1) | ("sleep-later", LATER_TURN) => sleep(LONG_SLEEP),
            ("slow-then-fine", 1) => sleep(Duration::from_millis(600)),
            ("crash", LATER_TURN) => {
                eprintln!("testbot crashes on purpose");
                exit(101)
            }
            ("exit-early", LATER_TURN) => exit(0),
            ("fork-exit", LATER_TURN) => fork_and_exit(false),
            ("fork-setsid-exit", LATER_TURN) => fork_and_exit(true),
            ("ignore-sigterm", LATER_TURN) => {
                // SAFETY: setting SIGTERM's disposition to ignore; no handler code runs.
                unsafe {
                    libc::signal(libc::SIGTERM, libc::SIG_IGN);
                }
                sleep(HANG);
            }
            ("long-line", LATER_TURN) => {
                let _ = out.write_all(&vec![b'7'; LONG_LINE_BYTES]);
                let _ = out.flush();
                sleep(HANG);
            }
            _ => {}
        }
        let mut text = String::new();
        for pod in &pods[..2] {
            let next = pod[5].max(0) as usize % count;
            let (x, y) = checkpoints[next];
            text.push_str(&format!("{x} {y} {thrust} turn {turn}\n"));
        }
        if let Some((pause, turns)) = think {
            if turns.is_none_or(|turns| turn <= turns) {
                sleep(pause);
            }
        }
        if flood > 0 {
            eprintln!("{}", "#".repeat(flood));
        }
        if talk {
            eprintln!("before answer {turn}");
        }
        match mode.as_str() {
            "garbage" if turn == LATER_TURN => text = "hello world\nhello again\n".to_string(),
            "one-line" => text = text.lines().next().unwrap().to_string() + "\n",
            "three-lines" if turn == LATER_TURN => text.push_str("0 0 0 one too many\n"),
            "answer-thrice" if turn >= LATER_TURN => text = text.repeat(3),
            _ => {}
        }
        let mut bytes = text.into_bytes();
        if mode == "invalid-utf8" && turn == LATER_TURN {
            // Not UTF-8: a lone continuation byte and a byte that never occurs in UTF-8.
            bytes.splice(0..0, [0x80, 0xff]);
        }
        if out.write_all(&bytes).and_then(|()| out.flush()).is_err() {
            exit(0);
        }
    }
}
