//! The arena's reading of a bot's stdout: bytes cut into lines as the reader thread cuts them
//! (`take_lines`, in arbitrary chunks), each line checked against the rules' pattern at both
//! thrust caps. A line is either a command of that league (thrust within the cap, message at
//! most 50 characters) or refused with one line, which becomes the invalid-output elimination.

use crate::check::one_line;
use arena::protocol::output_line::{excerpt, parse_output_line, MESSAGE_MAX_CHARS};
use arena::referee::bot_process::take_lines;
use csb::engine::Thrust;

/// The first byte sets the chunk size the bytes arrive in (1 to 256), the rest is the stdout.
pub fn lines(input: &[u8]) {
    let Some((&chunk, stdout)) = input.split_first() else {
        return;
    };
    let chunk = usize::from(chunk) + 1;
    let mut pending = Vec::new();
    let mut lines = Vec::new();
    for piece in stdout.chunks(chunk) {
        pending.extend_from_slice(piece);
        lines.extend(take_lines(&mut pending));
    }
    for line in &lines {
        for cap in [100, 200] {
            check_line(line, cap);
        }
    }
}

fn check_line(line: &str, cap: u16) {
    match parse_output_line(line, cap) {
        Ok(parsed) => {
            if let Thrust::Power(power) = parsed.command.thrust {
                assert!(power <= cap, "thrust {power} over the cap {cap}: {line:?}");
            }
            assert!(
                parsed.message.chars().count() <= MESSAGE_MAX_CHARS,
                "message too long: {line:?}"
            );
        }
        Err(why) => {
            one_line("output line", &why);
            one_line("output line excerpt", &excerpt(line));
        }
    }
}
