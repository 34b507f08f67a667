//! Match Patch's determinization and observation for search bots (see the module doc of
//! the game, "Determinization"): the deciding seat keeps its hand, the patch (every slot's
//! card was announced) and every card publicly known to be in a hand; the other hands'
//! unknown cards and the draw pile are one pool, shuffled and dealt back with the same
//! sizes, redrawn while a hand would break what the table knows of it.

use std::fmt::Write;

use super::MatchPatch;
use super::params::{HAND_CAP, KINDS, MAX_PLAYERS};
use super::rules::State;
use crate::engine::{GameRng, HiddenInfo, rng};
use crate::games::chroma::{Card, cell_name};
use crate::games::deal;

/// Whole re-deals tried before the last one is mended card by card.
const TRIES: u32 = 32;

/// The other hands being re-dealt: their cards by position (known cards in place), the
/// positions to fill from the pool (`slots[k]` takes the pool's card `k` after the pile), and
/// which hands are constrained (no pair, no excluded kind).
struct Deal {
    hands: [[Card; HAND_CAP]; MAX_PLAYERS],
    slots: [(u8, u8); MAX_PLAYERS * HAND_CAP],
    unknown: usize,
    constrained: u32,
}

impl Deal {
    /// Puts the pool's cards (after the pile) into the unknown positions.
    fn fill(&mut self, pool: &[Card]) {
        for (k, &c) in pool[..self.unknown].iter().enumerate() {
            let (o, i) = self.slots[k];
            self.hands[o as usize][i as usize] = c;
        }
    }

    /// Whether the card of unknown position `k` fits its hand: with `belief`, no kind its
    /// holder passed up while holding it ([`Hand::passed_up`]); then an unconstrained hand
    /// takes anything, a constrained one no kind it is known not to hold and no second copy.
    fn fits(&self, s: &State, k: usize, belief: bool) -> bool {
        let (o, i) = (self.slots[k].0 as usize, self.slots[k].1 as usize);
        let hand = &self.hands[o][..s.hands[o].len()];
        let card = hand[i];
        if belief && s.hands[o].passed_up(i) >> card & 1 != 0 {
            return false;
        }
        if self.constrained >> o & 1 == 0 {
            return true;
        }
        s.excluded[o] >> card & 1 == 0 && hand.iter().enumerate().all(|(j, &c)| j == i || c != card)
    }

    /// Mends a deal that broke a constraint by a local search: each unknown position whose
    /// card does not fit swaps it with a card of the pool (the pile or another unknown
    /// position) such that both fit, scanning from a random start, or else with one that
    /// fits here (the other position is mended in a later pass). After 64 passes it gives
    /// up (returns false): a sample the seat would know to be impossible, never an
    /// unconserved one. `belief` as in [`Deal::fits`].
    fn repair(&mut self, s: &State, pool: &mut [Card], pile_len: usize, rng: &mut GameRng, belief: bool) -> bool {
        let n = pool.len();
        for _ in 0..64 {
            let mut clean = true;
            for k in 0..self.unknown {
                if self.fits(s, k, belief) {
                    continue;
                }
                clean = false;
                let start = rng::below(n as u32, rng) as usize;
                let mut fallback = None;
                for q in (0..n).map(|d| (start + d) % n).filter(|&q| q != pile_len + k) {
                    self.swap(pool, pile_len, pile_len + k, q);
                    if self.fits(s, k, belief) {
                        if q.checked_sub(pile_len).is_none_or(|m| self.fits(s, m, belief)) {
                            fallback = None;
                            break;
                        }
                        fallback = fallback.or(Some(q));
                    }
                    self.swap(pool, pile_len, pile_len + k, q);
                }
                if let Some(q) = fallback {
                    self.swap(pool, pile_len, pile_len + k, q);
                }
            }
            if clean {
                return true;
            }
        }
        false
    }

    /// Swaps pool positions `a` and `b`, keeping the hands in step.
    fn swap(&mut self, pool: &mut [Card], pile_len: usize, a: usize, b: usize) {
        pool.swap(a, b);
        for p in [a, b] {
            if let Some(k) = p.checked_sub(pile_len) {
                let (o, i) = self.slots[k];
                self.hands[o as usize][i as usize] = pool[p];
            }
        }
    }
}

impl HiddenInfo for MatchPatch {
    /// No seat samples: `known`, `excluded` and the passed-up kinds are no longer kept.
    fn skip_sample_records(&self, s: &mut State) {
        s.records = false;
    }

    /// [`crate::engine::HiddenInfo::observation`]: everything `seat` sees, as canonical text.
    fn observation(&self, s: &State, seat: usize) -> String {
        let n = self.players;
        let mut t = String::new();
        let _ = write!(
            t,
            "seat {seat}; current {}; phase {:?}; turns {}; placed {}; draws {} + {}; end {}; pile {}; pairs {:?}; laid {:?}; patch",
            s.current,
            s.phase,
            s.turns,
            s.placed,
            s.pile_draws,
            s.patch_draws,
            s.end_reason,
            s.pile.len(),
            &s.pairs[..n],
            s.laid
        );
        for slot in s.patch.iter() {
            let _ = write!(t, " {}:{}", slot.serial, cell_name(slot.card));
        }
        for o in 0..n {
            let _ = write!(t, "; seat {o}: {} cards", s.hands[o].len());
            if o == seat {
                let _ = write!(t, " [{}]", s.hands[o]);
            } else {
                for k in (0..KINDS).filter(|&k| s.known[o][k] > 0) {
                    let _ = write!(t, " {}x{}", cell_name(k as Card), s.known[o][k]);
                }
                let _ = write!(t, " not {:#x}", s.excluded[o]);
            }
        }
        t
    }

    /// [`crate::engine::HiddenInfo::determinize`]: `out` becomes `s` with the cards `seat` cannot
    /// locate re-dealt at random; no allocation once `out`'s pile has grown to the pool's size.
    fn determinize(&self, s: &State, seat: usize, rng: &mut GameRng, out: &mut State) {
        // Destructured so that a new field of `State` must be placed here.
        let State { pile, patch, hands, pairs, laid, current, phase, turns, placed, pile_draws, patch_draws, end_reason, known, excluded, records } = s;
        debug_assert!(*records, "a sample of a table whose seats said they never sample");
        out.records = *records;
        out.patch.clone_from(patch);
        out.hands = *hands;
        out.pairs = *pairs;
        out.laid = *laid;
        out.current = *current;
        out.phase = *phase;
        out.turns = *turns;
        out.placed = *placed;
        out.pile_draws = *pile_draws;
        out.patch_draws = *patch_draws;
        out.end_reason = *end_reason;
        out.known = *known;
        out.excluded = *excluded;
        // The pool: the pile and the other hands' cards not publicly known, counted per kind
        // and laid out in canonical order (the pile's real order is hidden, and a sample must
        // depend on the seat's view and the stream only).
        let mut counts = [0u32; KINDS];
        for &c in pile {
            counts[c as usize] += 1;
        }
        for o in (0..self.players).filter(|&o| o != seat) {
            for (k, &n) in known[o].iter().enumerate() {
                counts[k] += hands[o].count(k as Card).saturating_sub(n as u32);
            }
        }
        deal::lay_out_counts(&mut out.pile, &counts);
        let pile_len = pile.len();
        let mut deal = Deal { hands: [[0; HAND_CAP]; MAX_PLAYERS], slots: [(0, 0); MAX_PLAYERS * HAND_CAP], unknown: 0, constrained: 0 };
        for o in (0..self.players).filter(|&o| o != seat) {
            // A hand that has finished a turn and is not the current one holds no pair and
            // no kind it is known to have given up.
            if o != *current as usize && *turns as usize > o {
                deal.constrained |= 1 << o;
            }
            let mut left = known[o];
            for (i, &c) in hands[o].cards().iter().enumerate() {
                if left[c as usize] > 0 {
                    left[c as usize] -= 1;
                    deal.hands[o][i] = c;
                } else {
                    deal.slots[deal.unknown] = (o as u8, i as u8);
                    deal.unknown += 1;
                }
            }
        }
        let mut ok = false;
        for _ in 0..TRIES {
            rng::shuffle(&mut out.pile, rng);
            deal.fill(&out.pile[pile_len..]);
            if (0..deal.unknown).all(|k| deal.fits(s, k, true)) {
                ok = true;
                break;
            }
        }
        // A deal honouring what the table knows and believes; failing that (an opponent
        // passed up a pair it held: it forgot the patch), only what it knows.
        if !ok && !deal.repair(s, &mut out.pile, pile_len, rng, true) {
            deal.repair(s, &mut out.pile, pile_len, rng, false);
        }
        for o in (0..self.players).filter(|&o| o != seat) {
            out.hands[o] = hands[o].redealt(&deal.hands[o][..hands[o].len()]);
        }
        out.pile.truncate(pile_len);
    }
}
