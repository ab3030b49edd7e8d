//! No two files of the bot crate (`src/`), of its bundler (`bundler/src/`) or of the sparring
//! bots (`sparring/src/`) import each other in a circle, directly or through others: read from
//! the `use crate::…`, `crate::…` and `super::…` paths of each file outside its tests, resolved
//! to the deepest file module they name, so a new import that closes a circle fails here with
//! the files named. (The arena's own structure test is `arena/tests/layers.rs`.)

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

#[path = "support/import_circles.rs"]
mod import_circles;
use import_circles::find_circle;

/// Every `.rs` file under `src` by module path (`bot::one_pod::player`; a `mod.rs` under its
/// folder's name; `lib.rs` and `main.rs` as the root, `""`), with its code outside comments and
/// test modules.
fn modules(src: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut folders = vec![src.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                continue;
            }
            let relative = path.strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> = relative
                .iter()
                .map(|part| part.to_str().unwrap().to_string())
                .collect();
            if matches!(
                parts.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                parts.pop();
            }
            let text = fs::read_to_string(&path).unwrap();
            let code: String = text
                .lines()
                .take_while(|line| {
                    !line.starts_with("#[cfg(test)]") && !line.starts_with("#[cfg(all(test")
                })
                .filter(|line| !line.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            files.insert(parts.join("::"), code);
        }
    }
    files
}

/// The module paths `code` (in module `module`) names: `crate::a::b::{c, d}` and
/// `super::x` (from `a::b`: `a::x`), each cut to the segments of a plain path.
fn named_paths(module: &str, code: &str) -> Vec<Vec<String>> {
    let here: Vec<String> = if module.is_empty() {
        Vec::new()
    } else {
        module.split("::").map(String::from).collect()
    };
    let mut paths = Vec::new();
    for prefix in ["crate::", "super::"] {
        for (start, _) in code.match_indices(prefix) {
            let before = code[..start].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue; // `super::super::x` is read from its first `super::`
            }
            let mut rest = &code[start..];
            let mut path: Vec<String> = Vec::new();
            let mut base = here.clone();
            if rest.starts_with("crate::") {
                base.clear();
                rest = &rest["crate::".len()..];
            }
            while let Some(after) = rest.strip_prefix("super::") {
                base.pop();
                rest = after;
            }
            path.extend(base);
            let mut expanded = vec![path];
            // Segments up to the first character that ends a plain path.
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            let plain = rest[..end].trim_end_matches(':');
            for segment in plain.split("::").filter(|s| !s.is_empty()) {
                expanded[0].push(segment.to_string());
            }
            // `a::{b, c}`: each name in braces too.
            if rest[end..].starts_with('{') {
                let inside = &rest[end + 1..rest[end..].find('}').map_or(rest.len(), |i| end + i)];
                for name in inside.split(',') {
                    let name = name.trim().split("::").next().unwrap_or("").trim();
                    if !name.is_empty() {
                        let mut path = expanded[0].clone();
                        path.push(name.to_string());
                        expanded.push(path);
                    }
                }
            }
            paths.extend(expanded);
        }
    }
    paths
}

/// Module → the other file modules it imports (not its own ancestors or descendants: a
/// folder's `mod.rs` declares its files, and they may use its items).
fn imports(files: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = BTreeMap::new();
    for (module, code) in files {
        let mut targets = BTreeSet::new();
        for path in named_paths(module, code) {
            let target = (0..=path.len())
                .rev()
                .map(|length| path[..length].join("::"))
                .find(|name| files.contains_key(name));
            if let Some(target) = target {
                let related = |a: &str, b: &str| a.is_empty() || b.starts_with(&format!("{a}::"));
                if target != *module && !related(&target, module) && !related(module, &target) {
                    targets.insert(target);
                }
            }
        }
        graph.insert(module.clone(), targets);
    }
    graph
}

fn check(src: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(src);
    let graph = imports(&modules(&root));
    assert!(graph.len() > 10, "{src}: read its files");
    if let Some(circle) = find_circle(&graph) {
        panic!(
            "{src}: files import each other in a circle: {}",
            circle.join(" -> ")
        );
    }
}

#[test]
fn the_bots_files_import_one_way() {
    check("src");
}

#[test]
fn the_bundlers_files_import_one_way() {
    check("bundler/src");
}

#[test]
fn the_sparring_bots_files_import_one_way() {
    check("sparring/src");
}

#[test]
fn the_reader_finds_imports_and_circles() {
    let mut files = BTreeMap::new();
    files.insert("".to_string(), String::new());
    files.insert(
        "search::params".to_string(),
        "use super::smitsimax::MAX_DEPTH;".to_string(),
    );
    files.insert(
        "search::smitsimax".to_string(),
        "use super::params::{SearchParams, MAX_DEPTH};".to_string(),
    );
    files.insert(
        "bot::run".to_string(),
        "crate::bot::one_pod::turns::play(c)".to_string(),
    );
    files.insert(
        "bot::one_pod::turns".to_string(),
        "use crate::bot::{config::BotConfig, turn_loop::play_turns};".to_string(),
    );
    files.insert("bot::turn_loop".to_string(), String::new());
    files.insert("bot::config".to_string(), String::new());
    files.insert("bot".to_string(), "pub mod run;".to_string());
    let graph = imports(&files);
    assert_eq!(
        graph["bot::one_pod::turns"],
        BTreeSet::from(["bot::config".to_string(), "bot::turn_loop".to_string()])
    );
    assert_eq!(
        graph["bot::run"],
        BTreeSet::from(["bot::one_pod::turns".to_string()])
    );
    let circle = find_circle(&graph).expect("params and smitsimax import each other");
    assert!(circle.contains(&"search::params".to_string()), "{circle:?}");
    files.insert("search::params".to_string(), String::new());
    assert_eq!(find_circle(&imports(&files)), None);
}
