//! Match Patch: collect identical pairs, drawing from the pile or from a patch of face-down
//! cards whose identities were announced when they were placed (docs/games/match-patch.md;
//! rulebook: the Match Patch part of the Chroma Cards rules).
//!
//! Cards reuse the Chroma numbering: base card `color * 5 + shape`, 0..25 (canonical order:
//! red, orange, yellow, green, blue; square, circle, star, cross, pentagon). The deck is
//! `deck.base_sets` (even) base sets; Match Patch uses no wilds and no action cards.
//!
//! A turn is a series of decisions of one seat: one [`Action::Pile`] or [`Action::Take`]
//! per single draw (the turn's first draw, then each of the up to `pair_draws` draws after
//! a pair), then one [`Action::Place`]. Laying pairs and the end check are automatic.
//!
//! Readings fixed here where the rulebook is silent (also in docs/games/match-patch.md; what a player at the
//! table would expect):
//! - Seat 0 moves first (the rulebook's mini-pip rule is replaced by docs/games/match-patch.md's seat
//!   order). The deal gives each seat `deal` cards from the top of the shuffled deck, seat 0
//!   first; a hand keeps its cards in the order they came in (dealt cards in deal order).
//! - A pair dealt in a starting hand is laid in its holder's first turn, after the first
//!   draw (step 2 looks at the whole hand), and is followed by the redraws like any pair.
//! - The redraws after a pair are single draws, each a decision from the pile or any slot;
//!   pairs are looked for again only after the batch (a pair made by the first redraw is
//!   laid after the second). When the pile and the patch are both empty the remaining draws
//!   of the batch are skipped, and any pair still held is laid (with no redraw).
//! - Drawing is never a choice of "nothing": when only the pile (only the patch) holds
//!   cards, the draw must come from it. When both are empty at the start of a turn (only
//!   possible when the deal took the whole deck) the player draws nothing and goes on to
//!   its pairs and the end check.
//! - The end check (step 3) comes after the player's draws and pairs: the game ends when
//!   the pile and the patch are both empty then, with no placement; the turn counts.
//! - The card placed may be any card of the hand, the one just taken from the patch
//!   included (it goes to a new slot at the end of the patch: the rulebook's "place the
//!   same card back in a different location"). A hand holds no pair when placing, so its
//!   cards are distinct. With an empty hand (which the rules above never produce) the turn
//!   ends without a placement.
//! - The patch is a row in placement order; a taken slot leaves the row and no other slot
//!   moves ("no sliding"). A slot is identified by its position in the row (0 = oldest);
//!   its placement number is public too.
//! - What a seat sees: its own hand (in arrival order), the size of the pile, the patch's
//!   slots (where they are, not what they hold), every seat's hand size and pairs, and the
//!   pairs laid face up. Through events: every placement with the announced card, which
//!   slot each player takes, every pair laid, and its own
//!   draws (a card drawn by someone else is never shown).
//! - Turn cap: the game stops after turn `turn_cap` (end reason `cap`), and the most pairs
//!   win as usual; a turn ended by the end check in step 3 ends with `patch_empty` even on
//!   the last allowed turn.
//! - Cards left in hands count nothing; ties share the win.
//! - `pair_draws` (default 2) is the number of cards drawn after each pair, a docs/games/match-patch.md
//!   number designers may change (0 to 2; more would let a hand grow without bound).
//!
//! Determinization (search bots, `determinize.rs`), with perfect memory (docs/games/match-patch.md): the
//! deciding seat knows its hand, the pile's size, the patch slot by slot (every card placed
//! was announced), the pairs laid, and of each other hand the cards it took from the patch
//! and has not placed or laid since, and the kinds it cannot hold (a kind it placed from its
//! pair-free hand, until it next draws from the pile). The state keeps that public record
//! (`State::known`, `State::excluded`). The other hands' remaining cards and the pile form
//! one pool, shuffled and dealt back with the same sizes; a deal that gives a pair, or a
//! kind it cannot hold, to a hand that has finished a turn (pairs are laid at once) is
//! redrawn (up to 32 times, then mended by swaps within the pool). What other seats'
//! choices hint is a belief, kept per card (`Hand::passed_up`): a seat that drew from the pile
//! while the patch showed a card did not hold its twin then (taking the slot lays a pair),
//! so none of the cards it held at that draw is of a kind the patch showed. Samples honour
//! the belief when they can and fall back to the facts alone when they cannot (an opponent
//! that forgot the patch). Not modelled: a forgotten exclusion after a pile draw.

mod audit;
mod bots;
mod determinize;
mod metrics;
pub mod params;
pub mod rules;
#[cfg(test)]
mod tests;
mod trace;

use std::fmt;

use crate::engine::GameEvent;
use crate::games::chroma::{Card, cell_name};
use crate::variant::{Invalid, Variant};

pub use bots::{MemoryBot, TableMemoryBot, memory_choice, memory_place};
pub use metrics::MatchMetrics;
pub use params::{HAND_CAP, KINDS, MAX_PLAYERS, Params};
#[cfg(test)]
pub use rules::PlainHand;
pub use rules::{END_CAP, END_PATCH_EMPTY, END_REASONS, Hand, Patch, Phase, Slot, State};

/// One decision of a Match Patch seat (trace notation: `trace.rs`'s module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Draw the top card of the draw pile.
    Pile,
    /// Take the card of the patch slot at this position (0 = oldest).
    Take(u16),
    /// Place this card of the hand in a new slot at the end of the patch, announcing it.
    Place(#[serde(with = "crate::games::chroma::by_name")] Card),
}

/// What is being decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// One single draw.
    Draw {
        /// Whether this draw follows a pair (false: the turn's first draw).
        after_pair: bool,
    },
    /// Which card to place.
    Place,
}

/// What one seat sees: its own hand and everything public. It holds the table privately and
/// tells only what the seat could see, so bots cannot read the patch's face-down cards.
pub struct View<'a> {
    /// The deciding seat.
    pub seat: usize,
    /// What it decides.
    pub decision: Decision,
    /// Its hand, held longest first.
    pub hand: &'a Hand,
    table: &'a State,
    players: usize,
}

impl<'a> View<'a> {
    /// Bit mask of the kinds the patch's slots hold (bit k = kind k), as announced: public
    /// like [`View::slots`], which it summarizes without a scan.
    #[inline]
    pub fn patch_kinds(&self) -> u32 {
        self.table.patch.kinds()
    }

    /// The patch's slots, oldest first: each slot's placement number and the card announced
    /// when it was placed. Public: every seat heard the announcement (docs/games/match-patch.md, "Match
    /// Patch": its identity is public to whoever remembers it); a bot that forgets, as
    /// `memory` with `recall` below 1, forgets on its own.
    #[inline]
    pub fn slots(&self) -> &'a [Slot] {
        &self.table.patch
    }

    /// The patch: its slots as [`View::slots`] tells them, with their kinds and counts.
    #[inline]
    pub fn patch(&self) -> &'a Patch {
        &self.table.patch
    }

    /// Cards in the draw pile.
    #[inline]
    pub fn pile(&self) -> usize {
        self.table.pile.len()
    }

    /// Slots in the patch.
    #[inline]
    pub fn patch_len(&self) -> usize {
        self.table.patch.len()
    }

    /// The placement number of the slot at `position` (public: where it lies).
    #[inline]
    pub fn slot_serial(&self, position: usize) -> u32 {
        self.table.patch[position].serial
    }

    /// Players at the table.
    #[inline]
    pub fn players(&self) -> usize {
        self.players
    }

    /// Pairs laid by `seat` (public).
    #[inline]
    pub fn pairs(&self, seat: usize) -> u32 {
        self.table.pairs[seat]
    }

    /// Cards `seat` holds (public: cards can be counted).
    #[inline]
    pub fn hand_size(&self, seat: usize) -> usize {
        self.table.hands[seat].len()
    }

    /// Pairs laid face up per kind, all seats together (public).
    #[inline]
    pub fn laid(&self) -> &[u8; KINDS] {
        &self.table.laid
    }

    /// Turn number (from 1).
    #[inline]
    pub fn turn(&self) -> u32 {
        self.table.turns
    }
}

/// Match Patch with one variant's parameters, ready to play.
pub struct MatchPatch {
    /// The variant's parameters.
    pub params: Params,
    /// The deck in canonical order (shuffled copies are dealt).
    pub deck: Vec<Card>,
    /// Players at the table.
    pub players: usize,
}

impl MatchPatch {
    /// Checks the parameters and builds the game.
    pub fn new(params: Params) -> Result<Self, Vec<Invalid>> {
        params.check()?;
        let mut deck = Vec::with_capacity(params.deck_size() as usize);
        for card in 0..KINDS as Card {
            deck.extend(std::iter::repeat_n(card, params.deck.base_sets as usize));
        }
        let players = params.players as usize;
        Ok(MatchPatch { params, deck, players })
    }
}

/// What happened, for traces and for bots that track the table.
#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// A card dealt to a seat (seen by that seat only).
    Dealt {
        /// The seat.
        seat: u8,
        /// The card.
        card: Card,
    },
    /// A turn begins.
    TurnStarts {
        /// Turn number (from 1).
        turn: u32,
        /// Whose turn.
        seat: u8,
    },
    /// A seat takes a patch slot (public; the card is in [`Event::Drew`]).
    Took {
        /// The seat.
        seat: u8,
        /// The slot's position in the patch before it was taken (0 = oldest).
        index: u16,
        /// The slot's placement number.
        serial: u32,
    },
    /// The card a seat drew (seen by that seat only). Other seats see a draw from the pile
    /// in the view (the pile shrinks) and a take in [`Event::Took`].
    Drew {
        /// The seat.
        seat: u8,
        /// The card.
        card: Card,
        /// Whether it came from the pile (else from the slot of the [`Event::Took`] before).
        pile: bool,
    },
    /// A seat lays a pair face up.
    Laid {
        /// The seat.
        seat: u8,
        /// The paired card.
        card: Card,
    },
    /// A seat places an announced card in a new slot at the end of the patch.
    Placed {
        /// The seat.
        seat: u8,
        /// The announced card.
        card: Card,
        /// The slot's placement number.
        serial: u32,
    },
    /// The game is over.
    GameOver {
        /// Index into [`END_REASONS`].
        reason: u8,
        /// Turns played.
        turns: u32,
    },
}

impl GameEvent for Event {
    #[inline]
    fn visible_to(&self, seat: usize) -> bool {
        match self {
            Event::Dealt { seat: s, .. } | Event::Drew { seat: s, .. } => *s as usize == seat,
            _ => true,
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::Dealt { seat, card } => write!(f, "seat {seat} is dealt {}", cell_name(card)),
            Event::TurnStarts { turn, seat } => write!(f, "-- turn {turn}: seat {seat}"),
            Event::Took { seat, index, serial } => write!(f, "  seat {seat} takes patch slot {index} (placed as number {serial})"),
            Event::Drew { seat, card, pile: true } => write!(f, "  seat {seat} draws {} from the pile", cell_name(card)),
            Event::Drew { seat, card, .. } => write!(f, "    seat {seat} gets {}", cell_name(card)),
            Event::Laid { seat, card } => {
                write!(f, "  seat {seat} lays a pair of {}", cell_name(card))
            }
            Event::Placed { seat, card, serial } => write!(f, "  seat {seat} places {} in the patch (number {serial})", cell_name(card)),
            Event::GameOver { reason, turns } => write!(f, "\n== game over after {turns} turns: {}", END_REASONS[reason as usize]),
        }
    }
}

impl crate::games::Registered for MatchPatch {
    const KEYS: &'static [crate::games::key_table::VariantKey] = params::Params::KEYS;

    fn from_variant(variant: &Variant) -> Result<Self, crate::error::VariantError> {
        let params = variant.game_params()?;
        MatchPatch::new(params).map_err(|p| variant.invalid(p))
    }

    fn bench_lineup() -> crate::games::BenchLineup {
        crate::games::BenchLineup { bots: "memory", sets: &[] }
    }

    /// Win share against recall: one `memory` seat's win share as its `recall` goes 0,
    /// 0.25, 0.5, 0.75, 1 against `memory:recall=1` opponents.
    const SEAT_SWEEPS: &'static [crate::games::SeatSweep] = &[crate::games::SeatSweep {
        bot: "memory",
        param: "recall",
        values: &RECALLS,
        opponents: 1.0,
        file: "win_share_vs_recall",
        title: "Win share by recall, one memory seat vs perfect memory",
        x_label: "recall of the tested seat (chance of remembering a placed card)",
        series: "tested memory seat (every position in turn)",
    }];
}

/// The recall values of the win-share-against-recall chart.
pub const RECALLS: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
