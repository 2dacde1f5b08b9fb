//! Import circles: the library's top-level modules (src/*) and the rooms of the wall game
//! (src/games/wall/*) must depend on each other without a cycle (production code; tests may
//! cross-check any two modules).

mod rust_source;

use rust_source::{module_of, paths, resolve, strip, tokens, without_tests, Token};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module → the modules it names, each with one file that names it.
type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// The modules of the library's files, and every (naming module, named path, file).
type Sources = (Vec<Vec<String>>, Vec<(Vec<String>, Vec<String>, String)>);

/// Every library file under `dir` (not the binary's main.rs and cli/, not test files).
fn library_files(root: &Path, dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        let relative = path.strip_prefix(root).expect("under src/").to_string_lossy().into_owned();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if relative == "main.rs" || relative == "cli" || name == "tests.rs" || name.ends_with("_tests.rs") {
            continue;
        }
        if path.is_dir() {
            library_files(root, &path, out);
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// The modules of the library's production files, and each path they name (below `crate`).
fn references(src: &Path) -> Sources {
    let mut files = Vec::new();
    library_files(src, src, &mut files);
    let (mut modules, mut out) = (Vec::new(), Vec::new());
    for file in files {
        let relative = file.strip_prefix(src).expect("under src/");
        let module = module_of(relative);
        modules.push(module.clone());
        let code = without_tests(&strip(&std::fs::read_to_string(&file).expect("readable source")));
        let tokens = tokens(&code);
        let children: BTreeSet<String> = tokens
            .windows(3)
            .filter(|w| w[0] == Token::Word("mod".into()) && matches!(w[2], Token::Punct(';')))
            .filter_map(|w| if let Token::Word(name) = &w[1] { Some(name.clone()) } else { None })
            .collect();
        for (inline, path) in paths(&code) {
            let here: Vec<String> = module.iter().cloned().chain(inline.iter().cloned()).collect();
            let kids = if inline.is_empty() { children.clone() } else { BTreeSet::new() };
            if let Some(target) = resolve(&path, &here, &kids) {
                out.push((here, target, format!("src/{}", relative.display())));
            }
        }
    }
    (modules, out)
}

/// The graph of the modules one level below `parent` (`[]`: the top-level modules): an edge
/// a → b when code in a names something in b. The code of `parent` itself, and the items it
/// defines or re-exports, are the node `front`.
fn graph((modules, references): &Sources, parent: &[&str], front: &str) -> Graph {
    let inside = |path: &[String]| path.len() >= parent.len() && path.iter().zip(parent).all(|(a, b)| a == b);
    let modules: BTreeSet<&String> = modules.iter().filter(|m| inside(m)).filter_map(|m| m.get(parent.len())).collect();
    let node = |path: &[String]| -> Option<String> {
        let module = path.get(parent.len()).filter(|m| modules.contains(m));
        inside(path).then(|| module.map_or(front, |m| m.as_str()).to_string())
    };
    let mut graph = Graph::new();
    for (from, to, file) in references {
        if let (Some(a), Some(b)) = (node(from), node(to)) {
            if a != b {
                graph.entry(a).or_default().entry(b).or_insert_with(|| file.clone());
            }
        }
    }
    graph
}

/// A cycle of `graph` (its nodes in order, the first repeated at the end), if there is one.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(node: &str, graph: &Graph, path: &mut Vec<String>, done: &mut BTreeSet<String>) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            return Some(path[at..].iter().cloned().chain([node.to_string()]).collect());
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flat_map(|edges| edges.keys()) {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

/// The cycle, each edge with a file that makes it.
fn describe(graph: &Graph, cycle: &[String]) -> String {
    cycle.windows(2).map(|w| format!("{} → {} ({})", w[0], w[1], graph[&w[0]][&w[1]])).collect::<Vec<_>>().join(", ")
}

fn assert_acyclic(parent: &[&str], front: &str) -> Graph {
    let graph = graph(&references(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src")), parent, front);
    if let Some(cycle) = find_cycle(&graph) {
        panic!("import circle below crate::{}: {}", parent.join("::"), describe(&graph, &cycle));
    }
    graph
}

#[test]
fn top_level_modules_have_no_cycle() {
    let graph = assert_acyclic(&[], "crate root");
    assert!(graph["games"].contains_key("runner") && graph["check"].contains_key("output"), "{graph:?}");
}

#[test]
fn wall_rooms_have_no_cycle() {
    let graph = assert_acyclic(&["games", "wall"], "wall (front door)");
    assert!(graph["verify"].contains_key("census") && graph["commands"].contains_key("search"), "{graph:?}");
}

fn made_up(edges: &[(&str, &str)]) -> Graph {
    let mut graph = Graph::new();
    for (a, b) in edges {
        graph.entry(a.to_string()).or_default().insert(b.to_string(), format!("{a}.rs"));
    }
    graph
}

#[test]
fn the_cycle_finder_finds_cycles_and_only_cycles() {
    let dag = made_up(&[("a", "b"), ("b", "c"), ("a", "c"), ("d", "a")]);
    assert_eq!(find_cycle(&dag), None);
    let circle = made_up(&[("a", "b"), ("b", "c"), ("c", "d"), ("d", "b")]);
    let cycle = find_cycle(&circle).expect("b → c → d → b");
    assert_eq!(cycle, ["b", "c", "d", "b"]);
    assert_eq!(describe(&circle, &cycle), "b → c (b.rs), c → d (c.rs), d → b (d.rs)");
}

#[test]
fn references_cover_use_trees_paths_and_inline_modules() {
    let source = "use super::{board::Board, claim::{dp, mex}};\nuse crate::check as c;\n// crate::sys::x\n\
                  fn f() { let s = \"crate::bits::y\"; crate::runner::go(); tables::plan(); std::mem::drop(s); }\n\
                  mod inner { use super::super::output; }\n#[cfg(test)]\nmod tests { use crate::input; }\n";
    let code = without_tests(&strip(source));
    let here = ["games".to_string(), "wall".to_string(), "census".to_string()];
    let (children, none) = (BTreeSet::from(["tables".to_string()]), BTreeSet::new());
    let resolved: Vec<String> = paths(&code)
        .into_iter()
        .filter_map(|(inline, p)| {
            let module: Vec<String> = here.iter().cloned().chain(inline.clone()).collect();
            resolve(&p, &module, if inline.is_empty() { &children } else { &none })
        })
        .map(|p| p.join("::"))
        .collect();
    let expected = ["games::wall::board::Board", "games::wall::claim::dp", "games::wall::claim::mex", "check", "runner::go", "games::wall::census::tables::plan", "games::wall::output"];
    assert_eq!(resolved, expected);
}
