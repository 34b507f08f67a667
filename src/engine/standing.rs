//! The standing of every seat turn by turn, recorded while a game is played in detail (never
//! on the simulator's quick path): the raw series the generic lead-change, drama,
//! decisiveness, comeback and margin statistics ([`crate::stats::standing`]) are built from.

use super::{Game, MAX_SEATS};

/// Every seat's standing ([`Game::standing`]) at the end of each turn of one game.
///
/// Row `t` holds the standings after the last action taken while [`Game::turns_played`] was
/// `t` (row 0: after the deal and any action before the first turn counts); the last row is
/// the final position. A turn the counter skips repeats the row before it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StandingTrace {
    /// Scored seats (dummy seats included).
    pub seats: usize,
    /// One row per turn, index = turn; only the first `seats` entries of a row are used.
    pub rows: Vec<[i64; MAX_SEATS]>,
}

impl StandingTrace {
    /// An empty trace of `seats` seats (reuse one across games with [`StandingTrace::start`]).
    pub fn new(seats: usize) -> Self {
        StandingTrace { seats, rows: Vec::new() }
    }

    /// A trace built from given rows (tests, hand-made series).
    pub fn from_rows(seats: usize, rows: Vec<[i64; MAX_SEATS]>) -> Self {
        StandingTrace { seats, rows }
    }

    /// Clears the trace for a new game of `game` and records the position after the deal.
    pub fn start<G: Game>(&mut self, game: &G, state: &G::State) {
        self.seats = game.seats();
        self.rows.clear();
        self.observe(game, state);
    }

    /// Records the position after an action: it becomes the row of the current turn.
    pub fn observe<G: Game>(&mut self, game: &G, state: &G::State) {
        let turn = game.turns_played(state) as usize;
        let mut row = [0i64; MAX_SEATS];
        for (seat, slot) in row.iter_mut().enumerate().take(self.seats) {
            *slot = game.standing(state, seat);
        }
        self.put(turn, row);
    }

    /// Sets the row of `turn`, filling skipped turns with the previous row.
    pub fn put(&mut self, turn: usize, row: [i64; MAX_SEATS]) {
        if self.rows.len() > turn {
            // A counter never goes back; if it did, the latest row wins from `turn` on.
            self.rows.truncate(turn + 1);
            self.rows[turn] = row;
            return;
        }
        let fill = self.rows.last().copied().unwrap_or(row);
        self.rows.resize(turn, fill);
        self.rows.push(row);
    }

    /// Turns played (the index of the last row; 0 for an empty trace).
    pub fn turns(&self) -> usize {
        self.rows.len().saturating_sub(1)
    }
}
