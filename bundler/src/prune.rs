//! `--prune`: removes from the bundle the code CodinGame's build never calls, as rustc itself
//! finds it. The crate's library exposes `pub` items for its tests, tools and other binaries;
//! in a bundle compiled alone they are dead weight, but rustc does not say so, because a `pub`
//! item counts as used. So the step makes every `pub` item `pub(in crate)` (the same
//! visibility inside one crate, and a spelling the source never uses, so it can be turned back
//! afterwards), asks rustc for its `dead_code`, `unused_imports` and `unused_macros` warnings,
//! removes what they name, and asks again until nothing is left to remove.
//!
//! Only what cannot change the program is removed: functions, methods and associated
//! constants of inherent impls, constants, statics, type aliases, `macro_rules!` macros, and
//! the names of `use` items (an inherent impl left empty goes too). Structs, enums, traits,
//! fields and variants stay, even when rustc calls them unused: removing one would need its
//! impls and uses removed with it. An item counts as dead only when rustc says so both with and
//! without debug assertions, so code reached only under one of them stays. A round whose text
//! does not compile (which would be a bug here) is undone and the step stops there; the
//! bundle's own checks (compiles alone, same moves as the binary) still run afterwards.

use std::collections::BTreeSet;

use proc_macro2::{LineColumn, Span};
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::visit_mut::{self, VisitMut};
use syn::{ImplItem, Item, UseTree, Visibility};

use crate::compile::{Checked, Checker};
use crate::error::{input, Result};

/// The most rounds: each removal can leave new dead code behind (a function only a removed one
/// called), and a handful of rounds reaches the end in practice.
const MAX_ROUNDS: usize = 30;

/// What the step removed, for the report.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    /// Rounds of rustc run (the last one finds nothing more, or was undone).
    pub rounds: usize,
    /// Items removed (functions, methods, constants, statics, aliases, macros, empty impls).
    pub items: usize,
    /// Names removed from `use` items.
    pub imports: usize,
    /// Why the step stopped early, when a round was undone.
    pub stopped: Option<String>,
}

/// Removes what rustc reports unused from `file`, compiling with `rustc_cmd` (split on
/// whitespace) and the compile-time variables `env`.
pub fn prune(file: &mut syn::File, rustc_cmd: &str, env: &[(String, String)]) -> Result<Pruned> {
    let mut pruned = Pruned::default();
    // Printed and read once by prettyplease, which writes what the earlier steps left
    // half-punctuated (a struct literal's last field before `..`) the way rustc reads it.
    let mut current = syn::parse_file(&prettyplease::unparse(file)).map_err(|e| {
        input(format!(
            "--prune: the printed bundle does not parse ({e}); please report this"
        ))
    })?;
    MarkPublic.visit_file_mut(&mut current);
    let mut checker = Checker::new(rustc_cmd, env)?;
    // The last tree rustc compiled.
    let mut good: Option<(syn::File, usize, usize)> = None;
    for _ in 0..MAX_ROUNDS {
        pruned.rounds += 1;
        // The tree as rustc will read it, parsed again so that every span is a place in it.
        // Printed from its tokens (one long line), not by prettyplease, which would spell the
        // marker `pub(in crate)` as `pub(crate)` and lose it.
        let text = current.to_token_stream().to_string();
        let mut located = syn::parse_file(&text).map_err(|e| {
            input(format!(
                "--prune: the printed bundle does not parse ({e}); please report this"
            ))
        })?;
        let unused = match unused_in(&text, &mut checker)? {
            Ok(unused) => unused,
            Err(error) => {
                pruned.stopped = Some(match good {
                    None => format!("the bundle with `pub` items made crate-visible does not compile ({error}); nothing pruned"),
                    Some(_) => format!("round {} does not compile ({error}); its removals undone", pruned.rounds - 1),
                });
                break;
            }
        };
        if unused.unresolved.is_empty() {
            good = Some((current.clone(), pruned.items, pruned.imports));
        }
        let mut remover = Remover {
            unused: &unused,
            items: 0,
            imports: 0,
        };
        remover.visit_file_mut(&mut located);
        if remover.items + remover.imports == 0 {
            if !unused.unresolved.is_empty() {
                pruned.stopped = Some("an unresolved import is not a `use` name".to_string());
            }
            break;
        }
        pruned.items += remover.items;
        pruned.imports += remover.imports;
        current = located;
    }
    if let Some((mut good, items, imports)) = good {
        UnmarkPublic.visit_file_mut(&mut good);
        *file = good;
        (pruned.items, pruned.imports) = (items, imports);
    } else {
        (pruned.items, pruned.imports) = (0, 0);
    }
    Ok(pruned)
}

/// `pub` becomes `pub(in crate)`.
struct MarkPublic;

impl VisitMut for MarkPublic {
    fn visit_visibility_mut(&mut self, vis: &mut Visibility) {
        if let Visibility::Public(token) = vis {
            let span = token.span;
            *vis = syn::parse_quote_spanned!(span=> pub(in crate));
        }
    }
}

/// `pub(in crate)` becomes `pub` again.
struct UnmarkPublic;

impl VisitMut for UnmarkPublic {
    fn visit_visibility_mut(&mut self, vis: &mut Visibility) {
        if let Visibility::Restricted(restricted) = vis {
            if restricted.in_token.is_some() && restricted.path.is_ident("crate") {
                *vis = Visibility::Public(syn::Token![pub](restricted.pub_token.span));
            }
        }
    }
}

/// A stretch of the printed bundle that a warning points at: 1-based lines, 0-based
/// character columns (proc-macro2's convention), end exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Stretch {
    start: (usize, usize),
    end: (usize, usize),
}

impl Stretch {
    fn holds(&self, at: LineColumn) -> bool {
        let at = (at.line, at.column);
        self.start <= at && at < self.end
    }

    fn covers(&self, span: Span) -> bool {
        let (start, end) = (span.start(), span.end());
        self.start <= (start.line, start.column) && (end.line, end.column) <= self.end
    }
}

/// What rustc names in one round.
#[derive(Default)]
struct Unused {
    /// The stretches of the three lints' warnings, in both builds (debug assertions on and off).
    dead: BTreeSet<Stretch>,
    /// The stretches of unresolved imports (error E0432): names of items an earlier round
    /// removed, which dead code alone had used, so that no lint could call them unused.
    unresolved: BTreeSet<Stretch>,
}

/// What rustc reports unused in `text`; `Ok(Err(first error))` when the text does not compile
/// for another reason than an unresolved import.
fn unused_in(text: &str, checker: &mut Checker) -> Result<std::result::Result<Unused, String>> {
    let mut both: Option<Unused> = None;
    for debug_assertions in [true, false] {
        let checked = checker.check(text, debug_assertions, &LINTS)?;
        let once = match unused_of(&checked) {
            Ok(once) => once,
            Err(error) => return Ok(Err(error)),
        };
        both = Some(match both {
            None => once,
            Some(earlier) => Unused {
                dead: earlier.dead.intersection(&once.dead).copied().collect(),
                unresolved: earlier
                    .unresolved
                    .union(&once.unresolved)
                    .copied()
                    .collect(),
            },
        });
    }
    Ok(Ok(both.unwrap_or_default()))
}

/// The lints whose warnings name unused code.
const LINTS: [&str; 3] = ["dead_code", "unused_imports", "unused_macros"];

/// The stretches one check's diagnostics name, or its first error that is not an unresolved
/// import.
fn unused_of(checked: &Checked) -> std::result::Result<Unused, String> {
    let mut unused = Unused::default();
    for diagnostic in &checked.diagnostics {
        let code = diagnostic["code"]["code"].as_str().unwrap_or("");
        let into = match (diagnostic["level"].as_str(), code) {
            (Some("error"), "E0432") => &mut unused.unresolved,
            // rustc's closing "aborting due to N previous errors" points nowhere.
            (Some("error"), _) if diagnostic["spans"].as_array().is_some_and(Vec::is_empty) => {
                continue
            }
            (Some("error"), _) => {
                return Err(diagnostic["message"]
                    .as_str()
                    .unwrap_or("an error")
                    .to_string())
            }
            (_, code) if LINTS.contains(&code) => &mut unused.dead,
            _ => continue,
        };
        let spans = diagnostic["spans"].as_array().into_iter().flatten();
        into.extend(
            spans
                .filter(|s| s["is_primary"] == true)
                .filter_map(stretch_of),
        );
    }
    if !checked.compiles && unused.unresolved.is_empty() {
        return Err("rustc failed without an error message".to_string());
    }
    Ok(unused)
}

/// A JSON span's stretch (rustc counts columns from 1).
fn stretch_of(span: &serde_json::Value) -> Option<Stretch> {
    let number = |key: &str| span[key].as_u64().map(|n| n as usize);
    Some(Stretch {
        start: (
            number("line_start")?,
            number("column_start")?.checked_sub(1)?,
        ),
        end: (number("line_end")?, number("column_end")?.checked_sub(1)?),
    })
}

/// Removes the items and `use` names whose name a dead stretch holds.
struct Remover<'a> {
    unused: &'a Unused,
    items: usize,
    imports: usize,
}

impl Remover<'_> {
    fn is_dead(&self, name: Span) -> bool {
        self.unused.dead.iter().any(|s| s.holds(name.start()))
    }

    /// True when `item` is one the step may remove and rustc named it.
    fn dead_item(&self, item: &Item) -> bool {
        match item {
            Item::Fn(f) => self.is_dead(f.sig.ident.span()),
            Item::Const(c) => self.is_dead(c.ident.span()),
            Item::Static(s) => self.is_dead(s.ident.span()),
            Item::Type(t) => self.is_dead(t.ident.span()),
            Item::Macro(m) => m.ident.as_ref().is_some_and(|i| self.is_dead(i.span())),
            _ => false,
        }
    }

    fn prune_items(&mut self, items: &mut Vec<Item>) {
        let before = items.len();
        items.retain(|item| !self.dead_item(item));
        self.items += before - items.len();
        for item in items.iter_mut() {
            match item {
                Item::Use(u) => self.prune_use(u),
                Item::Impl(imp) if imp.trait_.is_none() => self.prune_impl(imp),
                _ => {}
            }
        }
        // A `use` with no name left, and an inherent impl with no item left.
        let before = items.len();
        items.retain(|item| match item {
            Item::Use(u) => !matches!(&u.tree, UseTree::Group(g) if g.items.is_empty()),
            Item::Impl(i) => i.trait_.is_some() || !i.items.is_empty(),
            _ => true,
        });
        self.items += before - items.len();
    }

    /// Drops the dead names of a `use`; one with none left becomes an empty group.
    fn prune_use(&mut self, item: &mut syn::ItemUse) {
        if !self.keep_use_tree(&mut item.tree) {
            item.tree = UseTree::Group(syn::UseGroup {
                brace_token: Default::default(),
                items: Punctuated::new(),
            });
        }
    }

    /// Drops the dead functions and constants of an inherent impl.
    fn prune_impl(&mut self, imp: &mut syn::ItemImpl) {
        let before = imp.items.len();
        imp.items.retain(|item| match item {
            ImplItem::Fn(f) => !self.is_dead(f.sig.ident.span()),
            ImplItem::Const(c) => !self.is_dead(c.ident.span()),
            _ => true,
        });
        self.items += before - imp.items.len();
    }

    /// Drops dead names from `tree`; false when nothing of it is left.
    fn keep_use_tree(&mut self, tree: &mut UseTree) -> bool {
        match tree {
            UseTree::Path(path) => self.keep_use_tree(&mut path.tree),
            UseTree::Name(_) | UseTree::Rename(_) | UseTree::Glob(_) => {
                let span = tree.span();
                let dead = (self.unused.dead.iter())
                    .chain(&self.unused.unresolved)
                    .any(|s| s.covers(span));
                if dead {
                    self.imports += 1;
                }
                !dead
            }
            UseTree::Group(group) => {
                let old = std::mem::take(&mut group.items);
                for mut inner in old {
                    if self.keep_use_tree(&mut inner) {
                        group.items.push(inner);
                    }
                }
                !group.items.is_empty()
            }
        }
    }
}

impl VisitMut for Remover<'_> {
    fn visit_file_mut(&mut self, file: &mut syn::File) {
        self.prune_items(&mut file.items);
        visit_mut::visit_file_mut(self, file);
    }

    fn visit_item_mod_mut(&mut self, module: &mut syn::ItemMod) {
        if let Some((_, items)) = &mut module.content {
            self.prune_items(items);
        }
        visit_mut::visit_item_mod_mut(self, module);
    }

    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        // Items inside function bodies (a helper `fn` or `const` local to one function).
        let before = block.stmts.len();
        block
            .stmts
            .retain(|stmt| !matches!(stmt, syn::Stmt::Item(item) if self.dead_item(item)));
        self.items += before - block.stmts.len();
        visit_mut::visit_block_mut(self, block);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pruned(source: &str) -> (String, Pruned) {
        let mut file = syn::parse_file(source).unwrap();
        let pruned = prune(&mut file, "rustc", &[]).unwrap();
        (prettyplease::unparse(&file), pruned)
    }

    #[test]
    fn removes_a_chain_of_unused_public_code_and_keeps_what_main_reaches() {
        let (text, pruned) = pruned(
            "pub mod a {
                pub const USED: u32 = 3;
                pub const UNUSED: u32 = 4;
                pub struct S;
                impl S { pub fn used(&self) -> u32 { USED } pub fn only_by_dead(&self) -> u32 { 1 } }
                pub fn dead() -> u32 { S.only_by_dead() }
                pub fn live() -> u32 { S.used() }
            }
            pub use a::{dead, live, UNUSED};
            fn main() { std::process::exit(live() as i32); }",
        );
        assert!(text.contains("pub fn live"), "{text}");
        assert!(text.contains("pub fn used"), "{text}");
        assert!(text.contains("pub const USED"), "{text}");
        for gone in ["fn dead", "only_by_dead", "UNUSED"] {
            assert!(!text.contains(gone), "{gone} left in:\n{text}");
        }
        assert!(
            text.contains("pub use a::{live}") || text.contains("pub use a::live"),
            "{text}"
        );
        assert!(!text.contains("pub(in crate)"), "{text}");
        assert_eq!(pruned.imports, 2);
        assert_eq!(pruned.items, 3);
        assert!(pruned.rounds >= 2, "{pruned:?}");
        assert_eq!(pruned.stopped, None);
    }

    #[test]
    fn keeps_code_reached_under_one_setting_of_debug_assertions() {
        let (text, _) = pruned(
            "pub fn check() -> bool { true }
            pub fn never() {}
            fn main() { #[cfg(debug_assertions)] { assert!(check()); } }",
        );
        assert!(text.contains("fn check"), "{text}");
        assert!(!text.contains("fn never"), "{text}");
    }

    #[test]
    fn keeps_structs_traits_and_trait_impls() {
        let (text, _) = pruned(
            "pub trait T { fn f(&self) -> u8; }
            pub struct Unused;
            impl T for Unused { fn f(&self) -> u8 { 1 } }
            fn main() {}",
        );
        for kept in ["trait T", "struct Unused", "impl T for Unused"] {
            assert!(text.contains(kept), "{kept} gone from:\n{text}");
        }
    }

    #[test]
    fn a_bundle_that_does_not_compile_is_left_as_it_was() {
        let source = "pub fn unused() {} fn main() { let x: u8 = \"no\"; }";
        let (text, pruned) = pruned(source);
        assert!(text.contains("pub fn unused"), "{text}");
        assert_eq!(pruned.items, 0);
        assert!(
            pruned
                .stopped
                .as_deref()
                .is_some_and(|s| s.contains("nothing pruned")),
            "{pruned:?}"
        );
    }
}
