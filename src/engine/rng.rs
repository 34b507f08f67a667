//! Seeds and random streams: one seed per game from (master seed, game index), so game i is
//! the same game for every thread count, shard and variant of a comparison.
//!
//! The generator is named (Xoshiro256++) and printed in reports: `SmallRng` may change
//! algorithm between rand versions, which would silently change every published number.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The random generator of every game and bot.
pub type GameRng = Xoshiro256PlusPlus;

/// Name of the generator, printed beside the seed in reports.
pub const RNG_NAME: &str = "Xoshiro256++";

/// SplitMix64 finaliser: a bijective 64-bit mixer.
#[inline]
pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of game `index` of a run with master seed `master`.
#[inline]
pub fn game_seed(master: u64, index: u64) -> u64 {
    splitmix64(splitmix64(master) ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03))
}

/// Seeding helpers for [`GameRng`].
pub trait SeedFrom {
    /// The game's chance stream for `seed`.
    fn seed_from(seed: u64) -> Self;
}

impl SeedFrom for GameRng {
    #[inline]
    fn seed_from(seed: u64) -> Self {
        seeded(seed)
    }
}

/// `Xoshiro256PlusPlus::seed_from_u64(seed)`, computed directly: its state is the next four
/// outputs of a SplitMix64 started at `seed` (rand_xoshiro fills the seed bytes with them,
/// little-endian), without the byte buffer. Every game seeds five or more streams, so this
/// is on the simulator's per-game path; `seeding_matches_rand_xoshiro` checks it against the
/// crate's own seeding.
#[inline(always)]
fn seeded(seed: u64) -> GameRng {
    const PHI: u64 = 0x9E37_79B9_7F4A_7C15;
    // Written out word by word (no loop over byte chunks): the four mixes are independent,
    // so they overlap, and the bytes are plain stores.
    let words = [
        splitmix64(seed),
        splitmix64(seed.wrapping_add(PHI)),
        splitmix64(seed.wrapping_add(PHI.wrapping_mul(2))),
        splitmix64(seed.wrapping_add(PHI.wrapping_mul(3))),
    ];
    let mut bytes = [0u8; 32];
    bytes[0..8].copy_from_slice(&words[0].to_le_bytes());
    bytes[8..16].copy_from_slice(&words[1].to_le_bytes());
    bytes[16..24].copy_from_slice(&words[2].to_le_bytes());
    bytes[24..32].copy_from_slice(&words[3].to_le_bytes());
    Xoshiro256PlusPlus::from_seed(bytes)
}

/// The private stream of `seat`'s bot in the game with `seed`.
#[inline(always)]
pub fn seat_rng(seed: u64, seat: usize) -> GameRng {
    seeded(splitmix64(seed ^ ((seat as u64 + 1) << 56)))
}

/// Fisher-Yates shuffle drawing each index with one 64-bit multiply (Lemire's method
/// without the rejection step: the bias is below n / 2^64, far under any sampling error).
/// About twice as fast as `SliceRandom::shuffle`, which matters when a deck is shuffled
/// every game.
/// The stream is copied into a local for the loop and written back after it: the same
/// draws, with the generator's state in registers rather than reloaded and stored around
/// every swap.
#[inline]
pub fn shuffle<T>(items: &mut [T], rng: &mut GameRng) {
    use rand::Rng;
    let mut local = rng.clone();
    for i in (1..items.len()).rev() {
        let j = ((local.next_u64() as u128 * (i as u128 + 1)) >> 64) as usize;
        items.swap(i, j);
    }
    *rng = local;
}

/// `SliceRandom::shuffle` of rand 0.10 exactly (the same permutation from the same draws),
/// without its divisions: rand draws one number per run of positions (a chunk) and splits
/// it by dividing by each position's range in turn, a chain of dependent divisions; here each
/// division is a multiplication by the divisor's reciprocal from `divisors`
/// ([`Divisors::up_to`] the slice length), exact for every 32-bit value, and each chunk's
/// range and length are looked up rather than recomputed. Pig Farm has always shuffled with
/// rand's shuffle, so its numbers depend on it; `rand_shuffle_matches_slice_random` checks
/// the two agree.
#[inline]
pub fn rand_shuffle<T>(items: &mut [T], rng_out: &mut GameRng, divisors: &Divisors) {
    use rand::RngExt;
    let len = items.len();
    if len <= 1 {
        return;
    }
    assert!(divisors.runs.len() > len, "divisors up to {} for a slice of {len}", divisors.runs.len().saturating_sub(1));
    // rand's IncreasingUniform from n = 0: position 0 takes index 0 without a draw. Then
    // each chunk is a number below (i + 1) (i + 2) ... (i + count), the mixed-radix digits
    // of positions i .. i + count: every digit but the last is a remainder, the last the
    // quotient left.
    // The stream in a local for the loop (registers, not memory), written back at the end.
    let mut local = rng_out.clone();
    let rng = &mut local;
    // The chunks from position 1 on (`chunks[i]` is the table's `i + 1`), cut to `len`
    // entries: `i < len` is all the compiler needs to see each read in bounds.
    let chunks = &divisors.chunks[1..=len];
    let mut i = 1;
    while i < len {
        let (bound, count) = chunks[i];
        let mut chunk = rng.random_range(..bound);
        let last = i + count as usize - 1;
        let end = last.min(len);
        // Positions i..end. Digit k of the chunk (position i + k, radix i + k + 1) is
        // q_k - (i + k + 1) q_(k+1), where q_k = chunk / ((i + 1) ... (i + k)) is read from the
        // chunk itself with that product's reciprocal (`runs[i][k]`): every quotient comes
        // straight from the chunk, so they overlap, where dividing the running quotient by
        // one radix after another made a chain of dependent multiplications. The remainder
        // is below the radix i + k + 1, so `r.min(pos)` is r itself; written so, the compiler
        // sees that the swap stays inside the slice (`head` and `run` cut to what the loop
        // reads, so it checks no index per position).
        let head = &mut items[..end];
        let run = &divisors.runs[i][..=end - i];
        let mut q = chunk;
        let mut pos = i;
        while pos < end {
            let next = Divisors::quotient(run[pos - i + 1], chunk);
            let r = q - (pos as u32 + 1) * next;
            q = next;
            head.swap(pos, (r as usize).min(pos));
            pos += 1;
        }
        chunk = q;
        i = end;
        if i == last && i < len {
            // The last digit is the quotient left, below last + 1: `min` as above.
            items.swap(i, (chunk as usize).min(i));
            i += 1;
        }
    }
    *rng_out = local;
}

/// What [`rand_shuffle`] looks up for slices of up to n items: the chunk rand draws from at
/// each position, and the reciprocals `u64::MAX / d + 1` (Lemire, Kaser and Kurz, "Faster
/// remainder by direct computation", 2019; exact for 32-bit dividends) of the products of a
/// chunk's first radices.
#[derive(Clone, Debug)]
pub struct Divisors {
    /// For m = 2..=n, rand's `calculate_bound_u32(m)`: the range of the chunk drawn when
    /// position m - 1 starts one, and how many positions it serves.
    chunks: Vec<(u32, u8)>,
    /// For a chunk starting at position i (0..=n): slot k (1 to the chunk's positions - 1)
    /// holds the reciprocal of (i + 1) (i + 2) ... (i + k), the product of its first k
    /// radices (below 2^32, as the chunk's range is); slot 0 and the rest are unused.
    runs: Vec<[u64; MAX_RUN]>,
}

/// Most positions one chunk of [`rand_shuffle`] serves: 2 x 3 x ... x 13 is below 2^32, with
/// 14 it is not; one slot more for the quotient past the last remainder.
const MAX_RUN: usize = 13;

impl Divisors {
    /// The chunks and their reciprocals for shuffles of up to n items.
    pub fn up_to(n: usize) -> Divisors {
        Divisors {
            chunks: (0..=n as u32).map(|m| Divisors::bound(m.max(2))).collect(),
            runs: (0..=n as u64)
                .map(|i| {
                    let mut run = [0u64; MAX_RUN];
                    if i == 0 {
                        // Position 0 takes index 0 without a draw: no chunk starts there.
                        return run;
                    }
                    let (bound, count) = Divisors::bound(i as u32 + 1);
                    let mut product = 1u64;
                    for (k, slot) in run.iter_mut().enumerate().take(count as usize).skip(1) {
                        product *= i + k as u64;
                        debug_assert!(product <= u64::from(bound));
                        *slot = u64::MAX / product + 1;
                    }
                    run
                })
                .collect(),
        }
    }

    /// `x / d` given `m`, the reciprocal of `d` (`u64::MAX / d + 1`, `d` below 2^32): exact
    /// for every 32-bit `x` (Lemire, Kaser and Kurz).
    #[inline(always)]
    fn quotient(m: u64, x: u32) -> u32 {
        ((m as u128 * x as u128) >> 64) as u32
    }

    /// rand's `calculate_bound_u32`: the product m (m+1) ... of as many factors as fit in
    /// a u32, and their count.
    fn bound(m: u32) -> (u32, u8) {
        let (mut product, mut current) = (m, m + 1);
        loop {
            match product.checked_mul(current) {
                Some(p) => {
                    product = p;
                    current += 1;
                }
                None => return (product, (current - m) as u8),
            }
        }
    }
}

/// A uniform integer in `0..n` (`n >= 1`): Lemire's multiply-and-shift with his rejection
/// step, so exactly uniform, and one 32-bit draw in all but a vanishing share of calls.
/// Bots call it once per decision, where `random_range`'s generic path costs several times
/// as much.
#[inline]
pub fn below(n: u32, rng: &mut GameRng) -> u32 {
    use rand::Rng;
    debug_assert!(n >= 1);
    let mut m = rng.next_u32() as u64 * n as u64;
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = rng.next_u32() as u64 * n as u64;
        }
    }
    (m >> 32) as u32
}

/// A fixed probability tested with one integer comparison. It draws exactly as
/// `p > 0.0 && rng.random::<f64>() < p` does (no draw when `p` is 0; otherwise one 64-bit
/// draw whose top 53 bits, as `random::<f64>` uses them, are compared with `p` x 2^53
/// rounded up), so switching a bot to it changes no result, only the cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chance {
    /// Draws `x` (top 53 bits) below this succeed; 0 means never (and no draw).
    threshold: u64,
}

impl Chance {
    /// The chance `p` (0 to 1).
    pub fn new(p: f64) -> Self {
        let threshold = if p > 0.0 { (p.min(1.0) * (1u64 << 53) as f64).ceil() as u64 } else { 0 };
        Chance { threshold }
    }

    /// The chance of a hit (as stored: `p` rounded up to a multiple of 2^-53).
    pub fn probability(self) -> f64 {
        self.threshold as f64 / (1u64 << 53) as f64
    }

    /// One trial.
    #[inline]
    pub fn hit(self, rng: &mut GameRng) -> bool {
        use rand::Rng;
        self.threshold > 0 && (rng.next_u64() >> 11) < self.threshold
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    #[test]
    fn rand_shuffle_matches_slice_random() {
        use rand::seq::SliceRandom;
        let divisors = Divisors::up_to(300);
        for len in 0..300usize {
            for seed in 0..20 {
                let (mut a, mut b) = (GameRng::seed_from(seed * 1000 + len as u64), GameRng::seed_from(seed * 1000 + len as u64));
                let mut x: Vec<usize> = (0..len).collect();
                let mut y = x.clone();
                x.shuffle(&mut a);
                rand_shuffle(&mut y, &mut b, &divisors);
                assert_eq!(x, y, "len {len} seed {seed}");
                assert_eq!(a, b, "same draws for len {len}");
            }
        }
        // Every run's quotients by reciprocal against edge dividends: the products of 1 to 12
        // consecutive radices from every start position.
        for (i, run) in divisors.runs.iter().enumerate().skip(1) {
            let (_, count) = Divisors::bound(i as u32 + 1);
            let mut d = 1u32;
            for (k, &m) in run.iter().enumerate().take(count as usize).skip(1) {
                d *= i as u32 + k as u32;
                for x in [0, 1, d - 1, d, d.saturating_add(1), u32::MAX, u32::MAX - 1, u32::MAX / d * d, 0x8000_0000] {
                    assert_eq!(Divisors::quotient(m, x), x / d, "{x} / {d}");
                }
            }
        }
    }

    #[test]
    fn seeding_matches_rand_xoshiro() {
        let mut mixer = 0x1234_5678_u64;
        for k in 0..100_000u64 {
            mixer = splitmix64(mixer);
            for seed in [k, u64::MAX - k, mixer] {
                assert_eq!(seeded(seed), Xoshiro256PlusPlus::seed_from_u64(seed), "seed {seed}");
            }
        }
    }

    #[test]
    fn chance_draws_exactly_as_the_float_comparison() {
        for p in [0.0, 1e-17, 0.1, 0.3, 0.5, 2.0 / 3.0, 0.999_999, 1.0] {
            let chance = Chance::new(p);
            let (mut a, mut b) = (GameRng::seed_from(9), GameRng::seed_from(9));
            for _ in 0..20_000 {
                assert_eq!(chance.hit(&mut a), p > 0.0 && b.random::<f64>() < p, "p = {p}");
            }
            assert_eq!(a, b, "same draws consumed for p = {p}");
        }
    }

    #[test]
    fn below_is_uniform_and_in_range() {
        let mut rng = GameRng::seed_from(3);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[below(7, &mut rng) as usize] += 1;
        }
        assert!(counts.iter().all(|&c| (9_300..10_700).contains(&c)), "{counts:?}");
    }
}

/// Sorts cards (each a kind id: copies are alike) in ascending order by counting each kind:
/// the order `sort_unstable` gives, in a pass over the cards and one over the kinds held. A
/// determinization lays its pool out in this canonical order before shuffling it; the sort
/// was a sixth of a `model=default` search in Pig Farm, a tenth in Beaver Mania.
pub fn sort_cards(cards: &mut [u8]) {
    let mut counts = [0u16; 256];
    let mut top = 0;
    for &c in cards.iter() {
        counts[c as usize] += 1;
        top = top.max(c as usize);
    }
    let mut at = 0;
    for (kind, &n) in counts[..=top].iter().enumerate() {
        cards[at..at + n as usize].fill(kind as u8);
        at += n as usize;
    }
}

/// For a sample re-dealt near an older one ([`crate::engine::HiddenInfo::mend`]): of the cards a
/// hidden hand held in the old sample (`old`, counts per card kind), the ones `pool` (the
/// cards left to deal, counts per kind) still has, at most `slots` of them, chosen at random
/// when more fit. Writes their counts into `kept` and takes them out of `pool`.
pub fn keep_near(old: &[u32], pool: &mut [u32], slots: usize, rng: &mut GameRng, kept: &mut [u32]) {
    let mut fit = 0;
    for ((k, &o), &p) in kept.iter_mut().zip(old).zip(pool.iter()) {
        *k = o.min(p);
        fit += *k as usize;
    }
    while fit > slots {
        let mut r = below(fit as u32, rng);
        for k in kept.iter_mut() {
            if r < *k {
                *k -= 1;
                break;
            }
            r -= *k;
        }
        fit -= 1;
    }
    for (p, k) in pool.iter_mut().zip(kept.iter()) {
        *p -= k;
    }
}

#[cfg(test)]
mod card_tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The counting sort lays cards out as `sort_unstable` does.
        #[test]
        fn cards_are_sorted_as_sort_unstable_sorts_them(mut cards in proptest::collection::vec(any::<u8>(), 0..200)) {
            let mut expected = cards.clone();
            expected.sort_unstable();
            sort_cards(&mut cards);
            prop_assert_eq!(cards, expected);
        }
    }

    /// Only cards the pool still has are kept, never more than the slots, and they leave
    /// the pool.
    #[test]
    fn keeps_what_the_pool_still_has_up_to_the_slots() {
        let mut rng = GameRng::seed_from(4);
        let (old, mut pool, mut kept) = ([2, 1, 0, 3], [1, 1, 5, 3], [0; 4]);
        keep_near(&old, &mut pool, 10, &mut rng, &mut kept);
        assert_eq!((kept, pool), ([1, 1, 0, 3], [0, 0, 5, 0]));
        for seed in 0..50 {
            let (mut pool, mut kept) = ([1, 1, 5, 3], [0; 4]);
            keep_near(&old, &mut pool, 3, &mut GameRng::seed_from(seed), &mut kept);
            assert_eq!(kept.iter().sum::<u32>(), 3);
            assert!(kept.iter().zip(&[1, 1, 0, 3]).all(|(k, most)| k <= most));
            assert_eq!(pool[2], 5);
        }
    }
}
