//! One bot as a child process: `sh -c CMD` in its own process group, a writer thread feeding
//! its stdin, a reader thread turning its stdout into lines on a bounded channel (so reads can
//! have deadlines), and a reader thread keeping the tail of its stderr. Killing the bot kills
//! the whole group and reaps the child; dropping it does the same.

use crate::children;
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Bytes of stderr kept per bot and game (the tail).
pub const STDERR_TAIL_BYTES: usize = 64 * 1024;
/// Longest stdout line read as one line; longer ones are split (and are invalid anyway).
const MAX_LINE_BYTES: usize = 64 * 1024;
/// Batches of lines buffered between the reader thread and the referee; a bot that floods
/// stdout blocks.
const LINE_QUEUE: usize = 256;
/// How long to wait for a process that closed its stdout to exit, to tell a crash apart.
const EXIT_GRACE: Duration = Duration::from_millis(100);

/// What the stdout reader sends: every complete line one `read` brought (so lines written
/// together arrive together, and a surplus line is seen before the next input), or the end.
enum StdoutEvent {
    Lines(Vec<String>),
    Closed,
}

/// Why a bot did not deliver the lines asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadFailure {
    /// The deadline passed; `received` lines had arrived.
    Timeout { received: usize },
    /// Stdout was closed (the bot exited or closed it); `received` lines had arrived.
    Closed { received: usize },
}

/// Lines read for one turn and when the last one arrived.
pub struct Answer {
    pub lines: Vec<String>,
    pub last_at: Instant,
}

/// A running bot.
pub struct BotProcess {
    child: Child,
    group: i32,
    stdin: Option<Sender<String>>,
    stdout: Receiver<StdoutEvent>,
    /// Lines received and not yet consumed.
    queued: VecDeque<String>,
    stdout_closed: bool,
    stderr_tail: Arc<Mutex<Vec<u8>>>,
    stderr_done: Receiver<()>,
    reaped: bool,
}

fn push_tail(tail: &Mutex<Vec<u8>>, bytes: &[u8]) {
    let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
    tail.extend_from_slice(bytes);
    if tail.len() > 2 * STDERR_TAIL_BYTES {
        let excess = tail.len() - STDERR_TAIL_BYTES;
        tail.drain(..excess);
    }
}

fn strip_terminator(mut bytes: Vec<u8>) -> String {
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn read_stdout(mut stdout: impl Read, lines: SyncSender<StdoutEvent>) {
    let mut pending: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let read = match stdout.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(read) => read,
        };
        pending.extend_from_slice(&chunk[..read]);
        let mut batch = Vec::new();
        while let Some(end) = pending.iter().position(|&b| b == b'\n') {
            batch.push(strip_terminator(pending.drain(..=end).collect()));
        }
        if pending.len() > MAX_LINE_BYTES {
            batch.push(strip_terminator(std::mem::take(&mut pending)));
        }
        if !batch.is_empty() && lines.send(StdoutEvent::Lines(batch)).is_err() {
            return;
        }
    }
    if !pending.is_empty() {
        let _ = lines.send(StdoutEvent::Lines(vec![strip_terminator(pending)]));
    }
    let _ = lines.send(StdoutEvent::Closed);
}

impl BotProcess {
    /// Starts `sh -c command` in a new process group.
    pub fn spawn(command: &str) -> Result<BotProcess, String> {
        let mut child = children::spawn_registered(|| {
            Command::new("sh")
                .arg("-c")
                .arg(command)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .process_group(0)
                .spawn()
        })
        .map_err(|e| format!("cannot start `sh -c {command}`: {e}"))?;
        let group = child.id() as i32;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");

        let (stdin_tx, stdin_rx) = mpsc::channel::<String>();
        thread::spawn(move || {
            let mut stdin = stdin;
            for text in stdin_rx {
                if stdin
                    .write_all(text.as_bytes())
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    break;
                }
            }
        });

        let (line_tx, line_rx) = mpsc::sync_channel(LINE_QUEUE);
        thread::spawn(move || read_stdout(stdout, line_tx));

        let tail = Arc::new(Mutex::new(Vec::new()));
        let (done_tx, done_rx) = mpsc::channel();
        let writer_tail = Arc::clone(&tail);
        thread::spawn(move || {
            let mut stderr = stderr;
            let mut chunk = [0u8; 4096];
            while let Ok(read) = stderr.read(&mut chunk) {
                if read == 0 {
                    break;
                }
                push_tail(&writer_tail, &chunk[..read]);
            }
            let _ = done_tx.send(());
        });

        Ok(BotProcess {
            child,
            group,
            stdin: Some(stdin_tx),
            stdout: line_rx,
            queued: VecDeque::new(),
            stdout_closed: false,
            stderr_tail: tail,
            stderr_done: done_rx,
            reaped: false,
        })
    }

    /// Queues text for the bot's stdin (never blocks; a dead bot's input is dropped).
    pub fn send(&self, text: String) {
        if let Some(stdin) = &self.stdin {
            let _ = stdin.send(text);
        }
    }

    /// Waits until `count` lines have arrived or `deadline` passes.
    pub fn read_lines(
        &mut self,
        count: usize,
        deadline: Instant,
    ) -> Result<Answer, (ReadFailure, Vec<String>)> {
        let mut lines = Vec::with_capacity(count);
        while lines.len() < count {
            if let Some(line) = self.queued.pop_front() {
                lines.push(line);
                continue;
            }
            if self.stdout_closed {
                return Err((
                    ReadFailure::Closed {
                        received: lines.len(),
                    },
                    lines,
                ));
            }
            let now = Instant::now();
            let wait = deadline.saturating_duration_since(now);
            match self.stdout.recv_timeout(wait) {
                Ok(StdoutEvent::Lines(batch)) => self.queued.extend(batch),
                Ok(StdoutEvent::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    self.stdout_closed = true;
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err((
                        ReadFailure::Timeout {
                            received: lines.len(),
                        },
                        lines,
                    ))
                }
            }
        }
        Ok(Answer {
            lines,
            last_at: Instant::now(),
        })
    }

    /// Lines that arrived without being asked for (read before the next input is sent).
    pub fn unexpected_lines(&mut self) -> Vec<String> {
        let mut lines: Vec<String> = self.queued.drain(..).collect();
        loop {
            match self.stdout.try_recv() {
                Ok(StdoutEvent::Lines(batch)) => lines.extend(batch),
                Ok(StdoutEvent::Closed) | Err(TryRecvError::Disconnected) => {
                    self.stdout_closed = true;
                    break;
                }
                Err(TryRecvError::Empty) => break,
            }
        }
        lines
    }

    /// The exit status if the bot has exited, waiting briefly for it.
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        let until = Instant::now() + EXIT_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(2)),
                _ => return None,
            }
        }
    }

    /// Kills the whole process group and reaps the child; idempotent.
    pub fn kill(&mut self) {
        if self.reaped {
            return;
        }
        self.stdin = None;
        children::kill_group(self.group);
        let _ = self.child.kill();
        let _ = self.child.wait();
        children::reap_group(self.group);
        children::unregister(self.group);
        self.reaped = true;
        // The stderr reader ends once every process holding the pipe is gone.
        let _ = self.stderr_done.recv_timeout(Duration::from_millis(200));
    }

    /// The kept tail of the bot's stderr, as text.
    pub fn stderr_tail(&self) -> String {
        let tail = self.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
        let start = tail.len().saturating_sub(STDERR_TAIL_BYTES);
        String::from_utf8_lossy(&tail[start..]).into_owned()
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
    }
}
