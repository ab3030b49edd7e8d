//! How the weights sit in the source: each tensor quantised to whole multiples of its own scale
//! (at most [`MAX_LEVEL`] of them either way, 13 bits), each level written as two characters of
//! a 92-letter alphabet (printable ASCII without `"` and `\`), so a weight costs two characters
//! of the bundle instead of the ten of a float literal. `learn export` encodes; the bot decodes
//! once at start-up.

/// The letters, in order of their value.
const FIRST_LETTER: u8 = b'!';
const LAST_LETTER: u8 = b'~';
const BASE: u32 = (LAST_LETTER - FIRST_LETTER + 1) as u32 - 2;
/// The largest level a weight may take either way: two letters hold `BASE²` codes.
pub const MAX_LEVEL: i32 = ((BASE * BASE - 1) / 2) as i32;

/// The value of a letter, or `None` for one outside the alphabet.
fn letter_value(letter: u8) -> Option<u32> {
    if !(FIRST_LETTER..=LAST_LETTER).contains(&letter) || letter == b'"' || letter == b'\\' {
        return None;
    }
    let mut value = u32::from(letter - FIRST_LETTER);
    if letter > b'"' {
        value -= 1;
    }
    if letter > b'\\' {
        value -= 1;
    }
    Some(value)
}

/// The letter of a value below [`BASE`].
fn letter(value: u32) -> char {
    let mut byte = FIRST_LETTER + value as u8;
    if byte >= b'"' {
        byte += 1;
    }
    if byte >= b'\\' {
        byte += 1;
    }
    char::from(byte)
}

/// The two letters of `level` (clamped to ±[`MAX_LEVEL`]).
pub fn encode_level(level: i32) -> [char; 2] {
    let code = (level.clamp(-MAX_LEVEL, MAX_LEVEL) + MAX_LEVEL) as u32;
    [letter(code / BASE), letter(code % BASE)]
}

/// The levels of `text`, two letters each, into `out`; an error for a letter outside the
/// alphabet or a length other than `2 × out.len()`.
pub fn decode_levels(text: &str, out: &mut [i32]) -> Result<(), String> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 * out.len() {
        return Err(format!(
            "weights: {} letters for {} weights",
            bytes.len(),
            out.len()
        ));
    }
    for (level, pair) in out.iter_mut().zip(bytes.chunks(2)) {
        let high = letter_value(pair[0]);
        let low = letter_value(pair[1]);
        match (high, low) {
            (Some(high), Some(low)) => *level = (high * BASE + low) as i32 - MAX_LEVEL,
            _ => return Err("weights: a letter outside the alphabet".to_string()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_round_trip_and_stay_printable() {
        assert_eq!(BASE, 92);
        let levels = [-MAX_LEVEL, -1, 0, 1, 77, MAX_LEVEL];
        let text: String = levels.iter().flat_map(|&l| encode_level(l)).collect();
        assert!(!text.contains('"') && !text.contains('\\'));
        let mut decoded = [0; 6];
        decode_levels(&text, &mut decoded).unwrap();
        assert_eq!(decoded, levels);
        assert_eq!(encode_level(MAX_LEVEL + 10), encode_level(MAX_LEVEL));
        assert!(decode_levels("!", &mut [0]).is_err());
        assert!(decode_levels("!\"", &mut [0]).is_err());
    }
}
