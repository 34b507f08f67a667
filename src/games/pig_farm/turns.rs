//! The steps of Pig Farm's play-out loop ([`crate::engine::Game::play_out`], written in
//! `rules.rs`): a turn's usual sequence of decisions (the first draw or the sale, the second
//! draw, the discard) played as straight-line code, for any line-up.
//!
//! The engine's plain loop (`engine::play_decisions`) asks the bot, then applies the action,
//! one decision at a time: every decision starts with a dispatch on the turn's phase, in the
//! rules and in the bot, which the compiler turns into an indirect jump whose target changes
//! every decision (by callgrind's branch simulation, 91 of a game's 141 mispredicted
//! branches with `threshold` on the standard table; 2 are left). Here each
//! decision of the usual turn has its own copy of the bot's and the rules' code, in which the
//! phase is known, so the dispatch folds away; the rest (butchers, empty piles, the end of a
//! round) goes through the plain step. The same bots are asked the same questions in the
//! same order with the same streams, and the same actions are applied: the same game
//! (`play_out_is_the_plain_loop` compares the two from the deal or any later decision of
//! random games).

use super::rules::{Phase, State};
use super::{Action, BUTCHER, Event, PigFarm};
use crate::engine::{EventLog, GameRng};

impl PigFarm {
    /// [`Self::step`] (events compiled out) at a draw whose phase is known: a pig drawn or
    /// taken sets the phase `next` (the second draw after the first, the discard after the
    /// second) without reading the phase again; anything else (a sale, a butcher, nothing
    /// to draw) is the plain step.
    #[inline(always)]
    pub(super) fn quick_step(&self, s: &mut State, seat: usize, action: Action, next: Phase, rng: &mut GameRng, log: &mut EventLog<Event>) {
        let card = match action {
            Action::DrawPile => self.draw_card::<false>(s, rng, log),
            Action::TakeDiscard => {
                // The plain step's take, written out (a helper shared by both measured 4%
                // slower on the clock: code placement), without its event.
                let card = s.discard.pop();
                if let Some(c) = card {
                    s.known[seat][c as usize] += 1;
                }
                card
            }
            _ => return self.step::<false>(s, seat, action, rng, log),
        };
        match card {
            Some(pig) if pig != BUTCHER => {
                s.hands[seat].add(pig);
                s.phase = next;
            }
            _ => self.after_draw::<false>(s, seat, card, rng, log),
        }
    }
}
