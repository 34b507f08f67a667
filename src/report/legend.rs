//! A legend drawn in its own column right of the plot area, so it never covers data. Long
//! labels wrap; the column is as wide as its widest line.

use plotters::prelude::*;

use super::area::{Area, DrawResult};
use super::text::layout;

/// Font size of legend labels.
const SIZE: f32 = 16.0;
/// Widest line of a label before it wraps, in pixels.
const WRAP: f32 = 210.0;
/// Room for the key (swatch or line) and the gaps around it, in pixels.
const KEY: u32 = 44;
/// Height of one label line, in pixels.
const LINE: i32 = 20;

/// How an entry is drawn before its label.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Key {
    /// A filled square (bars, histogram bins).
    Swatch(RGBColor),
    /// A solid line (line series).
    Line(RGBColor),
    /// A dashed line (reference lines and markers).
    Dashed(RGBColor),
    /// A black error bar (95% confidence intervals).
    Whisker,
    /// A light grey block (shaded bands).
    Band,
}

/// The entries of one chart's legend.
#[derive(Default)]
pub(crate) struct Legend {
    entries: Vec<(Vec<String>, Key)>,
}

/// Width of `text` in legend type.
fn width(text: &str) -> f32 {
    layout(text, SIZE, false).map(|l| l.width).unwrap_or(text.len() as f32 * SIZE * 0.5)
}

/// `text` broken at spaces into lines no wider than [`WRAP`] (a longer word stays whole).
fn wrap(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if width(&format!("{line} {word}")) <= WRAP => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

impl Legend {
    /// Adds an entry.
    pub(crate) fn add(&mut self, label: &str, key: Key) {
        self.entries.push((wrap(label), key));
    }

    /// Width of the legend column in pixels (0 when there is nothing to show).
    pub(crate) fn width(&self) -> u32 {
        let text = self.entries.iter().flat_map(|(lines, _)| lines).map(|l| width(l).ceil() as u32).max();
        text.map_or(0, |w| w + KEY + 16)
    }

    /// Draws the legend with its top-left corner at `(x, y)` on `root` (pixels).
    pub(crate) fn draw(&self, root: &Area, x: i32, y: i32) -> DrawResult {
        if self.entries.is_empty() {
            return Ok(());
        }
        let lines: i32 = self.entries.iter().map(|(l, _)| l.len() as i32).sum();
        let height = lines * LINE + (self.entries.len() as i32 - 1) * 6 + 16;
        root.draw(&Rectangle::new([(x, y), (x + self.width() as i32, y + height)], RGBColor(160, 160, 160).stroke_width(1)))?;
        let font = ("sans-serif", SIZE as f64).into_font().color(&BLACK);
        let mut top = y + 8;
        for (label, key) in &self.entries {
            let (kx, ky) = (x + 10, top + LINE / 2);
            match *key {
                Key::Swatch(c) => root.draw(&Rectangle::new([(kx + 4, ky - 7), (kx + 18, ky + 7)], c.filled()))?,
                Key::Line(c) => root.draw(&PathElement::new(vec![(kx, ky), (kx + 24, ky)], c.stroke_width(3)))?,
                Key::Dashed(c) => {
                    for s in [0, 10, 20] {
                        root.draw(&PathElement::new(vec![(kx + s, ky), (kx + s + 5, ky)], c.stroke_width(2)))?;
                    }
                }
                Key::Whisker => {
                    let c = BLACK.stroke_width(2);
                    root.draw(&PathElement::new(vec![(kx + 11, ky - 8), (kx + 11, ky + 8)], c))?;
                    root.draw(&PathElement::new(vec![(kx + 7, ky - 8), (kx + 15, ky - 8)], c))?;
                    root.draw(&PathElement::new(vec![(kx + 7, ky + 8), (kx + 15, ky + 8)], c))?;
                }
                Key::Band => root.draw(&Rectangle::new([(kx, ky - 7), (kx + 24, ky + 7)], RGBColor(120, 120, 120).mix(0.3).filled()))?,
            }
            for line in label {
                root.draw(&Text::new(line.clone(), (x + KEY as i32, top + 2), font.clone()))?;
                top += LINE;
            }
            top += 6;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_labels_wrap_and_short_ones_do_not() {
        assert_eq!(wrap("bluffed"), vec!["bluffed".to_string()]);
        let lines = wrap("challenge caught a bluff (% of challenged claims, the other bars: % of claims)");
        assert!(lines.len() >= 2, "{lines:?}");
        assert!(lines.iter().all(|l| width(l) <= WRAP || !l.contains(' ')));
    }
}
