//! Dice Factor's own report metrics: how games were won (the target's kind: a color the
//! colors die shows, a shape the shapes die shows, or any color or shape under a logo), how
//! often the winner won on another player's turn, hands dealt winning (`dealt_win_share`),
//! the d8's outcomes and their effect on the roller's hand, dice rerolls per game, and the
//! action cards resolved.
//!
//! Every sum is an integer, so batches and shards merge to identical numbers in any order;
//! the state is saved by sharded runs.

use serde::{Deserialize, Serialize};

use super::hand::LOGO;
use super::rules::State;
use super::{Action, DiceFactor};
use crate::engine::{BarSeries, Bin, ChartSpec, Meaning, Metrics, Outcome, load_serde, save_serde};
use crate::stats::counts::ratio;
use crate::stats::wilson_percent;

/// Win kinds in report order.
const KINDS: [&str; 3] = ["color (colors die)", "shape (shapes die)", "logo (any color or shape)"];
/// d8 outcomes in report order.
const OUTCOMES: [&str; 4] = ["nothing", "swap", "trade", "reroll"];
/// Action cards in report order.
const ACTIONS: [&str; 6] = ["skip", "reverse", "trade_one_card", "trade_hands", "add_a_card", "dice"];

/// Accumulated over many games; merged in any order with the same result.
#[derive(Default, Serialize, Deserialize)]
pub struct DiceMetrics {
    games: u64,
    /// Games won, by the kind of the completed target.
    wins_by_kind: [u64; 3],
    /// Games won by a seat on another player's turn.
    won_on_other_turn: u64,
    /// Games where some hand held a win as dealt.
    dealt_winning: u64,
    /// d8 rolls, outcomes done, sum and sum of squares of the roller's score change, and
    /// rolls after which the roller won, by outcome.
    d8_rolls: [u64; 4],
    d8_used: [u64; 4],
    d8_gain: [i64; 4],
    d8_gain_sq: [u64; 4],
    d8_wins: [u64; 4],
    /// Games by number of dice rerolled in them.
    rerolls: Vec<u64>,
    /// Action cards resolved, by card.
    actions: [u64; 6],
    /// Turns lost to skips.
    skipped: u64,
    /// Reshuffles of the discard pile.
    reshuffles: u64,
}

impl DiceMetrics {
    fn won(&self) -> u64 {
        self.wins_by_kind.iter().sum()
    }

    fn d8_total(&self) -> u64 {
        self.d8_rolls.iter().sum()
    }

    fn mean_rerolls(&self) -> f64 {
        ratio(self.rerolls.iter().enumerate().map(|(i, &c)| i as f64 * c as f64).sum(), self.games as f64)
    }

    /// The d8: rolls per game by outcome (rolled and done rather than declined), and the mean
    /// change of the roller's highest score per outcome with its 95% interval.
    fn d8_charts(&self, games: u64) -> [ChartSpec; 2] {
        let rolls = self.d8_total();
        let per_game = |k: u64| ratio(k as f64, games as f64);
        let outcomes = ChartSpec::Bars {
            file: "d8_outcomes".into(),
            title: format!("d8 rolls per game by outcome, and how many were done rather than declined ({rolls} rolls in {games} games)"),
            x_label: "d8 outcome".into(),
            y_label: "rolls per game".into(),
            categories: OUTCOMES.iter().map(|s| s.to_string()).collect(),
            series: vec![
                BarSeries { name: "rolled".into(), values: self.d8_rolls.iter().map(|&k| per_game(k)).collect(), ci: None },
                BarSeries { name: "done (not declined)".into(), values: self.d8_used.iter().map(|&k| per_game(k)).collect(), ci: None },
            ],
            reference: None,
        };
        let mean = |i: usize| ratio(self.d8_gain[i] as f64, self.d8_rolls[i] as f64);
        let ci = |i: usize| {
            let n = self.d8_rolls[i] as f64;
            if n < 2.0 {
                return (mean(i), mean(i));
            }
            let m = mean(i);
            let var = ((self.d8_gain_sq[i] as f64 - n * m * m) / (n - 1.0)).max(0.0);
            let half = crate::stats::Z95 * (var / n).sqrt();
            (m - half, m + half)
        };
        let effect = ChartSpec::Bars {
            file: "d8_effect".into(),
            title: format!("Effect of a d8 roll on the roller's hand, by outcome ({rolls} rolls)"),
            x_label: "d8 outcome".into(),
            y_label: "change of the roller's highest score (cards, 95% CI)".into(),
            categories: OUTCOMES.iter().map(|s| s.to_string()).collect(),
            series: vec![BarSeries { name: "mean change per roll".into(), values: (0..4).map(mean).collect(), ci: Some((0..4).map(ci).collect()) }],
            reference: Some((0.0, "no change".into())),
        };
        [outcomes, effect]
    }

    /// Dice rerolled per game (d8 face 8 and dice card), with the mean.
    fn rerolls_per_game(&self, games: u64) -> ChartSpec {
        let total = self.games.max(1) as f64;
        let mean = self.mean_rerolls();
        ChartSpec::Histogram {
            file: "rerolls_per_game".into(),
            title: format!("Dice rerolled per game (d8 face 8 and dice card; {games} games)"),
            x_label: "dice rerolled in the game".into(),
            y_label: "share of games (%)".into(),
            series: vec![(
                "games".into(),
                self.rerolls
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| **c > 0)
                    .map(|(i, &c)| Bin { lo: i as f64, hi: i as f64 + 1.0, value: c as f64 / total * 100.0 })
                    .collect(),
            )],
            markers: vec![(mean, format!("mean {mean:.2}"))],
        }
    }
}

impl Metrics<DiceFactor> for DiceMetrics {
    fn after_action(&mut self, _game: &DiceFactor, _s: &State, _seat: usize, _action: &Action) {}

    fn finish(&mut self, _game: &DiceFactor, s: &State, _outcome: &Outcome) {
        self.games += 1;
        if let Some(w) = s.winner {
            let t = s.win_target as usize;
            let logo = if t < 5 { s.dice[0] >= LOGO } else { s.dice[1] >= LOGO };
            let kind = if logo {
                2
            } else if t < 5 {
                0
            } else {
                1
            };
            self.wins_by_kind[kind] += 1;
            self.won_on_other_turn += u64::from(w != s.won_in_turn_of);
        }
        self.dealt_winning += u64::from(s.dealt_winning);
        let t = &s.tally;
        for i in 0..4 {
            self.d8_rolls[i] += t.d8_rolls[i] as u64;
            self.d8_used[i] += t.d8_used[i] as u64;
            self.d8_gain[i] += t.d8_gain[i];
            self.d8_gain_sq[i] += t.d8_gain_sq[i];
            self.d8_wins[i] += t.d8_wins[i] as u64;
        }
        let r = t.rerolls as usize;
        if self.rerolls.len() <= r {
            self.rerolls.resize(r + 1, 0);
        }
        self.rerolls[r] += 1;
        for (a, &b) in self.actions.iter_mut().zip(&t.actions) {
            *a += b as u64;
        }
        self.skipped += t.skipped as u64;
        self.reshuffles += t.reshuffles as u64;
    }

    fn merge(&mut self, other: Self) {
        self.games += other.games;
        for i in 0..3 {
            self.wins_by_kind[i] += other.wins_by_kind[i];
        }
        self.won_on_other_turn += other.won_on_other_turn;
        self.dealt_winning += other.dealt_winning;
        for i in 0..4 {
            self.d8_rolls[i] += other.d8_rolls[i];
            self.d8_used[i] += other.d8_used[i];
            self.d8_gain[i] += other.d8_gain[i];
            self.d8_gain_sq[i] += other.d8_gain_sq[i];
            self.d8_wins[i] += other.d8_wins[i];
        }
        if self.rerolls.len() < other.rerolls.len() {
            self.rerolls.resize(other.rerolls.len(), 0);
        }
        for (a, b) in self.rerolls.iter_mut().zip(&other.rerolls) {
            *a += b;
        }
        for (a, b) in self.actions.iter_mut().zip(other.actions) {
            *a += b;
        }
        self.skipped += other.skipped;
        self.reshuffles += other.reshuffles;
    }

    fn charts(&self, games: u64) -> Vec<ChartSpec> {
        let won = self.won();
        let mut charts = vec![ChartSpec::Bars {
            file: "win_kind".into(),
            title: format!("How games were won: the kind of target completed ({won} won games of {games})"),
            x_label: "target completed".into(),
            y_label: "share of won games (%, 95% CI)".into(),
            categories: KINDS.iter().map(|s| s.to_string()).collect(),
            series: vec![BarSeries {
                name: "share of won games".into(),
                values: self.wins_by_kind.iter().map(|&k| ratio(k as f64, won as f64) * 100.0).collect(),
                ci: Some(self.wins_by_kind.iter().map(|&k| wilson_percent(k as f64, won)).collect()),
            }],
            reference: None,
        }];
        let own = won - self.won_on_other_turn;
        charts.push(ChartSpec::Bars {
            file: "whose_turn".into(),
            title: format!(
                "Whose turn the game was won in ({won} won games; dealt winning hands {:.2}% of games)",
                ratio(self.dealt_winning as f64, self.games as f64) * 100.0
            ),
            x_label: "turn in which the winning check found the winner".into(),
            y_label: "share of won games (%, 95% CI)".into(),
            categories: vec!["the winner's own turn".into(), "another player's turn".into()],
            series: vec![BarSeries {
                name: "share of won games".into(),
                values: vec![ratio(own as f64, won as f64) * 100.0, ratio(self.won_on_other_turn as f64, won as f64) * 100.0],
                ci: Some(vec![wilson_percent(own as f64, won), wilson_percent(self.won_on_other_turn as f64, won)]),
            }],
            reference: None,
        });
        charts.extend(self.d8_charts(games));
        charts.push(self.rerolls_per_game(games));
        if self.actions.iter().any(|&a| a > 0) {
            charts.push(ChartSpec::Bars {
                file: "action_cards".into(),
                title: format!("Action cards resolved per game ({games} games)"),
                x_label: "action card".into(),
                y_label: "cards resolved per game".into(),
                categories: ACTIONS.iter().map(|s| s.to_string()).collect(),
                series: vec![BarSeries { name: "resolved".into(), values: self.actions.iter().map(|&a| ratio(a as f64, games as f64)).collect(), ci: None }],
                reference: None,
            });
        }
        charts
    }

    fn summary(&self, _games: u64) -> Vec<(String, f64)> {
        let games = self.games as f64;
        let won = self.won() as f64;
        let mut out = vec![
            ("dealt_win_share".into(), ratio(self.dealt_winning as f64, games)),
            ("won_on_other_turn_share".into(), ratio(self.won_on_other_turn as f64, won)),
            ("win_color_share".into(), ratio(self.wins_by_kind[0] as f64, won)),
            ("win_shape_share".into(), ratio(self.wins_by_kind[1] as f64, won)),
            ("win_logo_share".into(), ratio(self.wins_by_kind[2] as f64, won)),
            ("d8_rolls_per_game".into(), ratio(self.d8_total() as f64, games)),
            ("rerolls_per_game".into(), self.mean_rerolls()),
            ("skipped_turns_per_game".into(), ratio(self.skipped as f64, games)),
            ("reshuffles_per_game".into(), ratio(self.reshuffles as f64, games)),
        ];
        for (i, name) in OUTCOMES.iter().enumerate() {
            out.push((format!("d8_{name}_mean_gain"), ratio(self.d8_gain[i] as f64, self.d8_rolls[i] as f64)));
        }
        out
    }

    fn meaning(&self, name: &str) -> Option<Meaning> {
        Some(match name {
            "dealt_win_share" => Meaning::share("share of games in which some hand held a win as dealt"),
            "won_on_other_turn_share" => Meaning::share("share of won games the winner completed on another player's turn"),
            "win_color_share" => Meaning::share("share of won games won on a color the colors die shows"),
            "win_shape_share" => Meaning::share("share of won games won on a shape the shapes die shows"),
            "win_logo_share" => Meaning::share("share of won games won on any color or shape under a logo"),
            "d8_rolls_per_game" => Meaning::new("d8 rolls per game", "rolls per game"),
            "rerolls_per_game" => Meaning::new("dice rerolls per game", "rerolls per game"),
            "skipped_turns_per_game" => Meaning::new("turns skipped per game", "turns per game"),
            "reshuffles_per_game" => Meaning::new("reshuffles of the discard pile into the draw pile per game", "reshuffles per game"),
            _ => {
                let outcome = name.strip_prefix("d8_")?.strip_suffix("_mean_gain")?;
                Meaning::new(format!("mean change of the roller's highest score after a d8 roll of \"{outcome}\""), "cards")
            }
        })
    }

    fn ratio_names(&self) -> Vec<String> {
        let mut names: Vec<String> = [
            "dealt_win_share",
            "won_on_other_turn_share",
            "win_color_share",
            "win_shape_share",
            "win_logo_share",
            "d8_rolls_per_game",
            "rerolls_per_game",
            "skipped_turns_per_game",
            "reshuffles_per_game",
        ]
        .map(String::from)
        .to_vec();
        names.extend(OUTCOMES.iter().map(|name| format!("d8_{name}_mean_gain")));
        names
    }

    fn ratio_parts(&self, out: &mut Vec<(i64, i64)>) {
        let (games, won) = (self.games as i64, self.won() as i64);
        let rerolls: u64 = self.rerolls.iter().enumerate().map(|(i, &c)| i as u64 * c).sum();
        out.clear();
        out.extend([
            (self.dealt_winning as i64, games),
            (self.won_on_other_turn as i64, won),
            (self.wins_by_kind[0] as i64, won),
            (self.wins_by_kind[1] as i64, won),
            (self.wins_by_kind[2] as i64, won),
            (self.d8_total() as i64, games),
            (rerolls as i64, games),
            (self.skipped as i64, games),
            (self.reshuffles as i64, games),
        ]);
        out.extend((0..OUTCOMES.len()).map(|i| (self.d8_gain[i], self.d8_rolls[i] as i64)));
    }

    fn save_state(&self) -> Option<serde_json::Value> {
        save_serde(self)
    }

    fn load_state(state: &serde_json::Value) -> Result<Self, String> {
        load_serde(state)
    }
}
