//! Dice Factor's variant parameters: the TOML reference of every key with its docs/games/dice-factor.md
//! default and allowed range, and the checks that reject impossible set-ups (a deck too
//! small to deal, an action card Dice Factor does not have, an empty d8).

use serde::Deserialize;

use crate::games::chroma::{ActionCard, CARD_KINDS, Card};
use crate::variant::Invalid;

/// Most players at one table.
pub const MAX_PLAYERS: usize = 8;
/// Largest starting hand.
pub const MAX_HAND_SIZE: u32 = 10;
/// Largest goal (cards toward one target that win).
pub const MAX_GOAL: u32 = 20;
/// Largest turn cap.
pub const MAX_TURN_CAP: u32 = 100_000;
/// Most sets of one kind (base, colors, shapes, action) in a deck.
pub const MAX_SETS: u32 = 10;
/// Most copies of one card a `[deck.counts]` override may give.
pub const MAX_COPIES: u32 = 10;
/// Most faces of the d8 outcome table.
pub const MAX_D8_FACES: usize = 20;

/// Dice Factor's six action cards (one "action set"), in canonical order.
pub const DICE_FACTOR_ACTIONS: [ActionCard; 6] =
    [ActionCard::Skip, ActionCard::Reverse, ActionCard::TradeOneCard, ActionCard::TradeHands, ActionCard::AddACard, ActionCard::Dice];

/// What one face of the d8 does.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum D8Face {
    /// The turn ends with nothing done (faces 1-5).
    Nothing,
    /// The roller may swap one of its cards for a random card of another player's hand (6).
    Swap,
    /// The roller may trade hands with another player (7).
    Trade,
    /// The roller may reroll one of the two dice (8).
    Reroll,
}

impl D8Face {
    /// Index in reports: nothing, swap, trade, reroll.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Name as written in variants.
    pub fn name(self) -> &'static str {
        ["nothing", "swap", "trade", "reroll"][self as usize]
    }
}

/// The default d8: faces 1-5 nothing, 6 swap, 7 trade, 8 reroll.
pub const DEFAULT_D8: [D8Face; 8] =
    [D8Face::Nothing, D8Face::Nothing, D8Face::Nothing, D8Face::Nothing, D8Face::Nothing, D8Face::Swap, D8Face::Trade, D8Face::Reroll];

crate::games::key_table::params! {
    /// Dice Factor's parameters as they appear in a variant file; every key is optional and
    /// defaults to docs/games/dice-factor.md.
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    pub struct Params {
        /// Players at the table.
        pub players: u32 = 4, range(2, MAX_PLAYERS), unit "players";
        /// Cards dealt to each player.
        pub hand_size: u32 = 5, range(1, MAX_HAND_SIZE), unit "cards per hand";
        /// Cards counting toward one current target that win; above `hand_size` only hands
        /// that add-a-card made larger can reach it.
        // Without add-a-card cards such a goal ends every game at the cap.
        pub goal: u32 = 5, range(1, MAX_GOAL), unit "cards to win";
        /// Turns after which the game stops with no winner (end reason `cap`).
        pub turn_cap: u32 = 1000, range(1, MAX_TURN_CAP), unit "turns";
        /// Shuffle the whole discard pile into a new draw pile when a card must be drawn from
        /// an empty draw pile; false: that draw gives nothing.
        pub reshuffle_discard: bool = true, allowed("true or false");
        /// What each face of the d8 does, in face order.
        pub d8: Vec<D8Face> = DEFAULT_D8.to_vec(), allowed("1 to 20 faces, each `\"nothing\"`, `\"swap\"`, `\"trade\"` or `\"reroll\"`"),
            shown "[\"nothing\", \"nothing\", \"nothing\", \"nothing\", \"nothing\", \"swap\", \"trade\", \"reroll\"]";
        /// Deck composition (93 cards by default).
        pub deck: DeckParams = DeckParams::default(), nested;
    }
}

crate::games::key_table::params! {
    prefix "deck.";
    /// The `[deck]` table, read as the shared Chroma [`DeckSpec`](crate::games::chroma::DeckSpec):
    /// a `[deck]` table, when given, lists all four set counts.
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    pub struct DeckParams {
        /// Base sets (25 cards each, one per color and shape).
        pub base_sets: u32 = 3, range(0, MAX_SETS), note "the deck must deal every hand", unit "sets";
        /// Colors sets (5 color wilds and 1 all-colors wild each).
        pub colors_sets: u32 = 1, range(0, MAX_SETS), unit "sets";
        /// Shapes sets (5 shape wilds and 1 all-shapes wild each).
        pub shapes_sets: u32 = 1, range(0, MAX_SETS), unit "sets";
        /// Action sets (one each of skip, reverse, trade one card, trade hands, add a card and
        /// dice).
        pub action_sets: u32 = 1, range(0, MAX_SETS), unit "sets";
        /// Per-kind overrides of the copies of each card.
        #[serde(default)]
        pub counts: CountsParams = CountsParams::default(), nested;
    }
}

crate::games::chroma::deck_counts! {
    /// The `[deck.counts]` table: copies of each card of a kind, replacing what the sets give
    /// (the shared Chroma [`DeckCounts`](crate::games::chroma::DeckCounts), with Dice Factor's
    /// ranges).
    pub struct CountsParams in DeckParams;
    played: range(0, MAX_COPIES), note "the deck must deal every hand", unit "copies";
    not_played "Not a Dice Factor card: must be 0.": add_two_cards, remove_a_card, remove_two_cards;
}

impl Params {
    /// Copies of every card in the deck.
    pub fn copies(&self) -> [u32; CARD_KINDS] {
        self.deck.spec().copies(&DICE_FACTOR_ACTIONS)
    }

    /// Checks every parameter; every problem is listed with its key.
    pub fn check(&self) -> Result<(), Vec<Invalid>> {
        let mut bad = Vec::new();
        self.check_ranges(&mut bad);
        if self.d8.is_empty() || self.d8.len() > MAX_D8_FACES {
            bad.push(Invalid::new(
                "d8",
                format!(
                    "a d8 table of {} faces is not allowed; give 1 to {MAX_D8_FACES} faces, each \"nothing\", \"swap\", \"trade\" or \"reroll\"",
                    self.d8.len()
                ),
            ));
        }
        for (kind, _) in self.deck.counts.not_played() {
            bad.push(Invalid::new(
                format!("deck.counts.{kind}"),
                format!("{kind} is not a Dice Factor card; allowed: 0 (Dice Factor's action cards are skip, reverse, trade_one_card, trade_hands, add_a_card and dice)"),
            ));
        }
        let deck: u64 = self.copies().iter().map(|&n| n as u64).sum();
        let need = self.players as u64 * self.hand_size as u64;
        if bad.is_empty() && deck < need {
            bad.push(Invalid::new(
                "deck",
                format!(
                    "the deck has {deck} cards but {} players x {} cards need {need} to deal every hand; add sets or deal fewer cards",
                    self.players, self.hand_size
                ),
            ));
        }
        if bad.is_empty() { Ok(()) } else { Err(bad) }
    }

    /// The deck as a list of cards in canonical order.
    pub fn deck_cards(&self) -> Vec<Card> {
        self.deck.spec().cards(&DICE_FACTOR_ACTIONS)
    }

    /// Copies of the action card `a` in the deck.
    pub fn action_copies(&self, a: ActionCard) -> u32 {
        self.copies()[a as usize]
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_key_table_is_the_loaders() {
        crate::games::key_table::check_against_loader::<super::Params>(<super::super::DiceFactor as crate::engine::Game>::INFO.id, super::Params::KEYS);
    }
}
