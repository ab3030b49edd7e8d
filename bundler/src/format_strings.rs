//! The names inside format strings, for `--rename`: `format!("{score:>8.prec$}")` reads the
//! locals `score` and `prec`, so a renaming must rename them there too. Only the format string
//! of a formatting macro of `std` is one (its place among the macro's arguments below); every
//! other string literal is text and stays as written.

use std::collections::BTreeMap;

/// The index of the format string among the comma-separated arguments of `std`'s formatting
/// macros, by the macro's name.
pub fn format_string_argument(macro_name: &str) -> Option<usize> {
    match macro_name {
        "format" | "print" | "println" | "eprint" | "eprintln" | "format_args" | "panic"
        | "unreachable" | "todo" | "unimplemented" => Some(0),
        "write" | "writeln" | "assert" | "debug_assert" => Some(1),
        "assert_eq" | "assert_ne" | "debug_assert_eq" | "debug_assert_ne" => Some(2),
        _ => None,
    }
}

/// `literal` (a string literal as written, quotes included) with each name of `names` that the
/// format string reads (`{name}`, `{name:?}`, `{:width$}`, `{:.prec$}`) replaced by its new name;
/// `None` when nothing changes or the literal is not a plain `"..."` string.
pub fn rename_in_format_string(literal: &str, names: &BTreeMap<String, String>) -> Option<String> {
    let body = literal.strip_prefix('"')?.strip_suffix('"')?;
    let chars: Vec<char> = body.chars().collect();
    let mut out = String::with_capacity(literal.len());
    let mut changed = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                // An escape, kept whole: `\u{..}` holds braces that are not a placeholder.
                out.push(c);
                i += 1;
                if chars.get(i) == Some(&'u') && chars.get(i + 1) == Some(&'{') {
                    while i < chars.len() && chars[i] != '}' {
                        out.push(chars[i]);
                        i += 1;
                    }
                }
                if i < chars.len() {
                    out.push(chars[i]);
                    i += 1;
                }
            }
            '{' if chars.get(i + 1) == Some(&'{') => {
                out.push_str("{{");
                i += 2;
            }
            '{' => {
                let end = (i + 1..chars.len()).find(|&j| chars[j] == '}')?;
                let inside: String = chars[i + 1..end].iter().collect();
                let renamed = rename_placeholder(&inside, names);
                changed |= renamed != inside;
                out.push('{');
                out.push_str(&renamed);
                out.push('}');
                i = end + 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    changed.then(|| format!("\"{out}\""))
}

/// `name:spec` with the argument's name and any `name$` of the spec renamed.
fn rename_placeholder(inside: &str, names: &BTreeMap<String, String>) -> String {
    let (argument, spec) = match inside.split_once(':') {
        Some((argument, spec)) => (argument, Some(spec)),
        None => (inside, None),
    };
    let mut out = rename_word(argument.trim(), names);
    if let Some(spec) = spec {
        out.push(':');
        // Every word directly followed by `$` is a name (`width$`); a fill character before
        // an alignment is one character and no word of it is followed by `$`.
        let mut word = String::new();
        for c in spec.chars() {
            if c.is_alphanumeric() || c == '_' {
                word.push(c);
                continue;
            }
            if c == '$' {
                out.push_str(&rename_word(&word, names));
            } else {
                out.push_str(&word);
            }
            word.clear();
            out.push(c);
        }
        out.push_str(&word);
    }
    out
}

fn rename_word(word: &str, names: &BTreeMap<String, String>) -> String {
    names.get(word).cloned().unwrap_or_else(|| word.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> BTreeMap<String, String> {
        [("score", "a"), ("width", "b"), ("x", "c")]
            .iter()
            .map(|(old, new)| (old.to_string(), new.to_string()))
            .collect()
    }

    #[test]
    fn inline_arguments_and_width_names_are_renamed() {
        let renamed = |text: &str| rename_in_format_string(text, &names());
        assert_eq!(renamed(r#""{score}""#).as_deref(), Some(r#""{a}""#));
        assert_eq!(
            renamed(r#""{score:?} {x:>8}""#).as_deref(),
            Some(r#""{a:?} {c:>8}""#)
        );
        assert_eq!(
            renamed(r#""{:width$.x$}""#).as_deref(),
            Some(r#""{:b$.c$}""#)
        );
        assert_eq!(
            renamed(r#""{score:x>width$}""#).as_deref(),
            Some(r#""{a:x>b$}""#)
        );
    }

    #[test]
    fn escaped_braces_positions_and_other_words_stay() {
        let renamed = |text: &str| rename_in_format_string(text, &names());
        assert_eq!(renamed(r#""{{score}} {} {0} {other}""#), None);
        assert_eq!(renamed(r#""\u{7b}score\u{7d}""#), None);
        assert_eq!(renamed(r#""score x""#), None);
        assert_eq!(renamed(r#"r"{score}""#), None, "not a plain string");
    }

    #[test]
    fn the_format_string_is_found_by_the_macro() {
        assert_eq!(format_string_argument("println"), Some(0));
        assert_eq!(format_string_argument("writeln"), Some(1));
        assert_eq!(format_string_argument("assert_eq"), Some(2));
        assert_eq!(format_string_argument("vec"), None);
    }
}
