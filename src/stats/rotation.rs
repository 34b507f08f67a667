//! Seat rotation (`--rotate`): games come in blocks of one game per acting seat, all played
//! from the block's seed, with the line-up turned by one seat each game, so every bot sits
//! in every seat equally often on the same deals. Two figures then separate what a single
//! line-up confuses: the win share **per seat** with the bots averaged out (the seat-order
//! effect) and **per bot** with the seats averaged out (bot strength), each with a 95%
//! interval in which the block is the unit (its games share a deal, so they are not
//! independent). Sums are integers in [`WIN_UNIT`]s: exact and independent of threads.

use serde::Serialize;

use super::WIN_UNIT;
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
        }
    }

    /// Adds the next game (rotation `turn` of its block), in game order.
    pub fn record(&mut self, outcome: &Outcome, turn: usize) {
        let k = outcome.winner_count() as u64;
        for seat in 0..self.scored {
            if k > 0 && outcome.winners & (1 << seat) != 0 {
                let units = WIN_UNIT / k;
                self.block_seat[seat] += units;
                if seat < self.acting {
                    self.block_bot[self.label_of[bot_at(seat, turn, self.acting)]] += units;
                }
            }
        }
        self.in_block += 1;
        if self.in_block == self.acting {
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
        let seats = (0..self.scored).map(|seat| estimate(&format!("seat {seat}"), self.seat_sum[seat], self.seat_sq[seat], self.blocks, per_block)).collect();
        let bots = (0..self.labels.len())
            .map(|i| estimate(&self.labels[i], self.bot_sum[i], self.bot_sq[i], self.blocks, per_block * self.copies[i] as f64))
            .collect();
        RotationSummary { blocks: self.blocks, games_per_block: self.acting as u64, seats, bots }
    }
}

/// Mean of the block values sum/scale with a normal 95% interval over blocks, kept within
/// [0, 1].
fn estimate(name: &str, sum: u64, sq: u128, blocks: u64, scale: f64) -> RotatedShare {
    if blocks == 0 {
        return RotatedShare { name: name.to_string(), win_share: f64::NAN, ci95: [f64::NAN, f64::NAN] };
    }
    let n = blocks as f64;
    let mean = sum as f64 / n;
    let var = if blocks > 1 { ((sq as f64 - sum as f64 * mean) / (n - 1.0)).max(0.0) } else { 0.0 };
    let half = 1.96 * (var / n).sqrt();
    // A share lies in [0, 1]: a few blocks must not give an interval past its ends.
    let ci95 = [((mean - half) / scale).max(0.0), ((mean + half) / scale).min(1.0)];
    RotatedShare { name: name.to_string(), win_share: mean / scale, ci95 }
}

/// One figure of a rotated run.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RotatedShare {
    /// `seat k`, or the bot's spec.
    pub name: String,
    /// Mean win share (ties shared).
    pub win_share: f64,
    /// 95% interval, blocks as the unit.
    pub ci95: [f64; 2],
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
}

impl RotationSummary {
    /// The two tables as text for the terminal.
    pub fn table(&self) -> String {
        let mut out =
            format!("rotated: {} blocks of {} games (every bot in every seat on the same deals); 95% CIs over blocks\n", self.blocks, self.games_per_block);
        out.push_str("  by seat (bots averaged out)         by bot (seats averaged out)\n");
        let rows = self.seats.len().max(self.bots.len());
        for i in 0..rows {
            let cell = |f: Option<&RotatedShare>| {
                f.map_or(String::new(), |f| format!("{:<12} {:>6.2}% [{:>6.2}, {:>6.2}]", f.name, 100.0 * f.win_share, 100.0 * f.ci95[0], 100.0 * f.ci95[1]))
            };
            out.push_str(&format!("  {:<36} {}\n", cell(self.seats.get(i)), cell(self.bots.get(i))));
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
        assert_eq!(s.bots[0].ci95[1], 1.0, "{:?}", s.bots[0]);
    }

    #[test]
    fn bot_k_moves_one_seat_per_turn() {
        assert_eq!(bot_at(0, 0, 4), 0);
        assert_eq!(bot_at(1, 1, 4), 0);
        assert_eq!(bot_at(0, 1, 4), 3);
        assert_eq!(bot_at(3, 3, 4), 0);
    }
}
