//! Coverage: how close a set of cards is to a rainbow of one shape.
//!
//! coverage(S, cards) is the largest number of different colors that can each be given a
//! different card matching (shape S, that color): a bipartite matching of colors to cards.
//! For one shape every card stands either for one color (a base card of shape S, a color
//! wild) or for any color (a shape wild of S, an all-wild), or for nothing. A maximum
//! matching then gives every distinct single color its own card and lets the any-color
//! cards fill the rest, so coverage(S) = min(5, |distinct single colors| + |any-color
//! cards|). [`Cover`] keeps that for all five shapes at once in two 64-bit words, one 8-bit
//! lane per shape: a card is added with one OR and one addition, a coverage is read with
//! one popcount. The tests check it against a brute-force matching.

use super::params::KINDS;
use crate::games::chroma::{ALL_COLORS, ALL_SHAPES, COLOR_WILD, Card, SHAPE_WILD};
#[cfg(target_arch = "x86_64")]
use crate::games::simd::V128;

/// One bit in every shape lane.
const LANES: u64 = 0x01_01_01_01_01;

/// Per card kind: (single-color bits, any-color increments), lane `s` = shape `s`.
const TABLE: [(u64, u64); KINDS] = {
    let mut t = [(0u64, 0u64); KINDS];
    let mut k = 0;
    while k < 25 {
        let (color, shape) = (k / 5, k % 5);
        t[k].0 = 1 << (8 * shape + color);
        k += 1;
    }
    let mut c = 0;
    while c < 5 {
        t[COLOR_WILD as usize + c].0 = LANES << c;
        t[SHAPE_WILD as usize + c].1 = 1 << (8 * c);
        c += 1;
    }
    t[ALL_COLORS as usize].1 = LANES;
    t[ALL_SHAPES as usize].1 = LANES;
    t
};

/// The coverage of a multiset of cards for every shape (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cover {
    /// Lane `s`, bit `c`: some card stands for exactly color `c` in shape `s`.
    singles: u64,
    /// Lane `s`: cards that stand for any color in shape `s`.
    any: u64,
}

impl Cover {
    /// No cards.
    pub const EMPTY: Cover = Cover { singles: 0, any: 0 };

    /// The cover of `cards`.
    #[inline]
    pub fn of(cards: &[Card]) -> Cover {
        let mut c = Cover::EMPTY;
        for &card in cards {
            c.add(card);
        }
        c
    }

    /// Adds one card.
    #[inline(always)]
    pub fn add(&mut self, card: Card) {
        let (s, a) = TABLE[card as usize];
        self.singles |= s;
        self.any += a;
    }

    /// Adds `n` copies of one card (none when `n` is 0).
    #[inline(always)]
    pub fn add_copies(&mut self, card: Card, n: u64) {
        let (s, a) = TABLE[card as usize];
        if n > 0 {
            self.singles |= s;
        }
        self.any += a * n;
    }

    /// The cover of both cards of `self` and of `other`.
    #[inline(always)]
    pub fn merge(self, other: Cover) -> Cover {
        Cover { singles: self.singles | other.singles, any: self.any + other.any }
    }

    /// This cover with one more card.
    #[inline(always)]
    pub fn with(mut self, card: Card) -> Cover {
        self.add(card);
        self
    }

    /// coverage(`shape`, cards): 0 to 5.
    #[inline(always)]
    pub fn get(&self, shape: usize) -> u32 {
        let singles = POP5[((self.singles >> (8 * shape)) & 0x1f) as usize] as u32;
        let any = ((self.any >> (8 * shape)) & 0xff) as u32;
        (singles + any).min(5)
    }

    /// Every shape's coverage at once, uncapped: lane `s` = distinct single colors + any-color
    /// cards (a bytewise popcount of the single-color lanes plus the any-color counts).
    #[inline(always)]
    fn uncapped(&self) -> u64 {
        let mut x = self.singles;
        x -= (x >> 1) & (0x55 * LANES);
        x = (x & (0x33 * LANES)) + ((x >> 2) & (0x33 * LANES));
        x = (x + (x >> 4)) & (0x0f * LANES);
        x + self.any
    }

    /// Every shape's coverage at once: lane `s` (8 bits) = coverage(s), 0 to 5.
    #[inline(always)]
    pub fn lanes(&self) -> u64 {
        let x = self.uncapped();
        // Lanes holding 5 or more get their top bit set by adding 0x80 - 5 (no lane exceeds
        // 0x80 - 5 + 38, so nothing carries into the next lane).
        let full = (((x + 0x7b * LANES) >> 7) & LANES) * 0xff;
        (x & !full) | ((5 * LANES) & full)
    }

    /// The single-color part of this cover.
    #[inline(always)]
    pub fn singles(&self) -> u64 {
        self.singles
    }

    /// coverage(`shape`) before the cap at 5: distinct single colors + any-color cards.
    #[inline(always)]
    pub fn uncapped_in(&self, shape: usize) -> u32 {
        POP5[((self.singles >> (8 * shape)) & 0x1f) as usize] as u32 + ((self.any >> (8 * shape)) & 0xff) as u32
    }

    /// What one copy of `card` stands for in `shape`: the colors it gives exactly (a bit
    /// mask, at most one bit) and whether it stands for any color.
    #[inline(always)]
    pub fn card_in(card: Card, shape: usize) -> (u32, bool) {
        let (s, a) = TABLE[card as usize];
        (((s >> (8 * shape)) & 0x1f) as u32, (a >> (8 * shape)) & 0xff != 0)
    }

    /// The kinds one copy of which raises coverage(`shape`) (bit k: kind k): none when it is
    /// 5 already; else the kinds standing for any color in `shape` and those standing for
    /// exactly a color the cover lacks in `shape` (its base card in `shape`, its color wild).
    /// The same as testing `self.with(k).get(shape) > self.get(shape)` for every kind k, as
    /// the tests do, in a few word operations.
    #[inline(always)]
    pub fn raising(&self, shape: usize) -> u64 {
        self.raising_from(shape, self.get(shape))
    }

    /// The first shape (canonical order) with the highest coverage in `first`, ties to the
    /// highest in `second`: `first_max((first.lanes() << 3) | second.lanes())`, both covers'
    /// lanes computed at once in one SSE2 register (part of every x86-64 CPU): the bytewise
    /// popcount of the single colors, plus the any-color counts, capped at 5 by a bytewise
    /// minimum, then the highest key's first lane by a bytewise maximum and a comparison.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub fn first_best_sse2(first: Cover, second: Cover) -> usize {
        // Low half: `second`; high half: `first`. Bytes 5..8 of each half are 0.
        let mut x = V128::from_u64s(first.singles, second.singles);
        x = x.sub8(x.shr16::<1>().and(V128::splat8(0x55)));
        x = x.and(V128::splat8(0x33)).add8(x.shr16::<2>().and(V128::splat8(0x33)));
        x = x.add8(x.shr16::<4>()).and(V128::splat8(0x0f));
        x = x.add8(V128::from_u64s(first.any, second.any));
        x = x.min_u8(V128::splat8(5));
        // Low half: first * 8 + second per shape (at most 45: no byte carries).
        let key = x.or(x.unpack_high64(x).shl64::<3>());
        let mut m = key.max_u8(key.shr64::<32>());
        m = m.max_u8(m.shr64::<16>());
        m = m.max_u8(m.shr64::<8>());
        // Byte 0 of `m` in bytes 0..8.
        let top = m.unpack_low8(m).shuffle_low16::<0>();
        let at = key.eq8(top).mask8() & 0x1f;
        at.trailing_zeros() as usize
    }

    /// The highest coverage over the five shapes.
    #[inline]
    pub fn best(&self) -> u32 {
        let x = self.lanes();
        let mut best = x & 0xff;
        for s in 1..5 {
            best = best.max((x >> (8 * s)) & 0xff);
        }
        best as u32
    }

    /// The highest coverage over the five shapes and the shapes that reach it (bit `s`:
    /// shape `s`): the lanes equal to the highest are the zero bytes of their difference, one
    /// multiplication gathers their top bits into the low five of the upper half.
    #[inline]
    pub fn best_shapes(&self) -> (u32, u32) {
        let x = self.lanes();
        let mut best = x & 0xff;
        for s in 1..5 {
            best = best.max((x >> (8 * s)) & 0xff);
        }
        // Bit 7 of lane s: lane s differs from the highest (every lane is below 0x80, so
        // subtracting 1 from a lane with bit 7 set borrows nothing from the next one).
        let differs = (((x ^ (best * LANES)) | (0x80 * LANES)) - LANES) & (0x80 * LANES);
        let equal = (!differs & (0x80 * LANES)) >> 7;
        // Bit 8s goes to bit 32 + s; every other product lands outside bits 32..37.
        let shapes = (equal.wrapping_mul(1 << 32 | 1 << 25 | 1 << 18 | 1 << 11 | 1 << 4) >> 32) & 0x1f;
        (best as u32, shapes as u32)
    }

    /// The kinds one copy of which raises coverage(`shape`) when it is `now` (this cover's
    /// coverage there, known to the caller): [`Cover::raising`] without reading it again.
    #[inline(always)]
    pub fn raising_from(&self, shape: usize, now: u32) -> u64 {
        debug_assert_eq!(now, self.get(shape));
        if now >= 5 {
            return 0;
        }
        let missing = !(self.singles >> (8 * shape)) & 0x1f;
        RAISING[shape][missing as usize]
    }

    /// The first shape (canonical order) with the highest coverage, and that coverage.
    #[inline]
    pub fn best_shape(&self) -> (usize, u32) {
        first_max(self.lanes())
    }

    /// Whether the cards hold a rainbow: 5 of them that can be given the 5 colors of one shape.
    #[inline(always)]
    pub fn is_rainbow(&self) -> bool {
        (self.uncapped() + 0x7b * LANES) & (0x80 * LANES) != 0
    }
}

/// `RAISING[s][m]`: the kinds that raise coverage(s) of a cover below 5 whose missing single
/// colors in shape s are the set bits of `m`: the shape wild of s, the two all-wilds, and
/// for each missing color c the base card (c, s) and c's color wild.
const RAISING: [[u64; 32]; 5] = {
    let mut t = [[0u64; 32]; 5];
    let mut s = 0;
    while s < 5 {
        let mut m = 0;
        while m < 32 {
            let mut kinds = 1u64 << (SHAPE_WILD as usize + s) | 1u64 << ALL_COLORS | 1u64 << ALL_SHAPES;
            let mut c = 0;
            while c < 5 {
                if m & (1 << c) != 0 {
                    kinds |= 1u64 << (c * 5 + s) | 1u64 << (COLOR_WILD as usize + c);
                }
                c += 1;
            }
            t[s][m] = kinds;
            m += 1;
        }
        s += 1;
    }
    t
};

/// Per card kind: the single color a base card gives (its [`TABLE`] bit, one color of one
/// shape that no other base kind gives), 0 for the wilds.
const BASE_SINGLE: [u64; KINDS] = {
    let mut t = [0u64; KINDS];
    let mut k = 0;
    while k < 25 {
        t[k] = TABLE[k].0;
        k += 1;
    }
    t
};

/// `WILD_COLORS[m]`: the single colors given by the color wilds of the colors whose bits are
/// set in the 5-bit `m`: color c in every shape lane for each set bit c.
const WILD_COLORS: [u64; 32] = {
    let mut t = [0u64; 32];
    let mut m = 0;
    while m < 32 {
        let mut c = 0;
        while c < 5 {
            if m & (1 << c) != 0 {
                t[m] |= LANES << c;
            }
            c += 1;
        }
        m += 1;
    }
    t
};

/// A hand's cover kept up to date as cards come and go, in two parts: the single colors of
/// its base cards (each base kind gives a color no other base kind gives, so the last copy
/// leaving clears just its bit) and the any-color counts; the color wilds' colors are read
/// off the kinds held when the cover is asked for ([`HandCover::cover`]). O(1) add and
/// remove, with no pass over the kinds held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandCover {
    /// Lane `s`, bit `c`: the hand holds the base card of color `c` and shape `s`.
    bases: u64,
    /// Lane `s`: cards that stand for any color in shape `s`.
    any: u64,
}

impl HandCover {
    /// No cards.
    pub const EMPTY: HandCover = HandCover { bases: 0, any: 0 };

    /// Adds one card.
    #[inline(always)]
    pub fn add(&mut self, card: Card) {
        self.bases |= BASE_SINGLE[card as usize];
        self.any += TABLE[card as usize].1;
    }

    /// Takes `copies` copies of `card` out; `last`: no copy of `card` is left.
    #[inline(always)]
    pub fn remove(&mut self, card: Card, copies: u64, last: bool) {
        if last {
            self.bases &= !BASE_SINGLE[card as usize];
        }
        self.any -= TABLE[card as usize].1 * copies;
    }

    /// The cover of the hand's cards, `kinds` being the kinds it holds (bit k: kind k).
    #[inline(always)]
    pub fn cover(&self, kinds: u64) -> Cover {
        Cover { singles: self.bases | WILD_COLORS[((kinds >> COLOR_WILD) & 0x1f) as usize], any: self.any }
    }
}

/// Popcount of 5-bit values.
const POP5: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// The first of the five 8-bit lanes of `lanes` holding the highest value, and that value.
#[inline(always)]
pub fn first_max(lanes: u64) -> (usize, u32) {
    let mut best = (0, (lanes & 0xff) as u32);
    for s in 1..5 {
        let v = ((lanes >> (8 * s)) & 0xff) as u32;
        if v > best.1 {
            best = (s, v);
        }
    }
    best
}

/// The cards a row still needs to hold a rainbow: 5 − its highest coverage (a row of at
/// least 5 slots can always take one useful card more, by adding or replacing one).
#[inline]
pub fn need(cards: &[Card]) -> u32 {
    5 - Cover::of(cards).best()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chroma::matches;

    /// coverage(S, cards) by trying every assignment of cards to colors.
    fn brute(shape: usize, cards: &[Card]) -> u32 {
        fn go(shape: usize, cards: &[Card], i: usize, used: u8) -> u32 {
            if i == cards.len() {
                return used.count_ones();
            }
            let mut best = go(shape, cards, i + 1, used);
            for color in 0..5 {
                if used & (1 << color) == 0 && matches(cards[i], (color * 5 + shape) as u8) {
                    best = best.max(go(shape, cards, i + 1, used | (1 << color)));
                }
            }
            best
        }
        go(shape, cards, 0, 0)
    }

    /// The tests' random numbers: a xorshift step of `x`, returning the new value.
    fn next(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    /// A hand of up to 8 cards read off the random word `x`.
    fn random_hand(x: u64) -> Vec<Card> {
        let n = (x % 9) as usize;
        (0..n).map(|i| ((x >> (5 + 6 * i)) % KINDS as u64) as Card).collect()
    }

    #[test]
    fn coverage_is_the_maximum_matching() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            let cards = random_hand(next(&mut x));
            let c = Cover::of(&cards);
            for shape in 0..5 {
                let want = brute(shape, &cards);
                assert_eq!(c.get(shape), want, "{cards:?} shape {shape}");
                assert_eq!(((c.lanes() >> (8 * shape)) & 0xff) as u32, want, "{cards:?} lane {shape}");
            }
            let best = (0..5).map(|sh| brute(sh, &cards)).max().unwrap_or(0);
            assert_eq!(c.best(), best);
            assert_eq!(c.is_rainbow(), best == 5);
        }
    }

    #[test]
    fn best_shapes_are_the_shapes_of_the_highest_coverage() {
        let mut x: u64 = 0x1234_5678_9ABC_DEF1;
        for _ in 0..20_000 {
            let cards = random_hand(next(&mut x));
            let c = Cover::of(&cards);
            let best = (0..5).map(|sh| c.get(sh)).max().unwrap_or(0);
            let shapes = (0..5).filter(|&sh| c.get(sh) == best).fold(0u32, |m, sh| m | 1 << sh);
            assert_eq!(c.best_shapes(), (best, shapes), "{cards:?}");
        }
        assert_eq!(Cover::EMPTY.best_shapes(), (0, 0x1f));
    }

    #[test]
    fn raising_is_the_kinds_that_raise_the_coverage() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..20_000 {
            let cards = random_hand(next(&mut x));
            let c = Cover::of(&cards);
            for shape in 0..5 {
                let want = (0..KINDS as Card).filter(|&k| c.with(k).get(shape) > c.get(shape)).fold(0u64, |m, k| m | 1 << k);
                assert_eq!(c.raising(shape), want, "{cards:?} shape {shape}");
            }
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn first_best_sse2_is_first_max_of_the_lanes() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut draw = |n: u64| {
            next(&mut x);
            let k = (x % (n + 1)) as usize;
            (0..k).map(|i| ((x >> (3 + 5 * (i % 12))).wrapping_add(i as u64 * 7) % KINDS as u64) as Card).collect::<Vec<Card>>()
        };
        for _ in 0..20_000 {
            let (a, b) = (draw(7), draw(12));
            let first = Cover::of(&a);
            let second = first.merge(Cover::of(&b));
            for (f, s) in [(first, second), (Cover::of(&b), first), (first, first)] {
                assert_eq!(Cover::first_best_sse2(f, s), first_max((f.lanes() << 3) | s.lanes()).0, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn wilds_stand_in() {
        // Red star, red wild (red of any shape), star wild (any color of star), all-colors.
        let red_star = 2;
        let c = Cover::of(&[red_star, COLOR_WILD, SHAPE_WILD + 2, ALL_COLORS]);
        assert_eq!(c.get(2), 3, "stars: red (star or wild, not both), then the star wild and all-colors");
        assert_eq!(c.get(0), 2, "squares: the red wild and the all-colors");
        assert_eq!(Cover::of(&[ALL_SHAPES; 6]).best(), 5);
        assert!(Cover::of(&[0, 5, 10, 15, 20]).is_rainbow(), "the five squares");
        assert!(!Cover::of(&[0, 5, 10, 15, 21]).is_rainbow(), "blue circle is not a square");
    }
}
