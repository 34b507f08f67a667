//! Dice Factor as data: the state, action and chance records of `playtest trace --json`.
//!
//! State (`start` and every `state` line):
//! - `turn`: turns played (the current one included); `current`: whose turn it is;
//!   `direction`: 1 in seat order, -1 after a reverse; `phase`: `start`, `discard`,
//!   `trade_hands_card`, `trade_one_card`, `dice_card`, `d8_swap`, `d8_trade`, `d8_reroll`
//!   or `over`; `end_reason` (`five_of_a_kind`, `cap`) and `winner` once over;
//! - `dice`: the colors die and the shapes die (a color, a shape or `logo`);
//! - `players`: per seat its `hand` (card names such as `yellow star`, `red wild`,
//!   `skip`, in canonical order, one entry per card) and `skips` (turns it will lose);
//! - `taken`: an action card taken from the discard pile this turn (discarding it again
//!   has no effect), `d8`: this turn's d8 result (`nothing`, `swap`, `trade`, `reroll`);
//! - `draw`: the draw pile, top first (hidden from every seat); `discard`: the discard
//!   pile, top first (face up).
//!
//! Actions: `"draw"`, `"take_discard"`, `"roll_d8"`, `{"discard": "blue star"}`,
//! `"discard_taken"`, `{"give": {"card": "red wild", "target": 2}}`, `{"trade_hands": 1}`,
//! `{"reroll": "colors"}` / `{"reroll": "shapes"}`, `"decline"`.
//!
//! Chance: `deal` (a seat's starting hand), `dice` (the dice rolled at the set-up), `draw`
//! (a card from the draw pile), `reshuffle` (the discard pile shuffled into a new draw
//! pile: `cards`, its size, and `order`, the new pile top first, which no seat sees), `d8`
//! (the face rolled and what it does), `take_random` (the random card taken in a swap),
//! `reroll` (a die rerolled, its new face).

use serde::Serialize;

use super::params::D8Face;
use super::rules::{END_REASONS, Phase, State};
use super::{DiceFactor, Die, Event, target_name};
use crate::engine::Game;
use crate::engine::Traces;
use crate::games::chance::CardChance;
use crate::games::chroma::{CARD_KINDS, Card, card_str, pile_names};

fn cards_of(hand: &super::hand::Hand) -> Vec<&'static str> {
    (0..CARD_KINDS as Card).flat_map(|c| std::iter::repeat_n(card_str(c), hand.count(c) as usize)).collect()
}

/// One seat of the traced table.
#[derive(Serialize)]
pub struct Player {
    /// Cards in hand, canonical order.
    pub hand: Vec<&'static str>,
    /// Turns it will lose.
    pub skips: u16,
}

/// The whole table (module doc).
#[derive(Serialize)]
pub struct Table {
    /// Turns played.
    pub turn: u32,
    /// Whose turn it is.
    pub current: u8,
    /// 1 in seat order, -1 reversed.
    pub direction: i8,
    /// Where the turn stands.
    pub phase: &'static str,
    /// The colors die and the shapes die.
    pub dice: [&'static str; 2],
    /// Every seat.
    pub players: Vec<Player>,
    /// An action card taken from the discard pile this turn.
    pub taken: Option<&'static str>,
    /// This turn's d8 result.
    pub d8: Option<&'static str>,
    /// Draw pile, top first.
    pub draw: Vec<&'static str>,
    /// Discard pile, top first.
    pub discard: Vec<&'static str>,
    /// The winner once there is one.
    pub winner: Option<u8>,
    /// End reason once over.
    pub end_reason: Option<&'static str>,
}

/// A random event of Dice Factor (module doc).
///
/// The draws, deals and reshuffles every card game records are [`CardChance`]'s; these are
/// this game's own.
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OwnChance {
    /// The two dice at the set-up.
    Dice {
        /// The colors die's face.
        colors: &'static str,
        /// The shapes die's face.
        shapes: &'static str,
    },
    /// The d8.
    D8 {
        /// Who rolled.
        seat: u8,
        /// The face, 1 to 8.
        face: u8,
        /// What it does.
        outcome: &'static str,
    },
    /// The random card taken from the target in a swap.
    TakeRandom {
        /// The roller or player.
        seat: u8,
        /// The target.
        from: u8,
        /// The card (none from an empty hand).
        card: Option<&'static str>,
    },
    /// A die rerolled.
    Reroll {
        /// Who rerolled.
        seat: u8,
        /// The die.
        die: Die,
        /// Its new face.
        face: &'static str,
    },
}

/// A random event as the trace records it.
type Chance = CardChance<&'static str, OwnChance>;

fn d8_name(f: D8Face) -> &'static str {
    f.name()
}

/// What `state` paths a seat does not see (see [`Traces::trace_secrets`](crate::engine::Traces::trace_secrets)).
pub(super) const SECRETS: &[&str] = &["players/*/hand", "draw"];

impl Traces for DiceFactor {
    /// The traced table of `s` (module doc).
    fn trace_state(&self, s: &State) -> serde_json::Value {
        serde_json::to_value(Table {
            turn: s.turns,
            current: s.current,
            direction: if s.reversed { -1 } else { 1 },
            phase: match s.phase {
                Phase::Start => "start",
                Phase::Discard => "discard",
                Phase::TradeHandsCard => "trade_hands_card",
                Phase::TradeOneCard => "trade_one_card",
                Phase::DiceCard => "dice_card",
                Phase::D8Swap => "d8_swap",
                Phase::D8Trade => "d8_trade",
                Phase::D8Reroll => "d8_reroll",
                Phase::Over => "over",
            },
            dice: [Die::Colors.face_name(s.dice[0]), Die::Shapes.face_name(s.dice[1])],
            players: (0..self.seats()).map(|seat| Player { hand: cards_of(&s.hands[seat]), skips: s.skips[seat] }).collect(),
            taken: s.taken.map(card_str),
            d8: s.d8.map(|d| d8_name(d.outcome)),
            draw: pile_names(&s.draw),
            discard: pile_names(&s.discard),
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
            Event::DiceRolled { colors, shapes, .. } => {
                Chance::Own(OwnChance::Dice { colors: Die::Colors.face_name(colors), shapes: Die::Shapes.face_name(shapes) })
            }
            Event::Drew { seat, card } => Chance::Draw { seat, card: card_str(card) },
            Event::Reshuffled { ref order } => Chance::reshuffle(order, card_str),
            Event::RolledD8 { seat, face, outcome } => Chance::Own(OwnChance::D8 { seat, face, outcome: d8_name(outcome) }),
            Event::SwapDetail { seat, target, took, .. } => Chance::Own(OwnChance::TakeRandom { seat, from: target, card: took.map(card_str) }),
            Event::Rerolled { seat, die, face } => Chance::Own(OwnChance::Reroll { seat, die, face: die.face_name(face) }),
            _ => return None,
        };
        chance.record()
    }

    /// The rule `action` breaks at `view`, where a specific one applies (else the generic
    /// reason of [`Traces::why_illegal`](crate::engine::Traces::why_illegal)).
    fn why_illegal(&self, view: &super::View<'_>, action: &super::Action) -> Option<String> {
        use super::Action;
        let holds = |c: Card| (c as usize) < CARD_KINDS && view.hand.count(c) > 0;
        let other = |t: u8| (t as usize) < self.seats() && t as usize != view.seat;
        Some(match (*action, view.decision) {
            (Action::Discard(c) | Action::Give { card: c, .. }, Phase::Discard | Phase::TradeOneCard | Phase::D8Swap) if !holds(c) => {
                format!("seat {} does not hold a {}", view.seat, card_str(c))
            }
            (Action::Give { target: t, .. } | Action::TradeHands(t), _) if !other(t) => format!("seat {t} is not another player at this table"),
            (Action::TakeDiscard, Phase::Start) => "the discard pile is empty".into(),
            _ => return None,
        })
    }

    /// The table of `s` in the game's words (see [`Traces::table_words`](crate::engine::Traces::table_words)).
    fn table_words(&self, s: &State) -> Option<crate::engine::words::TableWords> {
        use crate::engine::words::{Lay, TableWords, Zone};
        let goal = format!(
            "The first player whose hand holds {} cards counting toward one target the dice show wins: the colors die names a color, the shapes die a shape, a logo any color (any shape); wilds count toward their color or shape.",
            self.params.goal
        );
        let seat = s.current;
        let now = match s.phase {
            Phase::Start => format!("seat {seat} draws a card, takes the top of the discard pile, or rolls the d8"),
            Phase::Discard => format!("seat {seat} discards a card"),
            Phase::TradeHandsCard => format!("seat {seat} picks a player to trade hands with"),
            Phase::TradeOneCard => format!("seat {seat} gives a card to a player and takes one of theirs at random"),
            Phase::DiceCard => format!("seat {seat} rerolls a die or declines"),
            Phase::D8Swap => format!("seat {seat} rolled a swap: swaps a card with a random card of another player, or declines"),
            Phase::D8Trade => format!("seat {seat} rolled a trade: trades hands with another player, or declines"),
            Phase::D8Reroll => format!("seat {seat} rolled a reroll: rerolls a die, or declines"),
            Phase::Over => String::new(),
        };
        let facts = vec![
            format!("turn {}", s.turns),
            format!("the dice show {} and {}", Die::Colors.face_name(s.dice[0]), Die::Shapes.face_name(s.dice[1])),
            if s.reversed { "play goes against seat order".into() } else { "play goes in seat order".into() },
        ];
        Some(TableWords {
            goal,
            now,
            facts,
            zones: vec![Zone::new("dice", "the dice", Lay::Dice), Zone::new("draw", "draw pile", Lay::Pile), Zone::new("discard", "discard pile", Lay::Pile)],
            seat_zones: vec![Zone::new("players/*/hand", "hand", Lay::Cards)],
            seat_facts: (0..self.players).map(|q| if s.skips[q] > 0 { format!("loses its next {} turn(s)", s.skips[q]) } else { String::new() }).collect(),
            end: match (s.phase, END_REASONS[s.end_reason as usize]) {
                (Phase::Over, "five_of_a_kind") => format!("a hand reached {} cards toward a target", self.params.goal),
                (Phase::Over, _) => "the turn cap was reached".into(),
                _ => String::new(),
            },
        })
    }

    fn describe(&self, s: &State) -> String {
        let mut out = format!(
            "end: {} after {} turns; dice {} / {}\n",
            END_REASONS[s.end_reason as usize],
            s.turns,
            Die::Colors.face_name(s.dice[0]),
            Die::Shapes.face_name(s.dice[1])
        );
        for seat in 0..self.players {
            let mark = if s.winner == Some(seat as u8) {
                format!(" WINS: {} cards toward {}", self.params.goal, target_name(s.win_target as usize))
            } else {
                String::new()
            };
            out.push_str(&format!("  seat {seat}: [{}]{mark}\n", s.hands[seat]));
        }
        out
    }
}
