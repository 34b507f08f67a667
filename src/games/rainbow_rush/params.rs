//! Rainbow Rush's variant parameters: the TOML reference of every key with its docs/games/rainbow-rush.md
//! default and allowed range, and the checks that reject impossible or absurd set-ups
//! (a deck too small to deal, action cards the game has no rule for, counts without bound).

use serde::Deserialize;

use crate::games::chroma::{Card, DeckCounts, DeckSpec, FIRST_ACTION};
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

/// Rainbow Rush's parameters as they appear in a variant file; every key is optional and
/// defaults to docs/games/rainbow-rush.md.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// Players at the table, 2 to 8. Default 4.
    pub players: u32,
    /// Cards dealt to each player, 0 to 20. Default 3.
    pub deal: u32,
    /// Most cards a row may hold, 5 to 12 (adding a card to a full row moves one of its
    /// cards to the discard pile). Default 5.
    pub row_size: u32,
    /// Turns a card replaced by a wild stays locked in the discard pile (it cannot be taken
    /// during the next `lock_turns` turns after the one in which it was replaced), 0 to
    /// 1000; 0: never locked. Default 1 (the rulebook's "two turns later").
    pub lock_turns: u32,
    /// Turns after which the game stops with no winner (end reason `cap`), 1 to 100000.
    /// Default 1000.
    pub turn_cap: u32,
    /// Shuffle the discard pile (except its top card) into a new draw pile when a player
    /// draws from an empty draw pile. Default true; when false, that draw gives nothing.
    pub reshuffle_discard: bool,
    /// Whether a wild may be played onto an opponent's row (option 3 of a turn). Default
    /// true; false plays without sabotage.
    pub sabotage: bool,
    /// Deck composition: `base_sets`, `colors_sets`, `shapes_sets` (each 0 to 10),
    /// `action_sets` (must be 0: Rainbow Rush has no action cards) and `[deck.counts]`
    /// overrides of the copies of each card of a kind (`base`, `color_wild`, `shape_wild`,
    /// `all_colors`, `all_shapes`; 0 to 20). Default 3 base sets, 1 colors set, 1 shapes
    /// set (87 cards). A key left out of a `[deck]` table keeps its default.
    pub deck: DeckParams,
}

/// The `[deck]` table, read as the shared Chroma [`DeckSpec`] with Rainbow Rush's defaults
/// for the keys left out (`action_sets` is 0: the game has no action cards, so a variant need
/// not write it).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct DeckParams {
    /// Base sets (25 cards each, one per color and shape), 0 to 10. Default 3.
    pub base_sets: u32,
    /// Colors sets (5 color wilds + 1 all-colors each), 0 to 10. Default 1.
    pub colors_sets: u32,
    /// Shapes sets (5 shape wilds + 1 all-shapes each), 0 to 10. Default 1.
    pub shapes_sets: u32,
    /// Action sets: must be 0 (Rainbow Rush has no action cards). Default 0.
    pub action_sets: u32,
    /// Per-kind overrides of the copies of each card (0 to 20); action cards must be 0.
    pub counts: DeckCounts,
}

impl Default for DeckParams {
    fn default() -> Self {
        DeckParams { base_sets: 3, colors_sets: 1, shapes_sets: 1, action_sets: 0, counts: DeckCounts::default() }
    }
}

impl DeckParams {
    /// The shared kit's deck description of this `[deck]` table.
    pub fn spec(&self) -> DeckSpec {
        DeckSpec {
            base_sets: self.base_sets,
            colors_sets: self.colors_sets,
            shapes_sets: self.shapes_sets,
            action_sets: self.action_sets,
            counts: self.counts.clone(),
        }
    }
}

impl Default for Params {
    fn default() -> Self {
        Params { players: 4, deal: 3, row_size: 5, lock_turns: 1, turn_cap: 1000, reshuffle_discard: true, sabotage: true, deck: DeckParams::default() }
    }
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
        let mut range = |key: &str, what: &str, v: u32, lo: u32, hi: u32| {
            if !(lo..=hi).contains(&v) {
                bad.push(Invalid::new(key, format!("{v} {what} is not allowed; allowed: {lo} to {hi}")));
            }
        };
        range("players", "players", self.players, 2, MAX_PLAYERS as u32);
        range("deal", "cards dealt", self.deal, 0, MAX_DEAL);
        range("row_size", "cards per row", self.row_size, RAINBOW, MAX_ROW as u32);
        range("lock_turns", "lock turns", self.lock_turns, 0, MAX_LOCK_TURNS);
        range("turn_cap", "turns", self.turn_cap, 1, MAX_TURN_CAP);
        let d = &self.deck;
        range("deck.base_sets", "base sets", d.base_sets, 0, MAX_SETS);
        range("deck.colors_sets", "colors sets", d.colors_sets, 0, MAX_SETS);
        range("deck.shapes_sets", "shapes sets", d.shapes_sets, 0, MAX_SETS);
        let c = &d.counts;
        for (key, v) in [
            ("deck.counts.base", c.base),
            ("deck.counts.color_wild", c.color_wild),
            ("deck.counts.shape_wild", c.shape_wild),
            ("deck.counts.all_colors", c.all_colors),
            ("deck.counts.all_shapes", c.all_shapes),
        ] {
            if let Some(v) = v {
                range(key, "copies", v, 0, MAX_COPIES);
            }
        }
        if d.action_sets != 0 {
            bad.push(Invalid::new("deck.action_sets", format!("{} action sets is not allowed; Rainbow Rush has no action cards, allowed: 0", d.action_sets)));
        }
        for (key, v) in [
            ("skip", c.skip),
            ("reverse", c.reverse),
            ("trade_one_card", c.trade_one_card),
            ("trade_hands", c.trade_hands),
            ("add_a_card", c.add_a_card),
            ("add_two_cards", c.add_two_cards),
            ("remove_a_card", c.remove_a_card),
            ("remove_two_cards", c.remove_two_cards),
            ("dice", c.dice),
        ] {
            if v.is_some_and(|v| v != 0) {
                bad.push(Invalid::new(format!("deck.counts.{key}"), format!("Rainbow Rush has no action cards; `{key}` allowed: 0")));
            }
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
