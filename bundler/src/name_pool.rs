//! The names `--rename` never gives or takes, and the short names it hands out. Reserved: Rust's
//! keywords (every edition's, and those kept for later), the primitive types, `macro_rules!`
//! fragment specifiers, and the names of the standard library (`std_names.txt`: every item,
//! method, field, variant, associated item and module of `std`, `core` and `alloc` as their
//! documentation names them, without the architecture intrinsics and SIMD). A new name is never
//! one of these, so it cannot be taken for a method of `std` or an item of the prelude; the most
//! frequent name gets the shortest.
//!
//! `std_names.txt` was made from the documentation of Rust 1.95.0 (`rustup component add
//! rust-docs`), in `$(rustc --print sysroot)/share/doc/rust/html`: the item names of the file
//! names (`struct.Vec.html`), the `id="method.NAME"`-like anchors (method, tymethod, structfield,
//! variant, associatedconstant, associatedtype) and the module folders of `std`, `core` and
//! `alloc`, leaving out `core_arch`, `intrinsics`, `simd` and `core_simd`.

use std::collections::BTreeSet;

/// The standard library's names, one a line.
const STD_NAMES: &str = include_str!("std_names.txt");

/// Keywords of every edition (strict, reserved, weak), `self`-like path roots and `_`.
const KEYWORDS: &[&str] = &[
    "as",
    "break",
    "const",
    "continue",
    "crate",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "self",
    "Self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "async",
    "await",
    "dyn",
    "abstract",
    "become",
    "box",
    "do",
    "final",
    "macro",
    "override",
    "priv",
    "typeof",
    "unsized",
    "virtual",
    "yield",
    "try",
    "gen",
    "union",
    "raw",
    "safe",
    "auto",
    "default",
    "macro_rules",
    "main",
    "_",
];

/// The primitive types.
const PRIMITIVES: &[&str] = &[
    "bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
    "i128", "isize", "f16", "f32", "f64", "f128",
];

/// `macro_rules!` fragment specifiers (`$x:expr`).
const FRAGMENTS: &[&str] = &[
    "block",
    "expr",
    "expr_2021",
    "ident",
    "item",
    "lifetime",
    "literal",
    "meta",
    "pat",
    "pat_param",
    "path",
    "stmt",
    "tt",
    "ty",
    "vis",
];

/// One-letter prefixes of literals (`b"..."`, `r#x`, `c"..."`): never a new name, so that a new
/// name written next to a literal or `#` cannot lex as one token with it.
const LITERAL_PREFIXES: &[&str] = &["b", "r", "c", "br", "rb", "cr", "rc", "k"];

/// Names that no step may rename: keywords, primitive types and fragment specifiers.
pub fn is_reserved(name: &str) -> bool {
    KEYWORDS.contains(&name) || PRIMITIVES.contains(&name) || FRAGMENTS.contains(&name)
}

/// Whether `std`, `core` or `alloc` has something of this name.
pub fn is_std_name(name: &str) -> bool {
    std_names().contains(name)
}

fn std_names() -> &'static BTreeSet<&'static str> {
    static NAMES: std::sync::OnceLock<BTreeSet<&'static str>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        STD_NAMES
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect()
    })
}

/// Hands out new names, shortest first, in the case of the name they replace (so that rustc's
/// naming lints have nothing new to say): `snake` for `snake_case`, `Camel` for `CamelCase`,
/// `SHOUTY` for `SHOUTY_CASE`; never a reserved name, a standard library's name, a literal
/// prefix or one of `taken`, never the same name twice.
pub struct NamePool {
    snake: std::vec::IntoIter<String>,
    camel: std::vec::IntoIter<String>,
    shouty: std::vec::IntoIter<String>,
    given: BTreeSet<String>,
}

const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";
const UPPER: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS: &str = "0123456789";

/// The names of up to three characters that start with one of `first` and go on with `rest`,
/// shortest first, without the unusable ones.
fn names(first: &str, rest: &str, taken: &BTreeSet<String>) -> std::vec::IntoIter<String> {
    let mut names: Vec<String> = first.chars().map(String::from).collect();
    let mut stems = names.clone();
    for _ in 2..=3 {
        let longer: Vec<String> = stems
            .iter()
            .flat_map(|stem| rest.chars().map(move |c| format!("{stem}{c}")))
            .collect();
        names.extend(longer.iter().cloned());
        stems = longer;
    }
    names.retain(|name| {
        !is_reserved(name)
            && !is_std_name(name)
            && !LITERAL_PREFIXES.contains(&name.as_str())
            && !taken.contains(name)
    });
    names.into_iter()
}

impl NamePool {
    pub fn new(taken: &BTreeSet<String>) -> NamePool {
        NamePool {
            snake: names(LOWER, &format!("{LOWER}{DIGITS}_"), taken),
            camel: names(UPPER, &format!("{LOWER}{DIGITS}"), taken),
            shouty: names(UPPER, &format!("{UPPER}{DIGITS}_"), taken),
            given: BTreeSet::new(),
        }
    }

    /// The next free name in the case of `like`; `None` once the names up to three characters
    /// of that case are used up.
    pub fn next_like(&mut self, like: &str) -> Option<String> {
        let pool = if !like.starts_with(|c: char| c.is_ascii_uppercase()) {
            &mut self.snake
        } else if like.chars().any(|c| c.is_ascii_lowercase()) {
            &mut self.camel
        } else {
            &mut self.shouty
        };
        let name = pool.find(|name| !self.given.contains(name))?;
        self.given.insert(name.clone());
        Some(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn std_names_hold_the_methods_a_bundle_calls() {
        for name in [
            "new", "len", "min", "fmt", "next", "from_str", "clone", "eq", "Vec", "iter",
        ] {
            assert!(is_std_name(name), "{name}");
        }
        assert!(!is_std_name("smitsimax"));
    }

    #[test]
    fn the_pool_gives_short_names_first_and_skips_reserved_std_and_taken_ones() {
        let taken: BTreeSet<String> = ["a".to_string(), "B".to_string()].into();
        let mut pool = NamePool::new(&taken);
        let lower: Vec<String> = (0..30).filter_map(|_| pool.next_like("x")).collect();
        assert_eq!(
            &lower[..3],
            ["d", "e", "f"],
            "a taken, b and c literal prefixes"
        );
        assert!(!lower.iter().any(|n| n == "k" || n == "r"));
        assert!(lower[..21].iter().all(|n| n.len() == 1), "{lower:?}");
        assert!(lower[21..].iter().all(|n| n.len() == 2), "{lower:?}");
        assert!(!lower
            .iter()
            .any(|n| n == "as" || n == "eq" || n == "if" || n == "ok"));
        assert_eq!(pool.next_like("Type").as_deref(), Some("A"));
        assert_eq!(
            pool.next_like("MAX_LEN").as_deref(),
            Some("C"),
            "B taken, A given"
        );
        let camel: Vec<String> = (0..40).filter_map(|_| pool.next_like("Type")).collect();
        assert!(
            camel
                .iter()
                .all(|n| !n.contains('_') && n[1..].chars().all(|c| !c.is_ascii_uppercase())),
            "{camel:?}"
        );
        let shouty: Vec<String> = (0..40).filter_map(|_| pool.next_like("MAX")).collect();
        assert!(
            shouty
                .iter()
                .all(|n| !n.chars().any(|c| c.is_ascii_lowercase())),
            "{shouty:?}"
        );
        let mut all: Vec<&String> = lower.iter().chain(&camel).chain(&shouty).collect();
        let count = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), count, "never the same name twice");
    }
}
