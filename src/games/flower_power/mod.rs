//! Flower Power: grow flowers of one color in a shared garden; whoever lays a flower's last
//! petal takes it (docs/games/flower-power.md; rulebook: the Flower Power part of the Chroma
//! Cards rules).
//!
//! Cards are Chroma base cards (`color * 5 + shape`, canonical order); only the color
//! matters. A seat's turn is one decision: [`Action`] holds the bit mask of the hand
//! positions it plays (1 to `max_play` of them), written in traces as the list of
//! positions. The draw to the hand size happens when the turn starts, before the decision;
//! nobody is dealt, so seat 0 starts by drawing.
//!
//! Readings fixed here where the rulebook is silent (also in docs/games/flower-power.md; what a player at the
//! table would expect):
//! - A hand keeps its cards in the order they came into it (drawn cards at the end, the
//!   rest in place after a play); plays name positions in it, so `random` is uniform over
//!   the non-empty sets of hand positions of size at most min(`max_play`, cards held).
//! - Cards of one play land color by color; a flower completed by the play's cards is taken
//!   at once and the rest of that color's cards start the next flower (k petals plus m cards
//!   give floor((k + m) / `petals`) flowers and leave (k + m) mod `petals`).
//! - "Started by" (report): the seat that laid the first petal of a flower. A flower taken
//!   by the same play that laid its first petal was started by its taker; a flower that
//!   follows a taken one in the same play was started by that player too.
//! - End and cap: after every turn the end (pile and every hand empty, `all_played`) is
//!   checked first, then the cap: the game stops when `turn_cap` turns have been played (a
//!   game whose last card is played in turn `turn_cap` ends `all_played`). Passed-over
//!   seats are not turns. A capped game is won by the most flowers, ties shared, as an
//!   ended one; petals left in the garden score nothing in either case.
//! - `max_play` above `hand_size` plays as `hand_size` (nobody ever holds more), so it is
//!   accepted rather than refused (sweeps may cross the two).
//! - What a seat sees: its own hand, the garden (petals and who started each flower), the
//!   flowers taken per seat and per color, the pile's size, every hand's size; through
//!   events, every play (face up) and its own draws.
//!
//! Determinization (search bots, `determinize.rs`): the deciding seat knows its own hand, the
//! garden, the scores, every hand's size and the pile's size, and, having seen every play
//! face up, exactly which cards are out of play; nothing else it saw tells it where a card
//! is. So the other hands and the draw pile form one pool of unseen cards, shuffled and
//! dealt back with the same sizes (hands in a random order). Inferring cards from the other
//! seats' plays (a seat that did not complete a flower probably could not) is not modelled.

mod audit;
mod bots;
mod determinize;
mod metrics;
pub mod params;
#[cfg(target_arch = "x86_64")]
pub mod rules;
#[cfg(test)]
mod tests;
mod trace;
mod view;

use std::fmt;

use crate::engine::GameEvent;
use crate::games::chroma::{COLORS as COLOR_NAMES, Card, cards_text};
use crate::variant::Invalid;

pub use bots::{CautiousBot, GreedyBot, greedy_play};
pub use metrics::FlowerMetrics;
pub use params::{COLORS, DeckParams, MAX_HAND, MAX_PLAYERS, Params};
pub use rules::{END_ALL_PLAYED, END_CAP, END_REASONS, Hand, State, color_of};
pub use view::View;

/// One play: bit i of the mask set when the card at hand position i is played. In traces
/// the list of positions played (`[0, 2]`); the bare mask (`5`) of older traces reads the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Action(#[serde(with = "trace::positions")] pub u16);

/// Binomial coefficients C(n, k) for n, k <= [`MAX_HAND`].
const BINOMIAL: [[u32; MAX_HAND + 1]; MAX_HAND + 1] = {
    let mut t = [[0u32; MAX_HAND + 1]; MAX_HAND + 1];
    let mut n = 0;
    while n <= MAX_HAND {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// Flower Power with one variant's parameters, ready to play.
pub struct FlowerPower {
    /// The variant's parameters.
    pub params: Params,
    /// The deck in canonical order (shuffled copies become the draw pile).
    pub deck: Vec<Card>,
    /// Players at the table.
    pub players: usize,
    /// Cards a turn draws up to.
    pub hand_size: usize,
    /// Most cards played in one turn.
    pub max_play: usize,
    /// Petals per flower.
    pub petals: u32,
    /// Number of legal plays by cards held (index 0..=16): sum of C(n, k) for k = 1 to
    /// min(`max_play`, n).
    plays: [u32; MAX_HAND + 1],
}

impl FlowerPower {
    /// Checks the parameters and builds the game.
    pub fn new(params: Params) -> Result<Self, Vec<Invalid>> {
        params.check()?;
        let deck = params.deck.cards();
        let max_play = params.max_play as usize;
        let mut plays = [0u32; MAX_HAND + 1];
        for (n, p) in plays.iter_mut().enumerate() {
            *p = (1..=max_play.min(n)).map(|k| BINOMIAL[n][k]).sum();
        }
        Ok(FlowerPower { players: params.players as usize, hand_size: params.hand_size as usize, max_play, petals: params.petals, deck, params, plays })
    }

    /// The play of rank `r` (0 to `plays(n)` - 1) among the legal plays of a hand of `n`
    /// cards: plays ordered by size, then by the combinatorial number system. Every rank
    /// gives a different legal play, so a uniform rank is a uniform play.
    #[inline]
    pub fn unrank(&self, n: usize, mut r: u32) -> Action {
        let mut k = 1;
        while r >= BINOMIAL[n][k] {
            r -= BINOMIAL[n][k];
            k += 1;
        }
        let mut mask = 0u16;
        let mut i = n;
        while k > 0 {
            i -= 1;
            let c = BINOMIAL[i][k];
            if r >= c {
                r -= c;
                mask |= 1 << i;
                k -= 1;
            }
        }
        Action(mask)
    }
}

/// What happened, for traces and for bots that track the table.
#[derive(Clone, Debug)]
pub enum Event {
    /// A turn begins; the seat drew `drew` cards (public: they can be counted).
    TurnStarts {
        /// Turn number (from 1).
        turn: u32,
        /// Whose turn.
        seat: u8,
        /// Cards drawn.
        drew: u8,
    },
    /// The cards a seat drew (seen by that seat only).
    Drew {
        /// The seat.
        seat: u8,
        /// The cards.
        cards: Vec<Card>,
    },
    /// A seat played cards onto the garden (face up).
    Played {
        /// The seat.
        seat: u8,
        /// The cards.
        cards: Vec<Card>,
    },
    /// A seat completed a flower and took it.
    Completed {
        /// The taker.
        seat: u8,
        /// The flower's color.
        color: u8,
        /// Who laid its first petal.
        starter: u8,
    },
    /// A seat with no card was passed over (the pile is empty).
    PassedOver {
        /// The seat.
        seat: u8,
    },
    /// The game ended.
    GameOver {
        /// Index into [`END_REASONS`].
        reason: u8,
        /// Turns played.
        turns: u32,
    },
}

impl GameEvent for Event {
    fn visible_to(&self, seat: usize) -> bool {
        match self {
            Event::Drew { seat: s, .. } => *s as usize == seat,
            _ => true,
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::TurnStarts { turn, seat, drew } => {
                write!(f, "-- turn {turn}: seat {seat} draws {drew} card(s)")
            }
            Event::Drew { seat, cards } => write!(f, "  seat {seat} draws [{}]", cards_text(cards)),
            Event::Played { seat, cards } => {
                write!(f, "  seat {seat} plays [{}]", cards_text(cards))
            }
            Event::Completed { seat, color, starter } => {
                write!(f, "    seat {seat} completes a {} flower (started by seat {starter})", COLOR_NAMES[*color as usize])
            }
            Event::PassedOver { seat } => write!(f, "  seat {seat} holds no card: passed over"),
            Event::GameOver { reason, turns } => write!(f, "\n== game over after {turns} turns: {}", END_REASONS[*reason as usize]),
        }
    }
}

impl crate::games::Registered for FlowerPower {
    const KEYS: &'static [crate::games::key_table::VariantKey] = params::Params::KEYS;
    fn from_variant(variant: &crate::variant::Variant) -> Result<Self, crate::error::VariantError> {
        let params = variant.game_params()?;
        FlowerPower::new(params).map_err(|p| variant.invalid(p))
    }
    fn bench_lineup() -> crate::games::BenchLineup {
        crate::games::BenchLineup { bots: "greedy", sets: &[] }
    }
}
