//! Rainbow Rush as data: the state, action and chance records of `playtest trace --json`.
//!
//! State (`start` and every `state` line):
//! - `turn`: the current turn (from 1; once over, the turns played); `current`: whose turn
//!   it is; `phase`: `draw`, `play` or `over`; `winner`, `end_reason` (`rainbow`, `cap`) once
//!   over; `sabotages` so far;
//! - `players`: per seat its `hand` (card names such as `yellow star`, `red wild`,
//!   `star wild`, `all-colors`, canonical order, one entry per card) and its `row` (the
//!   cards in front of it, in row order: slots are these positions);
//! - `draw`: the draw pile, top first (hidden from every seat); `discard`: the discard
//!   pile, top first (face up), each `card` with `locked_until` (the last turn in which it
//!   may not be taken; 0: not locked).
//!
//! Actions: `"draw_pile"`, `"take_discard"`, `{"add": "blue star"}`,
//! `{"replace": {"card": "blue star", "slot": 2}}`, `{"discard": "red square"}`,
//! `{"sabotage": {"wild": "red wild", "target": 1, "slot": 0}}`.
//!
//! Chance: `deal` (a seat's starting hand), `draw` (a card from the draw pile) and
//! `reshuffle` (the discard pile but its top card shuffled into a new draw pile: `cards`,
//! its size, and `order`, the new pile top first, which no seat sees).

use serde::Serialize;

use super::rules::{END_REASONS, Hand, Phase, State};
use super::{Event, RainbowRush};
use crate::engine::Game;
use crate::engine::Traces;
use crate::games::chance::{CardChance, NoOwnChance};
use crate::games::chroma::{card_names, card_str, pile_names};

fn cards_of(hand: &Hand) -> Vec<&'static str> {
    hand.cards().map(card_str).collect()
}

/// One seat of the traced table.
#[derive(Serialize)]
pub struct Player {
    /// Cards in hand, canonical order.
    pub hand: Vec<&'static str>,
    /// The row, in order.
    pub row: Vec<&'static str>,
}

/// A discard-pile card with its lock.
#[derive(Serialize)]
pub struct Discarded {
    /// The card.
    pub card: &'static str,
    /// The last turn in which it may not be taken (0: not locked).
    pub locked_until: u32,
}

/// The whole table (module doc).
#[derive(Serialize)]
pub struct Table {
    /// The current turn.
    pub turn: u32,
    /// Whose turn it is.
    pub current: u8,
    /// `draw`, `play` or `over`.
    pub phase: &'static str,
    /// Every seat.
    pub players: Vec<Player>,
    /// Draw pile, top first.
    pub draw: Vec<&'static str>,
    /// Discard pile, top first.
    pub discard: Vec<Discarded>,
    /// Wilds played onto opponents' rows so far.
    pub sabotages: u32,
    /// The winner once there is one.
    pub winner: Option<u8>,
    /// End reason once over.
    pub end_reason: Option<&'static str>,
}

/// A random event of the game as the trace records it (module doc): a deal, a draw or a
/// reshuffle, as every card game records them.
type Chance = CardChance<&'static str, NoOwnChance>;

/// What `state` paths a seat does not see (see [`Traces::trace_secrets`](crate::engine::Traces::trace_secrets)).
pub(super) const SECRETS: &[&str] = &["players/*/hand", "draw"];

impl Traces for RainbowRush {
    /// The traced table of `s` (module doc).
    fn trace_state(&self, s: &State) -> serde_json::Value {
        serde_json::to_value(Table {
            turn: s.turn,
            current: s.current,
            phase: match s.phase {
                Phase::Draw => "draw",
                Phase::Play => "play",
                Phase::Over => "over",
            },
            players: (0..self.seats()).map(|seat| Player { hand: cards_of(&s.hands[seat]), row: card_names(s.rows[seat].cards()) }).collect(),
            draw: pile_names(&s.draw),
            discard: s.discard.iter().zip(&s.locks).rev().map(|(&c, &l)| Discarded { card: card_str(c), locked_until: l }).collect(),
            sabotages: s.sabotages,
            winner: s.winner,
            end_reason: (s.phase == Phase::Over).then(|| END_REASONS[s.end_reason as usize]),
        })
        .expect("serialises")
    }

    fn trace_secrets(&self) -> &'static [&'static str] {
        SECRETS
    }

    /// The chance record of `event`, if it is one (module doc).
    fn trace_chance(&self, event: &Event) -> Option<serde_json::Value> {
        let chance = match *event {
            Event::Dealt { seat, ref hand } => Chance::Deal { seat, hand: cards_of(hand) },
            Event::Drew { seat, card } => Chance::Draw { seat, card: card_str(card) },
            Event::Reshuffled { ref order } => Chance::reshuffle(order, card_str),
            _ => return None,
        };
        chance.record()
    }

    /// The rule `action` breaks at `view`, where a specific one applies (else the generic
    /// reason of [`Traces::why_illegal`](crate::engine::Traces::why_illegal)).
    fn why_illegal(&self, view: &super::View<'_>, action: &super::Action) -> Option<String> {
        use super::{Action, Decision};
        let held = |c: crate::games::chroma::Card| view.hand.count(c) > 0;
        let not_held = |c| format!("seat {} does not hold a {}", view.seat, card_str(c));
        Some(match (*action, view.decision) {
            (Action::Add(c) | Action::Discard(c) | Action::Replace { card: c, .. } | Action::Sabotage { wild: c, .. }, Decision::Play) if !held(c) => {
                not_held(c)
            }
            (Action::Add(_), Decision::Play) => format!("the row is full ({} cards): replace a card instead", self.row_size()),
            (Action::Replace { .. }, Decision::Play) if view.own_row().len() < self.row_size() => {
                "a card is replaced only in a full row: add it instead".into()
            }
            (Action::Replace { slot, .. }, Decision::Play) => format!("the row has no slot {slot}"),
            (Action::Sabotage { wild, .. }, Decision::Play) if !crate::games::chroma::is_wild(wild) => {
                format!("{} is not a wild: only wilds break another row", card_str(wild))
            }
            (Action::TakeDiscard, Decision::Draw) => "the top of the discard pile cannot be taken (none, a wild, or locked this turn)".into(),
            _ => return None,
        })
    }

    /// The table of `s` in the game's words (see [`crate::engine::Traces::table_words`]).
    fn table_words(&self, s: &State) -> Option<crate::engine::words::TableWords> {
        use crate::engine::words::{Lay, TableWords, Zone};
        let goal = "Build a row of your own in front of you: the first player whose row holds a rainbow, five cards of the five colors all of one shape (wilds stand in), wins; your score is how many of the five your row already covers.".to_string();
        let seat = s.current;
        let now = match s.phase {
            Phase::Draw => format!("seat {seat} draws from the draw pile or takes the top of the discard pile"),
            Phase::Play => format!("seat {seat} adds a card to its row, replaces one, sabotages a row with a wild, or discards"),
            Phase::Over => String::new(),
        };
        Some(TableWords {
            goal,
            now,
            facts: vec![format!("turn {}", s.turn), format!("rows of at most {} cards", self.params.row_size)],
            zones: vec![Zone::new("draw", "draw pile", Lay::Pile), Zone::new("discard", "discard pile", Lay::Pile)],
            seat_zones: vec![Zone::new("players/*/row", "row", Lay::Cards), Zone::new("players/*/hand", "hand", Lay::Cards)],
            seat_facts: Vec::new(),
            end: match (s.phase, END_REASONS[s.end_reason as usize]) {
                (Phase::Over, "rainbow") => "a row holds a rainbow".into(),
                (Phase::Over, _) => "the turn cap was reached (no winner)".into(),
                _ => String::new(),
            },
        })
    }

    fn describe(&self, s: &State) -> String {
        let result = match s.winner {
            Some(w) => format!("seat {w} completes a rainbow"),
            None => "no winner".into(),
        };
        let mut out = format!("end: {} after {} turns: {result}\n", END_REASONS[s.end_reason as usize], s.turn);
        for seat in 0..self.players {
            let (shape, cov) = s.rows[seat].cover().best_shape();
            out.push_str(&format!(
                "  seat {seat}: row [{}] covers {cov} colors of {}; hand [{}]\n",
                s.rows[seat],
                crate::games::chroma::SHAPES[shape],
                s.hands[seat]
            ));
        }
        out.push_str(&format!("  draw pile {} cards, discard pile {} cards\n", s.draw.len(), s.discard.len()));
        out
    }
}
