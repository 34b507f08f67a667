//! Match Patch's variant keys: the table `playtest rules` prints and `docs/games/match-patch.md`
//! shows, tied to the variant loader by the tests below.

use crate::games::key_table::VariantKey;

/// Every key of a Match Patch variant file, in the loader's order.
pub const KEYS: &[VariantKey] = &[
    VariantKey { key: "players", default: "4", allowed: "2 to 8", meaning: "Players at the table." },
    VariantKey { key: "deal", default: "3", allowed: "0 to 24; at most the deck", meaning: "Cards dealt to each player." },
    VariantKey {
        key: "pair_draws",
        default: "2",
        allowed: "0 to 2",
        meaning: "Cards drawn after laying a pair (each from the pile or any patch slot; fewer when both are empty).",
    },
    VariantKey {
        key: "turn_cap",
        default: "1000",
        allowed: "1 to 100000",
        meaning: "Turns after which the game stops with end reason `cap`; pairs decide the winner as usual.",
    },
    VariantKey {
        key: "deck.base_sets",
        default: "2",
        allowed: "an even number from 2 to 20",
        meaning: "Base sets in the deck (25 cards each, one per color and shape), even so that every card has a twin.",
    },
];

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_table_is_the_loaders() {
        crate::games::key_table::check_against_loader::<super::super::params::Params>(<super::super::MatchPatch as crate::engine::Game>::INFO.id, super::KEYS);
    }
}
