//! `--rename`: gives the names the bundle defines for itself short new ones (`a`, `B`, `cd`),
//! the most frequent the shortest. No scopes are needed: the renaming is one map from a name to
//! a new name, injective, applied to every occurrence of that name in the file (paths, fields,
//! methods, patterns, macro bodies and invocations, the names a format string reads), so that
//! what was the same name is again the same name and what differed still differs; a new name is
//! none of the file's other names, no keyword and no name of `std` (`name_pool`), so nothing
//! can newly resolve to something else.
//!
//! Renamed: the names of items, fields, variants, inherent methods and associated items,
//! generics, `use .. as` names and lowercase pattern bindings (locals, parameters), and, when
//! they are not names of `std`, the items of the bundle's own traits (a method named like one
//! of `std` could be called instead of it) and the names inside the bundle's own macros (their
//! definitions and invocations) and capitalised patterns (a constant or a variant). Never
//! renamed: keywords, primitive types, `main`, lifetimes and labels, anything inside
//! attributes, names of macros that the bundle does not define, names in paths that start at
//! `std`, `core` or `alloc`, the items of trait impls (their trait's names) and the names of types
//! that derive `Debug` with their fields and variants (what `{:?}` prints stays the same).
//!
//! A name that is both the bundle's and one of `std`'s used elsewhere (a method `len` of the
//! bundle's, and `Vec::len`) breaks the build once renamed: rustc's errors name it, it is kept,
//! and the renaming starts again from the original tree (rounds, bounded). The bundle's own
//! checks (compiles alone, same output as the binary) then prove the result.

use std::collections::{BTreeMap, BTreeSet};
use std::str::FromStr;

use proc_macro2::{Delimiter, Group, Literal, TokenStream, TokenTree};
use quote::ToTokens;
use syn::visit::{self, Visit};
use syn::visit_mut::{self, VisitMut};

use crate::compile::Checker;
use crate::error::Result;
use crate::format_strings::{format_string_argument, rename_in_format_string};
use crate::name_pool::{is_reserved, is_std_name, NamePool};

/// The most rounds of rustc: each round keeps the names the last one's errors named.
const MAX_ROUNDS: usize = 12;

/// What the step did, for the report.
#[derive(Debug, Default)]
pub struct Renamed {
    /// Old name -> new name, as applied.
    pub names: BTreeMap<String, String>,
    /// Names kept because renaming them broke the build.
    pub kept_by_rustc: BTreeSet<String>,
    /// Rounds of rustc run.
    pub rounds: usize,
    /// Why nothing was renamed, when no round compiled.
    pub stopped: Option<String>,
}

/// Renames the names `file` defines, checking the result with `rustc_cmd` (split on
/// whitespace) and the compile-time variables `env`; `file` is left as it was when no round
/// compiles.
pub fn rename(file: &mut syn::File, rustc_cmd: &str, env: &[(String, String)]) -> Result<Renamed> {
    let original = file.clone();
    let names = Names::of(&original);
    let mut checker = Checker::new(rustc_cmd, env)?;
    let mut renamed = Renamed::default();
    while renamed.rounds < MAX_ROUNDS {
        renamed.rounds += 1;
        let map = names.map(&renamed.kept_by_rustc);
        let mut candidate = original.clone();
        apply(&mut candidate, &map);
        let text = candidate.to_token_stream().to_string();
        let mut blamed = BTreeSet::new();
        for debug_assertions in [true, false] {
            let checked = checker.check(&text, debug_assertions, &[])?;
            if checked.compiles {
                continue;
            }
            let new_to_old: BTreeMap<&str, &str> = map
                .iter()
                .map(|(old, new)| (new.as_str(), old.as_str()))
                .collect();
            for error in checked.errors() {
                blamed.extend(blamed_names(error, &new_to_old, &map));
            }
            if blamed.is_empty() {
                let first = checked
                    .errors()
                    .next()
                    .and_then(|e| e["message"].as_str())
                    .unwrap_or("no message")
                    .to_string();
                renamed.stopped = Some(format!(
                    "the renamed bundle does not compile and the error names no renamed name \
                     ({first}); nothing renamed"
                ));
                return Ok(renamed);
            }
            break;
        }
        if blamed.is_empty() {
            *file = candidate;
            renamed.names = map;
            return Ok(renamed);
        }
        renamed.kept_by_rustc.extend(blamed);
    }
    renamed.stopped = Some(format!(
        "the renamed bundle still does not compile after {MAX_ROUNDS} rounds; nothing renamed"
    ));
    Ok(renamed)
}

/// `text` (a module path as the size table prints it, `a::b`) with each renamed segment given
/// its old name back.
pub fn original_path(text: &str, names: &BTreeMap<String, String>) -> String {
    let new_to_old: BTreeMap<&str, &str> = names
        .iter()
        .map(|(old, new)| (new.as_str(), old.as_str()))
        .collect();
    text.split("::")
        .map(|segment| *new_to_old.get(segment).unwrap_or(&segment))
        .collect::<Vec<_>>()
        .join("::")
}

/// The old names an error of rustc points at: the names between backticks in its messages
/// (new names mapped back, old ones as they are), else the names in the code it underlines.
fn blamed_names(
    error: &serde_json::Value,
    new_to_old: &BTreeMap<&str, &str>,
    map: &BTreeMap<String, String>,
) -> BTreeSet<String> {
    let mut quoted = String::new();
    let mut underlined = String::new();
    collect_texts(error, &mut quoted, &mut underlined);
    let of = |text: &str| -> BTreeSet<String> {
        words(text)
            .filter_map(|word| {
                new_to_old
                    .get(word)
                    .map(|old| old.to_string())
                    .or_else(|| map.contains_key(word).then(|| word.to_string()))
            })
            .collect()
    };
    let from_messages = of(&quoted);
    if from_messages.is_empty() {
        of(&underlined)
    } else {
        from_messages
    }
}

/// Appends the backticked parts of every message and label of `diagnostic` (and its children)
/// to `quoted`, and the code its spans underline to `underlined`.
fn collect_texts(diagnostic: &serde_json::Value, quoted: &mut String, underlined: &mut String) {
    let mut quote_of = |text: &str| {
        // A name alone between backticks (`len`), not a type (`Iter<'a, T>`) whose
        // parameters are std's names.
        for (index, part) in text.split('`').enumerate() {
            if index % 2 == 1 && part.chars().all(|c| c.is_alphanumeric() || c == '_') {
                quoted.push_str(part);
                quoted.push(' ');
            }
        }
    };
    if let Some(message) = diagnostic["message"].as_str() {
        quote_of(message);
    }
    for span in diagnostic["spans"].as_array().into_iter().flatten() {
        if let Some(label) = span["label"].as_str() {
            quote_of(label);
        }
        for line in span["text"].as_array().into_iter().flatten() {
            let text = line["text"].as_str().unwrap_or("");
            let start = line["highlight_start"].as_u64().unwrap_or(1) as usize;
            let end = line["highlight_end"].as_u64().unwrap_or(1) as usize;
            let highlighted: String = text
                .chars()
                .skip(start.saturating_sub(1))
                .take(end.saturating_sub(start))
                .collect();
            underlined.push_str(&highlighted);
            underlined.push(' ');
        }
    }
    for child in diagnostic["children"].as_array().into_iter().flatten() {
        collect_texts(child, quoted, underlined);
    }
}

/// The identifier-like words of `text`.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_alphabetic() || c == '_'))
}

/// What a file says about its names.
struct Names {
    /// Every name of the file (lifetimes aside) and how often it occurs.
    counts: BTreeMap<String, usize>,
    /// Names the file defines, renamed even when `std` has the name.
    defined: BTreeSet<String>,
    /// Names renamed only when `std` lacks them.
    guarded: BTreeSet<String>,
    /// Names never renamed.
    kept: BTreeSet<String>,
}

impl Names {
    fn of(file: &syn::File) -> Names {
        let mut macros = MacroNames::default();
        macros.visit_file(file);
        let mut collector = Collector {
            crate_macros: macros.0,
            defined: BTreeSet::new(),
            guarded: BTreeSet::new(),
            kept: BTreeSet::new(),
            in_trait_impl: false,
        };
        collector.visit_file(file);
        let mut counts = BTreeMap::new();
        count_names(file.to_token_stream(), &mut counts);
        Names {
            counts,
            defined: collector.defined,
            guarded: collector.guarded,
            kept: collector.kept,
        }
    }

    /// The renaming, without the names of `kept_too`.
    fn map(&self, kept_too: &BTreeSet<String>) -> BTreeMap<String, String> {
        let renamable = |name: &String| {
            !is_reserved(name)
                && !self.kept.contains(name)
                && !kept_too.contains(name)
                && !name.starts_with("r#")
                && name.len() > 1
                && self.counts.contains_key(name)
                && !(is_std_name(name)
                    && (self.guarded.contains(name) || !self.defined.contains(name)))
        };
        let mut chosen: Vec<&String> = self
            .defined
            .iter()
            .chain(&self.guarded)
            .filter(|name| renamable(name))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        // The most characters saved first: occurrences, then the longer name.
        chosen.sort_by(|a, b| {
            let count = |name: &String| self.counts.get(name).copied().unwrap_or(0);
            count(b)
                .cmp(&count(a))
                .then(b.len().cmp(&a.len()))
                .then(a.cmp(b))
        });
        let chosen_set: BTreeSet<&String> = chosen.iter().copied().collect();
        let taken: BTreeSet<String> = self
            .counts
            .keys()
            .filter(|name| !chosen_set.contains(name))
            .cloned()
            .collect();
        let mut pool = NamePool::new(&taken);
        let mut map = BTreeMap::new();
        for name in chosen {
            let Some(new) = pool.next_like(name) else {
                break;
            };
            map.insert(name.clone(), new);
        }
        map
    }
}

/// Counts the names of `tokens`, not those of lifetimes and labels.
fn count_names(tokens: TokenStream, counts: &mut BTreeMap<String, usize>) {
    let mut after_quote = false;
    for tree in tokens {
        match &tree {
            TokenTree::Ident(ident) if !after_quote => {
                *counts.entry(ident.to_string()).or_default() += 1;
            }
            TokenTree::Group(group) => count_names(group.stream(), counts),
            _ => {}
        }
        after_quote = matches!(&tree, TokenTree::Punct(p) if p.as_char() == '\'');
    }
}

/// The names of the file's `macro_rules!`.
#[derive(Default)]
struct MacroNames(BTreeSet<String>);

impl<'ast> Visit<'ast> for MacroNames {
    fn visit_item_macro(&mut self, item: &'ast syn::ItemMacro) {
        if let Some(ident) = &item.ident {
            self.0.insert(ident.to_string());
        }
        visit::visit_item_macro(self, item);
    }
}

/// Sorts the file's names into defined, guarded and kept (see `Names`).
struct Collector {
    crate_macros: BTreeSet<String>,
    defined: BTreeSet<String>,
    guarded: BTreeSet<String>,
    kept: BTreeSet<String>,
    in_trait_impl: bool,
}

impl Collector {
    fn define(&mut self, ident: &syn::Ident) {
        self.defined.insert(ident.to_string());
    }

    /// The names of a crate macro's tokens are guarded; those of attributes in them kept.
    fn guard_tokens(&mut self, tokens: &TokenStream) {
        let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
        for (index, tree) in trees.iter().enumerate() {
            match tree {
                TokenTree::Ident(ident) if !after_quote(&trees, index) => {
                    self.guarded.insert(ident.to_string());
                }
                TokenTree::Group(group) if is_attribute(&trees, index) => {
                    keep_attribute_names(group.stream(), &mut self.kept);
                }
                TokenTree::Group(group) => {
                    if let Some(name) = invoked_macro(&trees, index) {
                        if !self.crate_macros.contains(&name) {
                            self.kept.insert(name);
                        }
                    }
                    self.guard_tokens(&group.stream());
                }
                _ => {}
            }
        }
    }

    /// A type deriving `Debug` prints its names: they stay.
    fn keep_if_debug(&mut self, attrs: &[syn::Attribute], names: impl Iterator<Item = String>) {
        let debug = attrs.iter().any(|attr| {
            attr.path().is_ident("derive")
                && attr
                    .meta
                    .to_token_stream()
                    .into_iter()
                    .any(|t| matches!(&t, TokenTree::Group(g) if g.stream().to_string().split(|c: char| !c.is_alphanumeric()).any(|w| w == "Debug")))
        });
        if debug {
            self.kept.extend(names);
        }
    }
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        keep_attribute_names(attr.meta.to_token_stream(), &mut self.kept);
    }

    fn visit_lifetime(&mut self, _: &'ast syn::Lifetime) {}

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.define(&item.sig.ident);
        visit::visit_item_fn(self, item);
    }

    fn visit_item_struct(&mut self, item: &'ast syn::ItemStruct) {
        self.define(&item.ident);
        let names = std::iter::once(item.ident.to_string()).chain(
            item.fields
                .iter()
                .filter_map(|f| f.ident.as_ref().map(|i| i.to_string())),
        );
        self.keep_if_debug(&item.attrs, names);
        visit::visit_item_struct(self, item);
    }

    fn visit_item_enum(&mut self, item: &'ast syn::ItemEnum) {
        self.define(&item.ident);
        let names =
            std::iter::once(item.ident.to_string()).chain(item.variants.iter().flat_map(|v| {
                std::iter::once(v.ident.to_string()).chain(
                    v.fields
                        .iter()
                        .filter_map(|f| f.ident.as_ref().map(|i| i.to_string())),
                )
            }));
        self.keep_if_debug(&item.attrs, names.collect::<Vec<_>>().into_iter());
        visit::visit_item_enum(self, item);
    }

    fn visit_item_union(&mut self, item: &'ast syn::ItemUnion) {
        self.define(&item.ident);
        visit::visit_item_union(self, item);
    }

    fn visit_item_type(&mut self, item: &'ast syn::ItemType) {
        self.define(&item.ident);
        visit::visit_item_type(self, item);
    }

    fn visit_item_const(&mut self, item: &'ast syn::ItemConst) {
        self.define(&item.ident);
        visit::visit_item_const(self, item);
    }

    fn visit_item_static(&mut self, item: &'ast syn::ItemStatic) {
        self.define(&item.ident);
        visit::visit_item_static(self, item);
    }

    fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
        self.define(&item.ident);
        visit::visit_item_trait(self, item);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.define(&item.ident);
        visit::visit_item_mod(self, item);
    }

    fn visit_item_macro(&mut self, item: &'ast syn::ItemMacro) {
        for attr in &item.attrs {
            self.visit_attribute(attr);
        }
        match &item.ident {
            // A `macro_rules!` of the bundle.
            Some(ident) => {
                self.define(ident);
                self.guard_tokens(&item.mac.tokens);
            }
            None => self.visit_macro(&item.mac),
        }
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        let outer = self.in_trait_impl;
        self.in_trait_impl = item.trait_.is_some();
        visit::visit_item_impl(self, item);
        self.in_trait_impl = outer;
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        if !self.in_trait_impl {
            self.define(&item.sig.ident);
        }
        visit::visit_impl_item_fn(self, item);
    }

    fn visit_impl_item_const(&mut self, item: &'ast syn::ImplItemConst) {
        if !self.in_trait_impl {
            self.define(&item.ident);
        }
        visit::visit_impl_item_const(self, item);
    }

    fn visit_impl_item_type(&mut self, item: &'ast syn::ImplItemType) {
        if !self.in_trait_impl {
            self.define(&item.ident);
        }
        visit::visit_impl_item_type(self, item);
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        self.guarded.insert(item.sig.ident.to_string());
        visit::visit_trait_item_fn(self, item);
    }

    fn visit_trait_item_const(&mut self, item: &'ast syn::TraitItemConst) {
        self.guarded.insert(item.ident.to_string());
        visit::visit_trait_item_const(self, item);
    }

    fn visit_trait_item_type(&mut self, item: &'ast syn::TraitItemType) {
        self.guarded.insert(item.ident.to_string());
        visit::visit_trait_item_type(self, item);
    }

    fn visit_field(&mut self, field: &'ast syn::Field) {
        if let Some(ident) = &field.ident {
            self.define(ident);
        }
        visit::visit_field(self, field);
    }

    fn visit_variant(&mut self, variant: &'ast syn::Variant) {
        self.define(&variant.ident);
        visit::visit_variant(self, variant);
    }

    fn visit_type_param(&mut self, param: &'ast syn::TypeParam) {
        self.define(&param.ident);
        visit::visit_type_param(self, param);
    }

    fn visit_const_param(&mut self, param: &'ast syn::ConstParam) {
        self.define(&param.ident);
        visit::visit_const_param(self, param);
    }

    fn visit_use_rename(&mut self, rename: &'ast syn::UseRename) {
        self.define(&rename.rename);
    }

    fn visit_pat_ident(&mut self, pat: &'ast syn::PatIdent) {
        // `x` binds; `None` or `MAX` may name a variant or a constant of `std`.
        if pat
            .ident
            .to_string()
            .starts_with(|c: char| c.is_lowercase() || c == '_')
        {
            self.define(&pat.ident);
        } else {
            self.guarded.insert(pat.ident.to_string());
        }
        visit::visit_pat_ident(self, pat);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let from_std = path.segments.first().is_some_and(|first| {
            path.segments.len() > 1
                && ["std", "core", "alloc"].contains(&first.ident.to_string().as_str())
        });
        if from_std {
            self.kept
                .extend(path.segments.iter().map(|s| s.ident.to_string()));
        }
        visit::visit_path(self, path);
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if let syn::UseTree::Path(root) = &item.tree {
            if ["std", "core", "alloc"].contains(&root.ident.to_string().as_str()) {
                keep_attribute_names(item.tree.to_token_stream(), &mut self.kept);
                return;
            }
        }
        visit::visit_item_use(self, item);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if self.crate_macros.contains(&name) {
            self.guard_tokens(&mac.tokens);
        } else {
            self.kept.insert(name);
            // The invocation's own tokens are the bundle's expressions: macros inside them are
            // still looked at.
            self.keep_macro_names(&mac.tokens);
        }
        visit::visit_macro(self, mac);
    }
}

impl Collector {
    /// Keeps the names of the macros invoked in `tokens` that the bundle does not define.
    fn keep_macro_names(&mut self, tokens: &TokenStream) {
        let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
        for (index, tree) in trees.iter().enumerate() {
            if let TokenTree::Group(group) = tree {
                if let Some(name) = invoked_macro(&trees, index) {
                    if !self.crate_macros.contains(&name) {
                        self.kept.insert(name);
                    }
                }
                self.keep_macro_names(&group.stream());
            }
        }
    }
}

/// Keeps every name of an attribute's tokens, but `$x` (a macro's metavariable).
fn keep_attribute_names(tokens: TokenStream, kept: &mut BTreeSet<String>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    for (index, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Ident(ident) if !after_dollar(&trees, index) => {
                kept.insert(ident.to_string());
            }
            TokenTree::Group(group) => keep_attribute_names(group.stream(), kept),
            _ => {}
        }
    }
}

fn after_quote(trees: &[TokenTree], index: usize) -> bool {
    index > 0 && matches!(&trees[index - 1], TokenTree::Punct(p) if p.as_char() == '\'')
}

fn after_dollar(trees: &[TokenTree], index: usize) -> bool {
    index > 0 && matches!(&trees[index - 1], TokenTree::Punct(p) if p.as_char() == '$')
}

/// Whether the group at `index` is an attribute's brackets (`#[..]`, `#![..]`).
fn is_attribute(trees: &[TokenTree], index: usize) -> bool {
    let TokenTree::Group(group) = &trees[index] else {
        return false;
    };
    let hash = |i: usize| matches!(&trees[i], TokenTree::Punct(p) if p.as_char() == '#');
    let bang = |i: usize| matches!(&trees[i], TokenTree::Punct(p) if p.as_char() == '!');
    group.delimiter() == Delimiter::Bracket
        && index > 0
        && (hash(index - 1) || (index > 1 && bang(index - 1) && hash(index - 2)))
}

/// The name of the macro whose arguments the group at `index` holds (`name!(..)`), if any.
fn invoked_macro(trees: &[TokenTree], index: usize) -> Option<String> {
    if index < 2 {
        return None;
    }
    match (&trees[index - 2], &trees[index - 1]) {
        (TokenTree::Ident(name), TokenTree::Punct(bang)) if bang.as_char() == '!' => {
            Some(name.to_string())
        }
        _ => None,
    }
}

/// Applies `map` to every name of `file` but lifetimes and attributes.
fn apply(file: &mut syn::File, map: &BTreeMap<String, String>) {
    Applier { map }.visit_file_mut(file);
}

struct Applier<'a> {
    map: &'a BTreeMap<String, String>,
}

impl Applier<'_> {
    fn new_ident(&self, ident: &proc_macro2::Ident) -> Option<proc_macro2::Ident> {
        self.map
            .get(&ident.to_string())
            .map(|new| proc_macro2::Ident::new(new, ident.span()))
    }

    /// `tokens` renamed; `format_argument`: which argument is a format string (a `std`
    /// formatting macro's).
    fn tokens(&self, tokens: TokenStream, format_argument: Option<usize>) -> TokenStream {
        let mut trees: Vec<TokenTree> = tokens.into_iter().collect();
        if let Some(position) = format_argument {
            self.format_string(&mut trees, position);
        }
        let mut out = Vec::with_capacity(trees.len());
        for index in 0..trees.len() {
            let tree = match &trees[index] {
                TokenTree::Ident(ident) if !after_quote(&trees, index) => {
                    TokenTree::Ident(self.new_ident(ident).unwrap_or_else(|| ident.clone()))
                }
                TokenTree::Group(group) if is_attribute(&trees, index) => {
                    regroup(group, self.metavariables(group.stream()))
                }
                TokenTree::Group(group) => {
                    let inner =
                        invoked_macro(&trees, index).and_then(|name| format_string_argument(&name));
                    regroup(group, self.tokens(group.stream(), inner))
                }
                other => other.clone(),
            };
            out.push(tree);
        }
        out.into_iter().collect()
    }

    /// Only the `$x` of an attribute inside a macro are renamed.
    fn metavariables(&self, tokens: TokenStream) -> TokenStream {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let mut out = Vec::with_capacity(trees.len());
        for index in 0..trees.len() {
            out.push(match &trees[index] {
                TokenTree::Ident(ident) if after_dollar(&trees, index) => {
                    TokenTree::Ident(self.new_ident(ident).unwrap_or_else(|| ident.clone()))
                }
                TokenTree::Group(group) => regroup(group, self.metavariables(group.stream())),
                other => other.clone(),
            });
        }
        out.into_iter().collect()
    }

    /// Renames the names read by the string literal that is argument `position` of `trees`.
    fn format_string(&self, trees: &mut [TokenTree], position: usize) {
        let mut argument = 0;
        let mut start = 0;
        for index in 0..=trees.len() {
            let at_comma = index == trees.len()
                || matches!(&trees[index], TokenTree::Punct(p) if p.as_char() == ',');
            if !at_comma {
                continue;
            }
            if argument == position {
                if index == start + 1 {
                    if let TokenTree::Literal(literal) = &trees[start] {
                        if let Some(new) = rename_in_format_string(&literal.to_string(), self.map) {
                            if let Ok(mut new) = Literal::from_str(&new) {
                                new.set_span(literal.span());
                                trees[start] = TokenTree::Literal(new);
                            }
                        }
                    }
                }
                return;
            }
            argument += 1;
            start = index + 1;
        }
    }
}

fn regroup(group: &Group, stream: TokenStream) -> TokenTree {
    let mut new = Group::new(group.delimiter(), stream);
    new.set_span(group.span());
    TokenTree::Group(new)
}

impl VisitMut for Applier<'_> {
    fn visit_ident_mut(&mut self, ident: &mut proc_macro2::Ident) {
        if let Some(new) = self.new_ident(ident) {
            *ident = new;
        }
    }

    fn visit_lifetime_mut(&mut self, _: &mut syn::Lifetime) {}

    fn visit_attribute_mut(&mut self, _: &mut syn::Attribute) {}

    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        visit_mut::visit_path_mut(self, &mut mac.path);
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        let tokens = std::mem::take(&mut mac.tokens);
        mac.tokens = self.tokens(tokens, format_string_argument(&name));
    }

    fn visit_item_mut(&mut self, item: &mut syn::Item) {
        match item {
            syn::Item::Verbatim(tokens) => *tokens = self.tokens(std::mem::take(tokens), None),
            _ => visit_mut::visit_item_mut(self, item),
        }
    }

    fn visit_impl_item_mut(&mut self, item: &mut syn::ImplItem) {
        match item {
            syn::ImplItem::Verbatim(tokens) => *tokens = self.tokens(std::mem::take(tokens), None),
            _ => visit_mut::visit_impl_item_mut(self, item),
        }
    }

    fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
        match expr {
            syn::Expr::Verbatim(tokens) => *tokens = self.tokens(std::mem::take(tokens), None),
            _ => visit_mut::visit_expr_mut(self, expr),
        }
    }
}

#[cfg(test)]
mod tests {
    //! Each case is a small program compiled and run with rustc before and after the renaming:
    //! the same output, and the names the case is about renamed or kept.

    use super::*;
    use std::process::Command;

    /// The program's stdout, built with `rustc -O`.
    fn run(text: &str) -> String {
        let compiled =
            crate::compile::compile(text, "rustc", crate::compile::Profile::Release, &[], &[])
                .unwrap_or_else(|e| panic!("does not compile: {e}\n{text}"));
        let out = Command::new(&compiled.binary).output().unwrap();
        assert!(out.status.success(), "{text}");
        String::from_utf8(out.stdout).unwrap()
    }

    /// The renamed program and what the step did, after checking that it prints what `source`
    /// prints.
    fn renamed(source: &str) -> (String, Renamed) {
        let mut file = syn::parse_file(source).unwrap();
        let before = run(&prettyplease::unparse(&file));
        let renamed = rename(&mut file, "rustc", &[]).unwrap();
        assert_eq!(renamed.stopped, None);
        let text = prettyplease::unparse(&file);
        assert_eq!(run(&text), before, "{text}");
        (text, renamed)
    }

    fn has_word(text: &str, word: &str) -> bool {
        words(text).any(|w| w == word)
    }

    #[test]
    fn names_in_plain_strings_stay() {
        let (text, names) = renamed(
            r#"fn main() { let message_text = "message_text and total_count"; let total_count = 2; println!("{} {}", message_text, total_count); }"#,
        );
        assert!(names.names.contains_key("message_text"), "{text}");
        assert!(text.contains(r#""message_text and total_count""#), "{text}");
    }

    #[test]
    fn names_a_format_string_reads_are_renamed() {
        let (text, names) = renamed(
            r#"fn main() { let total_score = 5.25; let field_width = 9; let digits = 1; println!("[{total_score:>field_width$.digits$}] {total_score:?} {{total_score}}"); let text = format!("{field_width}"); print!("{text}"); }"#,
        );
        assert_eq!(text.matches("total_score").count(), 1, "{text}");
        assert!(
            text.contains("{{total_score}}"),
            "escaped braces are text: {text}"
        );
        assert!(names.names.contains_key("field_width"), "{text}");
    }

    #[test]
    fn a_macro_of_the_bundle_and_the_names_inside_it_are_renamed_together() {
        let (text, _) = renamed(
            r#"struct Counter { hits: u32 }
            fn bump_counter(counter: &mut Counter) { counter.hits += 1; }
            macro_rules! bump_twice { ($target:expr) => { bump_counter($target); bump_counter($target); }; }
            fn main() { let mut counter = Counter { hits: 0 }; bump_twice!(&mut counter); println!("{}", counter.hits); }"#,
        );
        for old in ["bump_counter", "bump_twice", "target", "hits", "Counter"] {
            assert!(!has_word(&text, old), "{old}: {text}");
        }
        assert!(text.contains(":expr"), "fragment specifiers stay: {text}");
    }

    #[test]
    fn shadowed_names_keep_their_scopes() {
        let (text, _) = renamed(
            r#"fn main() { let level = 1; let level = level + 1; { let level = "inner"; println!("{level}"); } let add_level = |level: i32| level * 10; println!("{} {}", level, add_level(level)); }"#,
        );
        assert!(!has_word(&text, "level"), "{text}");
    }

    #[test]
    fn field_shorthand_stays_a_field_and_a_local() {
        let (text, _) = renamed(
            r#"struct Point { xpos: i32, ypos: i32 }
            fn main() { let xpos = 3; let ypos = 4; let point = Point { xpos, ypos }; let Point { xpos, .. } = point; println!("{} {}", xpos, point.ypos); }"#,
        );
        assert!(
            !has_word(&text, "xpos") && !has_word(&text, "ypos"),
            "{text}"
        );
    }

    #[test]
    fn trait_methods_of_the_bundle_are_renamed_and_those_of_std_traits_kept() {
        let (text, _) = renamed(
            r#"use std::fmt;
            trait Shape { fn area_of(&self) -> f64; }
            struct Square { side: f64 }
            impl Shape for Square { fn area_of(&self) -> f64 { self.side * self.side } }
            impl fmt::Display for Square { fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "square {}", self.side) } }
            struct Countdown { left: u32 }
            impl Iterator for Countdown { type Item = u32; fn next(&mut self) -> Option<u32> { if self.left == 0 { None } else { self.left -= 1; Some(self.left) } } }
            fn main() { let square = Square { side: 2.0 }; println!("{} {}", square, square.area_of()); let all: Vec<u32> = Countdown { left: 3 }.map(|n| n * 2).collect(); println!("{:?}", all); }"#,
        );
        assert!(
            !has_word(&text, "area_of") && !has_word(&text, "Shape"),
            "{text}"
        );
        assert!(
            text.contains("fn fmt(") && text.contains("fn next("),
            "{text}"
        );
        assert!(text.contains("type Item"), "{text}");
    }

    #[test]
    fn names_std_also_has_stay_where_the_build_or_method_calls_need_them() {
        let (text, names) = renamed(
            r#"struct Stack { items: Vec<u32> }
            impl Stack { pub fn new() -> Stack { Stack { items: Vec::new() } } pub fn len(&self) -> usize { self.items.len() } }
            trait Clip { fn max(self, other: f64) -> f64; }
            impl Clip for f64 { fn max(self, _other: f64) -> f64 { 1000.0 } }
            #[derive(Debug)] struct Settings { depth_limit: u32 }
            fn main() { let mut stack = Stack::new(); stack.items.push(4); let ratio: f64 = 2.0; println!("{} {} {:?}", stack.len(), ratio.max(3.0), Settings { depth_limit: 7 }); }"#,
        );
        // `Vec::new` and `Vec::len` are std's: renaming `new`, `len` broke the build.
        assert!(names.kept_by_rustc.contains("len"), "{names:?}");
        assert!(
            text.contains("Vec::new()") && text.contains(".len()"),
            "{text}"
        );
        // `f64::max` is inherent and wins over the trait; renamed, the trait's would be called.
        assert!(text.contains(".max(3.0)"), "{text}");
        // `{:?}` prints the names of a type deriving Debug.
        assert!(
            text.contains("Settings") && text.contains("depth_limit"),
            "{text}"
        );
        assert!(!has_word(&text, "Stack"), "{text}");
    }

    #[test]
    fn the_size_table_gets_the_old_module_names_back() {
        let names: BTreeMap<String, String> = [("search", "a"), ("puct", "Bc")]
            .iter()
            .map(|(old, new)| (old.to_string(), new.to_string()))
            .collect();
        assert_eq!(original_path("a::Bc", &names), "search::puct");
        assert_eq!(original_path("(root)", &names), "(root)");
    }
}
