//! What `compare` found, as one value: the two sides and every figure with its paired
//! interval. Every writer (text, HTML, CSV, charts, `compare.json`) reads only this.

use serde::Serialize;

use crate::designer::metrics::{self, Unit};
use crate::designer::precision::Reached;

/// One side of a comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Side {
    /// The variant file.
    pub path: String,
    /// The variant's name.
    pub variant: String,
    /// Bot per acting seat.
    pub bots: Vec<String>,
    /// The `--set` overrides this side played, as given (for B: `--set` then `--set-b`).
    pub sets: Vec<String>,
    /// Master seed.
    pub seed: u64,
}

impl Side {
    /// The side in one line: the variant, its file with the overrides, and the bots
    /// (`standard (variants/pig-farm/standard.toml --set scoring.seller.3=15), bots threshold x4`).
    pub fn describe(&self) -> String {
        let mut file = self.path.clone();
        for s in &self.sets {
            file.push_str(&format!(" --set {s}"));
        }
        format!("{} ({file}), bots {}", self.variant, bots_text(&self.bots))
    }

    /// The side as a chart names it: the variant's name and its overrides.
    pub fn short(&self) -> String {
        let mut s = self.variant.clone();
        for set in &self.sets {
            s.push_str(&format!(" {set}"));
        }
        s
    }
}

/// Bots per seat, runs of one bot written once with a count (`threshold x4`, `random, greedy x3`).
fn bots_text(bots: &[String]) -> String {
    let mut runs: Vec<(&str, usize)> = Vec::new();
    for b in bots {
        match runs.last_mut() {
            Some((name, n)) if *name == b.as_str() => *n += 1,
            _ => runs.push((b, 1)),
        }
    }
    runs.iter().map(|(b, n)| if *n > 1 { format!("{b} x{n}") } else { b.to_string() }).collect::<Vec<_>>().join(", ")
}

/// One metric of a comparison.
#[derive(Clone, Debug, Serialize)]
pub struct MetricComparison {
    /// Metric name.
    pub name: String,
    /// What it is.
    pub about: String,
    /// "share" (a fraction), "length" or "plain".
    pub unit: &'static str,
    /// The unit of one of the game's own figures in its words ("pegs per game"; empty for
    /// a share and for the common figures).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub own_unit: String,
    /// Whether it is one of the game's own figures (the table then says what it is).
    #[serde(skip)]
    pub own: bool,
    /// Whether it is a difference of shares (the first-player advantage), shown in points.
    #[serde(skip)]
    pub difference: bool,
    /// Whether the figure applies to the game ([`metrics::MetricDef::applies`]): the
    /// terminal table leaves out the rest (compare.json and compare.csv keep every figure).
    #[serde(skip)]
    pub applies: bool,
    /// Value of A (null when A has no such metric).
    pub a: f64,
    /// 95% interval of A.
    pub a_ci: [f64; 2],
    /// Value of B.
    pub b: f64,
    /// 95% interval of B.
    pub b_ci: [f64; 2],
    /// How A's and B's intervals are computed (`wilson`, `mean`, `ratio estimator`, `batch
    /// means`, `order statistics`; `constant` and `none`: the value alone, no interval).
    pub interval: [&'static str; 2],
    /// B - A.
    pub diff: f64,
    /// Paired 95% interval of B - A (null when the metric has no paired interval).
    pub paired_ci: Option<[f64; 2]>,
    /// The 95% interval of B - A that two independent runs of the same size would give.
    pub independent_ci: Option<[f64; 2]>,
    /// Whether the paired interval excludes 0.
    pub significant: Option<bool>,
}

impl MetricComparison {
    /// Paired width over independent width (below 1: pairing helped).
    pub fn width_ratio(&self) -> Option<f64> {
        let (p, i) = (self.paired_ci?, self.independent_ci?);
        let w = i[1] - i[0];
        (w > 0.0).then(|| (p[1] - p[0]) / w)
    }
}

/// The whole comparison (`--json` prints it).
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// Game id.
    pub game: String,
    /// Side A.
    pub a: Side,
    /// Side B.
    pub b: Side,
    /// Games per side.
    pub games: u64,
    /// Whether game i of A and of B share a seed.
    pub common_random_numbers: bool,
    /// Unit of game length (turns, rounds).
    pub length_unit: String,
    /// How an adaptive run ended.
    pub precision: Option<Reached>,
    /// Seat rotation: games per block (absent when not rotated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation_block: Option<u64>,
    /// Every metric.
    pub metrics: Vec<MetricComparison>,
}

/// One side's value of `m` as the tables show it: a difference of shares in points, a share
/// in %, others as numbers.
pub fn value_of(m: &MetricComparison, v: f64) -> String {
    if m.difference { crate::stats::format::points(v) } else { metrics::format_value(unit_of(m), v) }
}

pub(super) fn unit_of(m: &MetricComparison) -> Unit {
    match m.unit {
        "share" => Unit::Share,
        "length" => Unit::Length,
        _ => Unit::Plain,
    }
}
