//! What a Pig Farm seat knows, and samples of the table consistent with it, for search bots
//! (`ismcts`).
//!
//! Public: the face-up discard pile, scores, rounds, whose turn and its phase, butchers
//! held, hand sizes, the draw pile's size, and the pigs each seat took from the discard
//! pile and has not discarded since. A seat also knows its own hand. The rest of the other
//! hands and the order of the draw pile are re-dealt at random from the pigs the seat cannot
//! place (hands hold no butcher, so the draw pile's butchers stay in it, at random places).
//! Forgotten: that a seat holds no pig of a kind it lost to a butcher roll.

use super::params::{KINDS, MAX_PLAYERS};
use super::rules::{Hand, State};
use super::{BUTCHER, PigFarm};
use crate::engine::rng::{keep_near, shuffle};
use crate::engine::{GameRng, HiddenInfo};
use crate::games::chroma::Card;
use crate::games::deal;

/// A sample of `state` for `seat`: the unknown part of each other hand dealt from the pigs
/// the seat cannot place, first keeping those of `near`'s hands still among them.
fn deal_hidden(game: &PigFarm, state: &State, seat: usize, rng: &mut GameRng, out: &mut State, near: Option<&[Hand; MAX_PLAYERS]>) {
    out.clone_from(state);
    let players = game.players;
    // The unplaced pigs, counted per kind: every pig of the draw pile, then the unknown part
    // of each other hand (the draw pile's butchers stay in it).
    let mut pool = [0u32; KINDS];
    let mut butchers = 0;
    for &c in &state.draw {
        if c == BUTCHER {
            butchers += 1;
        } else {
            pool[c as usize] += 1;
        }
    }
    for other in (0..players).filter(|&o| o != seat) {
        for (pig, n) in pool.iter_mut().enumerate() {
            *n += state.hands[other].count(pig as Card) - state.known[other][pig] as u32;
        }
    }
    let kept = near.map(|near| {
        let mut kept = [[0u32; KINDS]; MAX_PLAYERS];
        for other in (0..players).filter(|&o| o != seat) {
            let old: [u32; KINDS] = std::array::from_fn(|pig| near[other].count(pig as Card).saturating_sub(state.known[other][pig] as u32));
            let slots = state.hands[other].len().saturating_sub(state.known[other].iter().map(|&n| n as usize).sum());
            keep_near(&old, &mut pool, slots, rng, &mut kept[other]);
        }
        kept
    });
    // Laid out in the draw pile's buffer (no allocation) in a canonical order first, as
    // sorting would: the draw pile's real order is hidden, and a sample must depend on the
    // seat's view and the stream only. (Counted rather than sorted: the sort was a sixth of
    // a `model=default` search.)
    let draw = &mut out.draw;
    deal::lay_out_counts(draw, &pool);
    let kept_hand = |other: usize| {
        let mut hand = Hand::EMPTY;
        for pig in 0..KINDS {
            for _ in 0..state.known[other][pig] {
                hand.add(pig as Card);
            }
        }
        if let Some(kept) = &kept {
            for (pig, &n) in kept[other].iter().enumerate() {
                for _ in 0..n {
                    hand.add(pig as Card);
                }
            }
        }
        let lacking = state.hands[other].len() - hand.len();
        (hand, lacking)
    };
    deal::shuffle_and_deal(draw, rng, (0..players).filter(|&o| o != seat), kept_hand, Hand::add, |other, hand| out.hands[other] = hand);
    draw.extend(std::iter::repeat_n(BUTCHER, butchers));
    shuffle(draw, rng);
}

impl HiddenInfo for PigFarm {
    /// Everything `seat` sees in `state`, as text (see the module doc).
    fn observation(&self, s: &State, seat: usize) -> String {
        let players = self.players;
        format!(
            "seat {seat} hand [{}]; round {} first {} turn {} (round turn {}) seat {} phase {:?}; scores {:?}; butchers {:?}; hand sizes {:?}; known {:?}; draw {}; discard {:?}; rolls {}",
            s.hands[seat],
            s.round,
            s.first_seat,
            s.turns,
            s.round_turns,
            s.current,
            s.phase,
            &s.scores[..players],
            &s.butchers_held[..players],
            s.hands[..players].iter().map(|h| h.len()).collect::<Vec<_>>(),
            &s.known[..players],
            s.draw.len(),
            s.discard,
            s.rolls,
        )
    }

    /// Writes into `out` a sample of `state` consistent with what `seat` knows (module doc).
    fn determinize(&self, state: &State, seat: usize, rng: &mut GameRng, out: &mut State) {
        deal_hidden(self, state, seat, rng, out, None);
    }

    /// `out`, an older sample, re-dealt to fit what `seat` knows of `state` now, each other
    /// hand keeping the pigs of its old unknown part that are still unplaced (the rest, and the
    /// draw pile's order, dealt afresh).
    fn mend(&self, state: &State, seat: usize, rng: &mut GameRng, out: &mut State) -> bool {
        let old = out.hands;
        deal_hidden(self, state, seat, rng, out, Some(&old));
        true
    }
}
