//! Bluffing Joker's determinization and observation for search bots.
//!
//! What the deciding seat knows: its hand, the whole board, every declaration and move
//! (and, while doubts are asked, the pending declaration), the cards shown by a doubt that
//! still lie in the discard pile (the public `revealed` counts), the sizes of the draw pile,
//! the discard pile and every hand. Everything else is one pool of unseen cards: the other
//! hands, the draw pile, the discard pile (its shown cards set aside) and, for any seat but the
//! one who played it, the card pending face down. The pool is shuffled and dealt back into
//! the same places with the same sizes; the shown cards stay in the discard pile as the
//! lowest card ids of their ranks (the state does not keep which copies were shown, and a
//! suit changes no rule), so a sample never reads a face-down card of the real pile. A
//! doubter's sample holds a pending card of the declared rank with the chance the table's
//! public record gives a declaration of being true (1 − (right doubts + 1) / (doubts + 2),
//! when the pool holds such a card; always without bluffing), else one drawn from the pool: drawn from the pool
//! alone, a declaration would look false in almost every sample (few of the unseen cards
//! have the declared rank) and the search would doubt nearly everything. Forgotten (a weaker, never a cheating,
//! search): the seat's own face-down plays and discards (the state does not record who laid
//! which face-down card) and what the other seats' declarations and doubts hint. The
//! sample's `bluffs` counter (a report tally, hidden) counts the caught bluffs plus the
//! pending declaration's if false in the sample, never the real undoubted ones.

use std::fmt::Write;

use super::BluffingJoker;
use super::cards::{CardId, Hand, rank_of};
use super::rules::{Pending, Phase, State};
use crate::engine::rng::Chance;
use crate::engine::{GameRng, rng};

impl BluffingJoker {
    /// [`crate::engine::Game::determinize`]: `out` becomes `s` with the cards `seat` cannot
    /// see re-dealt at random; no allocation once `out`'s draw pile has grown to the pool's
    /// size.
    pub(super) fn determinize_into(&self, s: &State, seat: usize, rng: &mut GameRng, out: &mut State) {
        // Destructured so that a new field of `State` must be placed here.
        let State { board, hands, draw, discard, revealed, phase, current, pending, extra, turns, rounds, end_reason, winner, counters } = s;
        out.board = *board;
        out.hands = *hands;
        out.draw.clone_from(draw);
        out.discard.clone_from(discard);
        out.revealed = *revealed;
        out.phase = *phase;
        out.current = *current;
        out.pending = *pending;
        out.extra = *extra;
        out.turns = *turns;
        out.rounds = *rounds;
        out.end_reason = *end_reason;
        out.winner = *winner;
        out.counters = *counters;
        // The pool: the draw pile, the other hands, the whole discard pile and a pending card
        // not the seat's (only while doubts are asked: once a doubt shows it, or the doubts
        // end, the card lies in the discard pile). Its cards are what the seat does not hold
        // or see, so the pool is the same for every real state the seat's view allows.
        let doubting = matches!(phase, Phase::Doubt { .. });
        let hidden_pending = pending.filter(|_| doubting && seat != *current as usize);
        for o in (0..self.players).filter(|&o| o != seat) {
            out.draw.extend_from_slice(hands[o].cards());
        }
        out.draw.extend_from_slice(discard);
        if let Some(p) = hidden_pending {
            out.draw.push(p.card);
        }
        // In a canonical order first: the pool's real order (draw pile, hands, discard pile)
        // is hidden, and a sample must depend on the seat's view and the stream only.
        out.draw.sort_unstable();
        // The shown cards (`revealed[r]` of each rank r) lie in the discard pile: the lowest
        // card ids of their rank. The state keeps which ranks were shown, not which copies
        // or where in the pile; a suit changes no rule, and the real pile's first cards of a
        // rank may be face-down ones, whose suits the seat never saw.
        out.discard.clear();
        for (r, &n) in revealed.iter().enumerate() {
            for _ in 0..n {
                let i = out.draw.iter().position(|&c| rank_of(c) as usize == r).expect("a shown card lies in the discard pile");
                out.discard.push(out.draw.remove(i));
            }
        }
        rng::shuffle(&mut out.draw, rng);
        // Dealt back from the pool's end; what stays is the draw pile.
        let take = |draw: &mut Vec<CardId>| draw.pop().expect("the pool holds every hidden card");
        for o in (0..self.players).filter(|&o| o != seat) {
            let mut hand = Hand::EMPTY;
            for _ in 0..hands[o].len() {
                hand.add(take(&mut out.draw));
            }
            out.hands[o] = hand;
        }
        while out.discard.len() < discard.len() {
            out.discard.push(take(&mut out.draw));
        }
        if let Some(p) = hidden_pending {
            // The belief about the face-down card: true with the chance the table's public
            // record gives (1 - the share of doubts that caught a lie, with one lie and one
            // truth assumed before any doubt), when an unseen card of the declared rank
            // exists; else drawn from the pool like every hidden card.
            // Without bluffing every declaration is true.
            let lies = if self.params.doubt.bluffing { (counters.right_doubts as f64 + 1.0) / (counters.doubts as f64 + 2.0) } else { 0.0 };
            if Chance::new(1.0 - lies).hit(rng)
                && let Some(i) = out.draw.iter().rposition(|&c| rank_of(c) == p.declared)
            {
                let last = out.draw.len() - 1;
                out.draw.swap(i, last);
            }
            out.pending = Some(Pending { card: take(&mut out.draw), ..p });
        }
        // The hidden tally of false declarations: the caught ones and the pending one's.
        let pending_bluff = out.pending.filter(|_| doubting).is_some_and(|p| rank_of(p.card) != p.declared);
        out.counters.bluffs = counters.right_doubts + u32::from(pending_bluff);
    }

    /// [`crate::engine::Game::observation`]: everything `seat` sees, as canonical text.
    pub(super) fn observation_text(&self, s: &State, seat: usize) -> String {
        let mut t = String::new();
        let mut counters = s.counters;
        counters.bluffs = 0; // hidden: undoubted declarations are never shown
        let shown = seat == s.current as usize || !matches!(s.phase, Phase::Doubt { .. });
        let pending = s.pending.map(|p| (p.declared, p.mv, shown.then_some(p.card)));
        let _ = write!(
            t,
            "seat {seat}; phase {:?}; current {}; pending {pending:?}; extra {:?}; turns {}; rounds {}; end {}; winner {:?}; {counters:?}; revealed {:?}; draw {}; discard {}; board {:?}; hands",
            s.phase,
            s.current,
            &s.extra[..self.players],
            s.turns,
            s.rounds,
            s.end_reason,
            s.winner,
            s.revealed,
            s.draw.len(),
            s.discard.len(),
            s.board
        );
        for h in &s.hands[..self.players] {
            let _ = write!(t, " {}", h.len());
        }
        let _ = write!(t, "; own hand [{}]", s.hands[seat]);
        t
    }
}
