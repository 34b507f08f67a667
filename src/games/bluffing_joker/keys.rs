//! Bluffing Joker's variant keys: the table `playtest rules` prints and `docs/games/bluffing-joker.md`
//! shows, tied to the variant loader by the tests below.

use crate::games::key_table::VariantKey;

/// Every key of a Bluffing Joker variant file, in the loader's order.
pub const KEYS: &[VariantKey] = &[
    VariantKey { key: "players", default: "4", allowed: "4, 6 or 8", meaning: "Players, in two teams seated alternately (seat i in team i mod 2)." },
    VariantKey {
        key: "track_per_side",
        default: "18",
        allowed: "8 to 24; more than `come_out` and `in_spot`",
        meaning: "Holes on each side of the board; the track has `players` x this many.",
    },
    VariantKey {
        key: "come_out",
        default: "8",
        allowed: "0 to `track_per_side` - 1, not `in_spot`",
        meaning: "The come-out hole: index of the hole on the player's own side where a peg comes out.",
    },
    VariantKey {
        key: "in_spot",
        default: "3",
        allowed: "0 to `track_per_side` - 1",
        meaning: "The in-spot, the hole in front of home: index on the player's own side.",
    },
    VariantKey { key: "pegs", default: "5", allowed: "1 to 8; at most `home_size`", meaning: "Pegs per player." },
    VariantKey { key: "home_size", default: "5", allowed: "`pegs` to 12", meaning: "Holes in each home." },
    VariantKey { key: "decks", default: "3, or 4 with 8 players", allowed: "1 to 8", meaning: "Standard 52-card decks in the stock." },
    VariantKey { key: "jokers", default: "2 per deck (6, or 8 with 8 players)", allowed: "0 to 32", meaning: "Jokers in the stock." },
    VariantKey { key: "deal", default: "5", allowed: "1 to `hand_size`", meaning: "Cards dealt to each seat at the start." },
    VariantKey { key: "hand_size", default: "6", allowed: "1 to 12; at least `deal`", meaning: "Each turn starts by drawing up to this many cards." },
    VariantKey {
        key: "seven_split",
        default: "\"exact\"",
        allowed: "`\"exact\"` or `\"up_to\"`",
        meaning: "How a 7 splits over two pegs: `exact` a and 7 - a; `up_to` a + b at most 7.",
    },
    VariantKey {
        key: "extra_turns",
        default: "true",
        allowed: "true or false",
        meaning: "Whether the extra turns the doubt rules grant are taken (false: never).",
    },
    VariantKey { key: "turn_cap", default: "5000", allowed: "1 to 50000", meaning: "Turns after which the game stops with no winner (end reason `cap`)." },
    VariantKey {
        key: "doubt.bluffing",
        default: "true",
        allowed: "true or false",
        meaning: "Whether a declaration may be false (false: every declaration names the card's true value, so every doubt is wrong).",
    },
    VariantKey {
        key: "doubt.right_doubt_stops_move",
        default: "true",
        allowed: "true or false",
        meaning: "Whether a right doubt also costs the liar the declared move (true: the liar does not move; false: it moves, then loses the peg).",
    },
];

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_table_is_the_loaders() {
        crate::games::key_table::check_against_loader::<super::super::params::Params>(
            <super::super::BluffingJoker as crate::engine::Game>::INFO.id,
            super::KEYS,
        );
    }
}
