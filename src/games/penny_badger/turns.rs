//! Penny Badger played to its end with nothing recorded ([`crate::engine::Game::play_out`]),
//! for any line-up: a turn, its claim's answers and their settlement played as one piece.
//!
//! The engine's loop asks the bot, then applies the action, one decision at a time: every
//! decision dispatches on the turn's phase in the rules, and a claim's every answer is an
//! action that the rules decode, record on the table and check for the last one. Here a
//! discard and claim is followed at once by its answers, asked of the line-up's bots in the
//! order the rules ask them, each with the view of its decision (the answers so far on the
//! table), and the claim is settled once ([`PennyBadger::claim_answered`]). The same bots
//! are asked the same questions in the same order with the same streams, and the same
//! actions are applied: the same game (`play_out_is_the_decision_loop` compares the two from
//! the deal or any later decision, with bots of every kind).

use super::rules::{Phase, State};
use super::{Action, Event, PennyBadger};
use crate::engine::{EventLog, GameRng, Lineup, MAX_SEATS, ask};

impl PennyBadger {
    /// Plays `s` to its end with `bots`, nothing recorded, from any decision (the usual
    /// start: a turn).
    #[inline(always)]
    pub(super) fn play_turns<L: Lineup<PennyBadger> + ?Sized>(&self, s: &mut State, bots: &mut L, rng: &mut GameRng, seat_rngs: &mut [GameRng; MAX_SEATS]) {
        let log: &mut EventLog<Event> = &mut EventLog::new(false);
        loop {
            match s.phase {
                Phase::Over => return,
                Phase::Main => {
                    let seat = s.current as usize;
                    match ask(self, s, seat, bots, seat_rngs) {
                        Action::Discard { cards, claim } => {
                            let answer = |s: &State, a: usize| matches!(ask(self, s, a, bots, seat_rngs), Action::Challenge(true));
                            self.claim_answered(s, seat, cards, claim, answer, rng, log);
                        }
                        action => self.step(s, seat, action, rng, log),
                    }
                }
                // Only when starting mid-claim: the answers left, one plain step each.
                Phase::Challenge => {
                    let seat = Self::challenger_to_ask(s);
                    let action = ask(self, s, seat, bots, seat_rngs);
                    self.step(s, seat, action, rng, log);
                }
            }
        }
    }
}
