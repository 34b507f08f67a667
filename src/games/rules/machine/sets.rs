//! Sets of cards counted and ranked: binomial coefficients, combinations in lexicographic
//! order, and [`Block`], a decision's choices when they are all sets of one action.

use super::{CHOICE_LIMIT, Choice};

/// The positions 0..64 in order: the candidates of a choice of cards without a condition.
pub(super) const POSITIONS: [u8; 64] = {
    let mut p = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        p[i] = i as u8;
        i += 1;
    }
    p
};

/// Binomial coefficients up to 64 (saturated at `u64::MAX`), for counting sets of cards.
static BINOMIAL: [[u64; 65]; 65] = {
    let mut t = [[0u64; 65]; 65];
    let mut n = 0;
    while n <= 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1].saturating_add(t[n - 1][k]);
            k += 1;
        }
        n += 1;
    }
    t
};

/// The number of `k`-sets of `n` things (0 when `k > n`; `n`, `k` at most 64).
#[inline]
pub(super) fn binomial(n: usize, k: usize) -> u64 {
    if k > n || n > 64 { 0 } else { BINOMIAL[n][k] }
}

/// The set of rank `r` among the `k`-sets of the candidate positions `pos`, in the
/// lexicographic order [`next_combination`] walks, as a mask of positions.
pub(super) fn unrank_combination(mut r: usize, pos: &[u8], k: usize) -> u64 {
    let n = pos.len();
    let mut mask = 0u64;
    let mut x = 0usize;
    for i in 0..k {
        // Sets whose i-th index is x: those taking their k - i - 1 others above x.
        while x + 1 < n {
            let with_x = binomial(n - x - 1, k - i - 1) as usize;
            if r < with_x {
                break;
            }
            r -= with_x;
            x += 1;
        }
        mask |= 1 << pos[x];
        x += 1;
    }
    mask
}

/// The next combination of `idx.len()` indices below `n` in lexicographic order; false after
/// the last.
pub(super) fn next_combination(idx: &mut [usize], n: usize) -> bool {
    let k = idx.len();
    let mut i = k;
    while i > 0 {
        i -= 1;
        if idx[i] < n - k + i {
            idx[i] += 1;
            for j in i + 1..k {
                idx[j] = idx[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

/// The legal choices of a decision when they are all sets of cards of one action and
/// argument ([`State::block`](super::State::block)): the sets of `lo..=hi` of the candidate
/// positions, smallest first, then in lexicographic order, as `Bound::count_or_pick` ranks them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Block {
    /// The action.
    pub action: u16,
    /// Its argument.
    pub arg: i64,
    /// Candidate positions (bit i: position i), `n` of them.
    pub cand: u64,
    /// How many candidates.
    pub n: u8,
    /// Fewest cards in a set.
    pub lo: u8,
    /// Most cards in a set.
    pub hi: u8,
}

impl Block {
    /// The choice of rank `r` (below the block's count).
    pub(super) fn choice(&self, mut r: usize) -> Choice {
        let n = self.n as usize;
        let mut k = self.lo as usize;
        while k < self.hi as usize {
            let count = binomial(n, k).min(CHOICE_LIMIT as u64) as usize;
            if r < count {
                break;
            }
            r -= count;
            k += 1;
        }
        // The set among candidates 0..n, then each candidate's bit moved to its position.
        let ranks = unrank_combination(r, &POSITIONS[..n], k);
        Choice { action: self.action, arg: self.arg, cards: deposit(ranks, self.cand) }
    }
}

/// The mask of positions `0..n` (`n` at most 64).
#[inline]
pub(super) fn low_mask(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// Bit i of `bits` moved to the place of the i-th set bit of `places` (lowest first).
#[inline]
fn deposit(bits: u64, places: u64) -> u64 {
    if places & places.wrapping_add(1) == 0 {
        // The candidates are positions 0..n: every bit stays where it is.
        return bits & places;
    }
    let (mut out, mut rest, mut i) = (0u64, places, 0);
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        if bits & (1 << i) != 0 {
            out |= low;
        }
        rest ^= low;
        i += 1;
    }
    out
}
