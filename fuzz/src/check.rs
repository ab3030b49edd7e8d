//! What every target checks of a refusal: one clear line (not empty, no line break), so a
//! program can print it as its single error line.

/// Panics unless `message` is one non-empty line; `what` names the reader.
pub fn one_line(what: &str, message: &str) {
    assert!(!message.trim().is_empty(), "{what}: empty error message");
    assert!(
        !message.contains('\n') && !message.contains('\r'),
        "{what}: error message of several lines: {message:?}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_accepts_one_line_only() {
        one_line("test", "input line 3: expected two integers, got \"x\"");
        assert!(std::panic::catch_unwind(|| one_line("test", "first\nsecond")).is_err());
        assert!(std::panic::catch_unwind(|| one_line("test", "  ")).is_err());
        assert!(std::panic::catch_unwind(|| one_line("test", "cut\r")).is_err());
    }
}
