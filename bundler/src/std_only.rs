//! Check 2: the bundle refers to no crate but `std`, `core` and `alloc`.
//!
//! Rejected: `extern crate` of anything else; a path starting with `::name` unless `name` is
//! one of those three; a `use` or a path (also inside macro calls) whose first segment is a
//! lowercase name that the bundle neither defines nor imports (crate names are lowercase, types
//! and traits are not, so `HashMap::new` after a glob import passes while `libm::atan2` does
//! not). Line numbers refer to the bundle text.

use std::collections::HashSet;

use proc_macro2::{Spacing, TokenStream, TokenTree};
use syn::visit::{self, Visit};

use crate::error::{check, Result};

const CRATES: [&str; 3] = ["std", "core", "alloc"];
const BUILTIN: [&str; 23] = [
    "std", "core", "alloc", "crate", "self", "super", "Self", "bool", "char", "str", "u8", "u16",
    "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32",
];
const MORE_BUILTIN: [&str; 4] = ["f64", "rustfmt", "clippy", "diagnostic"];

/// Fails on the first reference to an outside crate; `name` labels the bundle in the message.
pub fn check_std_only(file: &syn::File, name: &str) -> Result<()> {
    let mut names = Names::default();
    names.visit_file(file);
    let mut known: HashSet<String> = names.0;
    known.extend(
        BUILTIN
            .iter()
            .chain(MORE_BUILTIN.iter())
            .map(|s| s.to_string()),
    );
    let mut finder = Finder {
        known: &known,
        found: Vec::new(),
    };
    finder.visit_file(file);
    match finder.found.first() {
        None => Ok(()),
        Some((line, what)) => {
            let more = finder.found.len() - 1;
            let more = if more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            };
            Err(check(format!(
                "{name}:{line}: {what}; CodinGame compiles one file with std only{more}"
            )))
        }
    }
}

/// Every name the bundle itself defines or imports under a prefix.
#[derive(Default)]
struct Names(HashSet<String>);

impl<'ast> Visit<'ast> for Names {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let ident = match item {
            syn::Item::Const(i) => Some(&i.ident),
            syn::Item::Enum(i) => Some(&i.ident),
            syn::Item::Fn(i) => Some(&i.sig.ident),
            syn::Item::Macro(i) => i.ident.as_ref(),
            syn::Item::Mod(i) => Some(&i.ident),
            syn::Item::Static(i) => Some(&i.ident),
            syn::Item::Struct(i) => Some(&i.ident),
            syn::Item::Trait(i) => Some(&i.ident),
            syn::Item::TraitAlias(i) => Some(&i.ident),
            syn::Item::Type(i) => Some(&i.ident),
            syn::Item::Union(i) => Some(&i.ident),
            _ => None,
        };
        if let Some(ident) = ident {
            self.0.insert(ident.to_string());
        }
        visit::visit_item(self, item);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if let syn::UseTree::Path(p) = &u.tree {
            self.use_leaves(&p.tree);
        } else if let syn::UseTree::Group(g) = &u.tree {
            for t in &g.items {
                if let syn::UseTree::Path(p) = t {
                    self.use_leaves(&p.tree);
                }
            }
        }
    }

    fn visit_generic_param(&mut self, p: &'ast syn::GenericParam) {
        match p {
            syn::GenericParam::Type(t) => {
                self.0.insert(t.ident.to_string());
            }
            syn::GenericParam::Const(c) => {
                self.0.insert(c.ident.to_string());
            }
            syn::GenericParam::Lifetime(_) => {}
        }
        visit::visit_generic_param(self, p);
    }
}

impl Names {
    /// Names a use tree brings into scope below its first segment.
    fn use_leaves(&mut self, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => self.use_leaves(&p.tree),
            syn::UseTree::Name(n) => {
                self.0.insert(n.ident.to_string());
            }
            syn::UseTree::Rename(r) => {
                self.0.insert(r.rename.to_string());
            }
            syn::UseTree::Glob(_) => {}
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| self.use_leaves(t)),
        }
    }
}

struct Finder<'a> {
    known: &'a HashSet<String>,
    found: Vec<(usize, String)>,
}

impl Finder<'_> {
    fn foreign(&self, first: &str) -> bool {
        first.starts_with(|c: char| c.is_lowercase() || c == '_') && !self.known.contains(first)
    }

    fn use_first(&mut self, tree: &syn::UseTree, leading_colon: bool) {
        let (ident, line) = match tree {
            syn::UseTree::Path(p) => (p.ident.to_string(), p.ident.span().start().line),
            syn::UseTree::Name(n) => (n.ident.to_string(), n.ident.span().start().line),
            syn::UseTree::Rename(r) => (r.ident.to_string(), r.ident.span().start().line),
            syn::UseTree::Glob(_) => return,
            syn::UseTree::Group(g) => {
                g.items
                    .iter()
                    .for_each(|t| self.use_first(t, leading_colon));
                return;
            }
        };
        let bad = if leading_colon {
            !CRATES.contains(&ident.as_str())
        } else {
            self.foreign(&ident)
        };
        if bad {
            self.found
                .push((line, format!("`use {ident}::..` refers to crate `{ident}`")));
        }
    }

    fn scan_tokens(&mut self, stream: TokenStream) {
        let tokens: Vec<TokenTree> = stream.into_iter().collect();
        for (i, t) in tokens.iter().enumerate() {
            match t {
                TokenTree::Group(g) => self.scan_tokens(g.stream()),
                TokenTree::Ident(id) => {
                    let name = id.to_string();
                    let starts_path = sep(&tokens, i + 1)
                        && !(i >= 2 && sep(&tokens, i - 2))
                        && !(i >= 1
                            && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '$'));
                    if starts_path && self.foreign(&name) {
                        self.found.push((
                            id.span().start().line,
                            format!("path `{name}::..` in a macro call refers to crate `{name}`"),
                        ));
                    }
                }
                _ => {}
            }
        }
    }
}

fn sep(tokens: &[TokenTree], i: usize) -> bool {
    matches!(
        (tokens.get(i), tokens.get(i + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
            if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
    )
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_item_extern_crate(&mut self, e: &'ast syn::ItemExternCrate) {
        let name = e.ident.to_string();
        if !CRATES.contains(&name.as_str()) {
            self.found.push((
                e.ident.span().start().line,
                format!("`extern crate {name};` needs crate `{name}`"),
            ));
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.use_first(&u.tree, u.leading_colon.is_some());
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if let Some(first) = path.segments.first() {
            let name = first.ident.to_string();
            let line = first.ident.span().start().line;
            let bad = if path.leading_colon.is_some() {
                !CRATES.contains(&name.as_str())
            } else {
                path.segments.len() >= 2 && self.foreign(&name)
            };
            if bad {
                self.found
                    .push((line, format!("path `{name}::..` refers to crate `{name}`")));
            }
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.scan_tokens(m.tokens.clone());
        visit::visit_macro(self, m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(src: &str) -> std::result::Result<(), String> {
        let f = syn::parse_file(src).unwrap();
        check_std_only(&f, "b.rs").map_err(|e| e.to_string())
    }

    #[test]
    fn accepts_std_and_local_paths() {
        verdict(
            "use std::collections::*; use std::f64::consts; mod engine { pub mod geo { pub fn f() {} } }
             enum Dir { A } use Dir::*;
             fn g<T: Default>() -> T { let _ = HashMap::<u8, u8>::new(); let _ = consts::PI;
               engine::geo::f(); let _ = f64::MAX; let _ = u32::MAX; crate::engine::geo::f();
               println!(\"{}\", engine::geo::f as usize); T::default() }
             #[rustfmt::skip] fn h() {}",
        )
        .unwrap();
    }

    #[test]
    fn rejects_outside_crates() {
        let e = verdict("fn f() -> f64 {\n libm::atan2(1.0, 2.0) }").unwrap_err();
        assert!(e.starts_with("b.rs:2: path `libm::..`"), "{e}");
        assert!(verdict("use serde::Serialize;")
            .unwrap_err()
            .contains("`use serde::..`"));
        assert!(verdict("extern crate rand;").is_err());
        assert!(verdict("fn f() { let _ = ::rand::random::<u8>(); }").is_err());
        assert!(verdict("fn f() { println!(\"{}\", fastrand::u8(..)); }").is_err());
        assert!(verdict("use libm;").is_err());
    }
}
