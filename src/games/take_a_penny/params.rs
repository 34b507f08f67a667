//! Take a Penny's variant parameters: the TOML reference of every key, with the defaults of
//! docs/games/take-a-penny.md, and the checks that reject impossible set-ups (more pennies on the bank cards
//! than exist, an empty pot).

use serde::Deserialize;

use crate::variant::Invalid;

/// Bank cards in the box (red, blue, green, yellow): the most bank cards at one table.
pub const MAX_CARDS: usize = 4;
/// Fewest players.
pub const MIN_PLAYERS: u32 = 2;
/// Most players (one per bank card).
pub const MAX_PLAYERS: u32 = 4;
/// Most pennies a variant may use (keeps every count well inside `u32` and the exact
/// solver's tables finite).
pub const MAX_PENNIES: u32 = 1000;
/// Largest turn cap allowed.
pub const MAX_TURN_CAP: u32 = 1_000_000;

/// The colors of the bank cards, in seat order: players sit at the first colors, the dummy
/// (2 and 3 players) at the next one.
pub const COLORS: [&str; MAX_CARDS] = ["red", "blue", "green", "yellow"];

crate::games::key_table::params! {
    /// Take a Penny's parameters as they appear in a variant file. Every key may be left out;
    /// the default is then the docs/games/take-a-penny.md set-up for the number of players.
    #[derive(Clone, Debug, Deserialize, PartialEq, Eq, Hash)]
    #[serde(deny_unknown_fields, default)]
    pub struct Params {
        /// Players at the table; with 2 or 3 a dummy bank card joins them.
        // The dummy never acts but can be taken from, given to, and can win.
        pub players: u32 = 4, range(MIN_PLAYERS, MAX_PLAYERS), unit "players", tail " (one bank card each, 4 in the box)";
        /// Pennies in the game, on the bank cards and in the pot together; the pot starts with
        /// what the bank cards do not hold.
        // Left out: 15, or 14 with 2 players (the 2-player set-up removes one penny); see `total()`.
        pub total_pennies: Option<u32> = None, documented(1, MAX_PENNIES), shown "15, or 14 with 2 players", note "more than the bank cards hold at the start";
        /// Pennies on each player's bank card at the start.
        pub bank_card_start: u32 = 1, range(0, MAX_PENNIES), note "the pot must keep at least 1 penny";
        /// Pennies on the dummy bank card at the start (2 and 3 players; unused with 4).
        pub dummy_start: u32 = 4, range(0, MAX_PENNIES), note "the pot must keep at least 1 penny";
        /// Rounds after which the game stops with end reason `cap`.
        pub turn_cap: u32 = 1000, range(1, MAX_TURN_CAP), tail " rounds";
    }
}

/// The checked set-up: how many bank cards, who starts with what, and the pot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Acting players (seats `0..players`).
    pub players: usize,
    /// Bank cards on the table, the dummy included (`players + 1` with 2 or 3 players).
    pub cards: usize,
    /// Pennies in the game.
    pub total: u32,
    /// Pennies on each bank card at the start (unused entries 0).
    pub start: [u32; MAX_CARDS],
    /// Pennies in the pot at the start.
    pub pot: u32,
    /// Rounds after which the game stops.
    pub turn_cap: u32,
}

impl Setup {
    /// Whether bank card `card` is the dummy.
    #[inline]
    pub fn is_dummy(&self, card: usize) -> bool {
        card >= self.players && card < self.cards
    }
}

impl Params {
    /// The total number of pennies: the key, else 15 (14 with 2 players).
    pub fn total(&self) -> u32 {
        self.total_pennies.unwrap_or(if self.players == 2 { 14 } else { 15 })
    }

    /// Checks the parameters and builds the set-up; every problem is listed with its key.
    pub fn check(&self) -> Result<Setup, Vec<Invalid>> {
        let mut bad = Vec::new();
        self.check_ranges(&mut bad);
        let total = self.total();
        if total > MAX_PENNIES {
            bad.push(Invalid::new("total_pennies", format!("{total} pennies is not allowed; allowed: 1 to {MAX_PENNIES}")));
        }
        if !bad.is_empty() {
            return Err(bad);
        }
        let players = self.players as usize;
        let cards = if players < MAX_CARDS { players + 1 } else { players };
        let mut start = [0u32; MAX_CARDS];
        for (card, s) in start.iter_mut().enumerate().take(cards) {
            *s = if card < players { self.bank_card_start } else { self.dummy_start };
        }
        let on_cards: u32 = start.iter().sum();
        let dummy_text = if cards > players { format!(" + dummy_start {}", self.dummy_start) } else { String::new() };
        if on_cards >= total {
            let what = if on_cards > total { "more pennies on the bank cards than exist" } else { "nothing left for the pot" };
            bad.push(Invalid::new(
                "total_pennies",
                format!(
                    "{what}: {players} players x bank_card_start {}{dummy_text} = {on_cards} pennies on the bank cards, total_pennies = {total}; \
                     allowed: total_pennies at least {} (the pot must start with at least 1 penny)",
                    self.bank_card_start,
                    on_cards + 1
                ),
            ));
            return Err(bad);
        }
        Ok(Setup { players, cards, total, start, pot: total - on_cards, turn_cap: self.turn_cap })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_table_is_the_loaders() {
        crate::games::key_table::check_against_loader::<super::Params>(<super::super::TakeAPenny as crate::engine::Game>::INFO.id, super::Params::KEYS);
    }
}
