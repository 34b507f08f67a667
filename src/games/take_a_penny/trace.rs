//! Take a Penny as data: the state and action records of `playtest trace --json`.
//!
//! The round is simultaneous: the engine asks the players one after the other and buffers
//! their secret choices, so a trace has one `decision` line per player per round, and the
//! state between them holds the choices made so far (`chosen`, each hidden from the other
//! seats) until the last one reveals and resolves the round.
//!
//! State (`start` and every `state` line):
//! - `round`: rounds resolved so far; `over`, `end_reason` (`pot_empty`, `cap`) once over;
//! - `pot`: pennies in the pot;
//! - `bank_cards`: per bank card (seat order: red, blue, green, yellow; a dummy card last
//!   with 2 or 3 players) its `color`, `dummy`, `pennies`, `chosen` (this round's secret
//!   choice, null until made; hidden from every other seat) and `last` (its action in the
//!   last resolved round, public; null before round 1 and for the dummy);
//! - `next`: the seat to choose next this round.
//!
//! Actions (spots of the action card): `"take1_block"`, `"take2"`, `"return1"`,
//! `"block_self"`, `{"take_from": "blue"}`, `{"give": "green"}` (the target bank card's
//! color). Take a Penny has no chance: the set-up is fixed by the variant.

use serde::Serialize;

use super::rules::{self, State};
use super::{Action, COLORS, Choice, END_REASONS, TakeAPenny, color};
use crate::engine::Traces;

/// One bank card of the traced table.
#[derive(Serialize)]
pub struct BankCard {
    /// Its color.
    pub color: &'static str,
    /// Whether it is the dummy card (a scored seat that never acts).
    pub dummy: bool,
    /// Pennies on it.
    pub pennies: u32,
    /// This round's secret choice, once made.
    pub chosen: Option<Action>,
    /// Its action in the last resolved round.
    pub last: Option<Action>,
}

/// The whole table (module doc).
#[derive(Serialize)]
pub struct Table {
    /// Rounds resolved.
    pub round: u32,
    /// Pennies in the pot.
    pub pot: u32,
    /// Every bank card.
    pub bank_cards: Vec<BankCard>,
    /// The seat to choose next.
    pub next: u8,
    /// Whether the game is over.
    pub over: bool,
    /// End reason once over.
    pub end_reason: Option<&'static str>,
}

/// serde of a bank card's index as its color: `#[serde(with = "by_color")]`.
pub mod by_color {
    use super::{COLORS, color};

    /// Writes the color.
    pub fn serialize<S: serde::Serializer>(card: &u8, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(color(*card as usize))
    }

    /// Reads a color.
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
        let name = <String as serde::Deserialize>::deserialize(d)?;
        COLORS
            .iter()
            .position(|c| *c == name)
            .map(|c| c as u8)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown bank card `{name}`; allowed: {}", COLORS.join(", "))))
    }
}

impl From<Choice> for Action {
    fn from(c: Choice) -> Action {
        c.action()
    }
}

/// What `state` paths a seat does not see (see [`crate::engine::Traces::trace_secrets`]).
pub(super) const SECRETS: &[&str] = &["bank_cards/*/chosen"];

impl Traces for TakeAPenny {
    /// The traced table of `s` (module doc).
    fn trace_state(&self, s: &State) -> serde_json::Value {
        let pennies = s.pennies();
        let record = (s.round > 0).then(|| s.record());
        serde_json::to_value(Table {
            round: s.round,
            pot: s.pot,
            bank_cards: (0..self.setup.cards)
                .map(|card| BankCard {
                    color: color(card),
                    dummy: self.setup.is_dummy(card),
                    pennies: pennies[card],
                    chosen: s.chosen_by(card).map(|c| c.action()),
                    last: record.filter(|_| card < self.setup.players).map(|r| r.actions[card]),
                })
                .collect(),
            next: s.next,
            over: s.over,
            end_reason: s.over.then(|| END_REASONS[s.end_reason as usize]),
        })
        .expect("serialises")
    }

    fn trace_secrets(&self) -> &'static [&'static str] {
        SECRETS
    }

    /// The rule `action` breaks at `view`, where a specific one applies (else the generic
    /// reason of [`crate::engine::Traces::why_illegal`]).
    fn why_illegal(&self, view: &super::View<'_>, choice: &Choice) -> Option<String> {
        let a = choice.action();
        let pennies = view.pennies();
        let own = pennies[view.seat];
        Some(if super::rules::spot(a) == view.last()[view.seat] {
            format!("{a} is the spot seat {} chose last round: no spot twice in a row", view.seat)
        } else {
            match a {
                Action::Take1Block | Action::Take2 if view.pot() == 0 => "the pot is empty".into(),
                Action::Return1 | Action::Give(_) if own == 0 => format!("seat {}'s bank card holds no penny", view.seat),
                Action::TakeFrom(c) | Action::Give(c) if c as usize == view.seat => "a player does not take from or give to its own bank card".into(),
                Action::TakeFrom(c) if (c as usize) < self.setup.cards && pennies[c as usize] == 0 => {
                    format!("the {} bank card holds no penny", color(c as usize))
                }
                Action::TakeFrom(c) | Action::Give(c) if c as usize >= self.setup.cards => format!("there is no {} bank card at this table", color(c as usize)),
                _ => return None,
            }
        })
    }

    /// The table of `s` in the game's words (see [`crate::engine::Traces::table_words`]).
    fn table_words(&self, s: &State) -> Option<crate::engine::words::TableWords> {
        use crate::engine::words::{Lay, TableWords, Zone};
        let goal = "Every round each player secretly picks a spot of the action card (take from the pot, take from another bank card, give, return, block) and all reveal at once; the game ends when the pot is empty, and the bank card with the most pennies wins (ties share).".to_string();
        let now = if s.over { String::new() } else { format!("seat {} picks its action for this round, face down", s.next) };
        Some(TableWords {
            goal,
            now,
            facts: vec![format!("round {}", s.round + u32::from(!s.over)), format!("pot: {} pennies", s.pot)],
            zones: Vec::new(),
            seat_zones: vec![
                Zone::new("bank_cards/*/color", "bank card", Lay::Value),
                Zone::new("bank_cards/*/pennies", "pennies", Lay::Value),
                Zone::new("bank_cards/*/chosen", "this round's pick", Lay::Value),
                Zone::new("bank_cards/*/last", "last round's pick", Lay::Value),
            ],
            seat_facts: (0..crate::engine::Game::seats(self))
                .map(|c| if self.setup.is_dummy(c) { "a dummy bank card: it never picks".to_string() } else { String::new() })
                .collect(),
            end: match (s.over, END_REASONS[s.end_reason as usize]) {
                (true, "pot_empty") => "the pot is empty".into(),
                (true, _) => "the round cap was reached".into(),
                _ => String::new(),
            },
        })
    }

    fn describe(&self, s: &State) -> String {
        let mut out = format!("end: {} after {} rounds; pot {}\n", END_REASONS[s.end_reason as usize], s.round, s.pot);
        let pennies = s.pennies();
        let w = rules::winners(&pennies[..self.setup.cards]);
        for (card, p) in pennies.iter().enumerate().take(self.setup.cards) {
            out.push_str(&format!("  {}: {} pennies{}\n", self.card_label(card), p, if w & (1 << card) != 0 { " (wins)" } else { "" }));
        }
        out
    }
}
