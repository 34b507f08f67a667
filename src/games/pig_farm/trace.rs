//! Pig Farm as data: the state, action and chance records of `playtest trace --json`.
//!
//! State (`start` and every `state` line):
//! - `round` (from 0), `first_seat` of the round, `round_turns` (turns played this round,
//!   the current one included), `turns` over the match, `rounds_done`, `rounds_capped`;
//! - `current`: the deciding seat; `phase`: `start` (sell or first draw), `second_draw`,
//!   `discard`, `butcher` (roll a die; `dealt_butcher` says whether it came with the deal)
//!   or `over`; `end_reason` once over (`sold`, `cap`);
//! - `players`: per seat its `hand` (pigs by name, `red square`, in canonical order, one
//!   entry per card), `butchers` held until rolled for, `sets` and its match `score`;
//! - `draw`: the draw pile, top first (hidden from every seat); `discard`: the discard pile,
//!   top first (face up).
//!
//! Actions: `"sell"`, `"draw_pile"`, `"take_discard"`, `{"discard": "blue star"}`,
//! `{"roll": "colors"}` / `{"roll": "shapes"}`.
//!
//! Chance: `deal` (a seat's starting pigs and butchers), `draw` (a pig from the draw pile),
//! `butcher` (a butcher drawn), `roll` (a butcher die: `die`, `face`: a color, a shape or
//! `logo`), `reshuffle` (the discard pile shuffled into a new draw pile: `cards`, its size,
//! and `order`, the new pile top first, which no seat sees).

use serde::Serialize;

use super::rules::{END_REASONS, Hand, Phase, State};
use super::{BUTCHER, Die, Event, PigFarm, card_name};
use crate::engine::Game;
use crate::engine::Traces;
use crate::games::chance::CardChance;
use crate::games::chroma::Card;

/// The name of a pig or of the butcher.
fn name(card: Card) -> String {
    card_name(card)
}

/// A hand's pigs by name, one entry per card, canonical order.
fn pigs(hand: &Hand) -> Vec<String> {
    hand.kinds().flat_map(|p| std::iter::repeat_n(name(p), hand.count(p) as usize)).collect()
}

/// One seat of the traced table.
#[derive(Serialize)]
pub struct Player {
    /// Pigs in hand.
    pub hand: Vec<String>,
    /// Butchers held until rolled for.
    pub butchers: u8,
    /// Sets held.
    pub sets: u32,
    /// Match points.
    pub score: i64,
}

/// The whole table (module doc).
#[derive(Serialize)]
pub struct Table {
    /// Round index.
    pub round: u32,
    /// The round's first seat.
    pub first_seat: u8,
    /// Turns this round.
    pub round_turns: u32,
    /// Turns over the match.
    pub turns: u32,
    /// Rounds finished.
    pub rounds_done: u32,
    /// Rounds that reached the cap.
    pub rounds_capped: u32,
    /// The deciding seat.
    pub current: u8,
    /// Where the turn stands.
    pub phase: &'static str,
    /// Whether the butcher to roll for came with the deal.
    pub dealt_butcher: bool,
    /// Every seat.
    pub players: Vec<Player>,
    /// Draw pile, top first.
    pub draw: Vec<String>,
    /// Discard pile, top first.
    pub discard: Vec<String>,
    /// End reason once over.
    pub end_reason: Option<&'static str>,
}

/// A random event of Pig Farm (module doc).
///
/// The draws, deals and reshuffles every card game records are [`CardChance`]'s; these are
/// this game's own.
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OwnChance {
    /// A seat's starting hand.
    Deal {
        /// The seat.
        seat: u8,
        /// Its pigs.
        hand: Vec<String>,
        /// Butchers dealt to it.
        butchers: u8,
    },
    /// A butcher drawn from the draw pile.
    Butcher {
        /// Who drew it.
        seat: u8,
    },
    /// A butcher die rolled.
    Roll {
        /// Who rolled.
        seat: u8,
        /// The die.
        die: Die,
        /// The face: a color, a shape or `logo`.
        face: &'static str,
    },
}

/// A random event as the trace records it.
type Chance = CardChance<String, OwnChance>;

/// serde of a pig (or the butcher) by name: `#[serde(with = "by_name")]`.
pub mod by_name {
    use super::{BUTCHER, Card, name};

    /// Writes the name.
    pub fn serialize<S: serde::Serializer>(card: &Card, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&name(*card))
    }

    /// Reads a name.
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let n = <String as serde::Deserialize>::deserialize(d)?;
        (0..=BUTCHER).find(|&c| name(c) == n).ok_or_else(|| serde::de::Error::custom(format!("unknown pig `{n}`; pigs are named like `blue star`")))
    }
}

/// What `state` paths a seat does not see (see [`Traces::trace_secrets`](crate::engine::Traces::trace_secrets)).
pub(super) const SECRETS: &[&str] = &["players/*/hand", "draw"];

impl Traces for PigFarm {
    /// The traced table of `s` (module doc).
    fn trace_state(&self, s: &State) -> serde_json::Value {
        let (phase, dealt_butcher) = match s.phase {
            Phase::Start => ("start", false),
            Phase::SecondDraw => ("second_draw", false),
            Phase::Discard => ("discard", false),
            Phase::Butcher { dealt } => ("butcher", dealt),
            Phase::Over => ("over", false),
        };
        serde_json::to_value(Table {
            round: s.round,
            first_seat: s.first_seat,
            round_turns: s.round_turns,
            turns: s.turns,
            rounds_done: s.rounds_done,
            rounds_capped: s.rounds_capped,
            current: s.current,
            phase,
            dealt_butcher,
            players: (0..self.seats())
                .map(|seat| Player { hand: pigs(&s.hands[seat]), butchers: s.butchers_held[seat], sets: s.hands[seat].sets(), score: s.scores[seat] })
                .collect(),
            draw: s.draw.iter().rev().map(|&c| name(c)).collect(),
            discard: s.discard.iter().rev().map(|&c| name(c)).collect(),
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
            Event::Dealt { seat, hand, butchers } => Chance::Own(OwnChance::Deal { seat, hand: pigs(&hand), butchers }),
            Event::Drew { seat, card } if card != BUTCHER => Chance::Draw { seat, card: name(card) },
            Event::Butcher { seat, dealt: false } => Chance::Own(OwnChance::Butcher { seat }),
            Event::Rolled { seat, die, face } => Chance::Own(OwnChance::Roll { seat, die, face: die.face_name(face) }),
            Event::Reshuffled { ref order } => Chance::reshuffle(order, name),
            _ => return None,
        };
        chance.record()
    }

    /// The rule `action` breaks at `view`, where a specific one applies (else the generic
    /// reason of [`Traces::why_illegal`](crate::engine::Traces::why_illegal)).
    fn why_illegal(&self, view: &super::View<'_>, action: &super::Action) -> Option<String> {
        use super::{Action, Decision};
        Some(match (*action, view.decision()) {
            (Action::Discard(pig), Decision::Discard) if pig >= BUTCHER || view.hand.count(pig) == 0 => {
                format!("seat {} does not hold a {}: the discard is one pig of the hand", view.seat, name(pig))
            }
            (Action::Sell, Decision::Start) => format!("selling needs at least {} sets; the hand holds {}", self.min_sets(), view.hand.sets()),
            (Action::Sell, _) => "the farm is sold only at the start of a turn, before drawing".into(),
            (Action::TakeDiscard, Decision::Start | Decision::SecondDraw) => "the discard pile has no pig on top to take".into(),
            _ => return None,
        })
    }

    /// The table of `s` in the game's words (see [`Traces::table_words`](crate::engine::Traces::table_words)).
    fn table_words(&self, s: &State) -> Option<crate::engine::words::TableWords> {
        use crate::engine::words::{Lay, TableWords, Zone};
        let p = &self.params;
        let rounds = if p.rounds > 1 { format!(" over {} rounds", p.rounds) } else { String::new() };
        let goal = format!(
            "Collect sets of 2 or more identical pigs; a player holding at least {} sets may sell the farm at the start of a turn, which ends the round and scores every player by their sets; the highest total{rounds} wins.",
            p.min_sets_to_sell
        );
        let seat = s.current;
        let now = match s.phase {
            Phase::Start => format!("seat {seat} sells the farm or takes a first card (from the draw pile or the discard pile)"),
            Phase::SecondDraw => format!("seat {seat} takes a second card"),
            Phase::Discard => format!("seat {seat} discards a pig"),
            Phase::Butcher { .. } => format!("seat {seat} rolls a butcher die: colors or shapes"),
            Phase::Over => String::new(),
        };
        let mut facts = vec![format!("turn {}", s.round_turns)];
        if p.rounds > 1 {
            facts.push(format!("round {} of {}", s.round + 1, p.rounds));
        }
        Some(TableWords {
            goal,
            now,
            facts,
            zones: vec![Zone::new("draw", "draw pile", Lay::Pile), Zone::new("discard", "discard pile", Lay::Pile)],
            seat_zones: vec![Zone::new("players/*/hand", "pigs", Lay::Cards), Zone::new("players/*/butchers", "butchers to roll", Lay::Value)],
            seat_facts: Vec::new(),
            end: match (s.phase, END_REASONS[s.end_reason as usize]) {
                (Phase::Over, "sold") => "a farm was sold".into(),
                (Phase::Over, _) => "the turn cap was reached (nobody sold)".into(),
                _ => String::new(),
            },
        })
    }

    fn describe(&self, s: &State) -> String {
        let mut out =
            format!("end: {} after {} turns over {} round(s), {} capped\n", END_REASONS[s.end_reason as usize], s.turns, s.rounds_done, s.rounds_capped);
        for seat in 0..self.players {
            out.push_str(&format!("  seat {seat}: {} points; last hand [{}]\n", s.scores[seat], s.hands[seat]));
        }
        out
    }
}
