//! Take a Penny's own report metrics: how often each spot is chosen and what it did
//! (succeeded, got half, blocked, short of pennies), and the mean pot by round.
#![allow(clippy::needless_range_loop)] // seat and card loops index several arrays at once

use super::rules::{Effect, SPOT_GIVE, SPOT_TAKE_FROM, SPOTS, State, spot};
use super::{Choice, TakeAPenny, color};
use serde::{Deserialize, Serialize};

use crate::engine::{BarSeries, ChartSpec, Game, LineSeries, Meaning, Metrics, Outcome, load_serde, save_serde};

/// Rounds followed by the pot curve.
const HORIZON: usize = 200;
/// Effect kinds counted per spot, in [`Effect`] order.
const EFFECTS: usize = 5;

fn effect_index(e: Effect) -> usize {
    match e {
        Effect::Done => 0,
        Effect::Partial => 1,
        Effect::Blocked => 2,
        Effect::Short => 3,
        Effect::Idle => 4,
    }
}

/// The figures' groups of spot ids: each group's share of the choices and its success.
const GROUPS: [(&str, std::ops::Range<usize>); 6] =
    [("take1_block", 0..1), ("take2", 1..2), ("return1", 2..3), ("block_self", 3..4), ("take_from", 4..8), ("give", 8..9)];

/// Accumulated over many games; merged in game order. Every figure is an integer sum, so
/// shards merge exactly in any order (`report --shard`, `playtest merge`).
#[derive(Default, Serialize, Deserialize)]
pub struct PennyMetrics {
    /// Choices per spot id.
    chosen: [u64; SPOTS],
    /// Choices per spot id and effect.
    effects: [[u64; EFFECTS]; SPOTS],
    /// Sum over games of the pot after each round (a finished game keeps its last pot).
    pot_sum: Vec<u64>,
    /// Games still running after each round.
    running: Vec<u64>,
    games: u64,
    cards: usize,
    horizon: usize,
}

impl PennyMetrics {
    fn ensure(&mut self, horizon: usize) {
        if self.pot_sum.len() < horizon {
            self.pot_sum.resize(horizon, 0);
            self.running.resize(horizon, 0);
        }
        self.horizon = self.horizon.max(horizon);
    }

    /// Spot ids in chart order for a table of `cards` bank cards, with their names.
    fn spot_names(&self) -> Vec<(Vec<u8>, String)> {
        let mut v: Vec<(Vec<u8>, String)> =
            ["take1_block", "take2", "return1", "block_self"].iter().enumerate().map(|(i, n)| (vec![i as u8], n.to_string())).collect();
        for c in 0..self.cards {
            v.push((vec![SPOT_TAKE_FROM + c as u8], format!("take_from({})", color(c))));
        }
        v.push((vec![SPOT_GIVE], "give".into()));
        v
    }
}

impl Metrics<TakeAPenny> for PennyMetrics {
    #[inline]
    fn after_action(&mut self, game: &TakeAPenny, s: &State, seat: usize, _choice: &Choice) {
        if seat + 1 != game.setup.players {
            return;
        }
        let r = s.record();
        let (effects, _) = r.effects(game.setup.players);
        for p in 0..game.setup.players {
            let sp = spot(r.actions[p]) as usize;
            self.chosen[sp] += 1;
            self.effects[sp][effect_index(effects[p])] += 1;
        }
        let horizon = HORIZON.min(game.turn_cap() as usize + 1);
        self.ensure(horizon);
        let round = s.round as usize;
        if round < horizon {
            self.pot_sum[round] += u64::from(s.pot);
            self.running[round] += u64::from(!s.over);
        }
    }

    fn finish(&mut self, game: &TakeAPenny, s: &State, _outcome: &Outcome) {
        let horizon = HORIZON.min(game.turn_cap() as usize + 1);
        self.ensure(horizon);
        self.cards = game.setup.cards;
        self.pot_sum[0] += u64::from(game.setup.pot);
        self.running[0] += 1;
        for r in (s.round as usize + 1)..horizon {
            self.pot_sum[r] += u64::from(s.pot);
        }
        self.games += 1;
    }

    fn merge(&mut self, other: Self) {
        for i in 0..SPOTS {
            self.chosen[i] += other.chosen[i];
            for e in 0..EFFECTS {
                self.effects[i][e] += other.effects[i][e];
            }
        }
        self.ensure(other.horizon);
        for (a, b) in self.pot_sum.iter_mut().zip(&other.pot_sum) {
            *a += b;
        }
        for (a, b) in self.running.iter_mut().zip(&other.running) {
            *a += b;
        }
        self.games += other.games;
        self.cards = self.cards.max(other.cards);
    }

    fn charts(&self, games: u64) -> Vec<ChartSpec> {
        let total: u64 = self.chosen.iter().sum();
        let names = self.spot_names();
        let pct = |num: u64, den: u64| {
            if den > 0 { num as f64 / den as f64 * 100.0 } else { 0.0 }
        };
        let series = |label: &str, e: usize| BarSeries {
            name: label.into(),
            values: names.iter().map(|(ids, _)| pct(self.effects[ids[0] as usize][e], self.chosen[ids[0] as usize])).collect(),
            ci: None,
        };
        let mut charts = vec![ChartSpec::Bars {
            file: "spots".into(),
            title: format!("Spots: how often chosen and what they did ({games} games)"),
            x_label: "spot".into(),
            y_label: "share (%); each bar's denominator in the legend".into(),
            categories: names.iter().map(|(_, n)| n.clone()).collect(),
            series: vec![
                BarSeries {
                    name: "chosen (% of all choices)".into(),
                    values: names.iter().map(|(ids, _)| pct(self.chosen[ids[0] as usize], total)).collect(),
                    ci: None,
                },
                series("succeeded (block_self: stopped someone) (% of the spot's choices)", 0),
                series("take2 got only 1 (% of the spot's choices)", 1),
                series("blocked (% of the spot's choices)", 2),
                series("short of pennies (% of the spot's choices)", 3),
            ],
            reference: None,
        }];
        // The pot curve up to the last round any game reached.
        let last = self.running.iter().rposition(|&r| r > 0).map_or(1, |r| r + 1).min(self.pot_sum.len());
        let n = self.games.max(1) as f64;
        charts.push(ChartSpec::Lines {
            file: "pot_by_round".into(),
            title: format!("Mean pot after each round ({games} games; a finished game keeps its last pot)"),
            x_label: "round".into(),
            y_label: "pennies in the pot".into(),
            series: vec![LineSeries { name: "mean pot".into(), points: (0..last).map(|r| (r as f64, self.pot_sum[r] as f64 / n)).collect(), band: None }],
        });
        // A share of games is not a number of pennies: its own chart, its own axis.
        charts.push(ChartSpec::Lines {
            file: "running_by_round".into(),
            title: format!("Games still running after each round ({games} games)"),
            x_label: "round".into(),
            y_label: "games still running (%)".into(),
            series: vec![LineSeries {
                name: "games still running".into(),
                points: (0..last).map(|r| (r as f64, self.running[r] as f64 / n * 100.0)).collect(),
                band: None,
            }],
        });
        charts
    }

    fn summary(&self, _games: u64) -> Vec<(String, f64)> {
        let total: u64 = self.chosen.iter().sum();
        let ratio = |a: u64, b: u64| if b > 0 { a as f64 / b as f64 } else { 0.0 };
        let mut out = Vec::new();
        for (name, ids) in GROUPS {
            let chosen: u64 = ids.clone().map(|i| self.chosen[i]).sum();
            let done: u64 = ids.map(|i| self.effects[i][0] + self.effects[i][1]).sum();
            out.push((format!("{name}_chosen"), ratio(chosen, total)));
            out.push((format!("{name}_success"), ratio(done, chosen)));
        }
        out
    }

    fn meaning(&self, name: &str) -> Option<Meaning> {
        let (spot, what) = name.rsplit_once('_')?;
        let spot = match spot {
            "take1_block" => "take 1 (block)",
            "take2" => "take 2",
            "return1" => "return 1",
            "block_self" => "block self",
            "take_from" => "take from another color",
            "give" => "give",
            _ => return None,
        };
        Some(match what {
            "chosen" => Meaning::share(format!("share of all choices that were the spot \"{spot}\"")),
            "success" => Meaning::share(format!("share of choices of \"{spot}\" that did what the spot says (in full or in half)")),
            _ => return None,
        })
    }

    fn ratio_names(&self) -> Vec<String> {
        GROUPS.iter().flat_map(|(name, _)| [format!("{name}_chosen"), format!("{name}_success")]).collect()
    }

    fn ratio_parts(&self, out: &mut Vec<(i64, i64)>) {
        let total: u64 = self.chosen.iter().sum();
        out.clear();
        for (_, ids) in GROUPS {
            let chosen: u64 = ids.clone().map(|i| self.chosen[i]).sum();
            let done: u64 = ids.map(|i| self.effects[i][0] + self.effects[i][1]).sum();
            out.extend([(chosen as i64, total as i64), (done as i64, chosen as i64)]);
        }
    }

    fn save_state(&self) -> Option<serde_json::Value> {
        save_serde(self)
    }

    fn load_state(state: &serde_json::Value) -> Result<Self, String> {
        load_serde(state)
    }
}
