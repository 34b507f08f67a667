//! Re-dealing the cards a seat cannot see, written once for the games' determinizations
//! ([`crate::engine::HiddenInfo::determinize`]): the unseen cards (the draw pile and the other
//! hands' cards not publicly known) are one pool, laid out in canonical order (the real order
//! is hidden, and a sample must depend on the seat's view and the stream only), shuffled, and
//! dealt back to the other hands with their sizes; what stays is the new draw pile.
//!
//! The random draws are exactly those of [`rng::shuffle`] of the pool, once: a game that
//! called it before calling these functions samples the same states from the same stream.

use crate::engine::{GameRng, rng};
use crate::games::chroma::Card;

/// Makes `pool` hold `counts[k]` copies of card `k` for every `k`, in that order: the
/// canonical layout of a pool counted per kind, without a sort.
#[inline]
pub fn lay_out_counts(pool: &mut Vec<Card>, counts: &[u32]) {
    pool.clear();
    for (k, &n) in counts.iter().enumerate() {
        pool.extend(std::iter::repeat_n(k as Card, n as usize));
    }
}

/// Shuffles `pool` ([`rng::shuffle`]) and deals it back: for each seat `o` of `seats` in
/// turn, `start(o)` gives the hand holding what `o` keeps (its publicly known cards, or those
/// a mended sample keeps) and how many cards it lacks to reach its size; those are the last
/// cards of the pool, which `add` gives to it in pool order and which leave the pool, and
/// `place(o, hand)` stores the hand. What stays in `pool` is the new draw pile. No
/// allocation.
///
/// # Panics
/// When the pool holds fewer cards than the hands lack (the game counted its pool wrong).
#[inline]
pub fn shuffle_and_deal<H>(
    pool: &mut Vec<Card>,
    rng: &mut GameRng,
    seats: impl IntoIterator<Item = usize>,
    mut start: impl FnMut(usize) -> (H, usize),
    mut add: impl FnMut(&mut H, Card),
    mut place: impl FnMut(usize, H),
) {
    rng::shuffle(pool, rng);
    for o in seats {
        let (mut hand, lacking) = start(o);
        let rest = pool.len() - lacking;
        for &c in &pool[rest..] {
            add(&mut hand, c);
        }
        pool.truncate(rest);
        place(o, hand);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::SeedFrom;

    /// The deal is the shuffle of the pool, then each seat's missing cards from its end in
    /// pool order, seat after seat; the rest stays, and nothing is lost or made up.
    #[test]
    fn deal_is_the_shuffled_pool_from_its_end() {
        for seed in 0..50u64 {
            let mut pool = Vec::new();
            lay_out_counts(&mut pool, &[2, 0, 3, 1, 4]);
            assert_eq!(pool, [0, 0, 2, 2, 2, 3, 4, 4, 4, 4]);
            let mut expected = pool.clone();
            rng::shuffle(&mut expected, &mut GameRng::seed_from(seed));
            // Seat 1 keeps card 9 and lacks 2 cards; seat 3 keeps nothing and lacks 3.
            let mut hands: [Vec<Card>; 4] = Default::default();
            let mut rng = GameRng::seed_from(seed);
            shuffle_and_deal(&mut pool, &mut rng, [1, 3], |o| if o == 1 { (vec![9], 2) } else { (vec![], 3) }, |h, c| h.push(c), |o, h| hands[o] = h);
            let n = expected.len();
            assert_eq!(hands[1], [&[9][..], &expected[n - 2..]].concat(), "seed {seed}");
            assert_eq!(hands[3], expected[n - 5..n - 2], "seed {seed}");
            assert_eq!(pool, expected[..n - 5], "seed {seed}");
            assert!(hands[0].is_empty() && hands[2].is_empty());
        }
    }
}
