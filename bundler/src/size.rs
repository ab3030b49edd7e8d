//! Check 1 and the closing report: the size in characters (not bytes, as CodinGame counts)
//! against the limit, and the sha256 that identifies the submitted file.

use sha2::{Digest, Sha256};

use crate::error::{self, Result};

/// Fails when `text` has more than `max` characters.
pub fn check(text: &str, max: usize) -> Result<()> {
    let n = text.chars().count();
    if n > max {
        return Err(error::check(format!(
            "the bundle has {n} characters, {} over the limit of {max}",
            n - max
        )));
    }
    Ok(())
}

/// `size 12345 characters (limit 100000, margin 87655)`.
pub fn report(text: &str, max: usize) -> String {
    let n = text.chars().count();
    format!(
        "size {n} characters (limit {max}, margin {})",
        max as i64 - n as i64
    )
}

/// Lowercase hex sha256 of the text's UTF-8 bytes (what `sha256sum` prints).
pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_chars_not_bytes() {
        assert!(check("ééé", 3).is_ok());
        assert!(check("éééé", 3)
            .unwrap_err()
            .to_string()
            .contains("4 characters, 1 over"));
    }

    #[test]
    fn sha256_matches_known_value() {
        assert_eq!(
            sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
