//! The sweep as a Markdown table for the terminal: one row per point, the selected metrics
//! with their 95% intervals.

use std::fmt::Write;

use crate::designer::{metrics, thousands};

use super::result::SweepResult;

/// The table: one row per point, the swept values and the selected metrics.
pub(super) fn table(sr: &SweepResult) -> String {
    let (game, variant, axes, results, selected) = (&sr.game, &sr.variant, &sr.axes, &sr.points, &sr.selected);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "sweep ({game} / {variant}): {} values, {} games each, seed {} (the same games at every value)\n",
        results.len(),
        thousands(sr.games),
        sr.seed
    );
    let _ = writeln!(out, "| {} | {} |", axes.iter().map(|a| a.key.as_str()).collect::<Vec<_>>().join(" | "), selected.join(" | "));
    let _ = writeln!(out, "|{}|", vec!["---:"; axes.len() + selected.len()].join("|"));
    for r in results {
        let mut cells: Vec<String> = axes.iter().zip(&r.at).map(|(a, &i)| a.values[i].0.clone()).collect();
        for name in selected {
            let i = r.names.iter().position(|n| n == name);
            cells.push(i.map_or("-".into(), |i| metrics::say_in(r.units[i], metrics::is_difference_name(name), &r.estimates[i])));
        }
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    let _ = writeln!(out, "\n(every metric with its interval is in sweep.csv, as fractions)");
    out
}
