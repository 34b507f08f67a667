//! The charts of a sweep: a line chart with a CI band per selected metric (and the seats'
//! win shares) for one key, a heat map per metric for a grid of two.

use crate::designer::metrics::{self, Unit};
use crate::designer::thousands;
use crate::engine::{ChartSpec, LineSeries};

use super::result::SweepResult;

/// Scale and axis label of a metric in charts: shares in %, others as they are.
fn chart_scale(name: &str, unit: Unit, length_unit: &str) -> (f64, String) {
    match unit {
        Unit::Share if name == "first_player_advantage" => (100.0, "first-player advantage (percentage points)".into()),
        Unit::Share => (100.0, format!("{name} (%)")),
        Unit::Length => (1.0, format!("{name} ({length_unit})")),
        Unit::Plain => (1.0, name.to_string()),
    }
}

/// One line chart per selected metric against the one swept key, and the seats' win shares.
pub(super) fn line_charts(sr: &SweepResult) -> Vec<ChartSpec> {
    let (axes, names, results, selected, length_unit) = (&sr.axes, &sr.names, &sr.points, &sr.selected, sr.length_unit.as_str());
    let axis = &axes[0];
    let games = thousands(sr.games);
    let series = |name: &str, scale: f64, label: String| {
        let mut points = Vec::new();
        let mut band = Vec::new();
        for r in results {
            if let Some(e) = r.get(name).filter(|e| e.value.is_finite()) {
                points.push((axis.values[r.at[0]].1, e.value * scale));
                band.push((e.lo * scale, e.hi * scale));
            }
        }
        LineSeries { name: label, points, band: Some(band) }
    };
    let mut charts = Vec::new();
    for name in selected {
        let unit = names.iter().find(|(n, _)| n == name).map_or(Unit::Plain, |(_, u)| *u);
        let (scale, y_label) = chart_scale(name, unit, length_unit);
        charts.push(ChartSpec::Lines {
            file: format!("sweep_{name}"),
            title: format!("{name} vs {} ({games} games per value)", axis.key),
            x_label: axis.key.clone(),
            y_label,
            series: vec![series(name, scale, format!("{name} (line: measured value)"))],
        });
    }
    let seat_names: Vec<&String> = names.iter().map(|(n, _)| n).filter(|n| n.starts_with("seat") && n.ends_with("_win_share")).collect();
    if !seat_names.is_empty() {
        charts.push(ChartSpec::Lines {
            file: "sweep_seat_win_shares".into(),
            title: format!("Win share by seat vs {} ({games} games per value)", axis.key),
            x_label: axis.key.clone(),
            y_label: "win share (%), ties shared".into(),
            series: seat_names.iter().map(|n| series(n, 100.0, n.trim_end_matches("_win_share").replace("seat", "seat "))).collect(),
        });
    }
    charts
}

/// One heat map per selected metric over the grid of two swept keys.
pub(super) fn heatmaps(sr: &SweepResult) -> Vec<ChartSpec> {
    let (axes, names, results, selected, length_unit) = (&sr.axes, &sr.names, &sr.points, &sr.selected, sr.length_unit.as_str());
    let (x, y) = (&axes[0], &axes[1]);
    let games = thousands(sr.games);
    selected
        .iter()
        .map(|name| {
            let unit = names.iter().find(|(n, _)| n == name).map_or(Unit::Plain, |(_, u)| *u);
            let (scale, label) = chart_scale(name, unit, length_unit);
            let value_label = format!("{label}; cells: value ± 95% CI half-width");
            let mut cells = vec![vec![f64::NAN; x.values.len()]; y.values.len()];
            let mut labels = vec![vec![String::new(); x.values.len()]; y.values.len()];
            for r in results {
                if let Some(e) = r.get(name) {
                    let (c, row) = (r.at[0], r.at[1]);
                    cells[row][c] = e.value * scale;
                    labels[row][c] = if e.interval == metrics::Interval::None {
                        format!("{:.2}", e.value * scale)
                    } else {
                        format!("{:.2}\n±{:.2}", e.value * scale, e.half_width() * scale)
                    };
                }
            }
            ChartSpec::Heatmap {
                file: format!("heatmap_{name}"),
                title: format!("{name} by {} and {} ({games} games per cell)", x.key, y.key),
                x_label: x.key.clone(),
                y_label: y.key.clone(),
                columns: x.values.iter().map(|v| v.0.clone()).collect(),
                rows: y.values.iter().map(|v| v.0.clone()).collect(),
                cells,
                cell_labels: labels,
                value_label,
            }
        })
        .collect()
}
