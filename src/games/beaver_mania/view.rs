//! What one Beaver Mania seat sees when it decides: its own hand and everything public (the
//! display, the stock, every pile, every hand's size, the draw pile's size, the scores).
//! Kept in its own module so the other hands are unreachable from bot code: the view holds
//! the table privately and only tells what is public.

use super::cards::Hand;
use super::params::MAX_PLAYERS;
use super::plays::{HippieTargets, Play};
use super::rules::{Pile, State, Step};

/// What one seat sees. Built once per decision; it reads the public parts on demand.
pub struct View<'a> {
    /// The deciding seat.
    pub seat: usize,
    /// What it decides.
    pub step: Step,
    /// Its hand.
    pub hand: &'a Hand,
    /// Players at the table.
    pub players: usize,
    table: &'a State,
}

impl<'a> View<'a> {
    #[inline(always)]
    pub(super) fn new(seat: usize, players: usize, s: &'a State) -> Self {
        View { seat, step: s.step, hand: &s.hands[seat], players, table: s }
    }

    /// The active player (whose turn it is).
    #[inline]
    pub fn active(&self) -> usize {
        self.table.current as usize
    }

    /// The display (face up).
    #[inline]
    pub fn display(&self) -> &'a Hand {
        &self.table.display
    }

    /// The stock (face up).
    #[inline]
    pub fn stock(&self) -> &'a Hand {
        &self.table.stock
    }

    /// A seat's pile (every card was laid face up).
    #[inline]
    pub fn pile(&self, seat: usize) -> &'a Pile {
        &self.table.piles[seat]
    }

    /// How many cards `seat` holds (public: cards can be counted).
    #[inline]
    pub fn hand_size(&self, seat: usize) -> usize {
        self.table.hands[seat].len()
    }

    /// Cards in the draw pile.
    #[inline]
    pub fn draw_pile(&self) -> usize {
        self.table.draw.len()
    }

    /// A seat's score now (public): pile cards minus hand cards.
    #[inline]
    pub fn score(&self, seat: usize) -> i64 {
        self.table.score(seat)
    }

    /// Match totals so far (one round: zero until it ends).
    #[inline]
    pub fn totals(&self) -> &'a [i64; MAX_PLAYERS] {
        &self.table.totals
    }

    /// The play being resolved this turn (public).
    #[inline]
    pub fn play(&self) -> Option<Play> {
        self.table.play
    }

    /// Seats whose stabbed top play still waits for take-or-put-away (bit per seat).
    #[inline]
    pub fn to_stab(&self) -> u8 {
        self.table.to_stab
    }

    /// Turns played in this round, the current one included.
    #[inline]
    pub fn round_turn(&self) -> u32 {
        self.table.round_turns
    }

    /// What makes a plain run legal for this seat (see [`super::plays::HippieTargets`]).
    #[inline]
    pub fn hippie_targets(&self) -> HippieTargets {
        let mut t = [u8::MAX; 8];
        for other in (0..self.players).filter(|&o| o != self.seat) {
            if let super::plays::Form::Run { len, high, hippie: true } = self.table.piles[other].top_judged().form {
                t[len as usize] = t[len as usize].min(high);
            }
        }
        t
    }

    /// The numbers of the display the current play may stab (bit per card).
    #[inline]
    pub fn display_options(&self, game: &super::BeaverMania) -> u32 {
        game.display_options(self.table)
    }
}
