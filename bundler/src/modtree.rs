//! Walks a crate's module tree the way rustc resolves `mod x;`, reading and parsing every
//! file, so that staging can lay the files out where `rust_bundler_cp` will find them.
//!
//! The library's own lookup differs from rustc's: in a non-`mod.rs` file `a.rs` it tries
//! `<dir>/x.rs` before `<dir>/a/x.rs` (a same-named file one level up wins) and never tries
//! `<dir>/a/x/mod.rs`; inside an inline `mod m { mod x; }` it ignores `m`; it ignores
//! `#[path]`; and it panics on a missing or unparsable file. Resolving here instead turns each
//! of those into either a correct bundle or one clear error. The walk also rejects any path
//! that starts with the crate's own name outside `main.rs`'s `name::` prefixes, since the
//! library strips that name from every path (`let csb = ..; csb.f()` would lose its receiver).

use std::path::{Path, PathBuf};

use syn::visit::Visit;

use crate::error::{input, Result};
use crate::source::{parse_file, read};

/// One source file of the module tree.
pub struct ModFile {
    /// Module path below the root (`["engine", "geometry"]`); empty for the root file.
    pub path: Vec<String>,
    /// The file's text as written.
    pub text: String,
    /// The file's inner attributes (`#![..]`) other than docs, which rust_bundler_cp drops
    /// for every file but the binary's root; `attrs::restore` puts them back.
    pub inner_attrs: Vec<syn::Attribute>,
}

/// Reads the module tree rooted at `root_file` (a `lib.rs` or `main.rs`). Paths in messages
/// are shown as `shown_base` joined with the path relative to `base`. `crate_name` paths are only allowed when `allow_crate_paths`.
pub fn collect(
    root_file: &Path,
    base: &Path,
    shown_base: &Path,
    crate_name: &str,
    allow_crate_paths: bool,
) -> Result<Vec<ModFile>> {
    let mut walker = Walker {
        base: base.to_path_buf(),
        shown_base: shown_base.to_path_buf(),
        crate_name: crate_name.to_string(),
        allow_crate_paths,
        files: Vec::new(),
    };
    let dir = root_file.parent().unwrap_or(Path::new(".")).to_path_buf();
    walker.walk_file(root_file, Vec::new(), &dir)?;
    Ok(walker.files)
}

struct Walker {
    base: PathBuf,
    shown_base: PathBuf,
    crate_name: String,
    allow_crate_paths: bool,
    files: Vec<ModFile>,
}

impl Walker {
    fn show(&self, path: &Path) -> String {
        match path.strip_prefix(&self.base) {
            Ok(rel) => self.shown_base.join(rel).display().to_string(),
            Err(_) => path.display().to_string(),
        }
    }

    fn walk_file(&mut self, file: &Path, modpath: Vec<String>, rustc_dir: &Path) -> Result<()> {
        if modpath.len() > 64 {
            return Err(input(format!(
                "{}: modules nested more than 64 deep",
                self.show(file)
            )));
        }
        let shown = self.show(file);
        let text = read(file)?;
        let tree = parse_file(&text, Path::new(&shown))?;
        if !self.allow_crate_paths {
            if let Some(line) = first_crate_path(&tree, &self.crate_name) {
                return Err(input(format!(
                    "{shown}:{line}: a path starts with `{}`, the crate's own name; \
                     rust_bundler_cp strips that name from every path, so rename it",
                    self.crate_name
                )));
            }
        }
        let inner_attrs = tree
            .attrs
            .iter()
            .filter(|a| matches!(a.style, syn::AttrStyle::Inner(_)) && !a.path().is_ident("doc"))
            .cloned()
            .collect();
        self.files.push(ModFile {
            path: modpath.clone(),
            text,
            inner_attrs,
        });
        self.walk_items(&tree.items, &shown, &modpath, rustc_dir, false)
    }

    fn walk_items(
        &mut self,
        items: &[syn::Item],
        shown: &str,
        modpath: &[String],
        rustc_dir: &Path,
        inline: bool,
    ) -> Result<()> {
        for item in items {
            let syn::Item::Mod(m) = item else { continue };
            let name = m.ident.to_string();
            let line = m.ident.span().start().line;
            if m.attrs.iter().any(|a| a.path().is_ident("path")) {
                return Err(input(format!(
                    "{shown}:{line}: `#[path]` on `mod {name}` is not supported by \
                     rust_bundler_cp; move the file to where rustc looks by default"
                )));
            }
            let mut child = modpath.to_vec();
            child.push(name.clone());
            if let Some((_, inner)) = &m.content {
                self.walk_items(inner, shown, &child, &rustc_dir.join(&name), true)?;
                continue;
            }
            if inline {
                return Err(input(format!(
                    "{shown}:{line}: `mod {name};` inside an inline module is not supported by \
                     rust_bundler_cp (it looks in the wrong directory); make the enclosing module \
                     a file"
                )));
            }
            let flat = rustc_dir.join(format!("{name}.rs"));
            let nested = rustc_dir.join(&name).join("mod.rs");
            let file = match (flat.is_file(), nested.is_file()) {
                (true, false) => flat,
                (false, true) => nested,
                (true, true) => {
                    return Err(input(format!(
                        "{shown}:{line}: both {} and {} exist for `mod {name}`; keep one",
                        self.show(&flat),
                        self.show(&nested)
                    )))
                }
                (false, false) => {
                    return Err(input(format!(
                        "{shown}:{line}: file not found for `mod {name};` (looked for {} and {})",
                        self.show(&flat),
                        self.show(&nested)
                    )))
                }
            };
            self.walk_file(&file, child, &rustc_dir.join(&name))?;
        }
        Ok(())
    }
}

/// The line of the first path whose first segment is `name`.
pub fn first_crate_path(file: &syn::File, name: &str) -> Option<usize> {
    let mut finder = CrateNameFinder { name, line: None };
    finder.visit_file(file);
    finder.line
}

struct CrateNameFinder<'a> {
    name: &'a str,
    line: Option<usize>,
}

impl<'ast> Visit<'ast> for CrateNameFinder<'_> {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        if self.line.is_none() {
            if let Some(first) = path.segments.first() {
                if first.ident == self.name {
                    self.line = Some(first.ident.span().start().line);
                }
            }
        }
        syn::visit::visit_path(self, path);
    }
}
