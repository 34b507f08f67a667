//! Flower Power's variant parameters: the TOML reference of every key with its docs/games/flower-power.md
//! default and allowed range, and the checks that reject what the game cannot play (wilds
//! or action cards in the deck, a flower bigger than a color's cards, counts past a bound).

use serde::Deserialize;

use crate::games::chroma::Card;
use crate::variant::Invalid;

/// Most players at one table.
pub const MAX_PLAYERS: usize = 8;
/// Largest hand (a play is a bit mask of hand positions, so at most 16).
pub const MAX_HAND: usize = 16;
/// Most copies of each base card (base sets) in the deck: 40 sets = 1000 cards.
pub const MAX_BASE_SETS: u32 = 40;
/// Largest turn cap.
pub const MAX_TURN_CAP: u32 = 100_000;
/// Colors (flowers that can be in progress at once).
pub const COLORS: usize = 5;

crate::games::key_table::params! {
    /// Flower Power's parameters as they appear in a variant file; every key is optional and
    /// defaults to docs/games/flower-power.md.
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    pub struct Params {
        /// Players at the table.
        pub players: u32 = 4, range(2, MAX_PLAYERS), unit "players";
        /// Cards a player draws up to at the start of its turn.
        pub hand_size: u32 = 5, range(1, MAX_HAND), unit "cards per hand";
        /// Most cards played in one turn (at least 1 is always played); above `hand_size` it
        /// plays like `hand_size`.
        pub max_play: u32 = 5, range(1, MAX_HAND), unit "cards per play";
        /// Cards of one color that complete a flower (1 point).
        // At most the cards of one color in the deck, 5 x base sets (10 with the default deck).
        pub petals: u32 = 5, allowed("1 to 10; at most 5 x the copies of each base card");
        /// Turns after which the game stops with end reason `cap` (most flowers still win).
        // A game never needs more turns than the deck has cards.
        pub turn_cap: u32 = 1000, range(1, MAX_TURN_CAP), unit "turns";
        /// Deck composition: base sets only.
        pub deck: DeckParams = DeckParams::default(), nested;
    }
}

crate::games::key_table::params! {
    prefix "deck.";
    /// The `[deck]` table, read as the shared Chroma [`DeckSpec`](crate::games::chroma::DeckSpec):
    /// Flower Power plays base cards only, so every set or count other than the base ones must
    /// be 0.
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    pub struct DeckParams {
        /// Base sets in the deck (25 cards each, one per color and shape).
        pub base_sets: u32 = 2, documented(1, MAX_BASE_SETS);
        /// Flower Power has no wilds: must be 0.
        pub colors_sets: u32 = 0, allowed("0 only");
        /// Flower Power has no wilds: must be 0.
        pub shapes_sets: u32 = 0, allowed("0 only");
        /// Flower Power has no action cards: must be 0.
        pub action_sets: u32 = 0, allowed("0 only");
        /// Per-kind overrides: only `base` may be non-zero.
        pub counts: CountsParams = CountsParams::default(), nested;
    }
}

crate::games::chroma::deck_counts! {
    /// The `[deck.counts]` table (the shared Chroma
    /// [`DeckCounts`](crate::games::chroma::DeckCounts), with Flower Power's ranges).
    pub struct CountsParams in DeckParams;
    played: documented(1, MAX_BASE_SETS);
    not_played "Flower Power has no wilds or action cards: must be 0.":
        color_wild, shape_wild, all_colors, all_shapes, skip, reverse, trade_one_card, trade_hands, add_a_card, add_two_cards, remove_a_card, remove_two_cards, dice;
    meaning base "Copies of each base card, replacing `base_sets`.";
}

impl DeckParams {
    /// Copies of each base card.
    pub fn copies(&self) -> u32 {
        self.counts.base.unwrap_or(self.base_sets)
    }

    /// The deck in canonical order (base cards only once checked).
    pub fn cards(&self) -> Vec<Card> {
        self.spec().cards(&[])
    }
}

impl Params {
    /// Cards of one color in the deck.
    pub fn per_color(&self) -> u32 {
        self.deck.copies().saturating_mul(5)
    }

    /// Checks every parameter; every problem is listed with its key.
    pub fn check(&self) -> Result<(), Vec<Invalid>> {
        let mut bad = Vec::new();
        let range = |bad: &mut Vec<Invalid>, key: &str, what: &str, v: u32, lo: u32, hi: u32| {
            if !(lo..=hi).contains(&v) {
                bad.push(Invalid::new(key, format!("{v} {what} is not allowed; allowed: {lo} to {hi}")));
            }
        };
        self.check_ranges(&mut bad);
        let d = &self.deck;
        let (copies_key, copies) = match d.counts.base {
            Some(n) => ("deck.counts.base", n),
            None => ("deck.base_sets", d.base_sets),
        };
        let copies_ok = (1..=MAX_BASE_SETS).contains(&copies);
        range(&mut bad, copies_key, "copies of each base card", copies, 1, MAX_BASE_SETS);
        for (key, v) in [("deck.colors_sets", d.colors_sets), ("deck.shapes_sets", d.shapes_sets), ("deck.action_sets", d.action_sets)] {
            if v != 0 {
                bad.push(Invalid::new(key, format!("{v} is not allowed; allowed: 0 (Flower Power plays base cards only: no wilds, no action cards)")));
            }
        }
        for (kind, n) in d.counts.not_played() {
            bad.push(Invalid::new(
                format!("deck.counts.{kind}"),
                format!("{n} is not allowed; allowed: 0 (Flower Power plays base cards only: no wilds, no action cards)"),
            ));
        }
        if copies_ok {
            let per_color = self.per_color();
            if !(1..=per_color).contains(&self.petals) {
                bad.push(Invalid::new(
                    "petals",
                    format!("{} petals per flower is not allowed; allowed: 1 to {per_color} (the deck has {per_color} cards of each color)", self.petals),
                ));
            }
        } else if self.petals == 0 {
            bad.push(Invalid::new("petals", "0 petals per flower is not allowed; allowed: 1 to 5 x base sets"));
        }
        if bad.is_empty() { Ok(()) } else { Err(bad) }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_table_is_the_loaders() {
        crate::games::key_table::check_against_loader::<super::Params>(<super::super::FlowerPower as crate::engine::Game>::INFO.id, super::Params::KEYS);
    }
}
