//! Re-dealing the cards a seat cannot see, written once for the games' determinizations
//! ([`crate::engine::HiddenInfo::determinize`]): the unseen cards (the draw pile and the other
//! hands' cards not publicly known) are one pool, laid out in canonical order (the real order
//! is hidden, and a sample must depend on the seat's view and the stream only), shuffled, and
//! dealt back to the other hands with their sizes; what stays is the new draw pile (or, in a
//! game whose pool gathers several zones, the cards those zones take back in turn).
//! [`shuffle_and_deal`] is the common shape; [`deal`] serves the others: hands dealt from the
//! pool's front, hands that keep their cards' order, a pool held in a slice.
//!
//! The random draws are exactly those of [`rng::shuffle`] of the pool, once: a game that
//! called it before calling these functions samples the same states from the same stream.

use std::ops::Range;

use crate::engine::{GameRng, rng};
use crate::games::chroma::Card;

/// Makes `pool` hold `counts[k]` copies of card `k` for every `k`, in that order: the
/// canonical layout of a pool counted per kind, without a sort.
#[inline]
pub fn lay_out_counts<N: Copy + Into<u32>>(pool: &mut Vec<Card>, counts: &[N]) {
    pool.clear();
    for (k, &n) in counts.iter().enumerate() {
        pool.extend(std::iter::repeat_n(k as Card, n.into() as usize));
    }
}

/// Where in the shuffled pool the hands take their cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakeFrom {
    /// From its end: the first seat dealt takes the very last cards, the next seat the ones
    /// before them, and what stays is the pool's beginning.
    End,
    /// From its front: the first seat dealt takes the first cards, the next seat the ones
    /// after them, and what stays is the pool's end.
    Front,
}

/// Deals the (shuffled) `pool` to `seats` without drawing anything: for each seat `o` in
/// turn, `start(o)` gives the hand holding what `o` keeps and how many cards it lacks, `give`
/// hands it those cards (the next block of the pool, from its end or its front, as a slice in
/// pool order: a hand that keeps its cards' order may take them last first), and
/// `place(o, hand)` stores the hand. Returns the range of the pool no hand took. No
/// allocation.
///
/// # Panics
/// When the pool holds fewer cards than the hands lack (the game counted its pool wrong).
#[inline]
pub fn deal<H>(
    pool: &[Card],
    from: TakeFrom,
    seats: impl IntoIterator<Item = usize>,
    mut start: impl FnMut(usize) -> (H, usize),
    mut give: impl FnMut(&mut H, &[Card]),
    mut place: impl FnMut(usize, H),
) -> Range<usize> {
    let mut rest = 0..pool.len();
    for o in seats {
        let (mut hand, lacking) = start(o);
        let taken = match from {
            TakeFrom::End => {
                rest.end -= lacking;
                rest.end..rest.end + lacking
            }
            TakeFrom::Front => {
                rest.start += lacking;
                rest.start - lacking..rest.start
            }
        };
        give(&mut hand, &pool[taken]);
        place(o, hand);
    }
    assert!(rest.start <= rest.end, "the pool holds every hidden card");
    rest
}

/// Shuffles `pool` ([`rng::shuffle`]) and deals it back from its end ([`deal`] with
/// [`TakeFrom::End`]), the hands taking their cards one by one with `add`, in pool order; what
/// stays in `pool` is the new draw pile. No allocation.
///
/// # Panics
/// When the pool holds fewer cards than the hands lack (the game counted its pool wrong).
#[inline]
pub fn shuffle_and_deal<H>(
    pool: &mut Vec<Card>,
    rng: &mut GameRng,
    seats: impl IntoIterator<Item = usize>,
    start: impl FnMut(usize) -> (H, usize),
    mut add: impl FnMut(&mut H, Card),
    place: impl FnMut(usize, H),
) {
    rng::shuffle(pool, rng);
    let give = |hand: &mut H, cards: &[Card]| {
        for &c in cards {
            add(hand, c);
        }
    };
    let rest = deal(pool, TakeFrom::End, seats, start, give, place);
    pool.truncate(rest.end);
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
            lay_out_counts(&mut pool, &[2u32, 0, 3, 1, 4]);
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

    /// From the front, each seat takes the next block in pool order and the rest is the
    /// pool's end; from the end, the blocks come from the end backwards and the rest is the
    /// pool's beginning.
    #[test]
    fn deal_takes_blocks_from_either_side() {
        let pool: Vec<Card> = (10..20).collect();
        let mut got: Vec<(usize, Vec<Card>)> = Vec::new();
        let rest = deal(&pool, TakeFrom::Front, [2, 0], |o| (vec![o as Card], o + 1), |h, cs| h.extend_from_slice(cs), |o, h| got.push((o, h)));
        assert_eq!(got, [(2, vec![2, 10, 11, 12]), (0, vec![0, 13])]);
        assert_eq!(rest, 4..10);
        got.clear();
        let rest = deal(&pool, TakeFrom::End, [2, 0], |o| (vec![], o + 1), |h, cs| h.extend(cs.iter().rev()), |o, h| got.push((o, h)));
        assert_eq!(got, [(2, vec![19, 18, 17]), (0, vec![16])]);
        assert_eq!(rest, 0..6);
    }
}
