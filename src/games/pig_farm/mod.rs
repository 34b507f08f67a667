//! Pig Farm: collect sets of identical pigs, dodge the butcher, and sell the farm before
//! the others do (docs/games/pig-farm.md; rulebook: the Pig Farm part of the Chroma Cards
//! rules).
//!
//! Cards reuse the Chroma numbering: pig `color * 5 + shape` for 0..25 (canonical order:
//! red, orange, yellow, green, blue; square, circle, star, cross, pentagon). The butcher
//! is Pig Farm's own card, [`BUTCHER`] = 25; Pig Farm has no wilds or action cards.
//!
//! A seat's turn is a short series of decisions: at the start it sells ([`Action::Sell`])
//! or makes its first draw ([`Action::DrawPile`] / [`Action::TakeDiscard`]); then its
//! second draw; then [`Action::Discard`] of one pig. A butcher drawn at any point asks for
//! [`Action::Roll`] of one die and ends the turn.
//!
//! Readings fixed here where the rulebook is silent (also in docs/games/pig-farm.md; what a player at the table would expect):
//! - Both draws may come from the discard pile (the second takes the new top), or one from
//!   each pile; the player may discard the pig just taken.
//! - Selling is the turn's option B: only at the start of a turn, before drawing.
//! - A butcher dealt at the start of a round is resolved before the first turn in turn
//!   order starting with the round's first seat (seat order in round one), each one by the
//!   seat that holds it, and is not replaced: that hand stays one card short.
//! - A butcher drawn (first or second card) ends the turn at once: no further draw, no
//!   discard. The roller picks the die; the die is fair (5 faces + the logo face).
//! - Culled pigs go face up onto the discard pile, the roller's first, then the other seats
//!   in turn order, each hand's pigs in canonical order; then the butcher goes on top.
//! - Drawing from an empty draw pile shuffles the discard pile (butchers included) into a
//!   new draw pile (`reshuffle_discard`, default true); with both piles empty, or
//!   reshuffling off, the draw gives nothing. A player with no pig after drawing skips the
//!   discard.
//! - `turn_cap` counts turns per round. A turn is one seat's turn (selling turn included);
//!   a round that would start turn `turn_cap + 1` ends unsold and nobody scores in it.
//! - Non-sellers with 0 sets score 0 (row `0` of `scoring.others` may say otherwise).
//! - The rulebook examples (seller 130 and 270) hold a hand with at least one unmatched
//!   pig; a seller with no unmatched pig adds the all-pigs bonus on top.
//! - A set of 5 or more pigs earns the 5+ bonus once (a set of 6 is not a 5 plus a pair).
//! - A match: `rounds` rounds, round r (from 0) starts with seat r mod players; every
//!   round is dealt from the whole reshuffled deck. `Outcome.scores` are the match totals;
//!   `Outcome.length` is the turns played over the whole match; the end reason is `cap`
//!   when any round of the match reached the cap, else `sold`. The game's own report adds
//!   turns per round and the cap share per round.
//! - What a bot sees: its own hand, every seat's hand size, the whole discard pile (each
//!   card in it was laid face up in front of everyone), the draw pile's size, the match
//!   scores and, through events, every public action (takes from the discard pile,
//!   discards, butchers, rolls and culls).

mod audit;
mod bots;
mod determinize;
mod metrics;
pub mod params;
pub mod rules;
pub mod scoring;
#[cfg(test)]
mod tests;
mod trace;
mod turns;

use std::fmt;

use crate::engine::GameEvent;
use crate::games::chroma::{Card, cell_name};
use crate::variant::Invalid;

pub use bots::{GreedyBot, ThresholdBot, threshold_die, threshold_discard};
pub use metrics::PigMetrics;
pub use params::{KINDS, MAX_PLAYERS, Params, Scoring};
pub use rules::{END_CAP, END_REASONS, END_SOLD, Hand, Phase, RollRecord, RoundRecord, State};

/// The butcher card (Pig Farm's own card; pigs are 0..25).
pub const BUTCHER: Card = 25;

/// Faces of either die: the 5 colors (shapes) in canonical order, then the logo.
pub const FACES: u8 = 6;
/// The logo face: nothing happens.
pub const LOGO: u8 = 5;

/// The two butcher dice (`colors`, `shapes` in traces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Die {
    /// Faces: red, orange, yellow, green, blue, logo.
    Colors,
    /// Faces: square, circle, star, cross, pentagon, logo.
    Shapes,
}

impl Die {
    /// Bit mask of the pigs a face (0..5) takes; 0 for the logo.
    #[inline]
    pub fn face_mask(self, face: u8) -> u32 {
        if face >= LOGO {
            return 0;
        }
        match self {
            Die::Colors => 0b11111 << (5 * face),
            Die::Shapes => 0b00001_00001_00001_00001_00001 << face,
        }
    }

    /// The name of a face.
    pub fn face_name(self, face: u8) -> &'static str {
        match (self, face) {
            (_, f) if f >= LOGO => "logo",
            (Die::Colors, f) => crate::games::chroma::COLORS[f as usize],
            (Die::Shapes, f) => crate::games::chroma::SHAPES[f as usize],
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

/// One decision of a Pig Farm seat (trace notation: `trace.rs`'s module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Sell the farm (start of turn, at least `min_sets_to_sell` sets): ends the round.
    Sell,
    /// Draw the top card of the draw pile.
    DrawPile,
    /// Take the top of the discard pile (a pig, never a butcher).
    TakeDiscard,
    /// Discard one pig of this kind.
    Discard(#[serde(with = "trace::by_name")] Card),
    /// Roll this die for the butcher.
    Roll(Die),
}

/// What is being decided. Tagged as [`Phase`] is (`repr(u8)`, tags 0-3 those of the phases
/// it is read from), so the phase-to-decision step is no work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Decision {
    /// Start of the turn: sell, or make the first draw.
    Start = 0,
    /// The second draw.
    SecondDraw = 1,
    /// Which pig to discard.
    Discard = 2,
    /// Which die to roll for a butcher (`dealt`: one from the starting hand).
    Butcher {
        /// Whether the butcher came with the starting hand.
        dealt: bool,
    } = 3,
}

/// What one seat sees: its own hand and everything public.
pub struct View<'a> {
    /// The deciding seat.
    pub seat: usize,
    /// Where the turn stands: what it decides, read through [`View::decision`].
    phase: Phase,
    /// Its hand.
    pub hand: &'a Hand,
    /// The discard pile, top card last (every card in it was laid face up).
    pub discard: &'a [Card],
    /// Cards in the draw pile.
    pub draw_pile: usize,
    /// Every seat's pigs (only their numbers are public: see [`View::hand_size`]).
    hands: &'a [Hand; MAX_PLAYERS],
    /// Players at the table.
    pub players: usize,
    /// The seat that moved first this round.
    pub first_seat: usize,
    /// Round index (from 0).
    pub round: u32,
    /// Turns played this round, the current one included.
    pub round_turn: u32,
    /// Match points so far per seat.
    pub scores: &'a [i64; MAX_PLAYERS],
}

impl View<'_> {
    /// What the seat decides. Read from the turn's phase when asked (a bot's `match` on it
    /// and this one become one dispatch), rather than converted for every view.
    #[inline(always)]
    pub fn decision(&self) -> Decision {
        match self.phase {
            Phase::SecondDraw => Decision::SecondDraw,
            Phase::Discard => Decision::Discard,
            Phase::Butcher { dealt } => Decision::Butcher { dealt },
            Phase::Start | Phase::Over => Decision::Start,
        }
    }

    /// The top of the discard pile when it is a pig (so it may be taken).
    #[inline]
    pub fn discard_top_pig(&self) -> Option<Card> {
        self.discard.last().copied().filter(|&c| c != BUTCHER)
    }

    /// `seat`'s number of pigs in hand (public: cards can be counted).
    #[inline]
    pub fn hand_size(&self, seat: usize) -> usize {
        self.hands[seat].len()
    }
}

/// Pig Farm with one variant's parameters, ready to play.
pub struct PigFarm {
    /// The variant's parameters.
    pub params: Params,
    /// The checked scoring lookup.
    pub scoring: Scoring,
    /// The deck in canonical order, butchers last (shuffled copies are dealt).
    pub deck: Vec<Card>,
    /// Players at the table.
    pub players: usize,
    /// Reciprocals for shuffling the deck as rand's shuffle does, without divisions.
    pub(crate) divisors: crate::engine::rng::Divisors,
}

impl PigFarm {
    /// Checks the parameters and builds the game.
    pub fn new(params: Params) -> Result<Self, Vec<Invalid>> {
        let scoring = params.check()?;
        let mut deck = Vec::with_capacity(params.deck_size() as usize);
        for pig in 0..KINDS as Card {
            deck.extend(std::iter::repeat_n(pig, params.deck.base_sets as usize));
        }
        deck.extend(std::iter::repeat_n(BUTCHER, params.deck.butchers as usize));
        let players = params.players as usize;
        let divisors = crate::engine::rng::Divisors::up_to(deck.len());
        Ok(PigFarm { params, scoring, deck, players, divisors })
    }

    /// Copies of each pig in the deck.
    #[inline]
    pub fn copies(&self) -> u32 {
        self.params.deck.base_sets
    }

    /// Sets needed to sell.
    #[inline]
    pub fn min_sets(&self) -> u32 {
        self.params.min_sets_to_sell
    }
}

/// Readable card name: `blue star` or `butcher`.
pub fn card_name(card: Card) -> String {
    if card == BUTCHER { "butcher".into() } else { cell_name(card) }
}

/// What happened, for traces and for bots that track the table.
#[derive(Clone, Debug)]
pub enum Event {
    /// A round begins.
    RoundStarts {
        /// Round index (from 0).
        round: u32,
        /// Its first seat.
        first: u8,
    },
    /// A seat's starting pigs and butchers (seen by that seat only).
    Dealt {
        /// The seat.
        seat: u8,
        /// Its pigs.
        hand: Hand,
        /// Butchers in its starting hand.
        butchers: u8,
    },
    /// A turn begins.
    TurnStarts {
        /// Turn number in the round.
        turn: u32,
        /// Whose turn.
        seat: u8,
    },
    /// A seat drew a pig from the draw pile (seen by that seat only).
    Drew {
        /// The seat.
        seat: u8,
        /// The pig.
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
        /// The pig.
        card: Card,
    },
    /// A seat discarded a pig.
    Discarded {
        /// The seat.
        seat: u8,
        /// The pig.
        card: Card,
    },
    /// A seat drew a butcher (or holds one from the deal) and must roll.
    Butcher {
        /// The seat.
        seat: u8,
        /// Whether it came with the starting hand.
        dealt: bool,
    },
    /// A butcher die was rolled.
    Rolled {
        /// The roller.
        seat: u8,
        /// The die.
        die: Die,
        /// The face (5 = logo).
        face: u8,
    },
    /// A seat lost its pigs to the butcher (face up onto the discard pile).
    Culled {
        /// The seat.
        seat: u8,
        /// The die rolled.
        die: Die,
        /// The face rolled.
        face: u8,
        /// Pigs lost.
        pigs: u16,
    },
    /// The discard pile became the draw pile.
    Reshuffled {
        /// The new draw pile as the state holds it, bottom first (the last card is drawn
        /// first). No seat sees it: traces record it, bots must not read it.
        order: Vec<Card>,
    },
    /// A seat sold its farm.
    Sold {
        /// The seller.
        seat: u8,
        /// Its sets.
        sets: u8,
    },
    /// A round was scored.
    RoundScored {
        /// Round index.
        round: u32,
        /// Points per seat this round.
        scores: [i64; MAX_PLAYERS],
    },
    /// A round reached the turn cap and scores nothing.
    RoundCapped {
        /// Round index.
        round: u32,
        /// Turns played.
        turns: u32,
    },
    /// The match ended.
    GameOver {
        /// End reason index.
        reason: u8,
        /// Turns over the whole match.
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
            Event::RoundStarts { round, first } => write!(f, "\n== round {} starts with seat {first}", round + 1),
            Event::Dealt { seat, hand, butchers } => {
                write!(f, "seat {seat} is dealt [{hand}]")?;
                if *butchers > 0 { write!(f, " and {butchers} butcher(s)") } else { Ok(()) }
            }
            Event::TurnStarts { turn, seat } => write!(f, "-- turn {turn}: seat {seat}"),
            Event::Drew { seat, card } => write!(f, "  seat {seat} draws {}", card_name(*card)),
            Event::DrewNothing { seat } => write!(f, "  seat {seat} draws nothing: both piles are empty"),
            Event::TookDiscard { seat, card } => write!(f, "  seat {seat} takes {} from the discard pile", card_name(*card)),
            Event::Discarded { seat, card } => write!(f, "  seat {seat} discards {}", card_name(*card)),
            Event::Butcher { seat, dealt: true } => write!(f, "  seat {seat} was dealt a BUTCHER"),
            Event::Butcher { seat, dealt: false } => write!(f, "  seat {seat} draws a BUTCHER: the turn ends"),
            Event::Rolled { seat, die, face } => write!(f, "  seat {seat} rolls the {die}: {}", die.face_name(*face)),
            Event::Culled { seat, die, face, pigs } => write!(f, "    seat {seat} loses {pigs} {} pig(s)", die.face_name(*face)),
            Event::Reshuffled { order } => write!(f, "  the discard pile is shuffled into a new draw pile of {} cards", order.len()),
            Event::Sold { seat, sets } => write!(f, "  seat {seat} SELLS the farm with {sets} sets"),
            Event::RoundScored { round, scores } => {
                write!(f, "  round {} scores:", round + 1)?;
                for (s, p) in scores.iter().enumerate().filter(|(_, p)| **p != 0) {
                    write!(f, " seat {s} {p:+}")?;
                }
                Ok(())
            }
            Event::RoundCapped { round, turns } => write!(f, "  round {} reaches the cap after {turns} turns: nobody scores", round + 1),
            Event::GameOver { reason, turns } => write!(f, "\n== match over after {turns} turns: {}", END_REASONS[*reason as usize]),
        }
    }
}

impl crate::games::Registered for PigFarm {
    const KEYS: &'static [crate::games::key_table::VariantKey] = params::Params::KEYS;
    // The scoring tables are read only when a round is sold.
    const SCORE_KEYS: &'static [&'static str] = &["scoring.*"];
    const STRUCTURAL_KEYS: &'static [&'static str] = &["players", "rounds"];
    fn from_variant(variant: &crate::variant::Variant) -> Result<Self, crate::error::VariantError> {
        let params = variant.game_params()?;
        PigFarm::new(params).map_err(|p| variant.invalid(p))
    }
}
