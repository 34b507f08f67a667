//! The machine that plays a compiled rules file: the table state, the evaluation of
//! expressions, the instructions run between two decisions, the legal choices of a seat,
//! what each seat knows of every card (for views, observations and determinizations).
//!
//! This file holds the types (the bound file [`Bound`], the table [`State`], a seat's
//! [`Choice`], an [`Event`], the cards of a zone [`Cards`]) and the machine's limits; each
//! concern is a file of its own with its own `impl Bound`: `eval` (expressions), `setup` (the
//! tables worked out at binding, the deal), `zones` (card moves), `steps` (the step
//! interpreter), `turns`, `dice`, `end` (end checks, winners, outcome), `choices` (a seat's
//! choices counted, drawn, listed and applied), `sets` (sets of cards counted and ranked),
//! `hidden` (observations and determinizations) and `text` (names and rendering).

use std::sync::Arc;

use crate::engine::MAX_SEATS;
use crate::games::rules::program::*;

mod choices;
mod dice;
mod end;
mod eval;
mod hidden;
mod sets;
mod setup;
mod steps;
mod text;
mod turns;
mod zones;

pub use sets::Block;

/// Instructions the machine runs between two decisions before it calls the game stuck (a
/// loop without a decision).
pub const STEP_LIMIT: u32 = 200_000;

/// Most choices one decision may offer (sets of cards from a large zone are cut here;
/// `validate` warns when a sampled game reaches it).
pub const CHOICE_LIMIT: usize = 1 << 16;

/// Most cards in a deck.
pub const MAX_CARDS: usize = 4096;

/// [`State::where_is`] of a die's faces that are not showing: in no zone.
pub const NOWHERE: u16 = u16::MAX;

/// A rules file bound to one variant's parameter values: the program, the values, the deck.
#[derive(Debug)]
pub struct Bound {
    /// The compiled file.
    pub program: Arc<Program>,
    /// Parameter values (rows of a table parameter are in `rows`).
    pub params: Vec<i64>,
    /// Rows of table parameters (empty for others).
    pub rows: Vec<Vec<i64>>,
    /// Acting seats.
    pub players: usize,
    /// Seats, dummies included.
    pub seats: usize,
    /// Attribute values of every card.
    pub attrs: Vec<[u8; 8]>,
    /// Kind (attribute combination) of every card.
    pub kinds: Vec<u32>,
    /// Per card when the deck has dice (else empty): the first card of its die and the
    /// die's faces (0: not a die). A die is one card per face, of which exactly one is on the
    /// table; the others are in no zone ([`NOWHERE`]).
    pub dice: Vec<(u16, u8)>,
    /// The cards each shared zone starts with (instance, cards).
    pub start: Vec<(u16, Vec<u16>)>,
    /// Turn cap.
    pub cap: u32,
    /// Rounds in the match (1: no rounds).
    pub rounds: u32,
    /// The first seat.
    pub first_seat: usize,
    /// The declaration (index in the program's zones) of every zone instance.
    pub instance_decl: Vec<u16>,
    /// The owner of every zone instance (-1: a shared zone).
    pub instance_owner: Vec<i8>,
    /// Seats that see the cards of every zone instance (bit per seat) and whether it shows
    /// its top card only (then the mask is for the top card): [`Bound::see_table`].
    pub see: Vec<(u8, bool)>,
    /// Per action, its choices counted ahead when their number depends only on the size of
    /// the zone chosen from ([`Bound::quick_table`]).
    pub quick: Vec<Option<QuickChoice>>,
}

/// An action whose choices are every set of `lo..=hi` cards by position from a shared zone
/// or the chooser's own, with no argument, no condition and both bounds constants or
/// parameters: how many choices it has for every size of that zone, worked out when the file
/// is bound, so a decision counts them with one look-up.
#[derive(Clone, Debug)]
pub struct QuickChoice {
    /// The zone's instance (shared), or its first instance (per seat: the chooser's).
    zone: u16,
    /// Whether the zone is the chooser's own.
    per_seat: bool,
    /// Fewest cards (at most 64: else no size has a choice).
    lo: u8,
    /// Most cards (at most 64).
    hi: u8,
    /// The number of choices from a zone of n cards (n up to 64); `u32::MAX` when it reaches
    /// [`CHOICE_LIMIT`] (left to the general walk, which cuts the list).
    totals: [u32; 65],
}

/// The table: every zone's cards, every counter, where the machine is in the rules, and
/// what each seat knows of every card.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Cards of each zone instance, bottom first.
    pub zones: Vec<Vec<u16>>,
    /// Counter values.
    pub counters: Vec<i64>,
    /// Bound names.
    pub binds: [i64; BINDS],
    /// Next instruction.
    pub pc: u32,
    /// Return addresses of the actions being applied.
    pub stack: [u32; STACK],
    /// Depth of `stack`.
    pub depth: u8,
    /// The seat whose turn it is.
    pub current: u8,
    /// The round's first seat.
    pub first: u8,
    /// Whether turn order runs backwards.
    pub reversed: bool,
    /// Turns played.
    pub turn: u32,
    /// Turns played this round.
    pub round_turn: u32,
    /// Rounds finished.
    pub round: u32,
    /// The cards the action being applied chose.
    pub chosen: Vec<u16>,
    /// Each seat's secret choice (action + 1, 0: none) and argument.
    pub secret: [(u16, i64); MAX_SEATS],
    /// Whether the secret choices were revealed.
    pub revealed: bool,
    /// The seat that must decide and the choose instruction it decides at.
    pub waiting: Option<(u8, u32)>,
    /// The number of legal choices of the waiting seat when the machine counted them as it
    /// stopped at the decision ([`Bound::random_choice`] draws below it without counting
    /// again); 0 when not counted (a choice that must be listed, or a state changed since).
    pub counted: u32,
    /// When every choice [`State::counted`] counts is one block (one action and argument,
    /// sets of cards of the same candidates), that block: [`Bound::random_choice`] finds the
    /// drawn choice in it without walking the actions again.
    pub block: Option<Block>,
    /// Bit s: seat s knows which zone the card is in.
    pub know_zone: Vec<u8>,
    /// Bit s: seat s knows the card's place in its zone.
    pub know_pos: Vec<u8>,
    /// Zone instance of every card.
    pub where_is: Vec<u16>,
    /// Eliminated seats.
    pub eliminated: u8,
    /// Turn each seat was eliminated in.
    pub eliminated_at: [u32; MAX_SEATS],
    /// The next seat in turn order loses its turn.
    pub skip_next: bool,
    /// The next turn's seat, when a step named it.
    pub next_seat: Option<u8>,
    /// Seats passed over in a row.
    pub passed: u8,
    /// A turn is under way (begun, not yet ended): `end game` and `end round` in it count it
    /// as played, as a player would count the turn in which the game ended.
    pub in_turn: bool,
    /// Whether the game is over.
    pub over: bool,
    /// End reason.
    pub end_reason: u8,
    /// Winners (bit per seat).
    pub winners: u16,
    /// Each seat's last action (+1; 0: none) and argument, for rules against repeating.
    pub last: [(u16, i64); MAX_SEATS],
}

impl Bound {
    /// The program.
    pub fn p(&self) -> &Program {
        &self.program
    }
}

/// One line of what happened, with the seats that see it.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// Bit per seat that sees it.
    pub to: u8,
    /// The line, in the file's words.
    pub text: String,
}

impl Event {
    /// A line every seat sees.
    pub fn all(text: String) -> Event {
        Event { to: u8::MAX, text }
    }
}

/// Bind slot of the action's number or seat.
pub const ARG: usize = BINDS - 1;

/// Bind slot of the zone instance whose positions `CHOSEN_MASK` names while choices are
/// listed (-1: `chosen` is the state's list of chosen cards).
pub const CHOSEN_ZONE: usize = BINDS - 2;

/// Bind slot of the positions of a candidate set of cards.
pub const CHOSEN_MASK: usize = BINDS - 3;

/// Bound names as a game starts (`chosen` is the state's list).
pub const BINDS_FRESH: [i64; BINDS] = {
    let mut b = [0; BINDS];
    b[CHOSEN_ZONE] = -1;
    b
};

impl State {
    /// A table with nothing on it.
    pub fn empty() -> State {
        State {
            zones: Vec::new(),
            counters: Vec::new(),
            binds: BINDS_FRESH,
            pc: 0,
            stack: [0; STACK],
            depth: 0,
            current: 0,
            first: 0,
            reversed: false,
            turn: 0,
            round_turn: 0,
            round: 0,
            chosen: Vec::new(),
            secret: [(0, 0); MAX_SEATS],
            revealed: false,
            waiting: None,
            counted: 0,
            block: None,
            know_zone: Vec::new(),
            know_pos: Vec::new(),
            where_is: Vec::new(),
            eliminated: 0,
            eliminated_at: [0; MAX_SEATS],
            skip_next: false,
            next_seat: None,
            passed: 0,
            in_turn: false,
            over: false,
            end_reason: 0,
            winners: 0,
            last: [(0, 0); MAX_SEATS],
        }
    }
}

/// The cards of a zone, or the positions of a zone a candidate choice names.
#[derive(Clone, Copy)]
pub struct Cards<'s> {
    cards: &'s [u16],
    mask: u64,
}

impl<'s> Cards<'s> {
    /// The cards in order.
    pub fn iter(&self) -> impl Iterator<Item = u16> + 's {
        let mask = self.mask;
        self.cards.iter().enumerate().filter(move |(i, _)| *i >= 64 || mask & (1 << i) != 0).map(|(_, &c)| c)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many.
    pub fn len(&self) -> usize {
        if self.mask == u64::MAX { self.cards.len() } else { self.mask.count_ones() as usize }
    }
}

/// One choice of a seat: an action, its number or seat, and the positions of the cards it
/// chooses in the zone it chooses from (bit i: position i).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Choice {
    /// The action (index in the file's actions).
    pub action: u16,
    /// Its number or seat (0 when it has none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub arg: i64,
    /// Positions of the chosen cards.
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub cards: u64,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

fn is_zero_u64(n: &u64) -> bool {
    *n == 0
}
