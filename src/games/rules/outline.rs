//! `playtest rules FILE` for a rules file: its parameters as a key table (as a built-in
//! game's) and a readable outline of the rules as played: cards, zones, counters, set-up,
//! turn, actions, end and figures, in the file's own words.

use std::fmt::Write as _;

use super::RulesGame;
use super::program::{ArgChoice, ParamDefault, ParamKind, Per, Visibility};
use crate::variant::Variant;

/// The parameters and the outline of `game`, compiled from `variant`.
pub fn outline(variant: &Variant, game: &RulesGame) -> String {
    let p = game.program();
    let mut out = String::new();
    let _ = writeln!(out, "# {} (`game = \"{}\"`, rules file {})", p.name, p.id, variant.path.display());
    if !variant.description.is_empty() {
        let _ = writeln!(out, "\n{}", variant.description);
    }
    parameters(&mut out, game);
    let _ = writeln!(out, "\n## Rules as played\n");
    components(&mut out, variant, game);
    section(&mut out, variant, "Set-up", "setup");
    section(&mut out, variant, "Each round starts", "round.setup");
    if let Some(skip) = source(variant, "turn.skip") {
        let _ = writeln!(out, "\nA seat is passed over (no turn) when: {skip}");
    }
    section(&mut out, variant, "A turn", "turn.steps");
    section(&mut out, variant, "Each round ends", "round.end");
    actions(&mut out, variant, game);
    end(&mut out, variant, game);
    if !p.figures.is_empty() {
        let _ = writeln!(out, "\n## Figures\n");
        for f in &p.figures {
            let _ = writeln!(out, "- `{}`: {} ({})", f.name, f.meaning, f.unit);
        }
    }
    if !p.bots.is_empty() {
        let _ = writeln!(out, "\n## The file's bots\n");
        for bot in &p.bots {
            let _ = writeln!(out, "- `{}`: {}", bot.name, bot.doc);
        }
    }
    out
}

/// The key table: every declared parameter with its default (its value here when computed),
/// what is allowed and what it means.
fn parameters(out: &mut String, game: &RulesGame) {
    let p = game.program();
    let b = &game.bound;
    let _ = writeln!(out, "\n## Parameters\n");
    let _ = writeln!(out, "Every key may be set in a variant that extends this file or with `--set KEY=VALUE`.\n");
    let _ = writeln!(out, "| key | default | allowed | meaning |\n| --- | --- | --- | --- |");
    for (i, d) in p.params.iter().enumerate() {
        let default = match (&d.default, &d.kind) {
            (ParamDefault::Value(v), ParamKind::Bool) => format!("`{}`", *v != 0),
            (ParamDefault::Value(v), ParamKind::Word(words)) => format!("`\"{}\"`", words[*v as usize]),
            (ParamDefault::Value(v), ParamKind::IntOrWord(words)) if *v < 0 => format!("`\"{}\"`", words[(-*v - 1) as usize]),
            (ParamDefault::Value(v), _) => format!("`{v}`"),
            (ParamDefault::Rows(r), _) => format!("`{r:?}`"),
            (ParamDefault::Expr(_), _) => format!("computed ({} here)", b.params[i]),
        };
        let allowed = match &d.kind {
            ParamKind::Int => format!("{} to {}", d.min, d.max),
            ParamKind::Bool => "true, false".into(),
            ParamKind::Word(words) => words.join(", "),
            ParamKind::IntOrWord(words) => format!("{} to {}, or {}", d.min, d.max, words.join(", ")),
            ParamKind::Rows { step } => format!("rows 1, 2, ... (past the last: +{step} a row)"),
        };
        let _ = writeln!(out, "| `{}` | {default} | {allowed} | {} |", d.key, d.meaning);
    }
}

/// What a card group holds, in words: a kit set's cards, a die's faces, the attribute values.
fn group_cards(p: &super::program::Program, g: &super::program::CardGroup) -> String {
    if let Some((set, _)) = &g.kit_set {
        let what = match set.as_str() {
            "base" => "25 base cards, one per color and shape".to_string(),
            "colors" => "the 5 color wilds and the all-colors wild".to_string(),
            "shapes" => "the 5 shape wilds and the all-shapes wild".to_string(),
            _ => format!("the action cards {}", g.values[3].iter().map(|&v| p.attrs[3].values[v as usize].as_str()).collect::<Vec<_>>().join(", ")),
        };
        return format!("{what} (the Chroma kit's {set} set)");
    }
    let parts: Vec<String> = p
        .attrs
        .iter()
        .zip(&g.values)
        .enumerate()
        .filter(|&(i, (a, _))| a.values.len() > 1 && g.die != Some(i as u8))
        .map(|(_, (a, v))| {
            if v.len() == a.values.len() { format!("every {}", a.name) } else { v.iter().map(|&x| a.values[x as usize].clone()).collect::<Vec<_>>().join("/") }
        })
        .collect();
    match g.die {
        Some(a) => {
            let faces: Vec<&str> = g.values[a as usize].iter().map(|&x| p.attrs[a as usize].values[x as usize].as_str()).collect();
            format!(
                "dice, each showing one {} of {}{}{}",
                p.attrs[a as usize].name,
                faces.join("/"),
                if parts.is_empty() { "" } else { ", " },
                parts.join(", ")
            )
        }
        None => parts.join(", "),
    }
}

/// Players and seats, the card groups, the zones with who sees them, and the counters.
fn components(out: &mut String, variant: &Variant, game: &RulesGame) {
    let p = game.program();
    let b = &game.bound;
    let _ = writeln!(
        out,
        "Players: {} ({} seats{}); cards: {} in the deck.",
        b.players,
        b.seats,
        if b.seats > b.players { ", dummies included" } else { "" },
        // A die is one card per face, one of which is on the table: count it once.
        b.attrs.len() - b.dice.iter().filter(|&&(_, faces)| faces > 0).count()
            + b.dice.iter().enumerate().filter(|&(c, &(first, faces))| faces > 0 && c == first as usize).count()
    );
    // The group's index in the file: a kit set's later parts are the same group.
    let mut in_file = 0usize;
    for g in &p.groups {
        if g.kit_set.as_ref().is_some_and(|(_, part)| *part > 0) {
            continue;
        }
        let copies = source(variant, &format!("cards.group.{in_file}.copies")).unwrap_or_else(|| "1".into());
        in_file += 1;
        let _ = writeln!(out, "- {}: {} x {copies}, starting in `{}`", g.name, group_cards(p, g), b.zone_label(g.zone as usize));
    }
    if !p.zones.is_empty() {
        let _ = writeln!(out, "\nZones:");
        for z in &p.zones {
            let see = match z.visibility {
                Visibility::Everyone => "everyone sees its cards",
                Visibility::Owner => "its owner sees its cards",
                Visibility::Nobody => "face down",
                Visibility::Top => "everyone sees the top card",
            };
            let _ =
                writeln!(out, "- `{}`: {}, {}{}", z.name, if z.per_seat { "one per seat" } else { "shared" }, see, if z.ordered { "" } else { ", unordered" });
        }
    }
    if !p.counters.is_empty() {
        let _ = writeln!(out, "\nCounters (public):");
        for c in &p.counters {
            let per = match c.per {
                Per::One => "one".to_string(),
                Per::Seat => "per seat".to_string(),
                Per::Attr(a) => format!("per {}", p.attrs[a as usize].name),
            };
            let start = source(variant, &format!("counters.{}.start", c.name))
                .or_else(|| source(variant, &format!("counters.{}", c.name)))
                .unwrap_or_else(|| "0".into());
            let _ = writeln!(out, "- `{}` ({per}), starting at {start}", c.name);
        }
    }
}

/// Every action: when it may be chosen, what it chooses and what it does.
fn actions(out: &mut String, variant: &Variant, game: &RulesGame) {
    let p = game.program();
    let _ = writeln!(out, "\n## Actions");
    for a in &p.actions {
        let _ = writeln!(out, "\n### {}", a.name);
        if let Some(c) = source(variant, &format!("actions.{}.if", a.name)) {
            let _ = writeln!(out, "When: {c}");
        }
        if let Some(toml::Value::Table(t)) = lookup(&variant.table, &format!("actions.{}.cards", a.name)) {
            let text: Vec<String> = t.iter().map(|(k, v)| format!("{k} {}", plain(v))).collect();
            let _ = writeln!(out, "Chooses cards: {}", text.join(", "));
        }
        match a.arg {
            ArgChoice::Number(..) => {
                let _ = writeln!(out, "Chooses a number: {}", source(variant, &format!("actions.{}.number", a.name)).unwrap_or_default());
            }
            ArgChoice::Seat { others } => {
                let _ = writeln!(out, "Chooses {}", if others { "another seat" } else { "a seat" });
            }
            ArgChoice::None => {}
        }
        if let Some(v) = lookup(&variant.table, &format!("actions.{}.do", a.name)) {
            let mut lines = String::new();
            steps(&mut lines, v, 0);
            let _ = write!(out, "Then:\n{lines}");
        }
    }
}

/// When the game ends (each condition and the cap), who wins, the standing and end reasons.
fn end(out: &mut String, variant: &Variant, game: &RulesGame) {
    let p = game.program();
    let b = &game.bound;
    let _ = writeln!(out, "\n## End");
    if let Some(toml::Value::Array(items)) = lookup(&variant.table, "end.when") {
        for item in items {
            let _ = writeln!(
                out,
                "- after a turn, when {}: ends (`{}`)",
                item.get("if").map(plain).unwrap_or_default(),
                item.get("reason").map(plain).unwrap_or_else(|| "ended".into())
            );
        }
    }
    let _ = writeln!(out, "- after {} {} (`cap`)", b.cap, p.length_unit);
    if let Some(toml::Value::Array(items)) = lookup(&variant.table, "end.winners") {
        let rules: Vec<String> = items
            .iter()
            .map(|i| i.as_table().map(|t| t.iter().map(|(k, v)| format!("{k} {}", plain(v))).collect::<Vec<_>>().join(", ")).unwrap_or_default())
            .collect();
        let _ = writeln!(out, "\nWinners, the first rule that decides: {}; ties share.", rules.join("; else "));
    }
    if let Some(s) = source(variant, "end.standing") {
        let _ = writeln!(out, "Standing ({}): {s}", p.standing_unit);
    }
    let _ = writeln!(out, "End reasons: {}", p.end_reasons.join(", "));
}

fn section(out: &mut String, variant: &Variant, title: &str, key: &str) {
    if let Some(v) = lookup(&variant.table, key) {
        let mut lines = String::new();
        steps(&mut lines, v, 0);
        let _ = write!(out, "\n{title}:\n{lines}");
    }
}

fn steps(out: &mut String, v: &toml::Value, depth: usize) {
    let pad = "  ".repeat(depth);
    match v {
        toml::Value::Array(items) => {
            for item in items {
                steps(out, item, depth);
            }
        }
        toml::Value::String(s) => {
            let _ = writeln!(out, "{pad}- {s}");
        }
        toml::Value::Table(t) => {
            if let Some(c) = t.get("if") {
                let _ = writeln!(out, "{pad}- if {}:", plain(c));
                if let Some(then) = t.get("then") {
                    steps(out, then, depth + 1);
                }
                if let Some(e) = t.get("else") {
                    let _ = writeln!(out, "{pad}- otherwise:");
                    steps(out, e, depth + 1);
                }
            } else if let Some(each) = t.get("each") {
                let name = t.get("as").map(plain).map(|n| format!(" (as {n})")).unwrap_or_default();
                let _ = writeln!(out, "{pad}- for each {}{name}:", plain(each));
                if let Some(d) = t.get("do") {
                    steps(out, d, depth + 1);
                }
            } else if let Some(w) = t.get("while") {
                let _ = writeln!(out, "{pad}- while {}:", plain(w));
                if let Some(d) = t.get("do") {
                    steps(out, d, depth + 1);
                }
            } else if let Some(c) = t.get("choose") {
                let by = t.get("by").map(|b| format!(" ({} chooses)", plain(b))).unwrap_or_default();
                let secret = if t.get("secret").and_then(|s| s.as_bool()) == Some(true) { " in secret" } else { "" };
                let _ = writeln!(out, "{pad}- choose{secret} one of: {}{by}", plain(c));
            }
        }
        other => {
            let _ = writeln!(out, "{pad}- {}", plain(other));
        }
    }
}

fn plain(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Array(a) => a.iter().map(plain).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

fn source(variant: &Variant, key: &str) -> Option<String> {
    lookup(&variant.table, key).map(plain)
}

fn lookup<'t>(table: &'t toml::Table, key: &str) -> Option<&'t toml::Value> {
    let mut parts = key.split('.');
    let mut value = table.get(parts.next()?)?;
    for part in parts {
        value = match value {
            toml::Value::Table(t) => t.get(part)?,
            toml::Value::Array(a) => a.get(part.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(value)
}
