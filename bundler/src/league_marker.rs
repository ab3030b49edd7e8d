//! The bundle-time league setting: rewrites the one marked constant
//! `pub const <MARKER>: League = League::<Variant>;` to the chosen variant.
//!
//! Works on the syntax tree after tests are stripped, so a copy inside `#[cfg(test)]` code or a
//! comment never counts; exactly one such constant must remain.

use syn::visit_mut::{self, VisitMut};

use crate::error::{input, Result};

/// Sets the marked constant to `variant`; fails (unusable input, exit 2) unless exactly one
/// exists and its value is a path like `League::Legend`. Returns the variant it replaced.
pub fn set(file: &mut syn::File, marker: &str, variant: &str) -> Result<String> {
    let mut setter = Setter {
        marker,
        variant,
        found: Vec::new(),
    };
    setter.visit_file_mut(file);
    match setter.found.as_slice() {
        [Ok(old)] => Ok(old.clone()),
        [Err(e)] => Err(input(e.clone())),
        [] => Err(input(format!(
            "league marker not found: no `pub const {marker}: League = League::<Variant>;` in the \
             bundle (needed by --league)"
        ))),
        many => Err(input(format!(
            "league marker `{marker}` found {} times; it must be defined exactly once",
            many.len()
        ))),
    }
}

struct Setter<'a> {
    marker: &'a str,
    variant: &'a str,
    found: Vec<std::result::Result<String, String>>,
}

impl VisitMut for Setter<'_> {
    fn visit_item_const_mut(&mut self, c: &mut syn::ItemConst) {
        if c.ident == self.marker {
            let outcome = match &mut *c.expr {
                syn::Expr::Path(p) if p.path.segments.len() >= 2 => {
                    let last = p.path.segments.last_mut().expect("two segments");
                    let old = last.ident.to_string();
                    last.ident = syn::Ident::new(self.variant, last.ident.span());
                    Ok(old)
                }
                _ => Err(format!(
                    "league marker `{}` has a value that is not `League::<Variant>`",
                    self.marker
                )),
            };
            self.found.push(outcome);
        }
        visit_mut::visit_item_const_mut(self, c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    #[test]
    fn replaces_the_single_marker() {
        let mut f = syn::parse_file(
            "pub enum League { Gold, Legend } pub const BUNDLED_LEAGUE: League = League::Legend;",
        )
        .unwrap();
        assert_eq!(set(&mut f, "BUNDLED_LEAGUE", "Gold").unwrap(), "Legend");
        assert!(f
            .into_token_stream()
            .to_string()
            .contains("League :: Gold ;"));
    }

    #[test]
    fn missing_or_duplicate_marker_fails() {
        let mut f = syn::parse_file("const X: u8 = 1;").unwrap();
        assert!(set(&mut f, "BUNDLED_LEAGUE", "Gold").is_err());
        let mut f =
            syn::parse_file("mod a { pub const M: L = L::A; } mod b { pub const M: L = L::B; }")
                .unwrap();
        let e = set(&mut f, "M", "Gold").unwrap_err().to_string();
        assert!(e.contains("2 times"), "{e}");
    }
}
