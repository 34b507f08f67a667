//! Charts described without any drawing library ([`ChartSpec`]): what a game's metrics
//! hand the report layer to draw.

/// One chart a game adds to its report, described without any drawing library so the
/// report layer can render it (and the game layer stays free of plotting code).
#[derive(Clone, Debug)]
pub enum ChartSpec {
    /// Grouped bars: one group per category, one bar per series, optional 95% CI whiskers.
    Bars {
        /// File stem of the PNG.
        file: String,
        /// Chart title.
        title: String,
        /// X axis label.
        x_label: String,
        /// Y axis label with units.
        y_label: String,
        /// Category names along x.
        categories: Vec<String>,
        /// One entry per series.
        series: Vec<BarSeries>,
        /// Optional horizontal reference line (value, legend label).
        reference: Option<(f64, String)>,
    },
    /// Lines over a numeric x axis, each with an optional band.
    Lines {
        /// File stem of the PNG.
        file: String,
        /// Chart title.
        title: String,
        /// X axis label with units.
        x_label: String,
        /// Y axis label with units.
        y_label: String,
        /// One entry per line.
        series: Vec<LineSeries>,
    },
    /// A histogram over a numeric axis, one or more overlaid series of bins, with optional
    /// vertical markers (mean, median, cap).
    Histogram {
        /// File stem of the PNG.
        file: String,
        /// Chart title.
        title: String,
        /// X axis label with units.
        x_label: String,
        /// Y axis label with units.
        y_label: String,
        /// (legend label, bins) per series.
        series: Vec<(String, Vec<Bin>)>,
        /// Vertical lines: (x, legend label).
        markers: Vec<(f64, String)>,
    },
    /// A grid of cells coloured by value (a sweep over two parameters), each cell labelled.
    Heatmap {
        /// File stem of the PNG.
        file: String,
        /// Chart title.
        title: String,
        /// X axis label (the column parameter).
        x_label: String,
        /// Y axis label (the row parameter).
        y_label: String,
        /// Column labels, left to right.
        columns: Vec<String>,
        /// Row labels, bottom to top.
        rows: Vec<String>,
        /// `cells[row][column]`: the value shown as colour (NaN: no value).
        cells: Vec<Vec<f64>>,
        /// Text written in each cell (value and interval), same shape as `cells`.
        cell_labels: Vec<Vec<String>>,
        /// What the colour means, with units (the colour bar's label).
        value_label: String,
    },
}

impl ChartSpec {
    /// The PNG file stem.
    pub fn file(&self) -> &str {
        match self {
            ChartSpec::Bars { file, .. } | ChartSpec::Lines { file, .. } | ChartSpec::Histogram { file, .. } | ChartSpec::Heatmap { file, .. } => file,
        }
    }

    /// The chart title.
    pub fn title(&self) -> &str {
        match self {
            ChartSpec::Bars { title, .. } | ChartSpec::Lines { title, .. } | ChartSpec::Histogram { title, .. } | ChartSpec::Heatmap { title, .. } => title,
        }
    }
}

/// One bin of a [`ChartSpec::Histogram`].
#[derive(Clone, Copy, Debug)]
pub struct Bin {
    /// Lower edge (inclusive).
    pub lo: f64,
    /// Upper edge (exclusive).
    pub hi: f64,
    /// Height.
    pub value: f64,
}

/// One bar series of a [`ChartSpec::Bars`].
#[derive(Clone, Debug)]
pub struct BarSeries {
    /// Legend label.
    pub name: String,
    /// One value per category.
    pub values: Vec<f64>,
    /// Optional (low, high) 95% interval per category.
    pub ci: Option<Vec<(f64, f64)>>,
}

/// One line of a [`ChartSpec::Lines`].
#[derive(Clone, Debug)]
pub struct LineSeries {
    /// Legend label.
    pub name: String,
    /// (x, y) points in x order.
    pub points: Vec<(f64, f64)>,
    /// Optional (low, high) band per point.
    pub band: Option<Vec<(f64, f64)>>,
}
