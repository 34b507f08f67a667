//! Match Patch's own quick loop ([`Game::play_out`]) for a table of perfect-memory `memory`
//! bots ([`MemoryTable`] with every `recall` 1), the bench's line-up.
//!
//! The engine's plain loop (`engine::play_out_plain`) asks the bot, then applies the action,
//! one decision at a time: every decision builds a view, dispatches on the phase in the bot
//! and in the rules, and encodes the choice as an [`Action`] that the rules decode. A
//! perfect-memory `memory` seat decides from the table alone ([`TableMemoryBot::choose_perfect`]
//! on the hand, the pile's size and the patch: no random draw, no memory of its own), so
//! here a turn is straight-line code: its draws in a row, each the bot's choice applied at
//! once ([`MatchPatch::draw`]), the pairs and their redraws, the end check and the
//! placement of the card held longest ([`memory_place`]). The same choices, applied by the
//! same rule functions in the same order, with no random draw: the same game
//! (`play_out_is_the_plain_loop` compares the two from the deal or any later decision of
//! random games; the streams are left untouched by both).
//!
//! [`Game::play_out`]: crate::engine::Game::play_out
//! [`MemoryTable`]: super::bots::MemoryTable
//! [`Action`]: super::Action

use super::bots::{TableMemoryBot, memory_place};
use super::rules::{Phase, State};
use super::{Action, Card, Event, MatchPatch};
use crate::engine::EventLog;

impl MatchPatch {
    /// Plays `s` to its end as a table of perfect-memory `memory` bots plays it, with
    /// nothing recorded, from any decision (the usual start: a turn's first draw). Inlined
    /// into the engine's quick loop, so that it is compiled with the bit instructions too.
    #[inline(always)]
    pub(super) fn play_perfect_memory(&self, s: &mut State) {
        let log: &mut EventLog<Event> = &mut EventLog::new(false);
        loop {
            let seat = s.current as usize;
            match s.phase {
                Phase::Over => return,
                Phase::Draw { left, .. } => {
                    self.perfect_draws(s, seat, left, log);
                    if !matches!(s.phase, Phase::Place) {
                        continue;
                    }
                }
                Phase::Place => {}
            }
            // The card held longest, the hand's first (`Hand::remove` of it is `remove_at(0)`).
            let card = memory_place(&s.hands[seat]);
            s.hands[seat].remove_at(0);
            self.placed::<false>(s, seat, card, log);
        }
    }

    /// `seat`'s draws from a batch with `left` draws owed (this one included), then its pairs
    /// with their redraws, then the end check: the plain step's sequence with every draw the
    /// perfect-memory choice.
    #[inline(always)]
    fn perfect_draws(&self, s: &mut State, seat: usize, mut left: u8, log: &mut EventLog<Event>) {
        loop {
            let mut laid = false;
            loop {
                let (action, pairing) = TableMemoryBot::choose_perfect_pairing(&s.hands[seat], s.pile.len(), &s.patch);
                left -= 1;
                if left == 0 && self.draw_pair(s, seat, action, pairing) {
                    laid = true;
                    break;
                }
                self.draw::<false>(s, seat, action, log);
                if left == 0 || !s.can_draw() {
                    break;
                }
            }
            if !laid {
                if s.hands[seat].pair_mask() == 0 {
                    break;
                }
                self.lay_pair::<false>(s, seat, log);
            }
            if self.params.pair_draws > 0 && s.can_draw() {
                left = self.params.pair_draws as u8;
                continue;
            }
            // Nothing left to draw (or no redraws): every pair still held is laid.
            while s.hands[seat].pair_mask() != 0 {
                self.lay_pair::<false>(s, seat, log);
            }
            break;
        }
        self.end_check::<false>(s, seat, log);
    }

    /// The last draw of a batch (`action`, the perfect-memory choice), when its card pairs
    /// the one copy of it that the hand holds and the hand holds no pair (a perfect-memory
    /// take always does; a pile draw by chance): the pair laid after the batch is that
    /// card's, so the two steps are one. The drawn card joins the hand and leaves it at once
    /// with the copy held longest, which is the plain draw ([`MatchPatch::draw`]) then
    /// [`MatchPatch::lay_pair`]: the same hand (a card pushed and removed again leaves no
    /// trace), the same public record. Returns false, having changed nothing, otherwise.
    /// `pairing`: the kind a take of a pairing slot draws, when known
    /// ([`TableMemoryBot::choose_perfect_pairing`]; the slot's card).
    #[inline(always)]
    fn draw_pair(&self, s: &mut State, seat: usize, action: Action, pairing: Option<Card>) -> bool {
        let card = match (action, pairing) {
            (_, Some(card)) => card,
            (Action::Take(i), None) => s.patch[i as usize].card,
            _ => match s.pile.last() {
                Some(&card) => card,
                None => return false,
            },
        };
        let hand = &s.hands[seat];
        if hand.pair_mask() != 0 || hand.count(card) != 1 {
            return false;
        }
        let took = match action {
            Action::Take(i) => {
                s.patch.take(i as usize);
                s.patch_draws += 1;
                s.excluded[seat] &= !(1 << card);
                1
            }
            _ => {
                s.pile.pop();
                s.pile_draws += 1;
                s.excluded[seat] = 0;
                s.hands[seat].pass_up(s.patch.kinds());
                0
            }
        };
        s.hands[seat].remove(card);
        s.pairs[seat] += 1;
        s.laid[card as usize] += 1;
        // A take makes the card's identity known, the pair laid makes two copies public.
        let known = &mut s.known[seat][card as usize];
        *known = (*known + took).saturating_sub(2);
        true
    }
}
