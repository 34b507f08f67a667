//! The grid `tune` races: the tuned keys ([`Knob`], from `--param` or the variant's `[tune]`
//! table), every combination of their values ([`Candidate`]) and the preference order among
//! them (fewest keys changed, then the smallest relative change).

use serde::Serialize;

use crate::error::Error;
use crate::variant::Variant;

use super::super::sweep::parse_values;
use super::MAX_CANDIDATES;

/// One tuned key with its grid values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Knob {
    /// Dotted key path (`payout.3.withdrawal`, `seats.0.bluff`).
    pub key: String,
    /// Its value in the variant as written.
    pub original: f64,
    /// The values tried: (text given to `--set`, number).
    pub values: Vec<(String, f64)>,
}

/// The value at a dotted key path of a table (numeric segments index arrays).
pub fn lookup<'a>(table: &'a toml::Table, key: &str) -> Option<&'a toml::Value> {
    let mut segments = key.split('.');
    let mut current = table.get(segments.next()?)?;
    for seg in segments {
        current = match current {
            toml::Value::Table(t) => t.get(seg)?,
            toml::Value::Array(items) => items.get(seg.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(current)
}

/// `KEY=RANGE` pairs from the `[tune]` table of `variant` (nested tables flattened to dotted
/// keys; each leaf a `"LO..HI[:STEP]"` or `"a,b,c"` string).
pub fn tune_table(variant: &Variant) -> Result<Vec<String>, Error> {
    let Some(value) = variant.table.get("tune") else { return Ok(Vec::new()) };
    let toml::Value::Table(table) = value else {
        return Err(variant.provenance.invalid("tune", "expected a table: [tune] with lines such as payout.3.withdrawal = \"4..12:2\"").into());
    };
    fn walk(prefix: &str, t: &toml::Table, variant: &Variant, out: &mut Vec<String>) -> Result<(), Error> {
        for (k, v) in t {
            let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
            match v {
                toml::Value::Table(inner) => walk(&key, inner, variant, out)?,
                toml::Value::String(range) => out.push(format!("{key}={range}")),
                _ => {
                    return Err(variant
                        .provenance
                        .invalid(&format!("tune.{key}"), "expected the values as a string: \"LO..HI:STEP\" (HI included) or \"a,b,c\"")
                        .into());
                }
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk("", table, variant, &mut out)?;
    Ok(out)
}

/// The tuned keys of `params` (`KEY=LO..HI[:STEP]` or `KEY=a,b,c`), each checked against the
/// variant: the key must hold a number there (its value as written is the reference of the
/// relative change).
pub fn knobs(variant: &Variant, params: &[String]) -> Result<Vec<Knob>, Error> {
    if params.is_empty() {
        return Err(Error::Usage(format!("tune needs keys to tune: --param KEY=LO..HI[:STEP] (repeatable), or a [tune] table in {}", variant.path.display())));
    }
    let mut out: Vec<Knob> = Vec::new();
    for p in params {
        let (key, range) = p.split_once('=').ok_or_else(|| Error::Usage(format!("--param {p}: expected KEY=LO..HI[:STEP] or KEY=a,b,c")))?;
        let key = key.trim();
        if crate::variant::COMMON_KEYS.contains(&key.split('.').next().unwrap_or(key)) && !key.starts_with("seats.") {
            return Err(Error::Usage(format!("--param {key}: not a numeric key of the game; tune keys such as bank or payout.3.withdrawal")));
        }
        if out.iter().any(|k| k.key == key) {
            return Err(Error::Usage(format!("--param {key} is given twice")));
        }
        let original = match lookup(&variant.table, key) {
            Some(toml::Value::Integer(i)) => *i as f64,
            Some(toml::Value::Float(x)) => *x,
            Some(other) => {
                return Err(Error::Usage(format!(
                    "--param {key}: the variant sets it to {other} ({}), not a number; tune numeric keys only",
                    variant.provenance.locate(key)
                )));
            }
            // Left at the game's default: that default is what a change is measured from.
            None => match default_of(variant, key) {
                Some(x) => x,
                None => {
                    return Err(Error::Usage(format!(
                        "--param {key}: {} does not set this key and its default is not one number (`playtest rules {}` lists the keys); write it in the variant first (its value there is what a change is measured from)",
                        variant.path.display(),
                        variant.game
                    )));
                }
            },
        };
        let values = parse_values(range).map_err(|e| Error::Usage(format!("--param {key}: {}", e.replace("--range ", "").replace("--values", "values"))))?;
        out.push(Knob { key: key.to_string(), original, values });
    }
    let size: usize = out.iter().map(|k| k.values.len()).try_fold(1usize, |a, n| a.checked_mul(n)).unwrap_or(usize::MAX);
    if size > MAX_CANDIDATES {
        return Err(Error::Usage(format!("the grid has {size} candidates; at most {MAX_CANDIDATES}: use a coarser STEP or fewer keys")));
    }
    Ok(out)
}

/// The default of `key` when it is one number (`4`, `0.5`): from the built-in game's key table,
/// or a rules file's declared parameter; `None` for an unknown key or a default in words.
fn default_of(variant: &Variant, key: &str) -> Option<f64> {
    if let Some(keys) = crate::games::variant_keys(&variant.game) {
        let k = keys.iter().find(|k| k.key == key)?;
        return k.default.trim().parse::<f64>().ok().filter(|x| x.is_finite());
    }
    // A rules file: the values its declared parameters take.
    let table = crate::games::handle(variant).ok()?.parameter_table(variant);
    match lookup(&table, key)? {
        toml::Value::Integer(i) => Some(*i as f64),
        toml::Value::Float(x) => Some(*x).filter(|x| x.is_finite()),
        _ => None,
    }
}

/// One point of the grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Value index on each knob.
    pub at: Vec<usize>,
    /// Keys whose value differs from the variant as written.
    pub changed: usize,
    /// Sum over the keys of |value - original| / max(|original|, step).
    pub relative_change: f64,
}

/// Every combination of the knobs' values, in grid order.
pub fn grid(knobs: &[Knob]) -> Vec<Candidate> {
    let mut at: Vec<Vec<usize>> = vec![Vec::new()];
    for k in knobs {
        at = at.into_iter().flat_map(|a| (0..k.values.len()).map(move |i| [a.clone(), vec![i]].concat())).collect();
    }
    at.into_iter()
        .map(|at| {
            let mut changed = 0;
            let mut rel = 0.0;
            for (k, &i) in knobs.iter().zip(&at) {
                let v = k.values[i].1;
                let d = (v - k.original).abs();
                if d > 1e-12 * k.original.abs().max(1.0) {
                    changed += 1;
                    let step = k.values.windows(2).map(|w| (w[1].1 - w[0].1).abs()).filter(|s| *s > 0.0).fold(f64::INFINITY, f64::min);
                    let scale = if k.original.abs() > 0.0 {
                        k.original.abs()
                    } else if step.is_finite() {
                        step
                    } else {
                        1.0
                    };
                    rel += d / scale;
                }
            }
            Candidate { at, changed, relative_change: rel }
        })
        .collect()
}

/// The preference order of candidates: fewest keys changed, then smallest relative change,
/// then grid order.
fn preferred(a: &Candidate, b: &Candidate) -> std::cmp::Ordering {
    a.changed.cmp(&b.changed).then(a.relative_change.total_cmp(&b.relative_change))
}

/// The `--set KEY=value` of every knob at `c`.
pub(super) fn sets_of(knobs: &[Knob], c: &Candidate) -> Vec<String> {
    knobs.iter().zip(&c.at).map(|(k, &i)| format!("{}={}", k.key, k.values[i].0)).collect()
}

/// The `--set`s of the keys `c` changes.
pub(super) fn changes_of(knobs: &[Knob], c: &Candidate) -> Vec<String> {
    knobs
        .iter()
        .zip(&c.at)
        .filter(|(k, i)| (k.values[**i].1 - k.original).abs() > 1e-12 * k.original.abs().max(1.0))
        .map(|(k, &i)| format!("{}={}", k.key, k.values[i].0))
        .collect()
}

/// Preference order: `rank[c]` is candidate c's place (0 = the variant as written, if in the
/// grid).
pub(super) fn ranks(cands: &[Candidate]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.sort_by(|&a, &b| preferred(&cands[a], &cands[b]).then(a.cmp(&b)));
    let mut rank = vec![0; cands.len()];
    for (r, &c) in order.iter().enumerate() {
        rank[c] = r;
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_and_preference() {
        let k = vec![
            Knob { key: "a".into(), original: 10.0, values: parse_values("8..12:2").unwrap() },
            Knob { key: "b".into(), original: 0.0, values: parse_values("0..1:0.5").unwrap() },
        ];
        let g = grid(&k);
        assert_eq!(g.len(), 9);
        let orig = g.iter().find(|c| c.changed == 0).unwrap();
        assert_eq!(orig.at, vec![1, 0]);
        let c = g.iter().find(|c| c.at == vec![2, 2]).unwrap();
        // |12-10|/10 + |1-0|/0.5 (original 0: measured in steps).
        assert_eq!(c.changed, 2);
        assert!((c.relative_change - 2.2).abs() < 1e-9);
    }
}
