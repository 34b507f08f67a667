//! A game's own report figures: the [`Metrics`] trait, what a figure means ([`Meaning`]),
//! saving them for sharded runs, and [`NoMetrics`] for a game with none.

use super::{ChartSpec, Game, Outcome};

/// Game-specific metrics gathered while games are played in detail (for reports).
/// They merge in game-index order, so results do not depend on the thread count.
pub trait Metrics<G: Game>: Default + Send {
    /// The file stem of the game's key chart, the one the report's one-picture summary
    /// (`summary.png`) shows beside the win shares and the length ("": the first of
    /// [`Metrics::charts`]).
    const KEY_CHART: &'static str = "";
    /// An empty accumulator for `game` (a game whose figures are known only once it is
    /// built, as a rules file's, names them here). Default: [`Default::default`].
    fn for_game(_game: &G) -> Self {
        Self::default()
    }
    /// Called after every applied action.
    fn after_action(&mut self, game: &G, state: &G::State, seat: usize, action: &G::Action);
    /// Called once when the game is over.
    fn finish(&mut self, game: &G, state: &G::State, outcome: &Outcome);
    /// Adds another accumulator (a later batch of games) into this one.
    fn merge(&mut self, other: Self);
    /// The game's own charts.
    fn charts(&self, games: u64) -> Vec<ChartSpec>;
    /// Extra summary numbers for `summary.json` and the report table.
    fn summary(&self, games: u64) -> Vec<(String, f64)>;
    /// What the figure `name` of [`Metrics::summary`] means: one line in the designer's words
    /// and its unit, shown beside it in every table (`None` for a name the game does not
    /// know; each bundled game describes all of its figures, a test checks it).
    fn meaning(&self, _name: &str) -> Option<Meaning> {
        None
    }
    /// The names of the figures of [`Metrics::summary`] that are a ratio of two sums over
    /// games (right doubts over doubts, plays over rounds, a count over games), in the order
    /// of [`Metrics::ratio_parts`]: their 95% interval is the ratio estimator over games
    /// ([`crate::stats::ratio`]), which counts the events, not the games. The list must not
    /// depend on what was gathered. Empty (the default): every figure by batch means.
    fn ratio_names(&self) -> Vec<String> {
        Vec::new()
    }
    /// The numerator and denominator gathered so far of each ratio of
    /// [`Metrics::ratio_names`], in that order, written over `out` (whole numbers, so the
    /// per-game parts the simulator takes as differences are exact).
    fn ratio_parts(&self, _out: &mut Vec<(i64, i64)>) {}
    /// The accumulated state as JSON, saved by a sharded run (`--shard K/N`) so `playtest
    /// merge` can combine shards; `None` (the default) when the game cannot save it. Merged
    /// shards equal one unsharded run only if `merge` is exact (integer sums, no `f64` sums of
    /// fractions), as the bundled games' metrics are.
    fn save_state(&self) -> Option<serde_json::Value> {
        None
    }
    /// Rebuilds an accumulator saved by [`Metrics::save_state`]; `Err` says why it cannot.
    fn load_state(_state: &serde_json::Value) -> Result<Self, String> {
        Err("this game's report metrics cannot be saved by a sharded run".into())
    }
}

/// What one of a game's own figures means ([`Metrics::meaning`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Meaning {
    /// One line: what is counted, over what.
    pub about: String,
    /// Its unit: [`Meaning::SHARE`] for a share kept as a fraction (shown in %), else the
    /// unit's words ("cards per round", "turns", "win share points").
    pub unit: String,
}

impl Meaning {
    /// The unit of a share (a fraction, shown in %).
    pub const SHARE: &'static str = "%";

    /// A figure described by `about`, in `unit`.
    pub fn new(about: impl Into<String>, unit: impl Into<String>) -> Meaning {
        Meaning { about: about.into(), unit: unit.into() }
    }

    /// A share (a fraction of 1, shown in %) described by `about`.
    pub fn share(about: impl Into<String>) -> Meaning {
        Meaning::new(about, Meaning::SHARE)
    }

    /// Whether the figure is a share.
    pub fn is_share(&self) -> bool {
        self.unit == Meaning::SHARE
    }
}

/// [`Metrics::save_state`] for metrics that derive `Serialize`.
pub fn save_serde<T: serde::Serialize>(metrics: &T) -> Option<serde_json::Value> {
    serde_json::to_value(metrics).ok()
}

/// [`Metrics::load_state`] for metrics that derive `Deserialize`.
pub fn load_serde<T: serde::de::DeserializeOwned>(state: &serde_json::Value) -> Result<T, String> {
    T::deserialize(state).map_err(|e| e.to_string())
}

/// Metrics for a game that adds none.
#[derive(Default)]
pub struct NoMetrics;

impl<G: Game> Metrics<G> for NoMetrics {
    fn after_action(&mut self, _: &G, _: &G::State, _: usize, _: &G::Action) {}
    fn finish(&mut self, _: &G, _: &G::State, _: &Outcome) {}
    fn merge(&mut self, _: Self) {}
    fn charts(&self, _: u64) -> Vec<ChartSpec> {
        Vec::new()
    }
    fn summary(&self, _: u64) -> Vec<(String, f64)> {
        Vec::new()
    }
    fn save_state(&self) -> Option<serde_json::Value> {
        Some(serde_json::Value::Null)
    }
    fn load_state(_: &serde_json::Value) -> Result<Self, String> {
        Ok(NoMetrics)
    }
}
