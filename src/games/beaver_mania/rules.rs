//! Beaver Mania's table state and the rules that change it: the deal, the play, stabbing in
//! the display and on the piles, the eight actions, refilling, the victims' draws, the two
//! end conditions, the turn cap, scoring and the rounds of a "collecting points" match.
//!
//! A turn is a chain of stages; a stage that needs a choice stops the chain at a [`Step`]
//! for the deciding seat. A choice with exactly one option is made by the rules at once
//! (the same outcome any player or bot would reach), so every [`Step`] a seat sees has at
//! least two options, except [`Step::Play`], which is always asked.

use super::cards::{BAD_GUY, Card, FAIRY, Hand, KINDS, KING, NUMBER_BITS, SUPERBEAVER, THIEF};
use super::params::MAX_PLAYERS;
use super::plays::{Form, JOKERS_VALUE, Judged, NO_CARD, Play, for_each_play, is_legal_play, judge, stabs};
use super::{Action, BeaverMania, BeaverMetrics, Event, Source, View};
use crate::engine::{EventLog, Game, GameInfo, GameRng, Outcome, SearchDefaults, ToMove, rng};

/// End reason: a player's hand became empty.
pub const END_HAND: u8 = 0;
/// End reason: the draw pile and the stock are both empty.
pub const END_SUPPLY: u8 = 1;
/// End reason: the turn cap (or the match's round cap).
pub const END_CAP: u8 = 2;
/// End-reason names, indexed by the constants above.
pub const END_REASONS: &[&str] = &["hand_empty", "supply_empty", "cap"];

/// One play lying on a pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayRec {
    /// Index of its first card in [`Pile::cards`].
    pub start: u16,
    /// How it is judged now.
    pub judged: Judged,
    /// The Hippie's declared number, or [`NO_CARD`].
    pub decl: Card,
}

/// A player's face-up pile: a stack of plays, the last one on top.
#[derive(Clone, Debug, Default)]
pub struct Pile {
    /// Every card, bottom first; the top play is the tail from its `start`.
    pub cards: Vec<Card>,
    /// The plays, bottom first.
    pub plays: Vec<PlayRec>,
}

impl Pile {
    /// The top play, if the pile is not empty.
    #[inline]
    pub fn top(&self) -> Option<&PlayRec> {
        self.plays.last()
    }

    /// The cards of the top play.
    #[inline]
    pub fn top_cards(&self) -> &[Card] {
        match self.plays.last() {
            Some(p) => &self.cards[p.start as usize..],
            None => &[],
        }
    }

    /// The top play's cards as a multiset.
    #[inline]
    pub fn top_hand(&self) -> Hand {
        Hand::from_cards(self.top_cards())
    }

    /// How the top play is judged ([`Form::None`] for an empty pile).
    #[inline]
    pub fn top_judged(&self) -> Judged {
        self.plays.last().map_or(Judged { form: Form::None, guard: false }, |p| p.judged)
    }

    /// Cards on the pile.
    #[inline]
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether the pile is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    fn clear(&mut self) {
        self.cards.clear();
        self.plays.clear();
    }

    pub(super) fn push_play(&mut self, play: &Play) {
        let start = self.cards.len() as u16;
        let cards = play.cards();
        for c in cards.kinds() {
            for _ in 0..cards.count(c) {
                self.cards.push(c);
            }
        }
        self.plays.push(PlayRec { start, judged: Judged { form: play.form(), guard: play.guard() }, decl: play.decl() });
    }

    /// Removes the whole top play and returns its cards.
    fn pop_top(&mut self) -> Hand {
        let top = self.plays.pop().expect("a top play");
        let h = Hand::from_cards(&self.cards[top.start as usize..]);
        self.cards.truncate(top.start as usize);
        h
    }

    /// Removes one `card` from the top play; an emptied top play exposes the one beneath,
    /// otherwise what is left is judged again.
    fn steal(&mut self, card: Card) {
        let top = *self.plays.last().expect("a top play");
        let start = top.start as usize;
        let i = start + self.cards[start..].iter().position(|&c| c == card).expect("card in the top play");
        self.cards.swap_remove(i);
        if self.cards.len() == start {
            self.plays.pop();
        } else {
            let judged = judge(&Hand::from_cards(&self.cards[start..]), top.decl, false);
            self.plays.last_mut().expect("top").judged = judged;
        }
    }

    /// Adds one card to the top play (the King) and judges it again.
    fn add_to_top(&mut self, card: Card) {
        self.cards.push(card);
        let top = *self.plays.last().expect("a top play");
        let judged = judge(&Hand::from_cards(&self.cards[top.start as usize..]), top.decl, true);
        self.plays.last_mut().expect("top").judged = judged;
    }
}

/// What the deciding seat decides now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The active player chooses a play.
    Play,
    /// The active player chooses which number of the display to stab.
    StabDisplay,
    /// The active player takes or puts away the stabbed top play of `seat`.
    Pile {
        /// Whose top play was stabbed.
        seat: u8,
    },
    /// The active player steals one card (`left` steals including this one).
    Steal {
        /// Steals left, including this one.
        left: u8,
    },
    /// The active player names a card and another player (Fairy).
    Fairy,
    /// The active player chooses the Bad guy's victim.
    BadGuyVictim,
    /// The active player chooses where the victim's next card comes from.
    BadGuyCard {
        /// The victim.
        victim: u8,
        /// Cards left to take, including this one.
        left: u8,
    },
    /// A player who lost pile cards draws one (from the draw pile or the stock).
    Draw {
        /// The drawer.
        seat: u8,
        /// Cards left to draw, including this one.
        left: u8,
    },
    /// The game is over.
    Over,
}

/// Where the rules stand between decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    StabDisplay,
    Piles,
    Action,
    Steal(u8),
    BadGuy,
    BadGuyCard(u8, u8),
    Refill,
    Draws,
    Draw(u8, u8),
    EndTurn,
}

/// What [`BeaverMania::auto_supply`] did.
enum Auto {
    /// No source has a card.
    Nothing,
    /// The only source gave a card.
    Took,
    /// Two or more sources: the seat decides.
    Ask,
}

/// Counters of one round, for the report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundStats {
    /// Number cards stabbed from the display.
    pub display_stabbed: u32,
    /// Cards of stabbed top plays taken into the hand.
    pub pile_taken: u32,
    /// Cards of stabbed top plays put away.
    pub pile_put_away: u32,
    /// Cards stolen (Thief, Superbeaver).
    pub stolen: u32,
    /// Plays made, by the action card they carried (canonical order), lone or with numbers.
    pub actions_played: [u32; 8],
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
    /// End reason ([`END_REASONS`]).
    pub reason: u8,
    /// Round score per seat.
    pub scores: [i64; MAX_PLAYERS],
    /// Bit i set when seat i shares the round win.
    pub winners: u16,
    /// Per seat, bit i set when it held action card i (canonical order) at the deal.
    pub dealt_actions: [u8; MAX_PLAYERS],
    /// The round's counters.
    pub stats: RoundStats,
}

/// The whole table, hidden cards included. Bots never see this, only a [`super::View`].
#[derive(Clone, Debug)]
pub struct State {
    /// Draw pile, top card last.
    pub draw: Vec<Card>,
    /// The display.
    pub display: Hand,
    /// The stock.
    pub stock: Hand,
    /// Every seat's hand.
    pub hands: [Hand; MAX_PLAYERS],
    /// Every seat's pile.
    pub piles: [Pile; MAX_PLAYERS],
    /// Cards put away (out of the game).
    pub put_away: Hand,
    /// The active player.
    pub current: u8,
    /// What is being decided.
    pub step: Step,
    /// The play being resolved this turn.
    pub play: Option<Play>,
    /// Seats whose top play the current play stabs and that are not resolved yet.
    pub to_stab: u8,
    /// Pile cards each seat lost this turn (it draws as many).
    pub owed: [u8; MAX_PLAYERS],
    /// Turns played in all rounds.
    pub turns: u32,
    /// Turns played in this round (the current one included).
    pub round_turns: u32,
    /// Round index (from 0).
    pub round: u32,
    /// The round's first seat.
    pub first_seat: u8,
    /// Rounds finished.
    pub rounds_done: u32,
    /// Match totals per seat (one round: that round's scores).
    pub totals: [i64; MAX_PLAYERS],
    /// End reason of the game (set when over).
    pub end_reason: u8,
    /// Whether the match reached `max_rounds` with no total at its target (end reason `cap`).
    pub capped: bool,
    /// Rounds of this game that reached the turn cap (each is scored as usual).
    pub capped_rounds: u32,
    /// Winners of the game (set when over).
    pub winners: u16,
    /// Set when the round has just ended (hand or supply), before it is scored.
    pub(super) round_end: Option<u8>,
    /// Per seat, action cards held at this round's deal (bit per action, canonical order).
    pub dealt_actions: [u8; MAX_PLAYERS],
    /// This round's counters.
    pub stats: RoundStats,
    /// The last finished round.
    pub last_round: Option<RoundRecord>,
    /// Cards in each hand whose identity is public (taken face up from the display, the
    /// stock or a pile, or given by a fairy) and not played or given away since
    /// (determinization).
    pub known: [Hand; MAX_PLAYERS],
}

impl State {
    /// `seat`'s hand lost `n` copies of `card` face up: that many publicly known copies
    /// fewer (as many as there are).
    #[inline]
    fn forget(&mut self, seat: usize, card: Card, n: u32) {
        let known = &mut self.known[seat];
        known.remove_n(card, n.min(known.count(card)));
    }

    /// A seat's score now: +1 per card on its pile, -1 per card in its hand.
    #[inline]
    pub fn score(&self, seat: usize) -> i64 {
        self.piles[seat].len() as i64 - self.hands[seat].len() as i64
    }
}

impl BeaverMania {
    /// Shuffles the whole deck and deals the round `s.round` (first seat `round mod players`).
    fn deal_round(&self, s: &mut State, rng: &mut GameRng, log: &mut EventLog<Event>) {
        s.draw.clear();
        s.draw.extend_from_slice(&self.deck);
        rng::shuffle(&mut s.draw, rng);
        let n = self.players;
        s.first_seat = (s.round % n as u32) as u8;
        log.emit(|| Event::RoundStarts { round: s.round, first: s.first_seat });
        let dealt = self.params.dealt() as usize;
        for seat in 0..MAX_PLAYERS {
            s.hands[seat] = Hand::EMPTY;
            s.known[seat] = Hand::EMPTY;
            s.piles[seat].clear();
            s.dealt_actions[seat] = 0;
            if seat < n {
                for _ in 0..dealt {
                    let c = s.draw.pop().expect("validated deck size");
                    s.hands[seat].add(c);
                }
                s.dealt_actions[seat] = (s.hands[seat].held() >> SUPERBEAVER) as u8;
                log.emit(|| Event::Dealt { seat: seat as u8, hand: s.hands[seat] });
            }
        }
        s.display = Hand::EMPTY;
        for _ in 0..self.params.display_size {
            let c = s.draw.pop().expect("validated deck size");
            s.display.add(c);
        }
        s.stock = Hand::EMPTY;
        for _ in 0..self.params.stock_size {
            let c = s.draw.pop().expect("validated deck size");
            s.stock.add(c);
        }
        s.put_away = Hand::EMPTY;
        s.current = s.first_seat;
        s.step = Step::Play;
        s.play = None;
        s.to_stab = 0;
        s.owed = [0; MAX_PLAYERS];
        s.round_turns = 1;
        s.turns += 1;
        s.round_end = None;
        s.stats = RoundStats::default();
        log.emit(|| Event::TurnStarts { turn: s.round_turns, seat: s.current });
    }

    /// The numbers of the display the current play may stab (bit per card), if it stabs.
    #[inline]
    pub(super) fn display_options(&self, s: &State) -> u32 {
        let Some(Form::Group { value, size }) = s.play.filter(|p| p.stabs_at_all()).map(|p| p.form()) else {
            return 0;
        };
        let below = if value == JOKERS_VALUE { NUMBER_BITS } else { (1u32 << value) - 1 };
        let mut m = s.display.held() & below;
        let mut out = 0;
        while m != 0 {
            let c = m.trailing_zeros();
            m &= m - 1;
            if s.display.count(c as Card) >= size as u32 {
                out |= 1 << c;
            }
        }
        out
    }

    /// Number of distinct steals (source, card) open to the active player.
    pub(super) fn steal_options(&self, s: &State) -> u32 {
        let me = s.current as usize;
        let mut n = s.display.held().count_ones() + s.stock.held().count_ones();
        for seat in (0..self.players).filter(|&o| o != me) {
            n += s.piles[seat].top_hand().held().count_ones();
        }
        n
    }

    /// Number of sources for one card taken by a drawer or the Bad guy's victim.
    #[inline]
    pub(super) fn supply_options(&self, s: &State) -> u32 {
        u32::from(!s.draw.is_empty()) + s.stock.held().count_ones()
    }

    /// One card for `seat` from the draw pile or the stock when there is exactly one
    /// source (taken at once); otherwise says whether there is none or a choice to ask.
    fn auto_supply(&self, s: &mut State, seat: usize, bad_guy: bool, log: &mut EventLog<Event>) -> Auto {
        match self.supply_options(s) {
            0 => Auto::Nothing,
            1 => {
                let (from, card) = if s.draw.is_empty() { (Source::Stock, s.stock.held().trailing_zeros() as Card) } else { (Source::DrawPile, NO_CARD) };
                self.take_supply(s, seat, from, card, bad_guy, log);
                Auto::Took
            }
            _ => Auto::Ask,
        }
    }

    /// Runs stages until one needs a decision with two or more options, the turn ends, or
    /// the round ends.
    fn run(&self, s: &mut State, mut stage: Stage, log: &mut EventLog<Event>) {
        loop {
            if s.round_end.is_some() {
                return;
            }
            stage = match stage {
                Stage::StabDisplay => {
                    let options = self.display_options(s);
                    match options.count_ones() {
                        0 => Stage::Piles,
                        1 => {
                            self.stab_display(s, options.trailing_zeros() as Card, log);
                            Stage::Piles
                        }
                        _ => {
                            s.step = Step::StabDisplay;
                            return;
                        }
                    }
                }
                Stage::Piles => {
                    if s.to_stab == 0 {
                        Stage::Action
                    } else {
                        let n = self.players;
                        let cur = s.current as usize;
                        let seat = (1..n).map(|i| (cur + i) % n).find(|&o| s.to_stab & (1 << o) != 0).expect("a seat to stab");
                        s.step = Step::Pile { seat: seat as u8 };
                        return;
                    }
                }
                Stage::Action => {
                    let play = s.play.expect("a play");
                    match play.action() {
                        SUPERBEAVER => Stage::Steal(2),
                        THIEF => Stage::Steal(1),
                        FAIRY => {
                            s.step = Step::Fairy;
                            return;
                        }
                        BAD_GUY => Stage::BadGuy,
                        KING => {
                            if let Play::Group { number, .. } = play {
                                self.king(s, number, log);
                            }
                            Stage::Refill
                        }
                        _ => Stage::Refill,
                    }
                }
                Stage::Steal(0) => Stage::Refill,
                Stage::Steal(left) => match self.steal_options(s) {
                    0 => Stage::Refill,
                    1 => {
                        let (from, victim, card) = self.only_steal(s);
                        self.do_steal(s, from, victim, card, log);
                        Stage::Steal(left - 1)
                    }
                    _ => {
                        s.step = Step::Steal { left };
                        return;
                    }
                },
                Stage::BadGuy => {
                    if self.players == 2 {
                        Stage::BadGuyCard(1 - s.current, 2)
                    } else {
                        s.step = Step::BadGuyVictim;
                        return;
                    }
                }
                Stage::BadGuyCard(_, 0) => Stage::Refill,
                Stage::BadGuyCard(victim, left) => match self.auto_supply(s, victim as usize, true, log) {
                    Auto::Nothing => Stage::Refill,
                    Auto::Took => Stage::BadGuyCard(victim, left - 1),
                    Auto::Ask => {
                        s.step = Step::BadGuyCard { victim, left };
                        return;
                    }
                },
                Stage::Refill => {
                    self.refill(s, log);
                    Stage::Draws
                }
                Stage::Draws => {
                    let n = self.players;
                    let cur = s.current as usize;
                    match (0..n).map(|i| (cur + i) % n).find(|&o| s.owed[o] > 0) {
                        None => Stage::EndTurn,
                        Some(seat) => {
                            let left = s.owed[seat];
                            s.owed[seat] = 0;
                            Stage::Draw(seat as u8, left)
                        }
                    }
                }
                Stage::Draw(_, 0) => {
                    self.refill_stock(s, log);
                    Stage::Draws
                }
                Stage::Draw(seat, left) => match self.auto_supply(s, seat as usize, false, log) {
                    Auto::Nothing => Stage::Draws,
                    Auto::Took => Stage::Draw(seat, left - 1),
                    Auto::Ask => {
                        s.step = Step::Draw { seat, left };
                        return;
                    }
                },
                Stage::EndTurn => {
                    self.end_turn(s, log);
                    return;
                }
            };
        }
    }

    /// The only steal when there is exactly one.
    fn only_steal(&self, s: &State) -> (Source, usize, Card) {
        if s.display.held() != 0 {
            return (Source::Display, 0, s.display.held().trailing_zeros() as Card);
        }
        if s.stock.held() != 0 {
            return (Source::Stock, 0, s.stock.held().trailing_zeros() as Card);
        }
        let seat = (0..self.players).find(|&o| o != s.current as usize && !s.piles[o].is_empty()).expect("one steal");
        (Source::Pile, seat, s.piles[seat].top_cards()[0])
    }

    fn make_play(&self, s: &mut State, seat: usize, play: Play, log: &mut EventLog<Event>) -> Stage {
        let cards = play.cards();
        for c in cards.kinds() {
            s.hands[seat].remove_n(c, cards.count(c));
            s.forget(seat, c, cards.count(c));
        }
        s.piles[seat].push_play(&play);
        let action = play.action_card();
        if action != NO_CARD {
            s.stats.actions_played[(action - SUPERBEAVER) as usize] += 1;
        }
        log.emit(|| Event::Played { seat: seat as u8, play });
        s.play = Some(play);
        s.to_stab = 0;
        if s.hands[seat].is_empty() {
            s.round_end = Some(END_HAND);
            return Stage::EndTurn;
        }
        if play.stabs_at_all() {
            let form = play.form();
            for other in (0..self.players).filter(|&o| o != seat) {
                if stabs(form, s.piles[other].top_judged()) {
                    s.to_stab |= 1 << other;
                }
            }
        }
        Stage::StabDisplay
    }

    fn stab_display(&self, s: &mut State, card: Card, log: &mut EventLog<Event>) {
        let k = s.play.expect("a play").size();
        s.display.remove_n(card, k);
        s.hands[s.current as usize].add_n(card, k);
        s.known[s.current as usize].add_n(card, k);
        s.stats.display_stabbed += k;
        log.emit(|| Event::StabbedDisplay { seat: s.current, card, count: k as u8 });
    }

    fn stab_pile(&self, s: &mut State, victim: usize, take: bool, log: &mut EventLog<Event>) {
        s.to_stab &= !(1 << victim);
        let cards = s.piles[victim].pop_top();
        let k = cards.len() as u32;
        s.owed[victim] += k as u8;
        if take {
            s.hands[s.current as usize].add_all(&cards);
            s.known[s.current as usize].add_all(&cards);
            s.stats.pile_taken += k;
        } else {
            s.put_away.add_all(&cards);
            s.stats.pile_put_away += k;
        }
        log.emit(|| Event::StabbedPile { seat: s.current, victim: victim as u8, cards, taken: take });
    }

    fn do_steal(&self, s: &mut State, from: Source, victim: usize, card: Card, log: &mut EventLog<Event>) {
        let me = s.current as usize;
        match from {
            Source::Display => s.display.remove(card),
            Source::Stock => s.stock.remove(card),
            Source::Pile => {
                s.piles[victim].steal(card);
                s.owed[victim] += 1;
            }
            Source::DrawPile => unreachable!("nothing is stolen from the draw pile"),
        }
        s.hands[me].add(card);
        s.known[me].add(card);
        s.stats.stolen += 1;
        log.emit(|| Event::Stole { seat: me as u8, from, victim: victim as u8, card });
        if from == Source::Stock {
            self.check_supply(s);
        }
    }

    fn fairy(&self, s: &mut State, victim: usize, card: Card, log: &mut EventLog<Event>) {
        let given = s.hands[victim].has(card);
        if given {
            s.hands[victim].remove(card);
            s.forget(victim, card, 1);
            s.hands[s.current as usize].add(card);
            s.known[s.current as usize].add(card);
        }
        log.emit(|| Event::Fairy { seat: s.current, victim: victim as u8, card, given });
        if s.hands[victim].is_empty() {
            s.round_end = Some(END_HAND);
        }
    }

    fn king(&self, s: &mut State, number: Card, log: &mut EventLog<Event>) {
        let n = self.players;
        let me = s.current as usize;
        for seat in (1..n).map(|i| (me + i) % n) {
            if s.hands[seat].has(number) {
                s.hands[seat].remove(number);
                s.forget(seat, number, 1);
                s.piles[me].add_to_top(number);
                log.emit(|| Event::KingAdded { seat: seat as u8, king: me as u8, card: number });
                if s.hands[seat].is_empty() {
                    s.round_end = Some(END_HAND);
                    return;
                }
            }
        }
    }

    /// One card from the draw pile or the stock into `seat`'s hand.
    fn take_supply(&self, s: &mut State, seat: usize, from: Source, card: Card, bad_guy: bool, log: &mut EventLog<Event>) {
        let card = match from {
            Source::DrawPile => s.draw.pop().expect("a card in the draw pile"),
            Source::Stock => {
                s.stock.remove(card);
                card
            }
            _ => unreachable!("cards are taken from the draw pile or the stock"),
        };
        s.hands[seat].add(card);
        if from == Source::Stock {
            s.known[seat].add(card);
        }
        log.emit(|| Event::Took { seat: seat as u8, from, card, bad_guy });
        self.check_supply(s);
    }

    #[inline]
    fn check_supply(&self, s: &mut State) {
        if s.draw.is_empty() && s.stock.is_empty() && s.round_end.is_none() {
            s.round_end = Some(END_SUPPLY);
        }
    }

    fn refill(&self, s: &mut State, log: &mut EventLog<Event>) {
        let mut added = 0;
        while s.display.len() < self.params.display_size as usize {
            let Some(c) = s.draw.pop() else { break };
            s.display.add(c);
            added += 1;
            self.check_supply(s);
            if s.round_end.is_some() {
                // The round ends with this card, but it was dealt: the record says so.
                break;
            }
        }
        if added > 0 {
            log.emit(|| Event::Refilled { display: added, stock: 0 });
        }
        self.refill_stock(s, log);
    }

    fn refill_stock(&self, s: &mut State, log: &mut EventLog<Event>) {
        if s.round_end.is_some() {
            return;
        }
        let mut added = 0;
        while s.stock.len() < self.params.stock_size as usize {
            let Some(c) = s.draw.pop() else { break };
            s.stock.add(c);
            added += 1;
        }
        if added > 0 {
            log.emit(|| Event::Refilled { display: 0, stock: added });
        }
    }

    fn end_turn(&self, s: &mut State, log: &mut EventLog<Event>) {
        s.play = None;
        if s.round_turns >= self.params.turn_cap {
            s.round_end = Some(END_CAP);
            return;
        }
        s.current = ((s.current as usize + 1) % self.players) as u8;
        s.step = Step::Play;
        s.round_turns += 1;
        s.turns += 1;
        log.emit(|| Event::TurnStarts { turn: s.round_turns, seat: s.current });
    }

    /// Scores the round that just ended; deals the next round of a match or ends the game.
    fn finish_round(&self, s: &mut State, reason: u8, rng: &mut GameRng, log: &mut EventLog<Event>) {
        let n = self.players;
        let mut scores = [0i64; MAX_PLAYERS];
        for (seat, score) in scores.iter_mut().enumerate().take(n) {
            *score = s.score(seat);
        }
        let best = scores[..n].iter().copied().max().unwrap_or(0);
        let winners = (0..n).filter(|&t| scores[t] == best).fold(0u16, |m, t| m | 1 << t);
        log.emit(|| Event::RoundOver { round: s.round, reason, scores, winners });
        s.last_round = Some(RoundRecord {
            round: s.round,
            first_seat: s.first_seat,
            turns: s.round_turns,
            reason,
            scores,
            winners,
            dealt_actions: s.dealt_actions,
            stats: s.stats,
        });
        s.rounds_done += 1;
        s.round_end = None;
        s.capped_rounds += u32::from(reason == END_CAP);
        // The game's end reason: the last round's, unless a match ran out of rounds before
        // any total reached the target (then `cap`). A match that reaches its target ends by
        // the reason of the round that reached it, even when an earlier round hit the turn
        // cap (those rounds are counted in `capped_rounds`).
        let over = if self.params.is_match() {
            for (t, total) in s.totals.iter_mut().enumerate().take(n) {
                if winners & (1 << t) != 0 {
                    *total += scores[t];
                }
            }
            let reached = s.totals[..n].iter().any(|&t| t >= self.params.match_target as i64);
            if !reached && s.rounds_done >= self.params.max_rounds {
                s.capped = true;
                true
            } else {
                reached
            }
        } else {
            s.totals = scores;
            true
        };
        if over {
            let best = s.totals[..n].iter().copied().max().unwrap_or(0);
            s.winners = (0..n).filter(|&t| s.totals[t] == best).fold(0u16, |m, t| m | 1 << t);
            s.end_reason = if s.capped { END_CAP } else { reason };
            s.step = Step::Over;
            log.emit(|| Event::GameOver { reason: s.end_reason, turns: s.turns });
        } else {
            s.round += 1;
            self.deal_round(s, rng, log);
        }
    }
}

impl Game for BeaverMania {
    type State = State;
    type Action = Action;
    type View<'a> = View<'a>;
    type Event = Event;
    type Metrics = BeaverMetrics;
    const INFO: GameInfo = GameInfo {
        id: "beaver-mania",
        name: "Beaver Mania",
        end_reasons: END_REASONS,
        length_unit: "turns",
        standing_unit: "points",
        default_cap: 1000,
        default_bot: "greedy",
        search: SearchDefaults {
            // `ismcts` models the table with `greedy` and rolls out with it: measured stronger
            // than searching the opponents' choices (docs/skill.md).
            rollout: 1,
            opponents: 1,
            ..SearchDefaults::ENGINE
        },
        ..GameInfo::DEFAULTS
    };

    fn seats(&self) -> usize {
        self.players
    }

    /// The longest possible game: `turn_cap` turns in each round of the match.
    fn turn_cap(&self) -> u32 {
        let rounds = if self.params.is_match() { self.params.max_rounds } else { 1 };
        self.params.turn_cap.saturating_mul(rounds)
    }

    /// A new game: the first round dealt.
    fn deal(&self, rng: &mut GameRng, log: &mut EventLog<Event>) -> State {
        let mut s = State {
            draw: Vec::with_capacity(self.deck.len()),
            display: Hand::EMPTY,
            stock: Hand::EMPTY,
            hands: [Hand::EMPTY; MAX_PLAYERS],
            piles: std::array::from_fn(|_| Pile { cards: Vec::with_capacity(self.deck.len()), plays: Vec::with_capacity(self.deck.len()) }),
            put_away: Hand::EMPTY,
            current: 0,
            step: Step::Play,
            play: None,
            to_stab: 0,
            owed: [0; MAX_PLAYERS],
            turns: 0,
            round_turns: 0,
            round: 0,
            first_seat: 0,
            rounds_done: 0,
            totals: [0; MAX_PLAYERS],
            end_reason: 0,
            capped: false,
            capped_rounds: 0,
            winners: 0,
            round_end: None,
            dealt_actions: [0; MAX_PLAYERS],
            stats: RoundStats::default(),
            last_round: None,
            known: [Hand::EMPTY; MAX_PLAYERS],
        };
        self.deal_round(&mut s, rng, log);
        s
    }

    #[inline]
    fn to_move(&self, s: &State) -> ToMove {
        match s.step {
            Step::Over => ToMove::Over,
            Step::Draw { seat, .. } => ToMove::Seat(seat as usize),
            _ => ToMove::Seat(s.current as usize),
        }
    }

    #[inline]
    fn view<'a>(&self, s: &'a State, seat: usize) -> View<'a> {
        View::new(seat, self.players, s)
    }

    fn legal_actions(&self, view: &View, out: &mut Vec<Action>) {
        let me = view.seat;
        match view.step {
            Step::Play => for_each_play(view.hand, self.numbers, &view.hippie_targets(), |p| out.push(Action::Play(p))),
            Step::StabDisplay => {
                let mut m = view.display_options(self);
                while m != 0 {
                    out.push(Action::StabDisplay(m.trailing_zeros() as Card));
                    m &= m - 1;
                }
            }
            Step::Pile { .. } => out.extend([Action::Take(true), Action::Take(false)]),
            Step::Steal { .. } => {
                for (from, h) in [(Source::Display, view.display()), (Source::Stock, view.stock())] {
                    out.extend(h.kinds().map(|card| Action::Steal { from, seat: me as u8, card }));
                }
                for seat in self.others(me) {
                    let top = view.pile(seat).top_hand();
                    out.extend(top.kinds().map(|card| Action::Steal { from: Source::Pile, seat: seat as u8, card }));
                }
            }
            Step::Fairy => {
                for seat in self.others(me) {
                    let mut m = self.kinds;
                    while m != 0 {
                        out.push(Action::Fairy { seat: seat as u8, card: m.trailing_zeros() as Card });
                        m &= m - 1;
                    }
                }
            }
            Step::BadGuyVictim => out.extend(self.others(me).map(|seat| Action::BadGuy { seat: seat as u8 })),
            Step::BadGuyCard { .. } | Step::Draw { .. } => {
                if view.draw_pile() > 0 {
                    out.push(Action::Supply { from: Source::DrawPile, card: NO_CARD });
                }
                out.extend(view.stock().kinds().map(|card| Action::Supply { from: Source::Stock, card }));
            }
            Step::Over => {}
        }
    }

    fn is_legal(&self, view: &View, action: &Action) -> bool {
        let me = view.seat;
        let other = |seat: u8| (seat as usize) < self.players && seat as usize != me;
        match (view.step, *action) {
            (Step::Play, Action::Play(p)) => view.active() == me && is_legal_play(&p, view.hand, self.numbers, &view.hippie_targets()),
            (Step::StabDisplay, Action::StabDisplay(c)) => (c as usize) < KINDS && view.display_options(self) & (1 << c) != 0,
            (Step::Pile { .. }, Action::Take(_)) => true,
            (Step::Steal { .. }, Action::Steal { from, seat, card }) => {
                (card as usize) < KINDS
                    && match from {
                        Source::Display => seat as usize == me && view.display().has(card),
                        Source::Stock => seat as usize == me && view.stock().has(card),
                        Source::Pile => other(seat) && view.pile(seat as usize).top_cards().contains(&card),
                        Source::DrawPile => false,
                    }
            }
            (Step::Fairy, Action::Fairy { seat, card }) => other(seat) && (card as usize) < KINDS && self.kinds & (1 << card) != 0,
            (Step::BadGuyVictim, Action::BadGuy { seat }) => other(seat),
            (Step::BadGuyCard { .. } | Step::Draw { .. }, Action::Supply { from, card }) => match from {
                Source::DrawPile => card == NO_CARD && view.draw_pile() > 0,
                Source::Stock => (card as usize) < KINDS && view.stock().has(card),
                _ => false,
            },
            _ => false,
        }
    }

    /// Applies one decision and runs the rules up to the next decision.
    fn apply(&self, s: &mut State, seat: usize, action: Action, rng: &mut GameRng, log: &mut EventLog<Event>) {
        let next = match (s.step, action) {
            (Step::Play, Action::Play(play)) => self.make_play(s, seat, play, log),
            (Step::StabDisplay, Action::StabDisplay(card)) => {
                self.stab_display(s, card, log);
                Stage::Piles
            }
            (Step::Pile { seat: victim }, Action::Take(take)) => {
                self.stab_pile(s, victim as usize, take, log);
                Stage::Piles
            }
            (Step::Steal { left }, Action::Steal { from, seat: victim, card }) => {
                self.do_steal(s, from, victim as usize, card, log);
                Stage::Steal(left - 1)
            }
            (Step::Fairy, Action::Fairy { seat: victim, card }) => {
                self.fairy(s, victim as usize, card, log);
                Stage::Refill
            }
            (Step::BadGuyVictim, Action::BadGuy { seat: victim }) => Stage::BadGuyCard(victim, 2),
            (Step::BadGuyCard { victim, left }, Action::Supply { from, card }) => {
                self.take_supply(s, victim as usize, from, card, true, log);
                Stage::BadGuyCard(victim, left - 1)
            }
            (Step::Draw { seat: drawer, left }, Action::Supply { from, card }) => {
                self.take_supply(s, drawer as usize, from, card, false, log);
                Stage::Draw(drawer, left - 1)
            }
            (step, action) => panic!("seat {seat}: action {action:?} does not fit step {step:?}"),
        };
        self.run(s, next, log);
        if let Some(reason) = s.round_end {
            self.finish_round(s, reason, rng, log);
        }
    }

    fn outcome(&self, s: &State) -> Outcome {
        let mut o = Outcome::new();
        o.length = s.turns;
        o.end_reason = s.end_reason;
        o.scores[..self.players].copy_from_slice(&s.totals[..self.players]);
        o.winners = s.winners;
        o
    }

    /// Conservation and sanity: every card of the deck is in exactly one place, hands and
    /// piles are consistent, the step fits the state.
    fn check_invariants(&self, s: &State) -> Result<(), String> {
        let n = self.players;
        let mut seen = [0u32; KINDS];
        for &c in &s.draw {
            seen[c as usize] += 1;
        }
        let mut add = |h: &Hand| {
            for c in h.kinds() {
                seen[c as usize] += h.count(c);
            }
        };
        add(&s.display);
        add(&s.stock);
        add(&s.put_away);
        for seat in 0..MAX_PLAYERS {
            if seat >= n && (!s.hands[seat].is_empty() || !s.piles[seat].is_empty()) {
                return Err(format!("seat {seat} is not at the table but holds cards"));
            }
            add(&s.hands[seat]);
            if s.known[seat].kinds().any(|c| s.known[seat].count(c) > s.hands[seat].count(c)) {
                return Err(format!("seat {seat}'s publicly known cards are not all in its hand"));
            }
        }
        for (seat, pile) in s.piles.iter().enumerate() {
            for &c in &pile.cards {
                seen[c as usize] += 1;
            }
            let mut prev = 0u16;
            for (i, p) in pile.plays.iter().enumerate() {
                if (i > 0 && p.start <= prev) || p.start as usize >= pile.cards.len() {
                    return Err(format!("seat {seat}: play {i} of the pile is empty or out of order"));
                }
                prev = p.start;
            }
            if pile.plays.is_empty() != pile.cards.is_empty() || pile.plays.first().is_some_and(|p| p.start != 0) {
                return Err(format!("seat {seat}: pile cards and plays disagree"));
            }
        }
        for (c, (&got, &want)) in seen.iter().zip(&self.copies).enumerate() {
            if got != want {
                return Err(format!(
                    "card {} is counted {got} times but the deck has {want} (draw pile + display + stock + hands + piles + put away must equal the deck)",
                    super::cards::card_name(c as Card)
                ));
            }
        }
        if s.display.len() > self.params.display_size as usize || s.stock.len() > self.params.stock_size as usize {
            return Err("the display or the stock holds more cards than its size".into());
        }
        if s.round_turns > self.params.turn_cap {
            return Err(format!("round turn {} passed the cap {}", s.round_turns, self.params.turn_cap));
        }
        if s.step != Step::Over {
            if s.current as usize >= n {
                return Err("the active seat is not at the table".into());
            }
            if (0..n).any(|t| s.hands[t].is_empty()) {
                return Err("a hand is empty but the round goes on".into());
            }
            if s.draw.is_empty() && s.stock.is_empty() {
                return Err("the draw pile and the stock are empty but the round goes on".into());
            }
            if s.step == Step::Play && (s.display.len() as u32) < self.params.display_size.min(s.display.len() as u32 + s.draw.len() as u32) {
                return Err("a turn starts with the display not refilled".into());
            }
        }
        Ok(())
    }

    fn seat_active(&self, s: &State, seat: usize) -> bool {
        seat < self.players && self.to_move(s) == ToMove::Seat(seat)
    }

    /// Standing: match points so far plus, while a round is played, the seat's round score
    /// now (+1 per card on its pile, -1 per card in its hand); once over, the final totals.
    fn standing(&self, s: &State, seat: usize) -> i64 {
        if matches!(s.step, Step::Over) { s.totals[seat] } else { s.totals[seat] + s.score(seat) }
    }
}
