//! One bot as a child process: `sh -c CMD` in its own process group, a writer thread feeding
//! its stdin and noting when each input was written, and one reader thread watching its stdout
//! and stderr together. The reader stamps every stdout line with the moment it arrived and sends
//! the lines on a bounded channel (so reads can have deadlines), each batch carrying the stderr
//! that came before it; it also keeps the tail of the whole stderr. So a bot's response time runs
//! from the writing of its own input to the arrival of its last line, whatever the referee was
//! doing meanwhile, and stderr is attributed to the answer it precedes. Killing the bot kills the
//! whole group, then the strays that left it (children.rs), and reaps them; dropping it does the same.

use crate::referee::children;
use crate::referee::turn_stderr::TurnStderr;
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStderr, ChildStdout, Command, ExitStatus, Stdio};
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

/// Stderr reads in a row before stdout is looked at again (a bot flooding stderr must not hide
/// its answer).
const STDERR_READS_PER_ROUND: usize = 16;

/// What the reader sends: every complete line one `read` brought (so lines written together
/// arrive together, and a surplus line is seen before the next input) with the moment they
/// arrived and the stderr received since the previous batch, or the end of stdout.
enum StdoutEvent {
    Lines {
        lines: Vec<String>,
        arrived_at: Instant,
        stderr_before: TurnStderr,
    },
    Closed,
}

/// A received line not yet consumed.
struct QueuedLine {
    text: String,
    arrived_at: Instant,
    /// Stderr that arrived before this line (and after the previous batch).
    stderr_before: TurnStderr,
}

/// Why a bot did not deliver the lines asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadFailure {
    /// The deadline passed; `received` lines had arrived.
    Timeout { received: usize },
    /// Stdout was closed (the bot exited or closed it); `received` lines had arrived.
    Closed { received: usize },
}

/// Lines read for one turn and the bot's response time: from the moment its input was written
/// to the arrival of its last line.
pub struct Answer {
    pub lines: Vec<String>,
    pub response: Duration,
}

/// A running bot.
pub struct BotProcess {
    child: Child,
    group: i32,
    /// The tag in the environment of every process the bot starts ([`children::kill_strays`]).
    tag: String,
    stdin: Option<Sender<String>>,
    /// When the writer thread started writing each input (sent once the write is done), in order.
    written: Receiver<Instant>,
    /// Inputs handed to the writer whose written time was not yet taken, and when the last
    /// one was handed over.
    unconfirmed_inputs: usize,
    last_input_queued_at: Option<Instant>,
    stdout: Receiver<StdoutEvent>,
    /// Lines received and not yet consumed.
    queued: VecDeque<QueuedLine>,
    stdout_closed: bool,
    /// Stderr of the lines consumed since the last [`BotProcess::take_turn_stderr`].
    turn_stderr: TurnStderr,
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

/// Splits the complete lines out of `pending` (and an over-long partial line): how the reader
/// thread cuts a bot's stdout into lines (public for the fuzzer).
pub fn take_lines(pending: &mut Vec<u8>) -> Vec<String> {
    let mut batch = Vec::new();
    while let Some(end) = pending.iter().position(|&b| b == b'\n') {
        batch.push(strip_terminator(pending.drain(..=end).collect()));
    }
    if pending.len() > MAX_LINE_BYTES {
        batch.push(strip_terminator(std::mem::take(pending)));
    }
    batch
}

/// Waits until one of `fds` has something to read (data or end of file), at most `timeout_ms`
/// (-1: forever); says whether one has. A failed wait (other than an interruption) marks them all
/// readable, so the following reads report the failure.
fn poll_readable(fds: &mut [libc::pollfd], timeout_ms: i32) -> bool {
    loop {
        for fd in fds.iter_mut() {
            fd.revents = 0;
        }
        // SAFETY: `fds` is a valid, exclusively borrowed array of pollfd for the whole call.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) };
        if ready >= 0 {
            return ready > 0;
        }
        if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            for fd in fds.iter_mut() {
                fd.revents = libc::POLLERR;
            }
            return true;
        }
    }
}

/// One `read`: the number of bytes, or None at the end of the stream or on an error.
fn read_chunk(stream: &mut impl Read, chunk: &mut [u8]) -> Option<usize> {
    loop {
        match stream.read(chunk) {
            Ok(0) => return None,
            Ok(read) => return Some(read),
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

/// The reader thread: waits on both pipes; whenever stderr is readable it is drained first, so
/// stderr written before an answer is received before or together with that answer's lines
/// (and goes with it). Ends when both pipes are closed.
fn read_streams(
    mut stdout: ChildStdout,
    mut stderr: ChildStderr,
    lines: SyncSender<StdoutEvent>,
    game_tail: Arc<Mutex<Vec<u8>>>,
) {
    const STDOUT: usize = 0;
    const STDERR: usize = 1;
    let watch = |fd: i32| libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    let mut fds = [watch(stdout.as_raw_fd()), watch(stderr.as_raw_fd())];
    let mut pending: Vec<u8> = Vec::new();
    let mut stderr_since_batch = TurnStderr::default();
    let mut chunk = vec![0u8; 64 * 1024];
    let mut receiver_gone = false;
    while fds.iter().any(|fd| fd.fd >= 0) {
        if !poll_readable(&mut fds, -1) {
            continue;
        }
        let stdout_ready = fds[STDOUT].revents != 0;
        let mut stderr_reads = 0;
        while fds[STDERR].fd >= 0 && fds[STDERR].revents != 0 {
            match read_chunk(&mut stderr, &mut chunk) {
                None => fds[STDERR].fd = -1,
                Some(read) => {
                    stderr_since_batch.push(&chunk[..read]);
                    push_tail(&game_tail, &chunk[..read]);
                }
            }
            stderr_reads += 1;
            if fds[STDERR].fd < 0 || stderr_reads == STDERR_READS_PER_ROUND {
                break;
            }
            poll_readable(&mut fds[STDERR..], 0);
        }
        if fds[STDOUT].fd < 0 || !stdout_ready {
            continue;
        }
        let read = read_chunk(&mut stdout, &mut chunk);
        let arrived_at = Instant::now();
        let batch = match read {
            None => {
                fds[STDOUT].fd = -1;
                if pending.is_empty() {
                    Vec::new()
                } else {
                    vec![strip_terminator(std::mem::take(&mut pending))]
                }
            }
            Some(read) => {
                pending.extend_from_slice(&chunk[..read]);
                take_lines(&mut pending)
            }
        };
        if receiver_gone {
            continue;
        }
        if !batch.is_empty() {
            let event = StdoutEvent::Lines {
                lines: batch,
                arrived_at,
                stderr_before: std::mem::take(&mut stderr_since_batch),
            };
            receiver_gone = lines.send(event).is_err();
        }
        if fds[STDOUT].fd < 0 && !receiver_gone {
            receiver_gone = lines.send(StdoutEvent::Closed).is_err();
        }
    }
}

impl BotProcess {
    /// Starts `sh -c command` in a new process group.
    pub fn spawn(command: &str) -> Result<BotProcess, String> {
        let tag = children::new_bot_tag();
        let mut child = children::spawn_registered(|| {
            Command::new("sh")
                .arg("-c")
                .arg(command)
                .env(children::BOT_TAG_VARIABLE, &tag)
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
        let (written_tx, written_rx) = mpsc::channel::<Instant>();
        thread::spawn(move || {
            let mut stdin = stdin;
            for text in stdin_rx {
                // Stamped as the write starts: the bot cannot see its input any earlier, so its
                // response time is never under-measured (a stamp after the write could fall
                // after the bot's answer if this thread were descheduled in between).
                let writing_at = Instant::now();
                if stdin
                    .write_all(text.as_bytes())
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    break;
                }
                let _ = written_tx.send(writing_at);
            }
        });

        let (line_tx, line_rx) = mpsc::sync_channel(LINE_QUEUE);
        let tail = Arc::new(Mutex::new(Vec::new()));
        let (done_tx, done_rx) = mpsc::channel();
        let reader_tail = Arc::clone(&tail);
        thread::spawn(move || {
            read_streams(stdout, stderr, line_tx, reader_tail);
            let _ = done_tx.send(());
        });

        Ok(BotProcess {
            child,
            group,
            tag,
            stdin: Some(stdin_tx),
            written: written_rx,
            unconfirmed_inputs: 0,
            last_input_queued_at: None,
            stdout: line_rx,
            queued: VecDeque::new(),
            stdout_closed: false,
            turn_stderr: TurnStderr::default(),
            stderr_tail: tail,
            stderr_done: done_rx,
            reaped: false,
        })
    }

    /// Queues text for the bot's stdin (never blocks; a dead bot's input is dropped).
    pub fn send(&mut self, text: String) {
        if let Some(stdin) = &self.stdin {
            if stdin.send(text).is_ok() {
                self.unconfirmed_inputs += 1;
                self.last_input_queued_at = Some(Instant::now());
            }
        }
    }

    /// When the writing of the last input sent to the bot's stdin began. Waits for the writer at most
    /// until `limit` after the input was queued; a bot that does not read its stdin (so the
    /// write blocks) or whose stdin is closed is timed from the queueing instead.
    fn input_written_at(&mut self, limit: Duration) -> Instant {
        let queued_at = self.last_input_queued_at.unwrap_or_else(Instant::now);
        let mut written_at = queued_at;
        while self.unconfirmed_inputs > 0 {
            let wait = (queued_at + limit).saturating_duration_since(Instant::now());
            match self.written.recv_timeout(wait) {
                Ok(at) => {
                    written_at = at;
                    self.unconfirmed_inputs -= 1;
                }
                Err(_) => {
                    // Not written in time (or never will be): time the bot from the queueing.
                    self.unconfirmed_inputs = 0;
                    return queued_at;
                }
            }
        }
        written_at
    }

    /// Waits until `count` lines have arrived within `limit` of the last input being written.
    /// A line counts at the moment the reader thread received it, so a bot's lines that arrived
    /// in time are accepted even if the referee was busy with the other bot, and lines that
    /// arrived late are refused even if they were already waiting.
    pub fn read_lines(
        &mut self,
        count: usize,
        limit: Duration,
    ) -> Result<Answer, (ReadFailure, Vec<String>)> {
        let written_at = self.input_written_at(limit);
        let deadline = written_at + limit;
        let mut lines = Vec::with_capacity(count);
        let mut last_at = written_at;
        while lines.len() < count {
            if let Some(line) = self.queued.front() {
                if line.arrived_at > deadline {
                    return Err((
                        ReadFailure::Timeout {
                            received: lines.len(),
                        },
                        lines,
                    ));
                }
                let line = self.queued.pop_front().expect("a front line");
                self.turn_stderr.append(line.stderr_before);
                last_at = last_at.max(line.arrived_at);
                lines.push(line.text);
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
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.stdout.recv_timeout(wait) {
                Ok(event) => self.enqueue(event),
                Err(RecvTimeoutError::Disconnected) => self.stdout_closed = true,
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
            response: last_at.saturating_duration_since(written_at),
        })
    }

    fn enqueue(&mut self, event: StdoutEvent) {
        match event {
            StdoutEvent::Lines {
                lines,
                arrived_at,
                mut stderr_before,
            } => {
                for text in lines {
                    self.queued.push_back(QueuedLine {
                        text,
                        arrived_at,
                        stderr_before: std::mem::take(&mut stderr_before),
                    });
                }
            }
            StdoutEvent::Closed => self.stdout_closed = true,
        }
    }

    /// The stderr that came before the lines consumed since the last call (the bounded stderr
    /// of the turn just answered), as text; empty if there was none.
    pub fn take_turn_stderr(&mut self) -> String {
        std::mem::take(&mut self.turn_stderr).text()
    }

    /// Lines that arrived without being asked for (read before the next input is sent).
    pub fn unexpected_lines(&mut self) -> Vec<String> {
        loop {
            match self.stdout.try_recv() {
                Ok(event) => self.enqueue(event),
                Err(TryRecvError::Disconnected) => {
                    self.stdout_closed = true;
                    break;
                }
                Err(TryRecvError::Empty) => break,
            }
        }
        self.queued.drain(..).map(|line| line.text).collect()
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
        children::kill_strays(Some(&self.tag));
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

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: Duration = Duration::from_millis(40);

    /// A shell bot that reads one line, waits `delay` (seconds, for `sleep`), says `note` on
    /// stderr and answers one line.
    fn shell_bot(delay: &str, note: &str) -> BotProcess {
        let script = format!("read line; sleep {delay}; echo {note} >&2; echo 1 2 3; sleep 5");
        BotProcess::spawn(&script).expect("sh starts")
    }

    #[test]
    fn a_line_that_arrived_in_time_counts_even_if_read_late() {
        let mut bot = shell_bot("0", "early");
        bot.send("go\n".to_string());
        // The referee is busy with the other bot for longer than this bot's limit.
        thread::sleep(LIMIT * 3);
        let answer = bot.read_lines(1, LIMIT).expect("the answer was in time");
        assert_eq!(answer.lines, vec!["1 2 3"]);
        assert!(answer.response < LIMIT, "{:?}", answer.response);
        assert_eq!(bot.take_turn_stderr(), "early\n");
        assert_eq!(bot.take_turn_stderr(), "");
    }

    #[test]
    fn a_line_that_arrived_late_is_refused_even_if_already_waiting() {
        let mut bot = shell_bot("0.1", "late");
        bot.send("go\n".to_string());
        thread::sleep(Duration::from_millis(300));
        match bot.read_lines(1, LIMIT) {
            Err((ReadFailure::Timeout { received: 0 }, _)) => {}
            Ok(answer) => panic!("late answer accepted after {:?}", answer.response),
            Err((other, _)) => panic!("{other:?}"),
        }
    }

    #[test]
    fn response_runs_from_the_input_to_the_last_line() {
        let mut bot = shell_bot("0.02", "x");
        bot.send("go\n".to_string());
        let answer = bot
            .read_lines(1, Duration::from_secs(2))
            .expect("an answer");
        let ms = answer.response.as_secs_f64() * 1000.0;
        assert!((20.0..1000.0).contains(&ms), "{ms} ms");
    }
}
