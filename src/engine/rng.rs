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
    fn seed_from(seed: u64) -> Self {
        Xoshiro256PlusPlus::seed_from_u64(seed)
    }
}

/// The private stream of `seat`'s bot in the game with `seed`.
#[inline]
pub fn seat_rng(seed: u64, seat: usize) -> GameRng {
    Xoshiro256PlusPlus::seed_from_u64(splitmix64(seed ^ ((seat as u64 + 1) << 56)))
}

/// Fisher-Yates shuffle drawing each index with one 64-bit multiply (Lemire's method
/// without the rejection step: the bias is below n / 2^64, far under any sampling error).
/// About twice as fast as `SliceRandom::shuffle`, which matters when a deck is shuffled
/// every game.
#[inline]
pub fn shuffle<T>(items: &mut [T], rng: &mut GameRng) {
    use rand::Rng;
    for i in (1..items.len()).rev() {
        let j = ((rng.next_u64() as u128 * (i as u128 + 1)) >> 64) as usize;
        items.swap(i, j);
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
