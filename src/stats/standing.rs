//! Standing over time, for every game: lead changes, drama, decisiveness, comebacks and the
//! winning margin, computed from the turn-by-turn standings a detailed play records
//! ([`StandingTrace`]) and aggregated exactly (integer sums, fixed-point fractions), so
//! batches and shards merge to the same numbers in any order.
//!
//! Definitions (rows 1..=L of a trace: the standings at the end of turns 1 to L; row 0, the
//! deal, is left out because every seat starts level in most games):
//! - the leaders of a turn: every seat holding the highest standing (a tie leads together);
//! - `lead_changes`: turns t in 2..=L whose set of leaders differs from turn t-1's; per 10
//!   turns: 10 x lead changes / L, per game;
//! - the rest is about the eventual winners W (the outcome's winner set; a team or a tie
//!   is one winner) and measured only in games with a winner and at least one seat that did
//!   not win. W's standing at a turn is its best member's, the field's is the best standing
//!   of a seat outside W;
//! - `drama`: the most W trailed the leader by, in the game's unit (0 when it never
//!   trailed); `drama_share`: that deficit over the leader's standing at the first turn it
//!   was reached (games where the leader's standing there is not positive are left out). A
//!   share of a quantity that crosses zero means nothing (a leader on 1 point after standing
//!   at -5 makes a deficit of 4 a "share" of 400%), so a run in which any seat's standing was
//!   ever below zero (Beaver Mania's, where cards in hand count against) has no drama share:
//!   it is absent (NaN, `null` in JSON), not a number;
//! - `decisiveness`: W leads at turn t when it stands strictly above the field; with k the
//!   first turn from which W leads at every turn to the end, (k - 1) / L: 0 when it led from
//!   the first turn on, 1 when it did not lead at the end (the standing disagrees with the
//!   rules' winner, as when a game ends at a cap);
//! - `comeback_rate`: share of those games in which W trailed (stood strictly below the field)
//!   at the halfway turn ceil(L / 2);
//! - `margin`: W's final standing minus the field's (may be negative when the standing and
//!   the rules disagree);
//! - P(current leader wins) at 5%, 10%, ..., 100% of the game: at turn ceil(f x L), the
//!   share of the leaders that are winners (1/k credit to each of k tied leaders).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::summary::Estimate;
use super::{WIN_UNIT, Z95, wilson};
use crate::engine::{MAX_SEATS, StandingTrace};

/// Fixed-point scale of per-game fractions (decisiveness, drama share, lead changes per 10
/// turns): each game's value is rounded to a multiple of 1/`MICRO` and summed as an integer.
pub const MICRO: i64 = 1_000_000;

/// Points of the P(current leader wins) curve: 5%, 10%, ..., 100% of the game played.
pub const LEADER_POINTS: usize = 20;

/// What one game's standings say about the winner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinnerFigures {
    /// Most the winner trailed the leader by (standing units, at least 0).
    pub drama: i64,
    /// That deficit over the leader's standing then (`None` when it was not positive).
    pub drama_share: Option<f64>,
    /// First turn from which the winner led to the end (L + 1 when it did not lead at the end).
    pub lead_from: u32,
    /// Share of the game played before that turn: (lead_from - 1) / L, at most 1.
    pub decisiveness: f64,
    /// Whether the winner stood below the field at the halfway turn.
    pub trailed_at_half: bool,
    /// The winner's final standing minus the field's.
    pub margin: i64,
    /// Winner credit of the leaders at each of the [`LEADER_POINTS`], in 1/[`WIN_UNIT`].
    pub leader_credit: [u64; LEADER_POINTS],
}

/// What one game's standings measure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameFigures {
    /// Turns L (rows after the deal).
    pub turns: u32,
    /// Changes of the set of leaders.
    pub lead_changes: u32,
    /// The winner's figures (`None` without a winner, with every seat winning, or with no turn).
    pub winner: Option<WinnerFigures>,
}

/// The seats of `row[..seats]` holding its highest value, as a bit set.
pub fn leaders(row: &[i64], seats: usize) -> u16 {
    let best = row[..seats].iter().copied().max().unwrap_or(0);
    (0..seats).filter(|&s| row[s] == best).fold(0u16, |m, s| m | 1 << s)
}

/// The best standing of the seats in `mask` (`i64::MIN` for none).
fn best_of(row: &[i64], seats: usize, mask: u16) -> i64 {
    (0..seats).filter(|&s| mask & (1 << s) != 0).map(|s| row[s]).max().unwrap_or(i64::MIN)
}

/// The figures of one game from its standings and its winners (the outcome's bit set).
pub fn figures(trace: &StandingTrace, winners: u16) -> GameFigures {
    let seats = trace.seats.min(MAX_SEATS);
    let all: u16 = if seats == 0 { 0 } else { ((1u32 << seats) - 1) as u16 };
    let turns = trace.turns();
    let rows = &trace.rows;
    let lead_changes = (2..=turns).filter(|&t| leaders(&rows[t], seats) != leaders(&rows[t - 1], seats)).count() as u32;
    let winners = winners & all;
    let field = all & !winners;
    let winner = (turns > 0 && winners != 0 && field != 0).then(|| {
        let (mut drama, mut drama_share) = (0i64, Some(0.0));
        let mut lead_from = turns + 1;
        for t in (1..=turns).rev() {
            if best_of(&rows[t], seats, winners) > best_of(&rows[t], seats, field) {
                lead_from = t;
            } else {
                break;
            }
        }
        for row in &rows[1..=turns] {
            let (w, f) = (best_of(row, seats, winners), best_of(row, seats, field));
            let deficit = f.saturating_sub(w);
            if deficit > drama {
                drama = deficit;
                drama_share = (f > 0).then(|| deficit as f64 / f as f64);
            }
        }
        let half = &rows[turns.div_ceil(2)];
        let last = &rows[turns];
        let mut leader_credit = [0u64; LEADER_POINTS];
        for (k, credit) in leader_credit.iter_mut().enumerate() {
            let t = ((k + 1) * turns).div_ceil(LEADER_POINTS).max(1);
            let lead = leaders(&rows[t], seats);
            *credit = WIN_UNIT * u64::from((lead & winners).count_ones()) / u64::from(lead.count_ones().max(1));
        }
        WinnerFigures {
            drama,
            drama_share,
            lead_from: lead_from as u32,
            decisiveness: ((lead_from - 1) as f64 / turns as f64).min(1.0),
            trailed_at_half: best_of(half, seats, winners) < best_of(half, seats, field),
            margin: best_of(last, seats, winners).saturating_sub(best_of(last, seats, field)),
            leader_credit,
        }
    });
    GameFigures { turns: turns as u32, lead_changes, winner }
}

/// A fraction as whole multiples of 1/[`MICRO`].
fn micro(x: f64) -> i64 {
    (x * MICRO as f64).round() as i64
}

/// Count, sum and sum of squares of integer values: exact, mergeable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct IntSums {
    /// Values counted.
    pub n: u64,
    /// Their sum.
    pub sum: i128,
    /// The sum of their squares.
    pub sq: i128,
}

impl IntSums {
    /// Counts one value.
    pub fn add(&mut self, x: i64) {
        let x = i128::from(x);
        self.n += 1;
        self.sum += x;
        self.sq += x * x;
    }

    /// Adds another set of sums.
    pub fn merge(&mut self, o: &IntSums) {
        self.n += o.n;
        self.sum += o.sum;
        self.sq += o.sq;
    }

    /// Mean and the half-width of its normal 95% interval, with values divided by `scale`.
    pub fn mean_half(&self, scale: f64) -> (f64, f64) {
        if self.n == 0 {
            return (f64::NAN, f64::NAN);
        }
        let n = self.n as f64;
        let mean = self.sum as f64 / n;
        let var = if self.n > 1 { ((self.sq as f64 - n * mean * mean) / (n - 1.0)).max(0.0) } else { 0.0 };
        (mean / scale, Z95 * (var / n).sqrt() / scale)
    }

    /// The mean with its 95% interval, values divided by `scale`.
    pub fn estimate(&self, scale: f64) -> Estimate {
        let (value, half) = self.mean_half(scale);
        Estimate { value, ci95: [value - half, value + half] }
    }
}

/// Sums of every seat's standing at one turn, over the games still running then.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TurnSums {
    /// Games that reached this turn.
    pub games: u64,
    /// Sum of each seat's standing.
    pub sum: [i128; MAX_SEATS],
    /// Sum of each seat's squared standing.
    pub sq: [i128; MAX_SEATS],
}

/// Running totals of the standing figures over games; `merge` adds another batch, in any
/// order, with the same result (every sum is an integer).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandingTally {
    /// Games counted.
    pub games: u64,
    /// Lead changes per game.
    pub lead_changes: IntSums,
    /// Lead changes per 10 turns per game, in 1/[`MICRO`] (games of at least one turn).
    pub lead_rate: IntSums,
    /// Drama per game with a winner (standing units).
    pub drama: IntSums,
    /// Drama share per game where it is defined, in 1/[`MICRO`].
    pub drama_share: IntSums,
    /// Decisiveness per game with a winner, in 1/[`MICRO`].
    pub decisiveness: IntSums,
    /// Games with a winner in which the winner trailed at the halfway turn.
    pub comebacks: u64,
    /// Games with a winner by final margin.
    pub margins: BTreeMap<i64, u64>,
    /// Margin per game with a winner.
    pub margin: IntSums,
    /// Winner credit of the leaders at each of the [`LEADER_POINTS`], in 1/[`WIN_UNIT`].
    pub leader_wins: Vec<u64>,
    /// Standing sums by turn (index = turn, 0 = after the deal).
    pub by_turn: Vec<TurnSums>,
    /// Games in which some seat's standing was below zero at some turn (then the drama
    /// share, a share of a standing that crosses zero, is absent).
    #[serde(default)]
    pub below_zero: u64,
}

impl StandingTally {
    /// Counts one game: its standings and its winners (the outcome's bit set).
    pub fn record(&mut self, trace: &StandingTrace, winners: u16) {
        let f = figures(trace, winners);
        self.add(&f);
        let seats = trace.seats.min(MAX_SEATS);
        self.below_zero += u64::from(trace.rows.iter().any(|row| row[..seats].iter().any(|&v| v < 0)));
        if self.by_turn.len() < trace.rows.len() {
            self.by_turn.resize(trace.rows.len(), TurnSums::default());
        }
        for (sums, row) in self.by_turn.iter_mut().zip(&trace.rows) {
            sums.games += 1;
            for (s, &v) in row.iter().enumerate().take(seats) {
                let x = i128::from(v);
                sums.sum[s] += x;
                sums.sq[s] += x * x;
            }
        }
    }

    /// Counts one game's figures (without its turn-by-turn sums).
    pub fn add(&mut self, f: &GameFigures) {
        self.games += 1;
        self.lead_changes.add(i64::from(f.lead_changes));
        if f.turns > 0 {
            self.lead_rate.add(micro(10.0 * f64::from(f.lead_changes) / f64::from(f.turns)));
        }
        if let Some(w) = &f.winner {
            self.drama.add(w.drama);
            if let Some(share) = w.drama_share {
                self.drama_share.add(micro(share));
            }
            self.decisiveness.add(micro(w.decisiveness));
            self.comebacks += u64::from(w.trailed_at_half);
            *self.margins.entry(w.margin).or_insert(0) += 1;
            self.margin.add(w.margin);
            if self.leader_wins.len() < LEADER_POINTS {
                self.leader_wins.resize(LEADER_POINTS, 0);
            }
            for (sum, c) in self.leader_wins.iter_mut().zip(w.leader_credit) {
                *sum += c;
            }
        }
    }

    /// Adds a later batch.
    pub fn merge(&mut self, o: &StandingTally) {
        self.games += o.games;
        self.lead_changes.merge(&o.lead_changes);
        self.lead_rate.merge(&o.lead_rate);
        self.drama.merge(&o.drama);
        self.drama_share.merge(&o.drama_share);
        self.decisiveness.merge(&o.decisiveness);
        self.comebacks += o.comebacks;
        self.below_zero += o.below_zero;
        for (m, c) in &o.margins {
            *self.margins.entry(*m).or_insert(0) += c;
        }
        self.margin.merge(&o.margin);
        if self.leader_wins.len() < o.leader_wins.len() {
            self.leader_wins.resize(o.leader_wins.len(), 0);
        }
        for (a, b) in self.leader_wins.iter_mut().zip(&o.leader_wins) {
            *a += b;
        }
        if self.by_turn.len() < o.by_turn.len() {
            self.by_turn.resize(o.by_turn.len(), TurnSums::default());
        }
        for (a, b) in self.by_turn.iter_mut().zip(&o.by_turn) {
            a.games += b.games;
            for s in 0..MAX_SEATS {
                a.sum[s] += b.sum[s];
                a.sq[s] += b.sq[s];
            }
        }
    }

    /// Games with a winner and a seat that did not win (the winner figures' denominator).
    pub fn decided(&self) -> u64 {
        self.drama.n
    }

    /// P(current leader wins) at 5%, 10%, ..., 100% of the game: (share played, value, 95% interval).
    pub fn leader_curve(&self) -> Vec<(f64, f64, (f64, f64))> {
        let n = self.decided();
        self.leader_wins
            .iter()
            .enumerate()
            .map(|(k, &units)| {
                let wins = units as f64 / WIN_UNIT as f64;
                ((k + 1) as f64 / LEADER_POINTS as f64, wins / n.max(1) as f64, wilson(wins, n))
            })
            .collect()
    }

    /// Mean standing of `seat` at each turn up to `horizon`, with the 95% interval of the mean,
    /// over the games still running then: (turn, mean, (low, high)).
    pub fn mean_by_turn(&self, seat: usize, horizon: usize) -> Vec<(f64, f64, (f64, f64))> {
        self.by_turn
            .iter()
            .take(horizon + 1)
            .enumerate()
            .filter(|(_, t)| t.games > 0)
            .map(|(turn, t)| {
                let s = IntSums { n: t.games, sum: t.sum[seat], sq: t.sq[seat] };
                let (mean, half) = s.mean_half(1.0);
                (turn as f64, mean, (mean - half, mean + half))
            })
            .collect()
    }

    /// The figures with their 95% intervals, in the game's `unit`.
    pub fn summary(&self, unit: &str) -> StandingSummary {
        let scale = MICRO as f64;
        let decided = self.decided();
        let comeback = self.comebacks as f64 / decided.max(1) as f64;
        let (lo, hi) = wilson(self.comebacks as f64, decided);
        StandingSummary {
            unit: unit.to_string(),
            games_with_winner: decided,
            lead_changes: self.lead_changes.estimate(1.0),
            lead_changes_per_10_turns: self.lead_rate.estimate(scale),
            drama: self.drama.estimate(1.0),
            drama_share: if self.below_zero > 0 { Estimate { value: f64::NAN, ci95: [f64::NAN, f64::NAN] } } else { self.drama_share.estimate(scale) },
            decisiveness: self.decisiveness.estimate(scale),
            comeback_rate: if decided == 0 { Estimate { value: f64::NAN, ci95: [f64::NAN, f64::NAN] } } else { Estimate { value: comeback, ci95: [lo, hi] } },
            margin: self.margin.estimate(1.0),
            median_margin: self.margin_quantile(0.5),
        }
    }

    /// The margin at quantile `q` (nearest rank; NaN without games).
    pub fn margin_quantile(&self, q: f64) -> f64 {
        let n = self.decided();
        if n == 0 {
            return f64::NAN;
        }
        let rank = ((q * n as f64).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for (&m, &c) in &self.margins {
            seen += c;
            if seen >= rank {
                return m as f64;
            }
        }
        f64::NAN
    }
}

/// The standing figures of a run with their 95% intervals (`summary.json` key `standing`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct StandingSummary {
    /// The game's standing unit (pennies, points, ...).
    pub unit: String,
    /// Games with a winner and a seat that did not win: the denominator of drama,
    /// decisiveness, comebacks and margin.
    pub games_with_winner: u64,
    /// Changes of the leading seat(s) per game.
    pub lead_changes: Estimate,
    /// Lead changes per 10 turns (rounds), per game.
    pub lead_changes_per_10_turns: Estimate,
    /// Most the eventual winner trailed the leader by (standing units).
    pub drama: Estimate,
    /// That deficit as a share of the leader's standing then (NaN, `null` in JSON, when some
    /// standing of the run was below zero: a share of a quantity that crosses zero).
    pub drama_share: Estimate,
    /// Share of the game played when the winner took the lead for good (0 = led throughout).
    pub decisiveness: Estimate,
    /// Share of games won by a seat that trailed at the halfway turn (Wilson interval).
    pub comeback_rate: Estimate,
    /// Winner's final standing minus the best other seat's (standing units).
    pub margin: Estimate,
    /// Median margin.
    pub median_margin: f64,
}

impl StandingSummary {
    /// The standing figures in the designer's catalogue order (lead changes, per 10 turns,
    /// drama, drama share, decisiveness, comeback rate, margin).
    pub fn estimates(&self) -> [&Estimate; 7] {
        [&self.lead_changes, &self.lead_changes_per_10_turns, &self.drama, &self.drama_share, &self.decisiveness, &self.comeback_rate, &self.margin]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(rows: &[[i64; 3]]) -> StandingTrace {
        StandingTrace::from_rows(
            3,
            rows.iter()
                .map(|r| {
                    let mut full = [0i64; MAX_SEATS];
                    full[..3].copy_from_slice(r);
                    full
                })
                .collect(),
        )
    }

    /// A game built by hand: 3 seats, 8 turns, seat 2 wins.
    /// turn: 0 [0,0,0] deal
    ///       1 [2,0,0] leaders {0}
    ///       2 [2,3,0] {1}        change 1
    ///       3 [2,3,3] {1,2}      change 2 (a tie changes the set)
    ///       4 [5,3,3] {0}        change 3
    ///       5 [5,3,3] {0}
    ///       6 [5,4,6] {2}        change 4
    ///       7 [6,4,7] {2}
    ///       8 [6,4,9] {2}
    fn built() -> StandingTrace {
        trace(&[[0, 0, 0], [2, 0, 0], [2, 3, 0], [2, 3, 3], [5, 3, 3], [5, 3, 3], [5, 4, 6], [6, 4, 7], [6, 4, 9]])
    }

    #[test]
    fn a_built_game_gives_the_hand_computed_figures() {
        let f = figures(&built(), 0b100);
        assert_eq!(f.turns, 8);
        assert_eq!(f.lead_changes, 4);
        let w = f.winner.expect("seat 2 won");
        // Deficits by turn: 2, 3, 0, 2, 2, then ahead: the worst is 3 at turn 2, where the
        // leader (seat 1) stands at 3.
        assert_eq!(w.drama, 3);
        assert_eq!(w.drama_share, Some(1.0));
        // Seat 2 leads alone from turn 6 to the end: (6 - 1) / 8.
        assert_eq!(w.lead_from, 6);
        assert_eq!(w.decisiveness, 5.0 / 8.0);
        // Halfway turn 4: seat 2 has 3, the field 5.
        assert!(w.trailed_at_half);
        assert_eq!(w.margin, 9 - 6);
        // 20 points at turns ceil(8k/20): k=1,2 -> turn 1 ({0}: 0), k=3 -> 2 ({1}: 0), k=4,5 -> 2
        // ({1}), k=6,7 -> 3 ({1,2}: 1/2), k=8,9,10 -> 4 ({0}), k=11,12 -> 5 and 5 ({0}),
        // k=13..20 -> turns 6..8 ({2}: 1).
        let turns: Vec<usize> = (1..=20).map(|k: usize| (k * 8).div_ceil(20)).collect();
        assert_eq!(turns, vec![1, 1, 2, 2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 6, 6, 7, 7, 8, 8, 8]);
        let expected: Vec<u64> = turns
            .iter()
            .map(|&t| {
                if t == 3 {
                    WIN_UNIT / 2
                } else if t >= 6 {
                    WIN_UNIT
                } else {
                    0
                }
            })
            .collect();
        assert_eq!(w.leader_credit.to_vec(), expected);
    }

    #[test]
    fn a_winner_leading_throughout_has_decisiveness_zero_and_no_drama() {
        let f = figures(&trace(&[[0, 0, 0], [1, 0, 0], [3, 1, 2], [4, 1, 2]]), 0b001);
        assert_eq!(f.lead_changes, 0);
        let w = f.winner.unwrap();
        assert_eq!((w.drama, w.drama_share, w.lead_from, w.decisiveness, w.trailed_at_half, w.margin), (0, Some(0.0), 1, 0.0, false, 2));
    }

    #[test]
    fn a_winner_not_leading_at_the_end_scores_one_and_a_shared_win_is_one_winner() {
        // The rules give the win to seat 1 although seat 0 stands higher at the end.
        let w = figures(&trace(&[[0, 0, 0], [1, 0, 0], [2, 1, 0]]), 0b010).winner.unwrap();
        assert_eq!((w.lead_from, w.decisiveness, w.margin), (3, 1.0, -1));
        // Seats 0 and 1 share the win, tied on top: they lead together, margin to seat 2.
        let f = figures(&trace(&[[0, 0, 0], [1, 1, 0], [2, 2, 1]]), 0b011);
        let w = f.winner.unwrap();
        assert_eq!((f.lead_changes, w.lead_from, w.margin, w.leader_credit[19]), (0, 1, 1, WIN_UNIT));
        // Nobody won, or everybody: no winner figures.
        assert!(figures(&built(), 0).winner.is_none());
        assert!(figures(&built(), 0b111).winner.is_none());
    }

    #[test]
    fn the_tally_averages_games_and_merges_exactly_in_any_order() {
        let games: Vec<(StandingTrace, u16)> = (0..30)
            .map(|i| {
                let t = if i % 3 == 0 { built() } else { trace(&[[0, 0, 0], [1, 0, i % 4], [3, 1, 2], [4, 1, 2 + i % 5]]) };
                (t, if i % 7 == 0 { 0 } else { 1 << (i % 3) })
            })
            .collect();
        let mut one = StandingTally::default();
        for (t, w) in &games {
            one.record(t, *w);
        }
        let mut parts = vec![StandingTally::default(); 4];
        for (i, (t, w)) in games.iter().enumerate() {
            parts[i % 4].record(t, *w);
        }
        let mut merged = StandingTally::default();
        for p in parts.iter().rev() {
            merged.merge(p);
        }
        assert_eq!(one, merged);
        let back: StandingTally = serde_json::from_str(&serde_json::to_string(&one).unwrap()).unwrap();
        assert_eq!(one, back);
        assert_eq!(one.games, 30);
        assert_eq!(one.by_turn[0].games, 30);
        assert_eq!(one.by_turn[8].games, 10);
    }

    #[test]
    fn the_summary_of_one_built_game_is_its_figures() {
        let mut t = StandingTally::default();
        t.record(&built(), 0b100);
        let s = t.summary("points");
        assert_eq!(s.lead_changes.value, 4.0);
        assert_eq!(s.lead_changes_per_10_turns.value, 5.0);
        assert_eq!(s.drama.value, 3.0);
        assert_eq!(s.drama_share.value, 1.0);
        assert_eq!(s.decisiveness.value, 0.625);
        assert_eq!(s.comeback_rate.value, 1.0);
        assert_eq!((s.margin.value, s.median_margin), (3.0, 3.0));
        let mean = t.mean_by_turn(2, 100);
        assert_eq!(mean.len(), 9);
        assert_eq!(mean[8].1, 9.0);
    }
}
