//! Flower Power as data: the state, action and chance records of `playtest trace --json`.
//!
//! State (`start` and every `state` line):
//! - `turn`: turns played; `current`: whose turn it is; `passes`: seats passed over so far;
//!   `over`, `end_reason` (`all_played`, `cap`) once over;
//! - `players`: per seat its `hand` (card names such as `yellow star`, in hand order: plays
//!   name these positions) and `flowers` taken (the score);
//! - `garden`: per color its `petals` on the flower in progress and its `starter` (who laid
//!   the first petal; null at 0 petals); `flowers_by_color`;
//! - `pile`: the draw pile, top first (hidden from every seat).
//!
//! Actions: a play is the bit mask of the hand positions played (bit i = position i, from
//! 0): `5` plays the cards at positions 0 and 2. The draw to the hand size happens when the
//! turn starts, before the decision, so a decision's hand is the full one.
//!
//! Chance: `draw` (the cards a seat draws at the start of its turn, from the top of the
//! pile). The shuffled pile is the start state's `pile`.

use serde::Serialize;

use super::params::COLORS;
use super::rules::{END_REASONS, State};
use super::{Event, FlowerPower};
use crate::games::chroma::{COLORS as COLOR_NAMES, card_names};

/// One seat of the traced table.
#[derive(Serialize)]
pub struct Player {
    /// Cards in hand, hand order.
    pub hand: Vec<&'static str>,
    /// Flowers taken.
    pub flowers: i64,
}

/// One color's flower in progress.
#[derive(Serialize)]
pub struct Flower {
    /// The color.
    pub color: &'static str,
    /// Petals laid.
    pub petals: u16,
    /// Who laid the first petal.
    pub starter: Option<u8>,
}

/// The whole table (module doc).
#[derive(Serialize)]
pub struct Table {
    /// Turns played.
    pub turn: u32,
    /// Whose turn it is.
    pub current: u8,
    /// Seats passed over so far.
    pub passes: u32,
    /// Every seat.
    pub players: Vec<Player>,
    /// The flowers in progress, by color.
    pub garden: Vec<Flower>,
    /// Flowers taken per color.
    pub flowers_by_color: Vec<u32>,
    /// Draw pile, top first.
    pub pile: Vec<&'static str>,
    /// Whether the game is over.
    pub over: bool,
    /// End reason once over.
    pub end_reason: Option<&'static str>,
}

/// A random event of Flower Power (module doc).
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Chance {
    /// Cards drawn from the top of the pile.
    Draw {
        /// Who drew.
        seat: u8,
        /// The cards.
        cards: Vec<&'static str>,
    },
}

impl FlowerPower {
    /// The traced table of `s` (module doc).
    pub(super) fn table(&self, s: &State) -> Table {
        Table {
            turn: s.turns,
            current: s.current,
            passes: s.passes,
            players: (0..self.players).map(|seat| Player { hand: card_names(s.hands[seat].cards()), flowers: s.flowers[seat] }).collect(),
            garden: (0..COLORS).map(|c| Flower { color: COLOR_NAMES[c], petals: s.garden[c], starter: (s.garden[c] > 0).then_some(s.starter[c]) }).collect(),
            flowers_by_color: s.flowers_by_color.to_vec(),
            pile: s.pile.iter().rev().map(|&c| crate::games::chroma::card_str(c)).collect(),
            over: s.over,
            end_reason: s.over.then(|| END_REASONS[s.end_reason as usize]),
        }
    }

    /// The chance record of `event`, if it is one (module doc).
    pub(super) fn chance(event: &Event) -> Option<Chance> {
        match event {
            Event::Drew { seat, cards } => Some(Chance::Draw { seat: *seat, cards: card_names(cards) }),
            _ => None,
        }
    }
}

/// What `state` paths a seat does not see (see [`crate::engine::Game::trace_secrets`]).
pub(super) const SECRETS: &[&str] = &["players/*/hand", "pile"];

impl FlowerPower {
    /// The rule `action` breaks at `view`, where a specific one applies (else the generic
    /// reason of [`crate::engine::Game::why_illegal`]).
    pub(super) fn why(&self, view: &super::View<'_>, action: &super::Action) -> Option<String> {
        let n = view.hand.len();
        Some(if *action == 0 {
            "a play lays at least one card".into()
        } else if (*action as u32) >> n != 0 {
            format!("the hand holds {n} cards (positions 0 to {}); the play names position {}", n.saturating_sub(1), 15 - action.leading_zeros())
        } else {
            format!("a play lays at most {} cards, not {}", self.max_play, action.count_ones())
        })
    }
}
