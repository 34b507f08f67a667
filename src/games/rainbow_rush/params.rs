//! Rainbow Rush's variant parameters: the TOML reference of every key with its docs/games/rainbow-rush.md
//! default and allowed range, and the checks that reject impossible or absurd set-ups
//! (a deck too small to deal, action cards the game has no rule for, counts without bound).

use serde::Deserialize;

use crate::games::chroma::{Card, FIRST_ACTION};
use crate::variant::Invalid;

/// Most players at one table.
pub const MAX_PLAYERS: usize = 8;
/// Card kinds Rainbow Rush uses: the 25 base cards and the 12 wilds (no action cards).
pub const KINDS: usize = FIRST_ACTION as usize;
/// Cards that must form the rainbow (one per color): the smallest row.
pub const RAINBOW: u32 = 5;
/// Largest row a variant may set.
pub const MAX_ROW: usize = 12;
/// Largest deal.
pub const MAX_DEAL: u32 = 20;
/// Largest hand a seat can hold: the deal plus the card drawn before playing.
pub const MAX_HAND: usize = MAX_DEAL as usize + 1;
/// Most whole sets of one kind (base, colors, shapes) a deck may hold.
pub const MAX_SETS: u32 = 10;
/// Most copies of one card a `[deck.counts]` override may give.
pub const MAX_COPIES: u32 = 20;
/// Largest turn cap.
pub const MAX_TURN_CAP: u32 = 100_000;
/// Largest `lock_turns`.
pub const MAX_LOCK_TURNS: u32 = 1_000;

crate::games::key_table::params! {
    /// Rainbow Rush's parameters as they appear in a variant file; every key is optional and
    /// defaults to docs/games/rainbow-rush.md.
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    pub struct Params {
        /// Players at the table.
        pub players: u32 = 4, range(2, MAX_PLAYERS), unit "players";
        /// Cards dealt to each player.
        pub deal: u32 = 3, range(0, MAX_DEAL), note "the deck must deal every hand", unit "cards dealt";
        /// Most cards a row may hold; adding a card to a full row moves one of its cards to the
        /// discard pile.
        pub row_size: u32 = 5, range(RAINBOW, MAX_ROW), unit "cards per row";
        /// Turns a card replaced by a wild stays locked in the discard pile (it cannot be taken
        /// during the next `lock_turns` turns); 0: never locked.
        // The default 1 is the rulebook's "two turns later".
        pub lock_turns: u32 = 1, range(0, MAX_LOCK_TURNS), unit "lock turns";
        /// Turns after which the game stops with no winner (end reason `cap`).
        pub turn_cap: u32 = 1000, range(1, MAX_TURN_CAP), unit "turns";
        /// Shuffle the discard pile, all but its top card, into a new draw pile when a player
        /// draws from an empty draw pile; false: that draw gives nothing.
        pub reshuffle_discard: bool = true, allowed("true or false");
        /// Whether a wild may be played onto an opponent's row.
        pub sabotage: bool = true, allowed("true or false");
        /// Deck composition (87 cards by default); a key left out of a `[deck]` table keeps
        /// its default.
        pub deck: DeckParams = DeckParams::default(), nested;
    }
}

crate::games::key_table::params! {
    prefix "deck.";
    /// The `[deck]` table, read as the shared Chroma [`DeckSpec`](crate::games::chroma::DeckSpec)
    /// with Rainbow Rush's defaults for the keys left out (`action_sets` is 0: the game has no
    /// action cards, so a variant need not write it).
    #[derive(Clone, Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, default)]
    pub struct DeckParams {
        /// Base sets (25 cards each, one per color and shape). A `[deck]` table, when given,
        /// lists all four set counts.
        pub base_sets: u32 = 3, range(0, MAX_SETS), note "the deck must deal every hand", unit "base sets";
        /// Colors sets (5 color wilds and 1 all-colors wild each).
        pub colors_sets: u32 = 1, range(0, MAX_SETS), unit "colors sets";
        /// Shapes sets (5 shape wilds and 1 all-shapes wild each).
        pub shapes_sets: u32 = 1, range(0, MAX_SETS), unit "shapes sets";
        /// Rainbow Rush has no action cards: must be 0.
        pub action_sets: u32 = 0, allowed("0 only");
        /// Per-kind overrides of the copies of each card.
        pub counts: CountsParams = CountsParams::default(), nested;
    }
}

crate::games::chroma::deck_counts! {
    /// The `[deck.counts]` table: copies of each card of a kind, replacing what the sets give
    /// (the shared Chroma [`DeckCounts`](crate::games::chroma::DeckCounts), with Rainbow Rush's ranges).
    pub struct CountsParams in DeckParams;
    played: range(0, MAX_COPIES), note "the deck must deal every hand", unit "copies";
    not_played "Rainbow Rush has no action cards: must be 0.":
        skip, reverse, trade_one_card, trade_hands, add_a_card, add_two_cards, remove_a_card, remove_two_cards, dice;
}

impl Params {
    /// Copies of each card kind the deck holds (action cards excluded: they are rejected).
    pub fn copies(&self) -> [u32; KINDS] {
        let all = self.deck.spec().copies(&[]);
        let mut out = [0u32; KINDS];
        out.copy_from_slice(&all[..KINDS]);
        out
    }

    /// The deck in canonical order.
    pub fn cards(&self) -> Vec<Card> {
        let mut deck = Vec::new();
        for (card, &n) in self.copies().iter().enumerate() {
            deck.extend(std::iter::repeat_n(card as Card, n as usize));
        }
        deck
    }

    /// Checks every parameter; every problem is listed with its key and what is allowed.
    pub fn check(&self) -> Result<(), Vec<Invalid>> {
        let mut bad = Vec::new();
        self.check_ranges(&mut bad);
        let d = &self.deck;
        if d.action_sets != 0 {
            bad.push(Invalid::new("deck.action_sets", format!("{} action sets is not allowed; Rainbow Rush has no action cards, allowed: 0", d.action_sets)));
        }
        for (kind, _) in d.counts.not_played() {
            bad.push(Invalid::new(format!("deck.counts.{kind}"), format!("Rainbow Rush has no action cards; `{kind}` allowed: 0")));
        }
        if bad.is_empty() {
            let size: u64 = self.copies().iter().map(|&n| n as u64).sum();
            let need = self.players as u64 * self.deal as u64;
            if size < need {
                bad.push(Invalid::new(
                    "deck",
                    format!(
                        "the deck has {size} cards but {} players x {} cards need {need} to deal every hand; add sets or deal fewer cards",
                        self.players, self.deal
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
        crate::games::key_table::check_against_loader::<super::Params>(<super::super::RainbowRush as crate::engine::Game>::INFO.id, super::Params::KEYS);
    }
}
