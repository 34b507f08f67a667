//! A tornado chart (the audit's sensitivity of one metric): one row per key, largest effect on
//! top, a bar for the key one step down and one for one step up, each the change from the
//! variant as written with its paired 95% interval, and a line at 0.

use std::path::{Path, PathBuf};

use plotters::prelude::*;

use super::area::{Area, DrawResult, title_font};
use super::axis::tick;
use super::charts::register_fonts;
use super::legend::{Key, Legend};
use super::text::TextBackend;
use crate::error::Error;

/// One key's row: its label and the change one step down and one step up (value, 95% interval).
#[derive(Clone, Debug)]
pub struct TornadoRow {
    /// The key (and its values), e.g. `hand_size (5 -> 4 / 6)`.
    pub label: String,
    /// One step down: (change, low, high); `None` when that step was not played.
    pub down: Option<(f64, f64, f64)>,
    /// One step up.
    pub up: Option<(f64, f64, f64)>,
}

const DOWN: RGBColor = RGBColor(31, 119, 180);
const UP: RGBColor = RGBColor(255, 127, 14);

/// Draws the chart into `dir/<file>.png`; rows are drawn in the order given, the first on top.
pub fn render(dir: &Path, file: &str, title: &str, x_label: &str, rows: &[TornadoRow]) -> Result<PathBuf, Error> {
    register_fonts();
    let path = dir.join(format!("{file}.png"));
    let height = (160 + 34 * rows.len() as u32).max(420);
    {
        let root = TextBackend::new(BitMapBackend::new(&path, (1100, height))).into_drawing_area();
        root.fill(&WHITE).map_err(|e| Error::output(&path, e))?;
        draw(&root, title, x_label, rows).map_err(|e| Error::output(&path, e))?;
        root.present().map_err(|e| Error::output(&path, e))?;
    }
    Ok(path)
}

fn draw(root: &Area, title: &str, x_label: &str, rows: &[TornadoRow]) -> DrawResult {
    let n = rows.len().max(1);
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for r in rows {
        for (v, a, b) in [r.down, r.up].into_iter().flatten() {
            lo = lo.min(v).min(a);
            hi = hi.max(v).max(b);
        }
    }
    let pad = ((hi - lo) * 0.08).max(1e-9);
    let (lo, hi) = if hi - lo < 1e-12 { (-1.0, 1.0) } else { (lo - pad, hi + pad) };
    let mut legend = Legend::default();
    legend.add("one step down", Key::Swatch(DOWN));
    legend.add("one step up", Key::Swatch(UP));
    legend.add("paired 95% CI", Key::Whisker);
    let widest = rows.iter().map(|r| super::text::layout(&r.label, 15.0, false).map_or(0.0, |l| l.width)).fold(0.0, f32::max);
    let mut b = ChartBuilder::on(root);
    b.caption(title, title_font()).margin(20).margin_right(20 + legend.width() + 12).x_label_area_size(60).y_label_area_size((widest as u32 + 20).max(80));
    let mut chart = b.build_cartesian_2d(lo..hi, -0.5f64..(n as f64 - 0.5))?;
    let labels: Vec<String> = rows.iter().map(|r| r.label.clone()).collect();
    chart
        .configure_mesh()
        .disable_y_mesh()
        .bold_line_style(RGBAColor(0, 0, 0, 0.16))
        .light_line_style(RGBAColor(0, 0, 0, 0.05))
        .x_max_light_lines(1)
        .y_labels(n + 1)
        .y_label_formatter(&move |y| {
            let i = y.round();
            // Row 0 (the largest effect) is drawn at the top.
            if (y - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < labels.len() { labels[labels.len() - 1 - i as usize].clone() } else { String::new() }
        })
        .x_label_formatter(&|x| tick(*x))
        .x_desc(x_label)
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 18))
        .draw()?;
    let y_of = |i: usize| (n - 1 - i) as f64;
    for (i, r) in rows.iter().enumerate() {
        for (bar, offset, color) in [(r.down, 0.2, DOWN), (r.up, -0.2, UP)] {
            let Some((v, a, b)) = bar else { continue };
            let y = y_of(i) + offset;
            chart.draw_series(std::iter::once(Rectangle::new([(0.0, y - 0.17), (v, y + 0.17)], color.mix(0.85).filled())))?;
            chart.draw_series([
                PathElement::new(vec![(a, y), (b, y)], BLACK.stroke_width(2)),
                PathElement::new(vec![(a, y - 0.08), (a, y + 0.08)], BLACK.stroke_width(2)),
                PathElement::new(vec![(b, y - 0.08), (b, y + 0.08)], BLACK.stroke_width(2)),
            ])?;
        }
    }
    chart.draw_series(std::iter::once(PathElement::new(vec![(0.0, -0.5), (0.0, n as f64 - 0.5)], BLACK.stroke_width(1))))?;
    let (w, _) = root.dim_in_pixel();
    legend.draw(root, w as i32 - 20 - legend.width() as i32, 70)
}
