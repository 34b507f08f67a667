//! Flower Power's own report metrics: flowers per game, how often a flower is taken by a
//! player who did not lay its first petal, petals left in the garden at the end, and the
//! winner's flowers.
//!
//! Every sum is an integer, so batches and shards merge to identical numbers in any order;
//! the state is saved by sharded runs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::rules::State;
use super::{Action, FlowerPower};
use crate::engine::{BarSeries, Bin, ChartSpec, Meaning, Metrics, Outcome, load_serde, save_serde};
use crate::stats::counts::ratio;
use crate::stats::wilson;

/// Games by a whole-number value (flowers, petals): value -> games.
type Counts = BTreeMap<u32, u64>;

/// Accumulated over many games; merged in any order with the same result.
#[derive(Default, Serialize, Deserialize)]
pub struct FlowerMetrics {
    /// Games by flowers taken in them.
    flowers_per_game: Counts,
    /// Games by petals left in the garden at the end.
    petals_left: Counts,
    /// Games by the winners' flowers.
    winning_flowers: Counts,
    /// Flowers taken in all games.
    flowers: u64,
    /// Of them, flowers taken by a seat that did not lay the first petal.
    finished_by_other: u64,
    /// Flowers taken per color (canonical order).
    by_color: [u64; 5],
}

/// The mean value of a histogram.
fn mean(counts: &Counts) -> f64 {
    let games: u64 = counts.values().sum();
    let total: f64 = counts.iter().map(|(&v, &g)| v as f64 * g as f64).sum();
    ratio(total, games as f64)
}

/// Adds `other`'s games into `into`.
fn add(into: &mut Counts, other: Counts) {
    for (v, g) in other {
        *into.entry(v).or_default() += g;
    }
}

/// A histogram of whole-number values (one bin per value), in % of games, with its mean.
fn histogram(file: &str, title: String, x_label: &str, counts: &Counts) -> ChartSpec {
    let total = counts.values().sum::<u64>().max(1) as f64;
    let bins = counts.iter().map(|(&v, &c)| Bin { lo: v as f64 - 0.5, hi: v as f64 + 0.5, value: c as f64 / total * 100.0 }).collect();
    let mean = mean(counts);
    ChartSpec::Histogram {
        file: file.into(),
        title,
        x_label: x_label.into(),
        y_label: "share of games (%)".into(),
        series: vec![("games".into(), bins)],
        markers: vec![(mean, format!("mean {mean:.2}"))],
    }
}

impl FlowerMetrics {
    fn games(&self) -> u64 {
        self.flowers_per_game.values().sum()
    }
}

impl Metrics<FlowerPower> for FlowerMetrics {
    #[inline]
    fn after_action(&mut self, _game: &FlowerPower, _s: &State, _seat: usize, _action: &Action) {}

    fn finish(&mut self, game: &FlowerPower, s: &State, outcome: &Outcome) {
        let taken: u32 = s.flowers_by_color.iter().sum();
        *self.flowers_per_game.entry(taken).or_default() += 1;
        let left: u32 = s.garden.iter().map(|&k| k as u32).sum();
        *self.petals_left.entry(left).or_default() += 1;
        let best = outcome.scores[..game.players].iter().copied().max().unwrap_or(0);
        *self.winning_flowers.entry(best.max(0) as u32).or_default() += 1;
        self.flowers += taken as u64;
        self.finished_by_other += s.finished_by_other as u64;
        for (a, &b) in self.by_color.iter_mut().zip(&s.flowers_by_color) {
            *a += b as u64;
        }
    }

    fn merge(&mut self, other: Self) {
        add(&mut self.flowers_per_game, other.flowers_per_game);
        add(&mut self.petals_left, other.petals_left);
        add(&mut self.winning_flowers, other.winning_flowers);
        self.flowers += other.flowers;
        self.finished_by_other += other.finished_by_other;
        for (a, b) in self.by_color.iter_mut().zip(other.by_color) {
            *a += b;
        }
    }

    fn charts(&self, games: u64) -> Vec<ChartSpec> {
        let mut charts = vec![
            histogram(
                "flowers_per_game",
                format!("Flowers taken per game, all seats ({games} games)"),
                "flowers taken in the game (all seats)",
                &self.flowers_per_game,
            ),
            histogram(
                "winning_flowers",
                format!("Flowers of the winner (most flowers) per game ({games} games)"),
                "flowers held by the winner(s)",
                &self.winning_flowers,
            ),
            histogram(
                "petals_left",
                format!("Petals left unscored in the garden at the end ({games} games)"),
                "petals left in the garden, all colors",
                &self.petals_left,
            ),
        ];
        let (lo, hi) = wilson(self.finished_by_other as f64, self.flowers);
        let own = self.flowers - self.finished_by_other;
        let (olo, ohi) = wilson(own as f64, self.flowers);
        charts.push(ChartSpec::Bars {
            file: "flowers_finished_by_other".into(),
            title: format!("Who takes a flower: its starter or another player ({} flowers, {games} games)", self.flowers),
            x_label: "taker of the flower".into(),
            y_label: "share of flowers taken (%, 95% CI)".into(),
            categories: vec!["not its starter (first petal by another)".into(), "its starter".into()],
            series: vec![BarSeries {
                name: "share of flowers".into(),
                values: vec![ratio(self.finished_by_other as f64, self.flowers as f64) * 100.0, ratio(own as f64, self.flowers as f64) * 100.0],
                ci: Some(vec![(lo * 100.0, hi * 100.0), (olo * 100.0, ohi * 100.0)]),
            }],
            reference: None,
        });
        let g = self.games().max(1) as f64;
        charts.push(ChartSpec::Bars {
            file: "flowers_by_color".into(),
            title: format!("Flowers taken per game, by color ({games} games)"),
            x_label: "color".into(),
            y_label: "flowers per game".into(),
            categories: crate::games::chroma::COLORS.iter().map(|c| c.to_string()).collect(),
            series: vec![BarSeries { name: "mean flowers per game".into(), values: self.by_color.iter().map(|&f| f as f64 / g).collect(), ci: None }],
            reference: None,
        });
        charts
    }

    fn summary(&self, _games: u64) -> Vec<(String, f64)> {
        vec![
            ("mean_flowers_per_game".into(), mean(&self.flowers_per_game)),
            ("finished_by_other_share".into(), ratio(self.finished_by_other as f64, self.flowers as f64)),
            ("mean_petals_left".into(), mean(&self.petals_left)),
            ("mean_winning_flowers".into(), mean(&self.winning_flowers)),
        ]
    }

    fn meaning(&self, name: &str) -> Option<Meaning> {
        Some(match name {
            "mean_flowers_per_game" => Meaning::new("flowers taken per game (all players)", "flowers per game"),
            "finished_by_other_share" => Meaning::share("share of flowers taken by a player who did not lay their first petal"),
            "mean_petals_left" => Meaning::new("petals left in the garden at the end of a game", "petals"),
            "mean_winning_flowers" => Meaning::new("flowers of the winner at the end", "flowers"),
            _ => return None,
        })
    }

    fn ratio_names(&self) -> Vec<String> {
        ["mean_flowers_per_game", "finished_by_other_share", "mean_petals_left", "mean_winning_flowers"].map(String::from).to_vec()
    }

    fn ratio_parts(&self, out: &mut Vec<(i64, i64)>) {
        let parts = |counts: &Counts| counts.iter().fold((0i64, 0i64), |(t, g), (&v, &c)| (t + i64::from(v) * c as i64, g + c as i64));
        out.clear();
        out.extend([
            parts(&self.flowers_per_game),
            (self.finished_by_other as i64, self.flowers as i64),
            parts(&self.petals_left),
            parts(&self.winning_flowers),
        ]);
    }

    fn save_state(&self) -> Option<serde_json::Value> {
        save_serde(self)
    }

    fn load_state(state: &serde_json::Value) -> Result<Self, String> {
        load_serde(state)
    }
}
