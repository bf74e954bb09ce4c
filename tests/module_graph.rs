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
fn resolve(path: &[String], known: &BTreeMap<Module, PathBuf>) -> Option<Module> {
    (1..=path.len())
        .rev()
        .map(|k| path[..k].to_vec())
        .find(|m| known.contains_key(m))
}

/// Each module's imports of other modules.
fn edges(known: &BTreeMap<Module, PathBuf>) -> BTreeSet<(Module, Module)> {
    let mut edges = BTreeSet::new();
    for (module, path) in known {
        let code = code(path);
        let mut targets: Vec<Vec<String>> = Vec::new();
        // `crate::a::b` anywhere in the code.
        for (i, _) in code.match_indices("crate::") {
            let rest = &code[i + "crate::".len()..];
            let mut segments = Vec::new();
            for part in rest.split("::") {
                let word: String = part
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                    .collect();
                let whole = word.len() == part.len();
                if !word.is_empty() {
                    segments.push(word);
                }
                if !whole {
                    break;
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
            if let Some(target) = resolve(&target, known) {
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
