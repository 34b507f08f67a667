//! Dice Factor's variant keys: the table `playtest rules` prints and `docs/games/dice-factor.md`
//! shows, tied to the variant loader by the tests below.

use crate::games::key_table::VariantKey;

/// Every key of a Dice Factor variant file, in the loader's order.
pub const KEYS: &[VariantKey] = &[
    VariantKey { key: "players", default: "4", allowed: "2 to 8", meaning: "Players at the table." },
    VariantKey { key: "hand_size", default: "5", allowed: "1 to 10", meaning: "Cards dealt to each player." },
    VariantKey {
        key: "goal",
        default: "5",
        allowed: "1 to 20",
        meaning: "Cards counting toward one current target that win; above `hand_size` only hands that add-a-card made larger can reach it.",
    },
    VariantKey { key: "turn_cap", default: "1000", allowed: "1 to 100000", meaning: "Turns after which the game stops with no winner (end reason `cap`)." },
    VariantKey {
        key: "reshuffle_discard",
        default: "true",
        allowed: "true or false",
        meaning: "Shuffle the whole discard pile into a new draw pile when a card must be drawn from an empty draw pile; false: that draw gives nothing.",
    },
    VariantKey {
        key: "d8",
        default: "[\"nothing\", \"nothing\", \"nothing\", \"nothing\", \"nothing\", \"swap\", \"trade\", \"reroll\"]",
        allowed: "1 to 20 faces, each `\"nothing\"`, `\"swap\"`, `\"trade\"` or `\"reroll\"`",
        meaning: "What each face of the d8 does, in face order.",
    },
    VariantKey {
        key: "deck.base_sets",
        default: "3",
        allowed: "0 to 10; the deck must deal every hand",
        meaning: "Base sets (25 cards each, one per color and shape).",
    },
    VariantKey { key: "deck.colors_sets", default: "1", allowed: "0 to 10", meaning: "Colors sets (5 color wilds and 1 all-colors wild each)." },
    VariantKey { key: "deck.shapes_sets", default: "1", allowed: "0 to 10", meaning: "Shapes sets (5 shape wilds and 1 all-shapes wild each)." },
    VariantKey {
        key: "deck.action_sets",
        default: "1",
        allowed: "0 to 10",
        meaning: "Action sets (one each of skip, reverse, trade one card, trade hands, add a card and dice).",
    },
    VariantKey {
        key: "deck.counts.base",
        default: "none (the sets decide)",
        allowed: "0 to 10; the deck must deal every hand",
        meaning: "Copies of each base card (one per color and shape), replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.color_wild",
        default: "none (the sets decide)",
        allowed: "0 to 10; the deck must deal every hand",
        meaning: "Copies of each color wild, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.shape_wild",
        default: "none (the sets decide)",
        allowed: "0 to 10; the deck must deal every hand",
        meaning: "Copies of each shape wild, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.all_colors",
        default: "none (the sets decide)",
        allowed: "0 to 10; the deck must deal every hand",
        meaning: "Copies of the all-colors wild, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.all_shapes",
        default: "none (the sets decide)",
        allowed: "0 to 10; the deck must deal every hand",
        meaning: "Copies of the all-shapes wild, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.skip",
        default: "none (the sets decide)",
        allowed: "0 to 10; the deck must deal every hand",
        meaning: "Copies of the skip card, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.reverse",
        default: "none (the sets decide)",
        allowed: "0 to 10; the deck must deal every hand",
        meaning: "Copies of the reverse card, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.trade_one_card",
        default: "none (the sets decide)",
        allowed: "0 to 10; the deck must deal every hand",
        meaning: "Copies of the trade-one-card card, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.trade_hands",
        default: "none (the sets decide)",
        allowed: "0 to 10; the deck must deal every hand",
        meaning: "Copies of the trade-hands card, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.add_a_card",
        default: "none (the sets decide)",
        allowed: "0 to 10; the deck must deal every hand",
        meaning: "Copies of the add-a-card card, replacing what the sets give.",
    },
    VariantKey { key: "deck.counts.add_two_cards", default: "none (the sets decide)", allowed: "0 only", meaning: "Not a Dice Factor card: must be 0." },
    VariantKey { key: "deck.counts.remove_a_card", default: "none (the sets decide)", allowed: "0 only", meaning: "Not a Dice Factor card: must be 0." },
    VariantKey { key: "deck.counts.remove_two_cards", default: "none (the sets decide)", allowed: "0 only", meaning: "Not a Dice Factor card: must be 0." },
    VariantKey {
        key: "deck.counts.dice",
        default: "none (the sets decide)",
        allowed: "0 to 10; the deck must deal every hand",
        meaning: "Copies of the dice card, replacing what the sets give.",
    },
];

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_table_is_the_loaders() {
        crate::games::key_table::check_against_loader::<super::super::params::Params>(<super::super::DiceFactor as crate::engine::Game>::INFO.id, super::KEYS);
    }
}
