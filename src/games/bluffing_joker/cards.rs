//! Bluffing Joker's cards: standard 52-card ranks and suits plus jokers (not a Chroma deck),
//! their canonical order and names, and a fixed-capacity hand with counts per rank.
//!
//! Card ids follow the canonical order: rank by rank (ace, 2, ..., 10, jack, queen, king),
//! each rank's suits in the order clubs, diamonds, hearts, spades (id = rank x 4 + suit),
//! then the joker, id [`JOKER_CARD`] = 52. Ranks (and declared values) are 0 = ace .. 12 =
//! king, 13 = joker ([`JOKER`]).

use std::fmt;

use super::params::MAX_HAND;
use crate::games::kind_counts::{KindCounts, Kinds};

/// One physical card (see the module doc for the numbering).
pub type CardId = u8;
/// A rank or declared value: 0 = ace, 1..=9 = 2..10, 10 = jack, 11 = queen, 12 = king, 13 = joker.
pub type Rank = u8;

/// Ranks and declared values (13 standard ranks + the joker).
pub const RANKS: usize = 14;
/// The joker's rank.
pub const JOKER: Rank = 13;
/// The joker's card id.
pub const JOKER_CARD: CardId = 52;
/// Distinct card ids (52 standard cards + the joker).
pub const CARD_IDS: usize = 53;

/// Suit names in canonical order.
pub const SUITS: [&str; 4] = ["clubs", "diamonds", "hearts", "spades"];
/// Short rank names in canonical order (as declared).
pub const RANK_NAMES: [&str; RANKS] = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "joker"];
const RANK_WORDS: [&str; RANKS] = ["ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "joker"];

/// The rank of a card.
#[inline]
pub fn rank_of(card: CardId) -> Rank {
    if card >= JOKER_CARD { JOKER } else { card / 4 }
}

/// Readable card name: `7 of hearts`, `queen of spades`, `joker`.
pub fn card_name(card: CardId) -> String {
    if card >= JOKER_CARD { "joker".into() } else { format!("{} of {}", RANK_WORDS[(card / 4) as usize], SUITS[(card % 4) as usize]) }
}

/// Short name of a rank or declared value (`A`, `7`, `K`, `joker`).
pub fn rank_name(rank: Rank) -> &'static str {
    RANK_NAMES.get(rank as usize).copied().unwrap_or("?")
}

/// A hand: the cards in a fixed array (no heap) and the same cards counted by rank, with
/// the ranks held as a bit set ([`KindCounts`]: every decision reads it, `rank_mask_plain`
/// in the tests is the count-by-count reading it is checked against).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hand {
    cards: [CardId; MAX_HAND],
    by_rank: KindCounts<RANKS>,
}

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand { cards: [0; MAX_HAND], by_rank: KindCounts::EMPTY };

    /// A hand holding `cards` (at most [`MAX_HAND`]).
    pub fn from_cards(cards: &[CardId]) -> Hand {
        let mut h = Hand::EMPTY;
        for &c in cards {
            h.add(c);
        }
        h
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.by_rank.len()
    }

    /// Whether the hand is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.by_rank.is_empty()
    }

    /// Cards of `rank` held.
    #[inline]
    pub fn count(&self, rank: Rank) -> u32 {
        self.by_rank.count(rank)
    }

    /// Counts per rank.
    #[inline]
    pub fn counts(&self) -> &[u8; RANKS] {
        self.by_rank.counts()
    }

    /// The cards, in the order they were added.
    #[inline]
    pub fn cards(&self) -> &[CardId] {
        &self.cards[..self.len()]
    }

    /// The ranks held, in canonical order.
    #[inline]
    pub fn ranks(&self) -> Kinds {
        self.by_rank.kinds()
    }

    /// The ranks held as a bit set (bit r set when rank r is held).
    #[inline]
    pub fn rank_mask(&self) -> u16 {
        self.by_rank.held() as u16
    }

    /// [`Hand::rank_mask`] read from the counts (the tests compare the two).
    #[cfg(test)]
    pub fn rank_mask_plain(&self) -> u16 {
        let mut mask = 0;
        for (r, &n) in self.counts().iter().enumerate() {
            mask |= ((n > 0) as u16) << r;
        }
        mask
    }

    /// Adds a card (the caller keeps the hand within [`MAX_HAND`]).
    #[inline]
    pub fn add(&mut self, card: CardId) {
        self.cards[self.len()] = card;
        self.by_rank.add(rank_of(card));
    }

    /// Removes the first card of `rank` in canonical order (lowest id) and returns it; the
    /// caller checks that one is held.
    #[inline]
    pub fn remove_rank(&mut self, rank: Rank) -> CardId {
        // The rank's ids are `first` and the `width` - 1 after it: a card's id less `first`
        // (wrapping) is below `width` exactly when it is of the rank, and the least such
        // difference is the lowest id (the first position holding it, on ties).
        let (first, width) = if rank == JOKER { (JOKER_CARD, 1) } else { (rank * 4, 4) };
        let mut best = 0;
        let mut least = width;
        for (i, &c) in self.cards().iter().enumerate() {
            let d = c.wrapping_sub(first);
            if d < least {
                least = d;
                best = i;
            }
        }
        debug_assert!(least < width, "removing a rank that is not held");
        let card = self.cards[best];
        self.by_rank.remove(rank);
        self.cards[best] = self.cards[self.len()];
        card
    }

    /// [`Hand::remove_rank`]'s choice read plainly (the tests compare the two): the position
    /// of the lowest id of `rank`, the first one on ties.
    #[cfg(test)]
    pub fn remove_rank_position_plain(&self, rank: Rank) -> Option<usize> {
        let mut best: Option<usize> = None;
        for (i, &c) in self.cards().iter().enumerate() {
            if rank_of(c) == rank && best.is_none_or(|b| c < self.cards[b]) {
                best = Some(i);
            }
        }
        best
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sorted = self.cards;
        let sorted = &mut sorted[..self.len()];
        sorted.sort_unstable();
        for (i, &c) in sorted.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(&card_name(c))?;
        }
        Ok(())
    }
}
