//! Renders [`ChartSpec`]s to PNG with plotters, using the embedded Noto Sans font so no
//! system fonts are needed. Every chart has a title, labelled axes with units, a legend,
//! and error bars or bands where the spec carries intervals.

use std::path::Path;
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::FontStyle;

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
        let root = BitMapBackend::new(&path, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        match spec {
            ChartSpec::Bars { title, x_label, y_label, categories, series, reference, .. } => {
                bars(&root, title, x_label, y_label, categories, series, reference.as_ref()).map_err(|e| fail(&e))?
            }
            ChartSpec::Lines { title, x_label, y_label, series, .. } => lines(&root, title, x_label, y_label, series).map_err(|e| fail(&e))?,
            ChartSpec::Histogram { title, x_label, y_label, series, markers, .. } => {
                histogram(&root, title, x_label, y_label, series, markers).map_err(|e| fail(&e))?
            }
            ChartSpec::Heatmap { .. } => super::heatmap::draw(&root, spec).map_err(|e| fail(&e))?,
        }
        root.present().map_err(|e| fail(&e))?;
    }
    Ok(path)
}

/// The drawing area every renderer draws on.
pub(crate) type Area<'a> = DrawingArea<BitMapBackend<'a>, plotters::coord::Shift>;
/// What a renderer returns.
pub(crate) type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// The font of every chart title.
pub(crate) fn title_font() -> FontDesc<'static> {
    ("sans-serif", 24, FontStyle::Bold).into_font()
}

/// A percentage axis never needs to go far past 100 (room for the legend is kept).
fn percent_cap(y_label: &str, top: f64) -> f64 {
    if y_label.contains('%') { top.min(110.0) } else { top }
}

fn nice_top(max: f64) -> f64 {
    if max <= 0.0 {
        return 1.0;
    }
    let top = max * 1.12;
    let mag = 10f64.powf(top.log10().floor());
    (top / mag * 2.0).ceil() / 2.0 * mag
}

/// The lower end of a value axis: 0 unless some value is negative.
fn nice_bottom(min: f64) -> f64 {
    if min >= 0.0 { 0.0 } else { -nice_top(-min) }
}

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
    let top = percent_cap(y_label, nice_top(top));
    let bottom = nice_bottom(bottom);
    let mut chart = ChartBuilder::on(root)
        .caption(title, title_font())
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(80)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), bottom..top)?;
    let cats = categories.to_vec();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n + 1)
        .x_label_formatter(&move |x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < cats.len() { cats[i as usize].clone() } else { String::new() }
        })
        .x_desc(x_label)
        .y_desc(y_label)
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .draw()?;
    let m = series.len().max(1) as f64;
    let width = 0.8 / m;
    for (j, s) in series.iter().enumerate() {
        let c = color(j);
        let x0 = |i: usize| i as f64 - 0.4 + j as f64 * width;
        chart
            .draw_series(
                s.values.iter().enumerate().map(|(i, &v)| Rectangle::new([(x0(i) + width * 0.06, 0.0), (x0(i) + width * 0.94, v)], c.mix(0.85).filled())),
            )?
            .label(s.name.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], c.filled()));
        if let Some(ci) = &s.ci {
            let cap = width * 0.15;
            chart.draw_series(ci.iter().enumerate().flat_map(|(i, &(lo, hi))| {
                let x = x0(i) + width / 2.0;
                [
                    PathElement::new(vec![(x, lo), (x, hi)], BLACK.stroke_width(2)),
                    PathElement::new(vec![(x - cap, lo), (x + cap, lo)], BLACK.stroke_width(2)),
                    PathElement::new(vec![(x - cap, hi), (x + cap, hi)], BLACK.stroke_width(2)),
                ]
            }))?;
        }
    }
    if let Some((r, label)) = reference {
        let r = *r;
        chart
            .draw_series(DashedLineSeries::new(vec![(-0.5, r), (n as f64 - 0.5, r)], 10, 6, RED.stroke_width(2)))?
            .label(label.clone())
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], RED.stroke_width(2)));
    }
    if series.iter().any(|s| s.ci.is_some()) {
        chart
            .draw_series(std::iter::once(PathElement::new(Vec::<(f64, f64)>::new(), BLACK)))?
            .label("95% confidence interval")
            .legend(|(x, y)| PathElement::new(vec![(x + 7, y - 7), (x + 7, y + 7)], BLACK.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 16))
        .draw()?;
    Ok(())
}

fn lines(root: &Area, title: &str, x_label: &str, y_label: &str, series: &[crate::engine::LineSeries]) -> DrawResult {
    let (mut x_min, mut x_max, mut y_min, mut y_max) = (f64::INFINITY, f64::NEG_INFINITY, 0f64, 0f64);
    for s in series {
        for (i, &(x, y)) in s.points.iter().enumerate() {
            x_min = x_min.min(x);
            x_max = x_max.max(x);
            y_min = y_min.min(y);
            y_max = y_max.max(y);
            if let Some(b) = &s.band {
                y_min = y_min.min(b[i].0);
                y_max = y_max.max(b[i].1);
            }
        }
    }
    // Axes start at 0 unless the data lies elsewhere (a sweep of 100..300, negative values).
    let x_min = if x_min.is_finite() { x_min } else { 0.0 };
    let x_max = if x_max.is_finite() && x_max > x_min { x_max } else { x_min + 1.0 };
    // Charts with bands (sweeps) keep the top quarter free for the legend.
    if series.iter().any(|s| s.band.is_some()) {
        y_max += (y_max - y_min.min(0.0)) * 0.4;
    }
    let mut chart = ChartBuilder::on(root)
        .caption(title, title_font())
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(80)
        .build_cartesian_2d(x_min..x_max, nice_bottom(y_min)..percent_cap(y_label, nice_top(y_max)))?;
    chart.configure_mesh().x_desc(x_label).y_desc(y_label).label_style(("sans-serif", 16)).axis_desc_style(("sans-serif", 18)).draw()?;
    for (j, s) in series.iter().enumerate() {
        let c = color(j);
        if let Some(band) = &s.band {
            let mut poly: Vec<(f64, f64)> = s.points.iter().zip(band).map(|(&(x, _), &(_, hi))| (x, hi)).collect();
            poly.extend(s.points.iter().zip(band).rev().map(|(&(x, _), &(lo, _))| (x, lo)));
            chart.draw_series(std::iter::once(Polygon::new(poly, c.mix(0.2).filled())))?;
        }
        chart
            .draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(3)))?
            .label(s.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(3)));
        if s.band.is_some() && s.points.len() <= 40 {
            // Few measured points (a sweep): mark each one.
            chart.draw_series(s.points.iter().map(|&p| Circle::new(p, 5, c.filled())))?;
        }
    }
    if series.iter().any(|s| s.band.is_some()) {
        chart
            .draw_series(std::iter::once(PathElement::new(Vec::<(f64, f64)>::new(), BLACK)))?
            .label("shaded: 95% confidence interval")
            .legend(|(x, y)| Rectangle::new([(x, y - 6), (x + 18, y + 6)], RGBColor(120, 120, 120).mix(0.3).filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 16))
        .draw()?;
    Ok(())
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
        hi = hi.max(*x + 1.0);
    }
    if !lo.is_finite() {
        lo = 0.0;
        hi = 1.0;
    }
    let top = nice_top(top);
    let mut chart =
        ChartBuilder::on(root).caption(title, title_font()).margin(20).x_label_area_size(60).y_label_area_size(80).build_cartesian_2d(lo..hi, 0f64..top)?;
    chart.configure_mesh().disable_x_mesh().x_desc(x_label).y_desc(y_label).label_style(("sans-serif", 16)).axis_desc_style(("sans-serif", 18)).draw()?;
    let alpha = if series.len() > 1 { 0.55 } else { 0.85 };
    for (j, (name, bins)) in series.iter().enumerate() {
        let c = color(j);
        chart
            .draw_series(bins.iter().map(|b| Rectangle::new([(b.lo, 0.0), (b.hi, b.value)], c.mix(alpha).filled())))?
            .label(name.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], c.filled()));
    }
    let marker_colors = [BLACK, RGBColor(214, 39, 40), RGBColor(120, 120, 120)];
    for (k, (x, label)) in markers.iter().enumerate() {
        let c = marker_colors[k % marker_colors.len()];
        chart
            .draw_series(DashedLineSeries::new(vec![(*x, 0.0), (*x, top)], 8, 5, c.stroke_width(2)))?
            .label(label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 16))
        .draw()?;
    Ok(())
}
