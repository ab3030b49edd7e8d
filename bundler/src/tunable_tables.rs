//! Strips csb's tables of tunables, which `strip.rs` cannot reach: a `tunables!` invocation
//! (`src/search/tunable.rs`) is a token stream, not syntax. A table is a struct written one line
//! per tunable, `field: Type = default => "flag", "VALUES", parser, "meaning";`, where the part
//! from the `=>` to the `;` (the line's flag half) is read only by the code the macro generates
//! under `#[cfg(feature = "cli")]`, and a line without it is valid input.
//!
//! In every invocation of a macro whose path ends in `tunables`, this removes the doc attributes
//! (`///`, `//!`, `#[doc ..]`) at any depth and, when the bundle lacks feature `cli`, each line's
//! flag half: in the struct's braces, at their top level, the tokens from a `=>` up to (not
//! including) the next `;`. A `=>` or `;` inside a parser's closure, a `match` or a block sits in
//! a nested group and is never taken for a line's. Every other token stays as it was.

use proc_macro2::{Delimiter, Group, Spacing, TokenStream, TokenTree};

/// The last segment of the macro's path.
const MACRO: &str = "tunables";

/// The feature under which the macro reads the flag halves.
pub const FLAG_FEATURE: &str = "cli";

/// What was removed from the tables, for the report.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct TablesStripped {
    /// Doc attributes removed inside tables.
    pub docs: usize,
    /// Flag halves removed (one per table line that had one).
    pub flag_halves: usize,
}

/// Strips `mac` in place if it invokes `tunables!`; `keep_flags` when the bundle has `cli`.
pub fn strip_table(mac: &mut syn::Macro, keep_flags: bool) -> TablesStripped {
    let mut stats = TablesStripped::default();
    let is_table = mac.path.segments.last().is_some_and(|s| s.ident == MACRO);
    if !is_table {
        return stats;
    }
    let tokens = without_docs(std::mem::take(&mut mac.tokens), &mut stats.docs);
    mac.tokens = if keep_flags {
        tokens
    } else {
        without_flag_halves(tokens, &mut stats.flag_halves)
    };
    stats
}

/// `tokens` without doc attributes, at any depth; counts them in `docs`.
fn without_docs(tokens: TokenStream, docs: &mut usize) -> TokenStream {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if let Some(len) = doc_attribute_len(&tokens[i..]) {
            *docs += 1;
            i += len;
            continue;
        }
        out.push(match &tokens[i] {
            TokenTree::Group(g) => TokenTree::Group(regroup(g, without_docs(g.stream(), docs))),
            other => other.clone(),
        });
        i += 1;
    }
    out.into_iter().collect()
}

/// The number of tokens of the doc attribute `tokens` starts with: 2 for `# [doc ..]`, 3 for
/// `# ! [doc ..]`; `None` if it starts with anything else.
fn doc_attribute_len(tokens: &[TokenTree]) -> Option<usize> {
    if !is_punct(tokens.first()?, '#') {
        return None;
    }
    let bang = tokens.get(1).is_some_and(|t| is_punct(t, '!'));
    let len = if bang { 3 } else { 2 };
    let TokenTree::Group(g) = tokens.get(len - 1)? else {
        return None;
    };
    let is_doc = g.delimiter() == Delimiter::Bracket
        && matches!(g.stream().into_iter().next(), Some(TokenTree::Ident(i)) if i == "doc");
    is_doc.then_some(len)
}

/// `tokens` with the struct's brace group stripped of its lines' flag halves; counts them.
fn without_flag_halves(tokens: TokenStream, flag_halves: &mut usize) -> TokenStream {
    let mut tokens: Vec<TokenTree> = tokens.into_iter().collect();
    // `struct Name { .. }` at the invocation's top level.
    let body = tokens.windows(3).position(|w| {
        matches!(&w[0], TokenTree::Ident(i) if i == "struct")
            && matches!(&w[1], TokenTree::Ident(_))
            && matches!(&w[2], TokenTree::Group(g) if g.delimiter() == Delimiter::Brace)
    });
    if let Some(at) = body {
        if let TokenTree::Group(g) = &tokens[at + 2] {
            let lines = drop_flag_halves(g.stream(), flag_halves);
            tokens[at + 2] = TokenTree::Group(regroup(g, lines));
        }
    }
    tokens.into_iter().collect()
}

/// The table's lines without the top-level tokens from each `=>` to the next `;` (kept); a `=>`
/// with no `;` after it is left alone.
fn drop_flag_halves(lines: TokenStream, flag_halves: &mut usize) -> TokenStream {
    let tokens: Vec<TokenTree> = lines.into_iter().collect();
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if is_fat_arrow(&tokens[i..]) {
            if let Some(end) = tokens[i..].iter().position(|t| is_punct(t, ';')) {
                *flag_halves += 1;
                i += end;
                continue;
            }
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    out.into_iter().collect()
}

/// Whether `tokens` starts with `=>` (`=` joined to `>`).
fn is_fat_arrow(tokens: &[TokenTree]) -> bool {
    match tokens {
        [TokenTree::Punct(eq), TokenTree::Punct(gt), ..] => {
            eq.as_char() == '=' && eq.spacing() == Spacing::Joint && gt.as_char() == '>'
        }
        _ => false,
    }
}

fn is_punct(token: &TokenTree, c: char) -> bool {
    matches!(token, TokenTree::Punct(p) if p.as_char() == c)
}

/// A group like `g` (delimiter and span) holding `stream`.
fn regroup(g: &Group, stream: TokenStream) -> Group {
    let mut new = Group::new(g.delimiter(), stream);
    new.set_span(g.span());
    new
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;
    use syn::parse::{Parse, ParseStream};
    use syn::{braced, Attribute, Expr, Ident, LitStr, Token, Type};

    /// A table in the shape of `src/bot/config.rs`: docs at every level, flag halves whose
    /// parsers hold a `match` with `=>` arms and a block with `;`, a default that is itself a
    /// `match`, a default whose macro holds `=>` and `;` at one level, and lines without a flag
    /// half.
    const TABLE: &str = r#"
        tunables! {
            /// Everything the bot can be told.
            #[derive(Clone, Debug, PartialEq)]
            pub struct BotConfig {
                /// Time per turn.
                budget_ms: f64 = 50.0 => "budget-ms", "MS", positive,
                    "time per turn, counted from reading the turn's first line";
                /// The leaf evaluation.
                evaluation: Evaluation = Evaluation::Hand => "eval", "hand|net",
                    |text| match text {
                        "hand" => Ok(Evaluation::Hand),
                        "net" if cfg!(feature = "net") => Ok(Evaluation::Net),
                        "net" => Err("hand (this build has no network: feature net)".to_string()),
                        _ => Err(String::new()),
                    },
                    "leaf evaluation: the hand-written one or the value network";
                search: SearchParams = SearchParams::default();
                /// A default that is a `match`, a parser that is a block.
                depth: u32 = match LEAGUE { League::Gold => 10, _ => 8 } => "depth", "D",
                    |text| {
                        /// A doc deep inside.
                        let text = text.trim();
                        integer_in(text, 1, 32)
                    },
                    "tree plies";
                pairs: Pairs = pairs! { 1 => 2; 3 => 4 } => "pairs", "P", parse_pairs, "pairs";
                /// Last, without a flag.
                weights: EvalWeights = EvalWeights::default();
            }
        }
    "#;

    /// `TABLE` without its doc comments.
    const WITHOUT_DOCS: &str = r#"
        #[derive(Clone, Debug, PartialEq)]
        pub struct BotConfig {
            budget_ms: f64 = 50.0 => "budget-ms", "MS", positive,
                "time per turn, counted from reading the turn's first line";
            evaluation: Evaluation = Evaluation::Hand => "eval", "hand|net",
                |text| match text {
                    "hand" => Ok(Evaluation::Hand),
                    "net" if cfg!(feature = "net") => Ok(Evaluation::Net),
                    "net" => Err("hand (this build has no network: feature net)".to_string()),
                    _ => Err(String::new()),
                },
                "leaf evaluation: the hand-written one or the value network";
            search: SearchParams = SearchParams::default();
            depth: u32 = match LEAGUE { League::Gold => 10, _ => 8 } => "depth", "D",
                |text| {
                    let text = text.trim();
                    integer_in(text, 1, 32)
                },
                "tree plies";
            pairs: Pairs = pairs! { 1 => 2; 3 => 4 } => "pairs", "P", parse_pairs, "pairs";
            weights: EvalWeights = EvalWeights::default();
        }
    "#;

    /// `TABLE` without its doc comments and flag halves.
    const WITHOUT_FLAGS: &str = r#"
        #[derive(Clone, Debug, PartialEq)]
        pub struct BotConfig {
            budget_ms: f64 = 50.0;
            evaluation: Evaluation = Evaluation::Hand;
            search: SearchParams = SearchParams::default();
            depth: u32 = match LEAGUE { League::Gold => 10, _ => 8 };
            pairs: Pairs = pairs! { 1 => 2; 3 => 4 };
            weights: EvalWeights = EvalWeights::default();
        }
    "#;

    /// `src` (one `tunables!` item) through `strip.rs` with `features`: the file's tokens as
    /// text, the invocation's tokens and the counts.
    fn stripped(src: &str, features: &[&str]) -> (String, TokenStream, (usize, usize)) {
        let mut file = syn::parse_file(src).unwrap();
        let features: Vec<String> = features.iter().map(|f| f.to_string()).collect();
        let stats = crate::strip::strip(&mut file, &features);
        let syn::Item::Macro(item) = &file.items[0] else {
            panic!("not a macro item: {src}");
        };
        let tokens = item.mac.tokens.clone();
        let text = file.into_token_stream().to_string();
        (text, tokens, (stats.docs, stats.flag_halves))
    }

    fn tokens(src: &str) -> String {
        src.parse::<TokenStream>().unwrap().to_string()
    }

    /// The table's lines as the macro's grammar reads them: (field, whether it has a flag).
    struct Table(Vec<(String, bool)>);

    impl Parse for Table {
        fn parse(input: ParseStream) -> syn::Result<Self> {
            Attribute::parse_outer(input)?;
            input.parse::<Token![pub]>()?;
            input.parse::<Token![struct]>()?;
            input.parse::<Ident>()?;
            let body;
            braced!(body in input);
            let mut lines = Vec::new();
            while !body.is_empty() {
                Attribute::parse_outer(&body)?;
                let field: Ident = body.parse()?;
                body.parse::<Token![:]>()?;
                body.parse::<Type>()?;
                body.parse::<Token![=]>()?;
                body.parse::<Expr>()?;
                let flag = body.parse::<Option<Token![=>]>>()?.is_some();
                if flag {
                    body.parse::<LitStr>()?;
                    body.parse::<Token![,]>()?;
                    body.parse::<Expr>()?;
                    body.parse::<Token![,]>()?;
                    body.parse::<Expr>()?;
                    body.parse::<Token![,]>()?;
                    body.parse::<LitStr>()?;
                }
                body.parse::<Token![;]>()?;
                lines.push((field.to_string(), flag));
            }
            Ok(Table(lines))
        }
    }

    fn lines(tokens: TokenStream) -> Vec<(String, bool)> {
        syn::parse2::<Table>(tokens).unwrap().0
    }

    #[test]
    fn the_input_is_a_table() {
        let Ok(syn::Item::Macro(item)) = syn::parse_str::<syn::Item>(TABLE) else {
            panic!("TABLE is not a macro item");
        };
        let flags: Vec<bool> = lines(item.mac.tokens)
            .into_iter()
            .map(|(_, flag)| flag)
            .collect();
        assert_eq!(flags, [true, true, false, true, true, false]);
    }

    #[test]
    fn without_cli_docs_and_flag_halves_go_and_nothing_else() {
        let (text, table, counts) = stripped(TABLE, &["two-pod"]);
        assert_eq!(table.to_string(), tokens(WITHOUT_FLAGS));
        // 1 struct doc + 4 field docs + 1 inside a parser.
        assert_eq!(counts, (6, 4));
        assert!(!text.contains("doc"), "{text}");
        // The bundle's text still parses, and the table is still the macro's input.
        let reparsed = syn::parse_file(&text).unwrap();
        let syn::Item::Macro(item) = &reparsed.items[0] else {
            panic!("{text}");
        };
        assert_eq!(
            lines(item.mac.tokens.clone()),
            [
                ("budget_ms", false),
                ("evaluation", false),
                ("search", false),
                ("depth", false),
                ("pairs", false),
                ("weights", false)
            ]
            .map(|(f, flag)| (f.to_string(), flag))
        );
        // The defaults' `match` and macro keep their arms.
        assert!(text.contains("League :: Gold => 10"), "{text}");
        assert!(text.contains("{ 1 => 2 ; 3 => 4 }"), "{text}");
    }

    #[test]
    fn with_cli_only_the_docs_go() {
        let (text, table, counts) = stripped(TABLE, &["two-pod", "cli"]);
        assert_eq!(table.to_string(), tokens(WITHOUT_DOCS));
        assert_eq!(counts, (6, 0));
        let reparsed = syn::parse_file(&text).unwrap();
        let syn::Item::Macro(item) = &reparsed.items[0] else {
            panic!("{text}");
        };
        let flags: Vec<bool> = lines(item.mac.tokens.clone())
            .into_iter()
            .map(|(_, flag)| flag)
            .collect();
        assert_eq!(flags, [true, true, false, true, true, false]);
    }

    #[test]
    fn a_path_ending_in_tunables_is_a_table_and_other_macros_are_untouched() {
        let src = TABLE.replacen("tunables!", "crate::search::tunables!", 1);
        let (_, table, _) = stripped(&src, &[]);
        assert_eq!(table.to_string(), tokens(WITHOUT_FLAGS));

        let src = TABLE.replacen("tunables!", "other!", 1);
        let before = syn::parse_file(&src)
            .unwrap()
            .into_token_stream()
            .to_string();
        let (_, table, counts) = stripped(&src, &[]);
        assert_eq!(counts, (0, 0));
        let syn::Item::Macro(item) = syn::parse_str::<syn::Item>(&src).unwrap() else {
            panic!("{src}");
        };
        assert_eq!(table.to_string(), item.mac.tokens.to_string());
        assert!(before.contains("doc"));
    }

    #[test]
    fn an_arrow_without_a_semicolon_after_it_is_left_alone() {
        let mut mac: syn::Macro =
            syn::parse_str(r#"tunables! { pub struct S { a: u8 = 1 => "a", "N", p, "m" } }"#)
                .unwrap();
        let before = mac.tokens.to_string();
        assert_eq!(strip_table(&mut mac, false), TablesStripped::default());
        assert_eq!(mac.tokens.to_string(), before);
    }

    #[test]
    fn inner_doc_attributes_go_too() {
        let mut mac: syn::Macro = syn::parse_str(
            "tunables! { pub struct S { #![doc = \"inner\"] #[doc(hidden)] a: u8 = 1; } }",
        )
        .unwrap();
        let stats = strip_table(&mut mac, true);
        assert_eq!(stats.docs, 2);
        assert_eq!(
            mac.tokens.to_string(),
            tokens("pub struct S { a: u8 = 1; }")
        );
    }
}
