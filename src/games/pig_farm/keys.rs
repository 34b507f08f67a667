//! Pig Farm's variant keys: the table `playtest rules` prints and `docs/games/pig-farm.md`
//! shows, tied to the variant loader by the tests below.

use crate::games::key_table::VariantKey;

/// Every key of a Pig Farm variant file, in the loader's order.
pub const KEYS: &[VariantKey] = &[
    VariantKey { key: "players", default: "4", allowed: "2 to 8", meaning: "Players at the table." },
    VariantKey {
        key: "hand_size",
        default: "3",
        allowed: "0 to 20; the deck must deal every hand",
        meaning: "Cards dealt to each player at the start of a round.",
    },
    VariantKey {
        key: "min_sets_to_sell",
        default: "3",
        allowed: "1 to 25; the seller table must start at or below it",
        meaning: "Sets a player must hold to sell the farm.",
    },
    VariantKey { key: "rounds", default: "1", allowed: "1 to 100", meaning: "Rounds in one match; the first seat moves one to the left each round." },
    VariantKey {
        key: "turn_cap",
        default: "500",
        allowed: "1 to 100000",
        meaning: "Turns after which a round stops unsold (end reason `cap`); that round scores nothing.",
    },
    VariantKey {
        key: "reshuffle_discard",
        default: "true",
        allowed: "true or false",
        meaning: "Shuffle the discard pile into a new draw pile when the draw pile is empty; false: a draw from an empty pile gives nothing.",
    },
    VariantKey { key: "deck.base_sets", default: "3", allowed: "2 to 10", meaning: "Base sets of pigs (25 each, one per color and shape)." },
    VariantKey { key: "deck.butchers", default: "3", allowed: "0 to 30", meaning: "Butcher cards in the deck." },
    VariantKey {
        key: "scoring.seller.<sets>",
        default: "`3 = 30`, `4 = 50`, `5 = 70`, `6 = 100`, `7 = 150`, `8 = 200`, `9 = 250`",
        allowed: "rows 0 to 25 without gaps, the first at or below `min_sets_to_sell`; points -1000000 to 1000000",
        meaning: "The seller's points by number of sets held.",
    },
    VariantKey {
        key: "scoring.seller_increment",
        default: "50",
        allowed: "-1000000 to 1000000",
        meaning: "The seller's points added per set beyond the seller table's last row.",
    },
    VariantKey {
        key: "scoring.others.<sets>",
        default: "`1 = 5`, `2 = 15`, `3 = 30`, `4 = 0`, `5 = -30`, `6 = -50`, `7 = -100`, `8 = -150`, `9 = -200`",
        allowed: "rows 0 to 25 without gaps, starting at 0 or 1 (0 sets score 0 unless row 0 is given); points -1000000 to 1000000",
        meaning: "Each non-seller's points by number of sets held.",
    },
    VariantKey {
        key: "scoring.others_increment",
        default: "-50",
        allowed: "-1000000 to 1000000",
        meaning: "A non-seller's points added per set beyond the table's last row.",
    },
    VariantKey {
        key: "scoring.set_bonus.<size>",
        default: "`3 = 50`, `4 = 150`, `5 = 250`",
        allowed: "sizes 2 to 10 without gaps; points -1000000 to 1000000",
        meaning: "The seller's bonus per set by its size in pigs: sizes below the first row get nothing, sizes above the last row get the last row's bonus.",
    },
    VariantKey {
        key: "scoring.all_pigs_bonus",
        default: "100",
        allowed: "-1000000 to 1000000",
        meaning: "The seller's bonus when no pig in hand is unmatched.",
    },
];

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_table_is_the_loaders() {
        crate::games::key_table::check_against_loader::<super::super::params::Params>(<super::super::PigFarm as crate::engine::Game>::INFO.id, super::KEYS);
    }
}
