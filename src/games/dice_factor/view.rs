//! What one Dice Factor seat sees when it decides: its own hand and everything public.
//! Kept in its own module so the other hands are unreachable from bot code: the view holds
//! the table privately and only tells what is public.

use super::hand::{Hand, allowed_targets};
use super::rules::{Phase, State};
use crate::games::chroma::Card;

/// What one seat sees: its own hand, the dice, the face-up discard pile (every card in it
/// was laid face up in front of everyone, and bots remember them), and public counts.
pub struct View<'a> {
    /// The deciding seat.
    pub seat: usize,
    /// What it decides.
    pub decision: Phase,
    /// Its hand.
    pub hand: &'a Hand,
    /// The colors die and the shapes die (5 = logo).
    pub dice: [u8; 2],
    /// The targets the dice allow (bits 0..5 colors, 5..10 shapes).
    pub allowed: u16,
    /// The discard pile, top card last.
    pub discard: &'a [Card],
    /// An action card it took from the discard pile this turn and still holds.
    pub taken: Option<Card>,
    /// Players at the table.
    pub players: usize,
    table: &'a State,
}

impl<'a> View<'a> {
    /// The view of `seat` at state `s`.
    #[inline(always)]
    pub(super) fn new(seat: usize, s: &'a State, players: usize) -> Self {
        View::reading(seat, s, players, allowed_targets(s.dice), s.phase)
    }

    /// [`View::new`] with the targets the dice allow already read (`allowed_targets` of
    /// `s.dice`) and the decision known (`s.phase`): the play loop keeps the targets from one
    /// decision to the next and knows which decision of the turn it asks.
    #[inline(always)]
    pub(super) fn reading(seat: usize, s: &'a State, players: usize, allowed: u16, decision: Phase) -> Self {
        debug_assert_eq!(allowed, allowed_targets(s.dice), "the targets of other dice");
        debug_assert_eq!(decision, s.phase, "another decision than the state's");
        View { seat, decision, hand: &s.hands[seat], dice: s.dice, allowed, discard: &s.discard, taken: s.taken, players, table: s }
    }

    /// The top of the discard pile.
    #[inline]
    pub fn discard_top(&self) -> Option<Card> {
        self.discard.last().copied()
    }

    /// How many cards `seat` holds (public: cards can be counted at the table).
    #[inline]
    pub fn hand_size(&self, seat: usize) -> usize {
        self.table.hands[seat].len()
    }

    /// add_a_card cards lying in front of `seat` (public).
    #[inline]
    pub fn extra(&self, seat: usize) -> u8 {
        self.table.hands[seat].extra
    }

    /// Whether play runs backwards (after a reverse).
    #[inline]
    pub fn reversed(&self) -> bool {
        self.table.reversed
    }

    /// Turns `seat` will lose to skips.
    #[inline]
    pub fn skips(&self, seat: usize) -> u16 {
        self.table.skips[seat]
    }

    /// Cards in the draw pile.
    #[inline]
    pub fn draw_pile(&self) -> usize {
        self.table.draw.len()
    }

    /// Turn number (the current turn).
    #[inline]
    pub fn turn(&self) -> u32 {
        self.table.turns
    }
}
