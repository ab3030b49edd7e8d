//! Puts back the inner attributes (`#![..]`) that `rust_bundler_cp` drops: those of `lib.rs`
//! become the bundle's crate attributes, those of a module file become outer attributes of its
//! now-inline `mod`. So `#![cfg(test)]` at the top of a module file still removes it, and
//! `#![allow(..)]` still applies. Lints about documentation are left out, since the bundle has
//! none.

use quote::ToTokens;

/// Restores `attrs` (module path, inner attributes) into the expanded `file`.
pub fn restore(file: &mut syn::File, attrs: &[(Vec<String>, Vec<syn::Attribute>)]) {
    for (path, list) in attrs {
        let list: Vec<syn::Attribute> = list
            .iter()
            .filter(|a| !a.to_token_stream().to_string().contains("missing_docs"))
            .cloned()
            .collect();
        if path.is_empty() {
            file.attrs.extend(list);
        } else if let Some(m) = find_mod(&mut file.items, path) {
            m.attrs.extend(list.into_iter().map(|mut a| {
                a.style = syn::AttrStyle::Outer;
                a
            }));
        }
    }
}

fn find_mod<'a>(items: &'a mut [syn::Item], path: &[String]) -> Option<&'a mut syn::ItemMod> {
    let (first, rest) = path.split_first()?;
    let m = items.iter_mut().find_map(|item| match item {
        syn::Item::Mod(m) if m.ident == first => Some(m),
        _ => None,
    })?;
    if rest.is_empty() {
        return Some(m);
    }
    find_mod(&mut m.content.as_mut()?.1, rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_attributes_return_as_outer_ones() {
        let mut f = syn::parse_file("mod a { pub mod b { pub fn f() {} } } fn main() {}").unwrap();
        let lib: syn::File = syn::parse_str("#![allow(dead_code)] #![warn(missing_docs)]").unwrap();
        let b: syn::File = syn::parse_str("#![cfg(test)]").unwrap();
        restore(
            &mut f,
            &[(vec![], lib.attrs), (vec!["a".into(), "b".into()], b.attrs)],
        );
        let out = f.into_token_stream().to_string();
        assert!(out.starts_with("# ! [allow (dead_code)] mod a"), "{out}");
        assert!(out.contains("# [cfg (test)] pub mod b"), "{out}");
        assert!(!out.contains("missing_docs"), "{out}");
    }
}
