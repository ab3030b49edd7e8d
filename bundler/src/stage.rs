//! Staging: a private copy of the crate's sources that `rust_bundler_cp` expands correctly.
//!
//! Every module file found by `modtree` (rustc's resolution) is written to
//! `src/<module path>/mod.rs`, next to `src/lib.rs` and `src/main.rs`: in that layout the
//! library's own lookup can only find the right file. The copy gets a minimal, dependency-free
//! Cargo.toml (one lib, one bin, its own `[workspace]`), so `cargo metadata` inside the library
//! never resolves the real crate's dependencies or workspace. The binary's files are rewritten on
//! the way: the library only inlines `lib.rs` in place of an `extern crate <name>;` item, so
//! one is added to `main.rs` when missing; every `<name>::` path prefix (also inside macro
//! calls, which the library does not look into) becomes `crate::`, so `use <name>::bot::run;`
//! keeps working instead of being dropped; and `main.rs` imports of names the library root
//! already has are removed, since both end up in one root. A `rustfmt.toml` with
//! `edition = "2021"` sits at the root because the library runs `rustfmt` without `--edition`
//! and rustfmt reads its config from the working directory.

use std::fs;
use std::path::{Path, PathBuf};

use cargo_metadata::{MetadataCommand, Target};
use proc_macro2::{Group, Ident, Spacing, TokenStream, TokenTree};
use quote::ToTokens;
use tempfile::TempDir;

use crate::error::{input, Result};
use crate::modtree;
use crate::source::parse_file;

/// The staged copy and what the later steps need to know about it.
pub struct Staged {
    /// Owns the temporary directory; it is removed when this is dropped.
    pub dir: TempDir,
    /// The library target's name with `-` turned into `_`, as paths spell it.
    pub crate_name: String,
    /// The binary target's name.
    pub bin_name: String,
    /// How many source files went in.
    pub files: usize,
    /// The features the crate's Cargo.toml declares.
    pub features: Vec<String>,
    /// The package's `[package.metadata]` (`Null` when it has none): the league table.
    pub metadata: serde_json::Value,
    /// Inner attributes of the library's files by module path (the library root's under `[]`),
    /// to be restored after the expansion dropped them.
    pub inner_attrs: Vec<(Vec<String>, Vec<syn::Attribute>)>,
}

impl Staged {
    /// The staged crate root (where the minimal Cargo.toml is).
    pub fn root(&self) -> &Path {
        self.dir.path()
    }
}

/// Reads the crate's targets with `cargo metadata --no-deps`, walks both module trees and
/// writes the staged copy: `src/lib.rs`, `src/main.rs` and every other module at
/// `src/<module path>/mod.rs`, the one layout rust_bundler_cp resolves without ambiguity.
pub fn stage(crate_dir: &Path, bin: Option<&str>) -> Result<Staged> {
    let manifest = crate_dir.join("Cargo.toml");
    if !manifest.is_file() {
        return Err(input(format!(
            "no Cargo.toml in {}: --crate must name a crate directory",
            crate_dir.display()
        )));
    }
    let metadata = MetadataCommand::new()
        .manifest_path(&manifest)
        .no_deps()
        .exec()
        .map_err(|e| {
            let msg = e.to_string();
            let first = msg.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            input(format!(
                "cargo metadata failed on {}: {first}",
                manifest.display()
            ))
        })?;
    let package = metadata.root_package().ok_or_else(|| {
        input(format!(
            "{} has no root package (a virtual workspace?): point --crate at the bot's crate",
            manifest.display()
        ))
    })?;
    let package_dir = package
        .manifest_path
        .parent()
        .map(|p| p.as_std_path().to_path_buf())
        .unwrap_or_else(|| crate_dir.to_path_buf());

    let lib = single(
        package.targets.iter().filter(|t| t.is_lib()),
        "library",
        None,
    )?;
    let bins: Vec<&Target> = package.targets.iter().filter(|t| t.is_bin()).collect();
    let bin = single(bins.into_iter(), "binary", bin)?;
    let crate_name = lib.name.replace('-', "_");

    let lib_files = modtree::collect(
        lib.src_path.as_std_path(),
        &package_dir,
        crate_dir,
        &crate_name,
        false,
    )?;
    let bin_files = modtree::collect(
        bin.src_path.as_std_path(),
        &package_dir,
        crate_dir,
        &crate_name,
        true,
    )?;
    let bin_shown = match bin.src_path.as_std_path().strip_prefix(&package_dir) {
        Ok(rel) => crate_dir.join(rel),
        Err(_) => bin.src_path.as_std_path().to_path_buf(),
    };
    for f in bin_files.iter().filter(|f| f.path.len() == 1) {
        if lib_files.iter().any(|l| l.path == f.path) {
            return Err(input(format!(
                "both the library and {} declare `mod {}`; in one file they would clash",
                bin_shown.display(),
                f.path[0]
            )));
        }
    }

    let dir = tempfile::Builder::new()
        .prefix("bundler-stage-")
        .tempdir()
        .map_err(|e| input(format!("cannot create a temporary directory: {e}")))?;
    let src = dir.path().join("src");
    for f in &lib_files {
        let target = if f.path.is_empty() {
            src.join("lib.rs")
        } else {
            module_file(&src, &f.path)
        };
        write(&target, &f.text)?;
    }
    for f in &bin_files {
        let text = rewrite_bin(&f.text, &bin_shown, &crate_name, f.path.is_empty())?;
        let target = if f.path.is_empty() {
            src.join("main.rs")
        } else {
            module_file(&src, &f.path)
        };
        write(&target, &text)?;
    }

    let manifest_text = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         autobins = false\nautoexamples = false\nautotests = false\nautobenches = false\n\n\
         [lib]\nname = \"{crate_name}\"\npath = \"src/lib.rs\"\n\n\
         [[bin]]\nname = \"{bin_name}\"\npath = \"src/main.rs\"\n\n[workspace]\n",
        name = package.name.as_str(),
        bin_name = bin.name,
    );
    write(&dir.path().join("Cargo.toml"), &manifest_text)?;
    write(&dir.path().join("rustfmt.toml"), "edition = \"2021\"\n")?;

    Ok(Staged {
        crate_name,
        bin_name: bin.name.clone(),
        files: lib_files.len() + bin_files.len(),
        features: package.features.keys().cloned().collect(),
        metadata: package.metadata.clone(),
        inner_attrs: lib_files
            .iter()
            .chain(bin_files.iter().filter(|f| !f.path.is_empty()))
            .filter(|f| !f.inner_attrs.is_empty())
            .map(|f| (f.path.clone(), f.inner_attrs.clone()))
            .collect(),
        dir,
    })
}

/// `src/a/b/mod.rs` for module path `a::b`.
fn module_file(src: &Path, path: &[String]) -> PathBuf {
    let mut p = src.to_path_buf();
    p.extend(path);
    p.join("mod.rs")
}

/// Picks the one target of a kind, or the one named `wanted`.
fn single<'a>(
    mut targets: impl Iterator<Item = &'a Target>,
    kind: &str,
    wanted: Option<&str>,
) -> Result<&'a Target> {
    let all: Vec<&Target> = targets.by_ref().collect();
    if let Some(name) = wanted {
        return all
            .into_iter()
            .find(|t| t.name == name)
            .ok_or_else(|| input(format!("the crate has no {kind} target named `{name}`")));
    }
    match all.as_slice() {
        [one] => Ok(one),
        [] => Err(input(format!(
            "the crate has no {kind} target: the bundler needs src/lib.rs and src/main.rs"
        ))),
        many => Err(input(format!(
            "the crate has {} {kind} targets ({}): choose one with --bin",
            many.len(),
            many.iter()
                .map(|t| t.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// Reads a source file as UTF-8.
/// Writes a file, creating its directory.
pub fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)
            .map_err(|e| input(format!("cannot create {}: {e}", dir.display())))?;
    }
    fs::write(path, text).map_err(|e| input(format!("cannot write {}: {e}", path.display())))
}

/// A file of the binary's module tree with `<crate>::` prefixes turned into `crate::`; the
/// root file (`main.rs`) also loses imports of root names and gains an `extern crate <crate>;`
/// item if it had none. `path` only names the binary in messages.
fn rewrite_bin(text: &str, path: &Path, crate_name: &str, root: bool) -> Result<String> {
    let mut file = parse_file(text, path)?;
    if root {
        prune_root_imports(&mut file, crate_name);
    }
    let tokens = rewrite_crate_prefix(file.into_token_stream(), crate_name);
    let mut file: syn::File = syn::parse2(tokens).map_err(|e| {
        input(format!(
            "{}: the rewritten binary no longer parses ({e}); please report this",
            path.display()
        ))
    })?;
    if let Some(line) = modtree::first_crate_path(&file, crate_name) {
        return Err(input(format!(
            "{} (module tree, line {line} of the rewritten file): `{crate_name}` is used as a \
             name, not as a `{crate_name}::` prefix; rust_bundler_cp would strip it, so rename it",
            path.display()
        )));
    }
    if !root {
        return Ok(file.into_token_stream().to_string());
    }
    let mut has_extern = false;
    for item in &file.items {
        if let syn::Item::ExternCrate(ext) = item {
            if ext.ident == crate_name {
                if ext.rename.is_some() {
                    return Err(input(format!(
                        "{}: `extern crate {crate_name} as ...;` is not supported by \
                         rust_bundler_cp; write `extern crate {crate_name};` or nothing",
                        path.display()
                    )));
                }
                has_extern = true;
            }
        }
    }
    if !has_extern {
        let ident = Ident::new(crate_name, proc_macro2::Span::call_site());
        file.items
            .insert(0, syn::parse_quote!(extern crate #ident;));
    }
    Ok(file.into_token_stream().to_string())
}

/// In the bundle, main.rs's items share the crate root with lib.rs's items, so a top-level
/// `use <crate>::Name;` (or `::*`) would import a name that is already there and clash. Those
/// leaves are removed; deeper imports (`use <crate>::bot::run;`) stay, to be rewritten to
/// `crate::`. A `use` left empty is dropped.
fn prune_root_imports(file: &mut syn::File, crate_name: &str) {
    file.items.retain_mut(|item| {
        let syn::Item::Use(u) = item else { return true };
        let syn::UseTree::Path(p) = &mut u.tree else {
            return true;
        };
        if u.leading_colon.is_some() || p.ident != crate_name {
            return true;
        }
        let rest = std::mem::replace(
            &mut *p.tree,
            syn::UseTree::Glob(syn::UseGlob {
                star_token: Default::default(),
            }),
        );
        match prune_use(rest) {
            Some(kept) => {
                *p.tree = kept;
                true
            }
            None => false,
        }
    });
}

/// The part of a use tree below `<crate>::` that is not already in the root's scope.
fn prune_use(tree: syn::UseTree) -> Option<syn::UseTree> {
    match tree {
        syn::UseTree::Name(_) | syn::UseTree::Glob(_) => None,
        syn::UseTree::Group(mut g) => {
            let items = std::mem::take(&mut g.items);
            g.items = items.into_iter().filter_map(prune_use).collect();
            (!g.items.is_empty()).then_some(syn::UseTree::Group(g))
        }
        other => Some(other),
    }
}

/// Replaces each `<crate_name> ::` at the start of a path with `crate ::`, everywhere in the
/// token tree (macro arguments included). A path that already starts with `::` or `$` is left
/// alone.
fn rewrite_crate_prefix(stream: TokenStream, crate_name: &str) -> TokenStream {
    let tokens: Vec<TokenTree> = stream.into_iter().collect();
    let mut out = Vec::with_capacity(tokens.len());
    for (i, token) in tokens.iter().enumerate() {
        match token {
            TokenTree::Group(g) => {
                let mut group =
                    Group::new(g.delimiter(), rewrite_crate_prefix(g.stream(), crate_name));
                group.set_span(g.span());
                out.push(TokenTree::Group(group));
            }
            TokenTree::Ident(id)
                if id == crate_name
                    && is_path_sep(&tokens, i + 1)
                    && !(i >= 2 && is_path_sep(&tokens, i - 2))
                    && !(i >= 1 && is_punct(&tokens[i - 1], '$')) =>
            {
                out.push(TokenTree::Ident(Ident::new("crate", id.span())));
            }
            other => out.push(other.clone()),
        }
    }
    out.into_iter().collect()
}

fn is_path_sep(tokens: &[TokenTree], i: usize) -> bool {
    matches!(
        (tokens.get(i), tokens.get(i + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
            if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
    )
}

fn is_punct(token: &TokenTree, c: char) -> bool {
    matches!(token, TokenTree::Punct(p) if p.as_char() == c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_prefixes_in_macros_and_uses() {
        let out = rewrite_bin(
            "use csb::bot::run; use csb::Root; use csb::{A, b::C}; fn main() { println!(\"{}\", csb::x()); csb::bot::run(); }",
            Path::new("main.rs"),
            "csb",
            true,
        )
        .unwrap();
        assert!(out.starts_with("extern crate csb ;"), "{out}");
        assert!(!out.contains("csb ::"), "{out}");
        assert!(out.contains("use crate :: bot :: run"), "{out}");
        assert!(!out.contains("Root"), "{out}");
        assert!(out.contains("use crate :: { b :: C }"), "{out}");
    }

    #[test]
    fn keeps_existing_extern_crate() {
        let out = rewrite_bin(
            "extern crate csb; fn main() {}",
            Path::new("m.rs"),
            "csb",
            true,
        )
        .unwrap();
        assert_eq!(out.matches("extern crate").count(), 1);
    }
}
