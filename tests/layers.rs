//! The layer rule of ARCHITECTURE.md, checked on the source text: every `crate::` and
//! `super::` path of a file under `src/` (test modules and comments aside) names a file of
//! the same layer or one below it, and no files import each other in a circle.
//!
//! Layers, bottom to top: base (`error`, `interrupt`, `progress`, `output/shown`) < engine <
//! stats < variant < sim < games < output < report < designer < play < cli (and `lib.rs`,
//! `main.rs` on top). A path is resolved to the longest module prefix that is a file, as the
//! compiler would find it; names brought in by a glob (`use super::*`) or a macro are not
//! seen, so this is a floor, not a proof.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, bottom first.
const LAYERS: &[&str] = &["base", "engine", "stats", "variant", "sim", "games", "output", "report", "designer", "play", "cli", "top"];

/// The layer of a file, by its path under `src/` (`engine/ismcts.rs`).
fn layer_of(rel: &str) -> usize {
    let name = match rel {
        "error.rs" | "interrupt.rs" | "progress.rs" | "output/shown.rs" => "base",
        "lib.rs" | "main.rs" => "top",
        "output.rs" => "output",
        _ => rel.split('/').next().unwrap_or(""),
    };
    LAYERS.iter().position(|l| *l == name).unwrap_or_else(|| panic!("src/{rel}: in no layer of ARCHITECTURE.md; add its folder to LAYERS"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file (`engine/mod.rs` -> `engine`, `games/pig_farm/rules.rs` ->
/// `games::pig_farm::rules`); the crate root is empty.
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel.trim_end_matches(".rs").split('/').map(String::from).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

/// The text a file's imports are read from: everything before its first test module, with
/// line comments removed (doc links name modules without depending on them).
fn code_of(text: &str) -> String {
    let cut = text.find("#[cfg(test)]\nmod ").or_else(|| text.find("#[cfg(test)]\npub mod ")).unwrap_or(text.len());
    text[..cut].lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// Every path that follows `prefix` in `code` (`crate::a::b`, `crate::a::{b, c::d}`), split
/// into segments; a brace list gives one path per item.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(at) = code[from..].find(prefix) {
        let start = from + at;
        from = start + prefix.len();
        if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
            continue;
        }
        let mut segs: Vec<String> = Vec::new();
        let mut i = from;
        loop {
            let word: String = code[i..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if word.is_empty() {
                break;
            }
            i += word.len();
            segs.push(word);
            if code[i..].starts_with("::") && code[i + 2..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                i += 2;
            } else {
                break;
            }
        }
        if segs.is_empty() {
            continue;
        }
        if code[i..].starts_with("::{") {
            let end = code[i..].find('}').map_or(code.len(), |e| i + e);
            for item in code[i + 3..end].split(',') {
                let item = item.split(" as ").next().unwrap_or("").trim();
                if item.is_empty() || item == "self" || item == "*" || item.contains('{') {
                    continue;
                }
                let mut path = segs.clone();
                path.extend(item.split("::").map(|s| s.trim().to_string()));
                out.push(path);
            }
        }
        out.push(segs);
    }
    out
}

/// The import edges between files (`engine/ismcts.rs` -> `engine/bots.rs`).
fn edges() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let rels: Vec<String> = files.iter().map(|f| f.strip_prefix(&src).expect("under src").to_string_lossy().replace('\\', "/")).collect();
    let modules: BTreeMap<Vec<String>, String> = rels.iter().map(|r| (module_of(r), r.clone())).collect();
    let resolve = |path: &[String]| (1..=path.len()).rev().find_map(|k| modules.get(&path[..k]).cloned());
    let mut graph = BTreeMap::new();
    for (file, rel) in files.iter().zip(&rels) {
        if rel.ends_with("tests.rs") {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(file).expect("readable"));
        let me = module_of(rel);
        let mut to = BTreeSet::new();
        for path in paths_after(&code, "crate::") {
            to.extend(resolve(&path));
        }
        let parent = &me[..me.len().saturating_sub(1)];
        for path in paths_after(&code, "super::") {
            let full: Vec<String> = parent.iter().cloned().chain(path).collect();
            to.extend(resolve(&full));
        }
        to.remove(rel);
        graph.insert(rel.clone(), to);
    }
    graph
}

#[test]
fn no_file_imports_from_a_higher_layer() {
    let mut upward = Vec::new();
    for (from, tos) in edges() {
        for to in tos {
            if layer_of(&to) > layer_of(&from) {
                upward.push(format!("src/{from} ({}) -> src/{to} ({})", LAYERS[layer_of(&from)], LAYERS[layer_of(&to)]));
            }
        }
    }
    assert!(upward.is_empty(), "imports up the layers of ARCHITECTURE.md:\n  {}", upward.join("\n  "));
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let graph = edges();
    // Depth-first search; a back edge to a file on the current path closes a circle.
    fn visit(v: &str, graph: &BTreeMap<String, BTreeSet<String>>, state: &mut BTreeMap<String, u8>, path: &mut Vec<String>, found: &mut Vec<String>) {
        state.insert(v.to_string(), 1);
        path.push(v.to_string());
        for w in graph.get(v).into_iter().flatten() {
            match state.get(w.as_str()).copied().unwrap_or(0) {
                0 => visit(w, graph, state, path, found),
                1 => {
                    let at = path.iter().position(|p| p == w).expect("on the path");
                    found.push(format!("{} -> {w}", path[at..].join(" -> ")));
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(v.to_string(), 2);
    }
    let mut state = BTreeMap::new();
    let mut found = Vec::new();
    for v in graph.keys() {
        if !state.contains_key(v) {
            visit(v, &graph, &mut state, &mut Vec::new(), &mut found);
        }
    }
    assert!(found.is_empty(), "files that import each other in a circle:\n  {}", found.join("\n  "));
}

/// The check itself sees what it must: a brace list, a nested path and `super::`.
#[test]
fn the_path_reader_sees_brace_lists_and_nested_paths() {
    let code = "use crate::engine::{Game, bots::Bot as B};\nlet x = crate::sim::run(g);";
    let paths = paths_after(code, "crate::");
    let want: Vec<Vec<&str>> = vec![vec!["engine", "Game"], vec!["engine", "bots", "Bot"], vec!["engine"], vec!["sim", "run"]];
    let got: Vec<Vec<&str>> = paths.iter().map(|p| p.iter().map(String::as_str).collect()).collect();
    assert_eq!(got, want);
    assert_eq!(layer_of("engine/ismcts.rs"), 1);
    assert!(layer_of("cli/mod.rs") > layer_of("designer/tune.rs"));
    assert_eq!(code_of("use crate::a; // crate::b\n#[cfg(test)]\nmod tests { use crate::c; }"), "use crate::a; ");
}
