//! Beaver Mania's variant parameters: the TOML reference of every key with its docs/games/beaver-mania.md
//! default and allowed range, and the checks that reject impossible set-ups (a deck too small
//! to deal the hands, the display and the stock; counts so large a game could take long).

use serde::Deserialize;

use super::cards::{ACTIONS, KINDS, MAX_NUMBERS};
use crate::variant::Invalid;

/// Most players at one table.
pub const MAX_PLAYERS: usize = 5;
/// Most copies of one number card.
pub const MAX_COPIES: u32 = 12;
/// Most jokers.
pub const MAX_JOKERS: u32 = 12;
/// Most copies of one action card.
pub const MAX_ACTION_COPIES: u32 = 8;
/// Largest starting hand.
pub const MAX_HAND_SIZE: u32 = 30;
/// Largest display.
pub const MAX_DISPLAY: u32 = 20;
/// Largest stock.
pub const MAX_STOCK: u32 = 20;
/// Largest turn cap per round.
pub const MAX_TURN_CAP: u32 = 10_000;
/// Most rounds in one match.
pub const MAX_ROUNDS: u32 = 1_000;
/// Largest match target.
pub const MAX_TARGET: u32 = 100_000;

crate::games::key_table::params! {
    /// Beaver Mania's parameters as they appear in a variant file; every key is optional and
    /// defaults to docs/games/beaver-mania.md.
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    pub struct Params {
        /// Players at the table.
        pub players: u32 = 4, range(2, MAX_PLAYERS), unit "players";
        /// Cards dealt to each player with 2 to 4 players.
        pub hand_size: u32 = 13, range(1, MAX_HAND_SIZE), note "the deck must deal the hands, the display and the stock", unit "cards per hand";
        /// Cards dealt to each player with 5 players.
        pub hand_size_five_players: u32 = 10, range(1, MAX_HAND_SIZE), note "the deck must deal the hands, the display and the stock", unit "cards per hand";
        /// Face-up cards of the display, refilled to this many after every turn.
        pub display_size: u32 = 9, range(0, MAX_DISPLAY), note "the deck must deal the hands, the display and the stock", unit "display cards";
        /// Face-up cards of the stock, refilled to this many.
        pub stock_size: u32 = 5, range(1, MAX_STOCK), note "the deck must deal the hands, the display and the stock", unit "stock cards";
        /// 0: one round. Else "collecting points": rounds are played until a player's total
        /// (only each round's winners add their round score) reaches it.
        pub match_target: u32 = 0, range(0, MAX_TARGET), unit "points";
        /// Rounds after which a match stops (end reason `cap`; the highest total wins).
        pub max_rounds: u32 = 200, range(1, MAX_ROUNDS), unit "rounds";
        /// Turns after which a round stops (end reason `cap`); the round is scored as usual.
        // A round ends by the rules well before: see docs/games/beaver-mania.md.
        pub turn_cap: u32 = 1000, range(1, MAX_TURN_CAP), unit "turns per round";
        /// Deck composition.
        pub deck: DeckParams = DeckParams::default(), nested;
    }
}

crate::games::key_table::params! {
    prefix "deck.";
    /// The deck: number cards 1..`numbers`, jokers and the eight action cards.
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    pub struct DeckParams {
        /// The highest number: number cards run 1 to this.
        pub numbers: u32 = 12, range(3, MAX_NUMBERS), note "the deck must deal the hands, the display and the stock", unit "as the highest number";
        /// Copies of each number card.
        pub copies: u32 = 8, range(1, MAX_COPIES), note "the deck must deal the hands, the display and the stock", unit "copies per number";
        /// Jokers.
        pub jokers: u32 = 4, range(0, MAX_JOKERS), unit "jokers";
        /// Superbeaver cards (steal 2 cards).
        pub superbeaver: u32 = 2, range(0, MAX_ACTION_COPIES), unit "copies";
        /// Thief cards (steal 1 card).
        pub thief: u32 = 2, range(0, MAX_ACTION_COPIES), unit "copies";
        /// Fairy cards (wish a card from another hand).
        pub fairy: u32 = 2, range(0, MAX_ACTION_COPIES), unit "copies";
        /// Partybeaver cards (played with 3 unrelated numbers; cannot be stabbed).
        pub partybeaver: u32 = 2, range(0, MAX_ACTION_COPIES), unit "copies";
        /// Hippie cards (stands for one number of a run of 3 to 7).
        pub hippie: u32 = 2, range(0, MAX_ACTION_COPIES), unit "copies";
        /// Bad guy cards (another player takes 2 cards).
        pub bad_guy: u32 = 2, range(0, MAX_ACTION_COPIES), unit "copies";
        /// Bodyguard cards (the play cannot be stabbed).
        pub bodyguard: u32 = 2, range(0, MAX_ACTION_COPIES), unit "copies";
        /// King cards (the others add a card of the play's number).
        pub king: u32 = 2, range(0, MAX_ACTION_COPIES), unit "copies";
    }
}

impl DeckParams {
    /// Copies of each action card, in canonical order (superbeaver ... king).
    pub fn action_counts(&self) -> [u32; 8] {
        [self.superbeaver, self.thief, self.fairy, self.partybeaver, self.hippie, self.bad_guy, self.bodyguard, self.king]
    }

    /// Copies of every card kind, indexed by card.
    pub fn copies_by_kind(&self) -> [u32; KINDS] {
        let mut n = [0u32; KINDS];
        for c in n.iter_mut().take(self.numbers.min(MAX_NUMBERS as u32) as usize) {
            *c = self.copies;
        }
        n[super::cards::JOKER as usize] = self.jokers;
        for (a, &k) in ACTIONS.iter().zip(&self.action_counts()) {
            n[*a as usize] = k;
        }
        n
    }

    /// Cards in the deck.
    pub fn size(&self) -> u64 {
        self.copies_by_kind().iter().map(|&c| c as u64).sum()
    }
}

impl Params {
    /// Cards dealt to each player at this table.
    pub fn dealt(&self) -> u32 {
        if self.players == 5 { self.hand_size_five_players } else { self.hand_size }
    }

    /// Whether rounds form a match ("collecting points").
    pub fn is_match(&self) -> bool {
        self.match_target > 0
    }

    /// Checks every parameter; every problem is listed with its key and what is allowed.
    pub fn check(&self) -> Result<(), Vec<Invalid>> {
        let mut bad = Vec::new();
        self.check_ranges(&mut bad);
        let d = &self.deck;
        if bad.is_empty() {
            let need = self.players as u64 * self.dealt() as u64 + self.display_size as u64 + self.stock_size as u64;
            if d.size() < need {
                bad.push(Invalid::new(
                    "deck",
                    format!(
                        "the deck has {} cards but {} players x {} cards + a display of {} + a stock of {} need {need}; add cards or deal fewer",
                        d.size(),
                        self.players,
                        self.dealt(),
                        self.display_size,
                        self.stock_size
                    ),
                ));
            }
        }
        if bad.is_empty() { Ok(()) } else { Err(bad) }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_table_is_the_loaders() {
        crate::games::key_table::check_against_loader::<super::Params>(<super::super::BeaverMania as crate::engine::Game>::INFO.id, super::Params::KEYS);
    }
}
