//! What `sweep` measured, as one value: every writer (the table, `sweep.csv`, the charts)
//! reads only this.

use crate::designer::metrics::{Estimate, Unit};
use crate::output::Partial;

use super::values::Axis;

/// One point of a sweep: the value index on each axis and what it measured.
pub struct PointResult {
    /// Value index on each axis.
    pub at: Vec<usize>,
    /// Metric names of this point's game.
    pub names: Vec<String>,
    /// Units of those metrics.
    pub units: Vec<Unit>,
    /// Estimates in the same order.
    pub estimates: Vec<Estimate>,
    /// Games played.
    pub games: u64,
}

impl PointResult {
    /// The estimate of metric `name` at this point (`None` when its game has no such metric).
    pub fn get(&self, name: &str) -> Option<Estimate> {
        self.names.iter().position(|n| n == name).map(|i| self.estimates[i])
    }
}

/// The whole sweep.
pub struct SweepResult {
    /// Game id.
    pub game: String,
    /// The variant's name.
    pub variant: String,
    /// The swept keys with their values.
    pub axes: Vec<Axis>,
    /// Games per point.
    pub games: u64,
    /// Master seed (the same games at every point).
    pub seed: u64,
    /// Every metric name of any point with its unit, in first-seen order.
    pub names: Vec<(String, Unit)>,
    /// The metrics the table and the charts show.
    pub selected: Vec<String>,
    /// Unit of game length (turns, rounds).
    pub length_unit: String,
    /// The bots of the first point, one per seat (for the notes on keys no bot reads).
    pub lineup: Vec<String>,
    /// How a Ctrl-C stopped it (`None` when it ran to the end).
    pub partial: Option<Partial>,
    /// Every point, in grid order.
    pub points: Vec<PointResult>,
}
