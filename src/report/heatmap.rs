//! Renders [`ChartSpec::Heatmap`]: a grid of cells coloured by value (viridis, or blue-white-red
//! around 0 when values have both signs), each cell labelled with its value and interval, and a
//! colour bar that names the value and its unit.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::area::{Area, DrawResult, Plot, title_font};
use crate::engine::ChartSpec;

const VIRIDIS: [(f64, f64, f64); 5] = [(68.0, 1.0, 84.0), (59.0, 82.0, 139.0), (33.0, 145.0, 140.0), (94.0, 201.0, 98.0), (253.0, 231.0, 37.0)];
const DIVERGING: [(f64, f64, f64); 3] = [(33.0, 102.0, 172.0), (247.0, 247.0, 247.0), (178.0, 24.0, 43.0)];

/// The colour of `t` in 0..=1 along `stops`.
fn ramp(stops: &[(f64, f64, f64)], t: f64) -> RGBColor {
    let t = if t.is_finite() { t.clamp(0.0, 1.0) } else { 0.0 };
    let pos = t * (stops.len() - 1) as f64;
    let i = (pos.floor() as usize).min(stops.len() - 2);
    let f = pos - i as f64;
    let (a, b) = (stops[i], stops[i + 1]);
    let mix = |x: f64, y: f64| (x + (y - x) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Colour scale of one heat map: its range and whether it diverges around 0.
struct Scale {
    lo: f64,
    hi: f64,
    diverging: bool,
}

impl Scale {
    fn of(cells: &[Vec<f64>]) -> Scale {
        let values = cells.iter().flatten().copied().filter(|v| v.is_finite());
        let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
        if !lo.is_finite() {
            return Scale { lo: 0.0, hi: 1.0, diverging: false };
        }
        if lo < 0.0 && hi > 0.0 {
            let m = lo.abs().max(hi.abs());
            return Scale { lo: -m, hi: m, diverging: true };
        }
        if hi - lo < 1e-12 {
            let pad = (hi.abs() * 0.05).max(1e-6);
            return Scale { lo: lo - pad, hi: hi + pad, diverging: false };
        }
        Scale { lo, hi, diverging: false }
    }

    fn color(&self, v: f64) -> RGBColor {
        if !v.is_finite() {
            return RGBColor(220, 220, 220);
        }
        let t = (v - self.lo) / (self.hi - self.lo);
        if self.diverging { ramp(&DIVERGING, t) } else { ramp(&VIRIDIS, t) }
    }
}

/// Black or white, whichever reads better on `c`.
fn text_color(c: RGBColor) -> RGBColor {
    let luminance = 0.299 * c.0 as f64 + 0.587 * c.1 as f64 + 0.114 * c.2 as f64;
    if luminance > 140.0 { BLACK } else { WHITE }
}

/// Draws a heat map spec on `root` (other specs draw nothing).
pub(crate) fn draw(root: &Area, spec: &ChartSpec) -> DrawResult {
    let ChartSpec::Heatmap { title, x_label, y_label, columns, rows, cells, cell_labels, value_label, .. } = spec else {
        return Ok(());
    };
    let scale = Scale::of(cells);
    let (width, height) = root.dim_in_pixel();
    let body = root.titled(title, title_font())?;
    let (main, bar) = body.split_horizontally(width.saturating_sub(170));
    let (nc, nr) = (columns.len().max(1), rows.len().max(1));
    // Labels fit: the row labels' area grows with the longest (up to a third of the width),
    // and a font shrinks (to 9 px at least) until its longest label fits its room.
    const EM: f64 = 0.55; // width of a character of the sans-serif font, in font sizes
    let longest = |labels: &[String]| labels.iter().map(|l| l.chars().count()).max().unwrap_or(1).max(1) as f64;
    let y_area = ((longest(rows) * 16.0 * EM) as u32 + 30).clamp(90, (width / 3).max(90));
    let y_size = (((y_area - 30) as f64 / (longest(rows) * EM)).floor() as u32).clamp(9, 16);
    let column_px = width.saturating_sub(170 + y_area + 40) as f64 / nc as f64;
    let x_size = ((column_px * 0.95 / (longest(columns) * EM)).floor() as u32).clamp(9, 16);
    let mut chart = ChartBuilder::on(&main)
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(y_area)
        .build_cartesian_2d(-0.5f64..(nc as f64 - 0.5), -0.5f64..(nr as f64 - 0.5))?;
    let (cols, rws) = (columns.clone(), rows.clone());
    let at = |labels: &[String], v: f64| {
        let i = v.round();
        if (v - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < labels.len() { labels[i as usize].clone() } else { String::new() }
    };
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(nc + 1)
        .y_labels(nr + 1)
        .x_label_formatter(&|x| at(&cols, *x))
        .y_label_formatter(&|y| at(&rws, *y))
        .x_desc(x_label)
        .y_desc(y_label)
        .x_label_style(("sans-serif", x_size))
        .y_label_style(("sans-serif", y_size))
        .axis_desc_style(("sans-serif", 18))
        .draw()?;
    let cell_px = ((width.saturating_sub(170 + y_area + 40)) as f64 / nc as f64, (height.saturating_sub(150)) as f64 / nr as f64);
    for (r, row) in cells.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            let label = cell_labels.get(r).and_then(|l| l.get(c)).map_or("", String::as_str);
            cell(&mut chart, (c, r), scale.color(v), label, cell_px)?;
        }
    }
    colour_bar(&bar, &scale, value_label)
}

/// Draws the cell at (`column`, `row`) filled with `fill`, with its label (value and interval)
/// written in its middle when the label fits a cell of `cell_px` pixels.
fn cell(chart: &mut Plot, (column, row): (usize, usize), fill: RGBColor, label: &str, cell_px: (f64, f64)) -> DrawResult {
    let (x, y) = (column as f64, row as f64);
    chart.draw_series(std::iter::once(Rectangle::new([(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)], fill.filled())))?;
    chart.draw_series(std::iter::once(Rectangle::new([(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)], WHITE.stroke_width(1))))?;
    let lines: Vec<&str> = label.lines().collect();
    let size = if cell_px.0 >= 110.0 { 15 } else { 12 };
    let fits = cell_px.0 >= 8.0 * label.lines().map(str::len).max().unwrap_or(0) as f64 * size as f64 / 15.0 && cell_px.1 >= 20.0 * lines.len() as f64;
    if !fits {
        return Ok(());
    }
    let style = ("sans-serif", size).into_font().color(&text_color(fill)).pos(Pos::new(HPos::Center, VPos::Center));
    let step = (size as f64 + 3.0) / cell_px.1;
    for (k, line) in lines.iter().enumerate() {
        let dy = (lines.len() as f64 - 1.0) / 2.0 - k as f64;
        chart.draw_series(std::iter::once(Text::new(line.to_string(), (x, y + dy * step), style.clone())))?;
    }
    Ok(())
}

/// The colour bar right of the grid: the scale from its low to its high end, named by
/// `value_label` (the value and its unit).
fn colour_bar(bar: &Area, scale: &Scale, value_label: &str) -> DrawResult {
    let mut bar_chart =
        ChartBuilder::on(bar).margin_top(20).margin_bottom(80).margin_right(30).y_label_area_size(80).build_cartesian_2d(0f64..1f64, scale.lo..scale.hi)?;
    bar_chart
        .configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .y_labels(7)
        .y_label_formatter(&|y| super::axis::tick(*y))
        .y_desc(value_label)
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .draw()?;
    let steps = 120;
    let span = scale.hi - scale.lo;
    bar_chart.draw_series((0..steps).map(|i| {
        let a = scale.lo + span * i as f64 / steps as f64;
        let b = scale.lo + span * (i + 1) as f64 / steps as f64;
        Rectangle::new([(0.0, a), (1.0, b)], scale.color((a + b) / 2.0).filled())
    }))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scale_with_both_signs_is_centred_on_zero() {
        let s = Scale::of(&[vec![-1.0, 3.0]]);
        assert!(s.diverging && s.lo == -3.0 && s.hi == 3.0);
        assert_eq!(s.color(0.0), RGBColor(247, 247, 247));
        let s = Scale::of(&[vec![2.0, 4.0], vec![f64::NAN, 3.0]]);
        assert!(!s.diverging && s.lo == 2.0 && s.hi == 4.0);
        assert_eq!(s.color(2.0), RGBColor(68, 1, 84));
        assert_eq!(s.color(4.0), RGBColor(253, 231, 37));
    }
}
