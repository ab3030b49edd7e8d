//! Check 1 and the closing report: the size in characters (not bytes, as CodinGame counts) and
//! in UTF-16 units (what a JavaScript editor counts: a character outside the Basic Multilingual
//! Plane takes two) against the limit, which applies to the larger; where it goes (a table per
//! module), and the sha256 that identifies the submitted file.

use proc_macro2::{Delimiter, LineColumn, TokenStream, TokenTree};
use sha2::{Digest, Sha256};
use std::str::FromStr;

use crate::error::{self, Result};

/// A text's size both ways CodinGame may count it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Unicode scalar values (Rust's `char`s).
    pub characters: usize,
    /// UTF-16 code units: one per character of the Basic Multilingual Plane, two for any other.
    pub utf16_units: usize,
}

impl Size {
    pub fn of(text: &str) -> Size {
        Size {
            characters: text.chars().count(),
            utf16_units: text.encode_utf16().count(),
        }
    }

    /// What the limit applies to: the larger count.
    pub fn counted(&self) -> usize {
        self.characters.max(self.utf16_units)
    }
}

/// Fails when `text` has more than `max` characters or more than `max` UTF-16 units.
pub fn check(text: &str, max: usize) -> Result<()> {
    let size = Size::of(text);
    if size.counted() > max {
        return Err(error::check(format!(
            "the bundle has {} characters and {} UTF-16 units, {} over the limit of {max}",
            size.characters,
            size.utf16_units,
            size.counted() - max
        )));
    }
    Ok(())
}

/// `size 12345 characters, 12345 UTF-16 units (limit 100000 on the larger, margin 87655)`.
pub fn report(text: &str, max: usize) -> String {
    let size = Size::of(text);
    format!(
        "size {} characters, {} UTF-16 units (limit {max} on the larger, margin {})",
        size.characters,
        size.utf16_units,
        max as i64 - size.counted() as i64
    )
}

/// Lowercase hex sha256 of the text's UTF-8 bytes (what `sha256sum` prints).
pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Characters of the bundle per module (`search::smitsimax`; `(root)` for what sits outside
/// every module), each module's own without its inner modules', largest first. They add up to
/// the whole bundle. Fails when `text` does not lex.
pub fn per_module(text: &str) -> Result<Vec<(String, usize)>> {
    let tokens = TokenStream::from_str(text)
        .map_err(|e| error::check(format!("the bundle does not lex as Rust: {e}")))?;
    // Character offset of each line's start (lines are 1-based, columns count characters).
    let mut line_starts = vec![0, 0];
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        offset += line.chars().count();
        line_starts.push(offset);
    }
    let at = |place: LineColumn| line_starts[place.line] + place.column;
    let mut sizes: Vec<(String, usize)> = vec![("(root)".to_string(), text.chars().count())];
    modules(tokens, &[], &at, &mut sizes);
    sizes.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(sizes)
}

/// Adds each `mod name { .. }` of `tokens` (inside module `path`) to `sizes`, moving its
/// characters, from `mod` (or `pub`) to the closing brace, from the enclosing module's count.
fn modules(
    tokens: TokenStream,
    path: &[String],
    at: &dyn Fn(LineColumn) -> usize,
    sizes: &mut Vec<(String, usize)>,
) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    for (index, tree) in trees.iter().enumerate() {
        let TokenTree::Group(body) = tree else {
            continue;
        };
        let declared = match index.checked_sub(2).map(|i| (&trees[i], &trees[i + 1])) {
            Some((TokenTree::Ident(keyword), TokenTree::Ident(name)))
                if keyword == "mod" && body.delimiter() == Delimiter::Brace =>
            {
                let first = match index.checked_sub(3).map(|i| &trees[i]) {
                    Some(TokenTree::Ident(visibility)) if visibility == "pub" => index - 3,
                    _ => index - 2,
                };
                Some((name.to_string(), at(trees[first].span().start())))
            }
            _ => None,
        };
        match declared {
            Some((name, start)) => {
                let size = at(body.span_close().end()) - start;
                let mut inner = path.to_vec();
                inner.push(name);
                let parent = if path.is_empty() {
                    "(root)".to_string()
                } else {
                    path.join("::")
                };
                if let Some(entry) = sizes.iter_mut().find(|(name, _)| *name == parent) {
                    entry.1 -= size;
                }
                sizes.push((inner.join("::"), size));
                modules(body.stream(), &inner, at, sizes);
            }
            None => modules(body.stream(), path, at, sizes),
        }
    }
}

/// The per-module table as `make bundle` prints it: one line per module, largest first, with
/// its share of the bundle.
pub fn table(sizes: &[(String, usize)]) -> String {
    let total: usize = sizes.iter().map(|(_, size)| size).sum();
    let mut text = String::from("size per module (characters, largest first):");
    for (name, size) in sizes {
        let share = 100.0 * *size as f64 / total.max(1) as f64;
        text.push_str(&format!("\n  {size:>7}  {share:>4.1}%  {name}"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_module_counts_its_own_characters_and_they_add_up() {
        let text = "use a::b;\npub mod x {\nfn f() {}\nmod y {\nconst C: u8 = 1;\n}\n}\nmod z {}\n";
        let sizes = per_module(text).unwrap();
        let get = |name: &str| sizes.iter().find(|(n, _)| n == name).unwrap().1;
        assert_eq!(get("x::y"), "mod y {\nconst C: u8 = 1;\n}".len());
        assert_eq!(get("z"), "mod z {}".len());
        assert_eq!(
            get("x"),
            "pub mod x {\nfn f() {}\n\n}".len(),
            "without its inner module"
        );
        assert_eq!(sizes.iter().map(|(_, s)| s).sum::<usize>(), text.len());
        assert_eq!(sizes[0].0, "x::y", "largest first: {sizes:?}");
        assert!(sizes.windows(2).all(|w| w[0].1 >= w[1].1), "{sizes:?}");
        assert!(table(&sizes).contains("x::y"));
    }

    #[test]
    fn counts_chars_not_bytes() {
        assert!(check("ééé", 3).is_ok());
        assert!(check("éééé", 3)
            .unwrap_err()
            .to_string()
            .contains("4 characters and 4 UTF-16 units, 1 over"));
        // One unit per character of the Basic Multilingual Plane (the weights' CJK letters).
        assert_eq!(
            Size::of("一丁"),
            Size {
                characters: 2,
                utf16_units: 2
            }
        );
        assert!(check("一丁七", 3).is_ok());
    }

    #[test]
    fn the_limit_applies_to_the_utf16_units_when_they_are_more() {
        // U+1F600 is one character but two UTF-16 units (a surrogate pair).
        let text = "ab\u{1F600}";
        assert_eq!(
            Size::of(text),
            Size {
                characters: 3,
                utf16_units: 4
            }
        );
        assert!(check(text, 4).is_ok());
        let error = check(text, 3).unwrap_err().to_string();
        assert!(
            error.contains("3 characters and 4 UTF-16 units, 1 over the limit of 3"),
            "{error}"
        );
        assert_eq!(
            report(text, 10),
            "size 3 characters, 4 UTF-16 units (limit 10 on the larger, margin 6)"
        );
    }

    #[test]
    fn sha256_matches_known_value() {
        assert_eq!(
            sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
