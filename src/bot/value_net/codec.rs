//! How the weights sit in the source: each tensor quantised to whole multiples of its own scale
//! (at most [`MAX_LEVEL`] of them either way: 8,463 levels, 13 bits), each level written as ONE
//! character, `U+4E00 + level + MAX_LEVEL` (U+4E00 to U+6F0E), so a weight costs one character
//! of the bundle (one UTF-16 unit too) instead of the ten of a float literal. `learn export`
//! encodes; the bot decodes once at start-up.
//!
//! Why that range: it lies inside the CJK Unified Ideographs block (U+4E00 to U+9FA5, all
//! assigned since Unicode 1.1): printable letters of the Basic Multilingual Plane, one UTF-16
//! unit each (far from the surrogates U+D800 to U+DFFF), none of them a control, a space,
//! a combining mark, a text-direction mark, `"` or `\`, so a Rust string literal holds them as
//! they are and an editor shows them as ordinary (wide) letters. Contiguous, so a level is one
//! subtraction away.

/// The character of level `-MAX_LEVEL`; the others follow it.
const FIRST_CODE_POINT: u32 = 0x4E00;
/// The largest level a weight may take either way (as many as the two-letter code before it
/// held, so the same models quantise to the same levels).
pub const MAX_LEVEL: i32 = 4231;
/// Characters in use: `2 × MAX_LEVEL + 1`.
const CODE_COUNT: u32 = 2 * MAX_LEVEL as u32 + 1;
/// The last character in use, U+6F0E.
const LAST_CODE_POINT: u32 = FIRST_CODE_POINT + CODE_COUNT - 1;

/// The character of `level` (clamped to ±[`MAX_LEVEL`]).
pub fn encode_level(level: i32) -> char {
    let code = (level.clamp(-MAX_LEVEL, MAX_LEVEL) + MAX_LEVEL) as u32;
    // U+4E00 to U+6F0E are all scalar values (no surrogate among them).
    char::from_u32(FIRST_CODE_POINT + code).unwrap_or('\u{4E00}')
}

/// Appends `tensor` quantised to `letters`, one character a weight, and returns its scale: the
/// tensor's largest magnitude over [`MAX_LEVEL`] (1 for a tensor of zeros), each weight's level
/// its value over the scale, rounded. What `learn export` and `learn embed-policy` write.
pub fn encode_tensor(tensor: &[f32], letters: &mut String) -> f32 {
    let largest = tensor.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    let scale = if largest > 0.0 {
        largest / MAX_LEVEL as f32
    } else {
        1.0
    };
    letters.extend(
        tensor
            .iter()
            .map(|v| encode_level((v / scale).round() as i32)),
    );
    scale
}

/// The weights of `text` (its levels, [`decode_levels`]) in their units: tensor `t`, the next
/// `sizes[t]` levels, times `scales[t]`. An error (one line) when the count differs.
pub fn decode_values(text: &str, sizes: &[usize], scales: &[f32]) -> Result<Vec<f32>, String> {
    let mut levels = vec![0i32; sizes.iter().sum()];
    decode_levels(text, &mut levels)?;
    let tensor_scales = sizes
        .iter()
        .zip(scales)
        .flat_map(|(&size, &scale)| std::iter::repeat(scale).take(size));
    Ok(levels
        .iter()
        .zip(tensor_scales)
        .map(|(&level, scale)| level as f32 * scale)
        .collect())
}

/// The levels of `text`, one character each, into `out`; an error for a character outside
/// U+4E00 to U+6F0E or a count other than `out.len()`.
pub fn decode_levels(text: &str, out: &mut [i32]) -> Result<(), String> {
    let count = text.chars().count();
    if count != out.len() {
        return Err(format!(
            "weights: {count} characters for {} weights",
            out.len()
        ));
    }
    for (level, character) in out.iter_mut().zip(text.chars()) {
        let code = u32::from(character).wrapping_sub(FIRST_CODE_POINT);
        if code >= CODE_COUNT {
            return Err(format!(
                "weights: the character U+{:04X} is outside U+{FIRST_CODE_POINT:04X} to \
                 U+{LAST_CODE_POINT:04X}",
                u32::from(character)
            ));
        }
        *level = code as i32 - MAX_LEVEL;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_round_trip_one_character_each() {
        assert_eq!(LAST_CODE_POINT, 0x6F0E);
        let levels = [-MAX_LEVEL, -1, 0, 1, 77, MAX_LEVEL];
        let text: String = levels.iter().map(|&l| encode_level(l)).collect();
        assert_eq!(text.chars().count(), levels.len());
        assert_eq!(text.encode_utf16().count(), levels.len());
        let mut decoded = [0; 6];
        decode_levels(&text, &mut decoded).unwrap();
        assert_eq!(decoded, levels);
        assert_eq!(encode_level(MAX_LEVEL + 10), encode_level(MAX_LEVEL));
        assert_eq!(encode_level(-MAX_LEVEL - 10), '\u{4E00}');
        assert_eq!(encode_level(0), '\u{5E87}');
    }

    #[test]
    fn every_level_is_a_plain_letter_of_the_cjk_block() {
        for level in -MAX_LEVEL..=MAX_LEVEL {
            let character = encode_level(level);
            assert!(character.is_alphabetic(), "{level}: {character:?}");
            assert!(!character.is_whitespace() && !character.is_control());
            assert!(character.len_utf16() == 1 && character.len_utf8() == 3);
            let literal = format!("{character:?}");
            assert_eq!(literal, format!("'{character}'"), "Rust escapes {level}");
            let mut decoded = [0];
            decode_levels(&character.to_string(), &mut decoded).unwrap();
            assert_eq!(decoded[0], level);
        }
    }

    #[test]
    fn wrong_text_is_an_error_not_a_panic() {
        let message = |text: &str, count: usize| {
            let mut out = vec![0; count];
            decode_levels(text, &mut out).unwrap_err()
        };
        assert_eq!(message("一", 2), "weights: 1 characters for 2 weights");
        assert_eq!(message("一一一", 2), "weights: 3 characters for 2 weights");
        assert_eq!(
            message("一!", 2),
            "weights: the character U+0021 is outside U+4E00 to U+6F0E"
        );
        assert!(message("\u{6F0F}", 1).contains("U+6F0F"));
        assert!(message("\u{4DFF}", 1).contains("U+4DFF"));
        // The old two-letter code is refused, whatever its length.
        assert!(message("!!", 1).contains("2 characters"));
        assert!(message("!!", 2).contains("U+0021"));
        assert!(message("😀", 1).contains("U+1F600"));
    }
}
