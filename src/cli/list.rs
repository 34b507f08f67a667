//! `playtest list`: the registered games, their bots and the bundled variants.

use super::*;

pub(super) fn list() -> Result<(), Error> {
    println!("games:");
    for entry in games::entries() {
        println!("  {}{}", entry.id, if entry.has_exact { " (exact solver: `playtest exact`)" } else { "" });
        println!("    bots (default `{}`):", entry.default_bot);
        for (name, doc, params) in entry.bots {
            println!("      {name}: {doc}");
            for p in params {
                println!("        {} (default {}, {} to {}): {}", p.name, p.default, p.min, p.max, p.doc);
            }
        }
    }
    println!("bundled variants:");
    let mut files = Vec::new();
    collect_variants(Path::new("variants"), &mut files);
    files.sort();
    for f in files {
        let desc = Variant::load(&f, &[]).map(|v| format!("{} / {}: {}", v.game, v.name, v.description)).unwrap_or_else(|e| format!("invalid: {e}"));
        println!("  {}  ({desc})", f.display());
    }
    println!("bundled rules files (your own game without Rust: docs/rules-language.md):");
    let mut files = Vec::new();
    collect_variants(Path::new("examples/rules"), &mut files);
    files.sort();
    for f in files {
        let desc = Variant::load(&f, &[])
            .map_err(Error::from)
            .and_then(|v| games::rules::RulesGame::from_variant(&v).map(|g| (v, g)).map_err(Error::from))
            .map(|(v, g)| format!("{} ({}): {}; bots: random, ismcts, greedy{}", v.game, g.program().name, v.description, g.program().bots.iter().map(|b| format!(", {}", b.name)).collect::<String>()))
            .unwrap_or_else(|e| format!("invalid: {e}"));
        println!("  {}  ({desc})", f.display());
    }
    Ok(())
}

pub(super) fn collect_variants(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_variants(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}
