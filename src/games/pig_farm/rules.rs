//! Pig Farm's table state and the rules that change it: dealing (dealt butchers resolved
//! before turn one), the two draws, the discard, the butcher and its dice, selling, the
//! turn cap and the rounds of a match.

use std::fmt;

use rand::RngExt;

use super::params::{KINDS, MAX_PLAYERS};
use super::{Action, BUTCHER, Decision, Die, Event, FACES, LOGO, PigFarm, PigMetrics, View, card_name};
use crate::engine::rng::rand_shuffle;
use crate::engine::{EventLog, Game, GameInfo, GameRng, Lineup, MAX_SEATS, Outcome, SearchDefaults, ToMove, ask};
use crate::games::chroma::{self, Card};
use crate::games::kind_counts::Kinds;

/// A hand of pigs as counts per kind (no heap, O(1) add and remove, sets kept up to date:
/// a set is a kind held but not once, so the two bit sets give them without a count of
/// their own to keep).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hand {
    counts: [u8; KINDS],
    len: u16,
    /// Bit k set when kind k is held (kept with `counts`: kinds and discards without a scan).
    held: u32,
    /// Bit k set when kind k is held exactly once (unmatched pigs).
    singles: u32,
}

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand { counts: [0; KINDS], len: 0, held: 0, singles: 0 };

    /// A hand holding `pigs` (each 0..25).
    pub fn from_pigs(pigs: &[Card]) -> Hand {
        let mut h = Hand::EMPTY;
        for &p in pigs {
            h.add(p);
        }
        h
    }

    /// Copies of `pig` held.
    #[inline]
    pub fn count(&self, pig: Card) -> u32 {
        self.counts[pig as usize] as u32
    }

    /// Counts per kind, in canonical order.
    #[inline]
    pub fn counts(&self) -> &[u8; KINDS] {
        &self.counts
    }

    /// Number of pigs.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the hand holds no pig.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Sets held: kinds with 2 or more pigs (4 of a kind is one set of 4).
    #[inline]
    pub fn sets(&self) -> u32 {
        (self.held & !self.singles).count_ones()
    }

    /// Unmatched pigs: kinds held exactly once.
    #[inline]
    pub fn unmatched(&self) -> u32 {
        self.singles.count_ones()
    }

    /// The kinds held, in canonical order.
    #[inline]
    pub fn kinds(&self) -> impl Iterator<Item = Card> + '_ {
        Kinds(self.held)
    }

    /// Kinds held as a bit set (bit k = kind k).
    #[inline]
    pub fn held(&self) -> u32 {
        self.held
    }

    /// Kinds held exactly once as a bit set (bit k = kind k).
    #[inline]
    pub fn singles(&self) -> u32 {
        self.singles
    }

    /// Adds one pig.
    #[inline]
    pub fn add(&mut self, pig: Card) {
        let c = &mut self.counts[pig as usize];
        *c += 1;
        self.len += 1;
        let bit = 1u32 << pig;
        self.held |= bit;
        self.singles ^= bit & if *c <= 2 { u32::MAX } else { 0 };
    }

    /// Removes one pig; the caller checks that it is held.
    #[inline]
    pub fn remove(&mut self, pig: Card) {
        let c = &mut self.counts[pig as usize];
        debug_assert!(*c > 0, "removing a pig that is not held");
        *c -= 1;
        self.len -= 1;
        let bit = 1u32 << pig;
        if *c == 0 {
            self.held &= !bit;
        }
        self.singles ^= bit & if *c <= 1 { u32::MAX } else { 0 };
    }

    /// Removes every pig of `pig`'s kind and returns how many there were.
    #[inline]
    pub fn remove_all(&mut self, pig: Card) -> u8 {
        let c = std::mem::take(&mut self.counts[pig as usize]);
        self.len -= c as u16;
        self.held &= !(1u32 << pig);
        self.singles &= !(1u32 << pig);
        c
    }

    /// Pigs of the kinds in `mask` (bit i = pig i).
    #[inline]
    pub fn pigs_in(&self, mask: u32) -> u32 {
        Kinds(mask & self.held).map(|p| self.counts[p as usize] as u32).sum()
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for p in self.kinds() {
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            let c = self.count(p);
            if c > 1 { write!(f, "{c} x {}", card_name(p))? } else { f.write_str(&card_name(p))? }
        }
        Ok(())
    }
}

/// Where the turn stands.
///
/// Explicit tags 0-4 (`repr(u8)`, the `dealt` flag in a byte of its own): the play loop's
/// dispatch on the phase is then a jump table indexed by the tag itself. Without them the
/// flag shares the tag byte (Butcher 0-1, Start 2, ...) and every decision remapped it
/// before the jump (four instructions a decision).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Phase {
    /// Start of the current seat's turn: sell or first draw.
    Start = 0,
    /// The second draw.
    SecondDraw = 1,
    /// The discard.
    Discard = 2,
    /// The current seat must roll for a butcher (`dealt`: one from its starting hand).
    Butcher {
        /// Whether the butcher came with the starting hand.
        dealt: bool,
    } = 3,
    /// The match has ended.
    Over = 4,
}

/// Moves every pig of the kinds in `mask` (a face's kinds) from seat `t`'s hand onto the
/// discard pile, kind by kind in canonical order, and returns how many there were: no branch
/// on what the hand holds (which kinds of the face, how many of each: coin flips for the
/// branch predictor). Each kind is written as a block of 16 copies, of which the pile keeps
/// as many as the hand held (a variant has at most 10 of a kind); `known` is cleared for
/// every kind of the face (it never exceeds the hand: those not held are 0 already).
/// [`cull_hand_plain`] is the same visiting only the kinds held, one push per pig.
#[inline]
pub(super) fn cull_hand(s: &mut State, t: usize, mask: u32) -> u8 {
    const BLOCK: usize = 16;
    const _: () = assert!(super::params::MAX_BASE_SETS as usize <= BLOCK);
    let hand = &mut s.hands[t];
    let known = &mut s.known[t];
    let discard = &mut s.discard;
    let mut bits = mask;
    let mut lost = 0u8;
    while bits != 0 {
        let pig = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let c = std::mem::take(&mut hand.counts[pig]);
        known[pig] = 0;
        let len = discard.len();
        discard.extend_from_slice(&[pig as Card; BLOCK]);
        discard.truncate(len + c as usize);
        lost += c;
    }
    hand.len -= u16::from(lost);
    hand.held &= !mask;
    hand.singles &= !mask;
    lost
}

/// [`cull_hand`] as the rules say it: each kind of the face that the hand holds, in
/// canonical order, one push per pig (kept to test it).
#[cfg(test)]
pub(super) fn cull_hand_plain(s: &mut State, t: usize, mask: u32) -> u8 {
    let mut bits = mask & s.hands[t].held();
    let mut lost = 0u8;
    while bits != 0 {
        let pig = bits.trailing_zeros() as Card;
        bits &= bits - 1;
        let c = s.hands[t].remove_all(pig);
        s.known[t][pig as usize] = 0;
        for _ in 0..c {
            s.discard.push(pig);
        }
        lost += c;
    }
    lost
}

/// How one round ended, kept for metrics and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundRecord {
    /// Round index (from 0).
    pub round: u32,
    /// Its first seat.
    pub first_seat: u8,
    /// Turns played in it.
    pub turns: u32,
    /// The seller, or `None` when the round reached the cap.
    pub seller: Option<u8>,
    /// Every seat's hand when the round ended.
    pub hands: [Hand; MAX_PLAYERS],
    /// Points scored in the round per seat.
    pub scores: [i64; MAX_PLAYERS],
}

/// One butcher roll, kept for metrics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RollRecord {
    /// The roller.
    pub seat: u8,
    /// The die.
    pub die: Die,
    /// The face (5 = logo).
    pub face: u8,
    /// Pigs each seat lost.
    pub lost: [u8; MAX_PLAYERS],
    /// Whether the butcher came with a starting hand.
    pub dealt: bool,
}

/// The whole table, hidden cards included. Bots never see this, only a [`super::View`].
#[derive(Debug)]
pub struct State {
    /// Draw pile, top card last.
    pub draw: Vec<Card>,
    /// Discard pile, top card last.
    pub discard: Vec<Card>,
    /// Every seat's pigs.
    pub hands: [Hand; MAX_PLAYERS],
    /// Per seat, pigs every seat knows it holds: taken from the face-up discard pile and not
    /// discarded since (a determinization keeps them in place).
    pub known: [[u8; KINDS]; MAX_PLAYERS],
    /// Butchers a seat holds until it rolls for them.
    pub butchers_held: [u8; MAX_PLAYERS],
    /// The deciding seat.
    pub current: u8,
    /// Where the turn stands.
    pub phase: Phase,
    /// Round index (from 0).
    pub round: u32,
    /// The round's first seat.
    pub first_seat: u8,
    /// Turns played this round (the current one included).
    pub round_turns: u32,
    /// Turns played over the match.
    pub turns: u32,
    /// Match points per seat.
    pub scores: [i64; MAX_PLAYERS],
    /// Rounds finished.
    pub rounds_done: u32,
    /// Rounds that reached the cap.
    pub rounds_capped: u32,
    /// The last finished round.
    pub last_round: Option<RoundRecord>,
    /// Butcher rolls so far in the match.
    pub rolls: u32,
    /// The last roll.
    pub last_roll: Option<RollRecord>,
    /// Index into [`END_REASONS`] once over.
    pub end_reason: u8,
}

impl Clone for State {
    fn clone(&self) -> Self {
        let mut copy = State { draw: Vec::new(), discard: Vec::new(), ..*self };
        copy.clone_from(self);
        copy
    }

    /// Reuses the piles' buffers: a search copies a state per sample.
    fn clone_from(&mut self, source: &Self) {
        let (draw, discard) = (std::mem::take(&mut self.draw), std::mem::take(&mut self.discard));
        *self = State { draw, discard, ..*source };
        self.draw.clone_from(&source.draw);
        self.discard.clone_from(&source.discard);
    }
}

/// A player sold the farm (in every round of the match).
pub const END_SOLD: u8 = 0;
/// At least one round of the match reached the turn cap.
pub const END_CAP: u8 = 1;
/// End reason names for reports and JSON.
pub const END_REASONS: &[&str] = &["sold", "cap"];

impl PigFarm {
    /// [`Self::start_round`] recording its events when `log` does.
    fn deal_round(&self, s: &mut State, rng: &mut GameRng, log: &mut EventLog<Event>) {
        if log.enabled() { self.start_round::<true>(s, rng, log) } else { self.start_round::<false>(s, rng, log) }
    }

    /// The seat `k` places after `seat` in turn order.
    #[inline]
    fn after(&self, seat: usize, k: usize) -> usize {
        // (seat + k) mod players without a division: seat and k are both below players.
        debug_assert!(seat < self.players && k < self.players);
        let x = seat + k;
        if x >= self.players { x - self.players } else { x }
    }

    /// Gathers every card, shuffles, deals from the round's first seat and resolves dealt
    /// butchers (or starts the first turn).
    #[cold]
    #[inline(never)]
    fn start_round<const LOG: bool>(&self, s: &mut State, rng: &mut GameRng, log: &mut EventLog<Event>) {
        let n = self.players;
        s.first_seat = (s.round as usize % n) as u8;
        s.round_turns = 0;
        s.draw.clear();
        s.draw.extend_from_slice(&self.deck);
        rand_shuffle(&mut s.draw, rng, &self.divisors);
        s.discard.clear();
        s.hands = [Hand::EMPTY; MAX_PLAYERS];
        s.known = [[0; KINDS]; MAX_PLAYERS];
        s.butchers_held = [0; MAX_PLAYERS];
        log.emit_if::<LOG>(|| Event::RoundStarts { round: s.round, first: s.first_seat });
        for k in 0..n {
            let seat = self.after(s.first_seat as usize, k);
            for _ in 0..self.params.hand_size {
                let card = s.draw.pop().expect("deck size checked against the hands");
                if card == BUTCHER {
                    s.butchers_held[seat] += 1;
                } else {
                    s.hands[seat].add(card);
                }
            }
            log.emit_if::<LOG>(|| Event::Dealt { seat: seat as u8, hand: s.hands[seat], butchers: s.butchers_held[seat] });
        }
        self.next_dealt_butcher::<LOG>(s, 0, rng, log);
    }

    /// Asks the first seat from turn-order position `from` on that holds a dealt butcher
    /// to roll; with none left, starts the round's first turn.
    fn next_dealt_butcher<const LOG: bool>(&self, s: &mut State, from: usize, rng: &mut GameRng, log: &mut EventLog<Event>) {
        for k in from..self.players {
            let seat = self.after(s.first_seat as usize, k);
            if s.butchers_held[seat] > 0 {
                s.current = seat as u8;
                s.phase = Phase::Butcher { dealt: true };
                log.emit_if::<LOG>(|| Event::Butcher { seat: seat as u8, dealt: true });
                return;
            }
        }
        self.begin_turn::<LOG>(s, s.first_seat as usize, rng, log);
    }

    /// Starts `seat`'s turn, or ends the round unsold at the turn cap.
    fn begin_turn<const LOG: bool>(&self, s: &mut State, seat: usize, rng: &mut GameRng, log: &mut EventLog<Event>) {
        if s.round_turns >= self.params.turn_cap {
            self.end_round::<LOG>(s, None, rng, log);
            return;
        }
        s.round_turns += 1;
        s.turns += 1;
        s.current = seat as u8;
        s.phase = Phase::Start;
        log.emit_if::<LOG>(|| Event::TurnStarts { turn: s.round_turns, seat: seat as u8 });
    }

    #[inline]
    fn end_turn<const LOG: bool>(&self, s: &mut State, rng: &mut GameRng, log: &mut EventLog<Event>) {
        let next = self.after(s.current as usize, 1);
        self.begin_turn::<LOG>(s, next, rng, log);
    }

    /// The top of the draw pile, reshuffling the discard pile into it when empty (if the
    /// variant allows); `None` when there is nothing to draw.
    #[inline]
    pub(super) fn draw_card<const LOG: bool>(&self, s: &mut State, rng: &mut GameRng, log: &mut EventLog<Event>) -> Option<Card> {
        // rand's shuffle (not the engine's), as Pig Farm has always drawn: same numbers.
        let reshuffled = |pile: &[Card]| log.emit_if::<LOG>(|| Event::Reshuffled { order: pile.to_vec() });
        let shuffle = |cards: &mut [Card], rng: &mut GameRng| rand_shuffle(cards, rng, &self.divisors);
        chroma::draw_card(&mut s.draw, &mut s.discard, self.params.reshuffle_discard, rng, shuffle, reshuffled)
    }

    /// [`Self::step`] recording its events (out of line: traces and listening bots only).
    #[inline(never)]
    fn step_logged(&self, s: &mut State, seat: usize, action: Action, rng: &mut GameRng, log: &mut EventLog<Event>) {
        self.step::<true>(s, seat, action, rng, log);
    }

    /// Applies one action of the deciding seat (inlined into the play loop: the rare
    /// branches, rolls and round changes, are out of line). `LOG`: whether events are
    /// recorded (`false`: no event code is compiled in at all; `true`: `log` decides).
    #[inline(always)]
    pub(super) fn step<const LOG: bool>(&self, s: &mut State, seat: usize, action: Action, rng: &mut GameRng, log: &mut EventLog<Event>) {
        match action {
            Action::Sell => {
                log.emit_if::<LOG>(|| Event::Sold { seat: seat as u8, sets: s.hands[seat].sets() as u8 });
                self.end_round::<LOG>(s, Some(seat), rng, log);
            }
            Action::DrawPile => {
                let card = self.draw_card::<LOG>(s, rng, log);
                match card {
                    Some(BUTCHER) | None => {}
                    Some(c) => log.emit_if::<LOG>(|| Event::Drew { seat: seat as u8, card: c }),
                }
                self.after_draw::<LOG>(s, seat, card, rng, log);
            }
            Action::TakeDiscard => {
                let card = s.discard.pop();
                debug_assert!(card.is_some_and(|c| c != BUTCHER), "legal takes are pigs");
                if let Some(c) = card {
                    s.known[seat][c as usize] += 1;
                    log.emit_if::<LOG>(|| Event::TookDiscard { seat: seat as u8, card: c });
                }
                self.after_draw::<LOG>(s, seat, card, rng, log);
            }
            Action::Discard(pig) => {
                s.hands[seat].remove(pig);
                let known = &mut s.known[seat][pig as usize];
                *known = known.saturating_sub(1);
                s.discard.push(pig);
                log.emit_if::<LOG>(|| Event::Discarded { seat: seat as u8, card: pig });
                self.end_turn::<LOG>(s, rng, log);
            }
            Action::Roll(die) => self.roll::<LOG>(s, seat, die, rng, log),
        }
    }

    /// A card has come into `seat`'s hand (or nothing): a butcher stops the turn for a roll;
    /// otherwise the turn moves on to the second draw or the discard.
    #[inline(always)]
    pub(super) fn after_draw<const LOG: bool>(&self, s: &mut State, seat: usize, card: Option<Card>, rng: &mut GameRng, log: &mut EventLog<Event>) {
        match card {
            Some(BUTCHER) => {
                s.butchers_held[seat] += 1;
                s.phase = Phase::Butcher { dealt: false };
                log.emit_if::<LOG>(|| Event::Butcher { seat: seat as u8, dealt: false });
                return;
            }
            Some(pig) => {
                // The hand now holds a pig: the discard follows the second draw.
                s.hands[seat].add(pig);
                s.phase = if matches!(s.phase, Phase::Start) { Phase::SecondDraw } else { Phase::Discard };
                return;
            }
            None => log.emit_if::<LOG>(|| Event::DrewNothing { seat: seat as u8 }),
        }
        if matches!(s.phase, Phase::Start) {
            s.phase = Phase::SecondDraw;
        } else if s.hands[seat].is_empty() {
            self.end_turn::<LOG>(s, rng, log);
        } else {
            s.phase = Phase::Discard;
        }
    }

    /// Rolls `die` for `seat`'s butcher: on a color (shape) every seat discards every pig of
    /// it, the roller's first, then the others in turn order; the butcher goes on top.
    #[cold]
    #[inline(never)]
    fn roll<const LOG: bool>(&self, s: &mut State, seat: usize, die: Die, rng: &mut GameRng, log: &mut EventLog<Event>) {
        let dealt = matches!(s.phase, Phase::Butcher { dealt: true });
        s.butchers_held[seat] -= 1;
        let face: u8 = rng.random_range(0..FACES);
        log.emit_if::<LOG>(|| Event::Rolled { seat: seat as u8, die, face });
        // Each seat's loss in its byte of one word, kept in a register: the record below then
        // stores it whole.
        let mut lost_bytes = 0u64;
        if face != LOGO {
            let mask = die.face_mask(face);
            // The seats that lose a pig, by turn-order position from the roller, found
            // without a branch per seat (whether a hand holds the face is a coin flip for the
            // branch predictor); then only those seats are visited, in turn order.
            let mut hit = 0u32;
            for k in 0..self.players {
                hit |= u32::from(mask & s.hands[self.after(seat, k)].held() != 0) << k;
            }
            while hit != 0 {
                let t = self.after(seat, hit.trailing_zeros() as usize);
                hit &= hit - 1;
                let lost = cull_hand(s, t, mask);
                log.emit_if::<LOG>(|| Event::Culled { seat: t as u8, die, face, pigs: lost as u16 });
                lost_bytes |= u64::from(lost) << (8 * t);
            }
        }
        let lost: [u8; MAX_PLAYERS] = lost_bytes.to_le_bytes();
        s.discard.push(BUTCHER);
        s.rolls += 1;
        s.last_roll = Some(RollRecord { seat: seat as u8, die, face, lost, dealt });
        if !dealt {
            self.end_turn::<LOG>(s, rng, log);
        } else if s.butchers_held[seat] > 0 {
            log.emit_if::<LOG>(|| Event::Butcher { seat: seat as u8, dealt: true });
        } else {
            let pos = (seat + self.players - s.first_seat as usize) % self.players;
            self.next_dealt_butcher::<LOG>(s, pos + 1, rng, log);
        }
    }

    /// Scores the round (nobody scores when `seller` is `None`: the cap), then deals the
    /// next round or ends the match.
    #[cold]
    #[inline(never)]
    fn end_round<const LOG: bool>(&self, s: &mut State, seller: Option<usize>, rng: &mut GameRng, log: &mut EventLog<Event>) {
        let mut points = [0i64; MAX_PLAYERS];
        match seller {
            Some(w) => {
                for (t, p) in points.iter_mut().enumerate().take(self.players) {
                    *p = if t == w { self.scoring.seller_points(&s.hands[t]) } else { self.scoring.other_points(&s.hands[t]) };
                    s.scores[t] += *p;
                }
                log.emit_if::<LOG>(|| Event::RoundScored { round: s.round, scores: points });
            }
            None => {
                s.rounds_capped += 1;
                log.emit_if::<LOG>(|| Event::RoundCapped { round: s.round, turns: s.round_turns });
            }
        }
        s.last_round = Some(RoundRecord {
            round: s.round,
            first_seat: s.first_seat,
            turns: s.round_turns,
            seller: seller.map(|w| w as u8),
            hands: s.hands,
            scores: points,
        });
        s.rounds_done += 1;
        if s.round + 1 < self.params.rounds {
            s.round += 1;
            self.start_round::<LOG>(s, rng, log);
        } else {
            s.phase = Phase::Over;
            s.end_reason = if s.rounds_capped > 0 { END_CAP } else { END_SOLD };
            log.emit_if::<LOG>(|| Event::GameOver { reason: s.end_reason, turns: s.turns });
        }
    }
}

impl Game for PigFarm {
    type State = State;
    type Action = Action;
    type View<'a> = View<'a>;
    type Event = Event;
    type Metrics = PigMetrics;
    const INFO: GameInfo = GameInfo {
        id: "pig-farm",
        name: "Pig Farm",
        end_reasons: END_REASONS,
        length_unit: "turns",
        standing_unit: "points",
        default_cap: 500,
        default_bot: "threshold",
        search: SearchDefaults {
            // `ismcts` models the table with `threshold` and rolls out with it: measured stronger
            // than searching the opponents' choices (docs/skill.md).
            rollout: 1,
            opponents: 1,
            ..SearchDefaults::ENGINE
        },
        deals_in_place: true,
        ..GameInfo::DEFAULTS
    };

    fn seats(&self) -> usize {
        self.players
    }

    /// Seller rows below `min_sets_to_sell`: no seller ever has so few sets.
    fn unused_keys(&self) -> Vec<String> {
        let min = self.params.min_sets_to_sell;
        self.params
            .scoring
            .seller
            .keys()
            .filter(|k| k.parse::<u32>().is_ok_and(|sets| sets < min))
            .map(|k| format!("scoring.seller.{k} can never be used: min_sets_to_sell = {min}, so a seller holds at least {min} sets; drop the row or lower min_sets_to_sell to {k}"))
            .collect()
    }

    /// The longest possible match: `turn_cap` turns in each round.
    fn turn_cap(&self) -> u32 {
        self.params.turn_cap.saturating_mul(self.params.rounds)
    }

    /// Shuffles and deals round one.
    fn deal(&self, rng: &mut GameRng, log: &mut EventLog<Event>) -> State {
        let mut s = State {
            draw: Vec::with_capacity(self.deck.len()),
            discard: Vec::with_capacity(self.deck.len()),
            hands: [Hand::EMPTY; MAX_PLAYERS],
            known: [[0; KINDS]; MAX_PLAYERS],
            butchers_held: [0; MAX_PLAYERS],
            current: 0,
            phase: Phase::Start,
            round: 0,
            first_seat: 0,
            round_turns: 0,
            turns: 0,
            scores: [0; MAX_PLAYERS],
            rounds_done: 0,
            rounds_capped: 0,
            last_round: None,
            rolls: 0,
            last_roll: None,
            end_reason: END_SOLD,
        };
        self.deal_round(&mut s, rng, log);
        s
    }

    /// [`Game::deal`] into a state of an earlier game: the piles keep their buffers
    /// and every other field is reset as `deal` sets it (the round's deal resets the
    /// hands, piles and butchers), so the state is the same as a new one's
    /// (the invariant harness's `check_deal_in_place`).
    fn deal_into(&self, rng: &mut GameRng, log: &mut EventLog<Event>, s: &mut State) {
        s.current = 0;
        s.phase = Phase::Start;
        s.round = 0;
        s.first_seat = 0;
        s.round_turns = 0;
        s.turns = 0;
        s.scores = [0; MAX_PLAYERS];
        s.rounds_done = 0;
        s.rounds_capped = 0;
        s.last_round = None;
        s.rolls = 0;
        s.last_roll = None;
        s.end_reason = END_SOLD;
        self.deal_round(s, rng, log);
    }

    #[inline]
    fn to_move(&self, s: &State) -> ToMove {
        if matches!(s.phase, Phase::Over) { ToMove::Over } else { ToMove::Seat(s.current as usize) }
    }

    #[inline]
    fn view<'a>(&self, s: &'a State, seat: usize) -> View<'a> {
        View {
            seat,
            phase: s.phase,
            hand: &s.hands[seat],
            discard: &s.discard,
            draw_pile: s.draw.len(),
            hands: &s.hands,
            players: self.players,
            first_seat: s.first_seat as usize,
            round: s.round,
            round_turn: s.round_turns,
            scores: &s.scores,
        }
    }

    fn legal_actions(&self, view: &View, out: &mut Vec<Action>) {
        match view.decision() {
            Decision::Start | Decision::SecondDraw => {
                if view.decision() == Decision::Start && view.hand.sets() >= self.min_sets() {
                    out.push(Action::Sell);
                }
                out.push(Action::DrawPile);
                if view.discard_top_pig().is_some() {
                    out.push(Action::TakeDiscard);
                }
            }
            Decision::Discard => out.extend(view.hand.kinds().map(Action::Discard)),
            Decision::Butcher { .. } => out.extend([Action::Roll(Die::Colors), Action::Roll(Die::Shapes)]),
        }
    }

    fn is_legal(&self, view: &View, action: &Action) -> bool {
        match (*action, view.decision()) {
            (Action::Sell, Decision::Start) => view.hand.sets() >= self.min_sets(),
            (Action::DrawPile, Decision::Start | Decision::SecondDraw) => true,
            (Action::TakeDiscard, Decision::Start | Decision::SecondDraw) => view.discard_top_pig().is_some(),
            (Action::Discard(pig), Decision::Discard) => (pig as usize) < KINDS && view.hand.count(pig) > 0,
            (Action::Roll(_), Decision::Butcher { .. }) => true,
            _ => false,
        }
    }

    /// Applies one action of the deciding seat, recording its events when `log` does
    /// (the quick loop's log never does: it calls `step::<false>` itself).
    #[inline(always)]
    fn apply(&self, s: &mut State, seat: usize, action: Action, rng: &mut GameRng, log: &mut EventLog<Event>) {
        if log.enabled() { self.step_logged(s, seat, action, rng, log) } else { self.step::<false>(s, seat, action, rng, log) }
    }

    /// Plays the dealt game `s` to its end with nothing recorded: at the start of a turn the
    /// turn's usual decisions follow one another as straight-line code, without a dispatch
    /// on the phase between them (`turns.rs` says why); any other phase (a butcher to roll
    /// for) is one plain step.
    #[inline(always)]
    fn play_out<L: Lineup<Self> + ?Sized>(&self, s: &mut State, bots: &mut L, rng: &mut GameRng, seat_rngs: &mut [GameRng; MAX_SEATS]) {
        let log: &mut EventLog<Event> = &mut EventLog::new(false);
        loop {
            let seat = s.current as usize;
            match s.phase {
                Phase::Start => {
                    let first = ask(self, s, seat, bots, seat_rngs);
                    self.quick_step(s, seat, first, Phase::SecondDraw, rng, log);
                    // Only a pig (or nothing) drawn by this seat leads to its second draw,
                    // and only a second pig (or nothing, with pigs in hand) to its discard:
                    // the seat is still `seat`.
                    if matches!(s.phase, Phase::SecondDraw) {
                        debug_assert_eq!(s.current as usize, seat);
                        let second = ask(self, s, seat, bots, seat_rngs);
                        self.quick_step(s, seat, second, Phase::Discard, rng, log);
                        if matches!(s.phase, Phase::Discard) {
                            debug_assert_eq!(s.current as usize, seat);
                            let discard = ask(self, s, seat, bots, seat_rngs);
                            self.step::<false>(s, seat, discard, rng, log);
                        }
                    }
                }
                Phase::Over => return,
                Phase::SecondDraw | Phase::Discard | Phase::Butcher { .. } => {
                    let action = ask(self, s, seat, bots, seat_rngs);
                    self.step::<false>(s, seat, action, rng, log);
                }
            }
        }
    }

    fn outcome(&self, s: &State) -> Outcome {
        let mut o = Outcome::new();
        o.length = s.turns;
        o.end_reason = s.end_reason;
        o.scores[..self.players].copy_from_slice(&s.scores[..self.players]);
        o.set_winners_by_max_score(self.players);
        o
    }

    /// The invariants `check` and the tests rely on.
    fn check_invariants(&self, s: &State) -> Result<(), String> {
        let n = self.players;
        let mut counts = [0u32; KINDS + 1];
        for &c in s.draw.iter().chain(&s.discard) {
            if c as usize > KINDS {
                return Err(format!("card {c} is not a Pig Farm card"));
            }
            counts[c as usize] += 1;
        }
        for seat in 0..n {
            let h = &s.hands[seat];
            for (k, &c) in h.counts().iter().enumerate() {
                counts[k] += c as u32;
            }
            counts[KINDS] += s.butchers_held[seat] as u32;
            let sets = h.counts().iter().filter(|&&c| c >= 2).count() as u32;
            let len: usize = h.counts().iter().map(|&c| c as usize).sum();
            let kinds_with = |pred: fn(u8) -> bool| (0..KINDS).filter(|&k| pred(h.counts()[k])).fold(0u32, |m, k| m | 1 << k);
            if sets != h.sets() || len != h.len() || h.held() != kinds_with(|c| c > 0) || h.singles() != kinds_with(|c| c == 1) {
                return Err(format!(
                    "seat {seat}'s hand bookkeeping is off: {} sets / {} pigs / kinds {:#x} / singles {:#x} recorded, {sets} / {len} / {:#x} / {:#x} held",
                    h.sets(),
                    h.len(),
                    h.held(),
                    h.singles(),
                    kinds_with(|c| c > 0),
                    kinds_with(|c| c == 1)
                ));
            }
        }
        for seat in n..MAX_PLAYERS {
            if !s.hands[seat].is_empty() || s.butchers_held[seat] != 0 {
                return Err(format!("seat {seat} is not at the table but holds cards"));
            }
        }
        let copies = self.params.deck.base_sets;
        for (k, &c) in counts.iter().enumerate() {
            let want = if k == KINDS { self.params.deck.butchers } else { copies };
            if c != want {
                return Err(format!("cards not conserved: {c} x {} on the table, the deck has {want}", card_name(k as Card)));
            }
        }
        if s.round_turns > self.params.turn_cap {
            return Err(format!("round turn {} passed the cap {}", s.round_turns, self.params.turn_cap));
        }
        if s.rounds_done > self.params.rounds || s.round >= self.params.rounds {
            return Err(format!("round {} of a {}-round match", s.round + 1, self.params.rounds));
        }
        for seat in 0..self.players {
            if let Some(pig) = (0..KINDS).find(|&p| s.known[seat][p] as u32 > s.hands[seat].count(p as Card)) {
                return Err(format!("seat {seat} is known to hold more {} than it has", card_name(pig as Card)));
            }
        }
        let held: u32 = s.butchers_held.iter().map(|&b| b as u32).sum();
        match s.phase {
            Phase::Over => {
                if s.rounds_done != self.params.rounds {
                    return Err(format!("the match ended after {} of {} rounds", s.rounds_done, self.params.rounds));
                }
            }
            Phase::Butcher { dealt } => {
                if s.butchers_held[s.current as usize] == 0 {
                    return Err(format!("seat {} must roll but holds no butcher", s.current));
                }
                if !dealt && held != 1 {
                    return Err(format!("{held} butchers held during a turn"));
                }
            }
            Phase::Start | Phase::SecondDraw | Phase::Discard => {
                if held != 0 {
                    return Err(format!("{held} butchers still held after the deal was resolved"));
                }
                if s.phase == Phase::Discard && s.hands[s.current as usize].is_empty() {
                    return Err(format!("seat {} must discard from an empty hand", s.current));
                }
            }
        }
        if s.current as usize >= n {
            return Err(format!("seat {} is not at the table", s.current));
        }
        Ok(())
    }

    fn seat_active(&self, s: &State, seat: usize) -> bool {
        seat == s.current as usize && seat < self.players
    }

    /// Standing: match points so far plus, while a round is played, what the seat's hand
    /// would score as a non-seller now (the non-sellers' table by sets held).
    fn standing(&self, s: &State, seat: usize) -> i64 {
        if s.phase == Phase::Over { s.scores[seat] } else { s.scores[seat] + self.scoring.other_points(&s.hands[seat]) }
    }
}
