//! Beaver Mania's determinization and observation for search bots (see the module doc of
//! the game, "Determinization"): the deciding seat keeps its hand, the display, the stock,
//! every pile, the cards put away and every card publicly known to be in a hand; the other
//! hands' unknown cards and the draw pile are one pool, shuffled and dealt back with the
//! same sizes.

use std::fmt::Write;

use super::BeaverMania;
use super::cards::{Card, Hand, KINDS, write_card_name};
use super::rules::State;
use crate::engine::{GameRng, HiddenInfo, rng};
use crate::games::deal;

impl BeaverMania {
    /// The cards `seat` cannot locate (the draw pile and the other hands' cards not publicly
    /// known) shuffled as one pool and dealt back to `out`'s hands with their sizes in `s`,
    /// the rest as the draw pile.
    #[inline]
    fn redeal_hidden(&self, s: &State, seat: usize, rng: &mut GameRng, out: &mut State) {
        // The pool: the draw pile, then the other hands' cards not publicly known.
        let others = (0..self.players).filter(|&o| o != seat);
        for o in others.clone() {
            for c in s.hands[o].kinds() {
                let hidden = s.hands[o].count(c) - s.known[o].count(c);
                out.draw.extend(std::iter::repeat_n(c, hidden as usize));
            }
        }
        // In a canonical order first: the draw pile's real order is hidden, and a sample must
        // depend on the seat's view and the stream only.
        rng::sort_cards(&mut out.draw);
        let known_hand = |o: usize| (s.known[o], s.hands[o].len() - s.known[o].len());
        deal::shuffle_and_deal(&mut out.draw, rng, others, known_hand, Hand::add, |o, hand| out.hands[o] = hand);
    }
}

/// Writes a multiset of cards as canonical text (` NAMExCOUNT` for each kind held, in kind
/// order) onto `t`.
fn write_hand(t: &mut String, h: &Hand) {
    for c in 0..KINDS as Card {
        let count = h.count(c);
        if count > 0 {
            t.push(' ');
            write_card_name(t, c);
            let _ = write!(t, "x{count}");
        }
    }
}

/// `out` becomes a copy of `s` (its vectors reused), the draw pile included: the fields a
/// determinization keeps as they are.
#[inline]
fn copy_state(s: &State, out: &mut State) {
    // Destructured so that a new field of `State` must be placed here.
    let State {
        draw,
        display,
        stock,
        hands,
        piles,
        put_away,
        current,
        step,
        play,
        to_stab,
        owed,
        turns,
        round_turns,
        round,
        first_seat,
        rounds_done,
        totals,
        end_reason,
        capped,
        capped_rounds,
        winners,
        round_end,
        dealt_actions: _, // set by hide_dealt_actions
        stats,
        last_round,
        known,
    } = s;
    out.draw.clone_from(draw);
    out.display = *display;
    out.stock = *stock;
    out.hands = *hands;
    for (o, p) in out.piles.iter_mut().zip(piles) {
        o.cards.clone_from(&p.cards);
        o.plays.clone_from(&p.plays);
    }
    out.put_away = *put_away;
    out.current = *current;
    out.step = *step;
    out.play = *play;
    out.to_stab = *to_stab;
    out.owed = *owed;
    out.turns = *turns;
    out.round_turns = *round_turns;
    out.round = *round;
    out.first_seat = *first_seat;
    out.rounds_done = *rounds_done;
    out.totals = *totals;
    out.end_reason = *end_reason;
    out.capped = *capped;
    out.capped_rounds = *capped_rounds;
    out.winners = *winners;
    out.round_end = *round_end;
    out.stats = *stats;
    out.last_round = *last_round;
    out.known = *known;
}

/// The action cards the other seats were dealt (a report tally) hidden from `seat` in `out`,
/// in the state and in the last round's record.
#[inline]
fn hide_dealt_actions(s: &State, seat: usize, out: &mut State) {
    // The action cards the other seats were dealt (a report tally) are hidden.
    out.dealt_actions = [0; super::params::MAX_PLAYERS];
    out.dealt_actions[seat] = s.dealt_actions[seat];
    if let Some(r) = out.last_round.as_mut() {
        let own = r.dealt_actions[seat];
        r.dealt_actions = [0; super::params::MAX_PLAYERS];
        r.dealt_actions[seat] = own;
    }
}

impl HiddenInfo for BeaverMania {
    /// [`crate::engine::HiddenInfo::observation`]: everything `seat` sees, as canonical text.
    fn observation(&self, s: &State, seat: usize) -> String {
        let n = self.players;
        // One buffer, the hands written straight into it: the searches compare this text for
        // every particle at every decision (a tenth of `model=auto`'s work when each hand
        // and card name was a String of its own).
        let mut t = String::with_capacity(1024);
        let _ = write!(
            t,
            "seat {seat}; current {}; step {:?}; play {:?}; to stab {:#x}; owed {:?}; turns {} / {} round {} first {} done {}; totals {:?}; end {} {} {} {:#x} {:?}; draw {}; display ",
            s.current,
            s.step,
            s.play,
            s.to_stab,
            &s.owed[..n],
            s.turns,
            s.round_turns,
            s.round,
            s.first_seat,
            s.rounds_done,
            &s.totals[..n],
            s.end_reason,
            s.capped,
            s.capped_rounds,
            s.winners,
            s.round_end,
            s.draw.len(),
        );
        write_hand(&mut t, &s.display);
        t.push_str("; stock ");
        write_hand(&mut t, &s.stock);
        t.push_str("; put away ");
        write_hand(&mut t, &s.put_away);
        for o in 0..n {
            let _ = write!(t, "; seat {o}: pile {:?} plays {:?}, {} cards", s.piles[o].cards, s.piles[o].plays, s.hands[o].len());
            if o == seat {
                t.push_str(" [");
                write_hand(&mut t, &s.hands[o]);
            } else {
                t.push_str(" known [");
                write_hand(&mut t, &s.known[o]);
            }
            t.push(']');
        }
        t
    }

    /// [`crate::engine::HiddenInfo::determinize`]: `out` becomes `s` with the cards `seat` cannot
    /// locate re-dealt at random; no allocation once `out`'s vectors have grown to their
    /// sizes in `s` (the draw pile to the pool's size).
    fn determinize(&self, s: &State, seat: usize, rng: &mut GameRng, out: &mut State) {
        copy_state(s, out);
        hide_dealt_actions(s, seat, out);
        self.redeal_hidden(s, seat, rng, out);
    }
}
