//! The import graph of `src/`: every file is a module, every module sits in one layer, and imports
//! go down (or sideways within a layer) only, with no cycle between modules.
//!
//! The graph is read from the source text: `use crate::…`, `use super::…`, `crate::…` paths in code
//! and `pub use` re-exports (followed to the module that defines the name). Unit tests (everything
//! after a file's `#[cfg(test)]`) and comments are left out: they are not part of the layering.
//! `cargo test --test layers -- --nocapture` prints the graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, bottom first. A new file must be placed here; the README's layout section draws
/// the same picture.
const LAYERS: &[(&str, &[&str])] = &[
    ("base", &["files", "stack", "budget", "rng", "syntax::span", "diag"]),
    (
        "syntax",
        &[
            "syntax",
            "syntax::ast",
            "syntax::script",
            "syntax::keywords",
            "syntax::grammar",
            "syntax::parse_script",
            "syntax::parse",
        ],
    ),
    (
        "board vocabulary",
        &[
            "engine::gameover",
            "engine::board",
            "engine::side",
            "engine::zobrist",
            "engine::betza",
            "engine::movement",
            "engine::bitboard",
            "engine::slides",
            "engine::attackbits",
        ],
    ),
    ("script data", &["script::table", "script::value", "script::ir", "script::inert", "script::reads"]),
    ("preset", &["preset", "presets"]),
    (
        "position",
        &[
            "engine::turn",
            "engine::position",
            "engine::movegen",
            "engine::legal",
            "engine::bulk",
            "engine::facing",
            "engine::notation",
            "engine::typed",
            "engine::rules",
            "engine::fen",
            "engine::sanity",
            "engine",
            "display",
        ],
    ),
    ("script runtime", &["script::interp", "script::builtins", "script::hooks", "script::compile", "script"]),
    (
        "play",
        &["play::turngen", "play::memo", "play::leafcount", "play::end", "play::fen", "play::perft", "play", "setup"],
    ),
    ("check", &["check"]),
    ("game", &["game", "games"]),
    (
        "search",
        &[
            "search::limits",
            "search::weights",
            "search::tt",
            "search::attacks",
            "search::structure",
            "search::eval",
            "search::order",
            "search::alphabeta",
            "search",
            "search::selfplay",
            "search::values",
            "search::tuning",
        ],
    ),
    (
        "front ends",
        &[
            "search::repl_cmds",
            "repl::draw",
            "repl::report",
            "repl::error",
            "repl::session",
            "repl::record",
            "repl",
            "repl::commands",
            "repl::complete",
            "repl::terminal",
            "fuzzing",
            "protocol::moves",
            "protocol::timeman",
            "protocol::session",
            "protocol::uci",
            "protocol::xboard",
            "protocol",
            "server::state",
            "server::svg",
            "server::api",
            "server::rules",
            "server",
            "crate",
            "main",
        ],
    ),
];

/// A module's path (`engine::movegen`, `crate` for lib.rs, `main` for the binary) and its text.
fn modules() -> BTreeMap<String, String> {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<String, String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).expect("src/ readable").map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            let name = p.file_stem().unwrap().to_string_lossy().to_string();
            if p.is_dir() {
                let mut sub = prefix.to_vec();
                sub.push(name);
                walk(&p, &sub, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let mut path = prefix.to_vec();
                match (prefix.is_empty(), name.as_str()) {
                    (true, "lib") => path.push("crate".into()),
                    (true, "main") => path.push("main".into()),
                    (_, "mod") => {}
                    _ => path.push(name),
                }
                out.insert(path.join("::"), std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src")), &[], &mut out);
    out
}

/// The code of a file without comments, string literals and unit tests.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap();
    let mut out = String::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            // A char literal such as '"' or '\\' (lifetimes have no closing quote).
            let close = b[i + 1..].iter().skip(1).position(|&c| c == b'\'').map_or(b.len(), |p| i + 2 + p);
            i = close + 1;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

fn ident_at(s: &[u8], mut i: usize) -> (String, usize) {
    let start = i;
    while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'_') {
        i += 1;
    }
    (String::from_utf8_lossy(&s[start..i]).into_owned(), i)
}

fn skip_ws(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && s[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// Read a path after its first segment (`a::b::{c, d::e}`), expanding brace groups.
fn read_path(s: &[u8], mut i: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix;
    loop {
        i = skip_ws(s, i);
        if s[i..].starts_with(b"::") {
            i = skip_ws(s, i + 2);
            if i < s.len() && s[i] == b'{' {
                i += 1;
                loop {
                    i = skip_ws(s, i);
                    if i >= s.len() || s[i] == b'}' {
                        return i + 1;
                    }
                    if s[i] == b',' {
                        i += 1;
                        continue;
                    }
                    let (id, j) = ident_at(s, i);
                    if id.is_empty() {
                        i += 1; // `*`
                        out.push(path.clone());
                        continue;
                    }
                    let mut sub = path.clone();
                    if id != "self" {
                        sub.push(id);
                    }
                    i = read_path(s, j, sub, out);
                }
            }
            let (id, j) = ident_at(s, i);
            if id.is_empty() {
                break; // `::*` or `::<T>`
            }
            path.push(id);
            i = j;
        } else {
            break;
        }
    }
    out.push(path);
    i
}

/// Every path the code names from the crate's root, made absolute (`engine::board::cell`).
fn paths(module: &str, code: &str, children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let here: Vec<String> =
        if module == "crate" || module == "main" { vec![] } else { module.split("::").map(String::from).collect() };
    let s = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let boundary = i == 0 || !(s[i - 1].is_ascii_alphanumeric() || s[i - 1] == b'_' || s[i - 1] == b':');
        let (id, j) = ident_at(s, i);
        if id.is_empty() {
            i += 1;
            continue;
        }
        if boundary && s[j..].starts_with(b"::") {
            let root: Option<Vec<String>> = match id.as_str() {
                "crate" => Some(vec![]),
                "herald" if module == "main" => Some(vec![]),
                "super" => Some(here[..here.len().saturating_sub(1)].to_vec()),
                "self" => Some(here.clone()),
                // A child module named directly from its parent (`pub use position::Move`).
                c if children.contains(c) => Some(here.iter().cloned().chain([c.to_string()]).collect()),
                _ => None,
            };
            if let Some(root) = root {
                i = read_path(s, j, root, &mut out);
                continue;
            }
        }
        i = j;
    }
    out
}

/// The module a path lands in, following `pub use` re-exports.
fn resolve(path: &[String], files: &BTreeSet<String>, exports: &BTreeMap<(String, String), Vec<String>>) -> String {
    let mut path = path.to_vec();
    for _ in 0..8 {
        let mut k = path.len();
        while k > 0 && !files.contains(&path[..k].join("::")) {
            k -= 1;
        }
        let module = if k == 0 { "crate".to_string() } else { path[..k].join("::") };
        match path.get(k).and_then(|name| exports.get(&(module.clone(), name.clone()))) {
            Some(target) => path = target.iter().cloned().chain(path[k + 1..].iter().cloned()).collect(),
            None => return module,
        }
    }
    panic!("re-export loop at {}", path.join("::"))
}

type Graph = BTreeMap<String, BTreeSet<String>>;

fn graph() -> Graph {
    let mods = modules();
    let files: BTreeSet<String> = mods.keys().cloned().collect();
    let children = |m: &str| -> BTreeSet<String> {
        let pre = if m == "crate" { String::new() } else { format!("{m}::") };
        files
            .iter()
            .filter_map(|f| f.strip_prefix(&pre).filter(|rest| !rest.contains("::")).map(String::from))
            .collect()
    };
    // `pub use a::b::{C, D}` in module m: (m, C) -> a::b::C.
    let mut exports = BTreeMap::new();
    for (m, text) in &mods {
        for line in code(text).lines().map(str::trim).filter(|l| l.starts_with("pub use ")) {
            for p in paths(m, &line.replacen("pub use ", "pub use self::", 1), &children(m)) {
                if let Some(name) = p.last() {
                    exports.insert((m.clone(), name.clone()), p.clone());
                }
            }
        }
    }
    let mut g = Graph::new();
    for (m, text) in &mods {
        let deps = g.entry(m.clone()).or_default();
        for p in paths(m, &code(text), &children(m)) {
            let target = resolve(&p, &files, &exports);
            if &target != m && target != "crate" {
                deps.insert(target);
            }
        }
    }
    g
}

/// What is wrong with a graph: modules in no layer, imports going up, cycles.
fn problems(g: &Graph) -> Vec<String> {
    let layer_of: BTreeMap<&str, usize> =
        LAYERS.iter().enumerate().flat_map(|(i, (_, ms))| ms.iter().map(move |m| (*m, i))).collect();
    let mut out = Vec::new();
    for m in g.keys() {
        if !layer_of.contains_key(m.as_str()) {
            out.push(format!("module `{m}` is in no layer: place it in tests/layers.rs LAYERS"));
        }
    }
    for (m, deps) in g {
        let (Some(&lm), name) = (layer_of.get(m.as_str()), m) else { continue };
        for d in deps {
            if let Some(&ld) = layer_of.get(d.as_str())
                && ld > lm
            {
                out.push(format!("`{name}` ({}) imports `{d}` from a higher layer ({})", LAYERS[lm].0, LAYERS[ld].0));
            }
        }
    }
    out.extend(cycles(g).into_iter().map(|c| format!("cycle: {}", c.join(" -> "))));
    out
}

/// Strongly connected components of more than one module (Tarjan), each as a cycle through them.
fn cycles(g: &Graph) -> Vec<Vec<String>> {
    struct T<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    impl<'a> T<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on.insert(v);
            for w in self.g.get(v).into_iter().flatten() {
                if !self.index.contains_key(w.as_str()) {
                    self.visit(w);
                    let l = self.low[w.as_str()].min(self.low[v]);
                    self.low.insert(v, l);
                } else if self.on.contains(w.as_str()) {
                    let l = self.index[w.as_str()].min(self.low[v]);
                    self.low.insert(v, l);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    comp.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.out.push(comp);
                }
            }
        }
    }
    let mut t = T { g, index: BTreeMap::new(), low: BTreeMap::new(), stack: vec![], on: BTreeSet::new(), out: vec![] };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out
}

#[test]
fn imports_go_down_the_layers_only() {
    let g = graph();
    for (m, deps) in &g {
        println!("{m} -> {}", deps.iter().cloned().collect::<Vec<_>>().join(", "));
    }
    let p = problems(&g);
    assert!(p.is_empty(), "the import graph of src/ breaks its layers:\n{}", p.join("\n"));
}

#[test]
fn the_graph_is_read() {
    let g = graph();
    // Spot checks that the reader sees imports of each form.
    assert!(g["engine::movegen"].contains("engine::movement"), "use super::… not read");
    assert!(g["game"].contains("engine::position"), "a `pub use` re-export not followed");
    assert!(g["main"].contains("check"), "herald::… in the binary not read");
}

#[test]
fn an_upward_import_or_a_cycle_is_caught() {
    let mut g = graph();
    g.get_mut("engine::board").unwrap().insert("game".into());
    let p = problems(&g);
    assert!(p.iter().any(|l| l.contains("`engine::board` (board vocabulary) imports `game`")), "{p:?}");
    let mut g = graph();
    g.get_mut("search::tt").unwrap().insert("search::eval".into());
    g.get_mut("search::eval").unwrap().insert("search::tt".into());
    let p = problems(&g);
    assert!(p.iter().any(|l| l.starts_with("cycle: ") && l.contains("search::tt")), "{p:?}");
}
