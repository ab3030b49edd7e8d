//! Staging: a private copy of the crate's sources that `rust_bundler_cp` can expand as is.
//!
//! The copy gets a minimal, dependency-free Cargo.toml (one lib, one bin, its own `[workspace]`),
//! so `cargo metadata` inside the library never resolves the real crate's dependencies or its
//! workspace. The binary's source is rewritten on the way: `rust_bundler_cp` only inlines
//! `lib.rs` in place of an `extern crate <name>;` item, so one is added when missing, and every
//! `<name>::` path prefix (also inside macro calls, which the library does not look into) becomes
//! `crate::`, so `use <name>::x;` keeps working instead of being dropped. A `rustfmt.toml` with
//! `edition = "2021"` sits at the root because the library runs `rustfmt` without `--edition`
//! and rustfmt reads its config from the working directory.

use std::fs;
use std::path::{Path, PathBuf};

use cargo_metadata::{MetadataCommand, Target};
use proc_macro2::{Group, Ident, Spacing, TokenStream, TokenTree};
use quote::ToTokens;
use tempfile::TempDir;

use crate::error::{input, Result};
use crate::source::parse_file;

/// The staged copy and what the later steps need to know about it.
pub struct Staged {
    /// Owns the temporary directory; it is removed when this is dropped.
    pub dir: TempDir,
    /// The library target's name with `-` turned into `_`, as paths spell it.
    pub crate_name: String,
    /// The binary target's name.
    pub bin_name: String,
    /// Staged `lib.rs`.
    pub lib_path: PathBuf,
    /// Staged binary source (already rewritten).
    pub bin_path: PathBuf,
}

impl Staged {
    /// The staged crate root (where the minimal Cargo.toml is).
    pub fn root(&self) -> &Path {
        self.dir.path()
    }
}

/// Reads the crate's targets with `cargo metadata --no-deps` and builds the staged copy.
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

    let lib_src = lib.src_path.as_std_path();
    if lib_src.file_name().and_then(|n| n.to_str()) != Some("lib.rs") {
        return Err(input(format!(
            "the library root is {}, but rust_bundler_cp only reads a file named lib.rs",
            lib_src.display()
        )));
    }
    let lib_dir = lib_src.parent().unwrap_or(Path::new("."));
    let rel_lib_dir = relative(lib_dir, &package_dir)?;
    let rel_bin = relative(bin.src_path.as_std_path(), &package_dir)?;
    let crate_name = lib.name.replace('-', "_");

    let dir = tempfile::Builder::new()
        .prefix("bundler-stage-")
        .tempdir()
        .map_err(|e| input(format!("cannot create a temporary directory: {e}")))?;
    let root = dir.path();
    copy_rs_tree(lib_dir, &root.join(&rel_lib_dir))?;

    let bin_text = read(bin.src_path.as_std_path())?;
    let bin_rewritten = rewrite_bin(&bin_text, bin.src_path.as_std_path(), &crate_name)?;
    let bin_path = root.join(&rel_bin);
    write(&bin_path, &bin_rewritten)?;

    let manifest_text = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         autobins = false\nautoexamples = false\nautotests = false\nautobenches = false\n\n\
         [lib]\nname = \"{crate_name}\"\npath = \"{lib}\"\n\n\
         [[bin]]\nname = \"{bin_name}\"\npath = \"{bin}\"\n\n[workspace]\n",
        name = package.name.as_str(),
        lib = slash(&rel_lib_dir.join("lib.rs")),
        bin_name = bin.name,
        bin = slash(&rel_bin),
    );
    write(&root.join("Cargo.toml"), &manifest_text)?;
    write(&root.join("rustfmt.toml"), "edition = \"2021\"\n")?;

    Ok(Staged {
        lib_path: root.join(&rel_lib_dir).join("lib.rs"),
        bin_path,
        crate_name,
        bin_name: bin.name.clone(),
        dir,
    })
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

/// `path` relative to `base`, which must contain it.
fn relative(path: &Path, base: &Path) -> Result<PathBuf> {
    path.strip_prefix(base).map(Path::to_path_buf).map_err(|_| {
        input(format!(
            "{} lies outside the package directory {}",
            path.display(),
            base.display()
        ))
    })
}

/// A relative path with `/` separators, for the staged Cargo.toml.
fn slash(path: &Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Copies every `.rs` file under `from` into `to`, keeping the layout.
fn copy_rs_tree(from: &Path, to: &Path) -> Result<()> {
    let entries =
        fs::read_dir(from).map_err(|e| input(format!("cannot list {}: {e}", from.display())))?;
    fs::create_dir_all(to).map_err(|e| input(format!("cannot create {}: {e}", to.display())))?;
    for entry in entries {
        let entry = entry.map_err(|e| input(format!("cannot list {}: {e}", from.display())))?;
        let path = entry.path();
        if path.is_dir() {
            copy_rs_tree(&path, &to.join(entry.file_name()))?;
        } else if path.extension().is_some_and(|x| x == "rs") {
            fs::copy(&path, to.join(entry.file_name()))
                .map_err(|e| input(format!("cannot copy {}: {e}", path.display())))?;
        }
    }
    Ok(())
}

/// Reads a source file as UTF-8.
pub fn read(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|e| input(format!("cannot read {}: {e}", path.display())))
}

/// Writes a file, creating its directory.
pub fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)
            .map_err(|e| input(format!("cannot create {}: {e}", dir.display())))?;
    }
    fs::write(path, text).map_err(|e| input(format!("cannot write {}: {e}", path.display())))
}

/// The binary's source with `<crate>::` prefixes turned into `crate::` and an
/// `extern crate <crate>;` item first if it had none.
fn rewrite_bin(text: &str, path: &Path, crate_name: &str) -> Result<String> {
    let file = parse_file(text, path)?;
    let tokens = rewrite_crate_prefix(file.into_token_stream(), crate_name);
    let mut file: syn::File = syn::parse2(tokens).map_err(|e| {
        input(format!(
            "{}: the rewritten binary no longer parses ({e}); please report this",
            path.display()
        ))
    })?;
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
            "use csb::bot::run; fn main() { println!(\"{}\", csb::x()); csb::bot::run(); }",
            Path::new("main.rs"),
            "csb",
        )
        .unwrap();
        assert!(out.starts_with("extern crate csb ;"), "{out}");
        assert!(!out.contains("csb ::"), "{out}");
        assert!(out.contains("use crate :: bot :: run"), "{out}");
    }

    #[test]
    fn keeps_existing_extern_crate() {
        let out = rewrite_bin("extern crate csb; fn main() {}", Path::new("m.rs"), "csb").unwrap();
        assert_eq!(out.matches("extern crate").count(), 1);
    }
}
