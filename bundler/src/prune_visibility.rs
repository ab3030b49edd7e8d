//! `--prune`, third part: drops the `pub ` that a one-file bundle does not need. The library
//! marks `pub` what its tests, tools and other binaries reach; in the bundle, an item used only
//! inside its own module needs none. rustc says which ones are needed: all the `pub`s of
//! items, inherent methods and fields go at once, and those that the privacy errors point at
//! come back (an item's or method's "defined here" note; a field by its struct's and its own
//! name), round after round until the bundle compiles. If a round's errors point at nothing
//! more, every `pub` comes back.
//!
//! Privacy can change what a name resolves to in one case: a method call skips an inherent
//! method it may not call and takes a trait's method of the same name. So an inherent method
//! keeps its `pub` when a trait of the bundle, or a common trait of std, has a method of its
//! name; fields keep theirs when the bundle implements `Deref` (field lookup goes through it).
//! `use` items keep their `pub` (re-exports). The bundle's comparison with the reference checks
//! the moves anyway.
//!
//! A type less visible than an item whose signature names it (a private enum as the type of a
//! `pub` field) is a warning since Rust 1.74 (lints `private_interfaces`, `private_bounds`) but
//! was an error before (E0446, "private type in public interface"): the rounds deny both lints,
//! so such a type keeps its `pub` and the bundle still compiles with Rust 1.70. Their errors
//! point at the type's definition ("only usable at visibility ..."), which brings it back.

use std::collections::BTreeSet;

use proc_macro2::{LineColumn, Span};
use quote::ToTokens;
use syn::visit::Visit;
use syn::visit_mut::{self, VisitMut};
use syn::{Fields, ImplItem, Item, Visibility};

use crate::compile::Checker;
use crate::error::{input, Result};

/// The lints that stand for Rust 1.70's error E0446 (private type in public interface).
const PRIVATE_IN_PUBLIC: [&str; 2] = ["private_interfaces", "private_bounds"];

/// The most rounds of rustc before the step gives up (and keeps every `pub`).
const MAX_ROUNDS: usize = 30;

/// Methods of std's traits an inherent method of the same name could be confused with.
const STD_TRAIT_METHODS: [&str; 40] = [
    "clone",
    "clone_from",
    "default",
    "eq",
    "ne",
    "cmp",
    "partial_cmp",
    "lt",
    "le",
    "gt",
    "ge",
    "max",
    "min",
    "clamp",
    "hash",
    "fmt",
    "next",
    "next_back",
    "len",
    "is_empty",
    "into_iter",
    "from",
    "into",
    "try_from",
    "try_into",
    "as_ref",
    "as_mut",
    "borrow",
    "borrow_mut",
    "deref",
    "deref_mut",
    "drop",
    "to_string",
    "to_owned",
    "from_str",
    "extend",
    "sum",
    "product",
    "index",
    "index_mut",
];

/// What the step removed, for the report.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct VisibilityPruned {
    /// `pub`s removed.
    pub removed: usize,
    /// `pub`s examined.
    pub candidates: usize,
    /// rustc runs.
    pub compiles: usize,
}

/// What a `pub` is on, for matching rustc's errors.
#[derive(Clone, Debug)]
enum Owner {
    /// An item or an inherent method: matched by the place of its definition, or by its name
    /// where an error says "type `name` is private" and points only at the uses.
    Definition { name: String },
    /// A field, matched by name: "field `name` of struct `owner` is private".
    Field { owner: String, name: String },
}

/// Removes from `file` the `pub`s that its code does not need; leaves it as it was when the
/// bundle does not compile without them in a few rounds.
pub fn prune_visibility(
    file: &mut syn::File,
    rustc_cmd: &str,
    env: &[(String, String)],
) -> Result<VisibilityPruned> {
    let mut guard = Guard::default();
    guard.visit_file(file);
    let mut slots = Slots::new(Mode::Collect, &guard);
    slots.visit_file_mut(file);
    let candidates: BTreeSet<usize> = slots.public.clone();
    let owners = slots.owners;
    let mut report = VisibilityPruned {
        candidates: candidates.len(),
        ..VisibilityPruned::default()
    };
    let mut checker = Checker::new(rustc_cmd, env)?;
    let mut kept = BTreeSet::new();
    for _ in 0..MAX_ROUNDS {
        let strip: BTreeSet<usize> = candidates.difference(&kept).copied().collect();
        let mut trial = file.clone();
        Slots::new(Mode::Strip(&strip), &guard).visit_file_mut(&mut trial);
        // One line of tokens, parsed again so that each span is a place in the text rustc reads.
        let text = trial.to_token_stream().to_string();
        let mut located = syn::parse_file(&text).map_err(|e| {
            input(format!(
                "--prune: the printed bundle does not parse ({e}); please report this"
            ))
        })?;
        let mut places = Slots::new(Mode::Locate, &guard);
        places.visit_file_mut(&mut located);
        let Some(errors) = errors_of(&mut checker, &text, true)? else {
            if errors_of(&mut checker, &text, false)?.is_none() {
                Slots::new(Mode::Strip(&strip), &guard).visit_file_mut(file);
                report.removed = strip.len();
            }
            report.compiles = checker.runs;
            return Ok(report);
        };
        let wanted: Vec<usize> = strip
            .iter()
            .copied()
            .filter(|slot| match &owners[slot] {
                Owner::Definition { name } => {
                    let private = format!("`{name}` is private");
                    places.ranges.get(slot).is_some_and(|&(start, end)| {
                        errors.places.iter().any(|&at| start <= at && at <= end)
                    }) || errors
                        .messages
                        .iter()
                        .any(|message| message.contains(&private))
                }
                Owner::Field { owner, name } => errors
                    .messages
                    .iter()
                    .filter_map(|message| private_fields(message))
                    .any(|(struct_name, fields)| {
                        struct_name == owner && fields.contains(&name.as_str())
                    }),
            })
            .collect();
        if wanted.is_empty() {
            break;
        }
        kept.extend(wanted);
    }
    report.compiles = checker.runs;
    Ok(report)
}

/// The struct (its name without the path) and fields of "field `f` of struct `a::S` is
/// private" or "fields `f`, `g` and `h` of struct `S` are private" (or of a union).
fn private_fields(message: &str) -> Option<(&str, Vec<&str>)> {
    let rest = message
        .strip_prefix("field ")
        .or_else(|| message.strip_prefix("fields "))?;
    let (names, owner) = rest
        .split_once(" of struct `")
        .or_else(|| rest.split_once(" of union `"))?;
    let owner = owner
        .strip_suffix("` is private")
        .or_else(|| owner.strip_suffix("` are private"))?;
    let fields = names.split('`').skip(1).step_by(2).collect();
    Some((owner.rsplit("::").next()?, fields))
}

/// A place in the text: 1-based line, 0-based character column.
type Place = (usize, usize);

fn place(at: LineColumn) -> Place {
    (at.line, at.column)
}

/// rustc's errors: every place a span of theirs (or of their notes) starts, and their messages.
struct Errors {
    places: Vec<Place>,
    messages: Vec<String>,
}

/// Checks `text`; `None` when it compiles.
fn errors_of(checker: &mut Checker, text: &str, debug_assertions: bool) -> Result<Option<Errors>> {
    let checked = checker.check_denying(text, debug_assertions, &[], &PRIVATE_IN_PUBLIC)?;
    if checked.compiles {
        return Ok(None);
    }
    let mut errors = Errors {
        places: Vec::new(),
        messages: Vec::new(),
    };
    for diagnostic in checked.errors() {
        let children = diagnostic["children"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for part in std::iter::once(diagnostic).chain(&children) {
            if let Some(message) = part["message"].as_str() {
                errors.messages.push(message.to_string());
            }
            for span in part["spans"].as_array().into_iter().flatten() {
                let line = span["line_start"].as_u64();
                let column = span["column_start"].as_u64();
                if let (Some(line), Some(column)) = (line, column) {
                    errors
                        .places
                        .push((line as usize, (column as usize).saturating_sub(1)));
                }
            }
        }
    }
    Ok(Some(errors))
}

/// What the bundle holds that makes a `pub` unsafe to remove.
#[derive(Default)]
struct Guard {
    /// Names of the methods of the bundle's traits, and of common std traits.
    trait_methods: BTreeSet<String>,
    /// The bundle implements `Deref` or `DerefMut`.
    derefs: bool,
}

impl<'ast> Visit<'ast> for Guard {
    fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
        for inner in &item.items {
            if let syn::TraitItem::Fn(f) = inner {
                self.trait_methods.insert(f.sig.ident.to_string());
            }
        }
        syn::visit::visit_item_trait(self, item);
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        if let Some((_, path, _)) = &item.trait_ {
            let name = path.segments.last().map(|s| s.ident.to_string());
            if matches!(name.as_deref(), Some("Deref" | "DerefMut")) {
                self.derefs = true;
            }
        }
        syn::visit::visit_item_impl(self, item);
    }
}

impl Guard {
    fn shadows_a_trait_method(&self, name: &str) -> bool {
        self.trait_methods.contains(name) || STD_TRAIT_METHODS.contains(&name)
    }
}

enum Mode<'a> {
    /// Note which slots are `pub` and what they are on.
    Collect,
    /// Make these slots private.
    Strip(&'a BTreeSet<usize>),
    /// Note each slot's definition range (from its first attribute or keyword to its name).
    Locate,
}

/// Every place a `pub` may be removed from, numbered in visiting order: the same numbers in
/// every copy of the tree, whatever their visibility.
struct Slots<'a> {
    mode: Mode<'a>,
    guard: &'a Guard,
    next: usize,
    public: BTreeSet<usize>,
    owners: std::collections::BTreeMap<usize, Owner>,
    ranges: std::collections::BTreeMap<usize, (Place, Place)>,
}

impl<'a> Slots<'a> {
    fn new(mode: Mode<'a>, guard: &'a Guard) -> Self {
        Slots {
            mode,
            guard,
            next: 0,
            public: BTreeSet::new(),
            owners: Default::default(),
            ranges: Default::default(),
        }
    }

    /// One slot: `vis`, the owner, and the span from the definition's start to its name.
    fn slot(&mut self, vis: &mut Visibility, owner: Owner, start: Span, name: Span) {
        let index = self.next;
        self.next += 1;
        match &self.mode {
            Mode::Collect => {
                if matches!(vis, Visibility::Public(_)) {
                    self.public.insert(index);
                    self.owners.insert(index, owner);
                }
            }
            Mode::Strip(strip) => {
                if strip.contains(&index) {
                    *vis = Visibility::Inherited;
                }
            }
            Mode::Locate => {
                self.ranges
                    .insert(index, (place(start.start()), place(name.end())));
            }
        }
    }

    fn fields(&mut self, fields: &mut Fields, owner: &syn::Ident) {
        if self.guard.derefs {
            return;
        }
        for (position, field) in fields.iter_mut().enumerate() {
            let name = field
                .ident
                .as_ref()
                .map_or(position.to_string(), |ident| ident.to_string());
            let span = field.ty.span_start();
            let owner = Owner::Field {
                owner: owner.to_string(),
                name,
            };
            self.slot(&mut field.vis, owner, span, span);
        }
    }
}

/// The span of a syntax node's first token.
trait SpanStart {
    fn span_start(&self) -> Span;
}

impl<T: ToTokens> SpanStart for T {
    fn span_start(&self) -> Span {
        self.to_token_stream()
            .into_iter()
            .next()
            .map_or_else(Span::call_site, |token| token.span())
    }
}

/// Where a definition starts: its first attribute, or the token after its visibility.
fn start_of(attrs: &[syn::Attribute], after_visibility: Span) -> Span {
    attrs
        .first()
        .map_or(after_visibility, |attr| attr.pound_token.span)
}

impl VisitMut for Slots<'_> {
    fn visit_item_mut(&mut self, item: &mut Item) {
        let definition = |name: &syn::Ident| Owner::Definition {
            name: name.to_string(),
        };
        match item {
            Item::Fn(f) => {
                let start = start_of(&f.attrs, f.sig.span_start());
                self.slot(
                    &mut f.vis,
                    definition(&f.sig.ident),
                    start,
                    f.sig.ident.span(),
                );
            }
            Item::Const(c) => {
                let start = start_of(&c.attrs, c.const_token.span);
                self.slot(&mut c.vis, definition(&c.ident), start, c.ident.span());
            }
            Item::Static(s) => {
                let start = start_of(&s.attrs, s.static_token.span);
                self.slot(&mut s.vis, definition(&s.ident), start, s.ident.span());
            }
            Item::Type(t) => {
                let start = start_of(&t.attrs, t.type_token.span);
                self.slot(&mut t.vis, definition(&t.ident), start, t.ident.span());
            }
            Item::Trait(t) => {
                let start = start_of(&t.attrs, t.trait_token.span);
                self.slot(&mut t.vis, definition(&t.ident), start, t.ident.span());
            }
            Item::Mod(m) => {
                let start = start_of(&m.attrs, m.mod_token.span);
                self.slot(&mut m.vis, definition(&m.ident), start, m.ident.span());
            }
            Item::Struct(s) => {
                let start = start_of(&s.attrs, s.struct_token.span);
                self.slot(&mut s.vis, definition(&s.ident), start, s.ident.span());
                let owner = s.ident.clone();
                self.fields(&mut s.fields, &owner);
            }
            Item::Enum(e) => {
                let start = start_of(&e.attrs, e.enum_token.span);
                self.slot(&mut e.vis, definition(&e.ident), start, e.ident.span());
            }
            Item::Impl(imp) if imp.trait_.is_none() => {
                for inner in &mut imp.items {
                    match inner {
                        ImplItem::Fn(f)
                            if !self.guard.shadows_a_trait_method(&f.sig.ident.to_string()) =>
                        {
                            let start = start_of(&f.attrs, f.sig.span_start());
                            self.slot(
                                &mut f.vis,
                                definition(&f.sig.ident),
                                start,
                                f.sig.ident.span(),
                            );
                        }
                        ImplItem::Const(c) => {
                            let start = start_of(&c.attrs, c.const_token.span);
                            self.slot(&mut c.vis, definition(&c.ident), start, c.ident.span());
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        visit_mut::visit_item_mut(self, item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pruned(source: &str) -> (String, VisibilityPruned) {
        let mut file = syn::parse_file(source).unwrap();
        let report = prune_visibility(&mut file, "rustc", &[]).unwrap();
        (prettyplease::unparse(&file), report)
    }

    #[test]
    fn keeps_the_pub_that_other_modules_need_and_drops_the_others() {
        let (text, report) = pruned(
            "pub mod a {
                pub struct S { pub used: u8, pub inner: u8 }
                pub fn make() -> S { S { used: 1, inner: helper() } }
                pub fn helper() -> u8 { 2 }
                impl S { pub fn total(&self) -> u8 { self.used + self.inner } }
            }
            fn main() { let s = a::make(); std::process::exit((s.used + s.total()) as i32); }",
        );
        for kept in ["pub struct S", "pub used", "pub fn make", "pub fn total"] {
            assert!(text.contains(kept), "{kept} lost:\n{text}");
        }
        // `main` is in the crate's root, which sees its private module `a`.
        assert!(text.starts_with("mod a {"), "{text}");
        assert!(text.contains(" inner: u8"), "{text}");
        assert!(!text.contains("pub inner"), "{text}");
        assert!(!text.contains("pub fn helper"), "{text}");
        assert_eq!(report.candidates, 7);
        assert_eq!(report.removed, 3);
    }

    #[test]
    fn a_type_named_by_a_public_field_keeps_its_pub_for_rust_1_70() {
        // The field's `pub` comes from a macro (as csb's `tunables!`), out of the step's reach;
        // only `a` names `E`. Rust 1.74 compiles `E` private (a warning), Rust 1.70 does not
        // (E0446), so `E` keeps its `pub`. (The bundle's modules are `pub`, as here: in a
        // private module rustc sees no public interface.)
        let (text, _) = pruned(
            "macro_rules! holder { ($name:ident, $t:ty) => { pub struct $name { pub e: $t } } }
            pub mod a {
                pub enum E { X, Y }
                holder!(S, E);
                pub fn make() -> S { S { e: E::Y } }
                pub fn code(s: &S) -> i32 { match s.e { E::X => 0, E::Y => one() } }
                pub fn one() -> i32 { 1 }
            }
            fn main() { let s = a::make(); std::process::exit(a::code(&s)); }",
        );
        assert!(text.contains("pub enum E"), "{text}");
        // The step still removes the `pub`s nothing needs.
        assert!(!text.contains("pub fn one"), "{text}");
    }

    #[test]
    fn an_inherent_method_named_like_a_trait_method_keeps_its_pub() {
        let (text, _) = pruned(
            "pub mod a {
                pub struct S;
                impl S { pub fn next(&self) -> u8 { 1 } pub fn own(&self) -> u8 { 2 } }
                pub fn f() -> u8 { S.next() + S.own() }
            }
            fn main() { std::process::exit(a::f() as i32); }",
        );
        assert!(text.contains("pub fn next"), "{text}");
        assert!(!text.contains("pub fn own"), "{text}");
    }

    #[test]
    fn reads_the_struct_and_fields_of_a_privacy_error() {
        let message = "field `thrust` of struct `command::Command` is private";
        assert_eq!(private_fields(message), Some(("Command", vec!["thrust"])));
        let message = "fields `map`, `actions` and `greedy` of struct `RaceContext` are private";
        let expected = Some(("RaceContext", vec!["map", "actions", "greedy"]));
        assert_eq!(private_fields(message), expected);
        assert_eq!(
            private_fields("field `0` of struct `P` is private"),
            Some(("P", vec!["0"]))
        );
        assert_eq!(private_fields("function `make` is private"), None);
    }

    #[test]
    fn a_file_that_does_not_compile_keeps_every_pub() {
        let source = "pub fn f() {} fn main() { let x: u8 = \"no\"; }";
        let (text, report) = pruned(source);
        assert!(text.contains("pub fn f"), "{text}");
        assert_eq!(report.removed, 0);
    }
}
