//! What a bot printed on stderr during one turn, bounded like CodinGame's stderr panel: at most
//! [`TURN_STDERR_BYTES`] bytes are kept, the tail, and the text then starts with a marker line
//! saying how many earlier bytes were cut (`[arena: N earlier bytes cut]`).

/// Bytes of stderr kept per bot and turn (the tail).
pub const TURN_STDERR_BYTES: usize = 4096;

/// The bounded stderr of one turn (or of a part of it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnStderr {
    /// The last bytes received, at most [`TURN_STDERR_BYTES`].
    tail: Vec<u8>,
    /// Bytes received before the tail and dropped.
    cut_bytes: u64,
}

impl TurnStderr {
    /// Appends bytes, dropping the oldest beyond the bound.
    pub fn push(&mut self, bytes: &[u8]) {
        self.tail.extend_from_slice(bytes);
        if self.tail.len() > TURN_STDERR_BYTES {
            let excess = self.tail.len() - TURN_STDERR_BYTES;
            self.tail.drain(..excess);
            self.cut_bytes += excess as u64;
        }
    }

    /// Appends what `later` received after this.
    pub fn append(&mut self, later: TurnStderr) {
        if later.cut_bytes > 0 {
            // Everything held here came before bytes that `later` already dropped.
            self.cut_bytes += self.tail.len() as u64 + later.cut_bytes;
            self.tail = later.tail;
        } else {
            self.push(&later.tail);
        }
    }

    /// The kept text, with the marker line first when bytes were cut. A UTF-8 character split by
    /// the cut is dropped whole; other invalid bytes show as U+FFFD.
    pub fn text(&self) -> String {
        if self.cut_bytes == 0 {
            return String::from_utf8_lossy(&self.tail).into_owned();
        }
        let continuation = |byte: &&u8| (**byte & 0b1100_0000) == 0b1000_0000;
        let split = self.tail.iter().take(3).take_while(continuation).count();
        let cut = self.cut_bytes + split as u64;
        format!(
            "[arena: {cut} earlier bytes cut]\n{}",
            String::from_utf8_lossy(&self.tail[split..])
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept_whole() {
        let mut stderr = TurnStderr::default();
        assert_eq!(stderr.text(), "");
        stderr.push(b"turn 1: ");
        stderr.push(b"ok\n");
        assert_eq!(stderr.text(), "turn 1: ok\n");
    }

    #[test]
    fn long_text_keeps_the_tail_behind_a_marker() {
        let mut stderr = TurnStderr::default();
        stderr.push(&[b'a'; 1000]);
        stderr.push(&[b'b'; TURN_STDERR_BYTES]);
        stderr.push(b"end");
        let expected_tail = format!("{}end", "b".repeat(TURN_STDERR_BYTES - 3));
        assert_eq!(
            stderr.text(),
            format!("[arena: 1003 earlier bytes cut]\n{expected_tail}")
        );
    }

    #[test]
    fn appending_parts_equals_pushing_everything() {
        let parts: [&[u8]; 4] = [&[b'x'; 3000], &[b'y'; 5000], b"middle", &[b'z'; 2000]];
        let mut whole = TurnStderr::default();
        let mut joined = TurnStderr::default();
        for part in parts {
            whole.push(part);
            let mut piece = TurnStderr::default();
            piece.push(part);
            joined.append(piece);
        }
        assert_eq!(joined, whole);
        assert_eq!(
            whole.cut_bytes,
            3000 + 5000 + 6 + 2000 - TURN_STDERR_BYTES as u64
        );
    }

    #[test]
    fn a_character_split_by_the_cut_is_dropped_whole() {
        let mut stderr = TurnStderr::default();
        stderr.push("é".repeat(TURN_STDERR_BYTES / 2).as_bytes());
        stderr.push(b"!");
        let text = stderr.text();
        assert!(
            text.starts_with("[arena: 2 earlier bytes cut]\n"),
            "{text:.40}"
        );
        assert!(!text.contains('\u{fffd}'));
        let kept = format!("{}!", "é".repeat(TURN_STDERR_BYTES / 2 - 1));
        assert_eq!(text.lines().nth(1).unwrap(), kept);
    }
}
