//! The quick loop of a table of `basic` bots ([`crate::engine::Game::play_out`]): a turn,
//! its claim's answers and their settlement played as one piece.
//!
//! The engine's plain loop (`engine::play_out_plain`) asks the bot, then applies the action,
//! one decision at a time: every decision dispatches on the turn's phase, in the rules and
//! in the bot, builds a view, and encodes the choice as an [`Action`] that the rules decode;
//! a claim is stored on the table and read back after each of its answers. A `basic` seat
//! answers a claim with one draw from its own stream, whatever the claim, so here the
//! opponents' answers are drawn right after the discard, in the order the plain loop asks
//! them, and the claim is settled from registers ([`PennyBadger::claim_answered`]). The
//! same bots are asked the same questions in the same order with the same streams, and the
//! same actions are applied: the same game (`play_out_is_the_plain_loop` compares the two
//! from the deal or any later decision of random games).

use super::bots::BasicBot;
use super::rules::{Phase, State};
use super::{Action, Event, PennyBadger};
use crate::engine::{EventLog, GameRng, Lineup, MAX_SEATS, Uniform, play_out_plain};

impl PennyBadger {
    /// [`crate::engine::Game::play_out`]: [`Self::play_basic`] for a [`Uniform`] table of
    /// `basic`, the engine's plain loop for any other.
    #[inline(always)]
    pub(super) fn play_out_quick<L: Lineup<PennyBadger> + ?Sized>(&self, s: &mut State, bots: &mut L, rng: &mut GameRng, seat_rngs: &mut [GameRng; MAX_SEATS]) {
        match bots.as_any_mut().and_then(|table| table.downcast_mut::<Uniform<BasicBot>>()) {
            Some(table) => self.play_basic(s, table.bots(), rng, seat_rngs),
            None => play_out_plain(self, s, bots, rng, seat_rngs),
        }
    }

    /// Plays `s` to its end with `bots[seat]` (`basic`) in every seat, nothing recorded,
    /// from any decision (the usual start: a turn).
    #[inline(always)]
    pub(super) fn play_basic(&self, s: &mut State, bots: &[BasicBot], rng: &mut GameRng, seat_rngs: &mut [GameRng; MAX_SEATS]) {
        let log: &mut EventLog<Event> = &mut EventLog::new(false);
        loop {
            match s.phase {
                Phase::Over => return,
                Phase::Main => {
                    let seat = s.current as usize;
                    let hand = &s.hands[seat];
                    match bots[seat].turn_inline(self, hand.slots(), hand.len(), &mut seat_rngs[seat]) {
                        Action::Discard { cards, claim } => {
                            let answer = |a: usize| bots[a].challenges(&mut seat_rngs[a]);
                            self.claim_answered(s, seat, cards, claim, answer, rng, log);
                        }
                        action => self.step(s, seat, action, rng, log),
                    }
                }
                // Only when starting mid-claim: the answers left, one plain step each.
                Phase::Challenge => {
                    let seat = Self::challenger_to_ask(s);
                    let yes = bots[seat].challenges(&mut seat_rngs[seat]);
                    self.step(s, seat, Action::Challenge(yes), rng, log);
                }
            }
        }
    }
}
