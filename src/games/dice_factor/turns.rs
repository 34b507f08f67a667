//! The quick loop of Dice Factor ([`crate::engine::Game::play_out`]): a turn's usual pair of decisions (draw
//! or take the discard top, then discard) played as straight-line code.
//!
//! The engine's plain loop (`engine::play_out_plain`) asks the bot, then applies the action,
//! one decision at a time: every decision starts with a dispatch on the turn's phase, in the
//! bot and in the rules, and the action is built by the bot only to be taken apart again by
//! the rules. Here the turn's first decision is asked and applied knowing that the phase is
//! the start, and its discard knowing that the phase is the discard, so with a bot the
//! compiler inlines (a `collector` table) both dispatches fold away; anything else (the d8,
//! an action card's choice) goes through the plain step. The same bots are asked the same
//! questions in the same order with the same streams, and the same actions are applied: the
//! same game (`play_out_is_the_plain_loop` compares the two from the deal or any later
//! decision of random games).

use super::bots::{CollectorBot, first_off, holds_action};
use super::hand::{Hand, Holding, Reach, allowed_targets, one_logo, pair};
use super::rules::{Phase, State};
use super::{Action, DiceFactor, Event};
use crate::engine::{EventLog, GameRng, Lineup, MAX_SEATS, Uniform, ask};
use crate::games::chroma::Card;

impl DiceFactor {
    /// Plays the dealt game `s` to its end with nothing recorded ([`crate::engine::Game::play_out`]): at the
    /// start of a turn, a draw or a take is applied and the discard asked for without a
    /// dispatch on the phase between them; any other decision is one plain step.
    #[inline(always)]
    pub(super) fn play_turns<L: Lineup<DiceFactor> + ?Sized>(&self, s: &mut State, bots: &mut L, rng: &mut GameRng, seat_rngs: &mut [GameRng; MAX_SEATS]) {
        let log: &mut EventLog<Event> = &mut EventLog::new(false);
        let collectors = bots.as_any_mut().is_some_and(|table| table.is::<Uniform<CollectorBot>>());
        loop {
            if collectors {
                self.collector_turns(s, rng, log);
            }
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

impl DiceFactor {
    /// Everyday turns of a table of `collector`s, each played as one piece, from the start of
    /// a turn until a turn that is not one ([`Self::collector_stretch`]). No die is rolled in
    /// an everyday turn, so the targets hold for the whole stretch: two targets (no logo) are
    /// read as two fields ([`Hand::raised_by_two`], [`Holding::best_of_two`]) without
    /// asking, at each decision, how many targets there are.
    #[inline(always)]
    fn collector_turns(&self, s: &mut State, rng: &mut GameRng, log: &mut EventLog<Event>) {
        if s.phase != Phase::Start || !s.settled || s.d8.is_some() || s.taken.is_some() {
            return;
        }
        let allowed = allowed_targets(s.dice);
        match pair(allowed) {
            Some((a, b)) => self.collector_stretch(s, rng, log, allowed, |h, card| h.raised_by_two(card, a, b), |h| h.best_of_two(a, b)),
            None => match one_logo(allowed) {
                Some((0, other)) => {
                    self.collector_stretch(s, rng, log, allowed, |h, card| h.raised_under_logo::<0>(card, other), |h| h.best_under_logo::<0>(other))
                }
                Some((_, other)) => {
                    self.collector_stretch(s, rng, log, allowed, |h, card| h.raised_under_logo::<1>(card, other), |h| h.best_under_logo::<1>(other))
                }
                None => self.collector_stretch(s, rng, log, allowed, |h, card| h.raised_by_plain(card, allowed), |h| h.best_target_plain(allowed)),
            },
        }
    }

    /// [`Self::collector_turns`] under the targets `allowed`, with `raises` the collector's
    /// test of the discard top ([`Hand::raised_by`]) and `best` its best target
    /// ([`Holding::best_target`]) under them. The seat takes the discard top when it raises
    /// its highest score or draws, chooses its discard from the hand with the card added,
    /// held in registers ([`Holding::plus`], [`first_off`]), and the card in and the card out
    /// change the hand in one exchange ([`Hand::exchange`]). Returns, leaving the state as
    /// the plain loop would, at a turn that starts with an empty draw pile or whose discard
    /// is an action card (the hand then holds the card and the phase is the discard), or
    /// once a turn ended otherwise than quietly (a win, the cap, a skip). No chance is drawn,
    /// and no seat's stream: `collector` draws nothing.
    #[inline(always)]
    fn collector_stretch(
        &self,
        s: &mut State,
        rng: &mut GameRng,
        log: &mut EventLog<Event>,
        allowed: u16,
        raises: impl Fn(&Hand, Card) -> bool,
        best: impl Fn(Holding) -> usize,
    ) {
        let reach = Reach::new(allowed, self.params.goal);
        loop {
            let seat = s.current as usize;
            let Some(&drawn) = s.draw.last() else { return };
            let hand = s.hands[seat].holding();
            // `collector` at the start: the discard top when it raises its highest score
            // (never an action card: it counts toward no target), else the draw.
            let top = s.discard.last().copied();
            let take = top.is_some_and(|top| raises(&s.hands[seat], top));
            let card = if take {
                s.discard.pop();
                let top = top.expect("taken from a discard pile");
                debug_assert!(!crate::games::chroma::is_action(top), "collector took an action card");
                s.known[seat][top as usize] += 1;
                top
            } else {
                s.draw.pop();
                drawn
            };
            let after = hand.plus(card);
            if holds_action(after.held) {
                // Its discard is an action card: the draw or take done, the discard asked
                // in the plain way.
                s.hands[seat].add(card);
                s.phase = Phase::Discard;
                return;
            }
            let out = first_off(after.held, best(after));
            s.hands[seat].exchange(card, out);
            s.forget(seat, out);
            s.last_discard[seat] = Some((out, s.dice));
            s.discard.push(out);
            // `end_plain_turn` (the state is settled, no d8 was rolled).
            let next = self.next_seat(seat, s.reversed);
            let won = reach.hit(&s.hands[seat]);
            let quiet = (s.turns < self.params.turn_cap) & (s.skips[next] == 0) & !won;
            if !quiet {
                if won {
                    // `end_turn`'s win check, which finds this seat: the first in turn
                    // order, and in a settled state the only hand that changed.
                    self.declare_winner(s, seat, best(s.hands[seat].holding()), log);
                } else {
                    self.end_turn(s, rng, log);
                }
                return;
            }
            s.turns += 1;
            s.current = next as u8;
        }
    }
}
