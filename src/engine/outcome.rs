//! How one game ended ([`Outcome`]), who acts next ([`ToMove`]) and the seat count every
//! outcome is sized by.

use super::GameRng;

/// Most seats any game supports (dummy seats included); outcomes use fixed arrays of this size.
pub const MAX_SEATS: usize = 8;

/// Every seat's own random stream during one game (the bots' decisions draw from these).
pub type SeatRngs = [GameRng; MAX_SEATS];

/// Who acts next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToMove {
    /// This seat must decide.
    Seat(usize),
    /// The game has ended.
    Over,
}

/// How one game ended: the row every report and statistic is built from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Length in the game's own unit (turns, rounds).
    pub length: u32,
    /// Index into [`Game::end_reasons`](super::Game::end_reasons).
    pub end_reason: u8,
    /// Final score per seat (savings, pennies, points); unused seats are 0.
    pub scores: [i64; MAX_SEATS],
    /// Bit i set when seat i shares the win; a k-way tie gives each winner 1/k.
    pub winners: u16,
    /// Turn in which seat i was eliminated; 0 when it never was.
    pub eliminated_at: [u32; MAX_SEATS],
}

impl Outcome {
    /// An empty outcome to fill in.
    pub fn new() -> Self {
        Outcome { length: 0, end_reason: 0, scores: [0; MAX_SEATS], winners: 0, eliminated_at: [0; MAX_SEATS] }
    }

    /// Number of seats sharing the win.
    pub fn winner_count(&self) -> u32 {
        self.winners.count_ones()
    }

    /// Win credit of `seat`: 1/k when it is one of k tied winners, else 0.
    pub fn win_share(&self, seat: usize) -> f64 {
        if self.winners & (1 << seat) != 0 { 1.0 / self.winner_count() as f64 } else { 0.0 }
    }

    /// Winners = every seat in `0..seats` holding the highest score.
    pub fn set_winners_by_max_score(&mut self, seats: usize) {
        let best = self.scores[..seats].iter().copied().max().unwrap_or(0);
        self.winners = (0..seats).filter(|&s| self.scores[s] == best).fold(0, |m, s| m | (1 << s));
    }
}

impl Default for Outcome {
    fn default() -> Self {
        Self::new()
    }
}
