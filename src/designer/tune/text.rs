//! The result in words and Markdown tables: the terminal's text, `candidates.md` and
//! `confirm.md`.

use std::fmt::Write as _;

use crate::designer::metrics;
use crate::designer::thousands;

use super::result::{BoundResult, TuneResult};

fn bound_cell(b: &BoundResult) -> String {
    format!("{} {}", said(b), b.verdict)
}

/// A bound's measured value with its interval, in the one notation ([`metrics::say_in`]).
fn said(b: &BoundResult) -> String {
    let e = metrics::Estimate { value: b.value, lo: b.ci[0], hi: b.ci[1], interval: metrics::Interval::Wilson };
    metrics::say_in(b.unit, metrics::is_difference_name(&b.metric), &e)
}

/// A bound's limits in the figure's unit (shares in %, differences in points).
fn limits(b: &BoundResult) -> String {
    let d = metrics::is_difference_name(&b.metric);
    format!("{} to {}", metrics::value_in(b.unit, d, b.lo), metrics::value_in(b.unit, d, b.hi))
}

/// The result in words and tables, for the terminal and `confirm.md`.
pub fn text(r: &TuneResult) -> String {
    let mut out = String::new();
    let keys: Vec<String> = r.knobs.iter().map(|k| format!("{} ({} values, as written {})", k.key, k.values.len(), k.original)).collect();
    let _ = writeln!(out, "tune {} ({}): {} candidates over {}; seed {}", r.variant, r.game, r.grid, keys.join(", "), r.seed);
    let _ = writeln!(
        out,
        "race: {} rounds, {} games spent ({} each in the last round); a full grid at that precision: {} x {} = {} games ({:.1}x the race){}",
        r.rounds.len(),
        thousands(r.spent),
        thousands(r.final_games_each),
        r.grid,
        thousands(r.final_games_each),
        thousands(r.full_grid_games),
        r.full_grid_games as f64 / r.spent.max(1) as f64,
        if r.budget_reached { "; stopped by --budget" } else { "" }
    );
    let w = &r.candidates[r.winner];
    if r.found {
        if r.changes.is_empty() {
            let _ = writeln!(out, "\nThe variant as written holds every bound: no change needed.");
        } else {
            let _ = writeln!(
                out,
                "\nFound: {} ({} key(s) changed, relative change {:.3}) holds every [expect] bound.",
                r.changes.join(" "),
                w.changed,
                w.relative_change
            );
        }
    } else if r.race_holds {
        let _ = writeln!(
            out,
            "\nNOTHING in the grid holds every [expect] bound: the race's pick {} held on the race's games, but the confirmation on a fresh seed fails {}. Closest to holding: {} (sum of distances to the bounds {:.2} CI half-widths in the race).",
            w.values.join(" "),
            failing(&r.confirmation.bounds),
            w.values.join(" "),
            w.objective
        );
    } else {
        let _ = writeln!(
            out,
            "\nNOTHING in the grid holds every [expect] bound. Closest to holding: {} (sum of distances to the bounds {:.2} CI half-widths).",
            w.values.join(" "),
            w.objective
        );
    }
    let undecided: Vec<&str> = w.bounds.iter().filter(|b| b.verdict == "undecided").map(|b| b.metric.as_str()).collect();
    if r.found && !undecided.is_empty() {
        let _ = writeln!(
            out,
            "Undecided in the race: {} (the 95% CI straddles a bound{}); `check` lets an undecided bound pass, more games would decide it.",
            undecided.join(", "),
            if r.budget_reached { ", and --budget stopped the race" } else { "" }
        );
    }
    let c = &r.confirmation;
    let _ = writeln!(
        out,
        "\nConfirmation on a fresh seed ({}, {} games, invariants checked): {}",
        c.seed,
        thousands(c.games),
        if c.passes {
            "every bound holds as `check` judges (no whole CI outside)".to_string()
        } else {
            format!("{} FAILS (whole 95% CI outside)", failing(&c.bounds))
        }
    );
    let _ = writeln!(out, "\n| metric | bounds | value | verdict |\n|---|---|---|---|");
    for b in &c.bounds {
        let _ = writeln!(out, "| {} | {} | {} | {} |", b.metric, limits(b), said(b), b.verdict);
    }
    let _ = writeln!(out, "\nreproduce the confirmation: {}", c.command);
    let _ = writeln!(out, "\nBest candidates (race figures: picked on these games, so slightly optimistic):\n");
    out.push_str(&best_table(r, 8));
    out
}

/// The bounds that fail, by metric name ("a, b").
pub(super) fn failing(bounds: &[BoundResult]) -> String {
    bounds.iter().filter(|b| b.verdict == "fails").map(|b| b.metric.as_str()).collect::<Vec<_>>().join(", ")
}

/// The best `k` candidates: the winner first, then by games raced, holding, rank.
pub(super) fn best(r: &TuneResult) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..r.candidates.len()).collect();
    let c = &r.candidates;
    idx.sort_by(|&a, &b| {
        (b == r.winner)
            .cmp(&(a == r.winner))
            .then(c[b].games.cmp(&c[a].games))
            .then(c[b].holds.cmp(&c[a].holds))
            .then(c[a].objective.total_cmp(&c[b].objective))
            .then(c[a].changed.cmp(&c[b].changed))
            .then(c[a].relative_change.total_cmp(&c[b].relative_change))
    });
    idx
}

fn best_table(r: &TuneResult, k: usize) -> String {
    let mut out = String::new();
    let bounds: Vec<&str> = r.candidates[0].bounds.iter().map(|b| b.metric.as_str()).collect();
    let _ = writeln!(
        out,
        "| {} | changed | rel. change | games | {} | distance | status |",
        r.knobs.iter().map(|k| k.key.as_str()).collect::<Vec<_>>().join(" | "),
        bounds.join(" | ")
    );
    let _ = writeln!(out, "|{}|", vec!["---"; r.knobs.len() + bounds.len() + 5].join("|"));
    for &i in best(r).iter().take(k) {
        let c = &r.candidates[i];
        let vals: Vec<String> = c.values.iter().map(|v| v.split_once('=').map_or(v.clone(), |(_, x)| x.to_string())).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {:.3} | {} | {} | {:.2} | {} |",
            vals.join(" | "),
            c.changed,
            c.relative_change,
            thousands(c.games),
            c.bounds.iter().map(bound_cell).collect::<Vec<_>>().join(" | "),
            c.objective,
            c.status
        );
    }
    out
}

fn text_md(r: &TuneResult) -> String {
    text(r).replace("\nreproduce the confirmation: ", "\nReproduce the confirmation:\n\n    ")
}

/// `candidates.md`: the best 15 candidates with their race figures.
pub fn candidates_md(r: &TuneResult) -> String {
    let mut md = format!(
        "# tune {}: best candidates\n\nRace figures (the games each was picked on); every candidate with every metric and CI is in candidates.csv.\n\n",
        r.variant
    );
    md.push_str(&best_table(r, 15));
    md
}

/// `confirm.md`: the text, with the confirmation's command as a code block.
pub fn confirm_md(r: &TuneResult) -> String {
    let mut confirm = format!("# tune {}: confirmation\n\n", r.variant);
    confirm.push_str(&text_md(r));
    confirm
}
