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
//! Actions: a play is the list of the hand positions played, from 0, in increasing order:
//! `[0, 2]` plays the cards at positions 0 and 2. A trace written before may give the bit
//! mask of the positions instead (bit i = position i: `5`), which reads as the same play.
//! The draw to the hand size happens when the turn starts, before the decision, so a
//! decision's hand is the full one.
//!
//! Chance: `draw` (the cards a seat draws at the start of its turn, from the top of the
//! pile). The shuffled pile is the start state's `pile`.

use serde::Serialize;

use super::params::COLORS;
use super::rules::{END_REASONS, State};
use super::{Event, FlowerPower};
use crate::engine::Traces;
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

/// What `state` paths a seat does not see (see [`crate::engine::Traces::trace_secrets`]).
pub(super) const SECRETS: &[&str] = &["players/*/hand", "pile"];

/// serde of a play's mask (`#[serde(with = "trace::positions")]`): written as the list of the
/// hand positions played, in increasing order; read from that list or from the bit mask
/// itself (bit i = position i), as traces wrote plays before.
pub mod positions {
    use std::fmt;

    use serde::de::{Error, SeqAccess, Visitor};

    use crate::games::flower_power::MAX_HAND;

    /// Writes the positions in increasing order.
    pub fn serialize<S: serde::Serializer>(mask: &u16, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq((0..MAX_HAND as u32).filter(|&i| mask & (1 << i) != 0))
    }

    /// Reads a list of positions (each below [`MAX_HAND`]) or a bit mask.
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u16, D::Error> {
        d.deserialize_any(Play)
    }

    struct Play;

    impl<'de> Visitor<'de> for Play {
        type Value = u16;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a list of hand positions such as [0, 2] (or their bit mask, such as 5)")
        }

        fn visit_u64<E: Error>(self, mask: u64) -> Result<u16, E> {
            match u16::try_from(mask) {
                Ok(m) if mask >> MAX_HAND == 0 => Ok(m),
                _ => Err(E::custom(format!("the bit mask {mask} names a hand position past {}: a hand holds at most {MAX_HAND} cards", MAX_HAND - 1))),
            }
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<u16, A::Error> {
            let mut mask = 0u16;
            while let Some(i) = seq.next_element::<u64>()? {
                if i >= MAX_HAND as u64 {
                    return Err(A::Error::custom(format!("hand position {i} is out of range: a hand holds at most {MAX_HAND} cards")));
                }
                mask |= 1 << i;
            }
            Ok(mask)
        }
    }
}

impl Traces for FlowerPower {
    /// The traced table of `s` (module doc).
    fn trace_state(&self, s: &State) -> serde_json::Value {
        serde_json::to_value(Table {
            turn: s.turns,
            current: s.current,
            passes: s.passes,
            players: (0..self.players).map(|seat| Player { hand: card_names(s.hands[seat].cards()), flowers: s.flowers[seat] }).collect(),
            garden: (0..COLORS)
                .map(|c| Flower { color: COLOR_NAMES[c], petals: u16::from(s.garden[c]), starter: (s.garden[c] > 0).then_some(s.starter[c]) })
                .collect(),
            flowers_by_color: s.flowers_by_color.to_vec(),
            pile: s.pile.iter().rev().map(|&c| crate::games::chroma::card_str(c)).collect(),
            over: s.over,
            end_reason: s.over.then(|| END_REASONS[s.end_reason as usize]),
        })
        .expect("serialises")
    }

    fn trace_secrets(&self) -> &'static [&'static str] {
        SECRETS
    }

    /// The chance record of `event`, if it is one (module doc).
    fn trace_chance(&self, event: &Event) -> Option<serde_json::Value> {
        let chance: Option<Chance> = match event {
            Event::Drew { seat, cards } => Some(Chance::Draw { seat: *seat, cards: card_names(cards) }),
            _ => None,
        };
        chance.map(|c| serde_json::to_value(c).expect("serialises"))
    }

    /// The rule `action` breaks at `view`, where a specific one applies (else the generic
    /// reason of [`crate::engine::Traces::why_illegal`]).
    fn why_illegal(&self, view: &super::View<'_>, action: &super::Action) -> Option<String> {
        let n = view.hand.len();
        let mask = action.0;
        Some(if mask == 0 {
            "a play lays at least one card".into()
        } else if (mask as u32) >> n != 0 {
            format!("the hand holds {n} cards (positions 0 to {}); the play names position {}", n.saturating_sub(1), 15 - mask.leading_zeros())
        } else {
            format!("a play lays at most {} cards, not {}", self.max_play, mask.count_ones())
        })
    }

    /// The table of `s` in the game's words (see [`crate::engine::Traces::table_words`]).
    fn table_words(&self, s: &State) -> Option<crate::engine::words::TableWords> {
        use crate::engine::words::{Lay, TableWords, Zone};
        let p = &self.params;
        let goal = format!(
            "Each card played adds a petal to the flower of its color; whoever lays a flower's {}th petal takes the flower (1 point). The game ends when the pile and every hand are empty; most flowers win (ties share).",
            p.petals
        );
        let now = if s.over { String::new() } else { format!("seat {} plays 1 to {} cards from its hand", s.current, p.max_play) };
        let mut facts = vec![format!("turn {}", s.turns + u32::from(!s.over))];
        for (c, color) in COLOR_NAMES.iter().enumerate().take(COLORS) {
            let started = if s.garden[c] > 0 { format!(", started by seat {}", s.starter[c]) } else { String::new() };
            facts.push(format!("{color} flower: {} of {} petals{started}", s.garden[c], p.petals));
        }
        Some(TableWords {
            goal,
            now,
            facts,
            zones: vec![Zone::new("pile", "draw pile", Lay::Pile)],
            seat_zones: vec![Zone::new("players/*/hand", "hand", Lay::Cards)],
            seat_facts: Vec::new(),
            end: match (s.over, END_REASONS[s.end_reason as usize]) {
                (true, "all_played") => "every card was played".into(),
                (true, _) => "the turn cap was reached".into(),
                _ => String::new(),
            },
        })
    }

    fn describe(&self, s: &State) -> String {
        let mut out = format!(
            "end: {} after {} turns; pile {} cards\n  garden:",
            if s.over { END_REASONS[s.end_reason as usize] } else { "in progress" },
            s.turns,
            s.pile.len()
        );
        for (c, &k) in s.garden.iter().enumerate() {
            out.push_str(&format!(" {} {k}", COLOR_NAMES[c]));
        }
        out.push('\n');
        for seat in 0..self.players {
            out.push_str(&format!("  seat {seat}: {} flower(s); hand [{}]\n", s.flowers[seat], s.hands[seat]));
        }
        out
    }
}
