//! Check 1 and the closing report: the size in characters (not bytes, as CodinGame counts)
//! against the limit, where it goes (a table per module), and the sha256 that identifies the
//! submitted file.

use proc_macro2::{Delimiter, LineColumn, TokenStream, TokenTree};
use sha2::{Digest, Sha256};
use std::str::FromStr;

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
