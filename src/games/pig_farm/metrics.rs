//! Pig Farm's own report metrics: points of sellers and non-sellers, sets held when
//! selling, the cap share per round of a match, turns per round, what the butcher takes
//! per roll, and the advantage of moving first in a round.
//!
//! Every sum is an integer (round-win credit in units of 1/[`WIN_UNIT`]), so batches and
//! shards merge to identical numbers in any order; the state is saved by sharded runs.

use std::collections::BTreeMap;

use super::params::MAX_PLAYERS;
use super::rules::{RollRecord, RoundRecord, State};
use super::{Action, Die, LOGO, PigFarm};
use serde::{Deserialize, Serialize};

use crate::engine::{BarSeries, Bin, ChartSpec, Meaning, Metrics, Outcome, load_serde, save_serde};
use crate::stats::counts::{add_counts, bump, index_parts, mean_index, ratio, value_parts};
use crate::stats::{WIN_UNIT, wilson_percent};

/// Accumulated over many games; merged in any order with the same result.
#[derive(Default, Serialize, Deserialize)]
pub struct PigMetrics {
    players: usize,
    /// Round points of sellers, by value.
    seller_points: BTreeMap<i64, u64>,
    /// Round points of non-sellers, by value.
    other_points: BTreeMap<i64, u64>,
    /// Sales by the seller's number of sets.
    sets_at_sale: Vec<u64>,
    /// Rounds played and rounds capped, by round index.
    rounds: Vec<u64>,
    capped: Vec<u64>,
    /// Rounds by turns played.
    round_turns: Vec<u64>,
    /// Scored rounds, and round-win credit by position after the round's first seat.
    scored_rounds: u64,
    /// In units of 1/`WIN_UNIT` of a round win.
    round_wins_by_position: [u64; MAX_PLAYERS],
    /// Butcher rolls: by die, logo faces, table-wide pigs lost per roll, the roller's and
    /// the other seats' losses.
    rolls_by_die: [u64; 2],
    logo: u64,
    lost_per_roll: Vec<u64>,
    roller_lost: u64,
    others_lost: u64,
    // The game in progress (not saved).
    #[serde(skip)]
    seen_rounds: u32,
    #[serde(skip)]
    seen_rolls: u32,
}

fn mean_of(map: &BTreeMap<i64, u64>) -> f64 {
    let n: u64 = map.values().sum();
    ratio(map.iter().map(|(&v, &c)| v as f64 * c as f64).sum(), n as f64)
}

impl PigMetrics {
    fn record_round(&mut self, r: &RoundRecord) {
        let n = self.players;
        bump(&mut self.rounds, r.round as usize, 1);
        bump(&mut self.round_turns, r.turns as usize, 1);
        let Some(w) = r.seller else {
            bump(&mut self.capped, r.round as usize, 1);
            return;
        };
        let w = w as usize;
        *self.seller_points.entry(r.scores[w]).or_default() += 1;
        for t in (0..n).filter(|&t| t != w) {
            *self.other_points.entry(r.scores[t]).or_default() += 1;
        }
        bump(&mut self.sets_at_sale, r.hands[w].sets() as usize, 1);
        let best = r.scores[..n].iter().copied().max().unwrap_or(0);
        let winners = r.scores[..n].iter().filter(|&&p| p == best).count() as u64;
        for t in (0..n).filter(|&t| r.scores[t] == best) {
            let position = (t + n - r.first_seat as usize) % n;
            self.round_wins_by_position[position] += WIN_UNIT / winners.max(1);
        }
        self.scored_rounds += 1;
    }

    fn record_roll(&mut self, r: &RollRecord) {
        self.rolls_by_die[usize::from(r.die == Die::Shapes)] += 1;
        self.logo += u64::from(r.face == LOGO);
        let lost: u64 = r.lost[..self.players].iter().map(|&l| l as u64).sum();
        bump(&mut self.lost_per_roll, lost as usize, 1);
        self.roller_lost += r.lost[r.seat as usize] as u64;
        self.others_lost += lost - r.lost[r.seat as usize] as u64;
    }

    /// Round-win credit of `position` (ties shared).
    fn round_wins(&self, position: usize) -> f64 {
        self.round_wins_by_position[position] as f64 / WIN_UNIT as f64
    }

    fn rolls(&self) -> u64 {
        self.rolls_by_die.iter().sum()
    }

    fn total_rounds(&self) -> u64 {
        self.rounds.iter().sum()
    }

    fn points_histogram(&self) -> ChartSpec {
        let lo = self.seller_points.keys().chain(self.other_points.keys()).copied().min().unwrap_or(0);
        let hi = self.seller_points.keys().chain(self.other_points.keys()).copied().max().unwrap_or(0);
        let width = (((hi - lo + 1) as f64 / 40.0 / 10.0).ceil() * 10.0).max(10.0);
        let start = (lo as f64 / width).floor() * width - width / 2.0;
        let bins = |map: &BTreeMap<i64, u64>| {
            let total = map.values().sum::<u64>().max(1) as f64;
            let mut bins: Vec<Bin> = Vec::new();
            for (&v, &c) in map {
                let b = ((v as f64 - start) / width).floor() * width + start;
                match bins.last_mut() {
                    Some(last) if last.lo == b => last.value += c as f64 / total * 100.0,
                    _ => bins.push(Bin { lo: b, hi: b + width, value: c as f64 / total * 100.0 }),
                }
            }
            bins
        };
        let (ms, mo) = (mean_of(&self.seller_points), mean_of(&self.other_points));
        ChartSpec::Histogram {
            file: "round_points".into(),
            title: format!("Points scored in a sold round: sellers vs non-sellers ({} sold rounds)", self.scored_rounds),
            x_label: format!("points in the round; bins of {width}"),
            y_label: "share of the group's scores (%)".into(),
            series: vec![("sellers".into(), bins(&self.seller_points)), ("non-sellers".into(), bins(&self.other_points))],
            markers: vec![(ms, format!("seller mean {ms:.1}")), (mo, format!("non-seller mean {mo:.1}"))],
        }
    }

    /// Sets held by the seller when selling: the share of sales per set count.
    fn sets_at_sale(&self, games: u64) -> ChartSpec {
        let sales: u64 = self.sets_at_sale.iter().sum();
        let used: Vec<usize> = (0..self.sets_at_sale.len()).filter(|&i| self.sets_at_sale[i] > 0).collect();
        ChartSpec::Bars {
            file: "sets_at_sale".into(),
            title: format!("Sets held by the seller when selling ({sales} sales, {games} games)"),
            x_label: "sets in the seller's hand".into(),
            y_label: "share of sales (%)".into(),
            categories: used.iter().map(|i| i.to_string()).collect(),
            series: vec![BarSeries {
                name: "share of sales".into(),
                values: used.iter().map(|&i| ratio(self.sets_at_sale[i] as f64, sales as f64) * 100.0).collect(),
                ci: None,
            }],
            reference: None,
        }
    }

    /// The share of rounds that reached the turn cap, by round of the match (Wilson intervals).
    fn cap_share_by_round(&self, games: u64) -> ChartSpec {
        let capped = |i: usize| self.capped.get(i).copied().unwrap_or(0);
        ChartSpec::Bars {
            file: "cap_share_by_round".into(),
            title: format!("Rounds that reached the turn cap, by round of the match ({games} games)"),
            x_label: "round of the match".into(),
            y_label: "share of rounds capped (%, 95% CI)".into(),
            categories: (0..self.rounds.len()).map(|i| format!("round {}", i + 1)).collect(),
            series: vec![BarSeries {
                name: "capped".into(),
                values: (0..self.rounds.len()).map(|i| ratio(capped(i) as f64, self.rounds[i] as f64) * 100.0).collect(),
                ci: Some((0..self.rounds.len()).map(|i| wilson_percent(capped(i) as f64, self.rounds[i])).collect()),
            }],
            reference: None,
        }
    }

    /// Turns per round, in bins of whole turns (at most about 60 bins), with the mean.
    fn turns_per_round(&self) -> ChartSpec {
        let total = self.total_rounds().max(1) as f64;
        let mut bins: Vec<Bin> = Vec::new();
        let width = ((self.round_turns.len() as f64 / 60.0).ceil()).max(1.0);
        // Whole turn counts: a bin holds k..k+width-1 and is drawn centred on its integers.
        for (t, &c) in self.round_turns.iter().enumerate().filter(|(_, c)| **c > 0) {
            let lo = (t as f64 / width).floor() * width - 0.5;
            match bins.last_mut() {
                Some(b) if b.lo == lo => b.value += c as f64 / total * 100.0,
                _ => bins.push(Bin { lo, hi: lo + width, value: c as f64 / total * 100.0 }),
            }
        }
        let mean = mean_index(&self.round_turns);
        ChartSpec::Histogram {
            file: "turns_per_round".into(),
            title: format!("Turns per round ({} rounds)", self.total_rounds()),
            x_label: format!("turns in the round; bins of {width}"),
            y_label: "share of rounds (%)".into(),
            series: vec![("rounds".into(), bins)],
            markers: vec![(mean, format!("mean {mean:.1}"))],
        }
    }

    /// The butcher's losses: pigs the whole table loses per roll, and the roller's loss against
    /// each other player's.
    fn butcher_charts(&self) -> [ChartSpec; 2] {
        let n = self.players.max(1);
        let rolls = self.rolls();
        let mean = mean_index(&self.lost_per_roll);
        [
            ChartSpec::Histogram {
                file: "butcher_losses".into(),
                title: format!(
                    "Pigs the butcher takes from the whole table per roll ({rolls} rolls, logo {:.1}%)",
                    ratio(self.logo as f64, rolls as f64) * 100.0
                ),
                x_label: "pigs discarded by one roll (all seats)".into(),
                y_label: "share of rolls (%)".into(),
                series: vec![(
                    "rolls".into(),
                    self.lost_per_roll
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| **c > 0)
                        .map(|(i, &c)| Bin { lo: i as f64 - 0.5, hi: i as f64 + 0.5, value: c as f64 / rolls as f64 * 100.0 })
                        .collect(),
                )],
                markers: vec![(mean, format!("mean {mean:.2}"))],
            },
            ChartSpec::Bars {
                file: "butcher_who_loses".into(),
                title: format!("Pigs lost per butcher roll: the roller vs each other player ({rolls} rolls)"),
                x_label: "who".into(),
                y_label: "pigs lost per roll".into(),
                categories: vec!["roller".into(), "each other player".into()],
                series: vec![BarSeries {
                    name: "mean pigs lost".into(),
                    values: vec![ratio(self.roller_lost as f64, rolls as f64), ratio(self.others_lost as f64, rolls as f64 * (n - 1).max(1) as f64)],
                    ci: None,
                }],
                reference: None,
            },
        ]
    }

    /// The round win share by position after the round's first seat, with the fair share.
    fn round_first_seat(&self) -> ChartSpec {
        let n = self.players.max(1);
        let fair = 100.0 / n as f64;
        ChartSpec::Bars {
            file: "round_first_seat".into(),
            title: format!("Round win share by position after the round's first seat ({} sold rounds)", self.scored_rounds),
            x_label: "position in the round's turn order (0 = moved first)".into(),
            y_label: "share of round wins, ties shared (%, 95% CI)".into(),
            categories: (0..n).map(|p| format!("position {p}")).collect(),
            series: vec![BarSeries {
                name: "round win share".into(),
                values: (0..n).map(|p| ratio(self.round_wins(p), self.scored_rounds as f64) * 100.0).collect(),
                ci: Some((0..n).map(|p| wilson_percent(self.round_wins(p), self.scored_rounds)).collect()),
            }],
            reference: Some((fair, format!("fair share {fair:.1}%"))),
        }
    }
}

impl Metrics<PigFarm> for PigMetrics {
    fn after_action(&mut self, game: &PigFarm, s: &State, _seat: usize, _action: &Action) {
        self.players = game.players;
        if s.rolls > self.seen_rolls {
            self.seen_rolls = s.rolls;
            if let Some(r) = s.last_roll {
                self.record_roll(&r);
            }
        }
        if s.rounds_done > self.seen_rounds {
            self.seen_rounds = s.rounds_done;
            if let Some(r) = s.last_round {
                self.record_round(&r);
            }
        }
    }

    fn finish(&mut self, _game: &PigFarm, _s: &State, _outcome: &Outcome) {
        self.seen_rounds = 0;
        self.seen_rolls = 0;
    }

    fn merge(&mut self, other: Self) {
        self.players = self.players.max(other.players);
        for (k, v) in other.seller_points {
            *self.seller_points.entry(k).or_default() += v;
        }
        for (k, v) in other.other_points {
            *self.other_points.entry(k).or_default() += v;
        }
        add_counts(&mut self.sets_at_sale, &other.sets_at_sale);
        add_counts(&mut self.rounds, &other.rounds);
        add_counts(&mut self.capped, &other.capped);
        add_counts(&mut self.round_turns, &other.round_turns);
        self.scored_rounds += other.scored_rounds;
        for (a, b) in self.round_wins_by_position.iter_mut().zip(other.round_wins_by_position) {
            *a += b;
        }
        for (a, b) in self.rolls_by_die.iter_mut().zip(other.rolls_by_die) {
            *a += b;
        }
        self.logo += other.logo;
        add_counts(&mut self.lost_per_roll, &other.lost_per_roll);
        self.roller_lost += other.roller_lost;
        self.others_lost += other.others_lost;
    }

    fn charts(&self, games: u64) -> Vec<ChartSpec> {
        let mut charts = vec![self.points_histogram(), self.sets_at_sale(games), self.cap_share_by_round(games)];
        if self.rounds.len() > 1 {
            charts.push(self.turns_per_round());
        }
        if self.rolls() > 0 {
            charts.extend(self.butcher_charts());
        }
        // A one-round match: the round's first seat is seat 0, so this would repeat seat_win_shares.
        if self.rounds.len() > 1 {
            charts.push(self.round_first_seat());
        }
        charts
    }

    fn summary(&self, _games: u64) -> Vec<(String, f64)> {
        let rounds = self.total_rounds() as f64;
        let rolls = self.rolls() as f64;
        let capped: u64 = self.capped.iter().sum();
        vec![
            ("round_cap_share".into(), ratio(capped as f64, rounds)),
            ("mean_turns_per_round".into(), mean_index(&self.round_turns)),
            ("mean_sets_at_sale".into(), mean_index(&self.sets_at_sale)),
            ("mean_seller_points".into(), mean_of(&self.seller_points)),
            ("mean_non_seller_points".into(), mean_of(&self.other_points)),
            ("butcher_rolls_per_round".into(), ratio(rolls, rounds)),
            ("pigs_lost_per_roll".into(), ratio(self.lost_per_roll.iter().enumerate().map(|(i, &c)| i as f64 * c as f64).sum(), rolls)),
            ("round_first_seat_win_share".into(), ratio(self.round_wins(0), self.scored_rounds as f64)),
        ]
    }

    fn meaning(&self, name: &str) -> Option<Meaning> {
        Some(match name {
            "round_cap_share" => Meaning::share("share of rounds stopped by the turn cap"),
            "mean_turns_per_round" => Meaning::new("turns a round lasts", "turns per round"),
            "mean_sets_at_sale" => Meaning::new("sets the seller holds when selling", "sets"),
            "mean_seller_points" => Meaning::new("points the seller scores in a round", "points"),
            "mean_non_seller_points" => Meaning::new("points each other player scores in a round", "points"),
            "butcher_rolls_per_round" => Meaning::new("butcher rolls per round", "rolls per round"),
            "pigs_lost_per_roll" => Meaning::new("pigs the butcher takes per roll", "pigs per roll"),
            "round_first_seat_win_share" => Meaning::share("share of scored rounds won by the seat that moved first in the round"),
            _ => return None,
        })
    }

    fn ratio_names(&self) -> Vec<String> {
        [
            "round_cap_share",
            "mean_turns_per_round",
            "mean_sets_at_sale",
            "mean_seller_points",
            "mean_non_seller_points",
            "butcher_rolls_per_round",
            "pigs_lost_per_roll",
            "round_first_seat_win_share",
        ]
        .map(String::from)
        .to_vec()
    }

    fn ratio_parts(&self, out: &mut Vec<(i64, i64)>) {
        let (rounds, rolls) = (self.total_rounds() as i64, self.rolls() as i64);
        let capped: u64 = self.capped.iter().sum();
        out.clear();
        out.extend([
            (capped as i64, rounds),
            index_parts(&self.round_turns),
            index_parts(&self.sets_at_sale),
            value_parts(&self.seller_points),
            value_parts(&self.other_points),
            (rolls, rounds),
            (index_parts(&self.lost_per_roll).0, rolls),
            (self.round_wins_by_position[0] as i64, self.scored_rounds as i64 * WIN_UNIT as i64),
        ]);
    }

    fn save_state(&self) -> Option<serde_json::Value> {
        save_serde(self)
    }

    fn load_state(state: &serde_json::Value) -> Result<Self, String> {
        load_serde(state)
    }
}
