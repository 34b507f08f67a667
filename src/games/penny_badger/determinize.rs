//! What a Penny Badger seat knows, and samples of the table consistent with it, for search
//! bots (`ismcts`).
//!
//! Public: savings, bank, who is in, skips, direction, whose turn, hand sizes, pile sizes,
//! the claim on the table (who, what, how many cards, who challenged so far) and every card
//! shown: action cards played and claims revealed by a challenge. A seat also knows its own
//! hand, the cards it discarded for its own claims and the cards removed from its hand.
//! Everything else (other hands, the draw pile's order, face-down discards) is re-dealt at
//! random from the cards the seat cannot place, keeping every hand's size; the claim on the
//! table is then true or false as the sampled cards make it. Forgotten, so samples are a
//! little less informed than the seat could be: the card given away by a trade-one-card
//! and the hand handed over by a trade-hands (both re-sampled like any unseen card).

use super::rules::{Phase, State, claim_holds};
use super::{Action, PennyBadger};
use crate::engine::rng::shuffle;
use crate::engine::{GameRng, HiddenInfo};
use crate::games::chroma::{CARD_KINDS, Hand, cards_text};
use crate::games::deal::{self, TakeFrom};

impl HiddenInfo for PennyBadger {
    /// Everything `seat` sees in `state`, as text (see the module doc).
    fn observation(&self, s: &State, seat: usize) -> String {
        use std::fmt::Write;
        let players = self.params.players as usize;
        let mut o = String::new();
        let _ = write!(
            o,
            "seat {seat} hand [{}]; turn {} seat {} phase {:?} direction {}; bank {}; savings {:?}; alive {:#b}; skips {:?}; eliminated {:?}; hand sizes {:?}; draw {}; ",
            cards_text(s.hands[seat].cards()),
            s.turns,
            s.current,
            s.phase,
            s.direction,
            s.bank,
            &s.savings[..players],
            s.alive,
            &s.skips[..players],
            &s.eliminated_at[..players],
            s.hands[..players].iter().map(|h| h.len()).collect::<Vec<_>>(),
            s.draw.len(),
        );
        let bit = 1u16 << seat;
        let discard: Vec<String> =
            s.discard.iter().zip(&s.discard_seen).map(|(&c, &seen)| if seen & bit != 0 { cards_text(&[c]) } else { "?".into() }).collect();
        let _ = write!(o, "discard [{}]", discard.join(", "));
        if let (Phase::Challenge, Some(c)) = (s.phase, &s.claim) {
            let _ = write!(o, "; claim by {} of {:?} with {} cards, challengers {:#b}, asked {}", c.claimer, c.claim, c.count, c.challengers, c.asked);
        }
        o
    }

    /// Writes into `out` a sample of `state` consistent with what `seat` knows (module doc).
    fn determinize(&self, state: &State, seat: usize, rng: &mut GameRng, out: &mut State) {
        out.clone_from(state);
        let players = self.params.players as usize;
        let bit = 1u16 << seat;
        let others = (0..players).filter(|&o| o != seat);
        // The pool: the other hands, the draw pile and the discards the seat has not seen,
        // counted per kind: their real order is hidden, and a sample must depend on the seat's
        // view and the stream only, so the pool is laid out in canonical order (in the draw
        // pile's buffer: no allocation once it has grown to the pool's size).
        let mut counts = [0u32; CARD_KINDS];
        let unseen_discards = state.discard.iter().zip(&state.discard_seen).filter(|&(_, &seen)| seen & bit == 0).map(|(c, _)| c);
        for &c in others.clone().flat_map(|o| state.hands[o].cards()).chain(&state.draw).chain(unseen_discards) {
            counts[c as usize] += 1;
        }
        let pool = &mut out.draw;
        deal::lay_out_counts(pool, &counts);
        shuffle(pool, rng);
        // Dealt from the pool's front, hand after hand; the rest is the draw pile, then the
        // unseen discards.
        let dealt = others.filter(|&o| !state.hands[o].is_empty());
        let rest = deal::deal(pool, TakeFrom::Front, dealt, |o| (Hand::EMPTY, state.hands[o].len()), Hand::insert_all, |o, hand| out.hands[o] = hand);
        pool.drain(..rest.start);
        let mut next = pool[state.draw.len()..].iter().copied();
        for (c, &seen) in out.discard.iter_mut().zip(&state.discard_seen) {
            if seen & bit == 0 {
                *c = next.next().expect("the pool holds the unseen discards");
            }
        }
        pool.truncate(state.draw.len());
        if let (Phase::Challenge, Some(claim)) = (out.phase, out.claim.as_mut()) {
            let top = out.discard.len() - claim.count as usize;
            claim.truthful = claim_holds(claim.claim, &out.discard[top..]);
        }
    }

    /// The table sees how many cards went face down (not which) and the card a
    /// trade-one-card hands over only at the target's seat.
    fn public_action(&self, action: &Action) -> Action {
        match *action {
            Action::Discard { cards, claim } => Action::Discard { cards: (1u32 << cards.count_ones()) - 1, claim },
            Action::Play { card, target, .. } => Action::Play { card, target, give: 0 },
            Action::Challenge(c) => Action::Challenge(c),
        }
    }
}
