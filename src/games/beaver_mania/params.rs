//! Beaver Mania's variant parameters: the TOML reference of every key with its docs/games/beaver-mania.md
//! default and allowed range, and the checks that reject impossible set-ups (a deck too small
//! to deal the hands, the display and the stock; counts so large a game could take long).

use serde::Deserialize;

use super::cards::{ACTION_KEYS, ACTIONS, KINDS, MAX_NUMBERS};
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

/// Beaver Mania's parameters as they appear in a variant file; every key is optional and
/// defaults to docs/games/beaver-mania.md.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// Players at the table, 2 to 5. Default 4.
    pub players: u32,
    /// Cards dealt to each player with 2 to 4 players, 1 to 30. Default 13.
    pub hand_size: u32,
    /// Cards dealt to each player with 5 players, 1 to 30. Default 10.
    pub hand_size_five_players: u32,
    /// Face-up cards of the display, refilled to this many after every turn, 0 to 20.
    /// Default 9.
    pub display_size: u32,
    /// Face-up cards of the stock, refilled to this many, 1 to 20. Default 5.
    pub stock_size: u32,
    /// "Collecting points": play rounds until a player's total (only each round's winners
    /// add their round score) reaches this, 0 to 100000; 0 = one round. Default 0.
    pub match_target: u32,
    /// Rounds after which a match stops (end reason `cap`, the highest total wins), 1 to
    /// 1000. Default 200.
    pub max_rounds: u32,
    /// Turns after which a round stops (end reason `cap`; it is scored as usual), 1 to
    /// 10000. Default 1000 (a round ends by the rules well before: see docs/games/beaver-mania.md).
    pub turn_cap: u32,
    /// Deck composition.
    pub deck: DeckParams,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            players: 4,
            hand_size: 13,
            hand_size_five_players: 10,
            display_size: 9,
            stock_size: 5,
            match_target: 0,
            max_rounds: 200,
            turn_cap: 1000,
            deck: DeckParams::default(),
        }
    }
}

/// The deck: number cards 1..`numbers`, jokers and the eight action cards.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct DeckParams {
    /// The highest number (number cards run 1..numbers), 3 to 20. Default 12.
    pub numbers: u32,
    /// Copies of each number card, 1 to 12. Default 8.
    pub copies: u32,
    /// Jokers, 0 to 12. Default 4.
    pub jokers: u32,
    /// Superbeaver cards (steal 2), 0 to 8. Default 2.
    pub superbeaver: u32,
    /// Thief cards (steal 1), 0 to 8. Default 2.
    pub thief: u32,
    /// Fairy cards (wish a card from another hand), 0 to 8. Default 2.
    pub fairy: u32,
    /// Partybeaver cards (with 3 unrelated numbers; cannot be stabbed), 0 to 8. Default 2.
    pub partybeaver: u32,
    /// Hippie cards (stands for one number of a run of 3 to 7), 0 to 8. Default 2.
    pub hippie: u32,
    /// Bad guy cards (another player takes 2 cards), 0 to 8. Default 2.
    pub bad_guy: u32,
    /// Bodyguard cards (the play cannot be stabbed), 0 to 8. Default 2.
    pub bodyguard: u32,
    /// King cards (the others add a card of the play's number), 0 to 8. Default 2.
    pub king: u32,
}

impl Default for DeckParams {
    fn default() -> Self {
        DeckParams { numbers: 12, copies: 8, jokers: 4, superbeaver: 2, thief: 2, fairy: 2, partybeaver: 2, hippie: 2, bad_guy: 2, bodyguard: 2, king: 2 }
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
        let range = |bad: &mut Vec<Invalid>, key: &str, what: &str, v: u32, lo: u32, hi: u32| {
            if !(lo..=hi).contains(&v) {
                bad.push(Invalid::new(key, format!("{v} {what} is not allowed; allowed: {lo} to {hi}")));
            }
        };
        range(&mut bad, "players", "players", self.players, 2, MAX_PLAYERS as u32);
        range(&mut bad, "hand_size", "cards per hand", self.hand_size, 1, MAX_HAND_SIZE);
        range(&mut bad, "hand_size_five_players", "cards per hand", self.hand_size_five_players, 1, MAX_HAND_SIZE);
        range(&mut bad, "display_size", "display cards", self.display_size, 0, MAX_DISPLAY);
        range(&mut bad, "stock_size", "stock cards", self.stock_size, 1, MAX_STOCK);
        range(&mut bad, "match_target", "points", self.match_target, 0, MAX_TARGET);
        range(&mut bad, "max_rounds", "rounds", self.max_rounds, 1, MAX_ROUNDS);
        range(&mut bad, "turn_cap", "turns per round", self.turn_cap, 1, MAX_TURN_CAP);
        let d = &self.deck;
        range(&mut bad, "deck.numbers", "as the highest number", d.numbers, 3, MAX_NUMBERS as u32);
        range(&mut bad, "deck.copies", "copies per number", d.copies, 1, MAX_COPIES);
        range(&mut bad, "deck.jokers", "jokers", d.jokers, 0, MAX_JOKERS);
        for (key, &count) in ACTION_KEYS.iter().zip(&d.action_counts()) {
            range(&mut bad, &format!("deck.{key}"), "copies", count, 0, MAX_ACTION_COPIES);
        }
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
