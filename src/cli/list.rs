//! `playtest list`: the registered games, their bots and the bundled variants; `list GAME`
//! one game's, with the names of the figures `--metric`, `[expect]` and `compare` read.

use super::*;

/// Flags of `playtest list`.
#[derive(clap::Args, Debug)]
pub(super) struct ListArgs {
    /// Only this game (its id, as in a variant's `game = "..."`): its bots, its bundled
    /// variants and the names of its figures.
    game: Option<String>,
}

pub(super) fn list(a: &ListArgs) -> Result<(), Error> {
    if let Some(id) = &a.game {
        return list_game(id);
    }
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
            .map(|(v, g)| {
                format!(
                    "{} ({}): {}; bots: random, ismcts, greedy{}",
                    v.game,
                    g.program().name,
                    v.description,
                    g.program().bots.iter().map(|b| format!(", {}", b.name)).collect::<String>()
                )
            })
            .unwrap_or_else(|e| format!("invalid: {e}"));
        println!("  {}  ({desc})", f.display());
    }
    Ok(())
}

/// One game: its bots, its bundled variants and its figures (names and meanings) as its
/// standard variant has them.
fn list_game(id: &str) -> Result<(), Error> {
    let entry = games::entry(id).ok_or_else(|| Error::Usage(format!("unknown game `{id}`; allowed: {}", games::GAME_IDS.join(", "))))?;
    println!("{}{}", entry.id, if entry.has_exact { " (exact solver: `playtest exact`)" } else { "" });
    println!("  bots (default `{}`):", entry.default_bot);
    for (name, doc, params) in entry.bots {
        println!("    {name}: {doc}");
        for p in params {
            println!("      {} (default {}, {} to {}): {}", p.name, p.default, p.min, p.max, p.doc);
        }
    }
    let mut files = Vec::new();
    collect_variants(Path::new("variants"), &mut files);
    files.sort();
    let variants: Vec<(PathBuf, Variant)> =
        files.into_iter().filter_map(|f| Variant::load(&f, &[]).ok().map(|v| (f, v))).filter(|(_, v)| v.game == id).collect();
    println!("  bundled variants:");
    for (f, v) in &variants {
        println!("    {}  ({}: {})", f.display(), v.name, v.description);
    }
    // The figures of the standard variant (else the game's defaults): seat figures follow
    // its seats.
    let standard = match variants.iter().find(|(f, _)| f.file_stem().is_some_and(|s| s == "standard")) {
        Some((_, v)) => v.clone(),
        None => Variant::from_toml_str(Path::new("(defaults)"), &format!("game = \"{id}\"\nname = \"defaults\"\n"))?,
    };
    let handle = games::handle(&standard)?;
    let cat = crate::designer::metrics::Catalogue::of(handle.facts());
    println!(
        "  figures (names for --metric, [expect], compare and sweep; {} seats as in `{}`; the game's own figures need a detailed run):",
        handle.facts().seats,
        standard.name
    );
    for d in &cat.defs {
        println!("    {}{}: {}", d.name, if d.applies { "" } else { " (does not apply to this game)" }, d.about);
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
