//! Cards counted per kind, for the games whose hands are multisets of at most 32 kinds: the
//! count of each kind, the kinds held as a bit set (scans go bit by bit, not kind by kind)
//! and the total, kept together with no heap and O(1) add and remove. Beaver Mania's hands
//! and zones are one, and so are Bluffing Joker's hands' counts by rank (beside their cards:
//! the honest line-ups count 1.2-1.5% more instructions a game than with its own counts, the
//! bluffers' 3.3% fewer). Pig Farm's hand (the same counts plus the kinds held once) was
//! measured on it and kept its own: one row of `benches/instructions.py` rose 0.85%; it
//! reads its kinds with [`Kinds`].

use std::fmt;

/// Cards of `N` kinds (`N` at most 32) counted per kind, at most 255 copies of a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindCounts<const N: usize> {
    counts: [u8; N],
    held: u32,
    len: u16,
}

impl<const N: usize> Default for KindCounts<N> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const N: usize> KindCounts<N> {
    /// No card.
    pub const EMPTY: Self = {
        assert!(N <= 32, "the kinds held are a 32-bit set");
        KindCounts { counts: [0; N], held: 0, len: 0 }
    };

    /// Holding `cards` (each below `N`).
    pub fn from_cards(cards: &[u8]) -> Self {
        let mut h = Self::EMPTY;
        for &c in cards {
            h.add(c);
        }
        h
    }

    /// Copies of `card` held.
    #[inline]
    pub fn count(&self, card: u8) -> u32 {
        self.counts[card as usize] as u32
    }

    /// Counts per kind, in canonical order.
    #[inline]
    pub fn counts(&self) -> &[u8; N] {
        &self.counts
    }

    /// The kinds held as a bit set (bit k set when kind k is held).
    #[inline]
    pub fn held(&self) -> u32 {
        self.held
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
    pub fn has(&self, card: u8) -> bool {
        self.held & (1 << card) != 0
    }

    /// The kinds held, lowest first.
    #[inline]
    pub fn kinds(&self) -> Kinds {
        Kinds(self.held)
    }

    /// Cards held of the kinds in `mask` (bit k = kind k).
    #[inline]
    pub fn count_in(&self, mask: u32) -> u32 {
        Kinds(mask & self.held).map(|k| self.counts[k as usize] as u32).sum()
    }

    /// Adds one card.
    #[inline]
    pub fn add(&mut self, card: u8) {
        self.counts[card as usize] += 1;
        self.held |= 1 << card;
        self.len += 1;
    }

    /// Adds `n` copies of `card`.
    #[inline]
    pub fn add_n(&mut self, card: u8, n: u32) {
        if n > 0 {
            self.counts[card as usize] += n as u8;
            self.held |= 1 << card;
            self.len += n as u16;
        }
    }

    /// Adds every card of `other`.
    pub fn add_all(&mut self, other: &Self) {
        for k in other.kinds() {
            self.add_n(k, other.count(k));
        }
    }

    /// Removes `n` copies of `card`; the caller checks that they are held.
    #[inline]
    pub fn remove_n(&mut self, card: u8, n: u32) {
        let c = &mut self.counts[card as usize];
        debug_assert!(*c as u32 >= n, "removing cards that are not held");
        *c -= n as u8;
        if *c == 0 {
            self.held &= !(1 << card);
        }
        self.len -= n as u16;
    }

    /// Removes one `card`; the caller checks that it is held.
    #[inline]
    pub fn remove(&mut self, card: u8) {
        self.remove_n(card, 1)
    }

    /// Writes the cards as `2 x name, name`, kind by kind, `name` naming a kind.
    pub fn write_named(&self, f: &mut fmt::Formatter<'_>, name: impl Fn(u8) -> String) -> fmt::Result {
        for (i, k) in self.kinds().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            let n = self.count(k);
            if n > 1 { write!(f, "{n} x {}", name(k))? } else { f.write_str(&name(k))? }
        }
        Ok(())
    }
}

/// The kinds of a bit set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Kinds(pub u32);

impl Iterator for Kinds {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        (self.0 != 0).then(|| {
            let k = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            k
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Adding and removing keep the counts, the bit set of kinds held and the total in step
    /// with a plain count of the cards.
    #[test]
    fn counts_kinds_and_total_agree() {
        let mut h = KindCounts::<29>::from_cards(&[3, 28, 3, 0, 3]);
        assert_eq!((h.count(3), h.count(28), h.count(1), h.len()), (3, 1, 0, 5));
        assert_eq!(h.kinds().collect::<Vec<_>>(), [0, 3, 28]);
        assert_eq!(h.count_in(1 << 3 | 1 << 28 | 1 << 5), 4);
        h.remove(28);
        assert!(!h.has(28) && h.has(3));
        h.remove_n(3, 3);
        assert_eq!((h.held(), h.len()), (1, 1));
        let mut g = KindCounts::<29>::EMPTY;
        g.add_n(7, 2);
        g.add_all(&h);
        assert_eq!(g, KindCounts::from_cards(&[7, 0, 7]));
        g.remove_n(7, 2);
        assert_eq!(g, KindCounts::from_cards(&[0]));
    }
}
