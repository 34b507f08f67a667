//! Rainbow Rush's own report metrics: sabotage plays per game, what a sabotage does to its
//! victim (how many cards the victim needed before, and how often it set the victim back:
//! a delayed win when the victim needed one card), each seat's row coverage over its own
//! turns, the wilds in winning rows and wins completed on another player's turn.
//!
//! Every sum is an integer, so batches and shards merge to identical numbers in any order;
//! the state is saved by sharded runs.

use serde::{Deserialize, Serialize};

use super::params::{MAX_PLAYERS, MAX_ROW};
use super::rules::{Phase, SabotageRecord, State};
use super::{Action, RainbowRush};
use crate::engine::{BarSeries, Bin, ChartSpec, LineSeries, Meaning, Metrics, Outcome, load_serde, save_serde};
use crate::games::chroma::{SHAPES, is_wild};
use crate::stats::counts::{add_counts, bump, index_parts, mean_index, ratio};
use crate::stats::{Z95, wilson_percent};

/// Own turns per seat followed by the coverage chart.
pub const TRACKED_TURNS: usize = 100;

/// Accumulated over many games; merged in any order with the same result.
#[derive(Default, Serialize, Deserialize)]
pub struct RushMetrics {
    players: usize,
    games: u64,
    /// Games by number of sabotage plays.
    sabotage_per_game: Vec<u64>,
    /// Sabotages by the cards the victim needed before (index 0..=5).
    need_before: [u64; 6],
    /// Of those, the sabotages after which the victim needed more cards.
    raised: [u64; 6],
    /// Of those, the sabotages whose victim still won the game.
    victim_won: [u64; 6],
    /// Sabotages whose wild completed the victim's rainbow.
    handed_win: u64,
    /// Won games, and those won on another player's turn.
    wins: u64,
    wins_off_turn: u64,
    /// Won games by the wilds in the winner's row.
    win_wilds: Vec<u64>,
    /// Won games by the rainbow's shape (the first shape the row covers fully).
    win_shape: [u64; 5],
    /// Cards taken from the discard pile.
    discard_takes: u64,
    /// Per seat and own turn k (from 0): games that finished that turn, and the sum and sum
    /// of squares of the seat's highest row coverage after it.
    cov_n: Vec<Vec<u64>>,
    cov_sum: Vec<Vec<u64>>,
    cov_sq: Vec<Vec<u64>>,
    // The game in progress (not saved).
    #[serde(skip)]
    seen_sabotages: u32,
    #[serde(skip)]
    own_turns: [u32; MAX_PLAYERS],
    /// Sabotages each seat suffered this game, by the cards it needed before.
    #[serde(skip)]
    suffered: [[u32; 6]; MAX_PLAYERS],
}

fn add_rows(a: &mut Vec<Vec<u64>>, b: Vec<Vec<u64>>) {
    if a.len() < b.len() {
        a.resize(b.len(), Vec::new());
    }
    for (x, y) in a.iter_mut().zip(&b) {
        add_counts(x, y);
    }
}

fn pct_ci(successes: u64, n: u64) -> (f64, f64) {
    wilson_percent(successes as f64, n)
}

impl RushMetrics {
    fn record_sabotage(&mut self, r: &SabotageRecord) {
        let before = (r.need_before as usize).min(5);
        self.need_before[before] += 1;
        self.raised[before] += u64::from(r.need_after > r.need_before);
        self.handed_win += u64::from(r.need_after == 0);
        self.suffered[r.victim as usize][before] += 1;
    }

    fn sabotages(&self) -> u64 {
        self.need_before.iter().sum()
    }

    fn sabotage_chart(&self) -> ChartSpec {
        let games = self.games.max(1) as f64;
        let mean = mean_index(&self.sabotage_per_game);
        ChartSpec::Histogram {
            file: "sabotage_per_game".into(),
            title: format!("Wilds played onto an opponent's row per game ({} games, {} plays)", self.games, self.sabotages()),
            x_label: "sabotage plays in the game (all seats)".into(),
            y_label: "share of games (%)".into(),
            series: vec![(
                "games".into(),
                self.sabotage_per_game
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| **c > 0)
                    .map(|(i, &c)| Bin { lo: i as f64, hi: i as f64 + 1.0, value: c as f64 / games * 100.0 })
                    .collect(),
            )],
            markers: vec![(mean, format!("mean {mean:.2}"))],
        }
    }

    fn effect_chart(&self) -> ChartSpec {
        let total = self.sabotages();
        let used: Vec<usize> = (1..6).filter(|&k| self.need_before[k] > 0).collect();
        ChartSpec::Bars {
            file: "sabotage_effect".into(),
            title: format!(
                "What a sabotage does, by the cards its victim needed to win ({total} sabotages; {} completed the victim's rainbow)",
                self.handed_win
            ),
            x_label: "cards the victim needed before the sabotage".into(),
            y_label: "share (%, 95% CI)".into(),
            categories: used.iter().map(|k| format!("needed {k}")).collect(),
            series: vec![
                BarSeries {
                    name: "share of all sabotages".into(),
                    values: used.iter().map(|&k| ratio(self.need_before[k] as f64, total as f64) * 100.0).collect(),
                    ci: Some(used.iter().map(|&k| pct_ci(self.need_before[k], total)).collect()),
                },
                BarSeries {
                    name: "of these, set the victim back (needs more cards after)".into(),
                    values: used.iter().map(|&k| ratio(self.raised[k] as f64, self.need_before[k] as f64) * 100.0).collect(),
                    ci: Some(used.iter().map(|&k| pct_ci(self.raised[k], self.need_before[k])).collect()),
                },
                BarSeries {
                    name: "of these, the victim still won the game".into(),
                    values: used.iter().map(|&k| ratio(self.victim_won[k] as f64, self.need_before[k] as f64) * 100.0).collect(),
                    ci: Some(used.iter().map(|&k| pct_ci(self.victim_won[k], self.need_before[k])).collect()),
                },
            ],
            reference: None,
        }
    }

    fn coverage_chart(&self) -> ChartSpec {
        let n = self.players.max(1);
        let floor = (self.games / 100).max(1);
        let series = (0..n.min(self.cov_n.len()))
            .map(|seat| {
                let (mut points, mut band) = (Vec::new(), Vec::new());
                for (k, &c) in self.cov_n[seat].iter().enumerate().take_while(|(_, c)| **c >= floor) {
                    let mean = self.cov_sum[seat][k] as f64 / c as f64;
                    let var = (self.cov_sq[seat][k] as f64 / c as f64 - mean * mean).max(0.0);
                    let half = Z95 * (var / c as f64).sqrt();
                    points.push(((k + 1) as f64, mean));
                    band.push((mean - half, mean + half));
                }
                LineSeries { name: format!("seat {seat}"), points, band: Some(band) }
            })
            .collect();
        ChartSpec::Lines {
            file: "row_coverage".into(),
            title: format!("Row coverage after each of a seat's own turns (games still running; {} games)", self.games),
            x_label: "the seat's own turns played".into(),
            y_label: "mean highest coverage (colors of one shape, 0-5; 95% CI)".into(),
            series,
        }
    }

    fn wilds_chart(&self) -> ChartSpec {
        let used: Vec<usize> = (0..self.win_wilds.len()).filter(|&i| self.win_wilds[i] > 0).collect();
        ChartSpec::Bars {
            file: "winning_row_wilds".into(),
            title: format!(
                "Wilds in the winning row ({} won games; {:.1}% won on another player's turn)",
                self.wins,
                ratio(self.wins_off_turn as f64, self.wins as f64) * 100.0
            ),
            x_label: "wild cards in the winner's row".into(),
            y_label: "share of won games (%, 95% CI)".into(),
            categories: used.iter().map(|i| i.to_string()).collect(),
            series: vec![BarSeries {
                name: "share of won games".into(),
                values: used.iter().map(|&i| ratio(self.win_wilds[i] as f64, self.wins as f64) * 100.0).collect(),
                ci: Some(used.iter().map(|&i| pct_ci(self.win_wilds[i], self.wins)).collect()),
            }],
            reference: None,
        }
    }

    fn shape_chart(&self) -> ChartSpec {
        ChartSpec::Bars {
            file: "winning_shape".into(),
            title: format!("Shape of the winning rainbow ({} won games)", self.wins),
            x_label: "shape (the first shape the winning row covers in all five colors)".into(),
            y_label: "share of won games (%, 95% CI)".into(),
            categories: SHAPES.iter().map(|s| s.to_string()).collect(),
            series: vec![BarSeries {
                name: "share of won games".into(),
                values: self.win_shape.iter().map(|&c| ratio(c as f64, self.wins as f64) * 100.0).collect(),
                ci: Some(self.win_shape.iter().map(|&c| pct_ci(c, self.wins)).collect()),
            }],
            reference: Some((20.0, "even share 20%".into())),
        }
    }
}

impl Metrics<RainbowRush> for RushMetrics {
    fn after_action(&mut self, game: &RainbowRush, s: &State, seat: usize, _action: &Action) {
        self.players = game.players;
        if s.sabotages > self.seen_sabotages {
            self.seen_sabotages = s.sabotages;
            if let Some(r) = s.last_sabotage {
                self.record_sabotage(&r);
            }
        }
        if s.phase != Phase::Play {
            let k = self.own_turns[seat] as usize;
            self.own_turns[seat] += 1;
            if k < TRACKED_TURNS {
                if self.cov_n.len() < game.players {
                    self.cov_n.resize(game.players, Vec::new());
                    self.cov_sum.resize(game.players, Vec::new());
                    self.cov_sq.resize(game.players, Vec::new());
                }
                let c = s.rows[seat].best() as u64;
                bump(&mut self.cov_n[seat], k, 1);
                bump(&mut self.cov_sum[seat], k, c);
                bump(&mut self.cov_sq[seat], k, c * c);
            }
        }
    }

    fn finish(&mut self, game: &RainbowRush, s: &State, _outcome: &Outcome) {
        self.players = game.players;
        self.games += 1;
        bump(&mut self.sabotage_per_game, s.sabotages as usize, 1);
        self.discard_takes += s.discard_takes as u64;
        if let Some(w) = s.winner {
            let row = &s.rows[w as usize];
            self.wins += 1;
            self.wins_off_turn += u64::from(w != s.current);
            let wilds = row.cards().iter().filter(|&&c| is_wild(c)).count();
            bump(&mut self.win_wilds, wilds.min(MAX_ROW), 1);
            for (won, &n) in self.victim_won.iter_mut().zip(&self.suffered[w as usize]) {
                *won += n as u64;
            }
            let cover = row.cover();
            if let Some(shape) = (0..5).find(|&sh| cover.get(sh) == 5) {
                self.win_shape[shape] += 1;
            }
        }
        self.seen_sabotages = 0;
        self.own_turns = [0; MAX_PLAYERS];
        self.suffered = [[0; 6]; MAX_PLAYERS];
    }

    fn merge(&mut self, other: Self) {
        self.players = self.players.max(other.players);
        self.games += other.games;
        add_counts(&mut self.sabotage_per_game, &other.sabotage_per_game);
        for k in 0..6 {
            self.need_before[k] += other.need_before[k];
            self.raised[k] += other.raised[k];
            self.victim_won[k] += other.victim_won[k];
        }
        self.handed_win += other.handed_win;
        self.wins += other.wins;
        self.wins_off_turn += other.wins_off_turn;
        add_counts(&mut self.win_wilds, &other.win_wilds);
        for (a, b) in self.win_shape.iter_mut().zip(other.win_shape) {
            *a += b;
        }
        self.discard_takes += other.discard_takes;
        add_rows(&mut self.cov_n, other.cov_n);
        add_rows(&mut self.cov_sum, other.cov_sum);
        add_rows(&mut self.cov_sq, other.cov_sq);
    }

    fn charts(&self, _games: u64) -> Vec<ChartSpec> {
        let mut charts = vec![self.sabotage_chart()];
        if self.sabotages() > 0 {
            charts.push(self.effect_chart());
        }
        charts.push(self.coverage_chart());
        if self.wins > 0 {
            charts.push(self.wilds_chart());
            charts.push(self.shape_chart());
        }
        charts
    }

    fn summary(&self, _games: u64) -> Vec<(String, f64)> {
        let games = self.games as f64;
        let sabotages = self.sabotages() as f64;
        vec![
            ("sabotage_per_game".into(), ratio(sabotages, games)),
            ("sabotage_one_card_share".into(), ratio(self.need_before[1] as f64, sabotages)),
            ("sabotage_delay_share".into(), ratio(self.raised[1] as f64, self.need_before[1] as f64)),
            ("wins_delayed_per_game".into(), ratio(self.raised[1] as f64, games)),
            ("one_card_victim_won_share".into(), ratio(self.victim_won[1] as f64, self.need_before[1] as f64)),
            ("sabotage_setback_share".into(), ratio(self.raised.iter().sum::<u64>() as f64, sabotages)),
            ("win_on_other_turn_share".into(), ratio(self.wins_off_turn as f64, self.wins as f64)),
            ("mean_wilds_in_winning_row".into(), mean_index(&self.win_wilds)),
            ("discard_takes_per_game".into(), ratio(self.discard_takes as f64, games)),
        ]
    }

    fn meaning(&self, name: &str) -> Option<Meaning> {
        Some(match name {
            "sabotage_per_game" => Meaning::new("sabotage plays per game", "sabotages per game"),
            "sabotage_one_card_share" => Meaning::share("share of sabotages aimed at a victim one card from winning"),
            "sabotage_delay_share" => Meaning::share("share of those sabotages that set the victim back (a delayed win)"),
            "wins_delayed_per_game" => Meaning::new("wins delayed by a sabotage per game", "delayed wins per game"),
            "one_card_victim_won_share" => Meaning::share("share of victims one card from winning who still won the game"),
            "sabotage_setback_share" => Meaning::share("share of sabotages that raised the cards the victim needs"),
            "win_on_other_turn_share" => Meaning::share("share of wins completed on another player's turn"),
            "mean_wilds_in_winning_row" => Meaning::new("wilds in the winning row", "wilds"),
            "discard_takes_per_game" => Meaning::new("cards taken from the discard pile per game", "takes per game"),
            _ => return None,
        })
    }

    fn ratio_names(&self) -> Vec<String> {
        [
            "sabotage_per_game",
            "sabotage_one_card_share",
            "sabotage_delay_share",
            "wins_delayed_per_game",
            "one_card_victim_won_share",
            "sabotage_setback_share",
            "win_on_other_turn_share",
            "mean_wilds_in_winning_row",
            "discard_takes_per_game",
        ]
        .map(String::from)
        .to_vec()
    }

    fn ratio_parts(&self, out: &mut Vec<(i64, i64)>) {
        let (games, sabotages) = (self.games as i64, self.sabotages() as i64);
        let (one_card, delayed) = (self.need_before[1] as i64, self.raised[1] as i64);
        out.clear();
        out.extend([
            (sabotages, games),
            (one_card, sabotages),
            (delayed, one_card),
            (delayed, games),
            (self.victim_won[1] as i64, one_card),
            (self.raised.iter().sum::<u64>() as i64, sabotages),
            (self.wins_off_turn as i64, self.wins as i64),
            index_parts(&self.win_wilds),
            (self.discard_takes as i64, games),
        ]);
    }

    fn save_state(&self) -> Option<serde_json::Value> {
        save_serde(self)
    }

    fn load_state(state: &serde_json::Value) -> Result<Self, String> {
        load_serde(state)
    }
}
