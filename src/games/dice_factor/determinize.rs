//! Dice Factor's determinization and observation for search bots (see the module doc of the
//! game, "Determinization"): the deciding seat keeps its hand, the dice, the discard pile and
//! every card publicly known to be in a hand; the other hands' unknown cards and the draw
//! pile are one pool, shuffled and dealt back with the same sizes.

use std::fmt::Write;

use super::bots::collector_discard;
use super::hand::{Hand, allowed_targets};
use super::params::MAX_PLAYERS;
use super::rules::State;
use super::{Action, DiceFactor, Phase};
use crate::engine::rng::below;
use crate::engine::{GameRng, HiddenInfo, rng};
use crate::games::chroma::{CARD_KINDS, Card, card_name};
use crate::games::deal;

impl DiceFactor {
    /// [`crate::engine::HiddenInfo::mend`]: `out`, an older sample, re-dealt to fit what `seat`
    /// knows of `s` now, each other hand keeping the cards of its old unknown part that are
    /// still in the pool (the rest, and the draw pile's order, dealt afresh).
    pub(super) fn mend_into(&self, s: &State, seat: usize, rng: &mut GameRng, out: &mut State) {
        let old = out.hands;
        self.deal_hidden(s, seat, rng, out, Some(&old));
    }

    /// A sample of `s` for `seat`: the other hands' unknown cards dealt from the pool, first
    /// keeping those of `near`'s hands still in it.
    fn deal_hidden(&self, s: &State, seat: usize, rng: &mut GameRng, out: &mut State, near: Option<&[Hand; MAX_PLAYERS]>) {
        // Destructured so that a new field of `State` must be placed here.
        let State {
            draw: _,
            discard,
            hands,
            dice,
            current,
            reversed,
            skips,
            phase,
            turns,
            taken,
            d8,
            winner,
            win_target,
            won_in_turn_of,
            dealt_winning,
            end_reason,
            tally,
            known,
            last_discard,
            settled: _,
            records,
        } = s;
        debug_assert!(*records, "a sample of a table whose seats said they never sample");
        out.records = *records;
        // `out.draw` is laid out from the pool below ([`DiceFactor::hidden_pool`]).
        out.discard.clone_from(discard);
        out.hands = *hands;
        out.dice = *dice;
        out.current = *current;
        out.reversed = *reversed;
        out.skips = *skips;
        out.phase = *phase;
        out.turns = *turns;
        out.taken = *taken;
        out.d8 = *d8;
        out.winner = *winner;
        out.win_target = *win_target;
        out.won_in_turn_of = *won_in_turn_of;
        out.dealt_winning = *dealt_winning;
        out.end_reason = *end_reason;
        out.tally = *tally;
        out.known = *known;
        out.last_discard = *last_discard;
        // The other hands are sampled: any of them may hold a win, so the next check looks at
        // every hand.
        out.settled = false;
        let mut pool = self.hidden_pool(s, seat);
        let kept = near.map(|near| self.keep_near_hands(s, seat, near, &mut pool, rng));
        // Laid out in a canonical order first, as sorting would: the draw pile's real order
        // is hidden, and a sample must depend on the seat's view and the stream only.
        deal::lay_out_counts(&mut out.draw, &pool);
        let kept_hand = |o: usize| {
            let mut hand = Hand::EMPTY;
            hand.extra = hands[o].extra;
            for (k, &n) in known[o].iter().enumerate() {
                for _ in 0..n {
                    hand.add(k as Card);
                }
            }
            if let Some(kept) = &kept {
                for (k, &n) in kept[o].iter().enumerate() {
                    for _ in 0..n {
                        hand.add(k as Card);
                    }
                }
            }
            let lacking = hands[o].len() - hand.len();
            (hand, lacking)
        };
        let others = (0..self.players).filter(|&o| o != seat);
        deal::shuffle_and_deal(&mut out.draw, rng, others, kept_hand, Hand::add, |o, hand| out.hands[o] = hand);
    }

    /// The cards `seat` cannot locate in `s`, counted per card: the draw pile, then the other
    /// hands' cards not publicly known.
    fn hidden_pool(&self, s: &State, seat: usize) -> [u32; CARD_KINDS] {
        let mut pool = [0u32; CARD_KINDS];
        for &c in &s.draw {
            pool[c as usize] += 1;
        }
        for o in (0..self.players).filter(|&o| o != seat) {
            for (k, &n) in s.known[o].iter().enumerate() {
                pool[k] += s.hands[o].count(k as Card).saturating_sub(n as u32);
            }
        }
        pool
    }

    /// Per other seat, the cards of the unknown part of its hand in `near` that `pool` still
    /// has, as many as that part holds in `s` ([`rng::keep_near`]); taken out of `pool`.
    fn keep_near_hands(
        &self,
        s: &State,
        seat: usize,
        near: &[Hand; MAX_PLAYERS],
        pool: &mut [u32; CARD_KINDS],
        rng: &mut GameRng,
    ) -> [[u32; CARD_KINDS]; MAX_PLAYERS] {
        let mut kept = [[0u32; CARD_KINDS]; MAX_PLAYERS];
        for o in (0..self.players).filter(|&o| o != seat) {
            let old: [u32; CARD_KINDS] = std::array::from_fn(|k| near[o].count(k as Card).saturating_sub(s.known[o][k] as u32));
            let slots = s.hands[o].len().saturating_sub(s.known[o].iter().map(|&n| n as usize).sum());
            rng::keep_near(&old, pool, slots, rng, &mut kept[o]);
        }
        kept
    }

    /// Whether `hand`, as seat `o`'s, could have made `o`'s last discard by `collector`'s
    /// rule ([`State::last_discard`]; true when there is none to explain, or `o` has drawn
    /// since, in the middle of its turn).
    pub(super) fn fits_last_discard(&self, s: &State, o: usize, hand: &Hand) -> bool {
        let Some((card, dice)) = s.last_discard[o] else { return true };
        if o == s.current as usize && s.phase != Phase::Start {
            return true;
        }
        let mut before = *hand;
        before.add(card);
        collector_discard(&before, allowed_targets(dice)) == card
    }
}

impl HiddenInfo for DiceFactor {
    /// No seat samples: `known` and `last_discard` are no longer kept.
    fn skip_sample_records(&self, s: &mut State) {
        s.records = false;
    }

    /// [`crate::engine::HiddenInfo::observation`]: everything `seat` sees, as canonical text.
    fn observation(&self, s: &State, seat: usize) -> String {
        let n = self.players;
        let mut t = String::new();
        let _ = write!(
            t,
            "seat {seat}; current {}; phase {:?}; turns {}; dice {:?}; reversed {}; skips {:?}; taken {:?}; d8 {:?}; winner {:?} {} {} {}; end {}; {:?}; draw {}; discard",
            s.current,
            s.phase,
            s.turns,
            s.dice,
            s.reversed,
            &s.skips[..n],
            s.taken,
            s.d8,
            s.winner,
            s.win_target,
            s.won_in_turn_of,
            s.dealt_winning,
            s.end_reason,
            s.tally,
            s.draw.len()
        );
        for &c in &s.discard {
            let _ = write!(t, " {}", card_name(c));
        }
        for o in 0..n {
            let _ = write!(t, "; seat {o}: {} cards, {} add-a-card", s.hands[o].len(), s.hands[o].extra);
            if o == seat {
                let _ = write!(t, " [{}]", s.hands[o]);
            } else {
                for k in (0..CARD_KINDS).filter(|&k| s.known[o][k] > 0) {
                    let _ = write!(t, " {}x{}", card_name(k as Card), s.known[o][k]);
                }
            }
        }
        t
    }

    /// [`crate::engine::HiddenInfo::determinize`]: `out` becomes `s` with the cards `seat` cannot
    /// locate re-dealt at random; no allocation once `out`'s draw pile has grown to the
    /// pool's size.
    fn determinize(&self, s: &State, seat: usize, rng: &mut GameRng, out: &mut State) {
        self.deal_hidden(s, seat, rng, out, None);
    }

    fn mend(&self, s: &State, seat: usize, rng: &mut GameRng, out: &mut State) -> bool {
        self.mend_into(s, seat, rng, out);
        true
    }

    /// [`crate::engine::HiddenInfo::honour_default_model`]: re-deals the unknown cards of each
    /// other hand until its last discard is the one `collector` (the table's model of a
    /// player for `model=default`, as in the search's opponents) would have made from it,
    /// under the dice of then: a hand that discarded a card off its best target held no
    /// action card and, below that card in canonical order, only cards toward that target. A
    /// soft belief: after `TRIES` misfits (a player who plays otherwise) the last deal stays.
    /// Only public facts are read: the face-up discard, the dice, hand sizes. `model=auto`
    /// reads every discard by the models it infers instead ([`crate::engine::belief`]).
    fn honour_default_model(&self, s: &State, seat: usize, rng: &mut GameRng, out: &mut State) {
        const TRIES: usize = 256;
        for o in (0..self.players).filter(|&o| o != seat) {
            if s.last_discard[o].is_none() {
                continue;
            }
            let fits = |h: &Hand| self.fits_last_discard(s, o, h);
            let mut tries = 0;
            while !fits(&out.hands[o]) && tries < TRIES {
                tries += 1;
                // Back into the pool, then a fresh uniform choice of as many cards.
                let mut hidden = 0;
                for k in 0..CARD_KINDS {
                    let extra = out.hands[o].count(k as Card).saturating_sub(s.known[o][k] as u32);
                    for _ in 0..extra {
                        out.hands[o].remove(k as Card);
                        out.draw.push(k as Card);
                        hidden += 1;
                    }
                }
                let len = out.draw.len();
                for i in 0..hidden {
                    let j = below((len - i) as u32, rng) as usize;
                    out.draw.swap(j, len - 1 - i);
                    out.hands[o].add(out.draw[len - 1 - i]);
                }
                out.draw.truncate(len - hidden);
            }
        }
    }

    /// A card given away is seen only by its taker.
    fn public_action(&self, action: &Action) -> Action {
        match *action {
            Action::Give { target, .. } => Action::Give { card: 0, target },
            other => other,
        }
    }
}
