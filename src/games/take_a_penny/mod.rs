//! Take a Penny: simultaneous secret choices around a shared pot (docs/games/take-a-penny.md).
//!
//! Every round each player secretly picks a spot of the action card; the engine asks the
//! players one after the other (`to_move` returns each seat in turn), buffers the choices in
//! the state, and no view shows a choice of the round in progress. The last choice resolves
//! the round in the six steps of docs/games/take-a-penny.md (see [`rules::resolve`]).
//!
//! Seats: one per bank card. With 2 or 3 players the next color is the dummy bank card: a
//! scored seat (`seats()`) that never acts (`acting_seats()` = players). Scores are the
//! pennies on each bank card; the length unit is rounds; end reasons `pot_empty`, `cap`.
//!
//! Readings fixed here where the rulebook is silent (also in docs/games/take-a-penny.md; a player at the table would expect them):
//! - Colors in seat order: red, blue, green, yellow. Players take the first colors; the
//!   dummy is the next one (2 players: red, blue + green dummy; 3 players: yellow dummy).
//! - `total_pennies` defaults to 15, and to 14 with 2 players (the rulebook removes a penny),
//!   so `players = 2` alone gives the docs/games/take-a-penny.md 2-player set-up. `dummy_start` is ignored with
//!   4 players (no dummy).
//! - `take1_block` chosen by one player blocks `take2` and `return1` of everyone else; chosen
//!   by two or more, nobody takes and the pot is blocked for all (their own `take2`/`return1`
//!   included, which they did not choose anyway).
//! - `return1` is legal whenever the player holds a penny; steps 1-2 only add pennies, so it
//!   always has one to return at step 3 unless the pot is blocked (then it returns nothing).
//! - `take_from` of several takers on one target: each gets 1 if the target held at least as
//!   many pennies as there are takers at the start of step 5, else nobody gets anything
//!   (the split rule with min(1, floor(balance / t))). Takers collect simultaneously, so a
//!   player who is taken from and takes in the same step ends with both changes.
//! - `give` to a blocked target: the giver keeps the penny. A giver left with 0 pennies at
//!   step 6 gives nothing.
//! - The turn cap counts rounds. A capped game is scored by the same victory conditions on
//!   the bank cards as they stand (the pot is not anyone's).
//! - Victory with several cards at 0 pennies: not "the only one with none", so the next
//!   conditions apply (unique most, else second most, which may be the shared 0s).
//! - Spot success for the report: `take2` that got 1 is "partial"; `block_self` succeeded
//!   when it stopped at least one `take_from` or `give` aimed at the player.
//! - The exact solver (`playtest exact`) solves the game without the turn cap (the cap only
//!   matters in games longer than it; the Monte Carlo report counts them separately).
//! - Skill headroom = seat 0's exact win share as `best-response` against random opponents
//!   minus its share when it plays random too. Players are interchangeable (simultaneous
//!   choices, equal starts), so seat 0's headroom is every player's.
//! - `best-response` cannot see which bots the other seats declared (a bot is built from
//!   its own parameters), so it takes them as a parameter: `vs=0` all random, `vs=1` all
//!   greedy. `playtest exact` refuses a line-up that differs from what the bot assumes, and
//!   a line-up of deterministic bots whose game can cycle forever.

mod audit;
mod bots;
mod determinize;
pub mod exact;
mod metrics;
pub mod params;
pub mod rules;

#[cfg(test)]
mod tests;
mod trace;

use std::fmt;

use crate::engine::GameEvent;
use crate::variant::Invalid;

pub use bots::{GREEDY_DEFAULT_ZERO_AT, GreedyBot, best_response_info, greedy_choice, greedy_info};
pub use metrics::PennyMetrics;
pub use params::{COLORS, MAX_CARDS, Params, Setup};
pub use rules::{END_REASONS, Effect, State};

/// One spot of the action card, with its target color where it has one (trace notation:
/// `trace.rs`'s module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Take 1 from the pot and block it for everyone else (needs pot >= 1).
    Take1Block,
    /// Take 2 from the pot unless it is blocked (needs pot >= 1).
    Take2,
    /// Return 1 to the pot unless it is blocked (needs own >= 1).
    Return1,
    /// Nobody may take from or give to this player this round.
    BlockSelf,
    /// Take 1 from this bank card (needs it to hold >= 1; not one's own).
    TakeFrom(#[serde(with = "trace::by_color")] u8),
    /// Give 1 to this bank card (needs own >= 1; not one's own). One spot for every target.
    Give(#[serde(with = "trace::by_color")] u8),
}

impl Action {
    /// A compact code 0..12: spots 0-3, then 4 + color for take_from, 8 + color for give.
    #[inline]
    pub fn code(self) -> u8 {
        match self {
            Action::Take1Block => 0,
            Action::Take2 => 1,
            Action::Return1 => 2,
            Action::BlockSelf => 3,
            Action::TakeFrom(c) => 4 + c,
            Action::Give(c) => 8 + c,
        }
    }

    /// The action of a [`Action::code`] (`0..12`; larger codes read as a `give`).
    #[inline]
    pub fn from_code(code: u8) -> Action {
        let color = code & 3;
        match code {
            0 => Action::Take1Block,
            1 => Action::Take2,
            2 => Action::Return1,
            3 => Action::BlockSelf,
            4..=7 => Action::TakeFrom(color),
            _ => Action::Give(color),
        }
    }
}

/// A seat's secret choice as the engine carries it between the bot and the table: one
/// [`Action`], kept as its [`Action::code`]. Storing a choice then costs no decoding of the
/// enum (whose `code()` would branch on the variant, unpredictably under random play).
#[derive(Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(from = "Action", into = "Action")]
pub struct Choice(u8);

impl Choice {
    /// The choice of the action with this [`Action::code`] (`0..12`).
    #[inline(always)]
    pub fn from_code(code: u8) -> Choice {
        debug_assert!(code < 12, "action codes are 0..12");
        Choice(code)
    }

    /// The chosen action's [`Action::code`].
    #[inline(always)]
    pub fn code(self) -> u8 {
        self.0
    }

    /// The chosen action.
    #[inline]
    pub fn action(self) -> Action {
        Action::from_code(self.0)
    }
}

impl From<Action> for Choice {
    #[inline]
    fn from(a: Action) -> Choice {
        Choice(a.code())
    }
}

impl fmt::Debug for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.action(), f)
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.action(), f)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Take1Block => write!(f, "take1_block"),
            Action::Take2 => write!(f, "take2"),
            Action::Return1 => write!(f, "return1"),
            Action::BlockSelf => write!(f, "block_self"),
            Action::TakeFrom(c) => write!(f, "take_from({})", color(*c as usize)),
            Action::Give(c) => write!(f, "give({})", color(*c as usize)),
        }
    }
}

/// The color name of bank card `card`.
pub fn color(card: usize) -> &'static str {
    COLORS.get(card).copied().unwrap_or("?")
}

/// What one seat sees when it chooses: every bank card, the pot and the spots revealed last
/// round. Choices already made this round are not in it: it reads the table only through
/// these methods.
#[derive(Clone, Copy)]
pub struct View<'a> {
    /// The choosing seat.
    pub seat: usize,
    table: &'a State,
}

impl View<'_> {
    /// Pennies on every bank card (dummy included).
    #[inline]
    pub fn pennies(&self) -> [u32; MAX_CARDS] {
        self.table.pennies()
    }

    /// Pennies in the pot.
    #[inline]
    pub fn pot(&self) -> u32 {
        self.table.pot
    }

    /// Every player's spot in the last round (public once revealed; `NO_SPOT` in round 1).
    #[inline]
    pub fn last(&self) -> [u8; MAX_CARDS] {
        self.table.last()
    }

    /// Rounds played so far.
    #[inline]
    pub fn round(&self) -> u32 {
        self.table.round
    }

    /// The seat's legal actions as a [`rules::legal_mask`] (bit = [`Action::code`]).
    #[inline(always)]
    pub fn legal(&self) -> u16 {
        self.table.legal_mask(self.seat)
    }
}

impl fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("View")
            .field("seat", &self.seat)
            .field("pennies", &self.pennies())
            .field("pot", &self.pot())
            .field("last", &self.last())
            .field("round", &self.round())
            .field("legal", &self.legal())
            .finish()
    }
}

/// Take a Penny with one variant's parameters, ready to play.
#[derive(Clone, Debug)]
pub struct TakeAPenny {
    /// The variant's parameters.
    pub params: Params,
    /// The checked set-up.
    pub setup: Setup,
    /// The table before round 1 (what every deal copies).
    initial: State,
}

impl TakeAPenny {
    /// Checks the parameters and builds the game.
    pub fn new(params: Params) -> Result<Self, Vec<Invalid>> {
        let setup = params.check()?;
        let initial = Self::initial_state(&setup);
        Ok(TakeAPenny { params, setup, initial })
    }

    /// Seat labels for traces: `seat 0 (red)`, `dummy (green)`.
    pub fn card_label(&self, card: usize) -> String {
        if self.setup.is_dummy(card) { format!("dummy {card} ({})", color(card)) } else { format!("seat {card} ({})", color(card)) }
    }
}

/// What happened, for traces and listening bots.
#[derive(Clone, Debug)]
pub enum Event {
    /// A seat's secret choice (seen by that seat only until the reveal).
    Chose {
        /// Who chose.
        seat: u8,
        /// What.
        action: Action,
    },
    /// Every choice of the round revealed at once.
    Revealed {
        /// Round number (from 1).
        round: u32,
        /// The choices of seats `0..players`.
        actions: [Action; MAX_CARDS],
        /// Number of players.
        players: u8,
    },
    /// What one choice did.
    Resolved {
        /// Who chose it.
        seat: u8,
        /// The choice.
        action: Action,
        /// Its effect.
        effect: Effect,
        /// Pennies it moved.
        moved: u32,
    },
    /// The table after a round (round 0: the set-up).
    RoundEnds {
        /// Round number.
        round: u32,
        /// Pot.
        pot: u32,
        /// Bank cards.
        pennies: [u32; MAX_CARDS],
        /// Bank cards in play.
        cards: u8,
    },
    /// The game ended.
    GameOver {
        /// Index into the end reasons.
        reason: u8,
        /// Rounds played.
        rounds: u32,
        /// Winners as a bit mask over the bank cards.
        winners: u16,
    },
}

impl GameEvent for Event {
    fn visible_to(&self, seat: usize) -> bool {
        match self {
            Event::Chose { seat: s, .. } => *s as usize == seat,
            _ => true,
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Chose { seat, action } => write!(f, "  seat {seat} ({}) secretly picks {action}", color(*seat as usize)),
            Event::Revealed { round, actions, players } => {
                write!(f, "-- round {round}: reveal")?;
                for (seat, a) in actions.iter().enumerate().take(*players as usize) {
                    write!(f, "{} {}: {a}", if seat == 0 { "" } else { "," }, color(seat))?;
                }
                Ok(())
            }
            Event::Resolved { seat, action, effect, moved } => {
                let what = match effect {
                    Effect::Done if matches!(action, Action::BlockSelf) => "stopped a take or give".to_string(),
                    Effect::Done => format!("moved {moved}"),
                    Effect::Partial => format!("split: moved {moved}"),
                    Effect::Blocked => "blocked".to_string(),
                    Effect::Short => "not enough pennies: moved 0".to_string(),
                    Effect::Idle => "nobody tried".to_string(),
                };
                write!(f, "  {} {action}: {what}", color(*seat as usize))
            }
            Event::RoundEnds { round, pot, pennies, cards } => {
                let label = if *round == 0 { "set-up".to_string() } else { format!("after round {round}") };
                write!(f, "  {label}: pot {pot};")?;
                for (c, p) in pennies.iter().enumerate().take(*cards as usize) {
                    write!(f, " {} {p}", color(c))?;
                }
                Ok(())
            }
            Event::GameOver { reason, rounds, winners } => {
                let names: Vec<&str> = (0..MAX_CARDS).filter(|c| winners & (1 << c) != 0).map(color).collect();
                write!(f, "== game over after {rounds} rounds ({}): won by {}", END_REASONS[*reason as usize], names.join(" and "))
            }
        }
    }
}

impl crate::games::Registered for TakeAPenny {
    const KEYS: &'static [crate::games::key_table::VariantKey] = params::Params::KEYS;
    fn from_variant(variant: &crate::variant::Variant) -> Result<Self, crate::error::VariantError> {
        let params = variant.game_params()?;
        TakeAPenny::new(params).map_err(|p| variant.invalid(p))
    }
    const HAS_EXACT_SOLVER: bool = true;
    /// The best response's exact policy takes seconds per variant to compute (and is refused
    /// on large ones): the harness plays it only where a variant seats it.
    const HARNESS_SKIPS: &'static [&'static str] = &["best-response"];
    fn exact(&self, variant: &crate::variant::Variant, labels: &[String], max_states: u64) -> Option<Result<exact::ExactReport, crate::error::Error>> {
        Some(exact::report(self, &variant.name, labels, max_states).map_err(crate::error::Error::Usage))
    }
}
