//! `--prune`, second part: drops the derived traits the bundle never uses. The crate derives
//! `Debug`, `PartialEq`, `Eq`, `Default`, `Hash`, `PartialOrd` and `Ord` (on its structs and
//! enums, and on the structs its tables of tunables write) for its tests and
//! tools; a bundle compiled alone needs only those its code calls. Which ones those are, rustc
//! says: a derive the code uses cannot be removed without an error, and one it does not use
//! changes nothing when removed (these traits have no effect but the methods they add, and a
//! missing method is a compile error, never a silent change). `Clone` and `Copy` stay: without
//! `Clone` a `.clone()` call could resolve to the reference's, and `Copy` changes moves.
//!
//! All the candidates (one trait in one `#[derive]`) are removed at once, then those that
//! rustc's errors name (the type and the trait) come back, until the bundle compiles: a few
//! `rustc --emit=metadata` runs. Should the errors name nothing more while the bundle still
//! does not compile, group testing settles the rest (all the remaining at once, then each half
//! on its own, down to single candidates). The result is checked once more with debug
//! assertions off, and dropped if that fails.

use syn::punctuated::Punctuated;
use syn::visit_mut::{self, VisitMut};
use syn::{Attribute, Path as SynPath, Token};

use crate::compile::{Checked, Checker};
use crate::error::Result;

/// The derived traits that only add methods nothing else relies on.
const REMOVABLE: [&str; 7] = [
    "Debug",
    "PartialEq",
    "Eq",
    "Default",
    "Hash",
    "PartialOrd",
    "Ord",
];

/// One trait in one `#[derive]`: the attribute's place in visiting order and the trait's name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Candidate {
    derive: usize,
    name: String,
    /// The struct's or enum's name.
    owner: String,
}

/// What the step removed, for the report.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct DerivesPruned {
    /// Traits removed from `#[derive]` lists.
    pub removed: usize,
    /// Candidates examined.
    pub candidates: usize,
    /// rustc runs.
    pub compiles: usize,
}

/// Removes from `file`'s derives the traits its code does not use; `rustc_cmd` and `env` as
/// for the bundle's compile check. Leaves `file` as it was when the bundle does not compile.
pub fn prune_derives(
    file: &mut syn::File,
    rustc_cmd: &str,
    env: &[(String, String)],
) -> Result<DerivesPruned> {
    let mut found = Collect::default();
    found.visit_file_mut(file);
    let candidates = found.candidates;
    let mut report = DerivesPruned {
        candidates: candidates.len(),
        ..DerivesPruned::default()
    };
    let mut tester = Tester {
        file,
        checker: Checker::new(rustc_cmd, env)?,
    };
    if !tester.compiles_without(&[], true)? {
        report.compiles = tester.checker.runs;
        return Ok(report);
    }
    // Everything out, then back in what rustc's errors name (the trait and the type), until
    // the bundle compiles; if the errors name nothing more, group testing decides the rest.
    let mut removed = candidates.clone();
    while let Some(errors) = tester.errors_without(&removed)? {
        let before = removed.len();
        removed.retain(|candidate| !errors.iter().any(|error| names(error, candidate)));
        if removed.len() == before {
            let unsure = std::mem::take(&mut removed);
            tester.split(&unsure, &mut removed)?;
            break;
        }
    }
    if !removed.is_empty() && !tester.compiles_without(&removed, false)? {
        removed.clear();
    }
    report.compiles = tester.checker.runs;
    report.removed = removed.len();
    Remove {
        removed: &removed,
        derive: 0,
    }
    .visit_file_mut(file);
    Ok(report)
}

struct Tester<'a> {
    file: &'a syn::File,
    checker: Checker<'a>,
}

impl Tester<'_> {
    /// Adds to `removed` the candidates of `group` that can go together with it.
    fn split(&mut self, group: &[Candidate], removed: &mut Vec<Candidate>) -> Result<()> {
        if group.is_empty() {
            return Ok(());
        }
        let mut trial = removed.clone();
        trial.extend_from_slice(group);
        if self.compiles_without(&trial, true)? {
            *removed = trial;
            return Ok(());
        }
        if group.len() > 1 {
            let (first, second) = group.split_at(group.len() / 2);
            self.split(first, removed)?;
            self.split(second, removed)?;
        }
        Ok(())
    }

    /// Whether the file compiles without the `removed` derives.
    fn compiles_without(&mut self, removed: &[Candidate], debug_assertions: bool) -> Result<bool> {
        Ok(self.check(removed, debug_assertions)?.compiles)
    }

    /// The errors (each with its notes, in one string) of the file without the `removed`
    /// derives, or `None` when it compiles.
    fn errors_without(&mut self, removed: &[Candidate]) -> Result<Option<Vec<String>>> {
        let checked = self.check(removed, true)?;
        if checked.compiles {
            return Ok(None);
        }
        let errors = checked
            .errors()
            .map(|diagnostic| {
                let children = diagnostic["children"].as_array().into_iter().flatten();
                let notes = children.filter_map(|child| child["message"].as_str());
                let mut text = diagnostic["message"].as_str().unwrap_or("").to_string();
                for note in notes {
                    text.push('\n');
                    text.push_str(note);
                }
                text
            })
            .collect();
        Ok(Some(errors))
    }

    fn check(&mut self, removed: &[Candidate], debug_assertions: bool) -> Result<Checked> {
        let mut file = self.file.clone();
        Remove { removed, derive: 0 }.visit_file_mut(&mut file);
        self.checker
            .check(&prettyplease::unparse(&file), debug_assertions, &[])
    }
}

/// Whether rustc's `error` (with its notes) names `candidate`'s type and its trait: "`X`
/// doesn't implement `Debug`", "can't compare `X` with `X`", "binary operation `==` cannot be
/// applied to type `X`", "the trait bound `X: Default` is not satisfied".
fn names(error: &str, candidate: &Candidate) -> bool {
    let word_at = |text: &str, word: &str| {
        text.match_indices(word).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + word.len()..].chars().next();
            let part_of_word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            !part_of_word(before) && !part_of_word(after)
        })
    };
    let trait_named = match candidate.name.as_str() {
        "PartialEq" => ["PartialEq", "compare", "`==`", "`!=`"]
            .iter()
            .any(|clue| error.contains(clue)),
        "PartialOrd" => ["PartialOrd", "`<`", "`>`", "`<=`", "`>=`"]
            .iter()
            .any(|clue| error.contains(clue)),
        name => word_at(error, name),
    };
    trait_named && word_at(error, &candidate.owner)
}

/// The paths of a `#[derive(..)]`, or `None` for another attribute.
fn derived(attr: &Attribute) -> Option<Punctuated<SynPath, Token![,]>> {
    if !attr.path().is_ident("derive") {
        return None;
    }
    attr.parse_args_with(Punctuated::parse_terminated).ok()
}

fn trait_name(path: &SynPath) -> String {
    path.segments
        .last()
        .map_or(String::new(), |s| s.ident.to_string())
}

/// Every removable trait of every derive, in visiting order.
#[derive(Default)]
struct Collect {
    candidates: Vec<Candidate>,
    derive: usize,
}

impl Collect {
    fn attributes(&mut self, attrs: &[Attribute], owner: &syn::Ident) {
        for paths in attrs.iter().filter_map(derived) {
            for path in &paths {
                let name = trait_name(path);
                if REMOVABLE.contains(&name.as_str()) {
                    self.candidates.push(Candidate {
                        derive: self.derive,
                        name,
                        owner: owner.to_string(),
                    });
                }
            }
            self.derive += 1;
        }
    }
}

impl VisitMut for Collect {
    fn visit_item_struct_mut(&mut self, item: &mut syn::ItemStruct) {
        self.attributes(&item.attrs, &item.ident);
        visit_mut::visit_item_struct_mut(self, item);
    }

    fn visit_item_enum_mut(&mut self, item: &mut syn::ItemEnum) {
        self.attributes(&item.attrs, &item.ident);
        visit_mut::visit_item_enum_mut(self, item);
    }

    fn visit_item_union_mut(&mut self, item: &mut syn::ItemUnion) {
        self.attributes(&item.attrs, &item.ident);
        visit_mut::visit_item_union_mut(self, item);
    }

    fn visit_item_macro_mut(&mut self, item: &mut syn::ItemMacro) {
        if let Some(table) = Table::of(&item.mac) {
            self.attributes(&table.attrs, &table.name);
        }
        visit_mut::visit_item_macro_mut(self, item);
    }
}

/// A table of tunables (`tunables! { #[derive(..)] pub struct Name { .. } }`, csb's
/// `src/search/tunable.rs`): its struct's attributes, name and the tokens after the
/// attributes. The macro puts the attributes on the struct it writes, so its derives are
/// candidates like any struct's.
struct Table {
    attrs: Vec<Attribute>,
    name: syn::Ident,
    rest: proc_macro2::TokenStream,
}

impl Table {
    fn of(mac: &syn::Macro) -> Option<Table> {
        if mac.path.segments.last()?.ident != "tunables" {
            return None;
        }
        let parser = |input: syn::parse::ParseStream| {
            let attrs = input.call(Attribute::parse_outer)?;
            let rest: proc_macro2::TokenStream = input.parse()?;
            Ok((attrs, rest))
        };
        let (attrs, rest) = syn::parse::Parser::parse2(parser, mac.tokens.clone()).ok()?;
        let mut tokens = rest.clone().into_iter();
        let name = loop {
            match tokens.next()? {
                proc_macro2::TokenTree::Ident(word) if word == "struct" => match tokens.next()? {
                    proc_macro2::TokenTree::Ident(name) => break name,
                    _ => return None,
                },
                _ => {}
            }
        };
        Some(Table { attrs, name, rest })
    }
}

/// Removes the `removed` traits from the derives (same visiting order as [`Collect`]); a derive
/// left empty goes.
struct Remove<'a> {
    removed: &'a [Candidate],
    derive: usize,
}

impl Remove<'_> {
    fn attributes(&mut self, attrs: &mut Vec<Attribute>) {
        attrs.retain_mut(|attr| {
            let Some(paths) = derived(attr) else {
                return true;
            };
            let index = self.derive;
            self.derive += 1;
            let kept: Punctuated<SynPath, Token![,]> = paths
                .into_iter()
                .filter(|path| {
                    let name = trait_name(path);
                    !self
                        .removed
                        .iter()
                        .any(|c| c.derive == index && c.name == name)
                })
                .collect();
            if kept.is_empty() {
                return false;
            }
            *attr = syn::parse_quote!(#[derive(#kept)]);
            true
        });
    }
}

impl VisitMut for Remove<'_> {
    fn visit_item_struct_mut(&mut self, item: &mut syn::ItemStruct) {
        self.attributes(&mut item.attrs);
        visit_mut::visit_item_struct_mut(self, item);
    }

    fn visit_item_enum_mut(&mut self, item: &mut syn::ItemEnum) {
        self.attributes(&mut item.attrs);
        visit_mut::visit_item_enum_mut(self, item);
    }

    fn visit_item_union_mut(&mut self, item: &mut syn::ItemUnion) {
        self.attributes(&mut item.attrs);
        visit_mut::visit_item_union_mut(self, item);
    }

    fn visit_item_macro_mut(&mut self, item: &mut syn::ItemMacro) {
        if let Some(Table {
            mut attrs, rest, ..
        }) = Table::of(&item.mac)
        {
            self.attributes(&mut attrs);
            item.mac.tokens = quote::quote!(#(#attrs)* #rest);
        }
        visit_mut::visit_item_macro_mut(self, item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pruned(source: &str) -> (String, DerivesPruned) {
        let mut file = syn::parse_file(source).unwrap();
        let report = prune_derives(&mut file, "rustc", &[]).unwrap();
        (prettyplease::unparse(&file), report)
    }

    #[test]
    fn keeps_the_derives_the_code_uses_and_drops_the_others() {
        let (text, report) = pruned(
            "#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
            pub struct A(u8);
            #[derive(Debug, PartialEq)]
            pub struct B(u8);
            #[derive(Debug)]
            pub struct C;
            fn main() {
                let a = A::default();
                println!(\"{:?}\", B(1) == B(2));
                let _ = (a, C);
            }",
        );
        assert!(
            text.contains("#[derive(Clone, Copy, Default)]\npub struct A"),
            "{text}"
        );
        assert!(
            text.contains("#[derive(PartialEq)]\npub struct B"),
            "{text}"
        );
        assert!(!text.contains("derive(Debug)]\npub struct C"), "{text}");
        assert_eq!(report.candidates, 7);
        assert_eq!(report.removed, 5);
    }

    #[test]
    fn prunes_the_derives_of_a_table_of_tunables() {
        let (text, report) = pruned(
            "macro_rules! tunables {
                ($(#[$m:meta])* pub struct $n:ident { $($f:ident: $t:ty = $d:expr;)* }) => {
                    $(#[$m])* pub struct $n { $(pub $f: $t,)* }
                };
            }
            tunables! { #[derive(Clone, Debug, PartialEq)] pub struct Settings { depth: u8 = 3; } }
            fn main() {
                let settings = Settings { depth: 1 }.clone();
                std::process::exit(i32::from(settings.depth));
            }",
        );
        assert!(text.contains("Clone") && !text.contains("Debug"), "{text}");
        assert!(!text.contains("PartialEq"), "{text}");
        assert_eq!((report.candidates, report.removed), (2, 2));
    }

    #[test]
    fn a_file_that_does_not_compile_keeps_every_derive() {
        let source = "#[derive(Debug)] pub struct A; fn main() { let x: u8 = \"no\"; }";
        let (text, report) = pruned(source);
        assert!(text.contains("#[derive(Debug)]"), "{text}");
        assert_eq!(report.removed, 0);
        assert_eq!(report.compiles, 1);
    }
}
