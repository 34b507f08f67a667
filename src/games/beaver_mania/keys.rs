//! Beaver Mania's variant keys: the table `playtest rules` prints and `docs/games/beaver-mania.md`
//! shows, tied to the variant loader by the tests below.

use crate::games::key_table::VariantKey;

/// Every key of a Beaver Mania variant file, in the loader's order.
pub const KEYS: &[VariantKey] = &[
    VariantKey { key: "players", default: "4", allowed: "2 to 5", meaning: "Players at the table." },
    VariantKey {
        key: "hand_size",
        default: "13",
        allowed: "1 to 30; the deck must deal the hands, the display and the stock",
        meaning: "Cards dealt to each player with 2 to 4 players.",
    },
    VariantKey {
        key: "hand_size_five_players",
        default: "10",
        allowed: "1 to 30; the deck must deal the hands, the display and the stock",
        meaning: "Cards dealt to each player with 5 players.",
    },
    VariantKey {
        key: "display_size",
        default: "9",
        allowed: "0 to 20; the deck must deal the hands, the display and the stock",
        meaning: "Face-up cards of the display, refilled to this many after every turn.",
    },
    VariantKey {
        key: "stock_size",
        default: "5",
        allowed: "1 to 20; the deck must deal the hands, the display and the stock",
        meaning: "Face-up cards of the stock, refilled to this many.",
    },
    VariantKey {
        key: "match_target",
        default: "0",
        allowed: "0 to 100000",
        meaning: "0: one round. Else \"collecting points\": rounds are played until a player's total (only each round's winners add their round score) reaches it.",
    },
    VariantKey {
        key: "max_rounds",
        default: "200",
        allowed: "1 to 1000",
        meaning: "Rounds after which a match stops (end reason `cap`; the highest total wins).",
    },
    VariantKey {
        key: "turn_cap",
        default: "1000",
        allowed: "1 to 10000",
        meaning: "Turns after which a round stops (end reason `cap`); the round is scored as usual.",
    },
    VariantKey {
        key: "deck.numbers",
        default: "12",
        allowed: "3 to 20; the deck must deal the hands, the display and the stock",
        meaning: "The highest number: number cards run 1 to this.",
    },
    VariantKey {
        key: "deck.copies",
        default: "8",
        allowed: "1 to 12; the deck must deal the hands, the display and the stock",
        meaning: "Copies of each number card.",
    },
    VariantKey { key: "deck.jokers", default: "4", allowed: "0 to 12", meaning: "Jokers." },
    VariantKey { key: "deck.superbeaver", default: "2", allowed: "0 to 8", meaning: "Superbeaver cards (steal 2 cards)." },
    VariantKey { key: "deck.thief", default: "2", allowed: "0 to 8", meaning: "Thief cards (steal 1 card)." },
    VariantKey { key: "deck.fairy", default: "2", allowed: "0 to 8", meaning: "Fairy cards (wish a card from another hand)." },
    VariantKey { key: "deck.partybeaver", default: "2", allowed: "0 to 8", meaning: "Partybeaver cards (played with 3 unrelated numbers; cannot be stabbed)." },
    VariantKey { key: "deck.hippie", default: "2", allowed: "0 to 8", meaning: "Hippie cards (stands for one number of a run of 3 to 7)." },
    VariantKey { key: "deck.bad_guy", default: "2", allowed: "0 to 8", meaning: "Bad guy cards (another player takes 2 cards)." },
    VariantKey { key: "deck.bodyguard", default: "2", allowed: "0 to 8", meaning: "Bodyguard cards (the play cannot be stabbed)." },
    VariantKey { key: "deck.king", default: "2", allowed: "0 to 8", meaning: "King cards (the others add a card of the play's number)." },
];

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_table_is_the_loaders() {
        crate::games::key_table::check_against_loader::<super::super::params::Params>(<super::super::BeaverMania as crate::engine::Game>::INFO.id, super::KEYS);
    }
}
