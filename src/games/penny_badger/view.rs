//! What one Penny Badger seat sees when it decides: its own hand and everything public.
//! Kept in its own module so the other hands are unreachable from bot code: the view
//! holds the table privately and only tells what is public (savings, bank, hand sizes).

use super::Decision;
use super::params::{HAND_CAP, MAX_PLAYERS};
use super::rules::State;
use crate::games::chroma::Card;

/// What one seat sees: its own hand and everything public. Built once per decision, so it
/// holds a reference to the table and reads the public parts on demand.
pub struct View<'a> {
    /// The deciding seat.
    pub seat: usize,
    /// What it decides.
    pub decision: Decision,
    /// Its hand, in canonical order.
    pub hand: &'a [Card],
    table: &'a State,
}

impl<'a> View<'a> {
    /// The view of `seat` deciding `decision` at state `s`.
    #[inline(always)]
    pub(super) fn new(seat: usize, decision: Decision, s: &'a State) -> Self {
        View { seat, decision, hand: s.hands[seat].cards(), table: s }
    }

    /// The seat's hand as fixed slots: the first `hand.len()` are [`View::hand`], the rest
    /// are to be ignored (for fixed-length, branch-free loops).
    #[inline]
    pub fn hand_slots(&self) -> &'a [Card; HAND_CAP] {
        self.table.hands[self.seat].slots()
    }

    /// The seat's cell keys ([`crate::games::chroma::Hand::cell_keys`]), kept up to date
    /// as cards come and go, so the largest set is found without recounting the hand.
    #[inline]
    pub fn hand_keys(&self) -> &'a [u64; 4] {
        self.table.hands[self.seat].cell_keys()
    }

    /// Every seat's savings (public).
    #[inline]
    pub fn savings(&self) -> &'a [u32; MAX_PLAYERS] {
        &self.table.savings
    }

    /// The bank.
    #[inline]
    pub fn bank(&self) -> u32 {
        self.table.bank
    }

    /// Live seats, as a bit mask.
    #[inline]
    pub fn alive(&self) -> u16 {
        self.table.alive
    }

    /// Direction of play (+1 or -1).
    #[inline]
    pub fn direction(&self) -> i8 {
        self.table.direction
    }

    /// Cards in the draw pile.
    #[inline]
    pub fn draw_pile(&self) -> usize {
        self.table.draw.len()
    }

    /// Turn number.
    #[inline]
    pub fn turn(&self) -> u32 {
        self.table.turns
    }

    /// How many cards `seat` holds (public: cards can be counted at the table).
    #[inline]
    pub fn hand_size(&self, seat: usize) -> usize {
        self.table.hands[seat].len()
    }
}
