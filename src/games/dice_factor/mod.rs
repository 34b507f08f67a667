//! Dice Factor: be the first to hold 5 cards of the color or the shape the dice show, while
//! the d8, trades and action cards shake every hand (docs/games/dice-factor.md; rulebook: the
//! Dice Factor part of the Chroma Cards rules).
//!
//! Cards use the Chroma numbering of [`crate::games::chroma`] (canonical order). A hand keeps
//! how many of its cards count toward each of the ten concrete targets (5 colors, 5
//! shapes); the dice allow one color (or all five on the logo) and one shape (or all five).
//!
//! A seat's turn is a short series of decisions: [`Action::Draw`], [`Action::TakeDiscard`] or
//! [`Action::RollD8`]; then the discard ([`Action::Discard`]); an action card discarded asks
//! for its choice (a player, a card and a player, a die); a d8 swap, trade or reroll asks for
//! its choice or [`Action::Decline`]. After the turn every hand is checked for a win.
//!
//! Readings fixed here where the rulebook is silent (also in docs/games/dice-factor.md; what a player at the table would expect):
//! - Dealing gives each seat its `hand_size` cards in seat order (one hand at a time), then
//!   the dice are rolled; seat 0 plays turn 1.
//! - The skip, reverse, trade_hands and trade_one_card cards must be resolved when discarded
//!   (only the dice card and the d8's 6, 7 and 8 "may" be declined, as docs/games/dice-factor.md says).
//! - trade_one_card and the d8 swap: the card taken is drawn at random from the target's
//!   hand as it was before the given card joined it. trade_one_card may target a player with
//!   an empty hand (the giver then takes nothing); with no card left to give it has no
//!   effect. The d8 swap needs a card of one's own and a target holding a card; when no swap
//!   is possible the turn ends as if it had been declined.
//! - The d8 trade and the trade_hands card may name any other player (empty hand included);
//!   the add_a_card cards in front of each hand move with it.
//! - "An action card taken from the discard pile and discarded again in the same turn has no
//!   effect": copies are told apart. When the player also held an older copy of the same
//!   card, [`Action::Discard`] discards the older copy (it resolves) and
//!   [`Action::DiscardTaken`] the copy just taken (no effect); otherwise
//!   [`Action::Discard`] of that card discards the taken copy, with no effect. The taken copy
//!   stays "taken" for the whole turn (also through add_a_card's second discard).
//! - add_a_card is never on the discard pile: it lies in front of its hand for the rest of the
//!   game. Its two draws follow the draw rules (lazy reshuffle; nothing when both piles are
//!   empty). The hand's larger size needs no bookkeeping of its own: every later turn draws
//!   one and discards one, every swap gives one and takes one.
//! - A player who holds no card (only possible when both piles run dry) skips the discard;
//!   the turn still counts.
//! - Skips: "the next player" is the next seat in the current direction when the skip is
//!   resolved; a seat with pending skips loses one turn per skip as play reaches it.
//! - With 2 players reverse changes nothing (the next seat is the same either way).
//! - The win check looks at every seat, skipped ones included. The winning target reported is
//!   the winner's best target (highest score; ties to colors, then canonical order).
//! - `Outcome.scores`: each seat's highest number of cards counting toward one current
//!   target at the end (the winner's is at least `goal`). A capped game has no winner.
//! - `goal` (default 5) is a key: designers may race for 4 or 6 of a kind.
//! - What a seat sees: its own hand, the dice, the whole face-up discard pile (perfect
//!   memory), every seat's number of cards and add_a_card cards, the direction, pending
//!   skips, the draw pile's size; events show every public act (takes from the discard pile,
//!   discards, d8 rolls, rerolls, trades) and, to the two players involved, the cards of a
//!   swap.
//!
//! Determinization (search bots, `determinize.rs`), with perfect memory (docs/games/dice-factor.md): the
//! deciding seat knows its hand, the dice, the whole discard pile, every hand's size and
//! add_a_card cards, the draw pile's size, and of each other hand the cards it took from the
//! discard pile and has not discarded or given away since (the state keeps that public
//! record, `State::known`: it moves with a hand in a trade and is cleared when a random
//! card is taken from the hand, since the table does not see which). The other hands'
//! remaining cards and the draw pile form one pool, shuffled and dealt back with the same
//! sizes. One hint of the other seats' choices is kept as a belief (`State::last_discard`):
//! each hand's last discard and the dice then; samples re-deal a hand's unknown cards (up to
//! 256 times) until `collector`'s rule would have made that discard from it (no action card
//! held when a base card went; below the discarded card in canonical order only cards toward
//! the best target), as the search models the table with `collector` (`model=default`:
//! `HiddenInfo::honour_default_model`); a seat that plays otherwise leaves the last deal standing.
//! `model=auto` deals without this hint and reads every discard by the models it infers
//! for each seat (`engine::belief`). Forgotten (a weaker, never a cheating, search):
//! what a seat learns privately in a swap or a trade of hands (the hand it gave away, the
//! card it gave or took), which cards went into the draw pile at a reshuffle, and the other
//! hints of the other seats' choices (a discard top not taken).

mod audit;
mod bots;
mod determinize;
mod hand;
mod metrics;
pub mod params;
pub mod rules;
#[cfg(test)]
mod tests;
mod trace;
mod view;

use std::fmt;

use crate::engine::GameEvent;
use crate::games::chroma::{CARD_KINDS, COLORS, Card, SHAPES, card_name};
use crate::variant::Invalid;

pub use bots::{CollectorBot, GamblerBot, collector_discard};
pub use hand::{Hand, LOGO, TARGETS, allowed_targets, target_name};
pub use metrics::DiceMetrics;
pub use params::{D8Face, DICE_FACTOR_ACTIONS, MAX_PLAYERS, Params};
pub use rules::{END_CAP, END_FIVE, END_REASONS, Phase, State, Tally};
pub use view::View;

/// The two six-sided dice (`colors`, `shapes` in traces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Die {
    /// Faces: red, orange, yellow, green, blue, logo.
    Colors = 0,
    /// Faces: square, circle, star, cross, pentagon, logo.
    Shapes = 1,
}

impl Die {
    /// The name of a face of this die.
    pub fn face_name(self, face: u8) -> &'static str {
        match (self, face) {
            (_, f) if f >= LOGO => "logo",
            (Die::Colors, f) => COLORS[f as usize],
            (Die::Shapes, f) => SHAPES[f as usize],
        }
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Die::Colors => "colors die",
            Die::Shapes => "shapes die",
        })
    }
}

/// One decision of a Dice Factor seat (trace notation: `trace.rs`'s module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Option 1: draw the top card of the draw pile (then discard).
    Draw,
    /// Option 2: take the top card of the discard pile (then discard).
    TakeDiscard,
    /// Option 3: roll the d8.
    RollD8,
    /// Discard one card of this kind (see the module doc for a card taken this turn).
    Discard(#[serde(with = "crate::games::chroma::by_name")] Card),
    /// Discard the action card taken from the discard pile this turn while an older copy is
    /// held: it has no effect.
    DiscardTaken,
    /// Give this card to `target` and take a random card of theirs (trade_one_card, d8 swap).
    Give {
        /// The card given.
        #[serde(with = "crate::games::chroma::by_name")]
        card: Card,
        /// The other player.
        target: u8,
    },
    /// Trade hands with this seat (trade_hands card, d8 trade).
    TradeHands(u8),
    /// Reroll this die (dice card, d8 reroll).
    Reroll(Die),
    /// Decline the d8's swap, trade or reroll, or the dice card's reroll.
    Decline,
}

/// Dice Factor with one variant's parameters, ready to play.
pub struct DiceFactor {
    /// The variant's parameters.
    pub params: Params,
    /// The deck in canonical order (shuffled copies are dealt).
    pub deck: Vec<Card>,
    /// Copies of each card in the deck.
    pub copies: [u32; CARD_KINDS],
    /// Players at the table.
    pub players: usize,
}

impl DiceFactor {
    /// Checks the parameters and builds the game.
    pub fn new(params: Params) -> Result<Self, Vec<Invalid>> {
        params.check()?;
        let deck = params.deck_cards();
        let copies = params.copies();
        let players = params.players as usize;
        Ok(DiceFactor { params, deck, copies, players })
    }

    /// Cards to collect toward one target.
    #[inline]
    pub fn goal(&self) -> u32 {
        self.params.goal
    }
}

/// What happened, for traces and for bots that track the table.
#[derive(Clone, Debug)]
pub enum Event {
    /// A seat's starting hand (seen by that seat only).
    Dealt {
        /// The seat.
        seat: u8,
        /// Its hand.
        hand: Hand,
    },
    /// The dice were rolled at set-up.
    DiceRolled {
        /// Who rolled.
        seat: u8,
        /// The colors die (5 = logo).
        colors: u8,
        /// The shapes die (5 = logo).
        shapes: u8,
    },
    /// A turn begins.
    TurnStarts {
        /// Turn number.
        turn: u32,
        /// Whose turn.
        seat: u8,
    },
    /// A seat lost its turn to a skip.
    Skipped {
        /// The seat.
        seat: u8,
    },
    /// A seat drew a card (seen by that seat only).
    Drew {
        /// The seat.
        seat: u8,
        /// The card.
        card: Card,
    },
    /// A seat had to draw from empty piles and got nothing.
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
    /// The discard pile became the draw pile.
    Reshuffled {
        /// The new draw pile as the state holds it, bottom first (the last card is drawn
        /// first). No seat sees it: traces record it, bots must not read it.
        order: Vec<Card>,
    },
    /// A seat rolled the d8.
    RolledD8 {
        /// The roller.
        seat: u8,
        /// The face, from 1.
        face: u8,
        /// What it does.
        outcome: D8Face,
    },
    /// A seat swapped one card with another's random card (public: not which cards).
    CardsSwapped {
        /// The player who gave.
        seat: u8,
        /// The other player.
        target: u8,
    },
    /// The cards of a swap (seen by the two players involved).
    SwapDetail {
        /// The player who gave.
        seat: u8,
        /// The other player.
        target: u8,
        /// The card given.
        gave: Card,
        /// The card taken (none when the target held no card).
        took: Option<Card>,
    },
    /// Two seats traded hands (and the add_a_card cards in front of them).
    TradedHands {
        /// The player who traded.
        seat: u8,
        /// The other player.
        target: u8,
    },
    /// A die was rerolled.
    Rerolled {
        /// The roller.
        seat: u8,
        /// The die.
        die: Die,
        /// The new face (5 = logo).
        face: u8,
    },
    /// A seat declined its d8 outcome or its dice card.
    Declined {
        /// The seat.
        seat: u8,
    },
    /// A seat discarded a card face up (an add_a_card goes in front of it instead).
    Discarded {
        /// The seat.
        seat: u8,
        /// The card.
        card: Card,
        /// Whether an action card resolves (not the copy taken this turn).
        effect: bool,
    },
    /// A skip was played on the next seat.
    SkipPlayed {
        /// Who played it.
        seat: u8,
        /// Who loses a turn.
        target: u8,
    },
    /// The direction of play flipped.
    Reversed {
        /// Who played it.
        seat: u8,
    },
    /// A seat won.
    Won {
        /// The winner.
        seat: u8,
        /// The target completed (0..5 colors, 5..10 shapes).
        target: u8,
        /// Turns played.
        turns: u32,
    },
    /// The turn cap was reached: no winner.
    Capped {
        /// Turns played.
        turns: u32,
    },
}

impl GameEvent for Event {
    fn visible_to(&self, seat: usize) -> bool {
        let seat = seat as u8;
        match self {
            Event::Dealt { seat: s, .. } | Event::Drew { seat: s, .. } => *s == seat,
            Event::SwapDetail { seat: s, target, .. } => *s == seat || *target == seat,
            _ => true,
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Dealt { seat, hand } => write!(f, "seat {seat} is dealt [{hand}]"),
            Event::DiceRolled { seat, colors, shapes } => {
                write!(f, "seat {seat} rolls the dice: {} / {}", Die::Colors.face_name(*colors), Die::Shapes.face_name(*shapes))
            }
            Event::TurnStarts { turn, seat } => write!(f, "-- turn {turn}: seat {seat}"),
            Event::Skipped { seat } => write!(f, "  seat {seat} loses this turn to a skip"),
            Event::Drew { seat, card } => write!(f, "  seat {seat} draws {}", card_name(*card)),
            Event::DrewNothing { seat } => write!(f, "  seat {seat} draws nothing: no card left"),
            Event::TookDiscard { seat, card } => write!(f, "  seat {seat} takes {} from the discard pile", card_name(*card)),
            Event::Reshuffled { order } => write!(f, "  the discard pile is shuffled into a new draw pile of {} cards", order.len()),
            Event::RolledD8 { seat, face, outcome } => write!(f, "  seat {seat} rolls the d8: {face} ({})", outcome.name()),
            Event::CardsSwapped { seat, target } => {
                write!(f, "  seat {seat} swaps a card with seat {target}")
            }
            Event::SwapDetail { seat, target, gave, took } => {
                write!(f, "    seat {seat} gives {} to seat {target} and takes {}", card_name(*gave), took.map(card_name).unwrap_or_else(|| "nothing".into()))
            }
            Event::TradedHands { seat, target } => {
                write!(f, "  seat {seat} trades hands with seat {target}")
            }
            Event::Rerolled { seat, die, face } => write!(f, "  seat {seat} rerolls the {die}: {}", die.face_name(*face)),
            Event::Declined { seat } => write!(f, "  seat {seat} declines"),
            Event::Discarded { seat, card, effect } => {
                let note = if crate::games::chroma::is_action(*card) && !effect { " (taken this turn: no effect)" } else { "" };
                write!(f, "  seat {seat} discards {}{note}", card_name(*card))
            }
            Event::SkipPlayed { seat, target } => write!(f, "  seat {seat} skips seat {target}"),
            Event::Reversed { seat } => write!(f, "  seat {seat} reverses the direction of play"),
            Event::Won { seat, target, turns } => write!(f, "\n== seat {seat} WINS, completing {} after {turns} turns", target_name(*target as usize)),
            Event::Capped { turns } => write!(f, "\n== the turn cap is reached after {turns} turns: no winner"),
        }
    }
}

impl crate::games::Registered for DiceFactor {
    const KEYS: &'static [crate::games::key_table::VariantKey] = params::Params::KEYS;
    fn from_variant(variant: &crate::variant::Variant) -> Result<Self, crate::error::VariantError> {
        let params = variant.game_params()?;
        DiceFactor::new(params).map_err(|p| variant.invalid(p))
    }
    fn bench_lineup() -> crate::games::BenchLineup {
        crate::games::BenchLineup { bots: "collector", sets: &[] }
    }
}
