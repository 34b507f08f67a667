//! Dice Factor's variant parameters: the TOML reference of every key with its docs/games/dice-factor.md
//! default and allowed range, and the checks that reject impossible set-ups (a deck too
//! small to deal, an action card Dice Factor does not have, an empty d8).

use serde::Deserialize;

use crate::games::chroma::{ActionCard, CARD_KINDS, Card, DeckCounts, DeckSpec};
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

/// Dice Factor's parameters as they appear in a variant file; every key is optional and
/// defaults to docs/games/dice-factor.md.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// Players at the table, 2 to 8. Default 4.
    pub players: u32,
    /// Cards dealt to each player, 1 to 10. Default 5.
    pub hand_size: u32,
    /// Cards counting toward one current target that win, 1 to 20. Default 5. A goal above
    /// `hand_size` is reached only by hands that add_a_card made larger; without them every
    /// game ends at the cap.
    pub goal: u32,
    /// Turns after which the game stops with no winner (end reason `cap`), 1 to 100000.
    /// Default 1000.
    pub turn_cap: u32,
    /// Shuffle the whole discard pile into a new draw pile when a card must be drawn and the
    /// draw pile is empty. Default true; when false, such a draw gives nothing.
    pub reshuffle_discard: bool,
    /// The d8 outcome table: one entry per face, in face order, each `"nothing"`, `"swap"`,
    /// `"trade"` or `"reroll"`; 1 to 20 faces. Default faces 1-5 nothing, 6 swap, 7 trade,
    /// 8 reroll.
    pub d8: Vec<D8Face>,
    /// Deck composition: `base_sets`, `colors_sets`, `shapes_sets` and `action_sets` (one of
    /// each of skip, reverse, trade_one_card, trade_hands, add_a_card and dice), each 0 to 10,
    /// and `[deck.counts]` overrides per kind (0 to 10 copies; `add_two_cards`,
    /// `remove_a_card` and `remove_two_cards` are not Dice Factor cards and must stay 0).
    /// Default 3 base sets, 1 colors set, 1 shapes set, 1 action set (93 cards).
    pub deck: DeckSpec,
}

/// The default d8: faces 1-5 nothing, 6 swap, 7 trade, 8 reroll.
pub const DEFAULT_D8: [D8Face; 8] =
    [D8Face::Nothing, D8Face::Nothing, D8Face::Nothing, D8Face::Nothing, D8Face::Nothing, D8Face::Swap, D8Face::Trade, D8Face::Reroll];

impl Default for Params {
    fn default() -> Self {
        Params {
            players: 4,
            hand_size: 5,
            goal: 5,
            turn_cap: 1000,
            reshuffle_discard: true,
            d8: DEFAULT_D8.to_vec(),
            deck: DeckSpec { base_sets: 3, colors_sets: 1, shapes_sets: 1, action_sets: 1, counts: DeckCounts::default() },
        }
    }
}

impl Params {
    /// Copies of every card in the deck.
    pub fn copies(&self) -> [u32; CARD_KINDS] {
        self.deck.copies(&DICE_FACTOR_ACTIONS)
    }

    /// Checks every parameter; every problem is listed with its key.
    pub fn check(&self) -> Result<(), Vec<Invalid>> {
        let mut bad = Vec::new();
        let range = |bad: &mut Vec<Invalid>, key: &str, what: &str, v: u32, lo: u32, hi: u32| {
            if !(lo..=hi).contains(&v) {
                bad.push(Invalid::new(key, format!("{v} {what} is not allowed; allowed: {lo} to {hi}")));
            }
        };
        range(&mut bad, "players", "players", self.players, 2, MAX_PLAYERS as u32);
        range(&mut bad, "hand_size", "cards per hand", self.hand_size, 1, MAX_HAND_SIZE);
        range(&mut bad, "goal", "cards to win", self.goal, 1, MAX_GOAL);
        range(&mut bad, "turn_cap", "turns", self.turn_cap, 1, MAX_TURN_CAP);
        if self.d8.is_empty() || self.d8.len() > MAX_D8_FACES {
            bad.push(Invalid::new(
                "d8",
                format!(
                    "a d8 table of {} faces is not allowed; give 1 to {MAX_D8_FACES} faces, each \"nothing\", \"swap\", \"trade\" or \"reroll\"",
                    self.d8.len()
                ),
            ));
        }
        let d = &self.deck;
        for (key, v) in
            [("deck.base_sets", d.base_sets), ("deck.colors_sets", d.colors_sets), ("deck.shapes_sets", d.shapes_sets), ("deck.action_sets", d.action_sets)]
        {
            range(&mut bad, key, "sets", v, 0, MAX_SETS);
        }
        let c = &d.counts;
        let counts = [
            ("base", c.base),
            ("color_wild", c.color_wild),
            ("shape_wild", c.shape_wild),
            ("all_colors", c.all_colors),
            ("all_shapes", c.all_shapes),
            ("skip", c.skip),
            ("reverse", c.reverse),
            ("trade_one_card", c.trade_one_card),
            ("trade_hands", c.trade_hands),
            ("add_a_card", c.add_a_card),
            ("dice", c.dice),
        ];
        for (kind, v) in counts {
            if let Some(v) = v {
                range(&mut bad, &format!("deck.counts.{kind}"), "copies", v, 0, MAX_COPIES);
            }
        }
        for (kind, v) in [("add_two_cards", c.add_two_cards), ("remove_a_card", c.remove_a_card), ("remove_two_cards", c.remove_two_cards)] {
            if v.unwrap_or(0) != 0 {
                bad.push(Invalid::new(
                    format!("deck.counts.{kind}"),
                    format!("{kind} is not a Dice Factor card; allowed: 0 (Dice Factor's action cards are skip, reverse, trade_one_card, trade_hands, add_a_card and dice)"),
                ));
            }
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
        self.deck.cards(&DICE_FACTOR_ACTIONS)
    }

    /// Copies of the action card `a` in the deck.
    pub fn action_copies(&self, a: ActionCard) -> u32 {
        self.copies()[a as usize]
    }
}
