//! The drawing area every chart renderer draws on, its result type and the title font:
//! shared by [`super::charts`], [`super::heatmap`], [`super::legend`] and [`super::tornado`]
//! without any of them importing another.

use plotters::prelude::*;
use plotters::style::FontStyle;

use super::text::TextBackend;

/// The drawing area every renderer draws on.
pub(crate) type Area<'a> = DrawingArea<TextBackend<'a>, plotters::coord::Shift>;
/// The plot inside a chart frame: plain numbers on both axes.
pub(crate) type Plot<'a, 'b> = ChartContext<'a, TextBackend<'b>, Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>>;
/// What a renderer returns.
pub(crate) type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// The font of every chart title.
pub(crate) fn title_font() -> FontDesc<'static> {
    ("sans-serif", 24, FontStyle::Bold).into_font()
}
