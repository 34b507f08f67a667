//! Rainbow Rush's table state and the rules that change it: the deal, the draw (pile or
//! discard top, the reshuffle that keeps the top card and its lock), the three options of a
//! turn (add to the own row with a full row forcing one card out, discard, a wild onto an
//! opponent's row locking the card it replaces), the win check after every turn, the cap.

use std::fmt;

use super::cover::{Cover, HandCover, need};
use super::params::{KINDS, MAX_HAND, MAX_PLAYERS, MAX_ROW};
use super::{Action, Decision, Event, RainbowRush, RushMetrics, View};
use crate::engine::{EventLog, Game, GameInfo, GameRng, Lineup, Outcome, SearchDefaults, SeatRngs, ToMove, ask};
use crate::games::chroma::{Card, card_name, is_wild, shuffle_cards};

/// A hand as counts per card kind plus a mask of the kinds held (kinds in canonical order
/// are its set bits from the lowest): no heap, O(1) add and remove.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hand {
    counts: [u8; KINDS],
    kinds: u64,
    len: u8,
    /// The cover of the hand's cards, kept up to date (with `kinds`).
    cover: HandCover,
}

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand { counts: [0; KINDS], kinds: 0, len: 0, cover: HandCover::EMPTY };

    /// A hand holding `cards`.
    pub fn of(cards: &[Card]) -> Hand {
        let mut h = Hand::EMPTY;
        for &c in cards {
            h.add(c);
        }
        h
    }

    /// Copies of `card` held.
    #[inline]
    pub fn count(&self, card: Card) -> u32 {
        self.counts.get(card as usize).map_or(0, |&c| c as u32)
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the hand holds no card.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bit k set when kind k is held.
    #[inline]
    pub fn kind_mask(&self) -> u64 {
        self.kinds
    }

    /// The kinds held, in canonical order.
    #[inline]
    pub fn kinds(&self) -> Kinds {
        Kinds(self.kinds)
    }

    /// Every card held (copies repeated), in canonical order.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.kinds().flat_map(move |k| std::iter::repeat_n(k, self.counts[k as usize] as usize))
    }

    /// Adds one card.
    #[inline]
    pub fn add(&mut self, card: Card) {
        self.counts[card as usize] += 1;
        self.kinds |= 1 << card;
        self.len += 1;
        self.cover.add(card);
    }

    /// Removes one card; the caller checks that it is held. The cover is updated in place
    /// ([`HandCover::remove`]); the tests check it against a cover recomputed from the cards.
    #[inline]
    pub fn remove(&mut self, card: Card) {
        let c = &mut self.counts[card as usize];
        debug_assert!(*c > 0, "removing a card that is not held");
        *c -= 1;
        let last = *c == 0;
        if last {
            self.kinds &= !(1 << card);
        }
        self.len -= 1;
        self.cover.remove(card, 1, last);
        debug_assert_eq!(self.cover(), self.add_to_except(Cover::EMPTY, Card::MAX));
    }

    /// The cover of the hand's cards.
    #[inline]
    pub fn cover(&self) -> Cover {
        self.cover.cover(self.kinds)
    }

    /// This hand without any card of the kinds in `mask`.
    #[inline]
    pub fn without(&self, mask: u64) -> Hand {
        let mut h = *self;
        for k in Kinds(mask & self.kinds) {
            let copies = h.counts[k as usize];
            h.len -= copies;
            h.counts[k as usize] = 0;
            h.cover.remove(k, copies as u64, true);
        }
        h.kinds &= !mask;
        h
    }

    /// `cover` with every card of the hand added.
    #[inline]
    pub fn add_to(&self, cover: Cover) -> Cover {
        cover.merge(self.cover())
    }

    /// `cover` with every card of the hand but one copy of `except` added (every card when
    /// `except` is not held).
    #[inline]
    pub fn add_to_except(&self, mut cover: Cover, except: Card) -> Cover {
        for k in self.kinds() {
            cover.add_copies(k, self.counts[k as usize] as u64 - u64::from(k == except));
        }
        cover
    }
}

/// The kinds of a hand in canonical order (set bits of a mask, lowest first).
#[derive(Clone, Copy, Debug)]
pub struct Kinds(u64);

impl Kinds {
    /// The kinds whose bits are set in `mask`, lowest first.
    #[inline]
    pub fn of(mask: u64) -> Kinds {
        Kinds(mask)
    }
}

impl Iterator for Kinds {
    type Item = Card;
    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let k = self.0.trailing_zeros() as Card;
        self.0 &= self.0 - 1;
        Some(k)
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_cards(f, self.cards())
    }
}

fn write_cards(f: &mut fmt::Formatter<'_>, cards: impl Iterator<Item = Card>) -> fmt::Result {
    for (i, c) in cards.enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        f.write_str(&card_name(c))?;
    }
    Ok(())
}

/// A row of cards in front of a player, in the order they were placed (a wild played onto
/// it takes the place of the card it replaced).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    cards: [Card; MAX_ROW],
    len: u8,
    /// The highest coverage of the row's cards over the five shapes, kept up to date.
    best: u8,
    /// The shapes of that coverage (bit `s`: shape `s`), kept up to date.
    best_shapes: u8,
    /// The cover of the row's cards, kept up to date.
    cover: Cover,
}

impl Row {
    /// An empty row.
    pub const EMPTY: Row = Row { cards: [0; MAX_ROW], len: 0, best: 0, best_shapes: 0x1f, cover: Cover::EMPTY };

    /// A row of `cards` (at most [`MAX_ROW`]).
    pub fn of(cards: &[Card]) -> Row {
        let mut r = Row::EMPTY;
        for &c in cards {
            r.push(c);
        }
        r
    }

    /// The cards in row order.
    #[inline]
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the row is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The cover of the row's cards.
    #[inline]
    pub fn cover(&self) -> Cover {
        self.cover
    }

    /// The highest coverage over the five shapes (5: a rainbow), read off the row without a
    /// pass over its lanes: the row changes once in a turn at most and is read at every
    /// decision, win check and score.
    #[inline]
    pub fn best(&self) -> u32 {
        self.best as u32
    }

    /// The shapes of the highest coverage (bit `s`: shape `s`; all five for an empty row).
    #[inline]
    pub fn best_shapes(&self) -> u32 {
        self.best_shapes as u32
    }

    /// Whether the row holds a rainbow.
    #[inline]
    pub fn is_rainbow(&self) -> bool {
        self.best >= 5
    }

    /// `best` and `best_shapes` after the cover changed.
    #[inline(always)]
    fn refresh(&mut self) {
        let (best, shapes) = self.cover.best_shapes();
        self.best = best as u8;
        self.best_shapes = shapes as u8;
    }

    /// The cover of the row without the card in `slot`.
    #[inline]
    pub fn cover_without(&self, slot: usize) -> Cover {
        let mut c = Cover::EMPTY;
        for (i, &card) in self.cards().iter().enumerate() {
            if i != slot {
                c.add(card);
            }
        }
        c
    }

    /// Places a card at the end.
    #[inline]
    pub fn push(&mut self, card: Card) {
        self.cards[self.len as usize] = card;
        self.len += 1;
        self.cover.add(card);
        self.refresh();
    }

    /// Takes the card in `slot` out; the cards after it move up.
    #[inline]
    pub fn remove(&mut self, slot: usize) -> Card {
        let out = self.cards[slot];
        self.cards.copy_within(slot + 1..self.len as usize, slot);
        self.len -= 1;
        self.cover = Cover::of(self.cards());
        self.refresh();
        out
    }

    /// Takes the card in `slot` out (the cards after it move up) and places `card` at the end:
    /// [`Row::remove`] then [`Row::push`] with one count of the cover and its highest coverage.
    #[inline]
    pub fn push_out(&mut self, slot: usize, card: Card) -> Card {
        let len = self.len as usize;
        let out = self.cards[slot];
        self.cards.copy_within(slot + 1..len, slot);
        self.cards[len - 1] = card;
        self.cover = Cover::of(self.cards());
        self.refresh();
        out
    }

    /// Puts `card` in `slot` and returns the card it replaces.
    #[inline]
    pub fn replace(&mut self, slot: usize, card: Card) -> Card {
        let out = std::mem::replace(&mut self.cards[slot], card);
        self.cover = Cover::of(self.cards());
        self.refresh();
        out
    }
}

impl fmt::Display for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_cards(f, self.cards().iter().copied())
    }
}

/// Where the turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The current seat chooses where to draw from.
    Draw,
    /// The current seat adds, discards or sabotages.
    Play,
    /// The game has ended.
    Over,
}

/// One wild played onto an opponent's row, kept for metrics and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SabotageRecord {
    /// Turn in which it was played.
    pub turn: u32,
    /// Who played it.
    pub seat: u8,
    /// Whose row it went on.
    pub victim: u8,
    /// The wild.
    pub wild: Card,
    /// The card it replaced (now on the discard pile, locked).
    pub replaced: Card,
    /// Cards the victim needed to win before (5 − highest coverage).
    pub need_before: u8,
    /// Cards the victim needs after.
    pub need_after: u8,
}

/// The whole table, hidden cards included. Bots never see this, only a [`super::View`].
#[derive(Clone, Debug)]
pub struct State {
    /// Draw pile, top card last.
    pub draw: Vec<Card>,
    /// Discard pile, top card last.
    pub discard: Vec<Card>,
    /// Per discard-pile card (same index): the last turn in which it may not be taken
    /// (0: not locked). The lock belongs to the card, wherever it is in the pile.
    pub locks: Vec<u32>,
    /// Every seat's hand.
    pub hands: [Hand; MAX_PLAYERS],
    /// Every seat's row.
    pub rows: [Row; MAX_PLAYERS],
    /// The seat whose turn it is.
    pub current: u8,
    /// Where the turn stands.
    pub phase: Phase,
    /// The current turn (from 1); once over, the turns played.
    pub turn: u32,
    /// The seat holding the rainbow, once won.
    pub winner: Option<u8>,
    /// Index into [`END_REASONS`] once over.
    pub end_reason: u8,
    /// Wilds played onto opponents' rows so far.
    pub sabotages: u32,
    /// The last of them.
    pub last_sabotage: Option<SabotageRecord>,
    /// Cards taken from the discard pile so far.
    pub discard_takes: u32,
    /// Copies of each kind in each hand whose identity is public: taken from the discard
    /// pile (face up) and not played since (determinization).
    pub known: [[u8; KINDS]; MAX_PLAYERS],
    /// Whether `known`, the public record that only samples read, is kept: from every deal,
    /// until no seat samples ([`HiddenInfo::skip_sample_records`](crate::engine::HiddenInfo::skip_sample_records)); it is
    /// stale after that.
    pub records: bool,
}

/// A player completed a rainbow.
pub const END_RAINBOW: u8 = 0;
/// The game reached the turn cap: no winner.
pub const END_CAP: u8 = 1;
/// End reason names for reports and JSON.
pub const END_REASONS: &[&str] = &["rainbow", "cap"];

impl State {
    /// `seat` played a `card` from its hand, face up: one publicly known copy fewer (if any).
    #[inline]
    fn forget(&mut self, seat: usize, card: Card) {
        if self.records {
            let known = &mut self.known[seat][card as usize];
            *known = known.saturating_sub(1);
        }
    }

    /// The discard pile's top card when it may be taken now: not a wild, not locked.
    #[inline]
    pub fn takeable_top(&self) -> Option<Card> {
        match (self.discard.last(), self.locks.last()) {
            (Some(&c), Some(&lock)) if !is_wild(c) && lock < self.turn => Some(c),
            _ => None,
        }
    }
}

impl RainbowRush {
    /// Deals `deal` cards to each seat one at a time from seat 0 off the shuffled draw pile
    /// and starts seat 0's first turn.
    #[inline]
    fn deal_hands(&self, s: &mut State, log: &mut EventLog<Event>) {
        for _ in 0..self.params.deal {
            for seat in 0..self.players {
                let card = s.draw.pop().expect("deck size checked against the deal");
                s.hands[seat].add(card);
            }
        }
        if log.enabled() {
            for seat in 0..self.players {
                log.emit(|| Event::Dealt { seat: seat as u8, hand: s.hands[seat] });
            }
            log.emit(|| Event::TurnStarts { turn: 1, seat: 0 });
        }
    }

    /// The discard pile but its top card becomes the shuffled draw pile; the top card stays
    /// with its lock. The caller logs it: the log reaches no call the compiler does not
    /// inline, so the quick loop's, which never records, costs no test per event.
    fn reshuffle(&self, s: &mut State, rng: &mut GameRng) {
        let top = s.discard.pop().expect("more than one card");
        let lock = s.locks.pop().expect("locks follow the discard pile");
        std::mem::swap(&mut s.draw, &mut s.discard);
        shuffle_cards(&mut s.draw, rng);
        s.locks.clear();
        s.discard.push(top);
        s.locks.push(lock);
    }

    /// A card has come into the hand (or nothing): with an empty hand the player passes.
    #[inline(always)]
    fn after_draw(&self, s: &mut State, seat: usize, log: &mut EventLog<Event>) {
        if s.hands[seat].is_empty() {
            self.pass(s, seat, log);
        } else {
            s.phase = Phase::Play;
        }
    }

    /// A seat with no card after drawing passes: no row changed, so no win check.
    #[inline(always)]
    fn pass(&self, s: &mut State, seat: usize, log: &mut EventLog<Event>) {
        log.emit(|| Event::Passed { seat: seat as u8 });
        self.next_turn(s, log);
    }

    /// The top card of the draw pile into `seat`'s hand, the discard pile but its top
    /// reshuffled first when the draw pile is empty (and the variant allows it).
    #[inline(always)]
    fn draw_from_pile(&self, s: &mut State, seat: usize, rng: &mut GameRng, log: &mut EventLog<Event>) {
        if s.draw.is_empty() && self.params.reshuffle_discard && s.discard.len() > 1 {
            self.reshuffle(s, rng);
            log.emit(|| Event::Reshuffled { order: s.draw.clone() });
        }
        match s.draw.pop() {
            Some(c) => {
                s.hands[seat].add(c);
                log.emit(|| Event::Drew { seat: seat as u8, card: c });
            }
            None => log.emit(|| Event::DrewNothing { seat: seat as u8 }),
        }
    }

    /// The discard pile's top card (takeable: the caller checked) into `seat`'s hand, now
    /// publicly known to be there.
    #[inline(always)]
    fn take_discard(&self, s: &mut State, seat: usize, log: &mut EventLog<Event>) {
        debug_assert!(s.takeable_top().is_some(), "legal takes are unlocked non-wilds");
        s.locks.pop();
        let c = s.discard.pop().expect("a card to take");
        s.hands[seat].add(c);
        s.discard_takes += 1;
        if s.records {
            s.known[seat][c as usize] += 1;
        }
        log.emit(|| Event::TookDiscard { seat: seat as u8, card: c });
    }

    /// The win check (the active player, then the others in turn order: only the active
    /// row and a sabotaged one can have changed, and no other row held a rainbow), then the
    /// cap, else the next seat's turn.
    #[inline(always)]
    fn end_turn(&self, s: &mut State, victim: Option<usize>, log: &mut EventLog<Event>) {
        let seat = s.current as usize;
        let winner = if s.rows[seat].is_rainbow() { Some(seat) } else { victim.filter(|&v| s.rows[v].is_rainbow()) };
        if let Some(w) = winner {
            s.winner = Some(w as u8);
            s.end_reason = END_RAINBOW;
            s.phase = Phase::Over;
            log.emit(|| Event::Won { seat: w as u8, row: s.rows[w], turn: s.turn });
        } else {
            self.next_turn(s, log);
        }
    }

    /// The cap, else the next seat's turn: the end of a turn that changed no row (a
    /// discard, a pass), where the win check has nothing to find (no row held a rainbow).
    #[inline(always)]
    fn next_turn(&self, s: &mut State, log: &mut EventLog<Event>) {
        if s.turn >= self.params.turn_cap {
            s.end_reason = END_CAP;
            s.phase = Phase::Over;
            log.emit(|| Event::Capped { turns: s.turn });
        } else {
            let seat = s.current as usize;
            s.current = if seat + 1 == self.players { 0 } else { seat as u8 + 1 };
            s.turn += 1;
            s.phase = Phase::Draw;
            log.emit(|| Event::TurnStarts { turn: s.turn, seat: s.current });
        }
    }
}

impl Game for RainbowRush {
    type State = State;
    type Action = Action;
    type View<'a> = View<'a>;
    type Event = Event;
    type Metrics = RushMetrics;
    const INFO: GameInfo = GameInfo {
        id: "rainbow-rush",
        name: "Rainbow Rush",
        end_reasons: END_REASONS,
        length_unit: "turns",
        standing_unit: "colors covered",
        default_cap: 1000,
        default_bot: "builder",
        search: SearchDefaults {
            // `ismcts` models the table with `builder` and rolls out with it: measured stronger
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

    fn turn_cap(&self) -> u32 {
        self.params.turn_cap
    }

    /// Shuffles the deck, deals `deal` cards to each seat one at a time from seat 0, and
    /// starts seat 0's first turn.
    fn deal(&self, rng: &mut GameRng, log: &mut EventLog<Event>) -> State {
        let mut draw = Vec::with_capacity(self.deck.len());
        draw.extend_from_slice(&self.deck);
        shuffle_cards(&mut draw, rng);
        let mut s = State {
            draw,
            discard: Vec::with_capacity(self.deck.len()),
            locks: Vec::with_capacity(self.deck.len()),
            hands: [Hand::EMPTY; MAX_PLAYERS],
            rows: [Row::EMPTY; MAX_PLAYERS],
            current: 0,
            phase: Phase::Draw,
            turn: 1,
            winner: None,
            end_reason: END_RAINBOW,
            sabotages: 0,
            last_sabotage: None,
            discard_takes: 0,
            known: [[0; KINDS]; MAX_PLAYERS],
            records: true,
        };
        self.deal_hands(&mut s, log);
        s
    }

    /// [`Game::deal`] into `s`, a state of an earlier game: every field reset and the
    /// piles refilled in place (the same draws, the same events, the same state).
    fn deal_into(&self, rng: &mut GameRng, log: &mut EventLog<Event>, s: &mut State) {
        // Every field named, so that a new one cannot be left out.
        let State { draw, discard, locks, hands, rows, current, phase, turn, winner, end_reason, sabotages, last_sabotage, discard_takes, known, records } = s;
        draw.clear();
        draw.extend_from_slice(&self.deck);
        shuffle_cards(draw, rng);
        discard.clear();
        locks.clear();
        *hands = [Hand::EMPTY; MAX_PLAYERS];
        *rows = [Row::EMPTY; MAX_PLAYERS];
        *current = 0;
        *phase = Phase::Draw;
        *turn = 1;
        *winner = None;
        *end_reason = END_RAINBOW;
        *sabotages = 0;
        *last_sabotage = None;
        *discard_takes = 0;
        *known = [[0; KINDS]; MAX_PLAYERS];
        *records = true;
        self.deal_hands(s, log);
    }

    #[inline]
    fn to_move(&self, s: &State) -> ToMove {
        if s.phase == Phase::Over { ToMove::Over } else { ToMove::Seat(s.current as usize) }
    }

    #[inline]
    fn view<'a>(&self, s: &'a State, seat: usize) -> View<'a> {
        let decision = if s.phase == Phase::Play { Decision::Play } else { Decision::Draw };
        View::new(seat, decision, self.players, s)
    }

    fn legal_actions(&self, view: &View, out: &mut Vec<Action>) {
        match view.decision {
            Decision::Draw => {
                out.push(Action::DrawPile);
                if view.takeable_top().is_some() {
                    out.push(Action::TakeDiscard);
                }
            }
            Decision::Play => {
                let row = view.own_row();
                for card in view.hand.kinds() {
                    if row.len() < self.row_size() {
                        out.push(Action::Add(card));
                    } else {
                        out.extend((0..row.len() as u8).map(|slot| Action::Replace { card, slot }));
                    }
                }
                out.extend(view.hand.kinds().map(Action::Discard));
                if self.sabotage_allowed() {
                    for wild in view.hand.kinds().filter(|&c| is_wild(c)) {
                        for target in (0..self.players).filter(|&t| self.can_sabotage(view, t)) {
                            let len = view.row(target).len() as u8;
                            out.extend((0..len).map(|slot| Action::Sabotage { wild, target: target as u8, slot }));
                        }
                    }
                }
            }
        }
    }

    fn is_legal(&self, view: &View, action: &Action) -> bool {
        let held = |c: Card| view.hand.count(c) > 0;
        match (*action, view.decision) {
            (Action::DrawPile, Decision::Draw) => true,
            (Action::TakeDiscard, Decision::Draw) => view.takeable_top().is_some(),
            (Action::Add(card), Decision::Play) => held(card) && view.own_row().len() < self.row_size(),
            (Action::Replace { card, slot }, Decision::Play) => {
                let row = view.own_row();
                held(card) && row.len() == self.row_size() && (slot as usize) < row.len()
            }
            (Action::Discard(card), Decision::Play) => held(card),
            (Action::Sabotage { wild, target, slot }, Decision::Play) => {
                self.sabotage_allowed()
                    && is_wild(wild)
                    && held(wild)
                    && self.can_sabotage(view, target as usize)
                    && (slot as usize) < view.row(target as usize).len()
            }
            _ => false,
        }
    }

    /// Applies one action of the deciding seat.
    #[inline(always)]
    fn apply(&self, s: &mut State, seat: usize, action: Action, rng: &mut GameRng, log: &mut EventLog<Event>) {
        match action {
            Action::DrawPile => {
                self.draw_from_pile(s, seat, rng, log);
                self.after_draw(s, seat, log);
            }
            Action::TakeDiscard => {
                self.take_discard(s, seat, log);
                self.after_draw(s, seat, log);
            }
            Action::Add(card) => {
                s.hands[seat].remove(card);
                s.forget(seat, card);
                s.rows[seat].push(card);
                log.emit(|| Event::Added { seat: seat as u8, card, out: None });
                self.end_turn(s, None, log);
            }
            Action::Replace { card, slot } => {
                s.hands[seat].remove(card);
                s.forget(seat, card);
                let row = &mut s.rows[seat];
                let out = row.push_out(slot as usize, card);
                s.discard.push(out);
                s.locks.push(0);
                log.emit(|| Event::Added { seat: seat as u8, card, out: Some(out) });
                self.end_turn(s, None, log);
            }
            Action::Discard(card) => {
                s.hands[seat].remove(card);
                s.forget(seat, card);
                s.discard.push(card);
                s.locks.push(0);
                log.emit(|| Event::Discarded { seat: seat as u8, card });
                self.next_turn(s, log);
            }
            Action::Sabotage { wild, target, slot } => {
                let victim = target as usize;
                s.hands[seat].remove(wild);
                s.forget(seat, wild);
                let need_before = need(s.rows[victim].cards()) as u8;
                let replaced = s.rows[victim].replace(slot as usize, wild);
                let need_after = need(s.rows[victim].cards()) as u8;
                let lock = if self.params.lock_turns > 0 { s.turn + self.params.lock_turns } else { 0 };
                s.discard.push(replaced);
                s.locks.push(lock);
                s.sabotages += 1;
                let record = SabotageRecord { turn: s.turn, seat: seat as u8, victim: target, wild, replaced, need_before, need_after };
                s.last_sabotage = Some(record);
                log.emit(|| Event::Sabotaged(record));
                self.end_turn(s, Some(victim), log);
            }
        }
    }

    /// Plays the dealt game `s` to its end with nothing recorded, a turn at a time: the
    /// draw is asked and applied, then (unless the hand is empty and the seat passes) the
    /// play is asked and applied, without a dispatch on the phase between them, so with a
    /// bot the compiler inlines (a uniform table) the bot's and the rules' dispatches on the
    /// decision fold away. The same bots are asked the same questions in the same order with
    /// the same streams, and the same actions are applied: the same game
    /// (`play_out_is_the_plain_loop` compares the two from the deal or any later decision).
    #[inline(always)]
    fn play_out<L: Lineup<Self> + ?Sized>(&self, s: &mut State, bots: &mut L, rng: &mut GameRng, seat_rngs: &mut SeatRngs) {
        let log: &mut EventLog<Event> = &mut EventLog::new(false);
        loop {
            let seat = s.current as usize;
            match s.phase {
                Phase::Draw => {
                    match ask(self, s, seat, bots, seat_rngs) {
                        Action::DrawPile => self.draw_from_pile(s, seat, rng, log),
                        Action::TakeDiscard => self.take_discard(s, seat, log),
                        other => {
                            self.apply(s, seat, other, rng, log);
                            continue;
                        }
                    }
                    if s.hands[seat].is_empty() {
                        self.pass(s, seat, log);
                        continue;
                    }
                    s.phase = Phase::Play;
                    let play = ask(self, s, seat, bots, seat_rngs);
                    self.apply(s, seat, play, rng, log);
                }
                Phase::Play => {
                    let action = ask(self, s, seat, bots, seat_rngs);
                    self.apply(s, seat, action, rng, log);
                }
                Phase::Over => return,
            }
        }
    }

    fn outcome(&self, s: &State) -> Outcome {
        let mut o = Outcome::new();
        o.length = s.turn;
        o.end_reason = s.end_reason;
        for seat in 0..self.players {
            o.scores[seat] = s.rows[seat].best() as i64;
        }
        if let Some(w) = s.winner {
            o.winners = 1 << w;
        }
        o
    }

    /// Every card accounted for, piles and locks consistent, rows and hands within their
    /// bounds, no rainbow left unclaimed, the winner's row a rainbow, the cap respected.
    fn check_invariants(&self, s: &State) -> Result<(), String> {
        let n = self.players;
        let mut counts = [0u32; KINDS];
        let mut count = |c: Card, place: &str| -> Result<(), String> {
            match counts.get_mut(c as usize) {
                Some(x) => {
                    *x += 1;
                    Ok(())
                }
                None => Err(format!("card {c} in the {place} is not a Rainbow Rush card")),
            }
        };
        for &c in &s.draw {
            count(c, "draw pile")?;
        }
        for &c in &s.discard {
            count(c, "discard pile")?;
        }
        for seat in 0..n {
            for c in s.hands[seat].cards() {
                count(c, "hand")?;
            }
            for &c in s.rows[seat].cards() {
                count(c, "row")?;
            }
        }
        if counts != self.copies {
            let total: u32 = counts.iter().sum();
            return Err(format!("cards not conserved: {total} on the table, the deck has {}", self.deck.len()));
        }
        for seat in n..MAX_PLAYERS {
            if !s.hands[seat].is_empty() || !s.rows[seat].is_empty() {
                return Err(format!("seat {seat} is not at the table but holds cards"));
            }
        }
        if s.locks.len() != s.discard.len() {
            return Err(format!("{} locks for {} discarded cards", s.locks.len(), s.discard.len()));
        }
        if let Some(&l) = s.locks.iter().max()
            && (l > s.turn + self.params.lock_turns || (self.params.lock_turns == 0 && l != 0))
        {
            return Err(format!("a card is locked until turn {l}, past turn {} + lock_turns", s.turn));
        }
        for seat in 0..n {
            let h = &s.hands[seat];
            let mask = (0..KINDS).filter(|&k| h.counts[k] > 0).fold(0u64, |m, k| m | 1 << k);
            let mut cover = HandCover::EMPTY;
            h.cards().for_each(|c| cover.add(c));
            if mask != h.kinds || h.counts.iter().map(|&c| c as usize).sum::<usize>() != h.len() || cover != h.cover {
                return Err(format!("seat {seat}'s hand bookkeeping is inconsistent"));
            }
            if s.records && (0..KINDS).any(|k| s.known[seat][k] as u32 > h.count(k as Card)) {
                return Err(format!("seat {seat}'s publicly known cards {:?} are not all in its hand", s.known[seat]));
            }
            let playing = s.phase == Phase::Play && seat == s.current as usize;
            let most = self.params.deal as usize + usize::from(playing);
            if h.len() > most || h.len() > MAX_HAND {
                return Err(format!("seat {seat} holds {} cards, more than {most}", h.len()));
            }
            let row = &s.rows[seat];
            if Cover::of(row.cards()) != row.cover || Cover::of(row.cards()).best_shapes() != (row.best(), row.best_shapes()) {
                return Err(format!("seat {seat}'s row cover is out of date"));
            }
            if s.rows[seat].len() > self.params.row_size as usize {
                return Err(format!("seat {seat}'s row holds {} cards, more than row_size {}", s.rows[seat].len(), self.params.row_size));
            }
            if s.phase != Phase::Over && s.rows[seat].cover().is_rainbow() {
                return Err(format!("seat {seat} holds a rainbow but the game goes on"));
            }
        }
        if s.phase == Phase::Play && s.hands[s.current as usize].is_empty() {
            return Err(format!("seat {} must play from an empty hand", s.current));
        }
        if s.current as usize >= n {
            return Err(format!("seat {} is not at the table", s.current));
        }
        if s.turn > self.params.turn_cap || s.turn == 0 {
            return Err(format!("turn {} outside 1..={}", s.turn, self.params.turn_cap));
        }
        match (s.phase, s.winner) {
            (Phase::Over, Some(w)) if !s.rows[w as usize].cover().is_rainbow() => Err(format!("seat {w} won without a rainbow")),
            (Phase::Over, None) if s.turn != self.params.turn_cap => Err(format!("the game ended without a winner at turn {}", s.turn)),
            (Phase::Draw | Phase::Play, Some(_)) => Err("a winner while the game goes on".into()),
            _ => Ok(()),
        }
    }

    fn seat_active(&self, s: &State, seat: usize) -> bool {
        seat == s.current as usize && seat < self.players && s.phase != Phase::Over
    }

    /// Standing: the most colors of one shape the seat's row covers (5 is a rainbow), as in
    /// `Outcome.scores`.
    fn standing(&self, s: &State, seat: usize) -> i64 {
        s.rows[seat].best() as i64
    }
}
