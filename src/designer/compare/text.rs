//! The comparison for a reader: the terminal's table ([`table`]) and the section of a report
//! (`report --baseline`, [`section`]).

use crate::designer::metrics;
use crate::designer::thousands;

use super::result::{Comparison, MetricComparison, unit_of, value_of};
use super::verdict::verdict;

/// The comparison as a table for the terminal.
pub fn table(c: &Comparison) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "compare ({}):\n  A = {}\n  B = {}", c.game, c.a.describe(), c.b.describe());
    if c.common_random_numbers {
        let _ = writeln!(out, "{} games each, seed {}: common random numbers (game i of A and of B start from the same seed)", thousands(c.games), c.a.seed);
    } else {
        let _ = writeln!(out, "{} games each, seeds {} and {}: independent runs", thousands(c.games), c.a.seed, c.b.seed);
    }
    if let Some(p) = &c.precision {
        let _ = writeln!(out, "{}", p.describe());
    }
    if let Some(block) = c.rotation_block {
        let _ = writeln!(
            out,
            "seats rotated: blocks of {block} games on one deal, the line-up turned one seat each; seat figures average the bots out, bot<k>_win_share (the bot listed for seat k) the seats; intervals over blocks"
        );
    }
    let _ = writeln!(out, "\n| metric | A | B | B - A | 95% CI paired | 95% CI independent runs | paired/independent width | significant |");
    let _ = writeln!(out, "|---|---:|---:|---:|---|---|---:|---|");
    let mut ratios = Vec::new();
    for m in c.metrics.iter().filter(|m| m.applies) {
        let u = unit_of(m);
        let ci = |x: Option<[f64; 2]>| x.map_or("-".to_string(), |[lo, hi]| format!("{} to {}", metrics::format_diff(u, lo), metrics::format_diff(u, hi)));
        let ratio = m.width_ratio();
        if let Some(r) = ratio {
            ratios.push(r);
        }
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            m.name,
            value_of(m, m.a),
            value_of(m, m.b),
            metrics::format_diff(u, m.diff),
            ci(m.paired_ci),
            ci(m.independent_ci),
            ratio.map_or("-".into(), |r| format!("{r:.2}")),
            match m.significant {
                Some(true) => "yes",
                Some(false) => "no",
                None => "-",
            }
        );
    }
    let own: Vec<String> = c
        .metrics
        .iter()
        .filter(|m| m.own)
        .map(|m| {
            let unit = if m.unit == "share" { "%".to_string() } else { m.own_unit.clone() };
            if unit.is_empty() { format!("- {}: {}", m.name, m.about) } else { format!("- {}: {} ({unit})", m.name, m.about) }
        })
        .collect();
    if !own.is_empty() {
        let _ = writeln!(out, "\nWhat the game's own and the standing figures are:\n{}", own.join("\n"));
    }
    let unpaired: Vec<&str> = c.metrics.iter().filter(|m| m.paired_ci.is_none()).map(|m| m.name.as_str()).collect();
    if !unpaired.is_empty() {
        let _ = writeln!(
            out,
            "\n-: no paired CI for {}: a p-value has no interval; a length quantile is not a mean of per-game values (its independent-runs CI is shown); a game's own figure needs at least {} games (two batches of {}); a figure measured in one variant only has no difference.",
            unpaired.join(", "),
            2 * crate::stats::interval::SUB_BATCH,
            crate::stats::interval::SUB_BATCH
        );
    }
    if !ratios.is_empty() {
        ratios.sort_by(f64::total_cmp);
        let median = ratios[ratios.len() / 2];
        let _ = writeln!(
            out,
            "\nsignificant: the paired 95% CI excludes 0 (no correction for testing many metrics). Paired CI width / independent-runs width: median {median:.2} over {} metrics (below 1: pairing helped).",
            ratios.len()
        );
    }
    let _ = writeln!(out, "\nverdict (B against A): {}", verdict(c));
    out
}

/// The comparison as a report section (`report --baseline`): the verdict and who was compared
/// above a table of every figure with the difference and its paired interval.
pub fn section(c: &Comparison) -> crate::report::Section {
    let ci = |m: &MetricComparison| {
        let u = unit_of(m);
        m.paired_ci.map_or("-".to_string(), |[lo, hi]| format!("{} to {}", metrics::format_diff(u, lo), metrics::format_diff(u, hi)))
    };
    crate::report::Section {
        title: format!("Compared with the baseline ({} games each, common random numbers)", thousands(c.games)),
        lead: format!(
            "Verdict (this variant against the baseline): {}. Baseline (A) = {}; this variant (B) = {}. A figure moved when its paired 95% CI of B - A excludes 0 (no correction for testing many figures).",
            verdict(c),
            c.a.describe(),
            c.b.describe()
        ),
        header: vec!["figure".into(), "baseline (A)".into(), "this variant (B)".into(), "B - A".into(), "95% CI paired".into(), "moved".into()],
        rows: c
            .metrics
            .iter()
            .map(|m| {
                let u = unit_of(m);
                vec![
                    m.name.clone(),
                    value_of(m, m.a),
                    value_of(m, m.b),
                    metrics::format_diff(u, m.diff),
                    ci(m),
                    match m.significant {
                        Some(true) => "yes".into(),
                        Some(false) => "no".into(),
                        None => "not judged".into(),
                    },
                ]
            })
            .collect(),
    }
}
