//! Rainbow Rush: build a rainbow (five cards of one shape covering the five colors) in the
//! row in front of you, with wilds standing in, and spend wilds to break the rows of the
//! others (docs/games/rainbow-rush.md; rulebook: the Rainbow Rush part of the Chroma Cards
//! rules).
//!
//! Cards are the Chroma numbering of [`crate::games::chroma`]: base cards 0..25, color
//! wilds 25..30, shape wilds 30..35, all-colors 35, all-shapes 36 (no action cards). A turn
//! is two decisions of the seat: where to draw from ([`Action::DrawPile`] /
//! [`Action::TakeDiscard`]), then one of [`Action::Add`] (or [`Action::Replace`] when the
//! row is full), [`Action::Discard`] or [`Action::Sabotage`].
//!
//! Readings fixed here where the rulebook is silent (also in docs/games/rainbow-rush.md; what a player at the table would expect):
//! - The deal goes one card at a time round the table from seat 0, `deal` rounds.
//! - Turns are numbered from 1 and every seat's turn counts, a pass included. A card
//!   replaced by a wild in turn t is locked until turn t + `lock_turns` (it cannot be taken
//!   in turns t+1 .. t+`lock_turns`); `lock_turns = 0` never locks. A locked card shuffled
//!   into a new draw pile leaves the discard pile and its lock with it; the top card, which
//!   stays, keeps its lock.
//! - Adding to a full row: the new card goes at the end of the row and the player moves one
//!   of the cards that were already in the row to the discard pile (the others keep their
//!   order). Moving the new card straight back out would be the discard option, so it is
//!   not a separate choice. A card moved out of a row is never locked.
//! - A wild played onto an opponent's row may replace any card of that row, a wild
//!   included; the replaced card goes onto the discard pile, locked. With `sabotage =
//!   false` the option does not exist.
//! - The win check looks at the rows in docs/games/rainbow-rush.md's order; only the active row and a
//!   sabotaged one can change in a turn, so a sabotage that hands the victim a rainbow (the
//!   wild completes it) makes the victim win on the saboteur's turn, unless the saboteur's
//!   own row is a rainbow. A row longer than 5 wins when any 5 of its cards form a rainbow.
//! - The cap: when turn `turn_cap` ends without a rainbow the game ends with end reason
//!   `cap` and no winner (`winners = 0`). Length: turns played.
//! - Scores: each seat's final highest coverage (0 to 5: the most colors of one shape its
//!   row covers), so the winner scores 5; the report reads how close the others came.
//! - Rainbow Rush has no rule for action cards: a variant must not put any in the deck.
//! - What a seat sees: its own hand, every row, the whole discard pile with its locks (all
//!   of it was laid face up), the draw pile's size, every hand's size and the turn. Events:
//!   a card drawn from the pile (and a dealt hand) only to its seat, everything else to all.
//! - `random` picks uniformly among the legal actions, copies of one card being one action:
//!   a replace names the row slot moved out, a sabotage the wild, the opponent and the slot.
//!
//! Determinization (search bots, `determinize.rs`), with perfect memory (docs/games/rainbow-rush.md): the
//! deciding seat knows its hand, every row, the whole discard pile with its locks, the
//! sizes of the draw pile and of every hand, and of each other hand the cards it took from
//! the discard pile and has not played since (the state keeps that public record,
//! `State::known`). The other hands' remaining cards and the draw pile form one pool,
//! shuffled and dealt back with the same sizes. Forgotten: after a reshuffle, which cards
//! went into the new draw pile (a sample may put there a card that was hidden in a hand at
//! the time), and what other seats' choices hint.

mod audit;
mod bots;
pub mod cover;
mod determinize;
mod metrics;
pub mod params;
pub mod rules;
#[cfg(test)]
mod tests;
mod trace;
mod view;

use std::fmt;

use crate::engine::GameEvent;
use crate::games::chroma::{Card, card_name};
use crate::variant::Invalid;

#[cfg(test)]
pub use bots::first_spare_plain;
pub use bots::{BuilderBot, SaboteurBot, builder_choice, builder_draw, first_spare, row_target_shape, target_shape};
pub use cover::{Cover, need};
pub use metrics::RushMetrics;
pub use params::{KINDS, MAX_PLAYERS, MAX_ROW, Params};
pub use rules::{END_CAP, END_RAINBOW, END_REASONS, Hand, Phase, Row, SabotageRecord, State};
pub use view::View;

/// One decision of a Rainbow Rush seat (trace notation: `trace.rs`'s module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Draw the top card of the draw pile (reshuffling the discard pile when it is empty).
    DrawPile,
    /// Take the top of the discard pile (never a wild, never a locked card).
    TakeDiscard,
    /// Add a card from the hand to the end of the own row (the row is not full).
    Add(#[serde(with = "crate::games::chroma::by_name")] Card),
    /// Add a card to the own full row and move the row card in `slot` to the discard pile.
    Replace {
        /// The card added.
        #[serde(with = "crate::games::chroma::by_name")]
        card: Card,
        /// Row position (before the add) of the card moved out.
        slot: u8,
    },
    /// Put a card from the hand onto the discard pile.
    Discard(#[serde(with = "crate::games::chroma::by_name")] Card),
    /// Play a wild onto opponent `target`'s row in place of its card in `slot`.
    Sabotage {
        /// The wild.
        #[serde(with = "crate::games::chroma::by_name")]
        wild: Card,
        /// The opponent.
        target: u8,
        /// Row position of the card replaced.
        slot: u8,
    },
}

/// What is being decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Where to draw from.
    Draw,
    /// Add, discard or sabotage.
    Play,
}

/// Rainbow Rush with one variant's parameters, ready to play.
pub struct RainbowRush {
    /// The variant's parameters.
    pub params: Params,
    /// The deck in canonical order (shuffled copies are dealt).
    pub deck: Vec<Card>,
    /// Copies of each card kind.
    pub copies: [u32; KINDS],
    /// Players at the table.
    pub players: usize,
}

impl RainbowRush {
    /// Checks the parameters and builds the game.
    pub fn new(params: Params) -> Result<Self, Vec<Invalid>> {
        params.check()?;
        let deck = params.cards();
        let copies = params.copies();
        let players = params.players as usize;
        Ok(RainbowRush { params, deck, copies, players })
    }

    /// The most cards a row holds.
    #[inline]
    pub fn row_size(&self) -> usize {
        self.params.row_size as usize
    }

    /// Whether wilds may be played onto opponents' rows.
    #[inline]
    pub fn sabotage_allowed(&self) -> bool {
        self.params.sabotage
    }

    /// Whether `seat` may play a wild onto `target`'s row (an opponent with cards in it).
    #[inline]
    fn can_sabotage(&self, view: &View, target: usize) -> bool {
        target != view.seat && target < self.players && !view.row(target).is_empty()
    }
}

/// What happened, for traces and for bots that track the table.
#[derive(Clone, Debug)]
pub enum Event {
    /// A seat's starting hand (seen by that seat only).
    Dealt {
        /// The seat.
        seat: u8,
        /// Its cards.
        hand: Hand,
    },
    /// A turn begins.
    TurnStarts {
        /// Turn number (from 1).
        turn: u32,
        /// Whose turn.
        seat: u8,
    },
    /// A seat drew a card from the draw pile (seen by that seat only).
    Drew {
        /// The seat.
        seat: u8,
        /// The card.
        card: Card,
    },
    /// A seat drew from an empty draw pile and got nothing.
    DrewNothing {
        /// The seat.
        seat: u8,
    },
    /// A seat took the top of the discard pile.
    TookDiscard {
        /// The seat.
        seat: u8,
        /// The card.
        card: Card,
    },
    /// The discard pile but its top card became the draw pile.
    Reshuffled {
        /// The new draw pile as the state holds it, bottom first (the last card is drawn
        /// first). No seat sees it: traces record it, bots must not read it.
        order: Vec<Card>,
    },
    /// A seat added a card to its row (and moved `out` from its full row to the discard pile).
    Added {
        /// The seat.
        seat: u8,
        /// The card added.
        card: Card,
        /// The card moved out of the row, if it was full.
        out: Option<Card>,
    },
    /// A seat discarded a card from its hand.
    Discarded {
        /// The seat.
        seat: u8,
        /// The card.
        card: Card,
    },
    /// A wild was played onto an opponent's row.
    Sabotaged(SabotageRecord),
    /// A seat had no card after drawing and passed.
    Passed {
        /// The seat.
        seat: u8,
    },
    /// A seat holds a rainbow: the game is won.
    Won {
        /// The winner.
        seat: u8,
        /// Its row.
        row: Row,
        /// The turn.
        turn: u32,
    },
    /// The turn cap was reached: no winner.
    Capped {
        /// Turns played.
        turns: u32,
    },
}

impl GameEvent for Event {
    fn visible_to(&self, seat: usize) -> bool {
        match self {
            Event::Dealt { seat: s, .. } | Event::Drew { seat: s, .. } => *s as usize == seat,
            _ => true,
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Dealt { seat, hand } => write!(f, "seat {seat} is dealt [{hand}]"),
            Event::TurnStarts { turn, seat } => write!(f, "-- turn {turn}: seat {seat}"),
            Event::Drew { seat, card } => write!(f, "  seat {seat} draws {}", card_name(*card)),
            Event::DrewNothing { seat } => write!(f, "  seat {seat} draws nothing: no card to draw"),
            Event::TookDiscard { seat, card } => write!(f, "  seat {seat} takes {} from the discard pile", card_name(*card)),
            Event::Reshuffled { order } => write!(f, "  the discard pile but its top card is shuffled into a new draw pile of {} cards", order.len()),
            Event::Added { seat, card, out: None } => write!(f, "  seat {seat} adds {} to its row", card_name(*card)),
            Event::Added { seat, card, out: Some(out) } => {
                write!(f, "  seat {seat} adds {} to its full row and moves {} to the discard pile", card_name(*card), card_name(*out))
            }
            Event::Discarded { seat, card } => write!(f, "  seat {seat} discards {}", card_name(*card)),
            Event::Sabotaged(r) => write!(
                f,
                "  seat {} plays {} onto seat {}'s row in place of {} (locked in the discard pile); seat {} now needs {} card(s), needed {}",
                r.seat,
                card_name(r.wild),
                r.victim,
                card_name(r.replaced),
                r.victim,
                r.need_after,
                r.need_before
            ),
            Event::Passed { seat } => write!(f, "  seat {seat} has no card and passes"),
            Event::Won { seat, row, turn } => write!(f, "\n== seat {seat} completes a RAINBOW in turn {turn}: [{row}]"),
            Event::Capped { turns } => write!(f, "\n== the turn cap is reached after {turns} turns: no winner"),
        }
    }
}

impl crate::games::Registered for RainbowRush {
    const KEYS: &'static [crate::games::key_table::VariantKey] = params::Params::KEYS;
    fn from_variant(variant: &crate::variant::Variant) -> Result<Self, crate::error::VariantError> {
        let params = variant.game_params()?;
        RainbowRush::new(params).map_err(|p| variant.invalid(p))
    }
    fn bench_lineup() -> crate::games::BenchLineup {
        crate::games::BenchLineup { bots: "builder", sets: &[] }
    }
}
