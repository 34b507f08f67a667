//! Statistics over many games, aggregated as they are played (constant memory) and merged
//! in game order so the numbers do not depend on the thread count: game length, end
//! reasons, seat win shares with Wilson 95% intervals (every interval method is in
//! [`interval`]), the chi-square seat-fairness test,
//! eliminations and the survival curve.
//!
//! Every sum is exact (integers; win credit in units of 1/[`WIN_UNIT`]), so tallies merge to
//! bit-identical numbers in any order: that is what lets sharded runs (`--shard K/N`) be merged
//! into exactly the figures of one unsharded run.

pub mod counts;
pub mod estimate;
pub mod format;
pub mod interval;
pub mod moments;
pub mod ratings;
pub mod ratio;
pub mod rotation;
pub mod standing;
pub mod summary;
pub mod teams;

use serde::{Deserialize, Serialize};

use crate::engine::{MAX_SEATS, Outcome};

pub use interval::{Z95, wilson, wilson_percent};
pub use standing::{StandingSummary, StandingTally};
pub use summary::{LengthSummary, SeatSummary, Summary};

/// p-value of Pearson's chi-square test that every seat wins equally often (among the games
/// that have a winner: the expected count is the seats' total win credit split evenly).
pub fn seat_fairness_p(wins: &[f64]) -> f64 {
    seat_fairness_p_blocked(wins, 1.0)
}

/// [`seat_fairness_p`] with the chi-square divided by the design effect `deff` of a rotated
/// run (see [`interval::rao_scott_p`]); `deff = 1` is the plain test.
pub fn seat_fairness_p_blocked(wins: &[f64], deff: f64) -> f64 {
    let total: f64 = wins.iter().sum();
    let k = wins.len();
    if k < 2 || total <= 0.0 {
        return 1.0;
    }
    let expected = total / k as f64;
    let chi2: f64 = wins.iter().map(|w| (w - expected).powi(2) / expected).sum();
    if deff == 1.0 {
        return puruspe::gammq((k as f64 - 1.0) / 2.0, chi2 / 2.0);
    }
    interval::rao_scott_p(chi2, k as f64 - 1.0, deff)
}

/// Win credit is counted in units of 1/840 of a win: 840 = lcm(1..=8), so the 1/k credit of
/// a k-way tie among up to [`MAX_SEATS`] seats is a whole number of units.
pub const WIN_UNIT: u64 = 840;

/// Win credit of each of `k` tied winners (index `k`; 0 counts as 1), in units of 1/[`WIN_UNIT`]:
/// a table, so the per-game path needs no division.
const CREDIT: [u64; 17] = {
    let mut table = [0; 17];
    let mut k = 0;
    while k < 17 {
        table[k] = WIN_UNIT / if k == 0 { 1 } else { k as u64 };
        k += 1;
    }
    table
};

/// Running totals over games; `merge` adds another batch, in any order, with the same result.
///
/// The `f64` fields (`wins`, `score_sum`, `score_sq`) are read-only views of exact integer
/// sums, kept up to date by `add` and `merge`; only the exact sums are saved (`Serialize`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "TallyState", into = "TallyState")]
pub struct Tally {
    /// Games counted.
    pub games: u64,
    /// Number of games of each length (index = length).
    pub lengths: Vec<u64>,
    /// Games per end reason.
    pub end_reasons: Vec<u64>,
    /// Sum of win credit per seat (1/k for a k-way tie).
    pub wins: [f64; MAX_SEATS],
    /// Games each seat was eliminated in.
    pub eliminated: [u64; MAX_SEATS],
    /// Sum of final scores per seat.
    pub score_sum: [f64; MAX_SEATS],
    /// Sum of squared final scores per seat.
    pub score_sq: [f64; MAX_SEATS],
    /// Eliminations by turn (all seats), index = turn.
    pub eliminations_by_turn: Vec<u64>,
    /// Games with at least one elimination.
    pub games_with_elimination: u64,
    /// Games won by several seats.
    pub shared_wins: u64,
    /// Exact win credit per seat in units of 1/[`WIN_UNIT`].
    win_units: [u64; MAX_SEATS],
    /// Exact sum of final scores per seat.
    score_total: [i128; MAX_SEATS],
    /// Exact sum of squared final scores per seat.
    score_sq_total: [i128; MAX_SEATS],
    /// A team game's own sums ([`teams::TeamTally`]; empty when the seats play alone).
    pub teams: teams::TeamTally,
}

/// What a [`Tally`] saves: its exact sums only (the `f64` views are rebuilt on load).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TallyState {
    games: u64,
    lengths: Vec<u64>,
    end_reasons: Vec<u64>,
    win_units: [u64; MAX_SEATS],
    eliminated: [u64; MAX_SEATS],
    score_total: [i128; MAX_SEATS],
    score_sq_total: [i128; MAX_SEATS],
    eliminations_by_turn: Vec<u64>,
    games_with_elimination: u64,
    shared_wins: u64,
    #[serde(default, skip_serializing_if = "teams::TeamTally::is_empty")]
    teams: teams::TeamTally,
}

impl From<Tally> for TallyState {
    fn from(t: Tally) -> Self {
        TallyState {
            games: t.games,
            lengths: t.lengths,
            end_reasons: t.end_reasons,
            win_units: t.win_units,
            eliminated: t.eliminated,
            score_total: t.score_total,
            score_sq_total: t.score_sq_total,
            eliminations_by_turn: t.eliminations_by_turn,
            games_with_elimination: t.games_with_elimination,
            shared_wins: t.shared_wins,
            teams: t.teams,
        }
    }
}

impl From<TallyState> for Tally {
    fn from(s: TallyState) -> Self {
        let mut t = Tally {
            games: s.games,
            lengths: s.lengths,
            end_reasons: s.end_reasons,
            eliminated: s.eliminated,
            eliminations_by_turn: s.eliminations_by_turn,
            games_with_elimination: s.games_with_elimination,
            shared_wins: s.shared_wins,
            win_units: s.win_units,
            score_total: s.score_total,
            score_sq_total: s.score_sq_total,
            teams: s.teams,
            ..Tally::default()
        };
        for seat in 0..MAX_SEATS {
            t.refresh(seat);
        }
        t
    }
}

impl Tally {
    /// Counts one game.
    pub fn add(&mut self, o: &Outcome, seats: usize, reasons: usize) {
        self.record(o, seats, reasons);
        self.refresh_views();
    }

    /// As [`Tally::add`] without rebuilding the `f64` views: the simulator's per-game path,
    /// which calls [`Tally::refresh_views`] once per batch instead.
    #[inline]
    pub fn record(&mut self, o: &Outcome, seats: usize, reasons: usize) {
        self.games += 1;
        let len = o.length as usize;
        if self.lengths.len() <= len {
            self.lengths.resize(len + 1, 0);
        }
        self.lengths[len] += 1;
        if self.end_reasons.len() < reasons {
            self.end_reasons.resize(reasons, 0);
        }
        self.end_reasons[o.end_reason as usize] += 1;
        let k = o.winner_count();
        self.shared_wins += u64::from(k > 1);
        let credit = CREDIT[k as usize];
        let mut any = false;
        // Without a branch on who won (a coin flip per seat for the predictor): the credit is
        // masked by the seat's winner bit.
        for s in 0..seats.min(MAX_SEATS) {
            let won = u64::from((o.winners >> s) & 1);
            self.win_units[s] += credit & won.wrapping_neg();
            let score = i128::from(o.scores[s]);
            self.score_total[s] += score;
            self.score_sq_total[s] += score * score;
            let t = o.eliminated_at[s] as usize;
            if t > 0 {
                any = true;
                self.eliminated[s] += 1;
                if self.eliminations_by_turn.len() <= t {
                    self.eliminations_by_turn.resize(t + 1, 0);
                }
                self.eliminations_by_turn[t] += 1;
            }
        }
        self.games_with_elimination += u64::from(any);
    }

    /// Counts one game's team sums (a team game: `teams` holds each team's seats; call it
    /// beside [`Tally::record`] for every game, or never).
    #[inline]
    pub fn record_teams(&mut self, o: &Outcome, teams: &[Vec<usize>]) {
        if teams.len() >= 2 {
            self.teams.record(o, teams);
        }
    }

    /// Adds a later batch.
    pub fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        add_vec(&mut self.lengths, &other.lengths);
        add_vec(&mut self.end_reasons, &other.end_reasons);
        add_vec(&mut self.eliminations_by_turn, &other.eliminations_by_turn);
        for s in 0..MAX_SEATS {
            self.win_units[s] += other.win_units[s];
            self.eliminated[s] += other.eliminated[s];
            self.score_total[s] += other.score_total[s];
            self.score_sq_total[s] += other.score_sq_total[s];
            self.refresh(s);
        }
        self.games_with_elimination += other.games_with_elimination;
        self.shared_wins += other.shared_wins;
        self.teams.merge(&other.teams);
    }

    /// Exact win credit of `seat` in units of 1/[`WIN_UNIT`].
    pub fn win_units(&self, seat: usize) -> u64 {
        self.win_units[seat]
    }

    /// Rebuilds the `f64` views of every seat from the exact sums.
    pub fn refresh_views(&mut self) {
        for s in 0..MAX_SEATS {
            self.refresh(s);
        }
    }

    /// Rebuilds the `f64` views of `seat` from the exact sums.
    fn refresh(&mut self, seat: usize) {
        self.wins[seat] = self.win_units[seat] as f64 / WIN_UNIT as f64;
        self.score_sum[seat] = self.score_total[seat] as f64;
        self.score_sq[seat] = self.score_sq_total[seat] as f64;
    }

    /// The length at quantile `q` (nearest rank over the histogram).
    pub fn length_quantile(&self, q: f64) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        let rank = ((q * self.games as f64).ceil() as u64).clamp(1, self.games);
        let mut seen = 0;
        for (len, &count) in self.lengths.iter().enumerate() {
            seen += count;
            if seen >= rank {
                return len as f64;
            }
        }
        (self.lengths.len().saturating_sub(1)) as f64
    }

    /// Mean and standard deviation of the length.
    pub fn length_mean_sd(&self) -> (f64, f64) {
        if self.games == 0 {
            return (0.0, 0.0);
        }
        let n = self.games as f64;
        let (mut s, mut s2) = (0.0, 0.0);
        for (len, &c) in self.lengths.iter().enumerate() {
            s += len as f64 * c as f64;
            s2 += (len as f64).powi(2) * c as f64;
        }
        let mean = s / n;
        let var = if self.games > 1 { ((s2 - n * mean * mean) / (n - 1.0)).max(0.0) } else { 0.0 };
        (mean, var.sqrt())
    }

    /// Share of players still in the game after each turn (index = turn).
    pub fn survival(&self, seats: usize, horizon: usize) -> Vec<f64> {
        let players = (self.games * seats as u64).max(1) as f64;
        let mut gone = 0u64;
        (0..=horizon)
            .map(|t| {
                gone += self.eliminations_by_turn.get(t).copied().unwrap_or(0);
                1.0 - gone as f64 / players
            })
            .collect()
    }
}

fn add_vec(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fair_seats_have_a_high_p_and_skewed_seats_a_low_one() {
        assert!(seat_fairness_p(&[250.0, 250.0, 250.0, 250.0]) > 0.99);
        // chi2 = 20 with 3 df: p ~ 1.7e-4.
        let p = seat_fairness_p(&[300.0, 250.0, 200.0, 250.0]);
        assert!((1.0e-4..2.5e-4).contains(&p), "{p}");
        // chi2 = 7.815 is the 95% point of 3 df.
        let p = puruspe::gammq(1.5, 7.815 / 2.0);
        assert!((p - 0.05).abs() < 1e-3, "{p}");
    }

    #[test]
    fn quantiles_come_from_the_histogram() {
        let mut t = Tally::default();
        for len in 1..=100u32 {
            let mut o = Outcome::new();
            o.length = len;
            o.winners = 1;
            t.add(&o, 2, 1);
        }
        assert_eq!(t.length_quantile(0.5), 50.0);
        assert_eq!(t.length_quantile(0.05), 5.0);
        assert_eq!(t.length_quantile(0.95), 95.0);
        let (mean, _) = t.length_mean_sd();
        assert!((mean - 50.5).abs() < 1e-12);
    }

    fn outcome(winners: u16, scores: [i64; 3]) -> Outcome {
        let mut o = Outcome::new();
        o.length = 7;
        o.winners = winners;
        o.scores[..3].copy_from_slice(&scores);
        o
    }

    #[test]
    fn merging_in_any_order_gives_identical_tallies() {
        // Three-way ties give 1/3 credits, which f64 sums would round differently by order.
        let games: Vec<Outcome> = (0..300).map(|i| outcome(if i % 3 == 0 { 0b111 } else { 1 << (i % 3) }, [i, -i, 3 * i])).collect();
        let mut forward = Tally::default();
        for o in &games {
            forward.add(o, 3, 1);
        }
        let mut parts = [Tally::default(), Tally::default(), Tally::default(), Tally::default()];
        for (i, o) in games.iter().enumerate() {
            parts[i % 4].add(o, 3, 1);
        }
        let mut backward = Tally::default();
        for p in parts.iter().rev() {
            backward.merge(p);
        }
        assert_eq!(forward, backward);
        assert_eq!(forward.win_units(0), 100 * WIN_UNIT / 3);
        assert_eq!(forward.wins[0], (100 * WIN_UNIT / 3) as f64 / WIN_UNIT as f64);
    }

    #[test]
    fn a_tally_survives_a_json_round_trip() {
        let mut t = Tally::default();
        for i in 0..50 {
            let mut o = outcome(if i % 2 == 0 { 0b011 } else { 0b100 }, [i, 2 * i, -7]);
            o.eliminated_at[1] = (i % 5) as u32;
            t.add(&o, 3, 2);
        }
        let text = serde_json::to_string(&t).unwrap();
        let back: Tally = serde_json::from_str(&text).unwrap();
        assert_eq!(t, back);
    }
}
