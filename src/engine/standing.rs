//! The standing of every seat turn by turn, recorded while a game is played in detail (never
//! on the simulator's quick path): the raw series the generic lead-change, drama,
//! decisiveness, comeback and margin statistics ([`crate::stats::standing`]) are built from.

use super::{Game, MAX_SEATS};

/// Every seat's standing ([`Game::standing`]) at the end of each turn of one game.
///
/// Row 0 is the position after the deal; row `t` the position at the end of turn `t`: after
/// the action that moved [`Game::turns_played`] `t` past its value at the deal. That is the
/// end of a turn whether a game counts the turns it has begun (the counter moves when the
/// next turn starts, as in Beaver Mania, where it is 1 at the deal) or the turns it has
/// completed (the counter moves when a turn ends, as in Take a Penny): an action that leaves
/// the counter where it was is inside a turn and makes no row. The last row is the final
/// position: a game that ends without moving the counter (the end of the last turn, or a
/// turn cut short by the end) adds it as one more turn. A turn the counter skips repeats the
/// row before it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StandingTrace {
    /// Scored seats (dummy seats included).
    pub seats: usize,
    /// One row per turn, index = turn; only the first `seats` entries of a row are used.
    pub rows: Vec<[i64; MAX_SEATS]>,
    /// [`Game::turns_played`] at the deal.
    base: u32,
    /// Whether the last position observed began a row (it moved the counter).
    fresh: bool,
}

impl StandingTrace {
    /// An empty trace of `seats` seats (reuse one across games with [`StandingTrace::start`]).
    pub fn new(seats: usize) -> Self {
        StandingTrace { seats, rows: Vec::new(), base: 0, fresh: true }
    }

    /// A trace built from given rows (tests, hand-made series).
    pub fn from_rows(seats: usize, rows: Vec<[i64; MAX_SEATS]>) -> Self {
        StandingTrace { seats, rows, base: 0, fresh: true }
    }

    /// Clears the trace for a new game of `game` and records the position after the deal.
    pub fn start<G: Game>(&mut self, game: &G, state: &G::State) {
        self.seats = game.seats();
        self.rows.clear();
        self.base = game.turns_played(state);
        self.rows.push(self.row(game, state));
        self.fresh = true;
    }

    /// Records the position after an action: the row of the turn it ends, if it moved the
    /// turn counter.
    pub fn observe<G: Game>(&mut self, game: &G, state: &G::State) {
        let turn = game.turns_played(state).saturating_sub(self.base) as usize;
        self.fresh = turn >= self.rows.len();
        if self.fresh {
            let row = self.row(game, state);
            self.put(turn, row);
        }
    }

    /// Records the final position (after the last [`StandingTrace::observe`]): the row of the
    /// last turn, unless the last action already began it.
    pub fn finish<G: Game>(&mut self, game: &G, state: &G::State) {
        if !self.fresh {
            let row = self.row(game, state);
            self.rows.push(row);
            self.fresh = true;
        }
    }

    fn row<G: Game>(&self, game: &G, state: &G::State) -> [i64; MAX_SEATS] {
        let mut row = [0i64; MAX_SEATS];
        for (seat, slot) in row.iter_mut().enumerate().take(self.seats) {
            *slot = game.standing(state, seat);
        }
        row
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
