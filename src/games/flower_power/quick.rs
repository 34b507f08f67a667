//! The quick loop of a table of `greedy` bots ([`crate::engine::Game::play_out`]): a turn in which no color
//! can complete a flower, the usual one, played as one piece.
//!
//! The engine's plain loop asks the bot for a mask of positions, then the rules find out
//! what the mask holds: one card or more, of which color, how many petals its flower had.
//! `greedy` already knew all of it: the single card's color is the lane of the least key
//! ([`greedy_turn_sse2`]), and the garden after the petal is that key's lane plus one, made
//! in the vector registers. So the game's chain of turns, each waiting for the garden the
//! last one left, is a few vector instructions a turn instead of the bot's search, the
//! rules' take and the petal's count read back from memory. Every other turn (a flower can
//! be completed) is the plain decision and play. The same decisions, the same state
//! (`greedy_play_out_is_the_plain_loop` compares the two from the deal or any later turn of
//! random games); `greedy` draws nothing and the rules draw no chance after the deal.

use super::bots::{GreedyBot, completion_play, greedy_turn_sse2};
use super::rules::State;
use super::{Event, FlowerPower};
use crate::engine::{EventLog, GameRng, Lineup, MAX_SEATS, Uniform, play_out_plain};

impl FlowerPower {
    /// [`crate::engine::Game::play_out`]: [`Self::play_greedy`] for a [`Uniform`] table of `greedy`, the
    /// engine's plain loop for any other.
    #[inline(always)]
    pub(super) fn play_out_quick<L: Lineup<FlowerPower> + ?Sized>(&self, s: &mut State, bots: &mut L, rng: &mut GameRng, seat_rngs: &mut [GameRng; MAX_SEATS]) {
        if bots.as_any_mut().is_some_and(|table| table.is::<Uniform<GreedyBot>>()) {
            self.play_greedy(s);
        } else {
            play_out_plain(self, s, bots, rng, seat_rngs);
        }
    }

    /// Plays the dealt game `s` to its end with `greedy` in every seat, nothing recorded.
    #[inline(always)]
    pub(super) fn play_greedy(&self, s: &mut State) {
        let log: &mut EventLog<Event> = &mut EventLog::new(false);
        while !s.over {
            let seat = s.current as usize;
            let hand = &s.hands[seat];
            let turn = greedy_turn_sse2(hand.colors_word(), s.garden.lanes(), self.petals, hand.slots());
            if turn.completing != 0 {
                let mask = completion_play(self, hand, s.garden.petals(), turn.completing);
                self.play(s, seat, mask, log);
                continue;
            }
            // One card of color `turn.color` (the seat holds a card: the engine asks no seat
            // with an empty hand), whose flower it cannot complete: no color completes.
            let c = turn.color;
            s.hands[seat].take_one_of(turn.first, c);
            s.left -= 1;
            if s.garden[c] == 0 {
                s.starter[c] = seat as u8;
            }
            s.garden.set_lanes(turn.garden_after);
            s.turns += 1;
            self.after_turn(s, log);
        }
    }
}
