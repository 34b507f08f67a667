//! Take a Penny's variant keys: the table `playtest rules` prints and `docs/games/take-a-penny.md`
//! shows, tied to the variant loader by the tests below.

use crate::games::key_table::VariantKey;

/// Every key of a Take a Penny variant file, in the loader's order.
pub const KEYS: &[VariantKey] = &[
    VariantKey { key: "players", default: "4", allowed: "2 to 4", meaning: "Players at the table; with 2 or 3 a dummy bank card joins them." },
    VariantKey {
        key: "total_pennies",
        default: "15, or 14 with 2 players",
        allowed: "1 to 1000; more than the bank cards hold at the start",
        meaning: "Pennies in the game, on the bank cards and in the pot together; the pot starts with what the bank cards do not hold.",
    },
    VariantKey {
        key: "bank_card_start",
        default: "1",
        allowed: "0 to 1000; the pot must keep at least 1 penny",
        meaning: "Pennies on each player's bank card at the start.",
    },
    VariantKey {
        key: "dummy_start",
        default: "4",
        allowed: "0 to 1000; the pot must keep at least 1 penny",
        meaning: "Pennies on the dummy bank card at the start (2 and 3 players; unused with 4).",
    },
    VariantKey { key: "turn_cap", default: "1000", allowed: "1 to 1000000", meaning: "Rounds after which the game stops with end reason `cap`." },
];

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_table_is_the_loaders() {
        crate::games::key_table::check_against_loader::<super::super::params::Params>(<super::super::TakeAPenny as crate::engine::Game>::INFO.id, super::KEYS);
    }
}
