//! Dice Factor played to its end with nothing recorded ([`crate::engine::Game::play_out`]),
//! for any line-up: a turn's usual pair of decisions (draw or take the discard top, then
//! discard) played as straight-line code.
//!
//! The engine's plain loop (`engine::play_decisions`) asks the bot, then applies the action,
//! one decision at a time: every decision starts with a dispatch on the turn's phase, in the
//! bot and in the rules, and the action is built by the bot only to be taken apart again by
//! the rules. Here the turn's first decision is asked and applied knowing that the phase is
//! the start, and its discard knowing that the phase is the discard, so with a bot the
//! compiler inlines (a uniform table) both dispatches fold away; anything else (the d8,
//! an action card's choice) goes through the plain step. The same bots are asked the same
//! questions in the same order with the same streams, and the same actions are applied: the
//! same game (`play_out_is_the_plain_loop` compares the two from the deal or any later
//! decision of random games).

use super::rules::{Phase, State};
use super::{Action, DiceFactor, Event};
use crate::engine::{EventLog, GameRng, Lineup, MAX_SEATS, ask};

impl DiceFactor {
    /// Plays the dealt game `s` to its end with nothing recorded ([`crate::engine::Game::play_out`]): at the
    /// start of a turn, a draw or a take is applied and the discard asked for without a
    /// dispatch on the phase between them; any other decision is one plain step.
    #[inline(always)]
    pub(super) fn play_turns<L: Lineup<DiceFactor> + ?Sized>(&self, s: &mut State, bots: &mut L, rng: &mut GameRng, seat_rngs: &mut [GameRng; MAX_SEATS]) {
        let log: &mut EventLog<Event> = &mut EventLog::new(false);
        loop {
            let seat = s.current as usize;
            match s.phase {
                Phase::Start => {
                    let first = ask(self, s, seat, bots, seat_rngs);
                    match first {
                        Action::Draw => {
                            self.draw_into(s, seat, rng, log);
                            // `to_discard`, with its usual branch below: an empty hand (both
                            // piles ran dry) has nothing to discard.
                            if s.hands[seat].is_empty() {
                                self.end_turn(s, rng, log);
                                continue;
                            }
                        }
                        Action::TakeDiscard => self.take_discard(s, seat, log),
                        _ => {
                            self.step(s, seat, first, rng, log);
                            continue;
                        }
                    }
                    // The same seat discards.
                    s.phase = Phase::Discard;
                    let discard = ask(self, s, seat, bots, seat_rngs);
                    self.step(s, seat, discard, rng, log);
                }
                Phase::Over => return,
                _ => {
                    let action = ask(self, s, seat, bots, seat_rngs);
                    self.step(s, seat, action, rng, log);
                }
            }
        }
    }
}
