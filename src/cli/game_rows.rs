//! What `report` keeps of its per-game rows as they stream past on their way to
//! `games.parquet`/`games.csv`: the sums of the catalogue's per-game values and a histogram
//! of game lengths that picks the typical game. Neither grows with the number of games, so
//! neither does a report's memory.

use std::collections::BTreeMap;

use crate::designer::metrics::{Catalogue, Moments};
use crate::games::handle::GameFacts;
use crate::sim::GameRow;

/// Sums of the catalogue's per-game values over a run's rows, added as the rows arrive in
/// game order (every float added in the order a pass over all the rows would add it); with
/// seat rotation one value per block of games, the mean of its games (as the designer's
/// runner counts them).
pub(super) struct RowSums {
    cat: Catalogue,
    moments: Moments,
    /// Games per block (1 without rotation).
    block: usize,
    /// The current block's sum of per-game values (rotated runs).
    sum: Vec<f64>,
    /// One game's values (reused).
    values: Vec<f64>,
}

impl RowSums {
    /// Empty sums for `game`'s catalogue; `rotation`: games per rotation block, else 0.
    pub(super) fn new(game: &GameFacts, rotation: usize) -> RowSums {
        let cat = Catalogue::of(game).rotated(rotation > 0, rotation);
        let k = cat.per_game_len;
        RowSums { cat, moments: Moments::new(k), block: rotation.max(1), sum: vec![0.0; k], values: Vec::new() }
    }

    /// Adds the next rows of the run (in game order).
    pub(super) fn add(&mut self, rows: &[GameRow]) {
        let block = self.block;
        for r in rows {
            let turn = (r.index % block as u64) as usize;
            self.cat.per_game(&r.outcome, turn, &mut self.values);
            if block == 1 {
                self.moments.add(&self.values);
                continue;
            }
            for (s, v) in self.sum.iter_mut().zip(&self.values) {
                *s += v;
            }
            if turn + 1 == block {
                self.sum.iter_mut().for_each(|s| *s /= block as f64);
                self.moments.add(&self.sum);
                self.sum.iter_mut().for_each(|s| *s = 0.0);
            }
        }
    }

    /// The sums of the rows added (a rotated run's unfinished block left out).
    pub(super) fn moments(&self) -> &Moments {
        &self.moments
    }
}

/// A game of a run picked as typical: the one whose replay page a report shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TypicalGame {
    /// Its index in the run.
    pub(super) index: u64,
    /// Its own seed (replays it with `trace --game-seed`).
    pub(super) seed: u64,
    /// Its length (in the game's length unit).
    pub(super) length: u32,
}

/// The games of a run counted per length, with the first game (lowest index) of each
/// length: enough to name the median-length game without keeping the games.
#[derive(Default)]
pub(super) struct Lengths {
    /// Per length: games of that length and the one of them with the lowest index.
    by_length: BTreeMap<u32, (u64, TypicalGame)>,
    games: u64,
}

impl Lengths {
    /// Counts the next rows of the run (any order).
    pub(super) fn add(&mut self, rows: &[GameRow]) {
        for r in rows {
            let game = TypicalGame { index: r.index, seed: r.seed, length: r.outcome.length };
            let (count, first) = self.by_length.entry(game.length).or_insert((0, game));
            *count += 1;
            if game.index < first.index {
                *first = game;
            }
            self.games += 1;
        }
    }

    /// The typical game: of median length (the lower median of all the lengths), the first
    /// such game by index; `None` before any game.
    pub(super) fn typical(&self) -> Option<TypicalGame> {
        // The lower median is the length at 0-based position (n - 1) / 2 of the sorted lengths.
        let at = self.games.checked_sub(1)? / 2;
        let mut below = 0;
        for (count, first) in self.by_length.values() {
            below += count;
            if below > at {
                return Some(*first);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Outcome;

    /// The sums as the report computed them before it streamed its rows: one pass over every
    /// row, kept in memory.
    fn row_moments(game: &GameFacts, rows: &[GameRow], rotation: usize) -> Moments {
        let cat = Catalogue::of(game).rotated(rotation > 0, rotation);
        let mut moments = Moments::new(cat.per_game_len);
        let mut values = Vec::new();
        let block = rotation.max(1);
        let mut sum = vec![0.0; cat.per_game_len];
        for r in rows {
            let turn = (r.index % block as u64) as usize;
            cat.per_game(&r.outcome, turn, &mut values);
            if block == 1 {
                moments.add(&values);
                continue;
            }
            for (s, v) in sum.iter_mut().zip(&values) {
                *s += v;
            }
            if turn + 1 == block {
                sum.iter_mut().for_each(|s| *s /= block as f64);
                moments.add(&sum);
                sum.iter_mut().for_each(|s| *s = 0.0);
            }
        }
        moments
    }

    /// The typical game as the report picked it from all its rows kept.
    fn typical_of_all(rows: &[GameRow]) -> Option<TypicalGame> {
        if rows.is_empty() {
            return None;
        }
        let mut lengths: Vec<u32> = rows.iter().map(|r| r.outcome.length).collect();
        lengths.sort_unstable();
        let median = lengths[(lengths.len() - 1) / 2];
        let row = rows.iter().filter(|r| r.outcome.length == median).min_by_key(|r| r.index)?;
        Some(TypicalGame { index: row.index, seed: row.seed, length: median })
    }

    /// The rows of a real run of Penny Badger (4 seats), `games` games from `seed`.
    fn played(games: u64, seed: u64, rotate: bool) -> (GameFacts, Vec<GameRow>, usize) {
        let variant = crate::variant::Variant::load(std::path::Path::new("variants/penny-badger/standard.toml"), &[]).unwrap();
        let game = crate::games::handle(&variant).unwrap();
        let seated = crate::designer::seat(&*game, &variant, None, "--bots").unwrap();
        let cfg = crate::sim::RunConfig { keep_rows: true, rotate, ..crate::sim::RunConfig::new(games, seed) };
        let run = seated.run_kept(cfg, &mut |_| {}).unwrap();
        let rotation = if rotate { seated.acting() } else { 0 };
        (seated.facts().clone(), run.rows, rotation)
    }

    fn same_bits(a: &Moments, b: &Moments) {
        assert_eq!(a.n, b.n);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&a.sum), bits(&b.sum), "sums bit for bit");
        assert_eq!(bits(&a.sumsq), bits(&b.sumsq), "sums of squares bit for bit");
    }

    #[test]
    fn sums_added_as_rows_stream_are_those_of_all_the_rows_bit_for_bit() {
        for rotate in [false, true] {
            let (facts, rows, rotation) = played(3_000, 5, rotate);
            let all = row_moments(&facts, &rows, rotation);
            // Chunks of every size, as the simulator's batches and the precision runner's hand them on.
            for chunk in [1, 7, 512, 3_000] {
                let mut sums = RowSums::new(&facts, rotation);
                for c in rows.chunks(chunk) {
                    sums.add(c);
                }
                same_bits(sums.moments(), &all);
            }
        }
    }

    fn row(index: u64, length: u32) -> GameRow {
        let mut outcome = Outcome::new();
        outcome.length = length;
        GameRow { index, seed: index * 31 + 1, outcome }
    }

    #[test]
    fn the_typical_game_is_the_first_of_the_lower_median_length() {
        let mut lengths = Lengths::default();
        assert_eq!(lengths.typical(), None);
        // Lengths 5, 3, 9, 3, 5, 7: sorted 3 3 5 5 7 9, lower median 5; games 0 and 4 have it.
        let rows: Vec<GameRow> = [5, 3, 9, 3, 5, 7].iter().enumerate().map(|(i, &l)| row(i as u64, l)).collect();
        lengths.add(&rows);
        assert_eq!(lengths.typical(), Some(TypicalGame { index: 0, seed: 1, length: 5 }));
        assert_eq!(lengths.typical(), typical_of_all(&rows));
        // Rows out of order still give the lowest index.
        let mut backwards = Lengths::default();
        backwards.add(&rows.iter().rev().copied().collect::<Vec<_>>());
        assert_eq!(backwards.typical(), typical_of_all(&rows));
        let one = [row(9, 4)];
        let mut single = Lengths::default();
        single.add(&one);
        assert_eq!(single.typical(), typical_of_all(&one));
    }

    #[test]
    fn the_typical_game_of_real_runs_is_the_one_picked_from_all_the_rows() {
        for (games, seed) in [(1, 1), (2, 1), (999, 3), (4_000, 8)] {
            let (_, rows, _) = played(games, seed, false);
            let mut lengths = Lengths::default();
            for c in rows.chunks(100) {
                lengths.add(c);
            }
            assert_eq!(lengths.typical(), typical_of_all(&rows), "{games} games from seed {seed}");
        }
    }
}
