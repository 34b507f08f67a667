//! The tuned variant (`tuned.toml`): `extends` the original and sets only the keys the
//! winner changes, with a header saying whether it holds.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::designer::thousands;
use crate::error::Error;
use crate::variant::Variant;

use super::TuneOptions;
use super::grid::lookup;
use super::result::TuneResult;
use super::text::failing;

/// The path of `to` relative to the folder `from` (both absolute).
pub(super) fn relative(from: &Path, to: &Path) -> PathBuf {
    let (f, t): (Vec<_>, Vec<_>) = (from.components().collect(), to.components().collect());
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..f.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c.as_os_str());
    }
    out
}

/// The tuned variant: `extends` the original (relative to the output folder `target`) and sets
/// only the changed keys.
pub(super) fn tuned_toml(o: &TuneOptions, base: &Variant, r: &TuneResult, target: &Path) -> Result<String, Error> {
    let original = std::fs::canonicalize(&o.variant).map_err(|e| Error::output(&o.variant, e))?;
    let extends = relative(target, &original);
    let mut t = String::new();
    let _ = writeln!(t, "# Written by `playtest tune` (seed {}, {} games spent on a grid of {}).", r.seed, thousands(r.spent), r.grid);
    if r.found {
        let _ = writeln!(
            t,
            "# Every [expect] bound of {} holds (confirmed on seed {}, {} games).",
            o.variant.display(),
            r.confirmation.seed,
            thousands(r.confirmation.games)
        );
    } else if r.race_holds {
        let _ = writeln!(
            t,
            "# NOTHING in the grid meets every [expect] bound: these values met them on the race's games, but on a fresh seed ({}, {} games) {} fails. They are the closest values, not a variant that passes `check`.",
            r.confirmation.seed,
            thousands(r.confirmation.games),
            failing(&r.confirmation.bounds)
        );
    } else {
        let _ = writeln!(t, "# NOTHING in the grid meets every [expect] bound: these are the closest values, not a variant that passes `check`.");
    }
    if !o.sets.is_empty() {
        let _ = writeln!(t, "# The race ran with --set {}: add those keys too.", o.sets.join(" --set "));
    }
    if r.changes.is_empty() {
        let _ = writeln!(t, "# {}: no key changed.", if r.found { "The variant as written already holds" } else { "The closest is the variant as written" });
    }
    let _ = writeln!(t, "extends = {}", toml::Value::String(extends.display().to_string()));
    let _ = writeln!(t, "name = {}", toml::Value::String(format!("{}-tuned", base.name)));
    let _ = writeln!(
        t,
        "description = {}",
        toml::Value::String(format!("{} with {}", base.name, if r.changes.is_empty() { "no change".into() } else { r.changes.join(", ") }))
    );
    // Changed keys: table paths become dotted keys; a key inside a list rewrites that list (a
    // list in a variant replaces the base's list whole).
    let winner = &r.candidates[r.winner];
    let tuned = Variant::load(&o.variant, &[o.sets.clone(), winner.values.clone()].concat())?;
    let mut whole_lists: Vec<String> = Vec::new();
    for change in &r.changes {
        let key = change.split_once('=').map_or(change.as_str(), |(k, _)| k);
        let segments: Vec<&str> = key.split('.').collect();
        let through_list = (1..segments.len()).any(|i| matches!(lookup(&tuned.table, &segments[..i].join(".")), Some(toml::Value::Array(_))));
        if through_list {
            if !whole_lists.iter().any(|s| s == segments[0]) {
                whole_lists.push(segments[0].to_string());
            }
        } else {
            let value = lookup(&tuned.table, key).cloned().ok_or_else(|| Error::Usage(format!("tune: cannot read back {key}")))?;
            let quoted: Vec<String> = segments
                .iter()
                .map(|s| if s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') { s.to_string() } else { format!("{:?}", s) })
                .collect();
            let _ = writeln!(t, "{} = {}", quoted.join("."), value);
        }
    }
    for top in whole_lists {
        if let Some(v) = tuned.table.get(&top) {
            let mut one = toml::Table::new();
            one.insert(top.clone(), v.clone());
            t.push_str(&toml::to_string(&one).map_err(|e| Error::Usage(format!("tune: cannot write {top}: {e}")))?);
        }
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_to_the_common_folder() {
        assert_eq!(relative(Path::new("/r/reports/pb/tune"), Path::new("/r/variants/pb/x.toml")), PathBuf::from("../../../variants/pb/x.toml"));
        assert_eq!(relative(Path::new("/r/a"), Path::new("/r/a/x.toml")), PathBuf::from("x.toml"));
    }
}
