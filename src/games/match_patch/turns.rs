//! Match Patch played to its end with nothing recorded ([`crate::engine::Game::play_out`]),
//! for any line-up: each decision asked and applied under the phase it was asked in.
//!
//! The engine's plain loop (`engine::play_decisions`) asks the bot, then applies the action:
//! the phase is read by the view, again by the bot (draw or place) and the action, built by
//! the bot, is taken apart again by the rules. Here the decision is asked inside the arm of
//! the phase, so that with a bot the compiler inlines (a uniform table) the bot's dispatch
//! and the rules' dispatch on the action fold away: a draw decision yields a draw, a place
//! decision a placement. The same bots are asked the same questions in the same order with
//! the same streams, and the same actions are applied by the same rules ([`MatchPatch::step`]):
//! the same game (`play_out_is_the_plain_loop` compares the two from the deal or any later
//! decision of random games).

use super::rules::{Phase, State};
use super::{Event, MatchPatch};
use crate::engine::{EventLog, GameRng, Lineup, MAX_SEATS, ask};

impl MatchPatch {
    /// Plays the dealt game `s` to its end with nothing recorded: every decision asked and
    /// applied in the arm of its phase (Match Patch's rules draw no chance, so `_rng` is
    /// never drawn from).
    #[inline(always)]
    pub(super) fn play_turns<L: Lineup<MatchPatch> + ?Sized>(&self, s: &mut State, bots: &mut L, _rng: &mut GameRng, seat_rngs: &mut [GameRng; MAX_SEATS]) {
        let log: &mut EventLog<Event> = &mut EventLog::new(false);
        loop {
            let seat = s.current as usize;
            match s.phase {
                Phase::Draw { .. } => {
                    let action = ask(self, s, seat, bots, seat_rngs);
                    self.step::<false>(s, seat, action, log);
                }
                Phase::Place => {
                    let action = ask(self, s, seat, bots, seat_rngs);
                    self.step::<false>(s, seat, action, log);
                }
                Phase::Over => return,
            }
        }
    }
}
