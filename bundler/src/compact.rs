//! `--compact`: rewrites the formatted bundle from its own tokens with only the spaces the
//! tokens need, on the formatter's lines, without indentation: `let x = a + b;` becomes
//! `let x=a+b;`. The line breaks stay where rustfmt put them, so the bundle stays readable line
//! by line and a compiler message still points at a short line.
//!
//! Token-preserving by construction and by check: every token is printed as the lexer read it
//! (a literal, multi-line strings included, verbatim), a space is kept between two tokens only
//! where dropping it could join them into another token (two words, or a punctuation mark the
//! lexer saw standing alone before another one), and the result must lex to the same tokens,
//! with the same joints, as the input, or the step fails.

use proc_macro2::{Delimiter, LineColumn, Spacing, TokenStream, TokenTree};
use std::str::FromStr;

/// `text` rewritten with the fewest spaces its tokens need; fails when `text` does not lex or
/// (which would be a bug here) the result does not lex to the same tokens.
pub fn compact(text: &str) -> Result<String, String> {
    let tokens = TokenStream::from_str(text)
        .map_err(|e| format!("the formatted bundle does not lex as Rust: {e}"))?;
    let mut writer = Writer {
        out: String::with_capacity(text.len()),
        line: 1,
        last: Last::LineStart,
    };
    writer.stream(tokens.clone());
    if !writer.out.ends_with('\n') {
        writer.out.push('\n');
    }
    let again = TokenStream::from_str(&writer.out)
        .map_err(|e| format!("--compact made text that does not lex ({e}); please report this"))?;
    let (before, after) = (words(tokens), words(again));
    if before != after {
        let at = before
            .iter()
            .zip(&after)
            .take_while(|(a, b)| a == b)
            .count();
        let near =
            |words: &[String]| words[at.saturating_sub(8)..(at + 8).min(words.len())].join(" ");
        return Err(format!(
            "--compact changed the bundle's tokens near `{}` (now `{}`); please report this",
            near(&before),
            near(&after)
        ));
    }
    Ok(writer.out)
}

/// What was written last on the current line, as far as the next token's spacing cares.
#[derive(Clone, Copy)]
enum Last {
    /// Nothing yet: no space needed.
    LineStart,
    /// An identifier, keyword or literal: another one needs a space before it.
    Word,
    /// A punctuation mark the lexer saw joined to the next one (`-` of `->`).
    JointPunct,
    /// A punctuation mark standing alone: spaced from a next one it could join
    /// (`& &x` is not `&&x`, `/ *p` is not a comment).
    AlonePunct(char),
    /// A delimiter: anything may follow.
    Delimiter,
}

struct Writer {
    out: String,
    /// The line of the input the output is on (1-based).
    line: usize,
    last: Last,
}

impl Writer {
    fn stream(&mut self, tokens: TokenStream) {
        for token in tokens {
            match token {
                TokenTree::Group(group) => {
                    let (open, close) = delimiter_text(group.delimiter());
                    let span = group.delim_span();
                    self.token(span.open().start(), open, Last::Delimiter, false);
                    self.stream(group.stream());
                    self.token(span.close().start(), close, Last::Delimiter, false);
                }
                TokenTree::Ident(ident) => {
                    self.token(ident.span().start(), &ident.to_string(), Last::Word, true)
                }
                TokenTree::Literal(literal) => {
                    let text = literal.to_string();
                    self.token(literal.span().start(), &text, Last::Word, true);
                    // A literal spanning lines ends on a later line of the input.
                    self.line = literal.span().end().line;
                }
                TokenTree::Punct(punct) => {
                    let kind = match punct.spacing() {
                        Spacing::Joint => Last::JointPunct,
                        Spacing::Alone => Last::AlonePunct(punct.as_char()),
                    };
                    self.token(
                        punct.span().start(),
                        &punct.as_char().to_string(),
                        kind,
                        false,
                    );
                }
            }
        }
    }

    /// Writes one token that starts at `at` in the input: on a new line if the input has it on
    /// a later line, else after a space if the two tokens need one.
    fn token(&mut self, at: LineColumn, text: &str, kind: Last, word: bool) {
        if text.is_empty() {
            return;
        }
        if at.line > self.line {
            self.out.push('\n');
            self.line = at.line;
            self.last = Last::LineStart;
        }
        let spaced = match self.last {
            Last::Word => word,
            Last::AlonePunct(before) => text.chars().next().is_some_and(|c| could_join(before, c)),
            Last::LineStart | Last::JointPunct | Last::Delimiter => false,
        };
        if spaced {
            self.out.push(' ');
        }
        self.out.push_str(text);
        self.last = kind;
    }
}

/// A group's opening and closing text (none for an invisible group).
fn delimiter_text(delimiter: Delimiter) -> (&'static str, &'static str) {
    match delimiter {
        Delimiter::Parenthesis => ("(", ")"),
        Delimiter::Brace => ("{", "}"),
        Delimiter::Bracket => ("[", "]"),
        Delimiter::None => ("", ""),
    }
}

/// The tokens of `tokens` in order, delimiters included, each punctuation mark marked `~` when
/// the lexer joined it to the next one where the two could form one token: what the parser
/// sees. (Other joints, like `=` before `|`, say only that no space stood between them.)
fn words(tokens: TokenStream) -> Vec<String> {
    fn flatten(tokens: TokenStream, out: &mut Vec<(String, Option<(char, Spacing)>)>) {
        for token in tokens {
            match token {
                TokenTree::Group(group) => {
                    let (open, close) = delimiter_text(group.delimiter());
                    out.push((open.to_string(), None));
                    flatten(group.stream(), out);
                    out.push((close.to_string(), None));
                }
                TokenTree::Punct(punct) => out.push((
                    punct.as_char().to_string(),
                    Some((punct.as_char(), punct.spacing())),
                )),
                other => out.push((other.to_string(), None)),
            }
        }
    }
    let mut flat = Vec::new();
    flatten(tokens, &mut flat);
    let mut words = Vec::with_capacity(flat.len());
    for (index, (text, punct)) in flat.iter().enumerate() {
        let joined = match (punct, flat.get(index + 1)) {
            (Some((a, Spacing::Joint)), Some((_, Some((b, _))))) => could_join(*a, *b),
            _ => false,
        };
        words.push(if joined {
            format!("{text}~")
        } else {
            text.clone()
        });
    }
    words
}

/// Whether `a` written right before `b` could lex as one token or open a comment: the first
/// two characters of Rust's multi-character punctuation (`&&`, `->`, `::`, `<<=`, ...), `//`
/// and `/*`.
fn could_join(a: char, b: char) -> bool {
    const PAIRS: [&str; 24] = [
        "&&", "||", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=", "*=", "/=", "%=", "^=", "&=",
        "|=", "->", "=>", "::", "..", "<-", "//", "/*", "*/",
    ];
    PAIRS.iter().any(|pair| {
        let mut chars = pair.chars();
        chars.next() == Some(a) && chars.next() == Some(b)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the parser sees of `text` (see [`words`]).
    fn tokens(text: &str) -> Vec<String> {
        words(TokenStream::from_str(text).unwrap())
    }

    #[test]
    fn spaces_go_where_no_token_needs_them() {
        let text = "fn f(a: &u8) -> u8 {\n    let x = *a + 1;\n    x as u8\n}\n";
        let out = compact(text).unwrap();
        assert_eq!(out, "fn f(a:&u8)->u8{\nlet x=*a+1;\nx as u8\n}\n");
        assert_eq!(tokens(&out), tokens(text));
    }

    #[test]
    fn punctuation_that_could_merge_stays_apart() {
        let text = "fn f(a: u8, b: &&u8) -> bool {\n    a & &b < -1 && 'x' != ' '\n}\nstruct S<'a>(&'a str);\n";
        let out = compact(text).unwrap();
        assert!(out.contains("a& &b< -1&&'x'!=' '"), "{out}");
        assert!(compact("fn g(a: u8, p: &u8) -> u8 { a / *p }\n")
            .unwrap()
            .contains("a/ *p"));
        assert!(out.contains("S<'a>(&'a str)"), "{out}");
        // The check would see a merge: `& &b` and `&&b` are other tokens to the parser.
        assert_ne!(tokens("fn g() { a & &b }"), tokens("fn g() { a && b }"));
        assert_eq!(
            tokens("fn g() { x = |a| a }"),
            tokens("fn g() { x =|a| a }")
        );
        assert_eq!(tokens(&out), tokens(text));
    }

    #[test]
    fn literals_are_kept_as_written_even_over_several_lines() {
        let text = "fn f() {\n    let s = \"one\n  two  \";\n    let r = r#\"a  b\"#;\n    let n = 1.max(2) as f64 + 1e3;\n}\n";
        let out = compact(text).unwrap();
        assert_eq!(
            out,
            "fn f(){\nlet s=\"one\n  two  \";\nlet r=r#\"a  b\"#;\nlet n=1.max(2)as f64+1e3;\n}\n"
        );
        assert_eq!(tokens(&out), tokens(text));
    }

    #[test]
    fn text_that_does_not_lex_is_refused() {
        assert!(compact("fn f() { \"open").is_err());
    }
}
