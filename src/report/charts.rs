//! Renders [`ChartSpec`]s to PNG with plotters, using the embedded Noto Sans font so no
//! system fonts are needed, laid out by [`super::text::TextBackend`]. Every chart has a
//! title, labelled axes with units, a legend in its own column right of the plot (never over
//! the data), and error bars or bands where the spec carries intervals.

use std::path::Path;
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::FontStyle;

use super::area::{Area, DrawResult, Plot, title_font};
use super::axis::{int_tick, span, tick, value_label};
use super::legend::{Key, Legend};
use super::text::TextBackend;
use crate::engine::{Bin, ChartSpec};
use crate::error::Error;

const SIZE: (u32, u32) = (1100, 650);
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

static FONTS: Once = Once::new();

/// Registers the embedded fonts once; must run before any text is drawn.
pub fn register_fonts() {
    FONTS.call_once(|| {
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, notosans::REGULAR_TTF);
        let _ = plotters::style::register_font("sans-serif", FontStyle::Bold, notosans::BOLD_TTF);
    });
}

fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Draws `spec` into `dir/<file>.png`.
pub fn render(spec: &ChartSpec, dir: &Path) -> Result<std::path::PathBuf, Error> {
    register_fonts();
    let path = dir.join(format!("{}.png", spec.file()));
    let fail = |e: &dyn std::fmt::Display| Error::output(&path, e);
    {
        let root = TextBackend::new(BitMapBackend::new(&path, SIZE)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        draw(spec, &root).map_err(|e| fail(&e))?;
        root.present().map_err(|e| fail(&e))?;
    }
    Ok(path)
}

/// Draws `spec` onto `area` (a whole chart file, or one panel of the summary picture).
pub(crate) fn draw(spec: &ChartSpec, area: &Area) -> DrawResult {
    match spec {
        ChartSpec::Bars { title, x_label, y_label, categories, series, reference, .. } => {
            bars(area, title, x_label, y_label, categories, series, reference.as_ref())
        }
        ChartSpec::Lines { title, x_label, y_label, series, .. } => lines(area, title, x_label, y_label, series),
        ChartSpec::Histogram { title, x_label, y_label, series, markers, .. } => histogram(area, title, x_label, y_label, series, markers),
        ChartSpec::Heatmap { .. } => super::heatmap::draw(area, spec),
    }
}

/// Major grid lines light, minor ones barely there and few.
const BOLD_GRID: RGBAColor = RGBAColor(0, 0, 0, 0.16);
const LIGHT_GRID: RGBAColor = RGBAColor(0, 0, 0, 0.05);

/// A chart frame: caption, margins, and a right margin wide enough for `legend`.
fn frame<'a, 'b>(root: &'a Area<'b>, title: &str, legend: &Legend) -> ChartBuilder<'a, 'b, TextBackend<'b>> {
    let mut b = ChartBuilder::on(root);
    b.caption(title, title_font()).margin(20).margin_right(20 + legend.width() + 12).x_label_area_size(60).y_label_area_size(80);
    b
}

/// Draws `legend` in the column right of the plot.
fn place(root: &Area, legend: &Legend) -> DrawResult {
    let (w, _) = root.dim_in_pixel();
    legend.draw(root, w as i32 - 20 - legend.width() as i32, 70)
}

/// The largest font size (16 down to 10) at which every category name fits its slot of a
/// plot `width` pixels wide.
fn category_font(width: u32, categories: &[String]) -> f64 {
    let slot = width as f32 / categories.len().max(1) as f32 * 0.95;
    let widest = categories.iter().map(|c| super::text::layout(c, 16.0, false).map_or(0.0, |l| l.width)).fold(0.0, f32::max);
    if widest <= slot { 16.0 } else { (16.0 * slot / widest).floor().max(10.0) as f64 }
}

/// The category names as drawn at `size` in slots of a plot `width` pixels wide: a name too
/// wide even at the smallest font is cut short with an ellipsis, so neighbours never overlap.
fn fitted_categories(width: u32, size: f64, categories: &[String]) -> Vec<String> {
    let slot = width as f32 / categories.len().max(1) as f32 * 0.95;
    let wide = |t: &str| super::text::layout(t, size as f32, false).map_or(0.0, |l| l.width);
    categories
        .iter()
        .map(|c| {
            if wide(c) <= slot {
                return c.clone();
            }
            let chars: Vec<char> = c.chars().collect();
            (1..chars.len())
                .rev()
                .map(|k| format!("{}…", chars[..k].iter().collect::<String>().trim_end()))
                .find(|t| wide(t) <= slot)
                .unwrap_or_else(|| "…".into())
        })
        .collect()
}

/// Grouped bars, one group per category, with whiskers where a series carries intervals and a
/// dashed reference line (e.g. the fair share).
#[allow(clippy::too_many_arguments)]
fn bars(
    root: &Area,
    title: &str,
    x_label: &str,
    y_label: &str,
    categories: &[String],
    series: &[crate::engine::BarSeries],
    reference: Option<&(f64, String)>,
) -> DrawResult {
    let n = categories.len().max(1);
    let percent = y_label.contains('%');
    let (bottom, top) = bar_range(series, reference, percent);
    let legend = bar_legend(series, reference);
    let mut chart = frame(root, title, &legend).build_cartesian_2d(-0.5f64..(n as f64 - 0.5), bottom..top)?;
    let width = chart.plotting_area().dim_in_pixel().0;
    let label_size = category_font(width, categories);
    let cats = fitted_categories(width, label_size, categories);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .bold_line_style(BOLD_GRID)
        .light_line_style(LIGHT_GRID)
        .y_max_light_lines(1)
        .x_labels(n + 1)
        .x_label_formatter(&move |x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < cats.len() { cats[i as usize].clone() } else { String::new() }
        })
        .y_label_formatter(&|y| tick(*y))
        .x_desc(x_label)
        .y_desc(y_label)
        .label_style(("sans-serif", 16))
        .x_label_style(("sans-serif", label_size))
        .axis_desc_style(("sans-serif", 18))
        .draw()?;
    // Few bars: write each value above its bar, so 0.01% or 0 still reads.
    let labelled = series.len() * n <= 12;
    for (j, s) in series.iter().enumerate() {
        bar_series(&mut chart, j, s, series.len(), labelled, percent)?;
    }
    if let Some((r, _)) = reference {
        let r = *r;
        chart.draw_series(DashedLineSeries::new(vec![(-0.5, r), (n as f64 - 0.5, r)], 10, 6, RED.stroke_width(2)))?;
    }
    place(root, &legend)
}

/// The value axis of a bar chart: from 0 (or the lowest value or interval end) to the highest,
/// with room above for the value labels; a share axis shows at least 0-5%.
fn bar_range(series: &[crate::engine::BarSeries], reference: Option<&(f64, String)>, percent: bool) -> (f64, f64) {
    let mut top: f64 = 0.0;
    let mut bottom: f64 = 0.0;
    for s in series {
        for (i, v) in s.values.iter().enumerate() {
            top = top.max(*v);
            bottom = bottom.min(*v);
            if let Some(ci) = &s.ci {
                top = top.max(ci[i].1);
                bottom = bottom.min(ci[i].0);
            }
        }
    }
    if let Some((r, _)) = reference {
        top = top.max(*r);
        bottom = bottom.min(*r);
    }
    // Bars start at 0; room above for the value labels. Shares all near 0 keep a 0-5% axis,
    // so "0%" reads as nothing rather than as bars on a magnified scale.
    let (bottom, top) = span(bottom, top, true, 0.12);
    let top = if percent { top.max(5.0) } else { top };
    (bottom, top)
}

/// A bar chart's legend: one swatch per series, the reference line, and the whisker key when
/// any series carries intervals.
fn bar_legend(series: &[crate::engine::BarSeries], reference: Option<&(f64, String)>) -> Legend {
    let mut legend = Legend::default();
    for (j, s) in series.iter().enumerate() {
        legend.add(&s.name, Key::Swatch(color(j)));
    }
    if let Some((_, label)) = reference {
        legend.add(label, Key::Dashed(RED));
    }
    if series.iter().any(|s| s.ci.is_some()) {
        legend.add("95% confidence interval", Key::Whisker);
    }
    legend
}

/// Draws series `j` of `count`: its bars in its slot of each group, its whiskers, and (when
/// `labelled`) each value written above its bar.
fn bar_series(chart: &mut Plot, j: usize, s: &crate::engine::BarSeries, count: usize, labelled: bool, percent: bool) -> DrawResult {
    let width = 0.8 / count.max(1) as f64;
    let c = color(j);
    let x0 = |i: usize| i as f64 - 0.4 + j as f64 * width;
    // A value that is not a number (NaN: no such figure, e.g. a bot against itself) gets no bar.
    chart.draw_series(
        s.values
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_finite())
            .map(|(i, &v)| Rectangle::new([(x0(i) + width * 0.06, 0.0), (x0(i) + width * 0.94, v)], c.mix(0.85).filled())),
    )?;
    if let Some(ci) = &s.ci {
        let cap = width * 0.15;
        chart.draw_series(ci.iter().enumerate().filter(|(_, (lo, hi))| lo.is_finite() && hi.is_finite()).flat_map(|(i, &(lo, hi))| {
            let x = x0(i) + width / 2.0;
            [
                PathElement::new(vec![(x, lo), (x, hi)], BLACK.stroke_width(2)),
                PathElement::new(vec![(x - cap, lo), (x + cap, lo)], BLACK.stroke_width(2)),
                PathElement::new(vec![(x - cap, hi), (x + cap, hi)], BLACK.stroke_width(2)),
            ]
        }))?;
    }
    if labelled {
        let style = ("sans-serif", 15)
            .into_font()
            .color(&BLACK)
            .pos(plotters::style::text_anchor::Pos::new(plotters::style::text_anchor::HPos::Center, plotters::style::text_anchor::VPos::Bottom));
        chart.draw_series(s.values.iter().enumerate().filter(|(_, v)| v.is_finite()).map(|(i, &v)| {
            let above = s.ci.as_ref().map_or(v, |ci| ci[i].1.max(v)).max(0.0);
            EmptyElement::at((x0(i) + width / 2.0, above)) + Text::new(value_label(v, percent), (0, -4), style.clone())
        }))?;
    }
    Ok(())
}

fn lines(root: &Area, title: &str, x_label: &str, y_label: &str, series: &[crate::engine::LineSeries]) -> DrawResult {
    let (mut x_min, mut x_max, mut y_min, mut y_max) = (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
    for s in series {
        for (i, &(x, y)) in s.points.iter().enumerate() {
            x_min = x_min.min(x);
            x_max = x_max.max(x);
            y_min = y_min.min(y);
            y_max = y_max.max(y);
            if let Some(b) = s.band.as_ref().and_then(|b| b.get(i)) {
                y_min = y_min.min(b.0);
                y_max = y_max.max(b.1);
            }
        }
    }
    // x spans the data; y hugs the data (from 0 when the data is near 0), capped at 100 for shares.
    // One x (a single point): centred in a range of one unit, not pinned to the corner.
    let (x_min, x_max) = match (x_min.is_finite(), x_max.is_finite() && x_max > x_min) {
        (true, true) => (x_min, x_max),
        (true, false) => (x_min - 0.5, x_min + 0.5),
        _ => (0.0, 1.0),
    };
    let (y_min, y_max) = if y_min.is_finite() { (y_min, y_max) } else { (0.0, 1.0) };
    let near_zero = y_min >= 0.0 && y_min <= 0.4 * y_max;
    let (mut bottom, mut top) = span(y_min, y_max, near_zero, 0.05);
    if y_label.contains('%') && y_max <= 100.0 {
        top = top.min(101.0);
        bottom = bottom.max(if y_min >= 0.0 { 0.0 } else { bottom });
    }
    let integer_x = series.iter().flat_map(|s| &s.points).all(|p| p.0.fract() == 0.0);
    let mut legend = Legend::default();
    for (j, s) in series.iter().enumerate() {
        legend.add(&s.name, Key::Line(color(j)));
    }
    if series.iter().any(|s| s.band.is_some()) {
        legend.add("shaded: 95% confidence interval", Key::Band);
    }
    let mut chart = frame(root, title, &legend).build_cartesian_2d(x_min..x_max, bottom..top)?;
    chart
        .configure_mesh()
        .bold_line_style(BOLD_GRID)
        .light_line_style(LIGHT_GRID)
        .x_max_light_lines(1)
        .y_max_light_lines(1)
        .x_label_formatter(&|x| if integer_x { int_tick(*x) } else { tick(*x) })
        .y_label_formatter(&|y| tick(*y))
        .x_desc(x_label)
        .y_desc(y_label)
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .draw()?;
    for (j, s) in series.iter().enumerate() {
        let c = color(j);
        if let Some(band) = &s.band {
            let mut poly: Vec<(f64, f64)> = s.points.iter().zip(band).map(|(&(x, _), &(_, hi))| (x, hi)).collect();
            poly.extend(s.points.iter().zip(band).rev().map(|(&(x, _), &(lo, _))| (x, lo)));
            chart.draw_series(std::iter::once(Polygon::new(poly, c.mix(0.2).filled())))?;
        }
        chart.draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(3)))?;
        if (s.band.is_some() && s.points.len() <= 40) || s.points.len() == 1 {
            // Few measured points (a sweep), or a lone point no line can draw: mark each one.
            chart.draw_series(s.points.iter().map(|&p| Circle::new(p, 5, c.filled())))?;
        }
    }
    place(root, &legend)
}

fn histogram(root: &Area, title: &str, x_label: &str, y_label: &str, series: &[(String, Vec<Bin>)], markers: &[(f64, String)]) -> DrawResult {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    let mut top: f64 = 0.0;
    for (_, bins) in series {
        for b in bins {
            lo = lo.min(b.lo);
            hi = hi.max(b.hi);
            top = top.max(b.value);
        }
    }
    for (x, _) in markers {
        lo = lo.min(*x);
        hi = hi.max(*x);
    }
    if !lo.is_finite() {
        lo = 0.0;
        hi = 1.0;
    }
    // Bins centred on whole numbers (k-0.5..k+0.5) count integers: label whole numbers only.
    let integer_x = series.iter().flat_map(|(_, b)| b).all(|b| (b.lo + 0.5).fract() == 0.0 && (b.hi + 0.5).fract() == 0.0);
    let (_, top) = span(0.0, top, true, 0.08);
    // One marker per series (each series' mean): the marker takes its series' colour.
    let per_series = markers.len() == series.len() && series.len() > 1;
    let marker_colors = [BLACK, RGBColor(214, 39, 40), RGBColor(120, 120, 120)];
    let marker_color = |k: usize| if per_series { color(k) } else { marker_colors[k % marker_colors.len()] };
    let mut legend = Legend::default();
    for (j, (name, _)) in series.iter().enumerate() {
        legend.add(name, Key::Swatch(color(j)));
    }
    for (k, (_, label)) in markers.iter().enumerate() {
        legend.add(label, Key::Dashed(marker_color(k)));
    }
    let mut chart = frame(root, title, &legend).build_cartesian_2d(lo..hi, 0f64..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .bold_line_style(BOLD_GRID)
        .light_line_style(LIGHT_GRID)
        .y_max_light_lines(1)
        .x_label_formatter(&|x| if integer_x { int_tick(*x) } else { tick(*x) })
        .y_label_formatter(&|y| tick(*y))
        .x_desc(x_label)
        .y_desc(y_label)
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .draw()?;
    let alpha = if series.len() > 1 { 0.55 } else { 0.85 };
    for (j, (_, bins)) in series.iter().enumerate() {
        let c = color(j);
        chart.draw_series(bins.iter().map(|b| Rectangle::new([(b.lo, 0.0), (b.hi, b.value)], c.mix(alpha).filled())))?;
    }
    for (k, (x, _)) in markers.iter().enumerate() {
        chart.draw_series(DashedLineSeries::new(vec![(*x, 0.0), (*x, top)], 8, 5, marker_color(k).stroke_width(2)))?;
    }
    place(root, &legend)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn category_names_too_wide_for_their_slot_are_cut_short() {
        let long = vec!["a very long category name indeed".to_string(); 20];
        let fitted = fitted_categories(400, 10.0, &long);
        let slot = 400.0 / 20.0 * 0.95;
        for f in &fitted {
            assert!(f.ends_with('…'), "{f}");
            assert!(super::super::text::layout(f, 10.0, false).map_or(0.0, |l| l.width) <= slot, "{f}");
        }
        let short = vec!["seat 0".to_string(), "seat 1".to_string()];
        assert_eq!(fitted_categories(800, 16.0, &short), short);
    }
}
