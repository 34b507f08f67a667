//! Seat rotation (`--rotate`): games come in blocks of one game per acting seat, all played
//! from the block's seed, with the line-up turned by one seat each game, so every bot sits
//! in every seat equally often on the same deals. Two figures then separate what a single
//! line-up confuses: the win share **per seat** with the bots averaged out (the seat-order
//! effect) and **per bot** with the seats averaged out (bot strength), each with a 95%
//! interval in which the block is the unit (its games share a deal, so they are not
//! independent). Sums are integers in [`WIN_UNIT`]s: exact and independent of threads.

use serde::Serialize;

use super::WIN_UNIT;
use super::estimate::Estimate;
use super::interval::{Z95, wilson_clustered};
use crate::engine::{MAX_SEATS, Outcome};

/// Running sums of a rotated run, fed one game at a time in game order.
#[derive(Clone, Debug)]
pub struct RotationTally {
    /// Acting seats (the block length).
    acting: usize,
    /// Scored seats (dummies included).
    scored: usize,
    /// Distinct bot labels, in order of first seat.
    labels: Vec<String>,
    /// Per line-up position (the bot first at seat k), its label index.
    label_of: Vec<usize>,
    /// Line-up positions per label.
    copies: Vec<u64>,
    blocks: u64,
    in_block: usize,
    block_seat: [u64; MAX_SEATS],
    block_bot: Vec<u64>,
    seat_sum: [u64; MAX_SEATS],
    seat_sq: [u128; MAX_SEATS],
    bot_sum: Vec<u64>,
    bot_sq: Vec<u128>,
    /// Per block, seat 0's win credit minus the acting seats' mean, times acting (exact).
    fpa_sum: i64,
    fpa_sq: u128,
    /// A team game's team of each seat (empty when every seat plays alone): a bot's win
    /// credit and the first-player advantage are then its team's.
    team_of: Vec<usize>,
    /// Number of teams.
    teams: usize,
    /// Per block, team credit of each seat (a team game only).
    block_team_seat: [u64; MAX_SEATS],
}

/// Which bot sits at `seat` in the game of rotation `turn`: the line-up position whose bot
/// started at seat `seat - turn` (bot k moves to seat k + turn).
#[inline]
pub fn bot_at(seat: usize, turn: usize, acting: usize) -> usize {
    (seat + acting - turn % acting) % acting
}

impl RotationTally {
    /// Sums for a line-up of `labels` (one per acting seat) on a game of `scored` seats.
    pub fn new(labels: &[String], scored: usize) -> Self {
        let mut distinct: Vec<String> = Vec::new();
        let label_of: Vec<usize> = labels
            .iter()
            .map(|l| {
                distinct.iter().position(|d| d == l).unwrap_or_else(|| {
                    distinct.push(l.clone());
                    distinct.len() - 1
                })
            })
            .collect();
        let mut copies = vec![0; distinct.len()];
        for &i in &label_of {
            copies[i] += 1;
        }
        let n = distinct.len();
        RotationTally {
            acting: labels.len(),
            scored,
            labels: distinct,
            label_of,
            copies,
            blocks: 0,
            in_block: 0,
            block_seat: [0; MAX_SEATS],
            block_bot: vec![0; n],
            seat_sum: [0; MAX_SEATS],
            seat_sq: [0; MAX_SEATS],
            bot_sum: vec![0; n],
            bot_sq: vec![0; n],
            fpa_sum: 0,
            fpa_sq: 0,
            team_of: Vec::new(),
            teams: 0,
            block_team_seat: [0; MAX_SEATS],
        }
    }

    /// The sums of a team game played in `teams` (each team's seats; fewer than two leaves
    /// the seats playing alone): a bot is credited with its team's wins (a win shared by k
    /// teams counts 1/k), so its win share is its team's, fair at 1/teams, and the
    /// first-player advantage is the first mover's team's. The per-seat sums stay per seat.
    pub fn with_teams(mut self, teams: &[Vec<usize>]) -> Self {
        if teams.len() >= 2 {
            self.team_of = (0..self.scored).map(|s| teams.iter().position(|t| t.contains(&s)).unwrap_or(usize::MAX)).collect();
            self.teams = teams.len();
        }
        self
    }

    /// Adds the next game (rotation `turn` of its block), in game order.
    pub fn record(&mut self, outcome: &Outcome, turn: usize) {
        let k = outcome.winner_count() as u64;
        for seat in 0..self.scored {
            if k > 0 && outcome.winners & (1 << seat) != 0 {
                let units = WIN_UNIT / k;
                self.block_seat[seat] += units;
                if seat < self.acting && self.teams < 2 {
                    self.block_bot[self.label_of[bot_at(seat, turn, self.acting)]] += units;
                }
            }
        }
        if self.teams >= 2 {
            // Each seat of a winning team gets its team's credit (1/k of k winning teams).
            let won: u32 =
                (0..self.scored).filter(|&s| outcome.winners & (1 << s) != 0 && self.team_of[s] < self.teams).fold(0, |m, s| m | (1 << self.team_of[s]));
            let winning = u64::from(won.count_ones());
            for seat in 0..self.scored {
                let team = self.team_of[seat];
                if winning > 0 && team < self.teams && won & (1 << team) != 0 {
                    let units = WIN_UNIT / winning;
                    self.block_team_seat[seat] += units;
                    if seat < self.acting {
                        self.block_bot[self.label_of[bot_at(seat, turn, self.acting)]] += units;
                    }
                }
            }
        }
        self.in_block += 1;
        if self.in_block == self.acting {
            let team = std::mem::take(&mut self.block_team_seat);
            // In a team game: the first mover's team's credit against the mean over teams,
            // times acting (seats and teams equal in size, as every team game's are).
            let block = if self.teams >= 2 { &team } else { &self.block_seat };
            let acting: u64 = block[..self.acting].iter().sum();
            let d = self.acting as i64 * block[0] as i64 - acting as i64;
            self.fpa_sum += d;
            self.fpa_sq += d.unsigned_abs() as u128 * d.unsigned_abs() as u128;
            for seat in 0..self.scored {
                let v = std::mem::take(&mut self.block_seat[seat]);
                self.seat_sum[seat] += v;
                self.seat_sq[seat] += v as u128 * v as u128;
            }
            for (i, v) in self.block_bot.iter_mut().enumerate() {
                let v = std::mem::take(v);
                self.bot_sum[i] += v;
                self.bot_sq[i] += v as u128 * v as u128;
            }
            self.blocks += 1;
            self.in_block = 0;
        }
    }

    /// Complete blocks counted.
    pub fn blocks(&self) -> u64 {
        self.blocks
    }

    /// The per-seat and per-bot figures with their intervals.
    pub fn summary(&self) -> RotationSummary {
        // A block value is a mean share: units / (games in the block x WIN_UNIT), and for a
        // bot also / its copies in the line-up.
        let per_block = (self.acting as u64 * WIN_UNIT) as f64;
        let games = self.blocks * self.acting as u64;
        let seats: Vec<RotatedShare> =
            (0..self.scored).map(|seat| estimate(&format!("seat {seat}"), (self.seat_sum[seat], self.seat_sq[seat]), self.blocks, per_block, games)).collect();
        let bots = (0..self.labels.len())
            .map(|i| {
                let e = estimate(&self.labels[i], (self.bot_sum[i], self.bot_sq[i]), self.blocks, per_block * self.copies[i] as f64, games * self.copies[i]);
                // One bot in every seat: its share is the seats' total over the seats, the
                // same in every block (1/seats when every game has a winner).
                let same = self.blocks > 0 && u128::from(self.bot_sum[i]) * u128::from(self.bot_sum[i]) == self.bot_sq[i] * u128::from(self.blocks);
                if self.copies[i] == self.acting as u64 && same { RotatedShare { ci95: [e.win_share; 2], constant: true, ..e } } else { e }
            })
            .collect();
        // Seat 0 minus the acting seats' mean, per block: mean +- z sd / sqrt(blocks).
        let scale = per_block * self.acting as f64;
        let first_player_advantage = if self.blocks == 0 {
            Estimate { value: f64::NAN, ci95: [f64::NAN, f64::NAN] }
        } else {
            let n = self.blocks as f64;
            let mean = self.fpa_sum as f64 / n;
            let var = if self.blocks > 1 { ((self.fpa_sq as f64 - self.fpa_sum as f64 * mean) / (n - 1.0)).max(0.0) } else { 0.0 };
            let half = Z95 * (var / n).sqrt();
            Estimate { value: mean / scale, ci95: [(mean - half) / scale, (mean + half) / scale] }
        };
        // Rao-Scott: the mean design effect of the acting seats' shares.
        let effects: Vec<f64> = (0..self.acting)
            .filter_map(|seat| {
                let p = seats[seat].win_share;
                let var = block_variance((self.seat_sum[seat], self.seat_sq[seat]), self.blocks) / (per_block * per_block) / self.blocks as f64;
                (p > 0.0 && p < 1.0 && games > 0).then(|| var / (p * (1.0 - p) / games as f64))
            })
            .collect();
        let design_effect = if effects.is_empty() { 1.0 } else { effects.iter().sum::<f64>() / effects.len() as f64 };
        RotationSummary { blocks: self.blocks, games_per_block: self.acting as u64, seats, bots, first_player_advantage, design_effect, teams: self.teams >= 2 }
    }
}

/// Sample variance of the block values with `(sum, sum of squares)` over `blocks`.
fn block_variance((sum, sq): (u64, u128), blocks: u64) -> f64 {
    if blocks < 2 {
        return 0.0;
    }
    let n = blocks as f64;
    let mean = sum as f64 / n;
    ((sq as f64 - sum as f64 * mean) / (n - 1.0)).max(0.0)
}

/// Mean of the block values sum/scale with Wilson's interval at the design-effect sample
/// size ([`wilson_clustered`]): the blocks are the unit, and a share of 0% or 100% still has
/// an interval of some width.
fn estimate(name: &str, (sum, sq): (u64, u128), blocks: u64, scale: f64, games: u64) -> RotatedShare {
    if blocks == 0 {
        return RotatedShare { name: name.to_string(), win_share: f64::NAN, ci95: [f64::NAN, f64::NAN], constant: false };
    }
    let n = blocks as f64;
    let share = sum as f64 / n / scale;
    let var_of_mean = block_variance((sum, sq), blocks) / (scale * scale) / n;
    let (lo, hi) = wilson_clustered(share, var_of_mean, blocks, games);
    RotatedShare { name: name.to_string(), win_share: share, ci95: [lo, hi], constant: false }
}

/// One figure of a rotated run.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RotatedShare {
    /// `seat k`, or the bot's spec.
    pub name: String,
    /// Mean win share (ties shared).
    pub win_share: f64,
    /// 95% interval, blocks as the unit (the value itself for a constant).
    pub ci95: [f64; 2],
    /// Constant by construction: one bot holds every seat, so its share is the same in
    /// every block and has no interval.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub constant: bool,
}

/// What a rotated run reports beside the ordinary summary.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RotationSummary {
    /// Complete blocks (the unit of every interval).
    pub blocks: u64,
    /// Games per block (one per acting seat).
    pub games_per_block: u64,
    /// Per seat, bots averaged out: the seat-order effect.
    pub seats: Vec<RotatedShare>,
    /// Per bot (distinct spec, copies pooled), seats averaged out: bot strength.
    pub bots: Vec<RotatedShare>,
    /// Seat 0's win share minus the acting seats' mean, with the normal 95% interval over
    /// blocks (used when the fair share is estimated; see `Summary::with_rotation`).
    pub first_player_advantage: Estimate,
    /// The acting seats' mean design effect (variance over blocks / variance over independent
    /// games): the seat-fairness chi-square of a rotated run is divided by it (Rao-Scott).
    pub design_effect: f64,
    /// A team game: each bot's share is its team's win share (fair at 1/teams) and the
    /// first-player advantage the first mover's team's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub teams: bool,
}

impl RotationSummary {
    /// The two tables as text for the terminal.
    pub fn table(&self) -> String {
        let mut out =
            format!("rotated: {} blocks of {} games (every bot in every seat on the same deals); 95% CIs over blocks\n", self.blocks, self.games_per_block);
        out.push_str(if self.teams {
            "  by seat (bots averaged out)         by bot: its team's win share (seats averaged out)\n"
        } else {
            "  by seat (bots averaged out)         by bot (seats averaged out)\n"
        });
        let rows = self.seats.len().max(self.bots.len());
        for i in 0..rows {
            let cell = |f: Option<&RotatedShare>| {
                f.map_or(String::new(), |f| {
                    let ci = if f.constant { "constant by construction".to_string() } else { super::format::share_ci(f.ci95[0], f.ci95[1]) };
                    format!("{:<12} {:>6.2}% ({ci})", f.name, 100.0 * f.win_share)
                })
            };
            out.push_str(&format!("  {:<44} {}\n", cell(self.seats.get(i)), cell(self.bots.get(i))));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn won_by(seat: usize) -> Outcome {
        Outcome { winners: 1 << seat, ..Outcome::new() }
    }

    #[test]
    fn a_bot_that_always_wins_and_a_seat_that_always_wins_are_told_apart() {
        // Bot "strong" (line-up position 0) wins every game wherever it sits.
        let labels = vec!["strong".to_string(), "weak".to_string(), "weak".to_string()];
        let mut t = RotationTally::new(&labels, 3);
        for _ in 0..10 {
            for turn in 0..3 {
                let seat_of_strong = (0..3).find(|&s| bot_at(s, turn, 3) == 0).unwrap();
                t.record(&won_by(seat_of_strong), turn);
            }
        }
        let s = t.summary();
        assert_eq!(s.blocks, 10);
        for seat in &s.seats {
            assert!((seat.win_share - 1.0 / 3.0).abs() < 1e-12, "{seat:?}");
        }
        assert_eq!(s.bots[0].win_share, 1.0);
        assert_eq!(s.bots[1].win_share, 0.0);
        // Seat 0 always wins, whoever sits there.
        let mut t = RotationTally::new(&labels, 3);
        for _ in 0..10 {
            for turn in 0..3 {
                t.record(&won_by(0), turn);
            }
        }
        let s = t.summary();
        assert_eq!(s.seats[0].win_share, 1.0);
        assert!((s.bots[0].win_share - 1.0 / 3.0).abs() < 1e-12);
        assert!((s.bots[1].win_share - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn intervals_of_few_blocks_stay_within_zero_and_one() {
        // The first bot wins 2 of 3 blocks outright and none of the third: a normal interval
        // over 3 blocks would reach past 100%.
        let labels = vec!["a".to_string(), "b".to_string()];
        let mut t = RotationTally::new(&labels, 2);
        for block in 0..3 {
            for turn in 0..2 {
                let seat_of_a = (0..2).find(|&s| bot_at(s, turn, 2) == 0).unwrap();
                t.record(&won_by(if block < 2 { seat_of_a } else { 1 - seat_of_a }), turn);
            }
        }
        let s = t.summary();
        for f in s.bots.iter().chain(&s.seats) {
            assert!(0.0 <= f.ci95[0] && f.ci95[0] <= f.win_share && f.win_share <= f.ci95[1] && f.ci95[1] <= 1.0, "{f:?}");
        }
        // Wilson at the design-effect sample size: width at the ends too.
        let one = RotationTally::new(&labels, 2);
        let mut one = one;
        for _ in 0..3 {
            for turn in 0..2 {
                one.record(&won_by((0..2).find(|&s| bot_at(s, turn, 2) == 0).unwrap()), turn);
            }
        }
        let s = one.summary();
        assert_eq!(s.bots[0].win_share, 1.0);
        assert!(s.bots[0].ci95[0] < 1.0 && s.bots[1].ci95[1] > 0.0, "{:?}", s.bots);
    }

    #[test]
    fn bot_k_moves_one_seat_per_turn() {
        assert_eq!(bot_at(0, 0, 4), 0);
        assert_eq!(bot_at(1, 1, 4), 0);
        assert_eq!(bot_at(0, 1, 4), 3);
        assert_eq!(bot_at(3, 3, 4), 0);
    }

    #[test]
    fn in_a_team_game_a_bot_is_credited_with_its_teams_wins() {
        // Seats 0 and 2 against 1 and 3; the strong bot's team always wins.
        let labels: Vec<String> = ["strong", "weak", "strong", "weak"].iter().map(|s| s.to_string()).collect();
        let teams = [vec![0, 2], vec![1, 3]];
        let mut t = RotationTally::new(&labels, 4).with_teams(&teams);
        for _ in 0..10 {
            for turn in 0..4 {
                let strong_seat = (0..4).find(|&s| bot_at(s, turn, 4) == 0).unwrap();
                let team = if strong_seat % 2 == 0 { 0b0101 } else { 0b1010 };
                t.record(&Outcome { winners: team, ..Outcome::new() }, turn);
            }
        }
        let s = t.summary();
        assert!(s.teams);
        // Its team's win share: 100%, fair at 50% (not 50% of a seat's 25%).
        assert_eq!(s.bots[0].win_share, 1.0);
        assert_eq!(s.bots[1].win_share, 0.0);
        // Seats keep their own credit: each seat's team wins half the games.
        for seat in &s.seats {
            assert!((seat.win_share - 0.25).abs() < 1e-12, "{seat:?}");
        }
        // Seat 0's team wins half the games: no first-mover advantage.
        assert!(s.first_player_advantage.value.abs() < 1e-12, "{:?}", s.first_player_advantage);
        assert!(s.table().contains("its team's win share"));
    }
}
