//! Penny Badger's own report metrics: claim sizes split by truthful and bluffed, challenge
//! outcomes, and the mean bank and savings by turn.
//!
//! Every sum is an integer (mean savings in units of 1/[`WIN_UNIT`] penny), so batches and
//! shards merge to identical numbers in any order; the state is saved by sharded runs.

use super::rules::{Phase, State};
use super::{Action, Claim, PennyBadger};
use serde::{Deserialize, Serialize};

use crate::engine::{BarSeries, ChartSpec, Game, LineSeries, Meaning, Metrics, Outcome, load_serde, save_serde};
use crate::stats::{WIN_UNIT, wilson};

/// Turns followed by the by-turn curves.
const HORIZON: usize = 400;
/// Claim-size categories: nothing, wild, 2..=10.
const SIZES: usize = 11;

/// Accumulated over many games; merged in any order with the same result.
#[derive(Default, Serialize, Deserialize)]
pub struct BadgerMetrics {
    truthful: [u64; SIZES],
    bluffed: [u64; SIZES],
    challenged: [u64; SIZES],
    caught: [u64; SIZES],
    bank_by_turn: Vec<u64>,
    /// Sum of the mean savings of players still in, in units of 1/`WIN_UNIT` penny.
    savings_by_turn: Vec<u64>,
    /// Games still running at the start of each turn.
    running_by_turn: Vec<u64>,
    games: u64,
    horizon: usize,
    // The game in progress (not saved).
    #[serde(skip)]
    game_bank: Vec<u32>,
    #[serde(skip)]
    game_savings: Vec<u64>,
    #[serde(skip)]
    last_turn: u32,
}

fn size_index(claim: Claim, count: u8) -> usize {
    match claim {
        Claim::Nothing => 0,
        Claim::Wild => 1,
        Claim::Set(_) => (count as usize).min(SIZES - 1),
    }
}

impl BadgerMetrics {
    fn record_turn(&mut self, game: &PennyBadger, s: &State) {
        let n = game.params.players as usize;
        let (sum, alive) = (0..n).filter(|&i| s.alive & (1 << i) != 0).fold((0u64, 0u64), |(sum, k), i| (sum + u64::from(s.savings[i]), k + 1));
        // Exact: at most 8 players, and WIN_UNIT is a multiple of 1..=8.
        let mean = (sum * WIN_UNIT).checked_div(alive).unwrap_or(0);
        self.game_bank.push(s.bank);
        self.game_savings.push(mean);
    }
}

impl Metrics<PennyBadger> for BadgerMetrics {
    fn after_action(&mut self, game: &PennyBadger, s: &State, _seat: usize, action: &Action) {
        if self.game_bank.is_empty() && self.last_turn == 0 {
            // First action of a game: the state at the start of turn 1.
            self.game_bank.push(game.params.bank);
            self.game_savings.push(u64::from(game.params.starting_savings) * WIN_UNIT);
            self.last_turn = 1;
        }
        // A claim is final once its challenges are answered; read it from the last claim.
        let claim_done = match action {
            Action::Discard { claim: Claim::Nothing, cards } => Some((Claim::Nothing, cards.count_ones() as u8, true, false)),
            Action::Discard { .. } | Action::Challenge(_) if s.phase != Phase::Challenge => s.claim.map(|c| (c.claim, c.count, c.truthful, c.challengers != 0)),
            _ => None,
        };
        if let Some((claim, count, truthful, challenged)) = claim_done {
            let i = size_index(claim, count);
            if truthful {
                self.truthful[i] += 1;
            } else {
                self.bluffed[i] += 1;
            }
            if challenged {
                self.challenged[i] += 1;
                self.caught[i] += u64::from(!truthful);
            }
        }
        while self.last_turn < s.turns && self.game_bank.len() < HORIZON {
            self.record_turn(game, s);
            self.last_turn += 1;
        }
    }

    fn finish(&mut self, game: &PennyBadger, s: &State, _outcome: &Outcome) {
        self.horizon = HORIZON.min(game.turn_cap() as usize + 1);
        if self.game_bank.is_empty() {
            self.game_bank.push(game.params.bank);
            self.game_savings.push(u64::from(game.params.starting_savings) * WIN_UNIT);
        }
        self.record_turn(game, s);
        if self.bank_by_turn.len() < self.horizon {
            self.bank_by_turn.resize(self.horizon, 0);
            self.savings_by_turn.resize(self.horizon, 0);
        }
        if self.running_by_turn.len() < self.horizon {
            self.running_by_turn.resize(self.horizon, 0);
        }
        for r in self.running_by_turn.iter_mut().take((s.turns as usize + 1).min(self.horizon)) {
            *r += 1;
        }
        let last_bank = u64::from(*self.game_bank.last().unwrap_or(&0));
        let last_savings = *self.game_savings.last().unwrap_or(&0);
        for t in 0..self.horizon {
            self.bank_by_turn[t] += self.game_bank.get(t).map_or(last_bank, |&b| u64::from(b));
            self.savings_by_turn[t] += self.game_savings.get(t).copied().unwrap_or(last_savings);
        }
        self.games += 1;
        self.game_bank.clear();
        self.game_savings.clear();
        self.last_turn = 0;
    }

    fn merge(&mut self, other: Self) {
        for i in 0..SIZES {
            self.truthful[i] += other.truthful[i];
            self.bluffed[i] += other.bluffed[i];
            self.challenged[i] += other.challenged[i];
            self.caught[i] += other.caught[i];
        }
        self.horizon = self.horizon.max(other.horizon);
        if self.bank_by_turn.len() < other.bank_by_turn.len() {
            self.bank_by_turn.resize(other.bank_by_turn.len(), 0);
            self.savings_by_turn.resize(other.savings_by_turn.len(), 0);
        }
        if self.running_by_turn.len() < other.running_by_turn.len() {
            self.running_by_turn.resize(other.running_by_turn.len(), 0);
        }
        for (a, b) in self.running_by_turn.iter_mut().zip(other.running_by_turn) {
            *a += b;
        }
        for (a, b) in self.bank_by_turn.iter_mut().zip(other.bank_by_turn) {
            *a += b;
        }
        for (a, b) in self.savings_by_turn.iter_mut().zip(other.savings_by_turn) {
            *a += b;
        }
        self.games += other.games;
    }

    fn charts(&self, games: u64) -> Vec<ChartSpec> {
        let labels: Vec<String> = (0..SIZES)
            .map(|i| match i {
                0 => "nothing".to_string(),
                1 => "wild".to_string(),
                k => format!("{k}"),
            })
            .collect();
        let used: Vec<usize> = (0..SIZES).filter(|&i| self.truthful[i] + self.bluffed[i] > 0).collect();
        let per_game = |v: &[u64; SIZES]| used.iter().map(|&i| v[i] as f64 / games.max(1) as f64).collect::<Vec<_>>();
        let mut charts = vec![ChartSpec::Bars {
            file: "claim_sizes".into(),
            title: format!("Claims per game by size, truthful vs bluffed ({games} games)"),
            x_label: "claim (cards discarded)".into(),
            y_label: "claims per game".into(),
            categories: used.iter().map(|&i| labels[i].clone()).collect(),
            series: vec![
                BarSeries { name: "truthful".into(), values: per_game(&self.truthful), ci: None },
                BarSeries { name: "bluffed".into(), values: per_game(&self.bluffed), ci: None },
            ],
            reference: None,
        }];
        let challenged: Vec<usize> = used.iter().copied().filter(|&i| i > 0).collect();
        if !challenged.is_empty() {
            let rate = |num: &[u64; SIZES], den: &[u64; SIZES]| -> (Vec<f64>, Vec<(f64, f64)>) {
                challenged
                    .iter()
                    .map(|&i| {
                        let (lo, hi) = wilson(num[i] as f64, den[i]);
                        (if den[i] > 0 { num[i] as f64 / den[i] as f64 * 100.0 } else { 0.0 }, (lo * 100.0, hi * 100.0))
                    })
                    .unzip()
            };
            let claims: [u64; SIZES] = std::array::from_fn(|i| self.truthful[i] + self.bluffed[i]);
            let bluffs: [u64; SIZES] = self.bluffed;
            let (ch, ch_ci) = rate(&self.challenged, &claims);
            let (bl, bl_ci) = rate(&bluffs, &claims);
            let (ca, ca_ci) = rate(&self.caught, &self.challenged);
            charts.push(ChartSpec::Bars {
                file: "challenges".into(),
                title: format!("Bluffs and challenges by claim size ({games} games)"),
                x_label: "claim (cards discarded)".into(),
                y_label: "share (%); each bar's denominator in the legend".into(),
                categories: challenged.iter().map(|&i| labels[i].clone()).collect(),
                series: vec![
                    BarSeries { name: "bluffed (% of claims)".into(), values: bl, ci: Some(bl_ci) },
                    BarSeries { name: "challenged (% of claims)".into(), values: ch, ci: Some(ch_ci) },
                    BarSeries { name: "challenge caught a bluff (% of challenged claims)".into(), values: ca, ci: Some(ca_ci) },
                ],
                reference: None,
            });
        }
        let n = self.games.max(1) as f64;
        // Follow the curves while at least 1% of games are still running.
        let shown = self.running_by_turn.iter().position(|&r| (r as f64) < 0.01 * n).unwrap_or(self.running_by_turn.len()).max(2);
        let curve = |v: &[u64], unit: u64| v.iter().take(shown).enumerate().map(|(t, &x)| (t as f64, x as f64 / unit as f64 / n)).collect::<Vec<_>>();
        charts.push(ChartSpec::Lines {
            file: "money_by_turn".into(),
            title: format!("Mean bank and mean savings of players still in, by turn ({games} games)"),
            x_label: "turn (finished games keep their final values; shown while >= 1% of games run)".into(),
            y_label: "pennies".into(),
            series: vec![
                LineSeries { name: "bank".into(), points: curve(&self.bank_by_turn, 1), band: None },
                LineSeries { name: "savings (mean of players still in)".into(), points: curve(&self.savings_by_turn, WIN_UNIT), band: None },
            ],
        });
        charts
    }

    fn summary(&self, games: u64) -> Vec<(String, f64)> {
        let claims: u64 = (1..SIZES).map(|i| self.truthful[i] + self.bluffed[i]).sum();
        let bluffs: u64 = (1..SIZES).map(|i| self.bluffed[i]).sum();
        let challenged: u64 = self.challenged.iter().sum();
        let caught: u64 = self.caught.iter().sum();
        let ratio = |a: u64, b: u64| if b > 0 { a as f64 / b as f64 } else { 0.0 };
        vec![
            ("claims_per_game".into(), ratio(claims + self.truthful[0], games)),
            ("bluff_share".into(), ratio(bluffs, claims)),
            ("challenge_share".into(), ratio(challenged, claims)),
            ("challenge_success".into(), ratio(caught, challenged)),
        ]
    }

    fn meaning(&self, name: &str) -> Option<Meaning> {
        Some(match name {
            "claims_per_game" => Meaning::new("claims made per game (all players, \"nothing\" included)", "claims per game"),
            "bluff_share" => Meaning::share("share of claims of a set or a wild that were bluffs"),
            "challenge_share" => Meaning::share("share of claims of a set or a wild that were challenged"),
            "challenge_success" => Meaning::share("share of challenges that caught a bluff"),
            _ => return None,
        })
    }

    fn ratio_names(&self) -> Vec<String> {
        ["claims_per_game", "bluff_share", "challenge_share", "challenge_success"].map(String::from).to_vec()
    }

    fn ratio_parts(&self, out: &mut Vec<(i64, i64)>) {
        let claims: u64 = (1..SIZES).map(|i| self.truthful[i] + self.bluffed[i]).sum();
        let bluffs: u64 = (1..SIZES).map(|i| self.bluffed[i]).sum();
        let challenged: u64 = self.challenged.iter().sum();
        let caught: u64 = self.caught.iter().sum();
        let (claims, challenged) = (claims as i64, challenged as i64);
        out.clear();
        out.extend([(claims + self.truthful[0] as i64, self.games as i64), (bluffs as i64, claims), (challenged, claims), (caught as i64, challenged)]);
    }

    fn save_state(&self) -> Option<serde_json::Value> {
        save_serde(self)
    }

    fn load_state(state: &serde_json::Value) -> Result<Self, String> {
        load_serde(state)
    }
}
