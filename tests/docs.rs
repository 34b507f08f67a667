//! The maps a successor reads first, checked against the tree: ARCHITECTURE.md's engine row
//! names every file of `src/engine/` (and only files that exist), every game has the files
//! its "Adding a game" section says a game needs, and every `src/` or `tests/` path the two
//! pages cite exists.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The `code` spans of `text`, in order.
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The games of the `registry!` list of `src/games/mod.rs` (their folder names).
fn registered_games() -> Vec<String> {
    let text = read("src/games/mod.rs");
    let start = text.find("registry! {").expect("the registry list") + "registry! {".len();
    let end = start + text[start..].find('}').expect("the list ends");
    let games: Vec<String> = text[start..end].split(',').filter_map(|l| l.trim().split("::").next()).filter(|m| !m.is_empty()).map(String::from).collect();
    assert!(games.len() >= 9, "read {games:?} from the registry");
    games
}

/// The engine row of ARCHITECTURE.md's layer table.
fn engine_row() -> String {
    let text = read("ARCHITECTURE.md");
    text.lines().find(|l| l.starts_with("| engine |")).expect("ARCHITECTURE.md has an engine row").to_string()
}

#[test]
fn the_engine_row_names_every_engine_file_and_only_files_that_exist() {
    let row = engine_row();
    let named: Vec<&str> = code_spans(&row).into_iter().filter(|s| s.ends_with(".rs") || (s.ends_with('/') && !s.contains(' '))).collect();
    let engine = root().join("src/engine");
    let mut missing = Vec::new();
    for name in &named {
        let name = name.trim_start_matches("src/engine/");
        if name.is_empty() {
            continue;
        }
        let found = engine.join(name).exists() || engine.join("ismcts").join(name).exists();
        if !found {
            missing.push(name.to_string());
        }
    }
    assert!(missing.is_empty(), "ARCHITECTURE.md's engine row names files src/engine/ does not have: {missing:?}");
    let mut unnamed = Vec::new();
    for entry in std::fs::read_dir(&engine).expect("src/engine").flatten() {
        let file = entry.file_name().to_string_lossy().to_string();
        let shown = if entry.path().is_dir() { format!("{file}/") } else { file.clone() };
        if !named.contains(&shown.as_str()) {
            unnamed.push(shown);
        }
    }
    assert!(unnamed.is_empty(), "src/engine/ files ARCHITECTURE.md's engine row does not name (say what each owns): {unnamed:?}");
}

#[test]
fn every_game_has_the_files_adding_a_game_lists() {
    let text = read("ARCHITECTURE.md");
    let start = text.find("1. `src/games/<game>/` with").expect("step 1 of Adding a game");
    let end = start + text[start..].find("a game with hidden").expect("step 1 names the optional files after the required ones");
    let files: Vec<&str> = code_spans(&text[start..end]).into_iter().filter(|s| s.ends_with(".rs")).collect();
    assert!(files.len() >= 8, "read {files:?} from step 1");
    let mut missing = Vec::new();
    for game in registered_games() {
        for file in &files {
            if !root().join("src/games").join(&game).join(file).exists() {
                missing.push(format!("src/games/{game}/{file}"));
            }
        }
    }
    assert!(missing.is_empty(), "files ARCHITECTURE.md says every game has, missing: {missing:?}");
}

#[test]
fn every_source_path_the_maps_cite_exists() {
    let mut missing = Vec::new();
    for page in ["ARCHITECTURE.md", "docs/adding-a-game.md"] {
        for span in code_spans(&read(page)) {
            let path = span.split_whitespace().next().unwrap_or("");
            let cited = (path.starts_with("src/") || path.starts_with("tests/")) && !path.contains('<') && !path.contains('*');
            if cited && !root().join(path).exists() {
                missing.push(format!("{page}: {path}"));
            }
        }
    }
    assert!(missing.is_empty(), "paths cited that do not exist: {missing:?}");
}
