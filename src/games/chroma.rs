//! The Chroma Cards deck shared by Penny Badger and the Chroma games: 25 base cards
//! (5 colors x 5 shapes), color and shape wilds, the two all-wilds and the action cards.
//!
//! A card is a `u8` whose numeric order is the canonical order of RULES.md: base cards by
//! color then shape, color wilds, shape wilds, all-colors, all-shapes, then action cards.

use serde::Deserialize;

/// A card; see the module doc for the numbering.
pub type Card = u8;

/// Color names in canonical order.
pub const COLORS: [&str; 5] = ["red", "orange", "yellow", "green", "blue"];
/// Shape names in canonical order.
pub const SHAPES: [&str; 5] = ["square", "circle", "star", "cross", "pentagon"];

/// First color wild (red wild); color wild of color c is `COLOR_WILD + c`.
pub const COLOR_WILD: Card = 25;
/// First shape wild (square wild); shape wild of shape s is `SHAPE_WILD + s`.
pub const SHAPE_WILD: Card = 30;
/// The "all colors" wild (stands for anything).
pub const ALL_COLORS: Card = 35;
/// The "all shapes" wild (stands for anything).
pub const ALL_SHAPES: Card = 36;
/// First action card.
pub const FIRST_ACTION: Card = 37;

/// The action cards, in canonical order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum ActionCard {
    /// The next player in the current direction loses their next turn.
    Skip = 37,
    /// The direction of play flips.
    Reverse = 38,
    /// Give a chosen card to a target, take a random one of theirs.
    TradeOneCard = 39,
    /// Swap whole hands with a target.
    TradeHands = 40,
    /// Draw one extra card.
    AddACard = 41,
    /// Draw two extra cards.
    AddTwoCards = 42,
    /// One random card of a target's hand goes to the discard pile.
    RemoveACard = 43,
    /// Two random cards of a target's hand go to the discard pile.
    RemoveTwoCards = 44,
    /// Dice Factor's dice card.
    Dice = 45,
}

/// Number of distinct cards.
pub const CARD_KINDS: usize = 46;

/// Penny Badger's 8 action cards (one "action set").
pub const BADGER_ACTIONS: [ActionCard; 8] = [
    ActionCard::Skip,
    ActionCard::Reverse,
    ActionCard::TradeOneCard,
    ActionCard::TradeHands,
    ActionCard::AddACard,
    ActionCard::AddTwoCards,
    ActionCard::RemoveACard,
    ActionCard::RemoveTwoCards,
];

/// A (color, shape) cell, `color * 5 + shape`, 0..25.
pub type Cell = u8;

/// Bit mask of the cells each card matches (25 bits); action cards match nothing.
pub const MATCHES: [u32; CARD_KINDS] = {
    let mut m = [0u32; CARD_KINDS];
    let mut c = 0;
    while c < 25 {
        m[c] = 1 << c;
        c += 1;
    }
    let mut k = 0;
    while k < 5 {
        m[25 + k] = 0b11111 << (5 * k); // color wild: the 5 shapes of color k
        m[30 + k] = 0b00001_00001_00001_00001_00001 << k; // shape wild: shape k in every color
        k += 1;
    }
    m[35] = (1 << 25) - 1;
    m[36] = (1 << 25) - 1;
    m
};

/// Whether `card` matches `cell`.
#[inline]
pub fn matches(card: Card, cell: Cell) -> bool {
    MATCHES[card as usize] & (1 << cell) != 0
}

/// Whether `card` is a wild (color, shape or all-wild).
#[inline]
pub fn is_wild(card: Card) -> bool {
    (COLOR_WILD..FIRST_ACTION).contains(&card)
}

/// Whether `card` is an action card.
#[inline]
pub fn is_action(card: Card) -> bool {
    card >= FIRST_ACTION
}

/// The action of an action card.
pub fn action_of(card: Card) -> Option<ActionCard> {
    use ActionCard::*;
    Some(match card {
        37 => Skip,
        38 => Reverse,
        39 => TradeOneCard,
        40 => TradeHands,
        41 => AddACard,
        42 => AddTwoCards,
        43 => RemoveACard,
        44 => RemoveTwoCards,
        45 => Dice,
        _ => return None,
    })
}

/// Readable cell name, e.g. `blue star`.
pub fn cell_name(cell: Cell) -> String {
    format!(
        "{} {}",
        COLORS[cell as usize / 5],
        SHAPES[cell as usize % 5]
    )
}

/// Readable card name, e.g. `blue star`, `red wild`, `star wild`, `all-colors`, `skip`.
pub fn card_name(card: Card) -> String {
    match card {
        0..25 => cell_name(card),
        25..30 => format!("{} wild", COLORS[(card - 25) as usize]),
        30..35 => format!("{} wild", SHAPES[(card - 30) as usize]),
        ALL_COLORS => "all-colors".into(),
        ALL_SHAPES => "all-shapes".into(),
        _ => KIND_KEYS_ACTIONS[(card - FIRST_ACTION) as usize].replace('_', "-"),
    }
}

/// A list of cards as readable text.
pub fn cards_text(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|&c| card_name(c))
        .collect::<Vec<_>>()
        .join(", ")
}

const KIND_KEYS_ACTIONS: [&str; 9] = [
    "skip",
    "reverse",
    "trade_one_card",
    "trade_hands",
    "add_a_card",
    "add_two_cards",
    "remove_a_card",
    "remove_two_cards",
    "dice",
];

/// Deck composition as a variant writes it: whole sets plus optional per-kind overrides.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DeckSpec {
    /// Base sets (25 cards each, one per color and shape). Default 2.
    pub base_sets: u32,
    /// Colors sets (5 color wilds + 1 all-colors each). Default 2.
    pub colors_sets: u32,
    /// Shapes sets (5 shape wilds + 1 all-shapes each). Default 2.
    pub shapes_sets: u32,
    /// Action sets (one of each action card of the game). Default 2.
    pub action_sets: u32,
    /// Copies of each card of a kind, replacing what the sets give. Kinds: `base`,
    /// `color_wild`, `shape_wild`, `all_colors`, `all_shapes` and each action card
    /// (`skip`, `reverse`, `trade_one_card`, `trade_hands`, `add_a_card`, `add_two_cards`,
    /// `remove_a_card`, `remove_two_cards`, `dice`).
    #[serde(default)]
    pub counts: DeckCounts,
}

/// Per-kind overrides of a [`DeckSpec`]: copies of each card of that kind.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct DeckCounts {
    pub base: Option<u32>,
    pub color_wild: Option<u32>,
    pub shape_wild: Option<u32>,
    pub all_colors: Option<u32>,
    pub all_shapes: Option<u32>,
    pub skip: Option<u32>,
    pub reverse: Option<u32>,
    pub trade_one_card: Option<u32>,
    pub trade_hands: Option<u32>,
    pub add_a_card: Option<u32>,
    pub add_two_cards: Option<u32>,
    pub remove_a_card: Option<u32>,
    pub remove_two_cards: Option<u32>,
    pub dice: Option<u32>,
}

impl DeckSpec {
    /// Copies of every card, indexed by card, given the game's action set.
    pub fn copies(&self, action_set: &[ActionCard]) -> [u32; CARD_KINDS] {
        let o = &self.counts;
        let mut n = [0u32; CARD_KINDS];
        n[..25].fill(o.base.unwrap_or(self.base_sets));
        for k in 0..5 {
            n[25 + k] = o.color_wild.unwrap_or(self.colors_sets);
            n[30 + k] = o.shape_wild.unwrap_or(self.shapes_sets);
        }
        n[ALL_COLORS as usize] = o.all_colors.unwrap_or(self.colors_sets);
        n[ALL_SHAPES as usize] = o.all_shapes.unwrap_or(self.shapes_sets);
        let action_override = [
            o.skip,
            o.reverse,
            o.trade_one_card,
            o.trade_hands,
            o.add_a_card,
            o.add_two_cards,
            o.remove_a_card,
            o.remove_two_cards,
            o.dice,
        ];
        for (i, over) in action_override.iter().enumerate() {
            let card = FIRST_ACTION as usize + i;
            let in_set = action_set.iter().any(|a| *a as usize == card);
            n[card] = over.unwrap_or(if in_set { self.action_sets } else { 0 });
        }
        n
    }

    /// The whole deck as a list of cards in canonical order.
    pub fn cards(&self, action_set: &[ActionCard]) -> Vec<Card> {
        let copies = self.copies(action_set);
        let mut deck = Vec::new();
        for (card, &k) in copies.iter().enumerate() {
            deck.extend(std::iter::repeat_n(card as Card, k as usize));
        }
        deck
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilds_match_their_row_or_column() {
        let blue_star: Cell = 4 * 5 + 2;
        assert!(matches(blue_star, blue_star));
        assert!(matches(COLOR_WILD + 4, blue_star));
        assert!(matches(SHAPE_WILD + 2, blue_star));
        assert!(matches(ALL_COLORS, blue_star));
        assert!(matches(ALL_SHAPES, blue_star));
        assert!(!matches(COLOR_WILD + 3, blue_star));
        assert!(!matches(SHAPE_WILD + 1, blue_star));
        assert!(!matches(ActionCard::Skip as Card, blue_star));
        // Every cell is matched by exactly 5 distinct non-base cards + itself.
        for cell in 0..25 {
            assert_eq!(
                (0..CARD_KINDS as u8).filter(|&c| matches(c, cell)).count(),
                5
            );
        }
    }

    #[test]
    fn deck_a_plus_b_is_90_cards() {
        let spec = DeckSpec {
            base_sets: 2,
            colors_sets: 2,
            shapes_sets: 2,
            action_sets: 2,
            counts: DeckCounts::default(),
        };
        assert_eq!(spec.cards(&BADGER_ACTIONS).len(), 90);
    }
}
