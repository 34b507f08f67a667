//! serde's rejections of a game's keys in the designer's words: an unknown key with the
//! nearest allowed one ("did you mean `scoring.seller`?"), a wrong type as what is allowed
//! ("a whole number from 2 to 8"), a missing key by its full name.

use crate::error::VariantError;

use super::{COMMON_KEYS, Provenance};

/// The error of a key serde rejected while deserialising a game's parameters: `key` is the
/// dotted path serde reached (the unknown key itself for an unknown key, the table for a
/// missing one), `message` serde's text.
pub(super) fn rejection(provenance: &Provenance, key: &str, message: &str) -> VariantError {
    // toml adds the key on a line of its own ("\nin `players`"): the error names it already.
    let message = message.lines().next().unwrap_or(message).trim();
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let (name, mut allowed) = named_and_allowed(rest);
        if !key.contains('.') {
            // A key at the top of the file may also be one every variant has.
            for k in COMMON_KEYS {
                if !allowed.iter().any(|a| a == k) {
                    allowed.push(k.to_string());
                }
            }
        }
        let parent = key.rsplit_once('.').map(|(p, _)| format!("{p}.")).unwrap_or_default();
        let hint = nearest(&name, allowed.iter().map(String::as_str)).map(|n| format!("did you mean `{parent}{n}`? ")).unwrap_or_default();
        return provenance.invalid(key, format!("unknown key `{name}`; {hint}allowed: {}", quoted(&allowed)));
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let (value, allowed) = named_and_allowed(rest);
        let hint = nearest(&value, allowed.iter().map(String::as_str)).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
        return provenance.invalid(key, format!("`{value}` is not allowed; {hint}allowed: {}", quoted(&allowed)));
    }
    if let Some(rest) = message.strip_prefix("missing field ") {
        let name = rest.trim_matches('`');
        let full = if key.is_empty() { name.to_string() } else { format!("{key}.{name}") };
        let why = if key.is_empty() { String::new() } else { format!(": a `[{key}]` table given in a variant needs it") };
        return provenance.invalid(&full, format!("missing key `{full}`{why}"));
    }
    if let Some((got, expected)) = message.strip_prefix("invalid type: ").and_then(|r| r.split_once(", expected ")) {
        let kind = Expected::of(expected);
        return wrong(provenance, key, got_text(got, kind), kind, expected);
    }
    if let Some((got, expected)) = message.strip_prefix("invalid value: ").and_then(|r| r.split_once(", expected ")) {
        let kind = Expected::of(expected);
        let value = got.split('`').nth(1).unwrap_or(got);
        let problem = if value.starts_with('-') { format!("{value} is negative") } else { format!("{value} is out of range") };
        return wrong(provenance, key, problem, kind, expected);
    }
    provenance.invalid(key, message.to_string())
}

fn wrong(provenance: &Provenance, key: &str, problem: String, kind: Expected, expected: &str) -> VariantError {
    VariantError::WrongType(Box::new(crate::error::WrongType {
        at: provenance.locate(key),
        key: key.to_string(),
        problem,
        expected: kind.words(expected),
        probe: kind.probe(),
    }))
}

/// The kind of value serde expected.
#[derive(Clone, Copy, PartialEq)]
enum Expected {
    Unsigned,
    Whole,
    Number,
    Boolean,
    Text,
    Table,
    List,
    Other,
}

impl Expected {
    fn of(expected: &str) -> Expected {
        match expected {
            "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => Expected::Unsigned,
            "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => Expected::Whole,
            "f32" | "f64" => Expected::Number,
            "a boolean" => Expected::Boolean,
            "a string" | "a borrowed string" => Expected::Text,
            "a sequence" => Expected::List,
            e if e.starts_with("struct ") || e.starts_with("a map") || e == "map" => Expected::Table,
            _ => Expected::Other,
        }
    }

    fn words(self, expected: &str) -> String {
        match self {
            Expected::Unsigned => "a whole number >= 0".into(),
            Expected::Whole => "a whole number".into(),
            Expected::Number => "a number".into(),
            Expected::Boolean => "true or false".into(),
            Expected::Text => "text in quotes".into(),
            Expected::Table => "a table of keys".into(),
            Expected::List => "a list".into(),
            Expected::Other => expected.to_string(),
        }
    }

    /// A value of the right type far outside any sensible range: the game's own check of it
    /// names the range allowed.
    fn probe(self) -> Option<toml::Value> {
        match self {
            Expected::Unsigned | Expected::Whole => Some(toml::Value::Integer(i64::from(u32::MAX))),
            Expected::Number => Some(toml::Value::Float(1e12)),
            _ => None,
        }
    }
}

/// serde's "unexpected" part (`string "four"`, `integer `5``) as the start of a sentence.
fn got_text(got: &str, kind: Expected) -> String {
    let inner = got.split('`').nth(1);
    if let Some(text) = got.strip_prefix("string ") {
        return format!("{text} is text");
    }
    match (got.split(' ').next().unwrap_or(""), inner) {
        ("floating", Some(x)) if matches!(kind, Expected::Unsigned | Expected::Whole) => format!("{x} is not a whole number"),
        ("floating", Some(x)) | ("integer", Some(x)) => format!("{x} is a number"),
        ("boolean", Some(x)) => format!("{x} is true/false"),
        ("sequence", _) => "a list is given".into(),
        ("map", _) => "a table is given".into(),
        _ => format!("{got} is given"),
    }
}

/// The name in backticks at the start of `rest` and the backticked names after "expected".
fn named_and_allowed(rest: &str) -> (String, Vec<String>) {
    let mut parts = rest.split('`');
    let name = parts.nth(1).unwrap_or("").to_string();
    let allowed = match rest.split_once("expected") {
        Some((_, list)) => list.split('`').skip(1).step_by(2).map(str::to_string).collect(),
        None => Vec::new(),
    };
    (name, allowed)
}

fn quoted(names: &[String]) -> String {
    if names.is_empty() {
        return "no keys here".into();
    }
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

/// The candidate closest to `word` by edit distance (insertions, deletions, substitutions and
/// swaps of neighbours), when it is close enough to be a typo: at most one edit per three
/// letters, and at least one.
pub fn nearest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates.map(|c| (distance(word, c), c)).filter(|&(d, _)| d <= limit).min_by_key(|&(d, _)| d).map(|(_, c)| c)
}

/// Optimal string alignment distance between `a` and `b`.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, x) in d[0].iter_mut().enumerate() {
        *x = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// The range the game's own check names for `key` ("allowed: 2 to 8") in `error`.
pub(super) fn allowed_range(error: &VariantError, key: &str) -> Option<(String, String)> {
    match error {
        VariantError::Invalid { key: k, message, .. } if k == key => {
            let (_, rest) = message.rsplit_once("allowed: ")?;
            let (lo, hi) = rest.trim().split_once(" to ")?;
            // "2 to 10 (a set needs two ...)": the number, not the reason after it.
            let hi = hi.split_whitespace().next()?.trim_end_matches([',', ';', '.', ')']);
            let number = |s: &str| s.trim().parse::<f64>().is_ok();
            (number(lo) && number(hi)).then(|| (lo.trim().to_string(), hi.to_string()))
        }
        VariantError::Many(all) => all.iter().find_map(|e| allowed_range(e, key)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_their_key_and_strangers_find_none() {
        let keys = ["seller", "increment", "set_bonus", "bots", "players"];
        assert_eq!(nearest("selller", keys.into_iter()), Some("seller"));
        assert_eq!(nearest("bot", keys.into_iter()), Some("bots"));
        assert_eq!(nearest("playres", keys.into_iter()), Some("players"));
        assert_eq!(nearest("colour", keys.into_iter()), None);
        assert_eq!(distance("abc", "acb"), 1);
    }
}
