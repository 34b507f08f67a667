//! The maps a successor reads first, checked against the tree: ARCHITECTURE.md's engine row
//! names every file of `src/engine/` (and only files that exist), every game has the files
//! its "Adding a game" section says a game needs, every `src/` or `tests/` path the two
//! pages cite exists, every trait method they cite is one of that trait's, and every game
//! writes each capability trait in the file they name.

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

/// The methods of each trait of `src/engine/game.rs` (`Game` and its capabilities), by trait.
fn trait_methods() -> Vec<(String, Vec<String>)> {
    let text = read("src/engine/game.rs");
    let mut traits = Vec::new();
    for part in text.split("\npub trait ").skip(1) {
        let name: String = part.chars().take_while(|c| c.is_alphanumeric()).collect();
        let body = &part[..part.find("\n}\n").expect("a trait ends")];
        let methods =
            body.lines().filter_map(|l| l.trim().strip_prefix("fn ")).map(|l| l.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect()).collect();
        traits.push((name, methods));
    }
    traits
}

#[test]
fn every_trait_method_the_maps_cite_exists_in_that_trait() {
    let traits = trait_methods();
    let names: Vec<&str> = traits.iter().map(|(t, _)| t.as_str()).collect();
    for capability in ["Game", "HiddenInfo", "Traces", "AuditHooks", "OwnBots"] {
        assert!(names.contains(&capability), "src/engine/game.rs has no trait {capability}: {names:?}");
    }
    let mut wrong = Vec::new();
    for page in ["ARCHITECTURE.md", "docs/adding-a-game.md"] {
        for span in code_spans(&read(page)) {
            let Some((owner, method)) = span.split_once("::") else { continue };
            let method = method.trim_end_matches("()").split('(').next().unwrap_or("");
            if let Some((_, methods)) = traits.iter().find(|(t, _)| t == owner)
                && !methods.iter().any(|m| m == method)
            {
                wrong.push(format!("{page}: `{span}`"));
            }
        }
    }
    assert!(wrong.is_empty(), "trait methods the maps cite that the trait does not have: {wrong:?}");
}

/// `Game` and each capability trait are implemented in the game's file that ARCHITECTURE.md
/// names for them (the code itself, not a forwarder from `mod.rs`), and no game expands a
/// macro of trait methods.
#[test]
fn every_game_writes_each_capability_in_its_own_file() {
    let text = read("ARCHITECTURE.md").split_whitespace().collect::<Vec<_>>().join(" ");
    let mut wrong = Vec::new();
    assert!(text.contains("`impl Game` (in `rules.rs`"), "ARCHITECTURE.md names rules.rs for Game");
    for (capability, file) in
        [("Game", "rules.rs"), ("HiddenInfo", "determinize.rs"), ("Traces", "trace.rs"), ("AuditHooks", "audit.rs"), ("OwnBots", "bots.rs")]
    {
        assert!(capability == "Game" || text.contains(&format!("`impl {capability}` in `{file}`")), "ARCHITECTURE.md names {file} for {capability}");
        for game in registered_games() {
            let dir = root().join("src/games").join(&game);
            let home = file;
            let pattern = format!("impl {capability} for ");
            let found: Vec<String> = std::fs::read_dir(&dir)
                .expect("game folder")
                .flatten()
                .filter(|e| std::fs::read_to_string(e.path()).is_ok_and(|t| t.contains(&pattern)))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            if found != [home] {
                wrong.push(format!("{game}: `impl {capability}` in {found:?}, expected {home}"));
            }
            if std::fs::read_to_string(dir.join("mod.rs")).expect("mod.rs").contains("trace_methods!") {
                wrong.push(format!("{game}: trace_methods! in mod.rs"));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:?}");
}

/// The index just past the `}` that closes the `{` at `open`, skipping strings, character
/// literals and line comments.
fn block_end(text: &str, open: usize) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut i) = (0usize, open);
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => i += text[i..].find('\n').unwrap_or(text.len() - i),
            b'"' => {
                i += 1;
                while bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'\'' if bytes.get(i + 2) == Some(&b'\'') => i += 2,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    panic!("unbalanced braces")
}

/// The methods of `impl TRAIT for` blocks in `text` whose body is one call that hands its
/// arguments on unchanged (`self.helper(a, b)`, `helper(self, a)`): (method, body).
fn forwarders(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("\nimpl ") {
        let open = at + text[at..].find('{').expect("an impl block");
        let header = &text[at + 6..open];
        if !["Game ", "HiddenInfo ", "Traces ", "AuditHooks ", "OwnBots "].iter().any(|t| header.starts_with(t)) {
            continue;
        }
        let block = &text[open..block_end(text, open)];
        for (f, _) in block.match_indices("fn ") {
            let name: String = block[f + 3..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            // The body's `{`: the first one after the signature's parentheses close.
            let (mut depth, mut body_open) = (0i32, None);
            for (k, c) in block[f..].char_indices() {
                match c {
                    '(' | '[' => depth += 1,
                    ')' | ']' => depth -= 1,
                    ';' if depth == 0 => break,
                    '{' if depth == 0 => {
                        body_open = Some(f + k);
                        break;
                    }
                    _ => {}
                }
            }
            let Some(b) = body_open else { continue };
            let body = block[b + 1..block_end(block, b) - 1].trim().trim_end_matches(';').trim();
            let Some(paren) = body.find('(') else { continue };
            let (callee, args) = (&body[..paren], &body[paren + 1..]);
            // A helper of the game (`self.helper`, `Self::helper`, `module::helper`), not data
            // read through fields (`self.params.cap.min(..)`) or a constant (`KINDS.to_vec()`).
            let plain_callee = !callee.is_empty()
                && callee.chars().all(|c| c.is_alphanumeric() || "_.:".contains(c))
                && callee.matches('.').count() <= 1
                && !callee.split('.').next().is_some_and(|r| callee.contains('.') && r.chars().all(|c| c.is_uppercase() || c == '_'));
            let plain_args = args.ends_with(')')
                && args[..args.len() - 1].split(',').all(|a| {
                    let a = a.trim().trim_start_matches('&').trim_start_matches("mut ").trim_start_matches('*');
                    a.chars().all(|c| c.is_alphanumeric() || "_.".contains(c))
                })
                && !args[..args.len() - 1].split(',').all(|a| a.trim().parse::<i64>().is_ok());
            if plain_callee && plain_args && !body.contains(';') && !body.contains('\n') {
                found.push((name, body.to_string()));
            }
        }
    }
    found
}

/// A game's trait methods are the code itself (ARCHITECTURE.md, "Adding a game"): none of
/// them only hands its arguments to a helper of another name. Three calls are the code's
/// one home and stay calls: `View::new` (the view module keeps the table private from the
/// bots), `deal_hidden` (shared by `determinize` and `mend`) and `random_choice` (shared by
/// `random_action` and the determinization).
#[test]
fn no_game_method_only_forwards_to_a_helper() {
    let kept = ["View::new(", "deal_hidden(", "random_choice("];
    let mut wrong = Vec::new();
    for game in registered_games() {
        for file in ["rules.rs", "determinize.rs", "trace.rs", "audit.rs", "bots.rs"] {
            let text = read(&format!("src/games/{game}/{file}"));
            for (method, body) in forwarders(&text) {
                if !kept.iter().any(|k| body.contains(k)) {
                    wrong.push(format!("src/games/{game}/{file}: fn {method} {{ {body} }}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "trait methods that only forward a call (write the code in the method): {wrong:?}");
}
