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

use super::board::Board;
use super::cards::{CARD_IDS, CardId, Hand, rank_of};
use super::rules::{Pending, Phase, State};
use super::{Action, BluffingJoker};
use crate::engine::rng::Chance;
use crate::engine::{GameRng, HiddenInfo, rng};
use crate::games::deal::{self, TakeFrom};

/// Appends `board` as its derived `Debug` text (`Board { pegs: [[..], ..], occ: [..], home:
/// [..], home_count: [..] }`) without the formatting machinery: the observation text is
/// written for every particle a search checks, and the board's 272 numbers were most of it.
pub(super) fn board_text(t: &mut String, board: &Board) {
    fn number(t: &mut String, n: u16) {
        let mut digits = [0u8; 5];
        let mut at = digits.len();
        let mut n = n;
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        for &d in &digits[at..] {
            t.push(d as char);
        }
    }
    fn list<T: Copy + Into<u16>>(t: &mut String, items: &[T]) {
        t.push('[');
        for (i, &x) in items.iter().enumerate() {
            if i > 0 {
                t.push_str(", ");
            }
            number(t, x.into());
        }
        t.push(']');
    }
    t.push_str("Board { pegs: [");
    for (i, pegs) in board.pegs.iter().enumerate() {
        if i > 0 {
            t.push_str(", ");
        }
        list(t, pegs);
    }
    t.push_str("], occ: ");
    list(t, &board.occ);
    t.push_str(", home: ");
    list(t, &board.home);
    t.push_str(", home_count: ");
    list(t, &board.home_count);
    t.push_str(" }");
}

impl HiddenInfo for BluffingJoker {
    /// [`crate::engine::HiddenInfo::observation`]: everything `seat` sees, as canonical text.
    fn observation(&self, s: &State, seat: usize) -> String {
        let mut t = String::new();
        let mut counters = s.counters;
        counters.bluffs = 0; // hidden: undoubted declarations are never shown
        let shown = seat == s.current as usize || !matches!(s.phase, Phase::Doubt { .. });
        let pending = s.pending.map(|p| (p.declared, p.mv, shown.then_some(p.card)));
        let _ = write!(
            t,
            "seat {seat}; phase {:?}; current {}; pending {pending:?}; extra {:?}; turns {}; rounds {}; end {}; winner {:?}; {counters:?}; revealed {:?}; draw {}; discard {}; board ",
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
        );
        board_text(&mut t, &s.board);
        t.push_str("; hands");
        for h in &s.hands[..self.players] {
            let _ = write!(t, " {}", h.len());
        }
        let _ = write!(t, "; own hand [{}]", s.hands[seat]);
        t
    }

    /// [`crate::engine::HiddenInfo::determinize`]: `out` becomes `s` with the cards `seat` cannot
    /// see re-dealt at random; no allocation once `out`'s draw pile has grown to the pool's
    /// size.
    fn determinize(&self, s: &State, seat: usize, rng: &mut GameRng, out: &mut State) {
        // Destructured so that a new field of `State` must be placed here.
        let State { board, hands, draw, discard, revealed, phase, current, pending, extra, turns, rounds, end_reason, winner, counters } = s;
        out.board = *board;
        out.hands = *hands;
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
        // Counted by card id: the pool's real order (draw pile, hands, discard pile) is
        // hidden, and a sample must depend on the seat's view and the stream only, so it is
        // laid out in canonical order (ascending ids) before the shuffle.
        let mut counts = [0u16; CARD_IDS];
        let others = (0..self.players).filter(|&o| o != seat);
        let hidden = draw.iter().chain(others.clone().flat_map(|o| hands[o].cards())).chain(discard.iter()).chain(hidden_pending.as_ref().map(|p| &p.card));
        for &c in hidden {
            counts[c as usize] += 1;
        }
        // The shown cards (`revealed[r]` of each rank r) lie in the discard pile: the lowest
        // card ids of their rank. The state keeps which ranks were shown, not which copies
        // or where in the pile; a suit changes no rule, and the real pile's first cards of a
        // rank may be face-down ones, whose suits the seat never saw. Ids rise with ranks, so
        // in id order the shown cards come rank by rank, each rank's lowest ids first.
        let mut to_show = *revealed;
        let (mut shown, mut unseen) = ([0u16; CARD_IDS], [0u16; CARD_IDS]);
        for (id, &n) in counts.iter().enumerate() {
            let left = &mut to_show[rank_of(id as CardId) as usize];
            shown[id] = n.min(*left as u16);
            *left -= shown[id] as u8;
            unseen[id] = n - shown[id];
        }
        debug_assert!(to_show.iter().all(|&n| n == 0), "a shown card lies in the discard pile");
        deal::lay_out_counts(&mut out.discard, &shown);
        deal::lay_out_counts(&mut out.draw, &unseen);
        rng::shuffle(&mut out.draw, rng);
        // Dealt back from the pool's end, each hand and then the discard pile taking its cards
        // last first (a hand keeps the order its cards came in); what stays is the draw pile.
        let last_first = |hand: &mut Hand, cards: &[CardId]| cards.iter().rev().for_each(|&c| hand.add(c));
        let rest = deal::deal(&out.draw, TakeFrom::End, others, |o| (Hand::EMPTY, hands[o].len()), last_first, |o, hand| out.hands[o] = hand);
        let end = rest.end - (discard.len() - out.discard.len());
        out.discard.extend(out.draw[end..rest.end].iter().rev());
        out.draw.truncate(end);
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
            out.pending = Some(Pending { card: out.draw.pop().expect("the pool holds every hidden card"), ..p });
        }
        // The hidden tally of false declarations: the caught ones and the pending one's.
        let pending_bluff = out.pending.filter(|_| doubting).is_some_and(|p| rank_of(p.card) != p.declared);
        out.counters.bluffs = counters.right_doubts + u32::from(pending_bluff);
    }

    /// A card played face down shows only its declaration.
    fn public_action(&self, action: &Action) -> Action {
        match *action {
            Action::Play { declared, mv, .. } => Action::Play { card: declared, declared, mv },
            other => other,
        }
    }
}
