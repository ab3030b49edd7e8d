//! Runs the csb binary as CodinGame does: the arguments, the whole input on stdin, then the
//! process's exit status, stdout and stderr. Shared by the tests that drive the binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};

pub fn run_bot(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_csb"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the bot starts");
    let mut stdin = child.stdin.take().unwrap();
    // The bot may stop reading early (bad input): a broken pipe here is fine.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().unwrap()
}
