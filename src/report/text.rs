//! Chart text laid out correctly. plotters' `ab_glyph` path places every glyph at its pen
//! position rounded down and ignores the glyph's left bearing, so letters collide ("claim"
//! reads "daim"). [`TextBackend`] wraps `BitMapBackend`, forwards every drawing call, and
//! draws text itself: pen position plus kerning, each glyph rasterised at its sub-pixel
//! position and drawn from its `px_bounds().min`, honouring the anchor, the 90-degree
//! rotations of axis labels, the size and the colour.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use plotters::prelude::BitMapBackend;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind, FontStyle};

/// The embedded fonts, parsed once: (regular, bold).
fn fonts() -> Option<&'static (FontRef<'static>, FontRef<'static>)> {
    static FONTS: OnceLock<Option<(FontRef<'static>, FontRef<'static>)>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let regular = FontRef::try_from_slice(notosans::REGULAR_TTF).ok()?;
            let bold = FontRef::try_from_slice(notosans::BOLD_TTF).ok()?;
            Some((regular, bold))
        })
        .as_ref()
}

/// The embedded font could not be read (never expected: it is compiled in).
#[derive(Debug, thiserror::Error)]
#[error("the embedded chart font could not be parsed")]
pub struct FontUnavailable;

/// One line of text laid out in unrotated pixels, relative to the top-left corner of its box.
#[derive(Debug, Default)]
pub struct Layout {
    /// Advance width of the whole string (pen travel), in pixels.
    pub width: f32,
    /// Box height: ascent minus descent, in pixels.
    pub height: f32,
    /// Covered pixels: (x, y, coverage 0..=1).
    pub pixels: Vec<(i32, i32, f32)>,
}

/// Lays `text` out at pixel size `size` (the same scale plotters uses), bold or regular.
pub fn layout(text: &str, size: f32, bold: bool) -> Result<Layout, FontUnavailable> {
    let (regular, heavy) = fonts().ok_or(FontUnavailable)?;
    let font = if bold { heavy } else { regular };
    let scaled = font.as_scaled(PxScale::from(size));
    let ascent = scaled.ascent();
    let mut out = Layout { width: 0.0, height: ascent - scaled.descent(), pixels: Vec::new() };
    let mut pen = 0f32;
    let mut prev = None;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(p) = prev {
            pen += scaled.kern(p, id);
        }
        prev = Some(id);
        let glyph = id.with_scale_and_position(PxScale::from(size), point(pen, ascent));
        if let Some(outline) = font.outline_glyph(glyph) {
            let min = outline.px_bounds().min;
            let (x0, y0) = (min.x as i32, min.y as i32);
            outline.draw(|x, y, c| {
                if c > 0.0 {
                    out.pixels.push((x0 + x as i32, y0 + y as i32, c.min(1.0)));
                }
            });
        }
        pen += scaled.h_advance(id);
    }
    out.width = pen;
    Ok(out)
}

/// A `BitMapBackend` whose text is laid out by [`layout`]; everything else is forwarded.
pub struct TextBackend<'a> {
    inner: BitMapBackend<'a>,
}

impl<'a> TextBackend<'a> {
    /// Wraps `inner`.
    pub fn new(inner: BitMapBackend<'a>) -> Self {
        Self { inner }
    }
}

type Failure<'a> = DrawingErrorKind<<BitMapBackend<'a> as DrawingBackend>::ErrorType>;

impl<'a> DrawingBackend for TextBackend<'a> {
    type ErrorType = <BitMapBackend<'a> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), Failure<'a>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), Failure<'a>> {
        self.inner.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), Failure<'a>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Result<(), Failure<'a>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(&mut self, upper_left: BackendCoord, bottom_right: BackendCoord, style: &S, fill: bool) -> Result<(), Failure<'a>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, path: I, style: &S) -> Result<(), Failure<'a>> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(&mut self, center: BackendCoord, radius: u32, style: &S, fill: bool) -> Result<(), Failure<'a>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, vert: I, style: &S) -> Result<(), Failure<'a>> {
        self.inner.fill_polygon(vert, style)
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, size: (u32, u32), src: &[u8]) -> Result<(), Failure<'a>> {
        self.inner.blit_bitmap(pos, size, src)
    }

    fn estimate_text_size<TStyle: BackendTextStyle>(&self, text: &str, style: &TStyle) -> Result<(u32, u32), Failure<'a>> {
        let l = layout(text, style.size() as f32, matches!(style.style(), FontStyle::Bold)).map_err(|e| DrawingErrorKind::FontError(Box::new(e)))?;
        Ok((l.width.ceil() as u32, l.height.ceil() as u32))
    }

    fn draw_text<TStyle: BackendTextStyle>(&mut self, text: &str, style: &TStyle, pos: BackendCoord) -> Result<(), Failure<'a>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let l = layout(text, style.size() as f32, matches!(style.style(), FontStyle::Bold)).map_err(|e| DrawingErrorKind::FontError(Box::new(e)))?;
        let (width, height) = (l.width.round() as i32, l.height.round() as i32);
        let anchor = style.anchor();
        let dx = match anchor.h_pos {
            HPos::Left => 0,
            HPos::Right => -width,
            HPos::Center => -width / 2,
        };
        let dy = match anchor.v_pos {
            VPos::Top => 0,
            VPos::Center => -height / 2,
            VPos::Bottom => -height,
        };
        let transform = style.transform();
        let (w, h) = self.get_size();
        for (x, y, c) in l.pixels {
            let (x, y) = transform.transform(x + dx, y + dy);
            let (x, y) = (pos.0 + x, pos.1 + y);
            if x >= 0 && x < w as i32 && y >= 0 && y < h as i32 {
                self.inner.draw_pixel((x, y), BackendColor { alpha: color.alpha * c as f64, rgb: color.rgb })?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ink's horizontal extent of a layout: (first column, last column).
    fn ink(l: &Layout) -> (i32, i32) {
        let xs = l.pixels.iter().filter(|p| p.2 > 0.3).map(|p| p.0);
        (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0))
    }

    #[test]
    fn a_string_is_as_wide_as_the_sum_of_its_advances() {
        let (font, _) = fonts().expect("embedded font");
        let size = 24.0;
        let scaled = font.as_scaled(PxScale::from(size));
        let text = "claim Game length";
        let advances: f32 = text.chars().map(|c| scaled.h_advance(scaled.glyph_id(c))).sum();
        let l = layout(text, size, false).unwrap();
        assert!((l.width - advances).abs() < 0.01, "{} vs {advances}", l.width);
        // Ink runs from the first glyph's left bearing to the last glyph's right side.
        let first = scaled.h_side_bearing(scaled.glyph_id('c'));
        let last = scaled.glyph_id('h');
        let last_right = advances - scaled.h_advance(last) + font.outline(last).expect("h has an outline").bounds.max.x * scaled.h_scale_factor();
        let (lo, hi) = ink(&l);
        assert!((lo as f32 - first).abs() <= 1.5, "ink starts at {lo}, bearing {first}");
        assert!((hi as f32 + 1.0 - last_right).abs() <= 1.5, "ink ends at {hi}, expected {last_right}");
    }

    #[test]
    fn c_and_l_do_not_merge() {
        // Every column between the c's ink and the l's ink must hold a gap: find a column
        // with no strong ink between the two glyphs.
        let l = layout("cl", 24.0, false).unwrap();
        let (lo, hi) = ink(&l);
        let gap = (lo..=hi).any(|x| !l.pixels.iter().any(|p| p.0 == x && p.2 > 0.5));
        assert!(gap, "\"cl\" renders without a gap between the letters");
    }

    #[test]
    fn text_is_drawn_at_its_anchor_and_rotated() {
        use plotters::prelude::*;
        use plotters::style::text_anchor::Pos;
        crate::report::charts::register_fonts();
        let mut buf = vec![255u8; 200 * 200 * 3];
        {
            let root = TextBackend::new(BitMapBackend::with_buffer(&mut buf, (200, 200))).into_drawing_area();
            let style = ("sans-serif", 20).into_font().color(&BLACK).pos(Pos::new(HPos::Right, VPos::Center)).transform(FontTransform::Rotate270);
            root.draw(&Text::new("label", (100, 100), style)).unwrap();
            root.present().unwrap();
        }
        // Rotated 270 degrees and right-anchored: the text runs upwards and ends at y=100.
        let dark: Vec<(usize, usize)> = (0..200 * 200).filter(|i| buf[i * 3] < 128).map(|i| (i % 200, i / 200)).collect();
        assert!(!dark.is_empty());
        let (ymin, ymax) = (dark.iter().map(|p| p.1).min().unwrap(), dark.iter().map(|p| p.1).max().unwrap());
        let (xmin, xmax) = (dark.iter().map(|p| p.0).min().unwrap(), dark.iter().map(|p| p.0).max().unwrap());
        assert!(ymax - ymin > xmax - xmin, "rotated text is taller than wide");
        assert!((100..=104).contains(&ymin), "right anchor after rotation: text starts at y {ymin}");
        assert!(xmin >= 88 && xmax <= 112, "centred on x=100: {xmin}..{xmax}");
    }
}
