//! Binds a compiled rules file to one variant: reads every declared parameter's value (the
//! variant's, else the default), checks its range and the file's `require` rules, refuses
//! keys the file does not declare, and builds the deck.

use std::sync::Arc;

use super::compile::{RULES_KEYS, VERSION_KEY};
use super::machine::{BINDS_FRESH, Bound, MAX_CARDS, State};
use super::program::*;
use crate::engine::MAX_SEATS;
use crate::error::VariantError;
use crate::variant::explain::nearest;
use crate::variant::{COMMON_KEYS, Variant};

/// Binds `program` to `variant`'s values.
pub fn bind(program: Arc<Program>, variant: &Variant) -> Result<Bound, VariantError> {
    let p = &program;
    check_unknown_keys(p, variant)?;
    let mut params = vec![0i64; p.params.len()];
    let mut rows = vec![Vec::new(); p.params.len()];
    for (i, decl) in p.params.iter().enumerate() {
        params[i] = read_param(&program, decl, variant, &params, &mut rows, i)?;
    }
    let players_index = p.param("players").expect("checked at compile");
    let players = params[players_index] as usize;
    let mut bound = Bound { params, rows, players, seats: players, ..shell(program.clone()) };
    shape_table(&mut bound, variant)?;
    bound.start = build_deck(&mut bound, variant)?;
    bound.see = bound.see_table();
    bound.quick = bound.quick_table();
    Ok(bound)
}

/// The value of parameter `i` (`decl`): the variant's, checked against its kind and range,
/// else its default (computed from the parameters before it); a table of rows goes to `rows`.
fn read_param(program: &Arc<Program>, decl: &ParamDecl, variant: &Variant, params: &[i64], rows: &mut [Vec<i64>], i: usize) -> Result<i64, VariantError> {
    let empty = empty_state();
    let key = &decl.key;
    let value = lookup(&variant.table, key);
    let v = match (&decl.kind, value) {
        (ParamKind::Rows { .. }, _) => {
            rows[i] = read_rows(decl, value, variant)?;
            0
        }
        (ParamKind::Bool, Some(toml::Value::Boolean(b))) => i64::from(*b),
        (ParamKind::Bool, Some(_)) => return Err(variant.provenance.invalid(key, "expected true or false")),
        (ParamKind::Word(words), Some(toml::Value::String(s))) => words.iter().position(|w| w == s).ok_or_else(|| {
            let hint = nearest(s, words.iter().map(String::as_str)).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
            variant.provenance.invalid(key, format!("`{s}` is not allowed; {hint}allowed: {}", words.join(", ")))
        })? as i64,
        (ParamKind::Word(words), Some(_)) => return Err(variant.provenance.invalid(key, format!("expected one of: {}", words.join(", ")))),
        (ParamKind::IntOrWord(words), Some(toml::Value::String(s))) => {
            -(words.iter().position(|w| w == s).ok_or_else(|| {
                let hint = nearest(s, words.iter().map(String::as_str)).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
                variant
                    .provenance
                    .invalid(key, format!("`{s}` is not allowed; {hint}allowed: an integer from {} to {}, or {}", decl.min, decl.max, words.join(", ")))
            })? as i64)
                - 1
        }
        (ParamKind::IntOrWord(_), Some(toml::Value::Integer(n))) => *n,
        (ParamKind::IntOrWord(words), Some(other)) => {
            return Err(variant
                .provenance
                .invalid(key, format!("expected an integer from {} to {} or one of: {}, got {}", decl.min, decl.max, words.join(", "), other.type_str())));
        }
        (ParamKind::Int, Some(toml::Value::Integer(n))) => *n,
        (ParamKind::Int, Some(other)) => {
            return Err(variant.provenance.invalid(key, format!("expected an integer from {} to {}, got {}", decl.min, decl.max, other.type_str())));
        }
        (_, None) => match &decl.default {
            ParamDefault::Value(v) => *v,
            ParamDefault::Rows(_) => 0,
            ParamDefault::Expr(e) => {
                let partial = Bound { params: params.to_vec(), rows: rows.to_vec(), ..shell(program.clone()) };
                let mut b = BINDS_FRESH;
                partial.eval(e, &empty, &mut b)
            }
        },
    };
    // A word of an integer-or-word parameter (written, or its default) reads below its range.
    let word = matches!(decl.kind, ParamKind::IntOrWord(_)) && v < 0 && matches!(value, None | Some(toml::Value::String(_)));
    if !matches!(decl.kind, ParamKind::Rows { .. }) && !word && (v < decl.min || v > decl.max) {
        let written = value.is_some();
        let message =
            format!("{v} is out of range; allowed: {} to {}{}", decl.min, decl.max, if written { "" } else { " (its default, computed from other keys)" });
        return Err(variant.provenance.invalid(key, message));
    }
    Ok(v)
}

/// The rows of a table-of-rows parameter: a table (`1 = 5`, `2 = 15`: rows past the last
/// written one repeat it) over the default rows, a list of integers, or the default.
fn read_rows(decl: &ParamDecl, value: Option<&toml::Value>, variant: &Variant) -> Result<Vec<i64>, VariantError> {
    let key = &decl.key;
    let default = match &decl.default {
        ParamDefault::Rows(r) => r.clone(),
        _ => Vec::new(),
    };
    match value {
        Some(toml::Value::Table(t)) => {
            let mut r = default;
            for (k, v) in t {
                let n: usize = k
                    .parse()
                    .ok()
                    .filter(|n| (1..=1000).contains(n))
                    .ok_or_else(|| variant.provenance.invalid(&format!("{key}.{k}"), "a row is numbered 1, 2, ... (at most 1000)"))?;
                let v = v.as_integer().ok_or_else(|| variant.provenance.invalid(&format!("{key}.{k}"), "expected an integer"))?;
                if r.len() < n {
                    let last = r.last().copied().unwrap_or(0);
                    r.resize(n, last);
                }
                r[n - 1] = v;
            }
            Ok(r)
        }
        Some(toml::Value::Array(a)) => {
            a.iter().map(|v| v.as_integer().ok_or_else(|| variant.provenance.invalid(key, "expected a list of integers (rows 1, 2, ...)"))).collect()
        }
        Some(_) => Err(variant.provenance.invalid(key, "expected a table of rows (`1 = 5`, `2 = 15`) or a list of integers")),
        None => Ok(default),
    }
}

/// The table's shape from the bound parameters: seats (dummies included), the `require`
/// rules, teams, the turn cap, rounds and the first seat, each checked against what is allowed.
fn shape_table(bound: &mut Bound, variant: &Variant) -> Result<(), VariantError> {
    let program = bound.program.clone();
    let p = &program;
    let players = bound.players;
    let empty = empty_state();
    let mut b = BINDS_FRESH;
    if let Some(e) = &p.seats {
        let seats = bound.eval(e, &empty, &mut b);
        if seats < players as i64 || seats > MAX_SEATS as i64 {
            return Err(variant.provenance.invalid("table.seats", format!("{seats} seats for {players} players; allowed: {players} to {MAX_SEATS}")));
        }
        bound.seats = seats as usize;
    }
    for (cond, message, key) in &p.requires {
        if bound.eval(cond, &empty, &mut b) == 0 {
            return Err(variant.provenance.invalid(key, message.clone()));
        }
    }
    for team in &p.teams {
        if let Some(&s) = team.iter().find(|&&s| s >= bound.seats) {
            return Err(variant.provenance.invalid("table.teams", format!("seat {s} is not at a table of {} seats", bound.seats)));
        }
    }
    let cap = bound.eval(&p.cap, &empty, &mut b);
    if !(1..=10_000_000).contains(&cap) {
        return Err(variant.provenance.invalid("end.cap", format!("the turn cap is {cap}; allowed: 1 to 10000000")));
    }
    bound.cap = cap as u32;
    if let Some(r) = &p.rounds {
        let rounds = bound.eval(r, &empty, &mut b);
        if !(1..=100_000).contains(&rounds) {
            return Err(variant.provenance.invalid("table.rounds", format!("{rounds} rounds; allowed: 1 to 100000")));
        }
        bound.rounds = rounds as u32;
    }
    if let Some(f) = &p.first_seat {
        let first = bound.eval(f, &empty, &mut b);
        if first < 0 || first >= players as i64 {
            return Err(variant.provenance.invalid("table.first", format!("seat {first} starts; allowed: 0 to {}", players - 1)));
        }
        bound.first_seat = first as usize;
    }
    Ok(())
}

/// Builds the deck: every card of every group, each with its attributes and kind, and where
/// each group starts.
fn build_deck(bound: &mut Bound, variant: &Variant) -> Result<Vec<(u16, Vec<u16>)>, VariantError> {
    let program = bound.program.clone();
    let p = &program;
    let empty = empty_state();
    let mut b = BINDS_FRESH;
    let mut next: u32 = 0;
    let radix: Vec<u32> = p.attrs.iter().map(|a| a.values.len() as u32).collect();
    let mut start: Vec<(u16, Vec<u16>)> = Vec::new();
    let mut dice: Vec<(u16, u8)> = Vec::new();
    for (g, group) in p.groups.iter().enumerate() {
        let copies = bound.eval(&group.copies, &empty, &mut b);
        if copies < 0 {
            return Err(variant.provenance.invalid(&format!("cards.group.{g}.copies"), format!("{copies} copies; allowed: 0 or more")));
        }
        // Every combination of the group's values (for dice, of all but the face: each
        // combination is a die, one card per face).
        let mut combos: Vec<[u8; 8]> = vec![[0; 8]];
        for (a, values) in group.values.iter().enumerate() {
            if group.die == Some(a as u8) {
                continue;
            }
            let mut out = Vec::new();
            for combo in &combos {
                for &v in values {
                    let mut c = *combo;
                    c[a] = v as u8;
                    out.push(c);
                }
            }
            combos = out;
        }
        let faces: &[u16] = match group.die {
            Some(a) => &group.values[a as usize],
            None => &[0],
        };
        for combo in combos {
            for _ in 0..copies {
                if next as usize + faces.len() > MAX_CARDS {
                    let what = if group.die.is_some() { "cards (a die is one card per face)" } else { "cards" };
                    return Err(variant.provenance.invalid(&format!("cards.group.{g}.copies"), format!("the deck would hold more than {MAX_CARDS} {what}")));
                }
                let first = next as u16;
                for &face in faces {
                    let mut card = combo;
                    if let Some(a) = group.die {
                        card[a as usize] = face as u8;
                    }
                    let kind = card.iter().zip(&radix).fold(0u32, |k, (&v, &r)| k * r + v as u32);
                    bound.attrs.push(card);
                    bound.kinds.push(kind);
                    dice.push(if group.die.is_some() { (first, faces.len() as u8) } else { (0, 0) });
                    next += 1;
                }
                // A die starts on the table showing its first face; the others wait off it.
                match start.iter_mut().find(|(z, _)| *z == group.zone) {
                    Some((_, list)) => list.push(first),
                    None => start.push((group.zone, vec![first])),
                }
            }
        }
    }
    // Kept only when the deck has dice, so a game without them never looks.
    if dice.iter().any(|&(_, faces)| faces > 0) {
        bound.dice = dice;
    }
    Ok(start)
}

/// A bound game with nothing bound yet (defaults of every field).
fn shell(program: Arc<Program>) -> Bound {
    let (instance_decl, instance_owner) = Bound::instance_tables(&program);
    Bound {
        instance_decl,
        instance_owner,
        see: Vec::new(),
        quick: Vec::new(),
        program,
        params: Vec::new(),
        rows: Vec::new(),
        players: 1,
        seats: 1,
        attrs: Vec::new(),
        kinds: Vec::new(),
        dice: Vec::new(),
        start: Vec::new(),
        cap: 1,
        rounds: 1,
        first_seat: 0,
    }
}

/// A state with nothing in it, for expressions over parameters alone.
fn empty_state() -> State {
    State::empty()
}

fn lookup<'t>(table: &'t toml::Table, key: &str) -> Option<&'t toml::Value> {
    let mut parts = key.split('.');
    let mut value = table.get(parts.next()?)?;
    for part in parts {
        value = value.as_table()?.get(part)?;
    }
    Some(value)
}

/// Refuses a top-level key that is neither a rules construct, a common variant key nor a
/// declared parameter (or a table holding one).
fn check_unknown_keys(p: &Program, variant: &Variant) -> Result<(), VariantError> {
    let mut allowed: Vec<String> = RULES_KEYS.iter().chain(COMMON_KEYS).map(|s| s.to_string()).collect();
    allowed.push(VERSION_KEY.into());
    for decl in &p.params {
        allowed.push(decl.key.clone());
    }
    for key in variant.table.keys() {
        if allowed.iter().any(|a| a == key) {
            continue;
        }
        // A table of dotted parameters (`deck` for `deck.base_sets`).
        if let Some(toml::Value::Table(t)) = variant.table.get(key) {
            let mut bad = None;
            check_table(key, t, &p.params, &mut bad);
            if let Some(bad) = bad {
                let names: Vec<&str> = p.params.iter().map(|d| d.key.as_str()).collect();
                let hint = nearest(&bad, names.iter().copied()).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
                return Err(variant.provenance.invalid(&bad, format!("not a parameter of this rules file; {hint}parameters: {}", names.join(", "))));
            }
            continue;
        }
        let names: Vec<&str> = p.params.iter().map(|d| d.key.as_str()).chain(RULES_KEYS.iter().copied()).collect();
        let hint = nearest(key, names.iter().copied()).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
        return Err(variant
            .provenance
            .invalid(key, format!("unknown key; {hint}parameters: {}", p.params.iter().map(|d| d.key.as_str()).collect::<Vec<_>>().join(", "))));
    }
    Ok(())
}

fn check_table(prefix: &str, t: &toml::Table, params: &[ParamDecl], bad: &mut Option<String>) {
    for (k, v) in t {
        let full = format!("{prefix}.{k}");
        if params.iter().any(|d| d.key == full && matches!(d.kind, ParamKind::Rows { .. })) || params.iter().any(|d| d.key == full) {
            continue;
        }
        match v {
            toml::Value::Table(inner) if params.iter().any(|d| d.key.starts_with(&format!("{full}."))) => check_table(&full, inner, params, bad),
            _ => {
                if bad.is_none() {
                    *bad = Some(full);
                }
            }
        }
    }
}
