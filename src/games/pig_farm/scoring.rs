//! Pig Farm's scoring applied to a hand: the seller's table, set-size bonuses and the
//! all-pigs bonus, and the non-sellers' table (docs/games/pig-farm.md).

use super::params::{KINDS, MAX_BASE_SETS, Scoring};
use super::rules::Hand;

impl Scoring {
    /// Points of the player who sells with `hand`: the seller table by sets (continued by
    /// the increment), plus the bonus of every set by its size, plus the all-pigs bonus
    /// when no pig is unmatched. Read from the hand's bit sets (the kinds held twice or
    /// more are `held & !singles`; a pig is unmatched when `singles` is not empty): a few
    /// iterations, one per set, instead of a branch on each of the 25 counts, which random
    /// hands mispredicted about eight times a game. `Scoring::seller_points_plain` is the
    /// same rule read off the counts (`seller_points_matches_the_plain_scan`).
    #[inline]
    pub fn seller_points(&self, hand: &Hand) -> i64 {
        let mut points = self.seller[(hand.sets() as usize).min(KINDS)];
        let mut sets = hand.held() & !hand.singles();
        while sets != 0 {
            let kind = sets.trailing_zeros() as usize;
            sets &= sets - 1;
            points += self.set_bonus[(hand.counts()[kind % KINDS] as usize).min(MAX_BASE_SETS as usize)];
        }
        if hand.singles() == 0 {
            points += self.all_pigs_bonus;
        }
        points
    }

    /// [`Scoring::seller_points`] as a scan of the counts in canonical order.
    #[cfg(test)]
    pub fn seller_points_plain(&self, hand: &Hand) -> i64 {
        let mut points = self.seller[(hand.sets() as usize).min(KINDS)];
        let mut unmatched = false;
        for &c in hand.counts() {
            match c {
                0 => {}
                1 => unmatched = true,
                c => points += self.set_bonus[(c as usize).min(MAX_BASE_SETS as usize)],
            }
        }
        if !unmatched {
            points += self.all_pigs_bonus;
        }
        points
    }

    /// Points of a player who did not sell, holding `hand`: the non-seller table by sets.
    #[inline]
    pub fn other_points(&self, hand: &Hand) -> i64 {
        self.others[(hand.sets() as usize).min(KINDS)]
    }
}
