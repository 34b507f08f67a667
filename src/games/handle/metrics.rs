//! A run's results with the game's own metrics type-erased, so the commands that read them are
//! compiled once.

use std::any::Any;

use crate::engine::{ChartSpec, Game, Metrics};
use crate::sim::GameRow;
use crate::stats::ratio::RatioTally;
use crate::stats::rotation::RotationTally;
use crate::stats::{StandingTally, Tally};

/// A game's own metrics with the type erased: gathered by a batch, merged in index order,
/// read as figures and charts.
pub trait AnyMetrics: Send {
    /// The figures over `games` games ([`Metrics::summary`]).
    fn summary(&self, games: u64) -> Vec<(String, f64)>;
    /// The game's own charts ([`Metrics::charts`]).
    fn charts(&self, games: u64) -> Vec<ChartSpec>;
    /// An empty accumulator of the same game.
    fn empty(&self) -> Box<dyn AnyMetrics>;
    /// Adds a later batch's metrics of the same game ([`Metrics::merge`]).
    fn merge(&mut self, other: Box<dyn AnyMetrics>);
    /// The accumulator itself, for a caller that knows the game type.
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
    /// The accumulated state as JSON for a shard's state file ([`Metrics::save_state`]);
    /// `None` when the game cannot save it.
    fn save_state(&self) -> Option<serde_json::Value>;
    /// An accumulator of the same game rebuilt from a saved state ([`Metrics::load_state`]).
    fn load_state(&self, saved: &serde_json::Value) -> Result<Box<dyn AnyMetrics>, String>;
}

/// The metrics of game `G` behind [`AnyMetrics`].
pub struct MetricsOf<G: Game>(pub G::Metrics);

impl<G: Game> AnyMetrics for MetricsOf<G> {
    fn summary(&self, games: u64) -> Vec<(String, f64)> {
        self.0.summary(games)
    }
    fn charts(&self, games: u64) -> Vec<ChartSpec> {
        self.0.charts(games)
    }
    fn empty(&self) -> Box<dyn AnyMetrics> {
        Box::new(MetricsOf::<G>(G::Metrics::default()))
    }
    fn merge(&mut self, other: Box<dyn AnyMetrics>) {
        let other = other.into_any().downcast::<MetricsOf<G>>().expect("metrics of one game merge only with the same game's");
        Metrics::merge(&mut self.0, other.0);
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
    fn save_state(&self) -> Option<serde_json::Value> {
        self.0.save_state()
    }
    fn load_state(&self, saved: &serde_json::Value) -> Result<Box<dyn AnyMetrics>, String> {
        Ok(Box::new(MetricsOf::<G>(G::Metrics::load_state(saved)?)))
    }
}

/// Everything a run of the simulator produced ([`crate::sim::RunResult`] with the game's
/// metrics type-erased): what `simulate`, `report`, `ladder`, `bench` and shards read.
pub struct Run {
    /// Aggregated figures.
    pub tally: Tally,
    /// The game's own metrics (empty unless detailed).
    pub metrics: Box<dyn AnyMetrics>,
    /// Lead changes, drama, margin and standings by turn (empty unless detailed).
    pub standing: StandingTally,
    /// Per-game rows (empty unless kept).
    pub rows: Vec<GameRow>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Per-seat and per-bot sums of a rotated run (`None` unless rotated).
    pub rotation: Option<RotationTally>,
    /// Per figure of the game's own, its value over each sub-batch with the games: the
    /// units of its batch-means interval (empty unless detailed).
    pub extras: Vec<Vec<(f64, f64)>>,
    /// The per-game (per rotation block) sums of the game's ratios: the units of their
    /// ratio-estimator intervals (empty unless detailed).
    pub ratios: RatioTally,
    /// What the bots' searches did over the run (`bench` prints it).
    pub search: crate::engine::SearchStats,
}

impl Run {
    /// The run of game `G`, its metrics erased.
    pub(super) fn of<G: Game>(r: crate::sim::RunResult<G>) -> Run {
        let crate::sim::RunResult { tally, metrics, standing, rows, seconds, rotation, extras, ratios, search } = r;
        Run { tally, metrics: Box::new(MetricsOf::<G>(metrics)), standing, rows, seconds, rotation, extras, ratios, search }
    }
}
