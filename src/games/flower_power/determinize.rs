//! Flower Power's determinization and observation for search bots (see the module doc of
//! the game, "Determinization"): the deciding seat keeps its hand and everything public; the
//! other hands and the draw pile are one pool of unseen cards, shuffled and dealt back into
//! the same places with the same sizes.

use std::fmt::Write;

use super::rules::{Hand, State};
use super::{Action, FlowerPower, View};
use crate::engine::{GameRng, HiddenInfo, Seen, rng};
use crate::games::chroma::card_str;
use crate::games::deal;

impl HiddenInfo for FlowerPower {
    /// [`crate::engine::HiddenInfo::observation`]: everything `seat` sees, as canonical text.
    fn observation(&self, s: &State, seat: usize) -> String {
        let mut t = String::new();
        let _ = write!(
            t,
            "seat {seat}; current {}; turns {}; passes {}; over {} ({}); pile {}; garden {:?}; starters {:?}; by color {:?}; by other {}; flowers {:?}; hand sizes",
            s.current,
            s.turns,
            s.passes,
            s.over,
            s.end_reason,
            s.pile.len(),
            s.garden,
            s.starter,
            s.flowers_by_color,
            s.finished_by_other,
            &s.flowers[..self.players],
        );
        for h in &s.hands[..self.players] {
            let _ = write!(t, " {}", h.len());
        }
        let _ = write!(t, "; own hand [{}]", s.hands[seat]);
        // Cards out of play (played into the garden or taken as flowers) were all seen face
        // up: the deck less the pile and the hands.
        let mut gone = [0i32; 25];
        for &c in &self.deck {
            gone[c as usize] += 1;
        }
        for &c in s.pile.iter().chain(s.hands[..self.players].iter().flat_map(|h| h.cards())) {
            gone[c as usize] -= 1;
        }
        t.push_str("; played");
        for (k, &n) in gone.iter().enumerate() {
            if n != 0 {
                let _ = write!(t, " {}x{n}", card_str(k as u8));
            }
        }
        t
    }

    /// [`crate::engine::HiddenInfo::determinize`]: `out` becomes `s` with the cards `seat` cannot
    /// see (other hands, the draw pile) re-dealt at random; no allocation once `out`'s pile
    /// has grown to the pool's size.
    fn determinize(&self, s: &State, seat: usize, rng: &mut GameRng, out: &mut State) {
        // Destructured so that a new field of `State` must be placed here.
        let State { pile, hands, garden, starter, flowers, flowers_by_color, finished_by_other, current, turns, passes, left, over, end_reason } = s;
        out.pile.clone_from(pile);
        out.hands = *hands;
        out.garden = *garden;
        out.starter = *starter;
        out.flowers = *flowers;
        out.flowers_by_color = *flowers_by_color;
        out.finished_by_other = *finished_by_other;
        out.current = *current;
        out.turns = *turns;
        out.passes = *passes;
        out.left = *left;
        out.over = *over;
        out.end_reason = *end_reason;
        // The pool: the pile, then every other hand's cards; shuffled, the hands take theirs
        // back from its end and what stays is the new pile.
        let others = (0..self.players).filter(|&o| o != seat);
        for o in others.clone() {
            out.pile.extend_from_slice(hands[o].cards());
        }
        // In a canonical order first: the pile's real order is hidden, and a sample must
        // depend on the seat's view and the stream only.
        rng::sort_cards(&mut out.pile);
        deal::shuffle_and_deal(&mut out.pile, rng, others, |o| (Hand::EMPTY, hands[o].len()), Hand::push, |o, hand| out.hands[o] = hand);
    }

    /// [`crate::engine::HiddenInfo::seen`]: a play as the table sees it, the cards laid whatever
    /// hand positions held them (a sample's hand holds the same cards elsewhere, or others):
    /// 5 bits per card kind counting its copies played.
    fn seen(&self, view: &View<'_>, action: &Action) -> Seen<Action> {
        let mut shown = 0u128;
        for (i, &c) in view.hand.cards().iter().enumerate() {
            if action.0 & (1 << i) != 0 {
                debug_assert!((c as usize) < 25, "a base card");
                shown += 1u128 << (5 * c as u32);
            }
        }
        Seen { action: Action(0), shown }
    }
}
