//! Dice Factor's table state and the rules that change it: the deal and the dice, the three
//! turn options, the d8, the action cards resolved as the turn's discard, skips and the
//! direction of play, the lazy reshuffle, the win check after every turn and the cap.

use super::hand::{DIE_FACES, Hand, Reach, allowed_targets};
use super::params::{D8Face, MAX_PLAYERS};
use super::{Action, DiceFactor, DiceMetrics, Die, Event, View};
use crate::engine::rng::below;
use crate::engine::{EventLog, Game, GameInfo, GameRng, Lineup, MAX_SEATS, Outcome, SearchDefaults, ToMove, ask, ask_in};
use crate::games::chroma::{ActionCard, CARD_KINDS, Card, action_of, is_action, shuffle_cards};

/// Where the turn stands (what the current seat decides).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Start of the turn: draw, take the discard top, or roll the d8.
    Start,
    /// The turn's discard.
    Discard,
    /// A trade_hands card was discarded: choose the player.
    TradeHandsCard,
    /// A trade_one_card card was discarded: choose the card to give and the player.
    TradeOneCard,
    /// A dice card was discarded: reroll one die or decline.
    DiceCard,
    /// The d8 showed a swap: swap a card with a player's random card, or decline.
    D8Swap,
    /// The d8 showed a trade: trade hands with a player, or decline.
    D8Trade,
    /// The d8 showed a reroll: reroll one die, or decline.
    D8Reroll,
    /// The game has ended.
    Over,
}

/// The d8 roll of the current turn, kept until the turn ends to measure its effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct D8Roll {
    /// What the face does.
    pub outcome: D8Face,
    /// Whether the roller did it (a swap, trade or reroll may be declined).
    pub used: bool,
    /// The roller's highest score (over the targets the dice allow) before the roll.
    pub before: u32,
}

/// Per-game tallies the report reads when the game is over.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// d8 rolls by outcome (nothing, swap, trade, reroll).
    pub d8_rolls: [u32; 4],
    /// d8 outcomes the roller did (not declined).
    pub d8_used: [u32; 4],
    /// Sum of the change of the roller's highest score over the turn, by outcome.
    pub d8_gain: [i64; 4],
    /// Sum of the squared changes, by outcome.
    pub d8_gain_sq: [u64; 4],
    /// d8 rolls after which the roller won at that turn's check, by outcome.
    pub d8_wins: [u32; 4],
    /// Dice rerolled (d8 face or dice card, not declined).
    pub rerolls: u32,
    /// Action cards resolved (with effect), by card (skip, reverse, trade_one_card,
    /// trade_hands, add_a_card, dice).
    pub actions: [u32; 6],
    /// Skipped turns.
    pub skipped: u32,
    /// Reshuffles of the discard pile into the draw pile.
    pub reshuffles: u32,
}

/// The whole table, hidden cards included. Bots never see this, only a [`super::View`].
#[derive(Clone, Debug)]
pub struct State {
    /// Draw pile, top card last.
    pub draw: Vec<Card>,
    /// Discard pile (face up), top card last.
    pub discard: Vec<Card>,
    /// Every seat's hand (with the add_a_card cards in front of it).
    pub hands: [Hand; MAX_PLAYERS],
    /// The colors die and the shapes die (faces 0..5 in canonical order, 5 = logo).
    pub dice: [u8; 2],
    /// The seat whose turn it is.
    pub current: u8,
    /// Whether play runs backwards (seat numbers decreasing) after a reverse.
    pub reversed: bool,
    /// Turns each seat will lose (skips add up).
    pub skips: [u16; MAX_PLAYERS],
    /// Where the turn stands.
    pub phase: Phase,
    /// Turns played, the current one included (a skipped turn is not a turn).
    pub turns: u32,
    /// An action card taken from the discard pile this turn and still held: discarding that
    /// copy again this turn has no effect.
    pub taken: Option<Card>,
    /// The d8 rolled this turn.
    pub d8: Option<D8Roll>,
    /// The winner, once there is one.
    pub winner: Option<u8>,
    /// The target the winner's hand completed (0..5 colors, 5..10 shapes).
    pub win_target: u8,
    /// Whose turn it was when the game was won.
    pub won_in_turn_of: u8,
    /// Whether some hand held a win when the cards were dealt and the dice rolled.
    pub dealt_winning: bool,
    /// Index into [`END_REASONS`] once over.
    pub end_reason: u8,
    /// Tallies for the report.
    pub tally: Tally,
    /// Copies of each card in each hand whose identity is public: taken from the discard
    /// pile (face up) and not discarded or given away since; moved with the hand in a trade,
    /// cleared when a random card is taken from the hand (determinization).
    pub known: [[u8; CARD_KINDS]; MAX_PLAYERS],
    /// Each hand's last discard (face up) and the dice it was made under, while the hand has
    /// not changed since but by its owner's next draw or take: what a search bot reads of an
    /// opponent's choice (determinization); moved with the hand in a trade, cleared when a
    /// card is swapped into or out of it.
    pub last_discard: [Option<(Card, [u8; 2])>; MAX_PLAYERS],
    /// No hand but the current seat's can hold a win: every hand was found short of the goal
    /// under the current dice at the last win check (or the deal), and since then only the
    /// current seat's hand has changed. The everyday turn's end then checks that hand alone
    /// (`DiceFactor::end_plain_turn`); `false` makes the next check look at every hand (a
    /// sampled state sets it so). `check_invariants` verifies it.
    pub settled: bool,
    /// Whether the public record that only samples read (`known`, `last_discard`) is kept:
    /// from every deal, until no seat samples
    /// ([`HiddenInfo::skip_sample_records`](crate::engine::HiddenInfo::skip_sample_records)); the record is stale after that.
    pub records: bool,
}

/// What the current dice allow, read from them once for many turns: the targets
/// ([`allowed_targets`]) and the test of a win among them ([`Reach`] of the goal).
#[derive(Clone, Copy, Debug)]
struct Allowed {
    /// The targets the dice allow.
    targets: u16,
    /// Whether a hand holds the goal toward one of them.
    win: Reach,
}

impl Allowed {
    /// What `dice` allow, racing for `goal` cards.
    #[inline(always)]
    fn new(dice: [u8; 2], goal: u32) -> Allowed {
        let targets = allowed_targets(dice);
        Allowed { targets, win: Reach::new(targets, goal) }
    }
}

/// What the everyday turn's end reads of the table besides the active hand, unchanged by an
/// everyday turn that ends quietly (the next seat's turn, [`DiceFactor::end_plain_turn`]):
/// what the dice allow, the direction of play, and whether the state is settled with no d8
/// rolled. `play_out` reads it once for a stretch of such turns and keeps it in registers
/// (the state's copies were reloaded every turn); a plain step reads it afresh.
#[derive(Clone, Copy, Debug)]
struct Stretch {
    /// What the dice allow.
    allowed: Allowed,
    /// [`State::reversed`].
    reversed: bool,
    /// [`State::settled`], and no d8 rolled this turn.
    settled: bool,
}

impl Stretch {
    /// The stretch of `s` under dice that allow `allowed` (those of `s.dice`).
    #[inline(always)]
    fn new(s: &State, allowed: Allowed) -> Stretch {
        Stretch { allowed, reversed: s.reversed, settled: s.settled & s.d8.is_none() }
    }

    /// [`Stretch::new`] with what `s.dice` allow, racing for `goal` cards.
    #[inline(always)]
    fn read(s: &State, goal: u32) -> Stretch {
        Stretch::new(s, Allowed::new(s.dice, goal))
    }
}

/// A card just discarded and whether its action takes effect (not when it is the action card
/// taken from the discard pile this turn): what [`DiceFactor`]'s discard resolves.
#[derive(Clone, Copy, Debug)]
struct Discarded {
    /// The card.
    card: Card,
    /// Whether its action, if it has one, takes effect.
    effect: bool,
}

/// Someone held 5 cards counting toward a current target.
pub const END_FIVE: u8 = 0;
/// The turn cap was reached: no winner.
pub const END_CAP: u8 = 1;
/// End reason names for reports and JSON.
pub const END_REASONS: &[&str] = &["five_of_a_kind", "cap"];

/// Index of an action card in [`Tally::actions`].
fn action_index(a: ActionCard) -> usize {
    match a {
        ActionCard::Skip => 0,
        ActionCard::Reverse => 1,
        ActionCard::TradeOneCard => 2,
        ActionCard::TradeHands => 3,
        ActionCard::AddACard => 4,
        _ => 5,
    }
}

impl State {
    /// `seat` discarded or gave away a `card`: one publicly known copy fewer (if any).
    #[inline]
    pub(super) fn forget(&mut self, seat: usize, card: Card) {
        if self.records {
            let known = &mut self.known[seat][card as usize];
            *known = known.saturating_sub(1);
        }
    }

    /// `seat` discarded `card` (face up) under the current dice: one publicly known copy fewer,
    /// and the discard its next sample must explain.
    #[inline]
    fn note_discard(&mut self, seat: usize, card: Card) {
        if self.records {
            let known = &mut self.known[seat][card as usize];
            *known = known.saturating_sub(1);
            self.last_discard[seat] = Some((card, self.dice));
        }
    }
}

impl DiceFactor {
    /// Deals `hand_size` cards to each seat off the shuffled draw pile (seat 0 first, one
    /// hand at a time), rolls both dice and starts seat 0's turn 1. Inlined, so that the
    /// quick loop's deal (a log that never records) holds no event code.
    #[inline(always)]
    fn deal_hands(&self, s: &mut State, rng: &mut GameRng, log: &mut EventLog<Event>) {
        let size = self.params.hand_size as usize;
        for seat in 0..self.players {
            // The top `size` cards, as `size` pops would take them (a hand is a multiset: the
            // order of its adds does not matter).
            let rest = s.draw.len().checked_sub(size).expect("deck size checked against the hands");
            s.hands[seat].deal(&s.draw[rest..]);
            s.draw.truncate(rest);
            log.emit(|| Event::Dealt { seat: seat as u8, hand: s.hands[seat] });
        }
        s.dice = [below(DIE_FACES, rng) as u8, below(DIE_FACES, rng) as u8];
        log.emit(|| Event::DiceRolled { seat: 0, colors: s.dice[0], shapes: s.dice[1] });
        // Every hand tested, without a branch per hand (a win at the deal is rare).
        let reach = Reach::new(allowed_targets(s.dice), self.params.goal);
        s.dealt_winning = s.hands[..self.players].iter().fold(false, |won, h| won | reach.hit(h));
        s.settled = !s.dealt_winning;
        log.emit(|| Event::TurnStarts { turn: 1, seat: 0 });
    }

    /// The seat after `seat` in the current direction of play.
    #[inline]
    pub fn next_seat(&self, seat: usize, reversed: bool) -> usize {
        // (seat ± 1) mod players for a seat at the table, without a division.
        match (reversed, seat) {
            (true, 0) => self.players - 1,
            (true, _) => seat - 1,
            (false, _) if seat + 1 >= self.players => 0,
            (false, _) => seat + 1,
        }
    }

    /// The top of the draw pile, shuffling the whole discard pile into a new draw pile when
    /// the draw pile is empty (if the variant allows); `None` when there is nothing to draw.
    #[inline(always)]
    fn draw_card<const LOG: bool>(&self, s: &mut State, rng: &mut GameRng, log: &mut EventLog<Event>) -> Option<Card> {
        if s.draw.is_empty() {
            self.refill::<LOG>(s, rng, log);
        }
        s.draw.pop()
    }

    /// [`DiceFactor::draw_card`]'s rare branch, out of line: an empty draw pile becomes the
    /// shuffled discard pile when the variant allows it and there is one.
    #[cold]
    #[inline(never)]
    fn refill<const LOG: bool>(&self, s: &mut State, rng: &mut GameRng, log: &mut EventLog<Event>) {
        if self.params.reshuffle_discard && !s.discard.is_empty() {
            std::mem::swap(&mut s.draw, &mut s.discard);
            shuffle_cards(&mut s.draw, rng);
            s.tally.reshuffles += 1;
            log.emit_if::<LOG>(|| Event::Reshuffled { order: s.draw.clone() });
        }
    }

    /// Draws one card into `seat`'s hand (or nothing); whether it drew one.
    #[inline(always)]
    pub(super) fn draw_into<const LOG: bool>(&self, s: &mut State, seat: usize, rng: &mut GameRng, log: &mut EventLog<Event>) -> bool {
        match self.draw_card::<LOG>(s, rng, log) {
            Some(card) => {
                s.hands[seat].add(card);
                log.emit_if::<LOG>(|| Event::Drew { seat: seat as u8, card });
                true
            }
            None => {
                log.emit_if::<LOG>(|| Event::DrewNothing { seat: seat as u8 });
                false
            }
        }
    }

    /// Option 2: `seat` takes the top of the discard pile into its hand (the phase is left
    /// to the caller: the discard follows).
    #[inline(always)]
    pub(super) fn take_discard<const LOG: bool>(&self, s: &mut State, seat: usize, log: &mut EventLog<Event>) {
        let card = s.discard.pop().expect("taking needs a discard pile");
        s.hands[seat].add(card);
        if s.records {
            s.known[seat][card as usize] += 1;
        }
        if is_action(card) {
            s.taken = Some(card);
        }
        log.emit_if::<LOG>(|| Event::TookDiscard { seat: seat as u8, card });
    }

    /// Moves on to the discard, or ends the turn when the hand is empty.
    #[inline]
    pub(super) fn to_discard<const LOG: bool>(&self, s: &mut State, rng: &mut GameRng, log: &mut EventLog<Event>) {
        if s.hands[s.current as usize].is_empty() {
            self.end_turn::<LOG>(s, rng, log);
        } else {
            s.phase = Phase::Discard;
        }
    }

    /// Marks this turn's d8 outcome as done (not declined).
    #[inline]
    fn mark_used(&self, s: &mut State) {
        if let Some(r) = s.d8.as_mut() {
            r.used = true;
        }
    }

    /// Option 3: roll the d8 and move to its choice (or end the turn on "nothing", or when the
    /// outcome cannot be done: no card to swap, or nobody to swap with).
    fn roll_d8<const LOG: bool>(&self, s: &mut State, seat: usize, rng: &mut GameRng, log: &mut EventLog<Event>) {
        let face = below(self.params.d8.len() as u32, rng) as usize;
        let outcome = self.params.d8[face];
        let before = s.hands[seat].highest(allowed_targets(s.dice));
        s.d8 = Some(D8Roll { outcome, used: false, before });
        log.emit_if::<LOG>(|| Event::RolledD8 { seat: seat as u8, face: face as u8 + 1, outcome });
        match outcome {
            D8Face::Nothing => self.end_turn::<LOG>(s, rng, log),
            D8Face::Swap => {
                if self.can_swap(s, seat) {
                    s.phase = Phase::D8Swap;
                } else {
                    self.end_turn::<LOG>(s, rng, log);
                }
            }
            D8Face::Trade => s.phase = Phase::D8Trade,
            D8Face::Reroll => s.phase = Phase::D8Reroll,
        }
    }

    /// Whether `seat` can swap a card: it holds one and another seat holds one.
    pub(super) fn can_swap(&self, s: &State, seat: usize) -> bool {
        !s.hands[seat].is_empty() && (0..self.players).any(|t| t != seat && !s.hands[t].is_empty())
    }

    /// The turn's discard: an action card resolves (unless it is the copy taken from the
    /// discard pile this turn); add_a_card goes in front of its owner, who draws 2 and
    /// discards again. The next seat when the turn ended quietly
    /// ([`DiceFactor::end_plain_turn`]), else `None`.
    #[inline(always)]
    fn resolve_discard<const LOG: bool>(
        &self,
        s: &mut State,
        seat: usize,
        discarded: Discarded,
        stretch: Stretch,
        rng: &mut GameRng,
        log: &mut EventLog<Event>,
    ) -> Option<usize> {
        let Discarded { card, effect } = discarded;
        if !is_action(card) {
            // The everyday discard, first: nothing to resolve (what the general path below
            // does for a card without an action, without its tests).
            s.discard.push(card);
            log.emit_if::<LOG>(|| Event::Discarded { seat: seat as u8, card, effect });
            return self.end_plain_turn::<LOG>(s, seat, stretch, rng, log);
        }
        let action = if effect { action_of(card) } else { None };
        if action == Some(ActionCard::AddACard) {
            s.hands[seat].extra += 1;
            s.tally.actions[action_index(ActionCard::AddACard)] += 1;
            log.emit_if::<LOG>(|| Event::Discarded { seat: seat as u8, card, effect });
            self.draw_into::<LOG>(s, seat, rng, log);
            self.draw_into::<LOG>(s, seat, rng, log);
            self.to_discard::<LOG>(s, rng, log);
            return None;
        }
        s.discard.push(card);
        log.emit_if::<LOG>(|| Event::Discarded { seat: seat as u8, card, effect });
        let Some(a) = action else {
            return self.end_plain_turn::<LOG>(s, seat, stretch, rng, log);
        };
        s.tally.actions[action_index(a)] += 1;
        match a {
            ActionCard::Skip => {
                let next = self.next_seat(seat, s.reversed);
                s.skips[next] += 1;
                log.emit_if::<LOG>(|| Event::SkipPlayed { seat: seat as u8, target: next as u8 });
                self.end_turn::<LOG>(s, rng, log);
            }
            ActionCard::Reverse => {
                s.reversed = !s.reversed;
                log.emit_if::<LOG>(|| Event::Reversed { seat: seat as u8 });
                self.end_turn::<LOG>(s, rng, log);
            }
            ActionCard::TradeHands => s.phase = Phase::TradeHandsCard,
            ActionCard::TradeOneCard => {
                if s.hands[seat].is_empty() {
                    self.end_turn::<LOG>(s, rng, log);
                } else {
                    s.phase = Phase::TradeOneCard;
                }
            }
            _ => s.phase = Phase::DiceCard,
        }
        None
    }

    /// The seat whose hand holds `goal` cards toward a current target, checked from the
    /// active seat on in turn order; with the target completed. Every hand is tested
    /// without a branch, then the first in turn order is picked from the mask of those that
    /// hold it; the tests compare it with the seat-by-seat `DiceFactor::find_winner_plain`.
    #[inline]
    pub fn find_winner(&self, s: &State) -> Option<(usize, usize)> {
        let allowed = allowed_targets(s.dice);
        let reach = Reach::new(allowed, self.params.goal);
        let mut hits = 0u32;
        for (seat, h) in s.hands[..self.players].iter().enumerate() {
            hits |= u32::from(reach.hit(h)) << seat;
        }
        if hits == 0 {
            return None;
        }
        let current = s.current as usize;
        let seat = if s.reversed {
            // current, current - 1, ..., 0, then from the last seat down.
            let upto = hits & ((2u32 << current) - 1);
            31 - (if upto != 0 { upto } else { hits }).leading_zeros()
        } else {
            // current, current + 1, ..., the last seat, then from seat 0 up.
            let from = hits & !((1u32 << current) - 1);
            (if from != 0 { from } else { hits }).trailing_zeros()
        } as usize;
        Some((seat, s.hands[seat].best_target(allowed)))
    }

    /// [`DiceFactor::find_winner`] seat by seat in turn order, as the rule reads.
    #[cfg(test)]
    pub fn find_winner_plain(&self, s: &State) -> Option<(usize, usize)> {
        let allowed = allowed_targets(s.dice);
        let reach = Reach::new(allowed, self.params.goal);
        let mut seat = s.current as usize;
        for _ in 0..self.players {
            let h = &s.hands[seat];
            if reach.hit(h) {
                return Some((seat, h.best_target(allowed)));
            }
            seat = self.next_seat(seat, s.reversed);
        }
        None
    }

    /// [`DiceFactor::end_turn`] after a turn whose discard resolved nothing (the everyday
    /// turn: a draw or a take, then a discard) of the active seat `active` (the caller's own, not read
    /// back from the state), in the `stretch` of the state (what the dice allow, the direction,
    /// whether it is settled; `play_out` keeps it from turn to turn): only the active hand changed and no die was rolled, so in a [`State::settled`] state
    /// only that hand can hold a win. The common cases are done here, inline, testing that one
    /// hand: no win, no cap, no skip ahead (the next seat's turn), or the active hand's win
    /// (the first hand `find_winner` tests, and the only one that can hold a win); anything
    /// else goes to [`DiceFactor::end_turn`], which checks every hand, as does a state that is
    /// not settled. The same state and events as `end_turn`: the tests play mixed-bot games
    /// and compare every action with the state unsettled (`ending_a_plain_turn_is_end_turn`).
    /// The next seat when the turn ended quietly (the next seat's turn, the stretch unchanged),
    /// else `None`.
    #[inline(always)]
    fn end_plain_turn<const LOG: bool>(&self, s: &mut State, active: usize, stretch: Stretch, rng: &mut GameRng, log: &mut EventLog<Event>) -> Option<usize> {
        debug_assert_eq!(active, s.current as usize, "the active seat ends its turn");
        debug_assert!(stretch.reversed == s.reversed && stretch.settled == (s.settled & s.d8.is_none()), "a stretch of another state");
        let Stretch { allowed, reversed, settled } = stretch;
        let next = self.next_seat(active, reversed);
        let won = allowed.win.hit(&s.hands[active]);
        // One branch for the four tests (each almost always passes).
        if settled & !won & (s.turns < self.params.turn_cap) & (s.skips[next] == 0) {
            s.taken = None;
            s.turns += 1;
            s.current = next as u8;
            s.phase = Phase::Start;
            log.emit_if::<LOG>(|| Event::TurnStarts { turn: s.turns, seat: next as u8 });
            Some(next)
        } else if settled & won {
            // `end_turn`'s win: no d8 to tally, the active seat first in turn order.
            s.taken = None;
            let target = s.hands[active].best_target(allowed.targets);
            self.declare_winner::<LOG>(s, active, target, log);
            None
        } else {
            self.end_turn::<LOG>(s, rng, log);
            None
        }
    }

    /// Ends the current turn: the win check, the cap, then the next seat's turn (skipped
    /// seats lose theirs).
    pub(super) fn end_turn<const LOG: bool>(&self, s: &mut State, _rng: &mut GameRng, log: &mut EventLog<Event>) {
        let active = s.current as usize;
        let win = self.find_winner(s);
        if let Some(r) = s.d8.take() {
            let i = r.outcome.index();
            let t = &mut s.tally;
            t.d8_rolls[i] += 1;
            t.d8_used[i] += u32::from(r.used);
            let gain = s.hands[active].highest(allowed_targets(s.dice)) as i64 - r.before as i64;
            t.d8_gain[i] += gain;
            t.d8_gain_sq[i] += (gain * gain) as u64;
            t.d8_wins[i] += u32::from(win.is_some_and(|(w, _)| w == active));
        }
        s.taken = None;
        if let Some((w, target)) = win {
            self.declare_winner::<LOG>(s, w, target, log);
            return;
        }
        // Every hand was just found short of the goal.
        s.settled = true;
        if s.turns >= self.params.turn_cap {
            s.end_reason = END_CAP;
            s.phase = Phase::Over;
            log.emit_if::<LOG>(|| Event::Capped { turns: s.turns });
            return;
        }
        let mut next = self.next_seat(active, s.reversed);
        while s.skips[next] > 0 {
            s.skips[next] -= 1;
            s.tally.skipped += 1;
            log.emit_if::<LOG>(|| Event::Skipped { seat: next as u8 });
            next = self.next_seat(next, s.reversed);
        }
        s.turns += 1;
        s.current = next as u8;
        s.phase = Phase::Start;
        log.emit_if::<LOG>(|| Event::TurnStarts { turn: s.turns, seat: next as u8 });
    }

    /// `w` won in the current seat's turn, completing `target`: the game is over (the end
    /// of [`DiceFactor::end_turn`] with a winner; `taken` already cleared).
    #[inline(always)]
    pub(super) fn declare_winner<const LOG: bool>(&self, s: &mut State, w: usize, target: usize, log: &mut EventLog<Event>) {
        s.winner = Some(w as u8);
        s.win_target = target as u8;
        s.won_in_turn_of = s.current;
        s.end_reason = END_FIVE;
        s.phase = Phase::Over;
        log.emit_if::<LOG>(|| Event::Won { seat: w as u8, target: target as u8, turns: s.turns });
    }

    /// Applies one action of the current seat: the rules of [`Game::apply`] and of
    /// [`Game::play_out`] alike. `LOG`: whether this copy records events
    /// ([`EventLog::emit_if`]; `play_out`'s copy holds no event code).
    #[inline(always)]
    fn step<const LOG: bool>(&self, s: &mut State, seat: usize, action: Action, rng: &mut GameRng, log: &mut EventLog<Event>) {
        match action {
            Action::Draw => {
                self.draw_into::<LOG>(s, seat, rng, log);
                self.to_discard::<LOG>(s, rng, log);
            }
            Action::TakeDiscard => {
                self.take_discard::<LOG>(s, seat, log);
                s.phase = Phase::Discard;
            }
            Action::RollD8 => self.roll_d8::<LOG>(s, seat, rng, log),
            Action::Discard(card) => {
                self.discard::<LOG>(s, seat, card, Stretch::read(s, self.params.goal), rng, log);
            }
            Action::DiscardTaken => {
                let card = s.taken.take().expect("a taken action card");
                s.hands[seat].remove(card);
                s.note_discard(seat, card);
                self.resolve_discard::<LOG>(s, seat, Discarded { card, effect: false }, Stretch::read(s, self.params.goal), rng, log);
            }
            Action::Give { card, target } => {
                let t = target as usize;
                s.hands[seat].remove(card);
                s.forget(seat, card);
                let took = if s.hands[t].is_empty() {
                    None
                } else {
                    let c = s.hands[t].nth(below(s.hands[t].len() as u32, rng) as usize);
                    s.hands[t].remove(c);
                    // Nobody else knows which card left: the table forgets `t`'s known cards.
                    s.known[t] = [0; CARD_KINDS];
                    Some(c)
                };
                s.hands[t].add(card);
                s.last_discard[seat] = None;
                s.last_discard[t] = None;
                if let Some(c) = took {
                    s.hands[seat].add(c);
                }
                if s.taken == Some(card) && s.hands[seat].count(card) == 0 {
                    s.taken = None;
                }
                self.mark_used(s);
                log.emit_if::<LOG>(|| Event::CardsSwapped { seat: seat as u8, target });
                log.emit_if::<LOG>(|| Event::SwapDetail { seat: seat as u8, target, gave: card, took });
                self.end_turn::<LOG>(s, rng, log);
            }
            Action::TradeHands(target) => {
                s.hands.swap(seat, target as usize);
                s.known.swap(seat, target as usize);
                s.last_discard.swap(seat, target as usize);
                self.mark_used(s);
                log.emit_if::<LOG>(|| Event::TradedHands { seat: seat as u8, target });
                self.end_turn::<LOG>(s, rng, log);
            }
            Action::Reroll(die) => {
                let face = below(DIE_FACES, rng) as u8;
                s.dice[die as usize] = face;
                s.tally.rerolls += 1;
                self.mark_used(s);
                log.emit_if::<LOG>(|| Event::Rerolled { seat: seat as u8, die, face });
                self.end_turn::<LOG>(s, rng, log);
            }
            Action::Decline => {
                log.emit_if::<LOG>(|| Event::Declined { seat: seat as u8 });
                self.end_turn::<LOG>(s, rng, log);
            }
        }
    }

    /// [`Action::Discard`] of `card` by `seat`, in the `stretch` of the state (the everyday
    /// turn's end reads it; `play_out` keeps it from turn to turn). The next seat when the
    /// turn ended quietly, else `None` ([`DiceFactor::resolve_discard`]).
    #[inline(always)]
    fn discard<const LOG: bool>(
        &self,
        s: &mut State,
        seat: usize,
        card: Card,
        stretch: Stretch,
        rng: &mut GameRng,
        log: &mut EventLog<Event>,
    ) -> Option<usize> {
        let older_copy = s.taken == Some(card) && s.hands[seat].count(card) >= 2;
        let effect = s.taken != Some(card) || older_copy;
        if !effect {
            s.taken = None;
        }
        s.hands[seat].remove(card);
        s.note_discard(seat, card);
        self.resolve_discard::<LOG>(s, seat, Discarded { card, effect }, stretch, rng, log)
    }

    /// One everyday turn of `seat` (the turn's phase is the start) in the `stretch` of the
    /// state, as [`Game::play_out`] plays it: the seat's first decision asked and applied
    /// knowing that the phase is the start, and its discard knowing that the phase is the
    /// discard, so with a bot the compiler inlines both dispatches fold away. The next seat
    /// when the turn ended quietly (its turn starts in the same stretch), else `None` (a d8
    /// roll, an action card, a full win check: the caller reads the state again).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn everyday_turn<L: Lineup<Self> + ?Sized>(
        &self,
        s: &mut State,
        seat: usize,
        stretch: Stretch,
        bots: &mut L,
        rng: &mut GameRng,
        seat_rngs: &mut [GameRng; MAX_SEATS],
        log: &mut EventLog<Event>,
    ) -> Option<usize> {
        let targets = stretch.allowed.targets;
        match ask_in(self, s, seat, &View::reading(seat, s, self.players, targets, Phase::Start), bots, seat_rngs) {
            Action::Draw => {
                // `to_discard`, with its usual branch below: an empty hand (both piles ran
                // dry) has nothing to discard; a hand that drew holds one.
                if !self.draw_into::<false>(s, seat, rng, log) && s.hands[seat].is_empty() {
                    self.end_turn::<false>(s, rng, log);
                    return None;
                }
            }
            Action::TakeDiscard => self.take_discard::<false>(s, seat, log),
            first => {
                // The d8: its choices may reroll a die.
                self.step::<false>(s, seat, first, rng, log);
                return None;
            }
        }
        // The same seat discards.
        s.phase = Phase::Discard;
        match ask_in(self, s, seat, &View::reading(seat, s, self.players, targets, Phase::Discard), bots, seat_rngs) {
            Action::Discard(card) => self.discard::<false>(s, seat, card, stretch, rng, log),
            other => {
                self.step::<false>(s, seat, other, rng, log);
                None
            }
        }
    }
}

impl Game for DiceFactor {
    type State = State;
    type Action = Action;
    type View<'a> = View<'a>;
    type Event = Event;
    type Metrics = DiceMetrics;
    const INFO: GameInfo = GameInfo {
        id: "dice-factor",
        name: "Dice Factor",
        end_reasons: END_REASONS,
        length_unit: "turns",
        standing_unit: "cards toward a target",
        default_cap: 1000,
        default_bot: "collector",
        search: SearchDefaults {
            // Rollouts with `collector` to the end measured stronger than a cut-off (the
            // standing, the highest count toward a target, says little about who completes one).
            depth: 0,
            // `ismcts` models the table with `collector` and rolls out with it: measured stronger
            // than searching the opponents' choices (docs/skill.md).
            rollout: 1,
            opponents: 1,
            // The search's own moves start from `gambler`'s (it beats three `collector`s, 28%):
            // with `collector` as its prior the search played level with the table.
            policy: Some("gambler"),
        },
        deals_in_place: true,
        ..GameInfo::DEFAULTS
    };

    fn seats(&self) -> usize {
        self.players
    }

    fn turn_cap(&self) -> u32 {
        self.params.turn_cap
    }

    /// Shuffles, deals `hand_size` cards to each seat (seat 0 first, one hand at a time) and
    /// rolls both dice; seat 0 starts turn 1.
    fn deal(&self, rng: &mut GameRng, log: &mut EventLog<Event>) -> State {
        let mut draw = Vec::with_capacity(self.deck.len());
        draw.extend_from_slice(&self.deck);
        shuffle_cards(&mut draw, rng);
        let mut s = State {
            draw,
            discard: Vec::with_capacity(self.deck.len()),
            hands: [Hand::EMPTY; MAX_PLAYERS],
            dice: [0; 2],
            current: 0,
            reversed: false,
            skips: [0; MAX_PLAYERS],
            phase: Phase::Start,
            turns: 1,
            taken: None,
            d8: None,
            winner: None,
            win_target: 0,
            won_in_turn_of: 0,
            dealt_winning: false,
            end_reason: END_FIVE,
            tally: Tally::default(),
            known: [[0; CARD_KINDS]; MAX_PLAYERS],
            last_discard: [None; MAX_PLAYERS],
            settled: false,
            records: true,
        };
        self.deal_hands(&mut s, rng, log);
        s
    }

    /// [`Game::deal`] into `s`, a state of an earlier game: every field reset and the
    /// piles refilled in place (the same draws, the same events, the same state).
    #[inline(always)]
    fn deal_into(&self, rng: &mut GameRng, log: &mut EventLog<Event>, s: &mut State) {
        // Every field named, so that a new one cannot be left out.
        let State {
            draw,
            discard,
            // Written whole by the deal ([`Hand::deal`]).
            hands: _,
            dice,
            current,
            reversed,
            skips,
            phase,
            turns,
            taken,
            d8,
            winner,
            win_target,
            won_in_turn_of,
            dealt_winning,
            end_reason,
            tally,
            known,
            last_discard,
            settled,
            records,
        } = s;
        draw.clear();
        draw.extend_from_slice(&self.deck);
        shuffle_cards(draw, rng);
        discard.clear();
        // Per-seat fields: only the table's seats. The seats past them are never written
        // (nobody sits there), so they are still as the first deal left them; clearing a
        // whole 1 KB of them per game was a memset call (the harness's `check_deal_in_place`
        // compares the result with a new deal).
        let n = self.players;
        *dice = [0; 2];
        *current = 0;
        *reversed = false;
        skips[..n].fill(0);
        *phase = Phase::Start;
        *turns = 1;
        *taken = None;
        *d8 = None;
        *winner = None;
        *win_target = 0;
        *won_in_turn_of = 0;
        *dealt_winning = false;
        *end_reason = END_FIVE;
        *tally = Tally::default();
        // The record is cleared only when the last game kept it: a game that stopped keeping
        // it (`skip_sample_records`, right after its deal had cleared it) only ever wrote
        // zeros and `None` there since (a swap clears both hands' rows, a trade swaps
        // rows), so it is clear already (`check_invariants` holds it so). Two `memset` calls
        // a game fewer in the quick loop.
        if *records {
            known[..n].fill([0; CARD_KINDS]);
            last_discard[..n].fill(None);
        }
        *settled = false;
        *records = true;
        self.deal_hands(s, rng, log);
    }

    #[inline]
    fn to_move(&self, s: &State) -> ToMove {
        if s.phase == Phase::Over { ToMove::Over } else { ToMove::Seat(s.current as usize) }
    }

    #[inline]
    fn view<'a>(&self, s: &'a State, seat: usize) -> View<'a> {
        View::new(seat, s, self.players)
    }

    fn legal_actions(&self, view: &View, out: &mut Vec<Action>) {
        let n = self.players;
        let others = (0..n).filter(|&t| t != view.seat);
        let held = || {
            let mut bits = view.hand.held();
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let c = bits.trailing_zeros() as Card;
                    bits &= bits - 1;
                    c
                })
            })
        };
        match view.decision {
            Phase::Start => {
                out.push(Action::Draw);
                if !view.discard.is_empty() {
                    out.push(Action::TakeDiscard);
                }
                out.push(Action::RollD8);
            }
            Phase::Discard => {
                out.extend(held().map(Action::Discard));
                if view.taken.is_some_and(|t| view.hand.count(t) >= 2) {
                    out.push(Action::DiscardTaken);
                }
            }
            Phase::TradeHandsCard => out.extend(others.map(|t| Action::TradeHands(t as u8))),
            Phase::D8Trade => {
                out.extend(others.map(|t| Action::TradeHands(t as u8)));
                out.push(Action::Decline);
            }
            Phase::TradeOneCard | Phase::D8Swap => {
                let swap = view.decision == Phase::D8Swap;
                for card in held() {
                    for t in (0..n).filter(|&t| t != view.seat && (!swap || view.hand_size(t) > 0)) {
                        out.push(Action::Give { card, target: t as u8 });
                    }
                }
                if swap {
                    out.push(Action::Decline);
                }
            }
            Phase::DiceCard | Phase::D8Reroll => out.extend([Action::Reroll(Die::Colors), Action::Reroll(Die::Shapes), Action::Decline]),
            Phase::Over => {}
        }
    }

    fn is_legal(&self, view: &View, action: &Action) -> bool {
        let other = |t: u8| (t as usize) < self.players && t as usize != view.seat;
        let holds = |c: Card| (c as usize) < CARD_KINDS && view.hand.count(c) > 0;
        match (*action, view.decision) {
            (Action::Draw | Action::RollD8, Phase::Start) => true,
            (Action::TakeDiscard, Phase::Start) => !view.discard.is_empty(),
            (Action::Discard(c), Phase::Discard) => holds(c),
            (Action::DiscardTaken, Phase::Discard) => view.taken.is_some_and(|t| view.hand.count(t) >= 2),
            (Action::TradeHands(t), Phase::TradeHandsCard | Phase::D8Trade) => other(t),
            (Action::Give { card, target }, Phase::TradeOneCard) => holds(card) && other(target),
            (Action::Give { card, target }, Phase::D8Swap) => holds(card) && other(target) && view.hand_size(target as usize) > 0,
            (Action::Reroll(_), Phase::DiceCard | Phase::D8Reroll) => true,
            (Action::Decline, Phase::DiceCard | Phase::D8Reroll | Phase::D8Swap | Phase::D8Trade) => true,
            _ => false,
        }
    }

    /// Applies one action of the current seat (`DiceFactor::step`, recording events when
    /// the log does).
    #[inline(always)]
    fn apply(&self, s: &mut State, seat: usize, action: Action, rng: &mut GameRng, log: &mut EventLog<Event>) {
        self.step::<true>(s, seat, action, rng, log);
    }

    /// Plays the dealt game `s` to its end with nothing recorded: everyday turns (a draw or
    /// a take, then a discard) one after another with what the dice allow read once, any
    /// other decision one plain step (`DiceFactor::step`, the rules of [`Game::apply`],
    /// in its copy without events).
    ///
    /// The engine's plain loop (`engine::play_decisions`) asks the bot, then applies the action,
    /// one decision at a time: every decision starts with a dispatch on the turn's phase, in the
    /// bot and in the rules, and the action is built by the bot only to be taken apart again by
    /// the rules. Here the turn's first decision is asked and applied knowing that the phase is
    /// the start, and its discard knowing that the phase is the discard, so with a bot the
    /// compiler inlines (a uniform table) both dispatches fold away. The dice change only in a
    /// plain step (a reroll), so the targets they allow are read from them before the
    /// everyday turns and kept in a register: the bot's view, its choices and the win check
    /// read them from there. A turn that ends quietly (`DiceFactor::end_plain_turn`) hands
    /// the next seat to the next turn, which keeps the direction and whether the state is
    /// settled from the turns before (`DiceFactor::everyday_turn`): none of them is read
    /// back from the state every turn. The same bots are asked the same questions in the same
    /// order with the same streams, and the same actions are applied: the same game
    /// (`play_out_is_the_plain_loop` compares the two from the deal or any later decision of
    /// random games).
    #[inline(always)]
    fn play_out<L: Lineup<Self> + ?Sized>(&self, s: &mut State, bots: &mut L, rng: &mut GameRng, seat_rngs: &mut [GameRng; MAX_SEATS]) {
        let log: &mut EventLog<Event> = &mut EventLog::new(false);
        loop {
            // Read again after every plain step: a reroll changes them.
            let allowed = Allowed::new(s.dice, self.params.goal);
            while s.phase == Phase::Start {
                // Read again after every turn that did not end quietly: a reverse changes the
                // direction, a full win check settles the state.
                let stretch = Stretch::new(s, allowed);
                let mut seat = s.current as usize;
                while let Some(next) = self.everyday_turn(s, seat, stretch, bots, rng, seat_rngs, log) {
                    seat = next;
                }
                // An action card discarded leaves its choice to a plain step (the loop ends
                // on its phase); a skip or a reverse ends the turn with the dice as they were.
            }
            if s.phase == Phase::Over {
                return;
            }
            let seat = s.current as usize;
            let action = ask(self, s, seat, bots, seat_rngs);
            self.step::<false>(s, seat, action, rng, log);
        }
    }

    fn outcome(&self, s: &State) -> Outcome {
        let mut o = Outcome::new();
        o.length = s.turns;
        o.end_reason = s.end_reason;
        Hand::highest_each(&s.hands[..self.players], allowed_targets(s.dice), |seat, highest| o.scores[seat] = highest as i64);
        o.winners = s.winner.map_or(0, |w| 1 << w);
        o
    }

    /// Conservation and sanity: every card of the deck is in the draw pile, the discard pile,
    /// a hand, or in front of a hand (add_a_card); the phase fits the hands.
    fn check_invariants(&self, s: &State) -> Result<(), String> {
        let n = self.players;
        let mut counts = [0u32; crate::games::chroma::CARD_KINDS];
        for &c in s.draw.iter().chain(&s.discard) {
            counts[c as usize] += 1;
        }
        let mut in_hands = 0usize;
        for (seat, h) in s.hands[..n].iter().enumerate() {
            let again = Hand::from_cards(&h.cards());
            if again.held() != h.held() || (0..10).any(|t| again.score(t) != h.score(t)) || again.len() != h.len() {
                return Err(format!("seat {seat}'s hand bookkeeping is inconsistent"));
            }
            for c in h.cards() {
                counts[c as usize] += 1;
            }
            counts[ActionCard::AddACard as usize] += h.extra as u32;
            in_hands += h.len() + h.extra as usize;
        }
        if !s.records && (s.known[..n].iter().flatten().any(|&k| k > 0) || s.last_discard[..n].iter().any(Option::is_some)) {
            return Err("the record that only samples read was written while it was not kept".into());
        }
        for seat in 0..n {
            if s.records && (0..CARD_KINDS).any(|k| s.known[seat][k] as u32 > s.hands[seat].count(k as Card)) {
                return Err(format!("seat {seat}'s publicly known cards are not all in its hand [{}]", s.hands[seat]));
            }
        }
        if s.hands[n..].iter().any(|h| *h != Hand::EMPTY) {
            return Err("a seat beyond the table holds cards".into());
        }
        let total = s.draw.len() + s.discard.len() + in_hands;
        if total != self.deck.len() {
            return Err(format!("cards not conserved: {total} on the table, the deck has {}", self.deck.len()));
        }
        if counts != self.copies {
            return Err("the multiset of cards changed".into());
        }
        if s.discard.contains(&(ActionCard::AddACard as Card)) {
            return Err("an add_a_card lies on the discard pile".into());
        }
        if s.dice[0] >= DIE_FACES as u8 || s.dice[1] >= DIE_FACES as u8 {
            return Err(format!("impossible dice {:?}", s.dice));
        }
        if s.current as usize >= n {
            return Err(format!("seat {} is not at the table", s.current));
        }
        if s.turns > self.params.turn_cap {
            return Err(format!("turn {} passed the cap {}", s.turns, self.params.turn_cap));
        }
        let hand = &s.hands[s.current as usize];
        match s.phase {
            Phase::Over => match (s.end_reason, s.winner) {
                (END_FIVE, Some(w)) if s.hands[w as usize].highest(allowed_targets(s.dice)) >= self.params.goal => {}
                (END_CAP, None) if s.turns == self.params.turn_cap => {}
                _ => {
                    return Err(format!("ended with reason {} and winner {:?}", s.end_reason, s.winner));
                }
            },
            Phase::Discard | Phase::TradeOneCard if hand.is_empty() => {
                return Err(format!("seat {} must give or discard from an empty hand", s.current));
            }
            Phase::D8Swap if !self.can_swap(s, s.current as usize) => {
                return Err("a swap with no card to swap".into());
            }
            _ => {
                if s.winner.is_some() {
                    return Err("a winner while the game goes on".into());
                }
            }
        }
        if let Some(t) = s.taken
            && hand.count(t) == 0
        {
            return Err("the taken action card is no longer held".into());
        }
        if s.settled && s.phase != Phase::Over {
            let reach = Reach::new(allowed_targets(s.dice), self.params.goal);
            if let Some(seat) = (0..n).find(|&t| t != s.current as usize && reach.hit(&s.hands[t])) {
                return Err(format!("the state is settled, but seat {seat}'s hand holds a win"));
            }
        }
        Ok(())
    }

    fn seat_active(&self, s: &State, seat: usize) -> bool {
        seat == s.current as usize && seat < self.players && s.phase != Phase::Over
    }

    /// Standing: the seat's most cards counting toward one target the dice allow now (the
    /// winner reaches `goal`), as in `Outcome.scores`.
    fn standing(&self, s: &State, seat: usize) -> i64 {
        s.hands[seat].highest(allowed_targets(s.dice)) as i64
    }
}
