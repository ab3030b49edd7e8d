//! Removes from the expanded syntax tree what CodinGame never needs: tests, doc comments and
//! code behind a `cfg` that is false in the bundle.
//!
//! The bundle is compiled as a plain binary holding the code of the features it was asked for
//! (`--features`), so `cfg(test)`, `cfg(doc)`, `cfg(doctest)`, `cfg(miri)` are false and
//! `cfg(feature = "...")` is true for exactly those features; `not`, `all` and `any` are
//! evaluated over those. An item, field, variant, statement, arm or struct-literal field whose
//! `cfg` is false is removed, one whose `cfg` is true loses the attribute, one whose `cfg`
//! depends on anything else (target, `debug_assertions`) is left for rustc. `#[test]` and
//! `#[bench]` functions go too, as do all `doc` attributes (`///`, `//!`, `#[doc = ..]`).
//! Ordinary comments never reach this point: the expansion works on tokens. Macro bodies are
//! token streams and are left untouched, except csb's `tunables!` tables, which lose their docs
//! and, without feature `cli`, their flags (`tunable_tables.rs`).

use syn::punctuated::Punctuated;
use syn::visit_mut::{self, VisitMut};
use syn::{Attribute, Expr, ImplItem, Item, Meta, Stmt, Token, TraitItem};

use crate::tunable_tables;

/// What was removed, for the report.
#[derive(Debug, Default)]
pub struct Stripped {
    /// Items (and fields, statements, ...) removed for a false `cfg` or as tests.
    pub removed: usize,
    /// `doc` attributes removed (those inside `tunables!` tables included).
    pub docs: usize,
    /// Flag halves removed from the lines of `tunables!` tables.
    pub flag_halves: usize,
}

/// Strips `file` in place, keeping the code of `features` (every other feature is off).
pub fn strip(file: &mut syn::File, features: &[String]) -> Stripped {
    let mut s = Stripper {
        stats: Stripped::default(),
        features,
    };
    s.visit_file_mut(file);
    s.stats
}

struct Stripper<'a> {
    stats: Stripped,
    features: &'a [String],
}

impl Stripper<'_> {
    /// Removes doc attributes and `cfg`s known to be true; false when the owner must go.
    fn keep(&mut self, attrs: &mut Vec<Attribute>) -> bool {
        let mut keep = true;
        let mut docs = 0;
        attrs.retain(|a| {
            let path = a.path();
            if path.is_ident("doc") {
                docs += 1;
                false
            } else if path.is_ident("test") || path.is_ident("bench") {
                keep = false;
                true
            } else if path.is_ident("cfg") {
                match cfg_value(a, self.features) {
                    Some(true) => false,
                    Some(false) => {
                        keep = false;
                        true
                    }
                    None => true,
                }
            } else if path.is_ident("cfg_attr") {
                // A false condition makes the whole attribute vanish.
                cfg_attr_condition(a, self.features) != Some(false)
            } else {
                true
            }
        });
        if keep {
            self.stats.docs += docs;
        } else {
            self.stats.removed += 1;
        }
        keep
    }

    fn retain<T>(&mut self, list: &mut Vec<T>, attrs: fn(&mut T) -> Option<&mut Vec<Attribute>>) {
        list.retain_mut(|x| attrs(x).is_none_or(|a| self.keep(a)));
    }

    fn retain_punct<T, P: Default>(
        &mut self,
        list: &mut Punctuated<T, P>,
        attrs: fn(&mut T) -> &mut Vec<Attribute>,
    ) {
        let old = std::mem::take(list);
        *list = old
            .into_iter()
            .filter_map(|mut x| {
                if self.keep(attrs(&mut x)) {
                    Some(x)
                } else {
                    None
                }
            })
            .collect();
    }
}

impl VisitMut for Stripper<'_> {
    fn visit_file_mut(&mut self, f: &mut syn::File) {
        self.keep(&mut f.attrs);
        self.retain(&mut f.items, item_attrs);
        visit_mut::visit_file_mut(self, f);
    }

    fn visit_item_mod_mut(&mut self, m: &mut syn::ItemMod) {
        if let Some((_, items)) = &mut m.content {
            // Inner attributes (`//!`, `#![cfg(..)]`) of an inline module sit among its attrs.
            self.retain(items, item_attrs);
        }
        visit_mut::visit_item_mod_mut(self, m);
    }

    fn visit_item_impl_mut(&mut self, i: &mut syn::ItemImpl) {
        self.retain(&mut i.items, impl_item_attrs);
        visit_mut::visit_item_impl_mut(self, i);
    }

    fn visit_item_trait_mut(&mut self, t: &mut syn::ItemTrait) {
        self.retain(&mut t.items, trait_item_attrs);
        visit_mut::visit_item_trait_mut(self, t);
    }

    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        self.retain(&mut b.stmts, stmt_attrs);
        visit_mut::visit_block_mut(self, b);
    }

    fn visit_fields_named_mut(&mut self, f: &mut syn::FieldsNamed) {
        self.retain_punct(&mut f.named, |x| &mut x.attrs);
        visit_mut::visit_fields_named_mut(self, f);
    }

    fn visit_fields_unnamed_mut(&mut self, f: &mut syn::FieldsUnnamed) {
        self.retain_punct(&mut f.unnamed, |x| &mut x.attrs);
        visit_mut::visit_fields_unnamed_mut(self, f);
    }

    fn visit_item_enum_mut(&mut self, e: &mut syn::ItemEnum) {
        self.retain_punct(&mut e.variants, |x| &mut x.attrs);
        visit_mut::visit_item_enum_mut(self, e);
    }

    fn visit_expr_match_mut(&mut self, m: &mut syn::ExprMatch) {
        self.retain(&mut m.arms, |a| Some(&mut a.attrs));
        visit_mut::visit_expr_match_mut(self, m);
    }

    fn visit_expr_struct_mut(&mut self, s: &mut syn::ExprStruct) {
        self.retain_punct(&mut s.fields, |x| &mut x.attrs);
        visit_mut::visit_expr_struct_mut(self, s);
    }

    fn visit_macro_mut(&mut self, m: &mut syn::Macro) {
        let keep_flags = self
            .features
            .iter()
            .any(|f| f == tunable_tables::FLAG_FEATURE);
        let table = tunable_tables::strip_table(m, keep_flags);
        self.stats.docs += table.docs;
        self.stats.flag_halves += table.flag_halves;
        visit_mut::visit_macro_mut(self, m);
    }
}

/// The value of a `#[cfg(..)]` attribute in the bundle, if it is known.
fn cfg_value(attr: &Attribute, features: &[String]) -> Option<bool> {
    let Meta::List(list) = &attr.meta else {
        return None;
    };
    let pred: Meta = list.parse_args().ok()?;
    eval(&pred, features)
}

/// The condition of a `#[cfg_attr(cond, ..)]`, if it is known.
fn cfg_attr_condition(attr: &Attribute, features: &[String]) -> Option<bool> {
    let Meta::List(list) = &attr.meta else {
        return None;
    };
    let args = list
        .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
        .ok()?;
    eval(args.first()?, features)
}

/// Three-valued evaluation of a `cfg` predicate: `None` when it depends on the target.
fn eval(pred: &Meta, features: &[String]) -> Option<bool> {
    match pred {
        Meta::Path(p) => ["test", "doc", "doctest", "miri"]
            .iter()
            .any(|n| p.is_ident(n))
            .then_some(false),
        Meta::NameValue(nv) => {
            if !nv.path.is_ident("feature") {
                return None;
            }
            match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(name),
                    ..
                }) => Some(features.contains(&name.value())),
                _ => None,
            }
        }
        Meta::List(list) => {
            let args: Vec<Option<bool>> = list
                .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
                .ok()?
                .iter()
                .map(|pred| eval(pred, features))
                .collect();
            if list.path.is_ident("not") && args.len() == 1 {
                args[0].map(|b| !b)
            } else if list.path.is_ident("all") {
                if args.contains(&Some(false)) {
                    Some(false)
                } else if args.iter().all(|a| *a == Some(true)) {
                    Some(true)
                } else {
                    None
                }
            } else if list.path.is_ident("any") {
                if args.contains(&Some(true)) {
                    Some(true)
                } else if args.iter().all(|a| *a == Some(false)) {
                    Some(false)
                } else {
                    None
                }
            } else {
                None
            }
        }
    }
}

fn item_attrs(item: &mut Item) -> Option<&mut Vec<Attribute>> {
    Some(match item {
        Item::Const(i) => &mut i.attrs,
        Item::Enum(i) => &mut i.attrs,
        Item::ExternCrate(i) => &mut i.attrs,
        Item::Fn(i) => &mut i.attrs,
        Item::ForeignMod(i) => &mut i.attrs,
        Item::Impl(i) => &mut i.attrs,
        Item::Macro(i) => &mut i.attrs,
        Item::Mod(i) => &mut i.attrs,
        Item::Static(i) => &mut i.attrs,
        Item::Struct(i) => &mut i.attrs,
        Item::Trait(i) => &mut i.attrs,
        Item::TraitAlias(i) => &mut i.attrs,
        Item::Type(i) => &mut i.attrs,
        Item::Union(i) => &mut i.attrs,
        Item::Use(i) => &mut i.attrs,
        _ => return None,
    })
}

fn impl_item_attrs(item: &mut ImplItem) -> Option<&mut Vec<Attribute>> {
    Some(match item {
        ImplItem::Const(i) => &mut i.attrs,
        ImplItem::Fn(i) => &mut i.attrs,
        ImplItem::Type(i) => &mut i.attrs,
        ImplItem::Macro(i) => &mut i.attrs,
        _ => return None,
    })
}

fn trait_item_attrs(item: &mut TraitItem) -> Option<&mut Vec<Attribute>> {
    Some(match item {
        TraitItem::Const(i) => &mut i.attrs,
        TraitItem::Fn(i) => &mut i.attrs,
        TraitItem::Type(i) => &mut i.attrs,
        TraitItem::Macro(i) => &mut i.attrs,
        _ => return None,
    })
}

fn stmt_attrs(stmt: &mut Stmt) -> Option<&mut Vec<Attribute>> {
    match stmt {
        Stmt::Local(l) => Some(&mut l.attrs),
        Stmt::Item(i) => item_attrs(i),
        Stmt::Macro(m) => Some(&mut m.attrs),
        Stmt::Expr(e, _) => expr_attrs(e),
    }
}

/// Attributes of the expression kinds that commonly stand as statements.
fn expr_attrs(expr: &mut Expr) -> Option<&mut Vec<Attribute>> {
    Some(match expr {
        Expr::Assign(e) => &mut e.attrs,
        Expr::Binary(e) => &mut e.attrs,
        Expr::Block(e) => &mut e.attrs,
        Expr::Call(e) => &mut e.attrs,
        Expr::ForLoop(e) => &mut e.attrs,
        Expr::If(e) => &mut e.attrs,
        Expr::Loop(e) => &mut e.attrs,
        Expr::Macro(e) => &mut e.attrs,
        Expr::Match(e) => &mut e.attrs,
        Expr::MethodCall(e) => &mut e.attrs,
        Expr::Path(e) => &mut e.attrs,
        Expr::Return(e) => &mut e.attrs,
        Expr::Unsafe(e) => &mut e.attrs,
        Expr::While(e) => &mut e.attrs,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    fn run(src: &str) -> String {
        run_with(src, &[])
    }

    fn run_with(src: &str, features: &[&str]) -> String {
        let mut f = syn::parse_file(src).unwrap();
        let features: Vec<String> = features.iter().map(|f| f.to_string()).collect();
        strip(&mut f, &features);
        f.into_token_stream().to_string()
    }

    #[test]
    fn removes_tests_docs_and_feature_code() {
        let out = run(r#"
            //! crate doc
            /// item doc
            pub fn a() {
                #[cfg(feature = "exact")]
                let x = libm::atan2(1.0, 2.0);
                #[cfg(not(feature = "exact"))]
                let x = 1.0f64.atan2(2.0);
            }
            #[cfg(test)] mod tests { #[test] fn t() {} }
            #[test] fn loose() {}
            #[cfg(target_os = "linux")] fn kept() {}
            #[cfg(all(unix, test))] fn gone() {}
            struct S { /// f doc
                a: u8, #[cfg(test)] b: u8 }
        "#);
        assert!(!out.contains("doc"), "{out}");
        assert!(!out.contains("libm"), "{out}");
        assert!(!out.contains("tests"), "{out}");
        assert!(!out.contains("loose"), "{out}");
        assert!(!out.contains("gone"), "{out}");
        assert!(!out.contains(" b :"), "{out}");
        assert!(
            out.contains("# [cfg (target_os = \"linux\")] fn kept"),
            "{out}"
        );
        assert!(out.contains("let x = 1.0f64 . atan2"), "{out}");
        assert!(!out.contains("cfg (not"), "{out}");
    }

    #[test]
    fn the_features_asked_for_are_on_and_the_others_off() {
        let src = r#"
            #[cfg(feature = "two-pod")] mod two {}
            #[cfg(feature = "one-pod")] mod one {}
            #[cfg(not(feature = "cli"))] fn bundled() {}
            #[cfg(feature = "cli")] fn flags() {}
            #[cfg(any(feature = "one-pod", feature = "two-pod"))] fn either() {}
            #[cfg(all(feature = "two-pod", not(test)))] fn two_not_test() {}
            fn f() { match 1 { #[cfg(feature = "one-pod")] 1 => {} _ => {} } }
        "#;
        let out = run_with(src, &["two-pod"]);
        assert!(out.contains("mod two"), "{out}");
        assert!(!out.contains("mod one"), "{out}");
        assert!(out.contains("fn bundled"), "{out}");
        assert!(!out.contains("fn flags"), "{out}");
        assert!(out.contains("fn either"), "{out}");
        assert!(out.contains("fn two_not_test"), "{out}");
        assert!(!out.contains("1 =>"), "{out}");
        assert!(
            !out.contains("cfg"),
            "true cfgs lose their attribute: {out}"
        );
        let out = run_with(src, &[]);
        assert!(
            !out.contains("fn either") && !out.contains("mod two"),
            "{out}"
        );
    }
}
