//! Match Patch's variant parameters: the TOML reference of every key with its docs/games/match-patch.md
//! default and allowed range, and the checks that reject impossible set-ups with a message
//! naming the key and what is allowed.

use serde::Deserialize;

use crate::variant::Invalid;

/// Most players at one table.
pub const MAX_PLAYERS: usize = 8;
/// Kinds of base card (5 colors x 5 shapes).
pub const KINDS: usize = 25;
/// Most base sets in the deck (500 cards): bounds the pile, the patch and one game's time.
pub const MAX_BASE_SETS: u32 = 20;
/// Largest deal. A hand never holds more than `deal + 1` cards, and a hand without a pair
/// holds at most one card of each of the 25 kinds, so 24 is the largest deal that can work.
pub const MAX_DEAL: u32 = 24;
/// Capacity of a hand: `MAX_DEAL + 1`.
pub const HAND_CAP: usize = MAX_DEAL as usize + 1;
/// Most cards drawn after laying a pair. More would let a hand grow past `deal + 1` cards.
pub const MAX_PAIR_DRAWS: u32 = 2;
/// Largest turn cap.
pub const MAX_TURN_CAP: u32 = 100_000;

crate::games::key_table::params! {
    /// Match Patch's parameters as they appear in a variant file; every key is optional and
    /// defaults to docs/games/match-patch.md.
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    pub struct Params {
        /// Players at the table.
        pub players: u32 = 4, range(2, MAX_PLAYERS), unit "players";
        /// Cards dealt to each player.
        pub deal: u32 = 3, range(0, MAX_DEAL), note "at most the deck", unit "cards dealt";
        /// Cards drawn after laying a pair (each from the pile or any patch slot; fewer when
        /// both are empty).
        pub pair_draws: u32 = 2, range(0, MAX_PAIR_DRAWS), unit "cards drawn after a pair";
        /// Turns after which the game stops with end reason `cap`; pairs decide the winner as
        /// usual.
        pub turn_cap: u32 = 1000, range(1, MAX_TURN_CAP), unit "turns";
        /// Deck composition.
        pub deck: DeckParams = DeckParams::default(), nested;
    }
}

crate::games::key_table::params! {
    prefix "deck.";
    /// The deck: whole base sets only (Match Patch uses no wilds and no action cards).
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    pub struct DeckParams {
        /// Base sets in the deck (25 cards each, one per color and shape), even so that every
        /// card has a twin.
        pub base_sets: u32 = 2, allowed("an even number from 2 to 20");
    }
}

impl Params {
    /// Cards in the deck.
    pub fn deck_size(&self) -> u64 {
        self.deck.base_sets as u64 * KINDS as u64
    }

    /// Checks every parameter; every problem is listed.
    pub fn check(&self) -> Result<(), Vec<Invalid>> {
        let mut bad = Vec::new();
        self.check_ranges(&mut bad);
        let sets = self.deck.base_sets;
        if !(2..=MAX_BASE_SETS).contains(&sets) || !sets.is_multiple_of(2) {
            bad.push(Invalid::new(
                "deck.base_sets",
                format!("{sets} base sets is not allowed; allowed: an even number from 2 to {MAX_BASE_SETS} (every card needs a partner to pair with)"),
            ));
        }
        let need = self.players as u64 * self.deal as u64;
        if bad.is_empty() && need > self.deck_size() {
            bad.push(Invalid::new(
                "deal",
                format!(
                    "{} players x {} cards need {need} cards but the deck has {}; deal fewer cards or add base sets",
                    self.players,
                    self.deal,
                    self.deck_size()
                ),
            ));
        }
        if bad.is_empty() { Ok(()) } else { Err(bad) }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_table_is_the_loaders() {
        crate::games::key_table::check_against_loader::<super::Params>(<super::super::MatchPatch as crate::engine::Game>::INFO.id, super::Params::KEYS);
    }
}
