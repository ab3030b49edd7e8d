//! Checks, before `rust_bundler_cp` runs, that it will read the same module files rustc would.
//!
//! The library panics on a missing or unparsable module file, ignores `#[path]`, keeps using
//! the enclosing file's directory inside inline `mod x { mod y; }`, and for `mod y;` declared in
//! a non-`mod.rs` file `x.rs` tries `<dir>/y.rs` before `<dir>/x/y.rs`. Walking the module tree
//! both ways here turns each of those into one clear error instead of a panic or a silently
//! wrong bundle. The same walk rejects any path that starts with the crate's own name, which the
//! library would strip (`let csb = ..; csb.f()` would lose its receiver).

use std::path::{Path, PathBuf};

use syn::visit::Visit;

use crate::error::{input, Result};
use crate::source::parse_file;
use crate::stage::{read, Staged};

/// Walks the staged library and binary; returns how many source files the bundle is made of.
pub fn check(staged: &Staged) -> Result<usize> {
    let mut walker = Walker {
        root: staged.root().to_path_buf(),
        crate_name: staged.crate_name.clone(),
        files: 0,
    };
    let lib_dir = dir_of(&staged.lib_path);
    walker.walk_file(&staged.lib_path, &lib_dir, &lib_dir, "", 0)?;
    let bin_dir = dir_of(&staged.bin_path);
    walker.walk_file(&staged.bin_path, &bin_dir, &lib_dir, "", 0)?;
    Ok(walker.files)
}

fn dir_of(path: &Path) -> PathBuf {
    path.parent().unwrap_or(Path::new(".")).to_path_buf()
}

struct Walker {
    root: PathBuf,
    crate_name: String,
    files: usize,
}

impl Walker {
    /// A path as the user knows it (relative to the crate directory).
    fn show(&self, path: &Path) -> String {
        path.strip_prefix(&self.root)
            .unwrap_or(path)
            .display()
            .to_string()
    }

    fn walk_file(
        &mut self,
        path: &Path,
        rustc_dir: &Path,
        lib_base: &Path,
        lib_parent: &str,
        depth: usize,
    ) -> Result<()> {
        if depth > 64 {
            return Err(input(format!(
                "{}: modules nested more than 64 deep (a cycle?)",
                self.show(path)
            )));
        }
        self.files += 1;
        let shown = PathBuf::from(self.show(path));
        let file = parse_file(&read(path)?, &shown)?;
        let mut finder = CrateNameFinder {
            name: &self.crate_name,
            line: None,
        };
        finder.visit_file(&file);
        if let Some(line) = finder.line {
            return Err(input(format!(
                "{}:{line}: a path starts with `{}`, the crate's own name; rust_bundler_cp strips \
                 that name from every path, so rename the variable/item (in main.rs, write `{0}::` \
                 paths only)",
                shown.display(),
                self.crate_name
            )));
        }
        self.walk_items(&file.items, &shown, rustc_dir, lib_base, lib_parent, depth)
    }

    fn walk_items(
        &mut self,
        items: &[syn::Item],
        shown: &Path,
        rustc_dir: &Path,
        lib_base: &Path,
        lib_parent: &str,
        depth: usize,
    ) -> Result<()> {
        for item in items {
            let syn::Item::Mod(m) = item else { continue };
            let name = m.ident.to_string();
            let line = m.ident.span().start().line;
            if m.attrs.iter().any(|a| a.path().is_ident("path")) {
                return Err(input(format!(
                    "{}:{line}: `#[path]` on `mod {name}` is not supported by rust_bundler_cp; \
                     move the file to where rustc looks by default",
                    shown.display()
                )));
            }
            match &m.content {
                Some((_, inner)) => {
                    self.walk_items(
                        inner,
                        shown,
                        &rustc_dir.join(&name),
                        lib_base,
                        lib_parent,
                        depth,
                    )?;
                }
                None => {
                    let flat = rustc_dir.join(format!("{name}.rs"));
                    let nested = rustc_dir.join(&name).join("mod.rs");
                    let rustc_file = match (flat.is_file(), nested.is_file()) {
                        (true, false) => flat,
                        (false, true) => nested,
                        (true, true) => {
                            return Err(input(format!(
                                "{}:{line}: both {} and {} exist for `mod {name}`; keep one",
                                shown.display(),
                                self.show(&flat),
                                self.show(&nested)
                            )))
                        }
                        (false, false) => return Err(input(format!(
                            "{}:{line}: file not found for `mod {name};` (looked for {} and {})",
                            shown.display(),
                            self.show(&flat),
                            self.show(&nested)
                        ))),
                    };
                    let candidates = [
                        (lib_base.to_path_buf(), format!("{name}.rs")),
                        (lib_base.join(lib_parent), format!("{name}.rs")),
                        (lib_base.join(&name), "mod.rs".to_string()),
                    ];
                    let chosen = candidates.iter().find(|(b, f)| b.join(f).is_file());
                    let same = chosen.is_some_and(|(b, f)| same_file(&b.join(f), &rustc_file));
                    let Some((child_base, _)) = chosen.filter(|_| same) else {
                        let theirs = chosen
                            .map(|(b, f)| self.show(&b.join(f)))
                            .unwrap_or_else(|| "nothing".to_string());
                        return Err(input(format!(
                            "{}:{line}: for `mod {name};` rustc reads {} but rust_bundler_cp would \
                             read {theirs}; rename one of them or use the `x/mod.rs` layout",
                            shown.display(),
                            self.show(&rustc_file)
                        )));
                    };
                    let child_base = child_base.clone();
                    self.walk_file(
                        &rustc_file,
                        &rustc_dir.join(&name),
                        &child_base,
                        &name,
                        depth + 1,
                    )?;
                }
            }
        }
        Ok(())
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Finds the first path whose first segment is the crate's name.
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
