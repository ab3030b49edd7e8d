//! The arena's structure as `src/lib.rs` states it: the folders listed there from the bottom up,
//! each using only the ones listed before it, and no two files importing each other in a
//! circle. Read from the source's `use crate::…` and `super::…` paths, so a new import that
//! breaks either rule fails here with the files named.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

#[path = "../../tests/support/import_circles.rs"]
mod import_circles;
use import_circles::find_circle;

/// The folders (and `cli`) in the order `src/lib.rs` lists them: `//! - `name`: …` lines.
fn layers(lib: &str) -> Vec<String> {
    lib.lines()
        .filter_map(|line| line.strip_prefix("//! - `"))
        .filter_map(|rest| rest.split_once('`').map(|(name, _)| name.to_string()))
        .collect()
}

/// Every source file of the library as (module path, text): `cli`, `replay/file`, and a
/// folder's `mod.rs` under the folder's own name. `main.rs`, `lib.rs` and `bin/` are left out.
fn sources(src: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    for entry in fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        if path.is_dir() {
            if name == "bin" {
                continue;
            }
            for inner in fs::read_dir(&path).unwrap() {
                let inner = inner.unwrap().path();
                let stem = inner.file_stem().unwrap().to_str().unwrap().to_string();
                let module = if stem == "mod" {
                    name.clone()
                } else {
                    format!("{name}/{stem}")
                };
                files.insert(module, fs::read_to_string(&inner).unwrap());
            }
        } else if name != "main" && name != "lib" {
            files.insert(name, fs::read_to_string(&path).unwrap());
        }
    }
    files
}

/// The identifiers after `prefix` in `text`, one list per path: `a::b::{c, d}` gives `[a, b, c]`
/// and `[a, b, d]`. Comments are skipped.
fn paths_after(text: &str, prefix: &str) -> Vec<Vec<String>> {
    let code: String = text
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut paths = Vec::new();
    for (start, _) in code.match_indices(prefix) {
        let rest = &code[start + prefix.len()..];
        let mut segments = Vec::new();
        let mut rest = rest;
        loop {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            if end == 0 {
                break;
            }
            segments.push(rest[..end].to_string());
            rest = &rest[end..];
            match rest.strip_prefix("::") {
                Some(after) => rest = after,
                None => break,
            }
        }
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for item in group.split(',') {
                let first = item.trim().split("::").next().unwrap_or("").trim();
                let first = first.split_whitespace().next().unwrap_or("");
                if !first.is_empty() && first != "self" {
                    let mut path = segments.clone();
                    path.push(first.to_string());
                    paths.push(path);
                }
            }
            if group.split(',').any(|item| item.trim() == "self") {
                paths.push(segments);
            }
        } else if !segments.is_empty() {
            paths.push(segments);
        }
    }
    paths
}

/// The module a path names: `folder/file` when that file exists, else the folder itself.
fn target(files: &BTreeMap<String, String>, folder: &str, next: Option<&String>) -> String {
    match next {
        Some(file) if files.contains_key(&format!("{folder}/{file}")) => {
            format!("{folder}/{file}")
        }
        _ => folder.to_string(),
    }
}

/// Module → the modules it imports (itself left out).
fn imports(files: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = BTreeMap::new();
    for (module, text) in files {
        let folder = module.split('/').next().unwrap();
        let mut used = BTreeSet::new();
        for path in paths_after(text, "crate::") {
            used.insert(target(files, &path[0], path.get(1)));
        }
        if module.contains('/') {
            for path in paths_after(text, "super::") {
                if files.contains_key(&format!("{folder}/{}", path[0])) {
                    used.insert(format!("{folder}/{}", path[0]));
                }
            }
        }
        used.remove(module);
        graph.insert(module.clone(), used);
    }
    graph
}

fn src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn folders_use_only_the_folders_listed_before_them() {
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    let order = layers(&lib);
    assert!(order.len() >= 5, "lib.rs lists its folders: {order:?}");
    let files = sources(&src());
    let graph = imports(&files);
    let mut wrong = Vec::new();
    for (module, used) in &graph {
        let own = module.split('/').next().unwrap();
        let own_rank = order.iter().position(|name| name == own);
        assert!(
            own_rank.is_some(),
            "{module}: its folder {own} is not listed in lib.rs"
        );
        for other in used {
            let theirs = other.split('/').next().unwrap();
            let their_rank = order.iter().position(|name| name == theirs);
            if theirs != own && their_rank >= own_rank {
                wrong.push(format!("{module} uses {other}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the order of lib.rs: {wrong:?}"
    );
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let circle = find_circle(&imports(&sources(&src())));
    assert!(circle.is_none(), "files import each other: {circle:?}");
}

#[test]
fn every_file_says_what_it_owns() {
    for (module, text) in sources(&src()) {
        assert!(
            text.starts_with("//!"),
            "{module}: no //! paragraph at the top"
        );
    }
}

#[test]
fn the_reader_finds_imports_and_circles() {
    // The checks above are only as good as this reading: a group, a nested path and a comment.
    let text = "use crate::replay::{file, verify::race_of};\n// use crate::ladder::play;\n\
                use crate::stats::wdl::Wdl;\nfn f() { crate::referee::children::watch_over_bots(); }";
    let paths = paths_after(text, "crate::");
    let firsts: Vec<String> = paths.iter().map(|p| p[..2].join("::")).collect();
    assert_eq!(
        firsts,
        [
            "replay::file",
            "replay::verify",
            "stats::wdl",
            "referee::children"
        ]
    );
    let mut files = BTreeMap::new();
    files.insert("a/x".to_string(), "use super::y::Thing;".to_string());
    files.insert("a/y".to_string(), "use crate::a::x::Other;".to_string());
    files.insert("a/z".to_string(), "use crate::a::y;".to_string());
    let graph = imports(&files);
    assert!(graph["a/x"].contains("a/y") && graph["a/y"].contains("a/x"));
    assert_eq!(
        find_circle(&graph),
        Some(vec![
            "a/x".to_string(),
            "a/y".to_string(),
            "a/x".to_string()
        ])
    );
    files.insert("a/y".to_string(), "use crate::stats::wdl::Wdl;".to_string());
    assert_eq!(find_circle(&imports(&files)), None);
}
