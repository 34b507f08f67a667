//! Beaver Mania's cards (its own deck, not Chroma): number cards, the joker and the eight
//! action cards, numbered in canonical order, and a hand kept as counts per kind.
//!
//! Card `n - 1` is the number card `n` (1..=20), [`JOKER`] = 20, then the action cards in
//! docs/games/beaver-mania.md order: superbeaver, thief, fairy, partybeaver, hippie, bad_guy, bodyguard, king.

use std::fmt;

/// A card kind; see the module doc for the numbering.
pub type Card = u8;

/// Highest number any deck may hold.
pub const MAX_NUMBERS: usize = 20;
/// The joker.
pub const JOKER: Card = 20;
/// Superbeaver: steals 2 cards.
pub const SUPERBEAVER: Card = 21;
/// Thief: steals 1 card.
pub const THIEF: Card = 22;
/// Fairy: wishes a card from another player's hand.
pub const FAIRY: Card = 23;
/// Partybeaver: played with 3 unrelated numbers (cannot be stabbed) or alone.
pub const PARTYBEAVER: Card = 24;
/// Hippie: stands for one number of a run.
pub const HIPPIE: Card = 25;
/// Bad guy: another player takes 2 cards.
pub const BAD_GUY: Card = 26;
/// Bodyguard: the play cannot be stabbed while it holds it.
pub const BODYGUARD: Card = 27;
/// King: the other players add a card of the play's number.
pub const KING: Card = 28;
/// Number of card kinds.
pub const KINDS: usize = 29;
/// The action cards in canonical order.
pub const ACTIONS: [Card; 8] = [SUPERBEAVER, THIEF, FAIRY, PARTYBEAVER, HIPPIE, BAD_GUY, BODYGUARD, KING];
/// The action cards' keys (variant keys and readable names), in canonical order.
pub const ACTION_KEYS: [&str; 8] = ["superbeaver", "thief", "fairy", "partybeaver", "hippie", "bad_guy", "bodyguard", "king"];
/// Bit mask of the number cards in a [`Hand::mask`].
pub const NUMBER_BITS: u32 = (1 << MAX_NUMBERS) - 1;

/// The card of number `n` (1-based).
#[inline]
pub const fn number(n: u8) -> Card {
    n - 1
}

/// Whether `card` is a number card.
#[inline]
pub const fn is_number(card: Card) -> bool {
    card < JOKER
}

/// Whether `card` is an action card.
#[inline]
pub const fn is_action(card: Card) -> bool {
    card > JOKER
}

/// Readable name: `7`, `joker`, `bad guy`.
pub fn card_name(card: Card) -> String {
    let mut name = String::new();
    write_card_name(&mut name, card);
    name
}

/// [`card_name`] written onto `out` (no String of its own: observation texts write many).
pub fn write_card_name(out: &mut String, card: Card) {
    use std::fmt::Write;
    match card {
        c if is_number(c) => {
            let _ = write!(out, "{}", c + 1);
        }
        JOKER => out.push_str("joker"),
        c if (c as usize) < KINDS => out.extend(ACTION_KEYS[(c - SUPERBEAVER) as usize].chars().map(|ch| if ch == '_' { ' ' } else { ch })),
        c => {
            let _ = write!(out, "card #{c}");
        }
    }
}

/// A hand (or any multiset of cards) as counts per kind: no heap, O(1) add and remove, and a
/// mask of the kinds present for fast scans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hand {
    counts: [u8; KINDS],
    mask: u32,
    len: u16,
}

impl Default for Hand {
    fn default() -> Self {
        Hand::EMPTY
    }
}

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand { counts: [0; KINDS], mask: 0, len: 0 };

    /// A hand holding `cards`.
    pub fn from_cards(cards: &[Card]) -> Hand {
        let mut h = Hand::EMPTY;
        for &c in cards {
            h.add(c);
        }
        h
    }

    /// Copies of `card` held.
    #[inline]
    pub fn count(&self, card: Card) -> u32 {
        self.counts[card as usize] as u32
    }

    /// Counts per kind, in canonical order.
    #[inline]
    pub fn counts(&self) -> &[u8; KINDS] {
        &self.counts
    }

    /// Bit i set when kind i is held.
    #[inline]
    pub fn mask(&self) -> u32 {
        self.mask
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether no card is held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `card` is held.
    #[inline]
    pub fn has(&self, card: Card) -> bool {
        self.mask & (1 << card) != 0
    }

    /// Adds one card.
    #[inline]
    pub fn add(&mut self, card: Card) {
        self.counts[card as usize] += 1;
        self.mask |= 1 << card;
        self.len += 1;
    }

    /// Adds `n` copies of `card`.
    #[inline]
    pub fn add_n(&mut self, card: Card, n: u32) {
        if n > 0 {
            self.counts[card as usize] += n as u8;
            self.mask |= 1 << card;
            self.len += n as u16;
        }
    }

    /// Removes `n` copies of `card`; the caller checks that they are held.
    #[inline]
    pub fn remove_n(&mut self, card: Card, n: u32) {
        let c = &mut self.counts[card as usize];
        debug_assert!(*c as u32 >= n, "removing cards that are not held");
        *c -= n as u8;
        if *c == 0 {
            self.mask &= !(1 << card);
        }
        self.len -= n as u16;
    }

    /// Removes one `card`; the caller checks that it is held.
    #[inline]
    pub fn remove(&mut self, card: Card) {
        self.remove_n(card, 1);
    }

    /// Adds every card of `other`.
    pub fn add_all(&mut self, other: &Hand) {
        let mut m = other.mask;
        while m != 0 {
            let c = m.trailing_zeros() as Card;
            self.add_n(c, other.count(c));
            m &= m - 1;
        }
    }

    /// The kinds held, in canonical order.
    #[inline]
    pub fn kinds(&self) -> impl Iterator<Item = Card> + '_ {
        let mut m = self.mask;
        std::iter::from_fn(move || {
            if m == 0 {
                None
            } else {
                let c = m.trailing_zeros() as Card;
                m &= m - 1;
                Some(c)
            }
        })
    }

    /// Number cards held.
    #[inline]
    pub fn numbers(&self) -> u32 {
        let mut m = self.mask & NUMBER_BITS;
        let mut n = 0;
        while m != 0 {
            n += self.counts[m.trailing_zeros() as usize] as u32;
            m &= m - 1;
        }
        n
    }

    /// Action cards held.
    #[inline]
    pub fn actions(&self) -> u32 {
        (SUPERBEAVER as usize..KINDS).map(|c| self.counts[c] as u32).sum()
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for c in self.kinds() {
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            let n = self.count(c);
            if n > 1 { write!(f, "{n} x {}", card_name(c))? } else { f.write_str(&card_name(c))? }
        }
        Ok(())
    }
}
