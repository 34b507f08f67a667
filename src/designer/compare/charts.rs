//! The charts of a comparison: shares side by side, their differences, the mean length.

use crate::designer::thousands;
use crate::engine::{BarSeries, ChartSpec};

use super::result::{Comparison, MetricComparison};

/// Short chart labels of the share metrics charted.
fn chart_label(name: &str) -> Option<String> {
    if name == "first_player_advantage" {
        return Some("1st-player adv.".into());
    }
    if name == "elimination_rate" {
        return Some("eliminated".into());
    }
    if let Some(s) = name.strip_prefix("seat").and_then(|r| r.strip_suffix("_win_share")) {
        return Some(format!("seat {s} wins"));
    }
    // End-reason shares (`drama_share`, a standing figure, is not one).
    if name.ends_with("_share") && !name.starts_with("seat") && name != "drama_share" {
        return Some(name.trim_end_matches("_share").to_string());
    }
    None
}

/// The charts of a comparison: shares side by side, their differences, the mean length.
pub(super) fn compare_charts(c: &Comparison) -> Vec<ChartSpec> {
    let charted: Vec<(&MetricComparison, String)> = c
        .metrics
        .iter()
        .filter(|m| m.unit == "share" && m.paired_ci.is_some() && m.a.is_finite() && m.b.is_finite())
        .filter_map(|m| chart_label(&m.name).map(|l| (m, l)))
        .collect();
    let pct = |x: f64| x * 100.0;
    let who = format!("A = {}, B = {}; {} games each", c.a.short(), c.b.short(), thousands(c.games));
    let (name_a, name_b) = (format!("A: {}", c.a.short()), format!("B: {}", c.b.short()));
    let charts = vec![
        ChartSpec::Bars {
            file: "compare_shares".into(),
            title: format!("A vs B ({who})"),
            x_label: "end-reason shares, first-player advantage, elimination rate, win shares".into(),
            y_label: "share (%); first-player advantage in points".into(),
            categories: charted.iter().map(|(_, l)| l.clone()).collect(),
            series: vec![
                BarSeries {
                    name: name_a.clone(),
                    values: charted.iter().map(|(m, _)| pct(m.a)).collect(),
                    ci: Some(charted.iter().map(|(m, _)| (pct(m.a_ci[0]), pct(m.a_ci[1]))).collect()),
                },
                BarSeries {
                    name: name_b.clone(),
                    values: charted.iter().map(|(m, _)| pct(m.b)).collect(),
                    ci: Some(charted.iter().map(|(m, _)| (pct(m.b_ci[0]), pct(m.b_ci[1]))).collect()),
                },
            ],
            reference: None,
        },
        ChartSpec::Bars {
            file: "compare_differences".into(),
            title: format!("B - A with paired and independent-runs 95% CI ({who})"),
            x_label: "end-reason shares, first-player advantage, elimination rate, win shares".into(),
            y_label: "B - A (percentage points)".into(),
            categories: charted.iter().map(|(_, l)| l.clone()).collect(),
            series: vec![
                BarSeries {
                    name: "B - A, paired CI (common seeds)".into(),
                    values: charted.iter().map(|(m, _)| pct(m.diff)).collect(),
                    ci: Some(charted.iter().map(|(m, _)| m.paired_ci.map_or((0.0, 0.0), |[lo, hi]| (pct(lo), pct(hi)))).collect()),
                },
                BarSeries {
                    name: "B - A, CI of two independent runs".into(),
                    values: charted.iter().map(|(m, _)| pct(m.diff)).collect(),
                    ci: Some(charted.iter().map(|(m, _)| m.independent_ci.map_or((0.0, 0.0), |[lo, hi]| (pct(lo), pct(hi)))).collect()),
                },
            ],
            reference: Some((0.0, "no difference".into())),
        },
    ];
    let mut charts = charts;
    if let Some(m) = c.metrics.iter().find(|m| m.name == "mean_length") {
        charts.push(ChartSpec::Bars {
            file: "compare_length".into(),
            title: format!("Mean game length, A vs B ({who})"),
            x_label: "variant".into(),
            y_label: format!("mean length ({})", c.length_unit),
            categories: vec![name_a, name_b],
            series: vec![BarSeries { name: "mean length".into(), values: vec![m.a, m.b], ci: Some(vec![(m.a_ci[0], m.a_ci[1]), (m.b_ci[0], m.b_ci[1])]) }],
            reference: None,
        });
    }
    charts
}
