//! Finding a circle in a graph of file imports (module path → the module paths it imports), for
//! the structure tests of the bot and bundler (`tests/module_imports.rs`) and of the arena
//! (`arena/tests/layers.rs`, which includes this file by path), so the two cannot disagree on
//! what a circle is.

use std::collections::{BTreeMap, BTreeSet};

/// A circle of imports in `graph`, as the modules along it (the first repeated at the end), if
/// there is one: depth-first search, where a module met again while it is still on the path
/// closes a circle.
pub fn find_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|m| m == module) {
            let mut circle = path[at..].to_vec();
            circle.push(module.to_string());
            return Some(circle);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_string());
        for next in graph.get(module).into_iter().flatten() {
            if let Some(circle) = visit(next, graph, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(module.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|module| visit(module, graph, &mut Vec::new(), &mut done))
}
