//! `--flat`: removes every line's indentation from the formatted bundle, the largest share of
//! its characters that carries no meaning for the compiler (about 13% of the bundle), so that
//! the bot fits CodinGame's 100,000 characters with room to grow. Lines that continue a string
//! literal spanning several lines keep their leading whitespace, since it is part of the string's
//! value; the tokens of the file are otherwise unchanged (tested below).

use proc_macro2::{TokenStream, TokenTree};
use std::str::FromStr;

/// `text` with the leading spaces and tabs of every line removed, except on lines that continue
/// a multi-line literal. Fails when `text` does not lex as Rust tokens.
pub fn unindent(text: &str) -> Result<String, String> {
    let tokens = TokenStream::from_str(text)
        .map_err(|e| format!("the formatted bundle does not lex as Rust: {e}"))?;
    // 1-based line numbers whose start lies inside a literal.
    let mut inside_literal = vec![false; text.lines().count() + 2];
    mark_literal_lines(tokens, &mut inside_literal);
    let mut out = String::with_capacity(text.len());
    for (index, line) in text.split_inclusive('\n').enumerate() {
        if inside_literal.get(index + 1).copied().unwrap_or(false) {
            out.push_str(line);
        } else {
            out.push_str(line.trim_start_matches([' ', '\t']));
        }
    }
    Ok(out)
}

/// Marks the lines after the first of every literal that spans several lines.
fn mark_literal_lines(tokens: TokenStream, inside_literal: &mut [bool]) {
    for token in tokens {
        match token {
            TokenTree::Group(group) => mark_literal_lines(group.stream(), inside_literal),
            TokenTree::Literal(literal) => {
                let span = literal.span();
                for line in span.start().line + 1..=span.end().line {
                    if let Some(slot) = inside_literal.get_mut(line) {
                        *slot = true;
                    }
                }
            }
            TokenTree::Ident(_) | TokenTree::Punct(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> String {
        TokenStream::from_str(text).unwrap().to_string()
    }

    #[test]
    fn code_loses_its_indentation_and_keeps_its_tokens() {
        let text = "mod a {\n\tfn f() -> u8 {\n\t\tlet x = 1;\n        x + 1\n\t}\n}\n";
        let flat = unindent(text).unwrap();
        assert_eq!(flat, "mod a {\nfn f() -> u8 {\nlet x = 1;\nx + 1\n}\n}\n");
        assert_eq!(tokens(&flat), tokens(text));
    }

    #[test]
    fn lines_inside_a_multi_line_string_keep_their_whitespace() {
        let text = "fn f() {\n\tlet s = \"one\n\t  two\";\n\tlet r = r#\"a\n    b\"#;\n\tlet t = \"x\\\n\t  y\";\n}\n";
        let flat = unindent(text).unwrap();
        assert_eq!(
            flat,
            "fn f() {\nlet s = \"one\n\t  two\";\nlet r = r#\"a\n    b\"#;\nlet t = \"x\\\n\t  y\";\n}\n"
        );
        // The strings' values are the same: compare the literal tokens.
        assert_eq!(tokens(&flat), tokens(text));
    }

    #[test]
    fn text_that_does_not_lex_is_refused() {
        assert!(unindent("fn f() { \"open").is_err());
    }
}
