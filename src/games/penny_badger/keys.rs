//! Penny Badger's variant keys: the table `playtest rules` prints and `docs/games/penny-badger.md`
//! shows, tied to the variant loader by the tests below.

use crate::games::key_table::VariantKey;

/// Every key of a Penny Badger variant file, in the loader's order.
pub const KEYS: &[VariantKey] = &[
    VariantKey { key: "players", default: "required (standard: 4)", allowed: "2 to 8", meaning: "Players at the table." },
    VariantKey { key: "hand_size", default: "required (standard: 5)", allowed: "1 to 10", meaning: "Cards a hand is refilled to at the end of a turn." },
    VariantKey { key: "bank", default: "required (standard: 100)", allowed: "0 to 1000000000", meaning: "Pennies in the bank at the start." },
    VariantKey { key: "starting_savings", default: "required (standard: 20)", allowed: "1 to 100000000", meaning: "Pennies each player starts with." },
    VariantKey {
        key: "turn_cap",
        default: "required (standard: 1000)",
        allowed: "1 to 100000",
        meaning: "Turns after which the game stops with end reason `cap`.",
    },
    VariantKey {
        key: "reshuffle_discard",
        default: "required (standard: true)",
        allowed: "true or false",
        meaning: "Shuffle the discard pile into a new draw pile when the draw pile is empty.",
    },
    VariantKey {
        key: "payout.<row>.withdrawal",
        default: "required in every row (standard: wild 3, then 4, 8, 16, 32, 64, 128, `\"bank\"` for rows 2 to 8)",
        allowed: "pennies, or `\"bank\"` for the whole bank",
        meaning: "Pennies taken from the bank when the claim of that row stands. Rows: `wild`, then claim sizes `2`, `3`, ... up to 10 without gaps; the last row is the largest claim.",
    },
    VariantKey {
        key: "payout.<row>.penalty",
        default: "required in rows 2 and up (standard: 2, 4, 8, 16, 32, 64, `\"savings\"`)",
        allowed: "pennies, or `\"savings\"` for all the payer's savings; not in the wild row",
        meaning: "Rows 2 and up: what a caught bluffer pays the bank and each accuser, and what each wrong accuser pays the bank and the claimer.",
    },
    VariantKey {
        key: "payout.<row>.accuser_penalty",
        default: "1 (wild row only)",
        allowed: "pennies, or `\"savings\"`",
        meaning: "Wild row: what each wrong accuser pays the bank and the claimer.",
    },
    VariantKey {
        key: "payout.<row>.bluffer_penalty",
        default: "2 (wild row only)",
        allowed: "pennies, or `\"savings\"`",
        meaning: "Wild row: what a caught bluffer pays the bank and each accuser.",
    },
    VariantKey {
        key: "deck.base_sets",
        default: "required (standard: 2)",
        allowed: "0 to 20; the deck must deal every hand",
        meaning: "Base sets (25 cards each, one per color and shape).",
    },
    VariantKey {
        key: "deck.colors_sets",
        default: "required (standard: 2)",
        allowed: "0 to 20",
        meaning: "Colors sets (5 color wilds and 1 all-colors wild each).",
    },
    VariantKey {
        key: "deck.shapes_sets",
        default: "required (standard: 2)",
        allowed: "0 to 20",
        meaning: "Shapes sets (5 shape wilds and 1 all-shapes wild each).",
    },
    VariantKey {
        key: "deck.action_sets",
        default: "required (standard: 2)",
        allowed: "0 to 20",
        meaning: "Action sets (one of each of the 8 action cards: skip, reverse, trade one card, trade hands, add a card, add two cards, remove a card, remove two cards).",
    },
    VariantKey {
        key: "deck.counts.base",
        default: "none (the sets decide)",
        allowed: "0 to 20",
        meaning: "Copies of each base card (one per color and shape), replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.color_wild",
        default: "none (the sets decide)",
        allowed: "0 to 20",
        meaning: "Copies of each color wild, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.shape_wild",
        default: "none (the sets decide)",
        allowed: "0 to 20",
        meaning: "Copies of each shape wild, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.all_colors",
        default: "none (the sets decide)",
        allowed: "0 to 20",
        meaning: "Copies of the all-colors wild, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.all_shapes",
        default: "none (the sets decide)",
        allowed: "0 to 20",
        meaning: "Copies of the all-shapes wild, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.skip",
        default: "none (the sets decide)",
        allowed: "0 to 20",
        meaning: "Copies of the skip card, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.reverse",
        default: "none (the sets decide)",
        allowed: "0 to 20",
        meaning: "Copies of the reverse card, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.trade_one_card",
        default: "none (the sets decide)",
        allowed: "0 to 20",
        meaning: "Copies of the trade-one-card card, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.trade_hands",
        default: "none (the sets decide)",
        allowed: "0 to 20",
        meaning: "Copies of the trade-hands card, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.add_a_card",
        default: "none (the sets decide)",
        allowed: "0 to 20",
        meaning: "Copies of the add-a-card card, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.add_two_cards",
        default: "none (the sets decide)",
        allowed: "0 to 20",
        meaning: "Copies of the add-two-cards card, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.remove_a_card",
        default: "none (the sets decide)",
        allowed: "0 to 20",
        meaning: "Copies of the remove-a-card card, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.remove_two_cards",
        default: "none (the sets decide)",
        allowed: "0 to 20",
        meaning: "Copies of the remove-two-cards card, replacing what the sets give.",
    },
    VariantKey {
        key: "deck.counts.dice",
        default: "none (the sets decide)",
        allowed: "0 to 20",
        meaning: "Copies of the dice card, replacing what the sets give (not one of Penny Badger's action cards).",
    },
];

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_table_is_the_loaders() {
        crate::games::key_table::check_against_loader::<super::super::params::Params>(<super::super::PennyBadger as crate::engine::Game>::INFO.id, super::KEYS);
    }
}
