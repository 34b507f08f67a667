//! The chance records the card games' traces share, written once: a starting hand dealt, a
//! card drawn, a pile reshuffled into a new draw pile ([`CardChance`]); a game's other random
//! events are its own enum, carried by [`CardChance::Own`]. A game's
//! [`crate::engine::Traces::trace_chance`] maps its events to these and calls
//! [`CardChance::record`].
//!
//! The JSON is each game's own as before: `{"deal": {"seat": 0, "hand": [...]}}`,
//! `{"draw": {"seat": 1, "card": "..."}}`, `{"reshuffle": {"cards": 9, "order": [...]}}`,
//! and a game's own record as its enum writes it (the `Own` wrapper writes no tag).

use serde::Serialize;

/// A random event of a card game, as its trace records it; `C` is how a card is written
/// (its name), `E` the game's own random events ([`NoOwnChance`] when it has none).
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CardChance<C, E> {
    /// A seat's starting hand.
    Deal {
        /// The seat.
        seat: u8,
        /// Its cards.
        hand: Vec<C>,
    },
    /// A card from the draw pile.
    Draw {
        /// Who drew.
        seat: u8,
        /// The card.
        card: C,
    },
    /// A pile shuffled into a new draw pile.
    Reshuffle {
        /// Cards in it.
        cards: u32,
        /// The new draw pile, top first (the card drawn first leads): the next state's `draw`
        /// before any of it is drawn.
        order: Vec<C>,
    },
    /// A random event of the game's own (written as its enum writes it, with no tag).
    #[serde(untagged)]
    Own(E),
}

/// The own random events of a game that has none beyond [`CardChance`]'s.
#[derive(Serialize)]
pub enum NoOwnChance {}

impl<C: Serialize, E: Serialize> CardChance<C, E> {
    /// A reshuffle whose new draw pile is `order` bottom first (as the games' events hold
    /// it), each card written by `name`: recorded top first, with its size.
    pub fn reshuffle<K: Copy>(order: &[K], name: impl Fn(K) -> C) -> Self {
        CardChance::Reshuffle { cards: order.len() as u32, order: order.iter().rev().map(|&c| name(c)).collect() }
    }

    /// The record as the trace writes it (always `Some`: the shape
    /// [`crate::engine::Traces::trace_chance`] returns).
    pub fn record(self) -> Option<serde_json::Value> {
        Some(serde_json::to_value(self).expect("a chance record serialises"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game's own events, for the test.
    #[derive(Serialize)]
    #[serde(rename_all = "snake_case")]
    enum Own {
        Roll { seat: u8, face: &'static str },
    }

    /// The records are the JSON the games' traces wrote before they were shared: tagged by
    /// the event, fields in order, the reshuffle top first; a game's own event untouched.
    #[test]
    fn records_keep_their_json() {
        let text = |c: CardChance<&'static str, Own>| c.record().expect("a record").to_string();
        assert_eq!(text(CardChance::Deal { seat: 2, hand: vec!["a", "b"] }), r#"{"deal":{"seat":2,"hand":["a","b"]}}"#);
        assert_eq!(text(CardChance::Draw { seat: 1, card: "c" }), r#"{"draw":{"seat":1,"card":"c"}}"#);
        let names = ["x", "y", "z"];
        assert_eq!(text(CardChance::reshuffle(&[0usize, 1, 2], |i| names[i])), r#"{"reshuffle":{"cards":3,"order":["z","y","x"]}}"#);
        assert_eq!(text(CardChance::Own(Own::Roll { seat: 0, face: "six" })), r#"{"roll":{"seat":0,"face":"six"}}"#);
    }
}
