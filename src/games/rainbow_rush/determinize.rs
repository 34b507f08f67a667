//! Rainbow Rush's determinization and observation for search bots (see the module doc of
//! the game, "Determinization"): the deciding seat keeps its hand, the rows, the discard
//! pile with its locks and every card publicly known to be in a hand; the other hands'
//! unknown cards and the draw pile are one pool, shuffled and dealt back with the same sizes.

use std::fmt::Write;

use super::RainbowRush;
use super::params::KINDS;
use super::rules::{Hand, State};
use crate::engine::{GameRng, HiddenInfo, rng};
use crate::games::chroma::{Card, card_name};
use crate::games::deal;

impl HiddenInfo for RainbowRush {
    /// No seat samples: `known` is no longer kept.
    fn skip_sample_records(&self, s: &mut State) {
        s.records = false;
    }

    /// [`crate::engine::HiddenInfo::observation`]: everything `seat` sees, as canonical text.
    fn observation(&self, s: &State, seat: usize) -> String {
        let n = self.players;
        let mut t = String::new();
        let _ = write!(
            t,
            "seat {seat}; current {}; phase {:?}; turn {}; winner {:?}; end {}; sabotages {} last {:?}; takes {}; draw {}; discard",
            s.current,
            s.phase,
            s.turn,
            s.winner,
            s.end_reason,
            s.sabotages,
            s.last_sabotage,
            s.discard_takes,
            s.draw.len()
        );
        for (&c, &lock) in s.discard.iter().zip(&s.locks) {
            let _ = write!(t, " {}/{lock}", card_name(c));
        }
        for o in 0..n {
            let _ = write!(t, "; seat {o}: row [{}], {} cards", s.rows[o], s.hands[o].len());
            if o == seat {
                let _ = write!(t, " [{}]", s.hands[o]);
            } else {
                for k in (0..KINDS).filter(|&k| s.known[o][k] > 0) {
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
        // Destructured so that a new field of `State` must be placed here.
        let State { draw, discard, locks, hands, rows, current, phase, turn, winner, end_reason, sabotages, last_sabotage, discard_takes, known, records } = s;
        debug_assert!(*records, "a sample of a table whose seats said they never sample");
        out.records = *records;
        out.draw.clone_from(draw);
        out.discard.clone_from(discard);
        out.locks.clone_from(locks);
        out.hands = *hands;
        out.rows = *rows;
        out.current = *current;
        out.phase = *phase;
        out.turn = *turn;
        out.winner = *winner;
        out.end_reason = *end_reason;
        out.sabotages = *sabotages;
        out.last_sabotage = *last_sabotage;
        out.discard_takes = *discard_takes;
        out.known = *known;
        // The pool: the draw pile, then the other hands' cards not publicly known.
        let others = (0..self.players).filter(|&o| o != seat);
        for o in others.clone() {
            for (k, &n) in known[o].iter().enumerate() {
                let hidden = hands[o].count(k as Card).saturating_sub(n as u32);
                out.draw.extend(std::iter::repeat_n(k as Card, hidden as usize));
            }
        }
        // In a canonical order first: the draw pile's real order is hidden, and a sample must
        // depend on the seat's view and the stream only.
        rng::sort_cards(&mut out.draw);
        let known_hand = |o: usize| {
            let mut hand = Hand::EMPTY;
            for (k, &n) in known[o].iter().enumerate() {
                for _ in 0..n {
                    hand.add(k as Card);
                }
            }
            let lacking = hands[o].len() - hand.len();
            (hand, lacking)
        };
        deal::shuffle_and_deal(&mut out.draw, rng, others, known_hand, Hand::add, |o, hand| out.hands[o] = hand);
    }
}
