//! What one Rainbow Rush seat sees when it decides: its own hand and everything public
//! (every row, the discard pile with its locks, pile and hand sizes). Kept in its own module
//! so the other hands and the draw pile's order are unreachable from bot code: the view
//! holds the table privately and only tells what is public.

use super::Decision;
use super::rules::{Hand, Row, State};
use crate::games::chroma::Card;

/// What one seat sees: its own hand and everything public.
pub struct View<'a> {
    /// The deciding seat.
    pub seat: usize,
    /// What it decides.
    pub decision: Decision,
    /// Its hand.
    pub hand: &'a Hand,
    players: usize,
    table: &'a State,
}

impl<'a> View<'a> {
    /// The view of `seat` deciding `decision` at state `s` of a table of `players`.
    #[inline(always)]
    pub(super) fn new(seat: usize, decision: Decision, players: usize, s: &'a State) -> Self {
        View { seat, decision, hand: &s.hands[seat], players, table: s }
    }

    /// Players at the table.
    #[inline]
    pub fn players(&self) -> usize {
        self.players
    }

    /// `seat`'s row (public), in row order.
    #[inline]
    pub fn row(&self, seat: usize) -> &'a Row {
        &self.table.rows[seat]
    }

    /// The deciding seat's own row.
    #[inline]
    pub fn own_row(&self) -> &'a Row {
        &self.table.rows[self.seat]
    }

    /// The discard pile, top card last (every card in it was laid face up; a player with
    /// perfect memory knows it whole).
    #[inline]
    pub fn discard(&self) -> &'a [Card] {
        &self.table.discard
    }

    /// Per discard-pile card: the last turn in which it is locked (0: never locked).
    #[inline]
    pub fn locks(&self) -> &'a [u32] {
        &self.table.locks
    }

    /// The discard pile's top card when it may be taken now (not a wild, not locked).
    #[inline]
    pub fn takeable_top(&self) -> Option<Card> {
        self.table.takeable_top()
    }

    /// Cards in the draw pile.
    #[inline]
    pub fn draw_pile(&self) -> usize {
        self.table.draw.len()
    }

    /// How many cards `seat` holds (public: cards can be counted at the table).
    #[inline]
    pub fn hand_size(&self, seat: usize) -> usize {
        self.table.hands[seat].len()
    }

    /// The current turn (from 1).
    #[inline]
    pub fn turn(&self) -> u32 {
        self.table.turn
    }
}
