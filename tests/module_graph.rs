//! The module graph stays a graph a newcomer can read from the bottom up: no two top-level
//! modules import each other, directly or around a longer cycle, and neither do two
//! modules in one folder. Read from the sources (`use` lines and `crate::` paths outside
//! `#[cfg(test)]` and comments), so a change that ties two layers together fails here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// Every `.rs` file under `dir` with its module path (`src/search/worker/mod.rs` is
/// `search::worker`).
fn modules(root: &Path, dir: &Path, out: &mut BTreeMap<Module, PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            modules(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap().with_extension("");
            let mut module: Module = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                module.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                module.pop();
            }
            out.insert(module, path);
        }
    }
}

/// The code of a file without its tests and comments.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The longest known module that `path` (segments) names.
fn longest_module(path: &[String], known: &BTreeMap<Module, PathBuf>) -> Option<Module> {
    (1..=path.len())
        .rev()
        .map(|k| path[..k].to_vec())
        .find(|m| known.contains_key(m))
}

/// Each module's re-exports (`pub use a::b::Item;`, `pub use a::{B, C as D};`): the name
/// they give, with the whole path of what it names (from the crate's root).
type Reexports = BTreeMap<Module, BTreeMap<String, Vec<String>>>;

fn reexports(codes: &BTreeMap<&Module, String>) -> Reexports {
    let mut out = Reexports::new();
    for (&module, code) in codes {
        for line in code.lines() {
            let line = line.trim();
            let Some(rest) = ["pub use ", "pub(crate) use "]
                .iter()
                .find_map(|p| line.strip_prefix(p))
            else {
                continue;
            };
            let rest = rest.trim_end_matches(';');
            let (prefix, items) = match rest.find('{') {
                Some(i) => (&rest[..i], rest[i + 1..].trim_end_matches('}')),
                None => match rest.rfind("::") {
                    Some(i) => (&rest[..i + 2], &rest[i + 2..]),
                    None => continue,
                },
            };
            let mut base: Vec<String> = Vec::new();
            let mut first = true;
            for part in prefix.split("::").filter(|p| !p.is_empty()) {
                match (first, part) {
                    (true, "crate") => {}
                    (true, "self") => base = module.clone(),
                    (_, "super") => {
                        if first {
                            base = module.clone();
                        }
                        base.pop();
                    }
                    (true, child) => {
                        base = module.clone();
                        base.push(child.to_string());
                    }
                    (false, part) => base.push(part.to_string()),
                }
                first = false;
            }
            for item in items.split(',') {
                let mut words = item.split_whitespace();
                let Some(name) = words.next() else { continue };
                let alias = match (words.next(), words.next()) {
                    (Some("as"), Some(alias)) => alias,
                    _ => name,
                };
                let mut target = base.clone();
                target.push(name.to_string());
                out.entry(module.clone())
                    .or_default()
                    .insert(alias.to_string(), target);
            }
        }
    }
    out
}

/// The module that `path` (segments from the crate's root) names, seen through
/// re-exports: `crate::types::Move` is `types::moves`, where `Move` is defined.
fn resolve(path: &[String], known: &BTreeMap<Module, PathBuf>, re: &Reexports) -> Option<Module> {
    let mut path = path.to_vec();
    // A re-export of a re-export is followed too (a few links at most).
    for _ in 0..8 {
        let module = longest_module(&path, known).unwrap_or_default();
        let next = path.get(module.len());
        match next.and_then(|name| re.get(&module)?.get(name)) {
            Some(target) => {
                let mut followed = target.clone();
                followed.extend(path[module.len() + 1..].iter().cloned());
                path = followed;
            }
            None => return (!module.is_empty()).then_some(module),
        }
    }
    None
}

/// Each module's imports of other modules.
fn edges(known: &BTreeMap<Module, PathBuf>) -> BTreeSet<(Module, Module)> {
    // Each file read once: for its re-exports, then for its imports.
    let codes: BTreeMap<&Module, String> = known.iter().map(|(m, p)| (m, code(p))).collect();
    let re = reexports(&codes);
    let mut edges = BTreeSet::new();
    for (&module, code) in &codes {
        let mut targets: Vec<Vec<String>> = Vec::new();
        // `crate::a::b` anywhere in the code.
        for (i, _) in code.match_indices("crate::") {
            let rest = &code[i + "crate::".len()..];
            let mut segments = Vec::new();
            for part in rest.split("::") {
                let word: String = part
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let whole = word.len() == part.len();
                if !word.is_empty() {
                    segments.push(word);
                }
                if !whole {
                    break;
                }
            }
            // `crate::a::{B, C}`: each name, so that re-exports are followed.
            let after = rest.split("::").nth(segments.len()).unwrap_or("");
            if let Some(list) = after.strip_prefix('{') {
                let list = &list[..list.find('}').unwrap_or(list.len())];
                for name in list.split(',').filter_map(|n| n.split_whitespace().next()) {
                    let mut target = segments.clone();
                    target.push(name.to_string());
                    targets.push(target);
                }
            }
            targets.push(segments);
        }
        // `use super::x` and `use self::x`, relative to this module.
        for line in code.lines() {
            let line = line.trim_start();
            let line = line
                .strip_prefix("pub(crate) ")
                .or_else(|| line.strip_prefix("pub "))
                .unwrap_or(line);
            let Some(path) = line.strip_prefix("use ") else {
                continue;
            };
            let mut parts = path
                .split("::")
                .map(|s| s.trim_matches(|c: char| !c.is_alphanumeric() && c != '_'));
            let mut base = module.clone();
            let mut first = parts.next();
            match first {
                Some("super") => {
                    while first == Some("super") {
                        base.pop();
                        first = parts.next();
                    }
                }
                Some("self") => first = parts.next(),
                _ => continue,
            }
            base.extend(first.map(str::to_string));
            base.extend(parts.map(str::to_string));
            targets.push(base);
        }
        for target in targets {
            if let Some(target) = resolve(&target, known, &re) {
                if target != *module {
                    edges.insert((module.clone(), target));
                }
            }
        }
    }
    edges
}

/// The strongly connected components with more than one node (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        stack: Vec<String>,
        out: Vec<Vec<String>>,
    }
    fn visit(s: &mut State, v: &str) {
        let n = s.index.len();
        s.index.insert(v.to_string(), n);
        s.low.insert(v.to_string(), n);
        s.stack.push(v.to_string());
        for w in s.graph.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v.to_string(), low);
            } else if s.stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v.to_string(), low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                let done = w == v;
                component.push(w);
                if done {
                    break;
                }
            }
            if component.len() > 1 {
                s.out.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.out
}

fn source_modules() -> BTreeMap<Module, PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut known = BTreeMap::new();
    modules(&root, &root, &mut known);
    known
}

/// The graph between the children of `parent` (the top level for an empty parent): an
/// import from anywhere inside child `a` of anything inside child `b`.
fn children_graph(
    parent: &[String],
    edges: &BTreeSet<(Module, Module)>,
) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let depth = parent.len();
    for (a, b) in edges {
        let inside = |m: &Module| m.len() > depth && m[..depth] == *parent;
        if inside(a) && inside(b) && a[depth] != b[depth] {
            graph
                .entry(a[depth].clone())
                .or_default()
                .insert(b[depth].clone());
        }
    }
    graph
}

#[test]
fn no_import_cycles_between_modules() {
    let known = source_modules();
    let edges = edges(&known);
    // The reader must see real imports, or the test proves nothing.
    let has = |a: &[&str], b: &[&str]| {
        let a: Module = a.iter().map(|s| s.to_string()).collect();
        let b: Module = b.iter().map(|s| s.to_string()).collect();
        edges.contains(&(a, b))
    };
    assert!(has(&["threads"], &["search", "shared"]));
    assert!(has(
        &["search", "worker", "alphabeta"],
        &["search", "movepick"]
    ));
    assert!(has(&["mate", "pv"], &["mate", "dfpn"]));
    // Through the re-export `types::Move` (`use crate::types::{Move, Piece}`).
    assert!(has(&["search", "worker", "alphabeta"], &["types", "moves"]));

    let mut parents: BTreeSet<Module> = known
        .keys()
        .map(|m| m[..m.len().saturating_sub(1)].to_vec())
        .collect();
    parents.insert(Vec::new());
    let mut found = Vec::new();
    for parent in &parents {
        for cycle in cycles(&children_graph(parent, &edges)) {
            found.push(format!("in '{}': {:?}", parent.join("::"), cycle));
        }
    }
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}

#[test]
fn reexports_are_followed_to_where_an_item_is_defined() {
    let m = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Module>();
    let known: BTreeMap<Module, PathBuf> = [m(&[]), m(&["a"]), m(&["a", "b"]), m(&["c"])]
        .into_iter()
        .map(|k| (k, PathBuf::new()))
        .collect();
    let mut re = Reexports::new();
    // `a` re-exports `c::Item`, and the crate's root re-exports `a::Item` as `Thing`.
    re.entry(m(&["a"]))
        .or_default()
        .insert("Item".into(), m(&["c", "Item"]));
    re.entry(m(&[]))
        .or_default()
        .insert("Thing".into(), m(&["a", "Item"]));
    assert_eq!(resolve(&m(&["a", "Item"]), &known, &re), Some(m(&["c"])));
    assert_eq!(resolve(&m(&["Thing"]), &known, &re), Some(m(&["c"])));
    assert_eq!(
        resolve(&m(&["a", "b", "f"]), &known, &re),
        Some(m(&["a", "b"]))
    );
    assert_eq!(resolve(&m(&["a", "Other"]), &known, &re), Some(m(&["a"])));
    assert_eq!(resolve(&m(&["Nothing"]), &known, &re), None);
}

#[test]
fn the_cycle_finder_finds_cycles() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a", "d"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
    .collect();
    let mut found = cycles(&graph);
    assert_eq!(found.len(), 1);
    found[0].sort();
    assert_eq!(found[0], ["a", "b", "c"]);
}
