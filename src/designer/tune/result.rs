//! What `tune` found, as one value: every writer (the text, the tuned variant, the CSVs, the
//! charts, `tune.json`) reads only this.

use serde::Serialize;

use crate::designer::metrics::Unit;

use super::grid::Knob;

/// One bound of one candidate.
#[derive(Clone, Debug, Serialize)]
pub struct BoundResult {
    /// Metric name.
    pub metric: String,
    /// Lowest value allowed.
    pub lo: f64,
    /// Highest value allowed.
    pub hi: f64,
    /// Measured value.
    pub value: f64,
    /// Its 95% interval.
    pub ci: [f64; 2],
    /// `holds`, `undecided` or `fails`, as `check` judges.
    pub verdict: &'static str,
    /// Distance to the bound in CI half-widths (0 inside); for a candidate, restated at the
    /// precision of the race's last round ([`at_precision`](super::at_precision)).
    pub distance: f64,
    /// How the metric prints.
    #[serde(skip)]
    pub unit: Unit,
}

/// One metric of a candidate (every metric of the catalogue goes to the CSV).
#[derive(Clone, Debug, Serialize)]
pub struct MetricValue {
    /// Metric name.
    pub name: String,
    /// Value.
    pub value: f64,
    /// 95% interval (the value twice when there is none).
    pub ci: [f64; 2],
}

/// A candidate as the race left it.
#[derive(Clone, Debug, Serialize)]
pub struct CandidateResult {
    /// `key=value` of every tuned key.
    pub values: Vec<String>,
    /// Keys changed from the variant as written.
    pub changed: usize,
    /// Relative change (sum over keys of |value - original| / max(|original|, step)).
    pub relative_change: f64,
    /// Games it played.
    pub games: u64,
    /// Sum of distances to the bounds in CI half-widths, restated at the precision of the
    /// last round's games ([`at_precision`](super::at_precision)): comparable across
    /// candidates dropped early.
    pub objective: f64,
    /// Whether no bound fails (as `check` judges) at its last round.
    pub holds: bool,
    /// `winner`, `raced to the end` or why and when it was dropped.
    pub status: String,
    /// Every bound.
    pub bounds: Vec<BoundResult>,
    /// Every metric of the catalogue.
    pub metrics: Vec<MetricValue>,
}

/// One round of the race.
#[derive(Clone, Debug, Serialize)]
pub struct Round {
    /// Games every racing candidate had played at the end of the round.
    pub games_each: u64,
    /// Candidates that played the round.
    pub racing: usize,
    /// Candidates left after the drops.
    pub left: usize,
    /// Games spent by the race so far.
    pub spent: u64,
    /// The objective (sum of distances in CI units) of the current pick.
    pub pick_objective: f64,
    /// How far the current pick's CIs stick out of the bounds, summed in CI half-widths (0
    /// once every bound clearly holds; a zero-width bound met exactly counts 0).
    pub pick_overhang: f64,
    /// The smallest and the median objective among the candidates that played the round.
    pub best_objective: f64,
    /// Median objective among the candidates that played the round.
    pub median_objective: f64,
    /// `key=value` of the current pick.
    pub pick: String,
}

/// The confirmation run of the winner.
#[derive(Clone, Debug, Serialize)]
pub struct Confirmation {
    /// Its own seed (not a seed of the race).
    pub seed: u64,
    /// Games played.
    pub games: u64,
    /// Every bound as `check` judges it.
    pub bounds: Vec<BoundResult>,
    /// Whether no bound fails (what `check` would report).
    pub passes: bool,
    /// The command that reproduces it exactly.
    pub command: String,
}

/// The whole result (`--json` prints it; `tune.json` holds it).
#[derive(Clone, Debug, Serialize)]
pub struct TuneResult {
    /// Game id.
    pub game: String,
    /// The variant file.
    pub variant: String,
    /// Master seed of the race.
    pub seed: u64,
    /// The tuned keys.
    pub knobs: Vec<Knob>,
    /// Candidates in the grid.
    pub grid: usize,
    /// Whether the winner holds every bound, in the race and in the confirmation on a fresh
    /// seed (else it is only the closest to holding).
    pub found: bool,
    /// Whether no bound of the winner fails on the race's games (its confirmation may still
    /// refute it: then `found` is false).
    pub race_holds: bool,
    /// The winner's index in `candidates`.
    pub winner: usize,
    /// `key=value` of the keys the winner changes (empty: the variant as written holds).
    pub changes: Vec<String>,
    /// Games the race spent.
    pub spent: u64,
    /// Games the race gave the candidates of its last round.
    pub final_games_each: u64,
    /// Games a full grid would spend at that precision (every candidate at `final_games_each`).
    pub full_grid_games: u64,
    /// Whether the race stopped at the budget (rather than with one candidate left).
    pub budget_reached: bool,
    /// The race round by round.
    pub rounds: Vec<Round>,
    /// Every candidate.
    pub candidates: Vec<CandidateResult>,
    /// The confirmation run of the winner.
    pub confirmation: Confirmation,
    /// The tuned variant file (in the output folder).
    pub tuned_file: Option<String>,
}
