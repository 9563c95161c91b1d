//! The crate's layers point one way: no import circle between its top-level modules, and
//! the rooms of the web game depend only downwards (http -> service -> {game, store,
//! hub}; game -> nothing of the web). Read from the source: every `crate::NAME` a
//! module's files name outside comments, a name re-exported at the crate root
//! (`pub use MODULE::{...}` in lib.rs) counting as its module. And no circle between its
//! files either: a file that names another (`crate::a::b`, `super::b`) is never named
//! back by it, directly or through others.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use regex::Regex;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The files of each top-level module: `src/NAME.rs`, or every file below `src/NAME/`.
fn modules() -> BTreeMap<String, Vec<PathBuf>> {
    let mut modules = BTreeMap::new();
    for entry in std::fs::read_dir(src()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            let files = std::fs::read_dir(&path)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "rs"))
                .collect();
            modules.insert(name, files);
        } else if name != "lib" && name != "main" {
            modules.insert(name, vec![path]);
        }
    }
    modules
}

/// The code of a file without its comments (doc links are not dependencies).
fn code(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names lib.rs re-exports, each with its module: `pub use MODULE::{A, B::C};`.
fn reexports(modules: &BTreeMap<String, Vec<PathBuf>>) -> BTreeMap<String, String> {
    let lib = code(&src().join("lib.rs"));
    let single = Regex::new(r"pub use (\w+)::(?:[\w:]+::)?(\w+);").unwrap();
    let group = Regex::new(r"(?s)pub use (\w+)::(?:[\w:]+::)?\{([^}]*)\};").unwrap();
    let mut names = BTreeMap::new();
    for c in single.captures_iter(&lib) {
        names.insert(c[2].to_string(), c[1].to_string());
    }
    for c in group.captures_iter(&lib) {
        for item in c[2].split(',') {
            let name = item.trim().rsplit("::").next().unwrap_or_default();
            if !name.is_empty() {
                names.insert(name.to_string(), c[1].to_string());
            }
        }
    }
    names.retain(|_, module| modules.contains_key(module));
    names
}

/// Which top-level modules each module names.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules();
    let names = reexports(&modules);
    let path = Regex::new(r"crate::(\w+)").unwrap();
    let group = Regex::new(r"crate::\{([^}]*)\}").unwrap();
    let module_of = |name: &str| -> Option<String> {
        if modules.contains_key(name) {
            Some(name.to_string())
        } else {
            names.get(name).cloned()
        }
    };
    let mut graph = BTreeMap::new();
    for (module, files) in &modules {
        let mut uses = BTreeSet::new();
        for file in files {
            let code = code(file);
            let mut named: Vec<String> = path.captures_iter(&code).map(|c| c[1].into()).collect();
            for c in group.captures_iter(&code) {
                for item in c[1].split(',') {
                    named.push(item.trim().split("::").next().unwrap_or_default().into());
                }
            }
            uses.extend(named.iter().filter_map(|n| module_of(n)));
        }
        uses.remove(module);
        graph.insert(module.clone(), uses);
    }
    graph
}

/// A circle of the graph, if it has one.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node.to_string());
            return Some(circle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, graph, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_import_circle_between_the_top_level_modules() {
    let graph = graph();
    assert!(graph.contains_key("game") && graph.contains_key("http"));
    assert_eq!(circle(&graph), None, "{graph:#?}");
}

#[test]
fn the_layers_point_one_way() {
    let graph = graph();
    let uses = |module: &str| graph[module].iter().map(String::as_str).collect::<Vec<_>>();
    // The rules of play know nothing of the web.
    assert_eq!(uses("game"), Vec::<&str>::new());
    // The store knows the game and its ids, not the service, the HTTP layer or its errors.
    assert_eq!(uses("store"), ["game", "ids"]);
    // Only the crate root assembles the HTTP layer: nothing below it names it.
    for (module, uses) in &graph {
        assert!(!uses.contains("http"), "{module} names the HTTP layer");
        if module != "http" {
            assert!(!uses.contains("service"), "{module} names the service");
        }
    }
    assert!(uses("http").contains(&"service"));
}

/// Every `.rs` file below `src/` but lib.rs and main.rs, by its module path: `http/api`
/// for src/http/api.rs, `http` for src/http/mod.rs, `hub` for src/hub.rs.
fn files() -> BTreeMap<String, PathBuf> {
    let mut files = BTreeMap::new();
    let mut dirs = vec![src()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(src()).unwrap().with_extension("");
                let name = relative.to_string_lossy().replace('\\', "/");
                let name = name.strip_suffix("/mod").unwrap_or(&name).to_string();
                if name != "lib" && name != "main" {
                    files.insert(name, path);
                }
            }
        }
    }
    files
}

/// The paths a use tree names, expanded: `a::{b, c::{d, e}}` gives `a::b`, `a::c::d`,
/// `a::c::e`. `tree` starts after `crate::` or `super::`; only its start is read.
fn expand(tree: &str) -> Vec<Vec<String>> {
    /// One use tree at `at`: `{TREE, ...}`, `NAME::TREE`, `NAME` or `*`.
    fn parse(chars: &[char], at: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
        if chars.get(*at) == Some(&'{') {
            *at += 1;
            loop {
                while chars
                    .get(*at)
                    .is_some_and(|c| c.is_whitespace() || *c == ',')
                {
                    *at += 1;
                }
                match chars.get(*at) {
                    None => return,
                    Some('}') => {
                        *at += 1;
                        return;
                    }
                    _ => {
                        let before = *at;
                        parse(chars, at, prefix, out);
                        // `self`, `* ` or text this reader does not know: step over it.
                        *at = (*at).max(before + 1);
                    }
                }
            }
        }
        let start = *at;
        while chars
            .get(*at)
            .is_some_and(|c| c.is_alphanumeric() || *c == '_')
        {
            *at += 1;
        }
        let mut path = prefix.to_vec();
        if *at > start {
            path.push(chars[start..*at].iter().collect());
            if chars.get(*at) == Some(&':') && chars.get(*at + 1) == Some(&':') {
                *at += 2;
                return parse(chars, at, &path, out);
            }
        }
        out.push(path);
    }
    let chars: Vec<char> = tree.chars().collect();
    let mut out = Vec::new();
    parse(&chars, &mut 0, &[], &mut out);
    out
}

/// Which files each file names (`crate::http::api::...`, `super::state::...`), each name
/// taken to the deepest file it reaches. Test modules are left out: their `super` is
/// their own file.
fn file_graph() -> BTreeMap<String, BTreeSet<String>> {
    let files = files();
    let start = Regex::new(r"\b(crate|super)::").unwrap();
    let mut graph = BTreeMap::new();
    for (name, path) in &files {
        let code = code(path);
        let code = code.split("#[cfg(test)]").next().unwrap_or_default();
        let is_root = path.file_name().is_some_and(|f| f == "mod.rs");
        let mut parent: Vec<&str> = name.split('/').collect();
        if !is_root {
            parent.pop();
        }
        let mut uses = BTreeSet::new();
        for m in start.find_iter(code) {
            let mut base: Vec<String> = if m.as_str().starts_with("crate") {
                Vec::new()
            } else {
                parent.iter().map(|s| s.to_string()).collect()
            };
            if m.as_str().starts_with("super") && is_root {
                base.pop();
            }
            for tail in expand(&code[m.end()..]) {
                let full: Vec<String> = base.iter().cloned().chain(tail).collect();
                let reached = (1..=full.len())
                    .rev()
                    .map(|n| full[..n].join("/"))
                    .find(|candidate| files.contains_key(candidate));
                if let Some(file) = reached {
                    uses.insert(file);
                }
            }
        }
        uses.remove(name);
        graph.insert(name.clone(), uses);
    }
    graph
}

#[test]
fn no_import_circle_between_files() {
    let graph = file_graph();
    assert!(
        graph["http/api"].contains("service"),
        "{:?}",
        graph["http/api"]
    );
    assert!(
        graph["store/sql"].contains("store"),
        "{:?}",
        graph["store/sql"]
    );
    // A circle is printed as the files that make it.
    assert_eq!(circle(&graph), None);
}

#[test]
fn use_trees_are_expanded() {
    assert_eq!(
        expand("state::{state_for, view_now, GameChange};"),
        [
            ["state", "state_for"],
            ["state", "view_now"],
            ["state", "GameChange"]
        ]
    );
    assert_eq!(
        expand("{game::{clock::Clock, level}, ids}; more"),
        [
            vec!["game", "clock", "Clock"],
            vec!["game", "level"],
            vec!["ids"]
        ]
    );
    assert_eq!(expand("StoreError> {"), [["StoreError"]]);
}

#[test]
fn the_checker_finds_a_circle() {
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert("b".to_string(), BTreeSet::from(["c".to_string()]));
    graph.insert("c".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(
        circle(&graph),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    graph.get_mut("c").unwrap().clear();
    assert_eq!(circle(&graph), None);
}
