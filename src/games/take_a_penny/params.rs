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

fn default_players() -> u32 {
    4
}
fn default_bank_card_start() -> u32 {
    1
}
fn default_dummy_start() -> u32 {
    4
}
fn default_turn_cap() -> u32 {
    1000
}

/// Take a Penny's parameters as they appear in a variant file. Every key may be left out;
/// the default is then the docs/games/take-a-penny.md set-up for the number of players.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq, Hash)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// Players at the table, 2 to 4. Default 4. With 2 or 3 players one more bank card (the
    /// dummy) is on the table: it never acts but can be taken from, given to, and can win.
    #[serde(default = "default_players")]
    pub players: u32,
    /// Pennies in the game, on the bank cards and in the pot together, up to 1000. Default 15
    /// (14 with 2 players: the 2-player set-up removes one penny). The pot starts with what
    /// the bank cards do not hold and must not start empty.
    #[serde(default)]
    pub total_pennies: Option<u32>,
    /// Pennies on each player's bank card at the start. Default 1.
    #[serde(default = "default_bank_card_start")]
    pub bank_card_start: u32,
    /// Pennies on the dummy bank card at the start (2 and 3 players; ignored with 4).
    /// Default 4.
    #[serde(default = "default_dummy_start")]
    pub dummy_start: u32,
    /// Rounds after which the game stops with end reason `cap`, 1 to 1,000,000. Default 1000.
    #[serde(default = "default_turn_cap")]
    pub turn_cap: u32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            players: default_players(),
            total_pennies: None,
            bank_card_start: default_bank_card_start(),
            dummy_start: default_dummy_start(),
            turn_cap: default_turn_cap(),
        }
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
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&self.players) {
            bad.push(Invalid::new(
                "players",
                format!("{} players is not allowed; allowed: {MIN_PLAYERS} to {MAX_PLAYERS} (one bank card each, 4 in the box)", self.players),
            ));
        }
        let total = self.total();
        if total > MAX_PENNIES {
            bad.push(Invalid::new("total_pennies", format!("{total} pennies is not allowed; allowed: 1 to {MAX_PENNIES}")));
        }
        if self.bank_card_start > MAX_PENNIES {
            bad.push(Invalid::new("bank_card_start", format!("{} is not allowed; allowed: 0 to {MAX_PENNIES}", self.bank_card_start)));
        }
        if self.dummy_start > MAX_PENNIES {
            bad.push(Invalid::new("dummy_start", format!("{} is not allowed; allowed: 0 to {MAX_PENNIES}", self.dummy_start)));
        }
        if !(1..=MAX_TURN_CAP).contains(&self.turn_cap) {
            bad.push(Invalid::new("turn_cap", format!("{} is not allowed; allowed: 1 to {MAX_TURN_CAP} rounds", self.turn_cap)));
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
