//! The race as tables for other tools: every candidate with every metric and its CI
//! (`candidates.csv`, best first) and the race round by round (`search.csv`).

use std::fmt::Write as _;

use super::result::TuneResult;
use super::text::best;

/// A number as a CSV cell (empty when not finite).
fn cell(x: f64) -> String {
    if x.is_finite() { x.to_string() } else { String::new() }
}

/// `candidates.csv`: one row per candidate (best first), the tuned keys' values, the race's
/// figures and every metric of the catalogue with its 95% interval.
pub fn candidates(r: &TuneResult) -> String {
    let f = cell;
    let mut names: Vec<String> = Vec::new();
    for c in &r.candidates {
        for m in &c.metrics {
            if !names.contains(&m.name) {
                names.push(m.name.clone());
            }
        }
    }
    let mut csv: Vec<String> = r.knobs.iter().map(|k| k.key.clone()).collect();
    csv.extend(["changed", "relative_change", "games", "objective", "holds", "status"].map(String::from));
    for n in &names {
        csv.extend([n.clone(), format!("{n}_lo"), format!("{n}_hi")]);
    }
    let mut text = csv.join(",") + "\n";
    for &i in &best(r) {
        let c = &r.candidates[i];
        let mut row: Vec<String> = c.values.iter().map(|v| v.split_once('=').map_or(v.clone(), |(_, x)| x.to_string())).collect();
        row.extend([
            c.changed.to_string(),
            f(c.relative_change),
            c.games.to_string(),
            f(c.objective),
            c.holds.to_string(),
            format!("\"{}\"", c.status.replace('"', "'")),
        ]);
        for n in &names {
            match c.metrics.iter().find(|m| &m.name == n) {
                Some(m) => row.extend([f(m.value), f(m.ci[0]), f(m.ci[1])]),
                None => row.extend([String::new(), String::new(), String::new()]),
            }
        }
        text.push_str(&(row.join(",") + "\n"));
    }
    text
}

/// `search.csv`: the race round by round (games each, candidates racing and left, games
/// spent, the pick and the objectives).
pub fn search(r: &TuneResult) -> String {
    let f = cell;
    let mut search = String::from("round,games_each,racing,left,spent,pick_objective,pick_overhang,best_objective,median_objective,pick\n");
    for (i, x) in r.rounds.iter().enumerate() {
        let _ = writeln!(
            search,
            "{},{},{},{},{},{},{},{},{},\"{}\"",
            i + 1,
            x.games_each,
            x.racing,
            x.left,
            x.spent,
            f(x.pick_objective),
            f(x.pick_overhang),
            f(x.best_objective),
            f(x.median_objective),
            x.pick
        );
    }
    search
}
