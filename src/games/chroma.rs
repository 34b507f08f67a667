//! The Chroma Cards deck shared by Penny Badger and the Chroma games: 25 base cards
//! (5 colors x 5 shapes), color and shape wilds, the two all-wilds and the action cards.
//!
//! A card is a `u8` whose numeric order is the canonical order of docs/games/chroma-cards.md: base cards by
//! color then shape, color wilds, shape wilds, all-colors, all-shapes, then action cards.

use crate::games::key_table::VariantKey;
#[cfg(target_arch = "x86_64")]
use crate::games::simd::V128;

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
    format!("{} {}", COLORS[cell as usize / 5], SHAPES[cell as usize % 5])
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
    cards.iter().map(|&c| card_name(c)).collect::<Vec<_>>().join(", ")
}

/// The action cards' names as variant keys and rules files write them, in canonical order.
pub const KIND_KEYS_ACTIONS: [&str; 9] =
    ["skip", "reverse", "trade_one_card", "trade_hands", "add_a_card", "add_two_cards", "remove_a_card", "remove_two_cards", "dice"];

/// Most sets of one kind, and most copies of one card, a Chroma deck may hold (20 base sets
/// are 500 cards: far more than any table uses, small enough that a game stays fast).
pub const MAX_SETS: u32 = 20;

/// Kinds of card a `[deck.counts]` table counts: the base cards, the four kinds of wild and
/// the nine action cards.
pub const COUNT_KINDS: usize = 14;

/// Each key of a `[deck.counts]` table in canonical order, with its meaning in the key table
/// of a game that plays that kind (a game that does not says so in its own words).
pub const COUNTS: [(&str, &str); COUNT_KINDS] = [
    ("deck.counts.base", "Copies of each base card (one per color and shape), replacing what the sets give."),
    ("deck.counts.color_wild", "Copies of each color wild, replacing what the sets give."),
    ("deck.counts.shape_wild", "Copies of each shape wild, replacing what the sets give."),
    ("deck.counts.all_colors", "Copies of the all-colors wild, replacing what the sets give."),
    ("deck.counts.all_shapes", "Copies of the all-shapes wild, replacing what the sets give."),
    ("deck.counts.skip", "Copies of the skip card, replacing what the sets give."),
    ("deck.counts.reverse", "Copies of the reverse card, replacing what the sets give."),
    ("deck.counts.trade_one_card", "Copies of the trade-one-card card, replacing what the sets give."),
    ("deck.counts.trade_hands", "Copies of the trade-hands card, replacing what the sets give."),
    ("deck.counts.add_a_card", "Copies of the add-a-card card, replacing what the sets give."),
    ("deck.counts.add_two_cards", "Copies of the add-two-cards card, replacing what the sets give."),
    ("deck.counts.remove_a_card", "Copies of the remove-a-card card, replacing what the sets give."),
    ("deck.counts.remove_two_cards", "Copies of the remove-two-cards card, replacing what the sets give."),
    ("deck.counts.dice", "Copies of the dice card, replacing what the sets give."),
];

/// The kind of a `[deck.counts]` key: `base` of `deck.counts.base`.
pub const fn count_kind(key: &'static str) -> &'static str {
    key.split_at("deck.counts.".len()).1
}

/// Per-kind overrides of a [`DeckSpec`], indexed like [`COUNTS`]: copies of each card of that
/// kind (`None`: the sets decide).
pub type DeckCounts = [Option<u32>; COUNT_KINDS];

/// Declares a game's `[deck.counts]` table (the struct, its key table `KEYS` and
/// `check_ranges`, as [`params!`](crate::games::key_table::params) would) from the game's
/// words only: how it allows the kinds it plays, the kinds it does not play and what its
/// table says of them, and any meaning of its own. The keys, their default (`none (the sets
/// decide)`) and the meanings of [`COUNTS`] are written once, here. Also writes
/// `spec()` for the `[deck]` table that holds it as `counts`.
///
/// ```text
/// /// The struct's doc.
/// pub struct CountsParams in DeckParams;
/// played: range(0, MAX_COPIES), note "the deck must deal every hand", unit "copies";
/// not_played "Not a Dice Factor card: must be 0.": add_two_cards, remove_a_card;
/// meaning base "Copies of each base card, replacing `base_sets`.";
/// ```
///
/// `played` takes `range` (checked here) or `documented` (checked by the game) and the
/// options of `params!`; `not_played` and `meaning` may be left out.
macro_rules! deck_counts {
    (
        $(#[doc = $doc:literal])*
        $vis:vis struct $name:ident in $deck:ident;
        played: $kind:ident($($arg:tt)*) $(, $opt:ident $val:literal)*;
        $(not_played $not_meaning:literal: $($not:ident),+;)?
        $(meaning $own:ident $own_meaning:literal;)*
    ) => {
        $(#[doc = $doc])*
        #[derive(Clone, Debug, Default, ::serde::Deserialize, PartialEq)]
        #[serde(deny_unknown_fields, default)]
        #[allow(missing_docs, reason = "the keys' meanings are in `KEYS` and `COUNTS`")]
        $vis struct $name {
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

        impl $name {
            /// How the kinds the game plays are allowed (the options of `params!`).
            const PLAYED: $crate::games::key_table::Options =
                $crate::games::key_table::Options { $($opt: $val,)* ..$crate::games::key_table::Options::NONE };

            /// The kinds the game does not play, bit i for kind i of [`COUNTS`](crate::games::chroma::COUNTS).
            const NOT_PLAYED: u16 = $crate::games::chroma::count_mask(&[$($(stringify!($not)),+)?]);

            /// Every key of this table in canonical order, with its default, allowed values
            /// and meaning, as `playtest rules` prints them.
            pub const KEYS: &'static [$crate::games::key_table::VariantKey] = &{
                const O: $crate::games::key_table::Options = $name::PLAYED;
                const ALLOWED: $crate::games::key_table::Text = $crate::games::key_table::params!(@allowed O, $kind($($arg)*));
                $crate::games::chroma::counts_keys(
                    $crate::games::key_table::Text::as_str(&ALLOWED),
                    $name::NOT_PLAYED,
                    [$($not_meaning,)? ""][0],
                    &[$((stringify!($own), $own_meaning)),*],
                )
            };

            /// The counts indexed like [`COUNTS`](crate::games::chroma::COUNTS).
            pub fn by_kind(&self) -> $crate::games::chroma::DeckCounts {
                [
                    self.base,
                    self.color_wild,
                    self.shape_wild,
                    self.all_colors,
                    self.all_shapes,
                    self.skip,
                    self.reverse,
                    self.trade_one_card,
                    self.trade_hands,
                    self.add_a_card,
                    self.add_two_cards,
                    self.remove_a_card,
                    self.remove_two_cards,
                    self.dice,
                ]
            }

            /// The kinds the game does not play that are given a count other than 0: each
            /// kind's name (`dice`) and its count, in canonical order.
            pub fn not_played(&self) -> impl Iterator<Item = (&'static str, u32)> {
                let counts = self.by_kind();
                (0..$crate::games::chroma::COUNT_KINDS)
                    .filter(|&i| ($name::NOT_PLAYED >> i) & 1 == 1)
                    .filter_map(move |i| counts[i].filter(|&n| n != 0).map(|n| ($crate::games::chroma::count_kind($crate::games::chroma::COUNTS[i].0), n)))
            }

            /// Checks the count of every kind the game plays against its range, pushing one
            /// problem per count out of range.
            #[allow(unused_variables, clippy::ptr_arg, reason = "a `documented` range is checked by the game")]
            pub fn check_ranges(&self, bad: &mut Vec<$crate::variant::Invalid>) {
                $crate::games::chroma::deck_counts!(@check self, bad, $kind($($arg)*));
            }
        }

        impl $deck {
            /// The shared kit's deck description of this `[deck]` table.
            pub fn spec(&self) -> $crate::games::chroma::DeckSpec {
                $crate::games::chroma::DeckSpec {
                    base_sets: self.base_sets,
                    colors_sets: self.colors_sets,
                    shapes_sets: self.shapes_sets,
                    action_sets: self.action_sets,
                    counts: self.counts.by_kind(),
                }
            }
        }
    };
    (@check $self:ident, $bad:ident, range($lo:expr, $hi:expr)) => {{
        let (lo, hi) = (($lo) as i64, ($hi) as i64);
        for (i, count) in $self.by_kind().into_iter().enumerate() {
            if let Some(v) = count.map(i64::from).filter(|v| (Self::NOT_PLAYED >> i) & 1 == 0 && !(lo..=hi).contains(v)) {
                $bad.push($crate::variant::Invalid::new($crate::games::chroma::COUNTS[i].0, Self::PLAYED.out_of_range(v, lo, hi)));
            }
        }
    }};
    (@check $self:ident, $bad:ident, documented($lo:expr, $hi:expr)) => {};
}
pub(crate) use deck_counts;

/// The bit set of the `[deck.counts]` kinds named (`dice`), bit i for kind i of [`COUNTS`];
/// a name that is no kind stops the build.
pub const fn count_mask(names: &[&str]) -> u16 {
    let mut mask = 0;
    let mut n = 0;
    while n < names.len() {
        mask |= 1 << count_index(names[n]);
        n += 1;
    }
    mask
}

/// The index in [`COUNTS`] of the kind named `name`; a name that is no kind stops the build.
const fn count_index(name: &str) -> usize {
    let mut i = 0;
    while i < COUNT_KINDS {
        if same(count_kind(COUNTS[i].0), name) {
            return i;
        }
        i += 1;
    }
    panic!("not a kind of [deck.counts]")
}

/// Whether `a` and `b` are the same text (`==` at compile time).
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The key table of a `[deck.counts]` table: the kinds in `not_played` allowed `0 only` with
/// the meaning `not_meaning`, every other kind allowed `played`, with its meaning from
/// [`COUNTS`] unless `own` gives the game's own.
pub const fn counts_keys(played: &'static str, not_played: u16, not_meaning: &'static str, own: &[(&str, &'static str)]) -> [VariantKey; COUNT_KINDS] {
    let mut out = [VariantKey { key: "", default: "", allowed: "", meaning: "" }; COUNT_KINDS];
    let mut i = 0;
    while i < COUNT_KINDS {
        let (key, meaning) = COUNTS[i];
        let (allowed, meaning) = if not_played & (1 << i) != 0 { ("0 only", not_meaning) } else { (played, meaning) };
        out[i] = VariantKey { key, default: "none (the sets decide)", allowed, meaning };
        i += 1;
    }
    let mut o = 0;
    while o < own.len() {
        out[count_index(own[o].0)].meaning = own[o].1;
        o += 1;
    }
    out
}

/// Deck composition: whole sets plus optional per-kind overrides. Each game reads its own
/// `[deck]` table (its keys, defaults and ranges declared in its `params.rs`) into one.
#[derive(Clone, Debug, PartialEq)]
pub struct DeckSpec {
    /// Base sets (25 cards each, one per color and shape).
    pub base_sets: u32,
    /// Colors sets (5 color wilds + 1 all-colors each).
    pub colors_sets: u32,
    /// Shapes sets (5 shape wilds + 1 all-shapes each).
    pub shapes_sets: u32,
    /// Action sets (one of each action card of the game).
    pub action_sets: u32,
    /// Copies of each card of a kind, replacing what the sets give.
    pub counts: DeckCounts,
}

impl DeckSpec {
    /// Copies of every card, indexed by card, given the game's action set.
    pub fn copies(&self, action_set: &[ActionCard]) -> [u32; CARD_KINDS] {
        let [base, color_wild, shape_wild, all_colors, all_shapes, actions @ ..] = self.counts;
        let mut n = [0u32; CARD_KINDS];
        n[..25].fill(base.unwrap_or(self.base_sets));
        for k in 0..5 {
            n[25 + k] = color_wild.unwrap_or(self.colors_sets);
            n[30 + k] = shape_wild.unwrap_or(self.shapes_sets);
        }
        n[ALL_COLORS as usize] = all_colors.unwrap_or(self.colors_sets);
        n[ALL_SHAPES as usize] = all_shapes.unwrap_or(self.shapes_sets);
        for (i, over) in actions.iter().enumerate() {
            let card = FIRST_ACTION as usize + i;
            let in_set = action_set.iter().any(|a| *a as usize == card);
            n[card] = over.unwrap_or(if in_set { self.action_sets } else { 0 });
        }
        n
    }

    /// Checks every count against [`MAX_SETS`] (sets and per-kind copies), so no variant can
    /// build a deck that makes one game slow; problems are added to `bad`, keys under `deck.`.
    pub fn check(&self, bad: &mut Vec<crate::variant::Invalid>) {
        let mut bound = |key: &str, value: Option<u32>| {
            if let Some(v) = value.filter(|&v| v > MAX_SETS) {
                bad.push(crate::variant::Invalid::new(key, format!("{v} is too many; allowed: 0 to {MAX_SETS}")));
            }
        };
        bound("deck.base_sets", Some(self.base_sets));
        bound("deck.colors_sets", Some(self.colors_sets));
        bound("deck.shapes_sets", Some(self.shapes_sets));
        bound("deck.action_sets", Some(self.action_sets));
        for ((key, _), value) in COUNTS.iter().zip(self.counts) {
            bound(key, value);
        }
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

// --- the card kit: hands and piles shared by the Chroma games ---

/// Most cards a [`Hand`] holds.
pub const HAND_CAP: usize = 12;

/// A hand of at most [`HAND_CAP`] cards kept in canonical order, without heap allocation
/// (Penny Badger's hand; any Chroma game whose hands stay within the cap can use it).
///
/// Slots past the length may hold stale cards; equality and `Debug` look at the cards only.
///
/// Beside the cards it keeps the 25 cell keys ([`CELL_KEY_ADD`]) up to date as cards come
/// and go, so a bot asking for the largest set reads them instead of recounting the hand
/// every turn (every way of changing the hand goes through a method here that keeps them).
#[derive(Clone, Copy)]
pub struct Hand {
    /// The cell keys: byte `cell` of the 32 (four words, little-endian) is the sum of
    /// [`CELL_KEY_ADD`]'s rows of the held cards; bytes 25-31 stay zero.
    keys: [u64; 4],
    /// The cards in canonical order in the first `len` slots; 16 slots (4 unused) so the
    /// hand is one 128-bit word for [`Hand::insert`].
    cards: [Card; 16],
    len: u8,
}

/// Rows of [`CELL_KEY_ADD`]: a power of two above every card kind, so that a card's row is
/// `card & (KEY_ROWS - 1)`, one instruction where a clamp takes three.
pub const KEY_ROWS: usize = 64;
const _: () = assert!(CARD_KINDS <= KEY_ROWS && KEY_ROWS.is_power_of_two());
const _: () = assert!(16 * HAND_CAP < 256, "cell keys must fit a byte");

/// Per card kind, what it adds to the 32 byte lanes of cell keys (cells 0..25, the rest
/// unused), as four little-endian words: 16 to every cell it matches, 15 if it is a wild.
/// A cell's key is then 16 x matching cards - matching wilds, so the largest key is the
/// largest set with the fewest wilds (a hand holds at most [`HAND_CAP`] = 12 cards: keys
/// stay below 256, so adding or taking away a row as whole words never carries or borrows
/// from one byte into the next). The rows past the last card kind add nothing.
pub static CELL_KEY_ADD: [[u64; 4]; KEY_ROWS] = {
    let mut t = [[0u64; 4]; KEY_ROWS];
    let mut card = 0;
    while card < CARD_KINDS {
        let add = if card >= COLOR_WILD as usize && card < FIRST_ACTION as usize { 15u64 } else { 16 };
        let mut cell = 0;
        while cell < 25 {
            if MATCHES[card] & (1 << cell) != 0 {
                t[card][cell / 8] |= add << (8 * (cell % 8));
            }
            cell += 1;
        }
        card += 1;
    }
    t
};

/// The cell keys of `cards` counted from scratch (what [`Hand`] keeps up to date).
#[inline]
pub fn cell_keys_of(cards: &[Card]) -> [u64; 4] {
    let mut keys = [0u64; 4];
    for &c in cards {
        add_keys(&mut keys, c);
    }
    keys
}

/// Adds `card`'s row of [`CELL_KEY_ADD`] to `keys`.
#[inline(always)]
fn add_keys(keys: &mut [u64; 4], card: Card) {
    let row = &CELL_KEY_ADD[card as usize & (KEY_ROWS - 1)];
    for (k, r) in keys.iter_mut().zip(row) {
        *k = k.wrapping_add(*r);
    }
}

/// Takes `card`'s row of [`CELL_KEY_ADD`] away from `keys` (the card was counted in them).
#[inline(always)]
fn sub_keys(keys: &mut [u64; 4], card: Card) {
    let row = &CELL_KEY_ADD[card as usize & (KEY_ROWS - 1)];
    for (k, r) in keys.iter_mut().zip(row) {
        *k = k.wrapping_sub(*r);
    }
}

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand { keys: [0; 4], cards: [0; 16], len: 0 };

    /// The hand's cell keys (see [`CELL_KEY_ADD`]), kept up to date as cards come and go;
    /// debug builds check them against a recount.
    #[inline]
    pub fn cell_keys(&self) -> &[u64; 4] {
        debug_assert_eq!(self.keys, cell_keys_of(self.cards()), "kept cell keys differ from a recount");
        &self.keys
    }

    /// The cards, in canonical order.
    #[inline]
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    /// Every slot of the hand: its cards in canonical order, then leftovers to be ignored.
    /// For fixed-length loops that mask positions at or past [`Hand::len`], which random
    /// hand sizes cannot mispredict.
    #[inline]
    pub fn slots(&self) -> &[Card; HAND_CAP] {
        (&self.cards[..HAND_CAP]).try_into().expect("16 slots hold HAND_CAP")
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the hand holds no card.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds a card keeping canonical order, without data-dependent branches or loops.
    #[inline]
    pub fn insert(&mut self, card: Card) {
        let n = self.len as usize;
        assert!(n < HAND_CAP, "hand over capacity");
        #[cfg(target_arch = "x86_64")]
        self.insert_sse2(card, n);
        #[cfg(not(target_arch = "x86_64"))]
        self.insert_u128(card, n);
        add_keys(&mut self.keys, card);
        self.len += 1;
    }

    /// [`Hand::insert`] with the 16 slots in one SSE2 register (part of every x86-64 CPU):
    /// one comparison finds the place, and two masks from a table keep the slots before it,
    /// put the card there and take the slots after it from the register shifted by one slot.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn insert_sse2(&mut self, card: Card, n: usize) {
        /// `BEFORE[k]`: 0xFF in the slots below `k`.
        static BEFORE: [[u8; 16]; 17] = {
            let mut t = [[0u8; 16]; 17];
            let mut k = 0;
            while k <= 16 {
                let mut i = 0;
                while i < k {
                    t[k][i] = 0xFF;
                    i += 1;
                }
                k += 1;
            }
            t
        };
        let x = V128::load(&self.cards);
        let c = V128::splat8(card);
        // Held slots holding a card that sorts after `card` (cards are below 128, so the
        // signed comparison is the card order); slot `n` counts as later.
        let later = (x.gt8(c).mask8() & ((1 << n) - 1)) | (1 << n);
        let pos = later.trailing_zeros() as usize;
        let before = V128::load(&BEFORE[pos]);
        let through = V128::load(&BEFORE[pos + 1]);
        let shifted = x.bytes_up::<1>();
        let kept = x.and(before);
        let placed = c.and(through.xor(before));
        let moved = through.and_not(shifted);
        kept.or(placed).or(moved).store(&mut self.cards);
    }

    /// [`Hand::insert`]'s placing of the card on one 128-bit word (any CPU); the caller adds
    /// 1 to the length (and the card to the cell keys: [`Hand::insert`] does both).
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    #[inline(always)]
    pub fn insert_u128(&mut self, card: Card, n: usize) {
        const HIGH: u128 = u128::from_le_bytes([0x80; 16]);
        const ONES: u128 = u128::from_le_bytes([0x01; 16]);
        // One byte per slot. Bit 7 of a slot's byte in `later` is set when the slot holds a
        // card that sorts after `card` (cards are below 128, so no byte borrows from the
        // next); the first such slot among the `n` held is where `card` goes.
        let x = u128::from_le_bytes(self.cards);
        let held = (1u128 << (8 * n)) - 1;
        let later = (((card as u128 * ONES) | HIGH) - (x & held)) & HIGH ^ HIGH;
        // Past the held slots, slot `n` counts as later: a card after all others goes last.
        let later = (later & held) | (1u128 << (8 * n + 7));
        let pos = later.trailing_zeros() as usize / 8;
        let before = (1u128 << (8 * pos)) - 1;
        let x = (x & before) | ((card as u128) << (8 * pos)) | ((x & !before) << 8);
        self.cards = x.to_le_bytes();
    }

    /// Adds every card of `cards` keeping canonical order: the same hand, stale slots
    /// included, as [`Hand::insert`] of each in turn (`insert_all_is_insert_one_by_one`
    /// checks it). On x86-64 the hand stays in one SSE2 register from the first card to the
    /// last and each card's place is found by one comparison, without the round trip
    /// through memory, the bit scan and the table loads of one insert after the other: a
    /// refill of several cards is a short chain of register operations.
    #[inline]
    pub fn insert_all(&mut self, cards: &[Card]) {
        assert!(self.len as usize + cards.len() <= HAND_CAP, "hand over capacity");
        for &card in cards {
            add_keys(&mut self.keys, card);
        }
        #[cfg(target_arch = "x86_64")]
        self.insert_all_sse2(cards);
        #[cfg(not(target_arch = "x86_64"))]
        for &card in cards {
            let n = self.len as usize;
            self.insert_u128(card, n);
            self.len += 1;
        }
    }

    /// [`Hand::insert_all`] in one SSE2 register (part of every x86-64 CPU); the caller has
    /// checked the capacity.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn insert_all_sse2(&mut self, cards: &[Card]) {
        /// Each lane's index.
        const LANES: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
        let mut x = V128::load(&self.cards);
        // 0xFF in the lanes at or past the length (lane index > len - 1; cards and
        // lengths are below 128, so the signed comparisons are the usual order).
        let mut free = V128::load(&LANES).gt8(V128::splat8(self.len.wrapping_sub(1)));
        for &card in cards {
            let c = V128::splat8(card);
            // The held cards that sort after `card` are the last held ones (the hand is
            // in order), so with the free lanes they are every lane from `card`'s place
            // on: as `insert`'s first later slot, without a bit scan.
            let later = x.gt8(c).or(free);
            let after = later.bytes_up::<1>();
            let kept = later.and_not(x);
            let placed = c.and(after.and_not(later));
            let moved = x.bytes_up::<1>().and(after);
            x = kept.or(placed).or(moved);
            free = free.bytes_up::<1>();
        }
        x.store(&mut self.cards);
        self.len += cards.len() as u8;
    }

    /// Removes and returns the card at position `i`.
    #[inline]
    pub fn remove_at(&mut self, i: usize) -> Card {
        let c = self.cards[i];
        sub_keys(&mut self.keys, c);
        self.cards.copy_within(i + 1..self.len as usize, i);
        self.len -= 1;
        c
    }

    /// Removes the cards at the positions set in `mask` (positions past the length are
    /// ignored), handing each to `each` in hand order; the kept cards close the gaps in order.
    #[inline]
    pub fn remove_mask(&mut self, mask: u32, mut each: impl FnMut(Card)) {
        let len = self.len as usize;
        let mask = mask & ((1 << len) - 1);
        let mut rest = mask;
        while rest != 0 {
            let c = self.cards[rest.trailing_zeros() as usize];
            sub_keys(&mut self.keys, c);
            each(c);
            rest &= rest - 1;
        }
        // Those before the first removed card stay where they are.
        let first = (mask.trailing_zeros() as usize).min(len);
        let mut kept = first;
        for i in first..len {
            self.cards[kept] = self.cards[i];
            kept += (((mask >> i) & 1) ^ 1) as usize;
        }
        self.len = kept as u8;
    }

    /// [`Hand::remove_mask`] with the kept cards closing the gaps by whole-register shifts
    /// (SSE2 on x86-64): the same cards handed to `each` in the same order and the same
    /// hand after (`remove_mask_shifting_is_remove_mask` checks both), without a loop over
    /// every slot that reads each byte back after writing the one before it. Only the
    /// stale slots past the new length may differ from [`Hand::remove_mask`]'s.
    #[inline]
    pub fn remove_mask_shifting(&mut self, mask: u32, mut each: impl FnMut(Card)) {
        let len = self.len as usize;
        let mask = mask & ((1 << len) - 1);
        let mut rest = mask;
        let mut removed = 0;
        while rest != 0 {
            let c = self.cards[rest.trailing_zeros() as usize];
            sub_keys(&mut self.keys, c);
            each(c);
            rest &= rest - 1;
            removed += 1;
        }
        #[cfg(target_arch = "x86_64")]
        self.close_gaps_sse2(mask);
        #[cfg(not(target_arch = "x86_64"))]
        {
            let mut kept = 0;
            for i in 0..len {
                self.cards[kept] = self.cards[i];
                kept += (((mask >> i) & 1) ^ 1) as usize;
            }
        }
        self.len = (len - removed) as u8;
    }

    /// Removes the slots set in `mask` (below 16 slots) from the 16 slots in one SSE2
    /// register (part of every x86-64 CPU), the last removed first: each removal keeps
    /// the slots before it and moves those after it down by one.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn close_gaps_sse2(&mut self, mask: u32) {
        /// `BELOW[k]`: 0xFF in the slots below `k`.
        static BELOW: [[u8; 16]; 16] = {
            let mut t = [[0u8; 16]; 16];
            let mut k = 0;
            while k < 16 {
                let mut i = 0;
                while i < k {
                    t[k][i] = 0xFF;
                    i += 1;
                }
                k += 1;
            }
            t
        };
        let mut rest = mask & 0xFFFF;
        let mut x = V128::load(&self.cards);
        while rest != 0 {
            let at = 31 - rest.leading_zeros() as usize;
            rest ^= 1 << at;
            let below = V128::load(&BELOW[at]);
            x = x.and(below).or(below.and_not(x.bytes_down::<1>()));
        }
        x.store(&mut self.cards);
    }

    /// Splits the hand into (kept, taken) by a bit mask of positions; both stay in order.
    #[inline]
    pub fn split_off_mask(&self, mask: u32) -> (Hand, Hand) {
        let mut kept = Hand::EMPTY;
        let mut taken = Hand::EMPTY;
        for (i, &c) in self.cards().iter().enumerate() {
            if mask & (1 << i) != 0 {
                taken.cards[taken.len as usize] = c;
                taken.len += 1;
                add_keys(&mut taken.keys, c);
            } else {
                kept.cards[kept.len as usize] = c;
                kept.len += 1;
                add_keys(&mut kept.keys, c);
            }
        }
        (kept, taken)
    }

    /// Position of the first copy of `card`.
    #[inline]
    pub fn position(&self, card: Card) -> Option<usize> {
        self.cards().iter().position(|&c| c == card)
    }

    /// A hand holding `cards` (sorted into canonical order).
    pub fn from_cards(cards: &[Card]) -> Hand {
        let mut h = Hand::EMPTY;
        for &c in cards {
            h.insert(c);
        }
        h
    }
}

impl PartialEq for Hand {
    fn eq(&self, other: &Hand) -> bool {
        self.cards() == other.cards()
    }
}

impl Eq for Hand {}

impl std::fmt::Debug for Hand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hand").field("cards", &self.cards()).finish()
    }
}

/// The engine's [`crate::engine::rng::shuffle`] for cards: the same draws and the same swaps,
/// so the same permutation (`shuffle_cards_is_the_engine_shuffle` checks it on every length
/// up to 600, odd and even), two positions a round and without the two bounds checks per card
/// the compiler keeps there. Every Chroma game shuffles its deck with it at every deal.
#[inline(always)]
pub fn shuffle_cards(cards: &mut [Card], rng: &mut crate::engine::GameRng) {
    use rand::Rng;
    let mut local = rng.clone();
    let p = cards.as_mut_ptr();
    // Positions i - 1 down to 1 are left; each takes a card from itself or below.
    let mut i = cards.len();
    while i >= 3 {
        let j = ((local.next_u64() as u128 * i as u128) >> 64) as usize;
        let k = ((local.next_u64() as u128 * (i - 1) as u128) >> 64) as usize;
        debug_assert!(j < i && k < i - 1);
        // SAFETY: i <= cards.len(), so positions i - 1 and i - 2 are in bounds; j =
        // floor(r i / 2^64) < i and k = floor(r' (i - 1) / 2^64) < i - 1 for every 64-bit r,
        // r', so both are in bounds too; `ptr::swap` allows a position with itself.
        unsafe {
            std::ptr::swap(p.add(i - 1), p.add(j));
            std::ptr::swap(p.add(i - 2), p.add(k));
        }
        i -= 2;
    }
    if i == 2 {
        let j = ((local.next_u64() as u128 * 2) >> 64) as usize;
        cards.swap(1, j);
    }
    *rng = local;
}

/// Draws the top card of `draw`; when `draw` is empty and `reshuffle` allows it, the
/// discard pile first becomes the new draw pile, shuffled by `shuffle` (`on_reshuffle` gets
/// the new pile, bottom first, for the game's event). `None` when there is nothing to draw.
/// The general rule of the Chroma games (docs/games/chroma-cards.md).
#[inline(always)]
pub fn draw_card(
    draw: &mut Vec<Card>,
    discard: &mut Vec<Card>,
    reshuffle: bool,
    rng: &mut crate::engine::GameRng,
    shuffle: impl FnOnce(&mut [Card], &mut crate::engine::GameRng),
    on_reshuffle: impl FnOnce(&[Card]),
) -> Option<Card> {
    if draw.is_empty() {
        refill(draw, discard, reshuffle, rng, shuffle, on_reshuffle);
    }
    draw.pop()
}

/// [`draw_card`]'s rare branch, out of line: an empty draw pile becomes the shuffled
/// discard pile when `reshuffle` allows it and there is one.
#[cold]
#[inline(never)]
fn refill(
    draw: &mut Vec<Card>,
    discard: &mut Vec<Card>,
    reshuffle: bool,
    rng: &mut crate::engine::GameRng,
    shuffle: impl FnOnce(&mut [Card], &mut crate::engine::GameRng),
    on_reshuffle: impl FnOnce(&[Card]),
) {
    if reshuffle && !discard.is_empty() {
        std::mem::swap(draw, discard);
        shuffle(draw, rng);
        on_reshuffle(draw);
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
            assert_eq!((0..CARD_KINDS as u8).filter(|&c| matches(c, cell)).count(), 5);
        }
    }

    #[test]
    fn shuffle_cards_is_the_engine_shuffle() {
        use crate::engine::{GameRng, SeedFrom, rng};
        for len in 0..600usize {
            for seed in 0..8 {
                let (mut a, mut b) = (GameRng::seed_from(seed * 1000 + len as u64), GameRng::seed_from(seed * 1000 + len as u64));
                let mut x: Vec<Card> = (0..len).map(|i| (i % 256) as Card).collect();
                let mut y = x.clone();
                rng::shuffle(&mut x, &mut a);
                shuffle_cards(&mut y, &mut b);
                assert_eq!(x, y, "len {len} seed {seed}");
                assert_eq!(a, b, "same draws for len {len}");
            }
        }
    }

    #[test]
    fn deck_a_plus_b_is_90_cards() {
        let spec = DeckSpec { base_sets: 2, colors_sets: 2, shapes_sets: 2, action_sets: 2, counts: [None; COUNT_KINDS] };
        assert_eq!(spec.cards(&BADGER_ACTIONS).len(), 90);
    }
}

/// [`Hand::insert_all`] against [`Hand::insert`] one card after another, and
/// [`Hand::remove_mask_shifting`] against [`Hand::remove_mask`].
#[cfg(test)]
mod insert_all_tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

        /// The same hand, all 16 slots compared (stale ones included), from a hand whose
        /// free slots hold anything.
        #[test]
        fn insert_all_is_insert_one_by_one(
            held in proptest::collection::vec(0u8..CARD_KINDS as u8, 0..=HAND_CAP),
            stale in proptest::array::uniform16(0u8..CARD_KINDS as u8),
            added in proptest::collection::vec(0u8..CARD_KINDS as u8, 0..=HAND_CAP),
        ) {
            let mut start = Hand { keys: [0; 4], cards: stale, len: 0 };
            for &c in &held {
                start.insert(c);
            }
            let added = &added[..added.len().min(HAND_CAP - held.len())];
            let mut one_by_one = start;
            for &c in added {
                one_by_one.insert(c);
            }
            let mut all = start;
            all.insert_all(added);
            prop_assert_eq!(all.cards, one_by_one.cards);
            prop_assert_eq!(all.len, one_by_one.len);
            prop_assert_eq!(all.keys, cell_keys_of(all.cards()));
            prop_assert_eq!(one_by_one.keys, cell_keys_of(one_by_one.cards()));
        }

        /// The same cards handed over in the same order and the same hand after.
        #[test]
        fn remove_mask_shifting_is_remove_mask(
            held in proptest::collection::vec(0u8..CARD_KINDS as u8, 0..=HAND_CAP),
            stale in proptest::array::uniform16(0u8..CARD_KINDS as u8),
            mask in any::<u32>(),
        ) {
            let mut start = Hand { keys: [0; 4], cards: stale, len: 0 };
            for &c in &held {
                start.insert(c);
            }
            let (mut plain, mut shifting) = (start, start);
            let (mut out_plain, mut out_shifting) = (Vec::new(), Vec::new());
            plain.remove_mask(mask, |c| out_plain.push(c));
            shifting.remove_mask_shifting(mask, |c| out_shifting.push(c));
            prop_assert_eq!(out_plain, out_shifting);
            prop_assert_eq!(plain.cards(), shifting.cards());
            prop_assert_eq!(plain.keys, cell_keys_of(plain.cards()));
            prop_assert_eq!(shifting.keys, cell_keys_of(shifting.cards()));
        }
    }
}

// --- traces: cards by the names the rulebook gives them ---

/// Every card's name ([`card_name`]), indexed by card.
static CARD_NAMES: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| (0..CARD_KINDS as Card).map(card_name).collect());

/// The name of `card` ([`card_name`]) without allocating.
pub fn card_str(card: Card) -> &'static str {
    CARD_NAMES.get(card as usize).map_or("?", |s| s.as_str())
}

/// The card named `name` ([`card_name`]: `blue star`, `red wild`, `all-colors`, `skip`).
pub fn card_from_name(name: &str) -> Option<Card> {
    CARD_NAMES.iter().position(|n| n == name).map(|c| c as Card)
}

/// The cell named `name` (`blue star`).
pub fn cell_from_name(name: &str) -> Option<Cell> {
    card_from_name(name).filter(|&c| c < 25)
}

/// The names of `cards`, in order.
pub fn card_names(cards: &[Card]) -> Vec<&'static str> {
    cards.iter().map(|&c| card_str(c)).collect()
}

/// The names of a pile's cards top first, as the traces write a pile (the state holds it
/// bottom first: the last card is the top).
pub fn pile_names(pile: &[Card]) -> Vec<&'static str> {
    pile.iter().rev().map(|&c| card_str(c)).collect()
}

/// serde of one card as its name: `#[serde(with = "chroma::by_name")]`.
pub mod by_name {
    use super::{Card, card_from_name, card_str};

    /// Writes the card's name.
    pub fn serialize<S: serde::Serializer>(card: &Card, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(card_str(*card))
    }

    /// Reads a card's name.
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let name = <String as serde::Deserialize>::deserialize(d)?;
        card_from_name(&name).ok_or_else(|| {
            serde::de::Error::custom(format!("unknown card `{name}`; cards are named like `blue star`, `red wild`, `star wild`, `all-colors`, `skip`"))
        })
    }
}

/// serde of a set of hand positions kept as a bit mask (bit i = position i) as the list of
/// positions: `#[serde(with = "chroma::positions")]`.
pub mod positions {
    /// Writes the positions in increasing order.
    pub fn serialize<S: serde::Serializer>(mask: &u32, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq((0..32).filter(|i| mask & (1 << i) != 0))
    }

    /// Reads a list of positions (each below 32).
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        let list = <Vec<u32> as serde::Deserialize>::deserialize(d)?;
        list.iter().try_fold(0u32, |m, &i| if i < 32 { Ok(m | (1 << i)) } else { Err(serde::de::Error::custom(format!("hand position {i} is out of range"))) })
    }
}
