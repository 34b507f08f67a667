//! Match Patch as data: the state, action and chance records of `playtest trace --json`.
//!
//! State (`start` and every `state` line):
//! - `turn`: turns played (the current one included); `current`: the deciding seat;
//!   `phase`: `draw` (one single draw; `draws_left` in this batch, `after_pair`), `place`
//!   or `over`; `end_reason` (`patch_empty`, `cap`) once over;
//! - `players`: per seat its `hand` (card names such as `yellow star`, in the order they
//!   came in) and `pairs` laid (the score);
//! - `patch`: the face-down slots, oldest first, each with its announced `card` and its
//!   placement number `serial`; `laid`: pairs laid face up per card, all seats together
//!   (only cards with a pair); `placed` cards so far;
//! - `pile`: the draw pile, top first (hidden from every seat).
//!
//! Actions: `"pile"` (draw the top of the pile), `{"take": 2}` (the patch slot at that
//! position, 0 = oldest), `{"place": "blue star"}` (announce and place that card).
//!
//! Chance: `deal` (a card dealt to a seat) and `draw` (a card from the top of the pile).

use serde::Serialize;

use super::params::KINDS;
use super::rules::{END_REASONS, Phase, State};
use super::{Event, MatchPatch};
use crate::engine::Game;
use crate::engine::Traces;
use crate::games::chroma::{Card, card_names, card_str, pile_names};

/// One seat of the traced table.
#[derive(Serialize)]
pub struct Player {
    /// Cards in hand, in the order they came in.
    pub hand: Vec<&'static str>,
    /// Pairs laid.
    pub pairs: u32,
}

/// One patch slot.
#[derive(Serialize)]
pub struct TracedSlot {
    /// The announced card.
    pub card: &'static str,
    /// Its placement number.
    pub serial: u32,
}

/// The whole table (module doc).
#[derive(Serialize)]
pub struct Table {
    /// Turns played.
    pub turn: u32,
    /// The deciding seat.
    pub current: u8,
    /// `draw`, `place` or `over`.
    pub phase: &'static str,
    /// Draws left in this batch (this one included) during `draw`.
    pub draws_left: u8,
    /// Whether this batch follows a pair.
    pub after_pair: bool,
    /// Every seat.
    pub players: Vec<Player>,
    /// The patch, oldest first.
    pub patch: Vec<TracedSlot>,
    /// Pairs laid per card.
    pub laid: std::collections::BTreeMap<&'static str, u8>,
    /// Cards placed so far.
    pub placed: u32,
    /// Draw pile, top first.
    pub pile: Vec<&'static str>,
    /// End reason once over.
    pub end_reason: Option<&'static str>,
}

/// A random event of Match Patch (module doc).
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Chance {
    /// A card dealt.
    Deal {
        /// To whom.
        seat: u8,
        /// The card.
        card: &'static str,
    },
    /// A card from the top of the pile.
    Draw {
        /// Who drew.
        seat: u8,
        /// The card.
        card: &'static str,
    },
}

/// What `state` paths a seat does not see (see [`Traces::trace_secrets`](crate::engine::Traces::trace_secrets)).
pub(super) const SECRETS: &[&str] = &["players/*/hand", "pile"];

impl Traces for MatchPatch {
    /// The traced table of `s` (module doc).
    fn trace_state(&self, s: &State) -> serde_json::Value {
        let (phase, draws_left, after_pair) = match s.phase {
            Phase::Draw { left, after_pair } => ("draw", left, after_pair),
            Phase::Place => ("place", 0, false),
            Phase::Over => ("over", 0, false),
        };
        serde_json::to_value(Table {
            turn: s.turns,
            current: s.current,
            phase,
            draws_left,
            after_pair,
            players: (0..self.seats()).map(|seat| Player { hand: card_names(s.hands[seat].cards()), pairs: s.pairs[seat] }).collect(),
            patch: s.patch.iter().map(|slot| TracedSlot { card: card_str(slot.card), serial: slot.serial }).collect(),
            laid: (0..KINDS).filter(|&k| s.laid[k] > 0).map(|k| (card_str(k as Card), s.laid[k])).collect(),
            placed: s.placed,
            pile: pile_names(&s.pile),
            end_reason: (s.phase == Phase::Over).then(|| END_REASONS[s.end_reason as usize]),
        })
        .expect("serialises")
    }

    fn trace_secrets(&self) -> &'static [&'static str] {
        SECRETS
    }

    /// The chance record of `event`, if it is one (module doc).
    fn trace_chance(&self, event: &Event) -> Option<serde_json::Value> {
        let chance: Option<Chance> = match *event {
            Event::Dealt { seat, card } => Some(Chance::Deal { seat, card: card_str(card) }),
            Event::Drew { seat, card, pile: true } => Some(Chance::Draw { seat, card: card_str(card) }),
            _ => None,
        };
        chance.map(|c| serde_json::to_value(c).expect("serialises"))
    }

    /// The rule `action` breaks at `view`, where a specific one applies (else the generic
    /// reason of [`Traces::why_illegal`](crate::engine::Traces::why_illegal)).
    fn why_illegal(&self, view: &super::View<'_>, action: &super::Action) -> Option<String> {
        use super::{Action, Decision};
        Some(match (*action, view.decision) {
            (Action::Place(c), Decision::Place) if (c as usize) >= KINDS || view.hand.count(c) == 0 => {
                format!("seat {} does not hold a {}: the card placed comes from the hand", view.seat, card_str(c))
            }
            (Action::Pile, Decision::Draw { .. }) => "the draw pile is empty: draw from the patch".into(),
            (Action::Take(i), Decision::Draw { .. }) => {
                format!("the patch has {} slots (0 to {}); there is no slot {i}", view.patch_len(), view.patch_len().saturating_sub(1))
            }
            _ => return None,
        })
    }

    /// The table of `s` in the game's words (see [`crate::engine::Traces::table_words`]).
    fn table_words(&self, s: &State) -> Option<crate::engine::words::TableWords> {
        use crate::engine::words::{Lay, TableWords, Zone};
        let goal = "Draw from the pile or the patch; every identical pair in your hand is laid face up for a point, then you draw up to 2 more; end the turn by placing a card, announced, face down at the end of the patch. When the pile and the patch are empty the game ends: most pairs win (ties share).".to_string();
        let seat = s.current;
        let now = match s.phase {
            Phase::Draw { left, after_pair: false } if left <= 1 => format!("seat {seat} draws a card from the pile or a slot of the patch"),
            Phase::Draw { left, .. } => format!("seat {seat} laid a pair and draws ({left} card(s) left), from the pile or a slot of the patch"),
            Phase::Place => format!("seat {seat} places a card of its hand, announced, at the end of the patch"),
            Phase::Over => String::new(),
        };
        Some(TableWords {
            goal,
            now,
            facts: vec![format!("turn {}", s.turns), format!("{} cards placed so far", s.placed)],
            zones: vec![
                Zone::new("pile", "draw pile", Lay::Pile),
                Zone::new("patch", "the patch (face down, as announced; oldest first)", Lay::Cards),
                Zone::new("laid", "pairs laid (all seats)", Lay::Value),
            ],
            seat_zones: vec![Zone::new("players/*/hand", "hand", Lay::Cards), Zone::new("players/*/pairs", "pairs", Lay::Value)],
            seat_facts: Vec::new(),
            end: match (s.phase, END_REASONS[s.end_reason as usize]) {
                (Phase::Over, "patch_empty") => "the pile and the patch are empty".into(),
                (Phase::Over, _) => "the turn cap was reached".into(),
                _ => String::new(),
            },
        })
    }

    fn describe(&self, s: &State) -> String {
        let mut out =
            format!("end: {} after {} turns; pile {} cards, patch {} slots\n", END_REASONS[s.end_reason as usize], s.turns, s.pile.len(), s.patch.len());
        for seat in 0..self.players {
            out.push_str(&format!("  seat {seat}: {} pairs; hand [{}]\n", s.pairs[seat], s.hands[seat]));
        }
        out
    }
}
