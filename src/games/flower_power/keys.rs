//! Flower Power's variant keys: the table `playtest rules` prints and `docs/games/flower-power.md`
//! shows, tied to the variant loader by the tests below.

use crate::games::key_table::VariantKey;

/// Every key of a Flower Power variant file, in the loader's order.
pub const KEYS: &[VariantKey] = &[
    VariantKey { key: "players", default: "4", allowed: "2 to 8", meaning: "Players at the table." },
    VariantKey { key: "hand_size", default: "5", allowed: "1 to 16", meaning: "Cards a player draws up to at the start of its turn." },
    VariantKey {
        key: "max_play",
        default: "5",
        allowed: "1 to 16",
        meaning: "Most cards played in one turn (at least 1 is always played); above `hand_size` it plays like `hand_size`.",
    },
    VariantKey {
        key: "petals",
        default: "5",
        allowed: "1 to 10; at most 5 x the copies of each base card",
        meaning: "Cards of one color that complete a flower (1 point).",
    },
    VariantKey {
        key: "turn_cap",
        default: "1000",
        allowed: "1 to 100000",
        meaning: "Turns after which the game stops with end reason `cap` (most flowers still win).",
    },
    VariantKey { key: "deck.base_sets", default: "2", allowed: "1 to 40", meaning: "Base sets in the deck (25 cards each, one per color and shape)." },
    VariantKey { key: "deck.colors_sets", default: "0", allowed: "0 only", meaning: "Flower Power has no wilds: must be 0." },
    VariantKey { key: "deck.shapes_sets", default: "0", allowed: "0 only", meaning: "Flower Power has no wilds: must be 0." },
    VariantKey { key: "deck.action_sets", default: "0", allowed: "0 only", meaning: "Flower Power has no action cards: must be 0." },
    VariantKey { key: "deck.counts.base", default: "none (the sets decide)", allowed: "1 to 40", meaning: "Copies of each base card, replacing `base_sets`." },
    VariantKey {
        key: "deck.counts.color_wild",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Flower Power has no wilds or action cards: must be 0.",
    },
    VariantKey {
        key: "deck.counts.shape_wild",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Flower Power has no wilds or action cards: must be 0.",
    },
    VariantKey {
        key: "deck.counts.all_colors",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Flower Power has no wilds or action cards: must be 0.",
    },
    VariantKey {
        key: "deck.counts.all_shapes",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Flower Power has no wilds or action cards: must be 0.",
    },
    VariantKey {
        key: "deck.counts.skip",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Flower Power has no wilds or action cards: must be 0.",
    },
    VariantKey {
        key: "deck.counts.reverse",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Flower Power has no wilds or action cards: must be 0.",
    },
    VariantKey {
        key: "deck.counts.trade_one_card",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Flower Power has no wilds or action cards: must be 0.",
    },
    VariantKey {
        key: "deck.counts.trade_hands",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Flower Power has no wilds or action cards: must be 0.",
    },
    VariantKey {
        key: "deck.counts.add_a_card",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Flower Power has no wilds or action cards: must be 0.",
    },
    VariantKey {
        key: "deck.counts.add_two_cards",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Flower Power has no wilds or action cards: must be 0.",
    },
    VariantKey {
        key: "deck.counts.remove_a_card",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Flower Power has no wilds or action cards: must be 0.",
    },
    VariantKey {
        key: "deck.counts.remove_two_cards",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Flower Power has no wilds or action cards: must be 0.",
    },
    VariantKey {
        key: "deck.counts.dice",
        default: "none (the sets decide)",
        allowed: "0 only",
        meaning: "Flower Power has no wilds or action cards: must be 0.",
    },
];

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_table_is_the_loaders() {
        crate::games::key_table::check_against_loader::<super::super::params::Params>(<super::super::FlowerPower as crate::engine::Game>::INFO.id, super::KEYS);
    }
}
