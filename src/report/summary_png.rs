//! `summary.png`: the report on one picture a designer pastes into a design document. At the
//! top the game and variant, the run, and the verdict line (wrapped to the width); below, the
//! win shares with their 95% intervals and the fair-share line (by team in a team game),
//! beside the length distribution; at the bottom the game's own key chart. The panels are
//! the report's own charts drawn smaller, so they read the same as the full-size files.

use std::path::{Path, PathBuf};

use plotters::prelude::*;
use plotters::style::FontStyle;

use super::area::{Area, DrawResult};
use super::charts::{draw, register_fonts};
use super::text::{TextBackend, layout};
use crate::engine::ChartSpec;
use crate::error::Error;

/// The picture's size in pixels: wide enough for two charts side by side at a readable size.
pub const SIZE: (u32, u32) = (1800, 1280);
/// Size of the verdict's text.
const VERDICT_PX: f32 = 22.0;
/// Size of the heading.
const HEADING_PX: f32 = 30.0;
/// Left and right margin of the text.
const MARGIN: i32 = 30;

/// What the picture shows.
pub struct SummaryPicture<'a> {
    /// "beaver-mania — standard".
    pub heading: &'a str,
    /// The run in one line: games, seed, players, bots.
    pub run: &'a str,
    /// The verdict line.
    pub verdict: &'a str,
    /// The win shares chart (teams in a team game), with intervals and the fair share.
    pub shares: &'a ChartSpec,
    /// The length distribution.
    pub length: &'a ChartSpec,
    /// The game's own key chart, if it has one.
    pub key: Option<&'a ChartSpec>,
}

/// `text` broken into lines no wider than `width` pixels at `size` (at spaces; a single word
/// wider than the line stands alone).
pub fn wrap(text: &str, size: f32, bold: bool, width: f32) -> Vec<String> {
    let fits = |s: &str| layout(s, size, bold).map_or(true, |l| l.width <= width);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if fits(&candidate) || line.is_empty() {
            line = candidate;
        } else {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A copy of `spec` with a shorter title (a panel is narrower than a chart file).
fn titled(spec: &ChartSpec, title: String) -> ChartSpec {
    let mut s = spec.clone();
    match &mut s {
        ChartSpec::Bars { title: t, .. } | ChartSpec::Lines { title: t, .. } | ChartSpec::Histogram { title: t, .. } | ChartSpec::Heatmap { title: t, .. } => {
            *t = title
        }
    }
    s
}

/// The title cut to fit `width` pixels at the chart title's size, with "..." when cut.
fn fit_title(title: &str, width: f32) -> String {
    let fits = |s: &str| layout(s, 24.0, true).map_or(true, |l| l.width <= width);
    if fits(title) {
        return title.to_string();
    }
    // Drop a trailing parenthesis first (the game counts), then words.
    if let Some(i) = title.rfind(" (")
        && fits(&title[..i])
    {
        return title[..i].to_string();
    }
    let mut words: Vec<&str> = title.split(' ').collect();
    while words.len() > 1 {
        words.pop();
        let s = format!("{}...", words.join(" "));
        if fits(&s) {
            return s;
        }
    }
    title.to_string()
}

fn text_at(root: &Area, s: &str, (x, y): (i32, i32), size: f32, bold: bool) -> DrawResult {
    let font = if bold { ("sans-serif", size as f64, FontStyle::Bold).into_font() } else { ("sans-serif", size as f64).into_font() };
    root.draw(&Text::new(s.to_string(), (x, y), font.color(&BLACK)))?;
    Ok(())
}

fn draw_picture(root: &Area, p: &SummaryPicture<'_>) -> DrawResult {
    root.fill(&WHITE)?;
    let (w, h) = root.dim_in_pixel();
    let text_width = w as f32 - 2.0 * MARGIN as f32;
    let mut y = 18;
    text_at(root, p.heading, (MARGIN, y), HEADING_PX, true)?;
    y += 42;
    for line in wrap(p.run, 18.0, false, text_width) {
        text_at(root, &line, (MARGIN, y), 18.0, false)?;
        y += 26;
    }
    y += 4;
    for line in wrap(p.verdict, VERDICT_PX, true, text_width) {
        text_at(root, &line, (MARGIN, y), VERDICT_PX, true)?;
        y += 30;
    }
    y += 8;
    root.draw(&PathElement::new(vec![(MARGIN, y), (w as i32 - MARGIN, y)], RGBColor(200, 200, 200).stroke_width(1)))?;
    y += 6;
    let body = root.margin(y as u32, 0, 0, 0);
    let rows = if p.key.is_some() { 2 } else { 1 };
    let row_height = (h - y as u32) / rows;
    let (top, bottom) = body.split_vertically(row_height);
    let (left, right) = top.split_horizontally(w / 2);
    let half = (w / 2) as f32 - 60.0;
    draw(&titled(p.shares, fit_title(p.shares.title(), half)), &left)?;
    draw(&titled(p.length, fit_title(p.length.title(), half)), &right)?;
    if let Some(key) = p.key {
        draw(&titled(key, fit_title(key.title(), w as f32 - 60.0)), &bottom)?;
    }
    Ok(())
}

/// Draws the picture into `dir/summary.png` and returns its path.
pub fn render(p: &SummaryPicture<'_>, dir: &Path) -> Result<PathBuf, Error> {
    register_fonts();
    let path = dir.join("summary.png");
    let fail = |e: &dyn std::fmt::Display| Error::output(&path, e);
    {
        let root = TextBackend::new(BitMapBackend::new(&path, SIZE)).into_drawing_area();
        draw_picture(&root, p).map_err(|e| fail(&e))?;
        root.present().map_err(|e| fail(&e))?;
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_verdict_wraps_within_the_width_and_keeps_every_word() {
        let text = "Team 0 (seats 0 and 2) wins 48.7% of games against a fair 50.0% (-1.3 pts, 95% CI -2.0 to -0.6): a small but real first-mover disadvantage; games last 912 turns (median); the lead changes 14.2 times a game and 31% of games are won by a team that trailed at halfway.";
        let lines = wrap(text, VERDICT_PX, true, 800.0);
        assert!(lines.len() >= 2, "{lines:?}");
        for l in &lines {
            assert!(layout(l, VERDICT_PX, true).unwrap().width <= 800.0, "{l}");
        }
        assert_eq!(lines.join(" "), text);
    }

    #[test]
    fn a_title_too_wide_for_a_panel_is_shortened() {
        register_fonts();
        let long = "Win share by seat: each seat of a winning team gets an equal part (20000 games)";
        let short = fit_title(long, 600.0);
        assert!(layout(&short, 24.0, true).unwrap().width <= 600.0, "{short}");
        assert_eq!(fit_title("Game length (20000 games)", 800.0), "Game length (20000 games)");
    }
}
