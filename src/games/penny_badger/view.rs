//! What one Penny Badger seat sees when it decides: its own hand and everything public.
//! Kept in its own module so the other hands are unreachable from bot code: the view
//! holds them privately and only tells their sizes.

use super::params::MAX_PLAYERS;
use super::rules::{Hand, State};
use super::Decision;
use crate::games::chroma::Card;

/// What one seat sees: its own hand and everything public.
pub struct View<'a> {
    /// The deciding seat.
    pub seat: usize,
    /// What it decides.
    pub decision: Decision,
    /// Its hand, in canonical order.
    pub hand: &'a [Card],
    /// Every seat's savings (public).
    pub savings: &'a [u32; MAX_PLAYERS],
    /// The bank.
    pub bank: u32,
    /// Live seats, as a bit mask.
    pub alive: u16,
    /// Direction of play (+1 or -1).
    pub direction: i8,
    /// Cards in the draw pile.
    pub draw_pile: usize,
    /// Turn number.
    pub turn: u32,
    hands: &'a [Hand; MAX_PLAYERS],
}

impl<'a> View<'a> {
    /// The view of `seat` deciding `decision` at state `s`.
    #[inline]
    pub(super) fn new(seat: usize, decision: Decision, s: &'a State) -> Self {
        View {
            seat,
            decision,
            hand: s.hands[seat].cards(),
            savings: &s.savings,
            bank: s.bank,
            alive: s.alive,
            direction: s.direction,
            draw_pile: s.draw.len(),
            turn: s.turns,
            hands: &s.hands,
        }
    }

    /// How many cards `seat` holds (public: cards can be counted at the table).
    #[inline]
    pub fn hand_size(&self, seat: usize) -> usize {
        self.hands[seat].len()
    }
}
