//! Rainbow Rush's variant keys: the table `playtest rules` prints and `docs/games/rainbow-rush.md`
//! shows, tied to the variant loader by the tests below.

use crate::games::key_table::VariantKey;

/// Every key of a Rainbow Rush variant file, in the loader's order.
pub const KEYS: &[VariantKey] = &[
    VariantKey { key: "players", default: "4", allowed: "2 to 8", meaning: "Players at the table." },
    VariantKey { key: "deal", default: "3", allowed: "0 to 20; the deck must deal every hand", meaning: "Cards dealt to each player." },
    VariantKey {
        key: "row_size",
        default: "5",
        allowed: "5 to 12",
        meaning: "Most cards a row may hold; adding a card to a full row moves one of its cards to the discard pile.",
    },
    VariantKey {
        key: "lock_turns",
        default: "1",
        allowed: "0 to 1000",
        meaning: "Turns a card replaced by a wild stays locked in the discard pile (it cannot be taken during the next `lock_turns` turns); 0: never locked.",
    },
    VariantKey { key: "turn_cap", default: "1000", allowed: "1 to 100000", meaning: "Turns after which the game stops with no winner (end reason `cap`)." },
    VariantKey {
        key: "reshuffle_discard",
        default: "true",
        allowed: "true or false",
        meaning: "Shuffle the discard pile, all but its top card, into a new draw pile when a player draws from an empty draw pile; false: that draw gives nothing.",
    },
    VariantKey { key: "sabotage", default: "true", allowed: "true or false", meaning: "Whether a wild may be played onto an opponent's row." },
    VariantKey {
        key: "deck.base_sets",
        default: "3",
        allowed: "0 to 10; the deck must deal every hand",
        meaning: "Base sets (25 cards each, one per color and shape). A `[deck]` table, when given, lists all four set counts.",
    },
    VariantKey { key: "deck.colors_sets", default: "1", allowed: "0 to 10", meaning: "Colors sets (5 color wilds and 1 all-colors wild each)." },
    VariantKey { key: "deck.shapes_sets", default: "1", allowed: "0 to 10", meaning: "Shapes sets (5 shape wilds and 1 all-shapes wild each)." },
    VariantKey { key: "deck.action_sets", default: "0", allowed: "0 only", meaning: "Rainbow Rush has no action cards: must be 0." },
    VariantKey {
        key: "deck.counts.base",
        default: "none (the sets decide)",
        allowed: "0 to 20; the deck must deal every hand",
        meaning: "Copies of each base card (one per color and shape), replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.color_wild",
        default: "none (the sets decide)",
        allowed: "0 to 20; the deck must deal every hand",
        meaning: "Copies of each color wild, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.shape_wild",
        default: "none (the sets decide)",
        allowed: "0 to 20; the deck must deal every hand",
        meaning: "Copies of each shape wild, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.all_colors",
        default: "none (the sets decide)",
        allowed: "0 to 20; the deck must deal every hand",
        meaning: "Copies of the all-colors wild, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.all_shapes",
        default: "none (the sets decide)",
        allowed: "0 to 20; the deck must deal every hand",
        meaning: "Copies of the all-shapes wild, replacing what the sets give.",
    },
    VariantKey { key: "deck.counts.skip", default: "none (the sets decide)", allowed: "0 only", meaning: "Rainbow Rush has no action cards: must be 0." },
    VariantKey { key: "deck.counts.reverse", default: "none (the sets decide)", allowed: "0 only", meaning: "Rainbow Rush has no action cards: must be 0." },
    VariantKey {
        key: "deck.counts.trade_one_card",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Rainbow Rush has no action cards: must be 0.",
    },
    VariantKey {
        key: "deck.counts.trade_hands",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Rainbow Rush has no action cards: must be 0.",
    },
    VariantKey { key: "deck.counts.add_a_card", default: "none (the sets decide)", allowed: "0 only", meaning: "Rainbow Rush has no action cards: must be 0." },
    VariantKey {
        key: "deck.counts.add_two_cards",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Rainbow Rush has no action cards: must be 0.",
    },
    VariantKey {
        key: "deck.counts.remove_a_card",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Rainbow Rush has no action cards: must be 0.",
    },
    VariantKey {
        key: "deck.counts.remove_two_cards",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Rainbow Rush has no action cards: must be 0.",
    },
    VariantKey { key: "deck.counts.dice", default: "none (the sets decide)", allowed: "0 only", meaning: "Rainbow Rush has no action cards: must be 0." },
];

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_table_is_the_loaders() {
        crate::games::key_table::check_against_loader::<super::super::params::Params>(<super::super::RainbowRush as crate::engine::Game>::INFO.id, super::KEYS);
    }
}
