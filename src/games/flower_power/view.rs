//! What one Flower Power seat sees when it plays: its own hand and everything public (the
//! garden, the flowers taken, the pile's size, every hand's size). Kept in its own module so
//! the other hands are unreachable from bot code: the view holds the table privately.

use super::params::{COLORS, MAX_PLAYERS};
use super::rules::{Hand, State};

/// What one seat sees. Built once per decision from a reference to the table; only the
/// public parts and the seat's own hand can be read through it.
pub struct View<'a> {
    /// The deciding seat.
    pub seat: usize,
    /// Its hand (cards in the order they came into it; plays name positions in it).
    pub hand: &'a Hand,
    table: &'a State,
}

impl<'a> View<'a> {
    /// The view of `seat` at state `s`.
    #[inline(always)]
    pub(super) fn new(seat: usize, s: &'a State) -> Self {
        View { seat, hand: &s.hands[seat], table: s }
    }

    /// Petals of each color's flower in progress (public: the garden is on the table).
    #[inline(always)]
    pub fn garden(&self) -> [u16; COLORS] {
        self.table.garden.petals().map(u16::from)
    }

    /// The garden as one word, a byte per color (byte c: color c's petals, bytes 5..8 are 0).
    #[inline(always)]
    pub fn garden_word(&self) -> u64 {
        self.table.garden.word()
    }

    /// Who laid the first petal of each color's flower in progress (public).
    #[inline(always)]
    pub fn starters(&self) -> &'a [u8; COLORS] {
        &self.table.starter
    }

    /// Flowers taken per color (public: taken flowers lie beside their owners).
    #[inline(always)]
    pub fn flowers_by_color(&self) -> &'a [u32; COLORS] {
        &self.table.flowers_by_color
    }

    /// Flowers taken per seat: the scores (public).
    #[inline(always)]
    pub fn flowers(&self) -> &'a [i64; MAX_PLAYERS] {
        &self.table.flowers
    }

    /// Cards left in the draw pile (public: the pile can be counted).
    #[inline(always)]
    pub fn pile(&self) -> usize {
        self.table.pile.len()
    }

    /// Cards in `seat`'s hand (public: cards can be counted).
    #[inline(always)]
    pub fn hand_size_of(&self, seat: usize) -> usize {
        self.table.hands[seat].len()
    }

    /// Turns played before this one.
    #[inline(always)]
    pub fn turns(&self) -> u32 {
        self.table.turns
    }
}
