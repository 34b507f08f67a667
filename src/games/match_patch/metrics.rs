//! Match Patch's own report metrics: pairs per game (all seats together), the pairs of
//! winners and of the other players, where the draws come from (the pile or the patch, on
//! the turn's first draw and after a pair) and the cards left in hands at the end.
//!
//! Every sum is an integer, so batches and shards merge to identical numbers in any order;
//! the state is saved by sharded runs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::rules::State;
use super::{Action, MatchPatch, Phase};
use crate::engine::{BarSeries, Bin, ChartSpec, Meaning, Metrics, Outcome, load_serde, save_serde};
use crate::stats::wilson;

/// Accumulated over many games; merged in any order with the same result.
#[derive(Default, Serialize, Deserialize)]
pub struct MatchMetrics {
    players: usize,
    games: u64,
    /// Games by pairs laid in the whole game.
    pairs_per_game: Counts,
    /// Players by their pairs at the end: winners (ties included) and the others.
    winner_pairs: Counts,
    other_pairs: Counts,
    /// Draws: [first draw of a turn, draw after a pair] x [pile, patch].
    draws: [[u64; 2]; 2],
    /// Games by cards left in all hands at the end.
    cards_left: Counts,
    /// Whether the next draw follows a pair (the game in progress; not saved).
    #[serde(skip)]
    after_pair: bool,
}

/// How many times each value (pairs, cards) occurred.
#[derive(Default, Serialize, Deserialize)]
#[serde(transparent)]
struct Counts(BTreeMap<u32, u64>);

impl Counts {
    fn add(&mut self, value: usize) {
        *self.0.entry(value as u32).or_default() += 1;
    }

    fn absorb(&mut self, other: Counts) {
        for (value, n) in other.0 {
            *self.0.entry(value).or_default() += n;
        }
    }

    fn mean(&self) -> f64 {
        let (sum, n) = self.0.iter().fold((0.0, 0u64), |(sum, n), (&v, &c)| (sum + v as f64 * c as f64, n + c));
        if n == 0 { 0.0 } else { sum / n as f64 }
    }

    /// One bin per value, as a share of the total in percent.
    /// The sum of the values and their count (a mean's numerator and denominator).
    fn parts(&self) -> (i64, i64) {
        self.0.iter().fold((0, 0), |(sum, n), (&v, &c)| (sum + i64::from(v) * c as i64, n + c as i64))
    }

    fn bins(&self) -> Vec<Bin> {
        let total = self.0.values().sum::<u64>().max(1) as f64;
        self.0.iter().map(|(&v, &c)| Bin { lo: v as f64 - 0.5, hi: v as f64 + 0.5, value: c as f64 / total * 100.0 }).collect()
    }
}

/// `part / whole` in percent (0 when `whole` is 0).
fn percent(part: u64, whole: u64) -> f64 {
    part as f64 * 100.0 / whole.max(1) as f64
}

impl Metrics<MatchPatch> for MatchMetrics {
    fn after_action(&mut self, game: &MatchPatch, s: &State, _seat: usize, action: &Action) {
        self.players = game.players;
        let source = match action {
            Action::Pile => Some(0),
            Action::Take(_) => Some(1),
            Action::Place(_) => None,
        };
        if let Some(source) = source {
            self.draws[usize::from(self.after_pair)][source] += 1;
        }
        // Whether the next decision is a draw after a pair.
        self.after_pair = matches!(s.phase, Phase::Draw { after_pair: true, .. });
    }

    fn finish(&mut self, game: &MatchPatch, s: &State, outcome: &Outcome) {
        let n = game.players;
        self.players = n;
        self.games += 1;
        self.pairs_per_game.add(s.pairs[..n].iter().sum::<u32>() as usize);
        for seat in 0..n {
            let pairs = s.pairs[seat] as usize;
            if outcome.winners & (1 << seat) != 0 {
                self.winner_pairs.add(pairs);
            } else {
                self.other_pairs.add(pairs);
            }
        }
        self.cards_left.add(s.hands[..n].iter().map(|h| h.len()).sum());
        self.after_pair = false;
    }

    fn merge(&mut self, other: Self) {
        self.players = self.players.max(other.players);
        self.games += other.games;
        self.pairs_per_game.absorb(other.pairs_per_game);
        self.winner_pairs.absorb(other.winner_pairs);
        self.other_pairs.absorb(other.other_pairs);
        for (a, b) in self.draws.iter_mut().zip(other.draws) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self.cards_left.absorb(other.cards_left);
    }

    fn charts(&self, games: u64) -> Vec<ChartSpec> {
        let mean_pairs = self.pairs_per_game.mean();
        let mut charts = vec![ChartSpec::Histogram {
            file: "pairs_per_game".into(),
            title: format!("Pairs laid per game, all players together ({games} games)"),
            x_label: "pairs laid in the game (all players)".into(),
            y_label: "share of games (%)".into(),
            series: vec![("games".into(), self.pairs_per_game.bins())],
            markers: vec![(mean_pairs, format!("mean {mean_pairs:.2}"))],
        }];
        let (mw, mo) = (self.winner_pairs.mean(), self.other_pairs.mean());
        charts.push(ChartSpec::Histogram {
            file: "pairs_per_player".into(),
            title: format!("Pairs per player at the end: winners vs the others ({games} games)"),
            x_label: "pairs laid by the player".into(),
            y_label: "share of the group's players (%)".into(),
            series: vec![("winners (ties included)".into(), self.winner_pairs.bins()), ("other players".into(), self.other_pairs.bins())],
            markers: vec![(mw, format!("winner mean {mw:.2}")), (mo, format!("others' mean {mo:.2}"))],
        });
        let kinds = ["first draw of a turn", "draw after a pair"];
        let share = |k: usize| {
            let total = self.draws[k][0] + self.draws[k][1];
            (percent(self.draws[k][1], total), wilson(self.draws[k][1] as f64, total))
        };
        charts.push(ChartSpec::Bars {
            file: "draws_from_patch".into(),
            title: format!("Draws taken from the patch rather than the pile ({} draws, {games} games)", self.draws.iter().flatten().sum::<u64>()),
            x_label: "kind of draw".into(),
            y_label: "share of draws from a patch slot (%, 95% CI)".into(),
            categories: kinds.iter().map(|k| k.to_string()).collect(),
            series: vec![BarSeries {
                name: "from the patch".into(),
                values: (0..2).map(|k| share(k).0).collect(),
                ci: Some(
                    (0..2)
                        .map(|k| {
                            let (lo, hi) = share(k).1;
                            (lo * 100.0, hi * 100.0)
                        })
                        .collect(),
                ),
            }],
            reference: None,
        });
        let mean_left = self.cards_left.mean();
        charts.push(ChartSpec::Histogram {
            file: "cards_left_in_hands".into(),
            title: format!("Cards left in all hands at the end, counting nothing ({games} games)"),
            x_label: "cards held by all players when the game ends".into(),
            y_label: "share of games (%)".into(),
            series: vec![("games".into(), self.cards_left.bins())],
            markers: vec![(mean_left, format!("mean {mean_left:.2}"))],
        });
        charts
    }

    fn summary(&self, _games: u64) -> Vec<(String, f64)> {
        let draws: u64 = self.draws.iter().flatten().sum();
        let patch = self.draws[0][1] + self.draws[1][1];
        vec![
            ("mean_pairs_per_game".into(), self.pairs_per_game.mean()),
            ("mean_winner_pairs".into(), self.winner_pairs.mean()),
            ("patch_draw_share".into(), percent(patch, draws) / 100.0),
            ("draws_per_game".into(), percent(draws, self.games) / 100.0),
            ("mean_cards_left_in_hands".into(), self.cards_left.mean()),
        ]
    }

    fn meaning(&self, name: &str) -> Option<Meaning> {
        Some(match name {
            "mean_pairs_per_game" => Meaning::new("pairs laid per game (all seats together)", "pairs per game"),
            "mean_winner_pairs" => Meaning::new("pairs of a winner at the end", "pairs"),
            "patch_draw_share" => Meaning::share("share of draws taken from the patch (the rest from the pile)"),
            "draws_per_game" => Meaning::new("cards drawn per game (all seats together)", "draws per game"),
            "mean_cards_left_in_hands" => Meaning::new("cards left in a player's hand at the end", "cards"),
            _ => return None,
        })
    }

    fn ratio_names(&self) -> Vec<String> {
        ["mean_pairs_per_game", "mean_winner_pairs", "patch_draw_share", "draws_per_game", "mean_cards_left_in_hands"].map(String::from).to_vec()
    }

    fn ratio_parts(&self, out: &mut Vec<(i64, i64)>) {
        let draws: u64 = self.draws.iter().flatten().sum();
        let patch = self.draws[0][1] + self.draws[1][1];
        out.clear();
        out.extend([
            self.pairs_per_game.parts(),
            self.winner_pairs.parts(),
            (patch as i64, draws as i64),
            (draws as i64, self.games as i64),
            self.cards_left.parts(),
        ]);
    }

    fn save_state(&self) -> Option<serde_json::Value> {
        save_serde(self)
    }

    fn load_state(state: &serde_json::Value) -> Result<Self, String> {
        load_serde(state)
    }
}
