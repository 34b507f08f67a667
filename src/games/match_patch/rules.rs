//! Match Patch's table state and the rules that change it: the deal, the draw from the pile
//! or a patch slot, the pair loop with its redraws, the end check, the announced placement
//! and the turn cap. Nothing here allocates after the deal.

use std::fmt;

use super::params::{HAND_CAP, KINDS, MAX_PAIR_DRAWS, MAX_PLAYERS};
use super::{Action, Decision, Event, MatchMetrics, MatchPatch, View};
use crate::engine::{EventLog, Game, GameInfo, GameRng, Lineup, MAX_SEATS, Outcome, SearchDefaults, ToMove, ask, rng};
use crate::games::chroma::{Card, cell_name, shuffle_cards};

/// Room of a hand's buffers: its cards are a window of them that moves up one place when a
/// card leaves from the older end (no card moves), and back to the start when it reaches the
/// end ([`Hand::push`]). At least [`HAND_CAP`].
const ROOM: usize = 32;
const _: () = assert!(ROOM > HAND_CAP, "a window of HAND_CAP cards from 0 never reaches the buffers' last place");

/// Hands of at most this many cards remove a card with word operations
/// ([`Hand::remove_unrecorded`]): the cards' buffer has this many places past [`ROOM`], so
/// that the `SMALL` places from any start of a window are in it.
const SMALL: usize = 8;

/// Room of the tables indexed by a card's kind ([`Hand`]'s and [`Patch`]'s counts, the
/// patch's slots per kind): a power of two from [`KINDS`] on, so that a card indexes them
/// as a remainder (`kind`) without a bounds check. The places past the last kind stay 0.
const KIND_ROOM: usize = 32;
const _: () = assert!(KIND_ROOM >= KINDS && KIND_ROOM.is_power_of_two(), "every kind has its place, found as a remainder");

/// The place of `card` (below [`KINDS`]) in a table of [`KIND_ROOM`] places per kind.
#[inline(always)]
fn kind(card: Card) -> usize {
    card as usize % KIND_ROOM
}

/// A hand in the order its cards came in (dealt cards in deal order), with counts per kind
/// and the mask of kinds held twice or more, so pairs are found in O(1), and each card's
/// passed-up kinds (see [`Hand::passed_up`]). Fixed capacity, no heap.
///
/// The cards are the window `start..start + len` of a buffer with room to spare: a card
/// leaving the hand closes the gap from whichever side moves fewer cards, so the oldest card
/// (the one `memory` places) leaves without moving any; at a table that keeps no public
/// record, a small hand closes it with word operations ([`Hand::remove_unrecorded`]).
/// `PlainHand` is the plain version it is tested against.
#[derive(Clone, Copy)]
pub struct Hand {
    cards: [Card; ROOM + SMALL],
    /// Per buffer position, the kinds passed up while holding that card and every newer one
    /// (a difference: [`Hand::passed_up`] of a card is the union from it to the newest).
    passed: [u32; ROOM],
    start: u8,
    len: u8,
    /// Copies held per kind (`kind`; 0 past the last kind).
    counts: [u8; KIND_ROOM],
    /// Bit k set when kind k is held (the kinds), bit 32 + k when it is held at least twice
    /// (the pairs): one word, so that a card joining and a card leaving the hand each write
    /// both masks with one store and read them with one load (two 4-byte masks were read as
    /// one 8-byte word, which the processor cannot take from two pending 4-byte stores).
    masks: u64,
}

/// The bit of [`Hand`]'s `masks` where its pairs start.
const PAIRS: u32 = 32;

/// Per count of a kind after a card of it joined the hand, the bits [`Hand`]'s `masks` sets
/// at bit 0 (the kind held; the pair from a count of 2), shifted to the kind by the caller:
/// one load for the two tests, without a branch (which kinds pair up is the game's chance).
const JOINED: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = if c >= 1 { 1 } else { 0 } | if c >= 2 { 1 << PAIRS } else { 0 };
        c += 1;
    }
    t
};

/// Per count of a kind after a card of it left the hand, the bits [`Hand`]'s `masks` clears
/// at bit 0 (the kind at a count of 0, the pair below 2), as [`JOINED`].
const LEFT: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = if c == 0 { 1 } else { 0 } | if c < 2 { 1 << PAIRS } else { 0 };
        c += 1;
    }
    t
};

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand { cards: [0; ROOM + SMALL], passed: [0; ROOM], start: 0, len: 0, counts: [0; KIND_ROOM], masks: 0 };

    /// A hand holding `cards` (each 0..25) in this order of arrival, with no passed-up kinds.
    pub fn from_cards(cards: &[Card]) -> Hand {
        let mut h = Hand::EMPTY;
        for &c in cards {
            h.push(c);
        }
        h
    }

    /// A hand of as many `cards` as this one holds, each card with the passed-up kinds of this
    /// hand's card at its position (determinization deals other cards into the same places).
    pub fn redealt(&self, cards: &[Card]) -> Hand {
        debug_assert_eq!(cards.len(), self.len());
        let mut h = Hand::from_cards(cards);
        let (s, n) = (self.start as usize, self.len as usize);
        h.passed[..n].copy_from_slice(&self.passed[s..s + n]);
        h
    }

    /// Empties the hand ([`Hand::EMPTY`] but for what its buffers hold outside the window,
    /// which is never read: the buffers are not written).
    #[inline]
    pub fn clear(&mut self) {
        self.start = 0;
        self.len = 0;
        self.counts = [0; KIND_ROOM];
        self.masks = 0;
    }

    /// The cards, held longest first.
    #[inline]
    pub fn cards(&self) -> &[Card] {
        &self.cards[self.start as usize..self.start as usize + self.len as usize]
    }

    /// Copies of `card` held.
    #[inline]
    pub fn count(&self, card: Card) -> u32 {
        self.counts[kind(card)] as u32
    }

    /// Counts per kind, in canonical order.
    #[inline]
    pub fn counts(&self) -> &[u8; KINDS] {
        self.counts.first_chunk().expect("a place per kind")
    }

    /// Bit mask of the kinds held (bit k = kind k).
    #[inline]
    pub fn kinds_mask(&self) -> u32 {
        self.masks as u32
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the hand is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bit mask of the kinds held twice or more.
    #[inline]
    pub fn pair_mask(&self) -> u32 {
        (self.masks >> PAIRS) as u32
    }

    /// The kinds passed up while holding the card at position `i` (below the length): bit k
    /// set when the seat drew from the pile while the patch showed a card of kind k, which a
    /// player remembering the patch does not do holding its twin (taking the slot lays a
    /// pair). Public: made of draws everyone saw. A belief, not a rule (determinization).
    pub fn passed_up(&self, i: usize) -> u32 {
        let s = self.start as usize;
        self.passed[s + i..s + self.len as usize].iter().fold(0, |m, &p| m | p)
    }

    /// Marks every card held as having passed up the kinds `shown` (a draw from the pile while
    /// the patch showed them): one word, the newest card's difference. With no card held the
    /// word written lies outside the window (the place before it, or the buffers' last place,
    /// which a window from 0 never reaches), where [`Hand::push`] overwrites it before it is
    /// read: no branch.
    #[inline(always)]
    pub fn pass_up(&mut self, shown: u32) {
        self.passed[(self.start as usize + self.len as usize + ROOM - 1) % ROOM] |= shown;
    }

    /// Adds `card` as the newest card, with no passed-up kinds. The caller keeps the hand
    /// within [`HAND_CAP`].
    #[inline]
    pub fn push(&mut self, card: Card) {
        if self.start as usize + self.len as usize >= ROOM {
            self.move_window_to_start();
        }
        let at = self.start as usize + self.len as usize;
        self.cards[at] = card;
        self.passed[at] = 0;
        self.len += 1;
        let c = &mut self.counts[kind(card)];
        *c += 1;
        self.masks |= JOINED[*c as usize] << card;
    }

    /// Deals the cards of `top`, the top of a pile (its last card the top one), to this empty
    /// hand, the top card first: [`Hand::push`] of each card as popped one by one, without
    /// the test of the window's end (an empty hand's window starts at the buffers' start; the
    /// caller deals at most [`HAND_CAP`] cards).
    #[inline]
    pub fn deal_from_top(&mut self, top: &[Card]) {
        debug_assert!(self.is_empty() && top.len() <= HAND_CAP, "a deal to an empty hand within its capacity");
        for (at, &card) in top.iter().rev().enumerate() {
            // Below HAND_CAP: as a remainder, no bounds check.
            let at = at % ROOM;
            self.cards[at] = card;
            self.passed[at] = 0;
            let c = &mut self.counts[kind(card)];
            *c += 1;
            self.masks |= JOINED[*c as usize] << card;
        }
        self.start = 0;
        self.len = top.len() as u8;
    }

    /// Moves the window to the start of the buffers (the newest card reached their end).
    #[cold]
    #[inline(never)]
    fn move_window_to_start(&mut self) {
        let (s, n) = (self.start as usize, self.len as usize);
        self.cards.copy_within(s..s + n, 0);
        self.passed.copy_within(s..s + n, 0);
        self.start = 0;
    }

    /// The position of the copy of `card` held longest, searching from position `from` (the
    /// last position when it is not held; the caller checks that it is).
    #[inline(always)]
    fn find(&self, card: Card, from: usize) -> usize {
        let cards = self.cards();
        cards[from..].iter().position(|&c| c == card).map_or(cards.len() - 1, |i| from + i)
    }

    /// The position of the copy of `card` held longest (the last position when it is not
    /// held; the caller checks that it is).
    #[inline(always)]
    pub fn oldest(&self, card: Card) -> usize {
        self.find(card, 0)
    }

    /// The card held longest: `cards()[0]` of a hand that is not empty (the caller checks),
    /// read without slicing the window (a window that is not empty starts below `ROOM`).
    #[inline(always)]
    pub fn oldest_card(&self) -> Card {
        debug_assert!(!self.is_empty(), "the oldest card of an empty hand");
        self.cards[self.start as usize % ROOM]
    }

    /// Removes the copy of `card` held longest, with its passed-up kinds; the caller checks
    /// that it is held. The oldest card first, which leaves without a search or a move: a
    /// placement of the card held longest (`memory`'s) reads the same place as this test,
    /// so the test folds away there.
    #[inline(always)]
    pub fn remove(&mut self, card: Card) {
        if self.oldest_card() == card {
            // `remove_moving_older(0)`: no card moves, and the removed card's passed-up kinds
            // go with it (no card is older).
            self.start += 1;
            self.forget(card);
        } else {
            self.remove_at(self.find(card, 1));
        }
    }

    /// Removes the copy of `card` held longest, as [`Hand::remove`], but for the passed-up
    /// kinds, left stale (a table that keeps no public record, `State::records`, never reads
    /// them): in a hand of at most 8 cards (`SMALL`, the usual hand) without a branch on where
    /// the copy lies, which is the game's chance when a drawn card pairs the copy held
    /// ([`Hand::remove`] tests the oldest card, searches, picks a side and moves: each test
    /// often mispredicted).
    #[inline(always)]
    pub fn remove_unrecorded(&mut self, card: Card) {
        if self.len as usize <= SMALL {
            self.remove_small(card);
        } else {
            self.remove(card);
        }
    }

    /// [`Hand::remove_unrecorded`] in a hand of at most [`SMALL`] cards: the `SMALL` places
    /// from the window's start read as one word, the copy found as its first byte equal to
    /// `card` among the cards held, the newer cards moved down one place with shifts and
    /// masks. What the move writes past the window is never read.
    #[inline(always)]
    fn remove_small(&mut self, card: Card) {
        const ONES: u64 = u64::from_le_bytes([1; SMALL]);
        const HIGHS: u64 = ONES << 7;
        let len = self.len as usize;
        debug_assert!((1..=SMALL).contains(&len), "a small hand holding the card");
        // A window holding a card starts below ROOM (as a remainder: no bounds check).
        let s = self.start as usize % ROOM;
        let word: &mut [Card; SMALL] = (&mut self.cards[s..s + SMALL]).try_into().expect("SMALL places");
        let w = u64::from_le_bytes(*word);
        let x = w ^ ONES.wrapping_mul(card as u64);
        // The least byte of `x` that is 0 sets the least bit here (a borrow runs only to
        // higher bytes); the places past the window are masked off.
        let hits = x.wrapping_sub(ONES) & !x & HIGHS & (u64::MAX >> (64 - 8 * len));
        debug_assert!(hits != 0, "the card is held");
        let older = (hits & hits.wrapping_neg()) >> 7;
        let older = older.wrapping_sub(1);
        *word = ((w & older) | ((w >> 8) & !older)).to_le_bytes();
        self.forget(card);
    }

    /// Removes the two copies of `card` held longest (laying a pair); the caller checks that
    /// they are held.
    #[inline(always)]
    pub fn remove_pair(&mut self, card: Card) {
        let newest = self.len as usize - 1;
        // The newer copy first, closing its gap from the newer side, then the older one from
        // the older side. Usually the newest card made the pair: with two copies held it is
        // the newer copy and leaves without a search or a move (the older copy's place does
        // not change).
        if self.counts[kind(card)] == 2 && self.cards[(self.start as usize + newest) % ROOM] == card {
            self.remove_moving_newer(newest);
            let i = self.oldest(card);
            self.remove_moving_older(i);
        } else {
            let i = self.oldest(card);
            let j = self.find(card, i + 1);
            self.remove_moving_newer(j);
            self.remove_moving_older(i);
        }
    }

    /// Removes the card at position `i` (below the length), with its passed-up kinds; the
    /// gap closes from the side with fewer cards.
    #[inline(always)]
    pub fn remove_at(&mut self, i: usize) {
        if 2 * i < self.len as usize {
            self.remove_moving_older(i);
        } else {
            self.remove_moving_newer(i);
        }
    }

    /// [`Hand::remove_at`], the older cards moving up one place.
    #[inline(always)]
    fn remove_moving_older(&mut self, i: usize) {
        let s = self.start as usize;
        let at = s + i;
        let card = self.cards[at];
        let passed = self.passed[at];
        let mut j = at;
        while j > s {
            self.cards[j] = self.cards[j - 1];
            self.passed[j] = self.passed[j - 1];
            j -= 1;
        }
        // The next older card (now at `at`) keeps the removed card's passed-up kinds; when
        // there is none, `at` has just left the window and the value is never read.
        self.passed[at] |= passed;
        self.start += 1;
        self.forget(card);
    }

    /// [`Hand::remove_at`], the newer cards moving down one place.
    #[inline(always)]
    fn remove_moving_newer(&mut self, i: usize) {
        let s = self.start as usize;
        let at = s + i;
        let end = s + self.len as usize;
        let card = self.cards[at];
        // The next older card keeps the removed card's passed-up kinds (outside the window,
        // never read, when there is none: below `s`, or the buffer's last place when `s` is 0,
        // which a window of at most HAND_CAP cards from 0 never reaches).
        self.passed[(at + ROOM - 1) % ROOM] |= self.passed[at];
        for j in at..end - 1 {
            self.cards[j] = self.cards[j + 1];
            self.passed[j] = self.passed[j + 1];
        }
        self.forget(card);
    }

    /// The bookkeeping of one copy of `card` leaving the hand (the cards already moved).
    #[inline(always)]
    fn forget(&mut self, card: Card) {
        self.len -= 1;
        let c = &mut self.counts[kind(card)];
        *c -= 1;
        self.masks &= !(LEFT[*c as usize] << card);
    }
}

impl PartialEq for Hand {
    /// The same cards in the same order with the same passed-up kinds (wherever the window
    /// lies in the buffers).
    fn eq(&self, other: &Hand) -> bool {
        self.cards() == other.cards()
            && self.counts == other.counts
            && self.masks == other.masks
            && (0..self.len()).all(|i| self.passed_up(i) == other.passed_up(i))
    }
}

impl Eq for Hand {}

impl fmt::Debug for Hand {
    /// The cards and their passed-up kinds (not where the window lies in the buffers).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let passed: Vec<u32> = (0..self.len()).map(|i| self.passed_up(i)).collect();
        f.debug_struct("Hand")
            .field("cards", &self.cards())
            .field("passed", &passed)
            .field("counts", self.counts())
            .field("held", &self.kinds_mask())
            .field("pairs", &self.pair_mask())
            .finish()
    }
}

/// [`Hand`] as a plain list, the reference it is tested against: the cards in arrival order
/// and each card's passed-up kinds stored whole; every removal moves the newer cards down.
#[cfg(test)]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlainHand {
    /// The cards, held longest first.
    pub cards: Vec<Card>,
    /// Each card's passed-up kinds, as [`Hand::passed_up`].
    pub passed: Vec<u32>,
}

#[cfg(test)]
impl PlainHand {
    /// Adds `card` as the newest card, with no passed-up kinds.
    pub fn push(&mut self, card: Card) {
        self.cards.push(card);
        self.passed.push(0);
    }

    /// Every card held passes up the kinds `shown`.
    pub fn pass_up(&mut self, shown: u32) {
        for p in &mut self.passed {
            *p |= shown;
        }
    }

    /// Removes the copy of `card` held longest (which must be held).
    pub fn remove(&mut self, card: Card) {
        let i = self.cards.iter().position(|&c| c == card).expect("the card is held");
        self.cards.remove(i);
        self.passed.remove(i);
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &c) in self.cards().iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(&cell_name(c))?;
        }
        Ok(())
    }
}

/// Removes and returns `v[i]`, shifting the later items down: [`Vec::remove`] with a plain
/// loop, cheaper than its `memmove` call for the short rows of this game.
#[inline]
pub fn remove_at<T: Copy>(v: &mut Vec<T>, i: usize) -> T {
    let item = v[i];
    for j in i + 1..v.len() {
        v[j - 1] = v[j];
    }
    v.pop();
    item
}

/// One face-down card of the patch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The card (announced when placed, face down since).
    pub card: Card,
    /// Placement number in the game (from 0): public, it says where the slot lies.
    pub serial: u32,
}

/// Slots a [`Patch`] moves, or compares, at a time.
const BLOCK: usize = 4;

/// Slots a [`Patch::take`] moves down at once, whatever lies in them, when no more than this
/// many follow the one taken: places of [`NO_SLOT`] a [`Patch`] keeps after its last slot.
const MOVE: usize = 16;
const _: () = assert!(MOVE >= BLOCK, "the room after the slots serves the searches too");

/// What a [`Patch`] holds past its last slot: a card of no kind, which no search matches.
const NO_SLOT: Slot = Slot { card: Card::MAX, serial: 0 };

/// The patch: its slots, oldest first, and how many of them hold each kind, so that whether
/// the patch shows a kind is one bit test rather than a scan of the slots (the memory bot
/// asks at every draw, the `passed` belief at every pile draw). It reads as the slice of its
/// slots; only [`Patch::push`], [`Patch::take`] and [`Patch::clear`] change it, and each
/// keeps the counts in step with the slots.
///
/// The slots are stored with at least `MOVE` places of `NO_SLOT` after them, so that a
/// take closes the gap with one move of `MOVE` slots (a loop of `BLOCK` slots at a time
/// past that) and [`Patch::first_of`] searches `BLOCK` slots at a time, with a
/// loop that ends after a number of blocks rather than of slots (its end is a mispredicted
/// branch less often). `Patch::take_plain` and `Patch::first_of_plain` are the plain
/// versions they are tested against.
///
/// While every slot was placed in placement order (as the rules place them), the slots
/// placed as numbers below `TRACKED` are also kept as bits of placement numbers, all of
/// them and per kind, so that [`Patch::first_of`] finds a kind's oldest slot among them by
/// counting bits, with no loop (the usual game places fewer than `TRACKED` cards).
pub struct Patch {
    /// The slots, then [`NO_SLOT`] in every place from `len` on (at least [`MOVE`] of them).
    slots: Vec<Slot>,
    len: usize,
    /// Slots per kind (`kind`; 0 past the last kind).
    counts: [u8; KIND_ROOM],
    /// Bit k set when a slot holds kind k.
    kinds: u32,
    /// Bit s set when the slot placed as number s (below [`TRACKED`]) is in the patch.
    live: u64,
    /// Per kind (`kind`), bit s set when the slot placed as number s (below [`TRACKED`])
    /// holds it (0 past the last kind).
    by_kind: [u64; KIND_ROOM],
    /// The least placement number a slot pushed next may have to be tracked (one more than
    /// the last one pushed); `u32::MAX` once a push came out of placement order (nothing is
    /// tracked then until [`Patch::clear`]).
    next_serial: u32,
}

/// Placement numbers below this are tracked as bits ([`Patch`]'s `live` and `by_kind`).
const TRACKED: u32 = 64;

impl Patch {
    /// An empty patch with room for `capacity` slots.
    pub fn with_capacity(capacity: usize) -> Patch {
        let mut slots = Vec::with_capacity(capacity + MOVE + 2 * BLOCK);
        slots.resize(MOVE, NO_SLOT);
        Patch { slots, len: 0, counts: [0; KIND_ROOM], kinds: 0, live: 0, by_kind: [0; KIND_ROOM], next_serial: 0 }
    }

    /// Bit mask of the kinds the patch holds (bit k = kind k).
    #[inline]
    pub fn kinds(&self) -> u32 {
        self.kinds
    }

    /// [`Patch::kinds`] from the slots one by one, the reference it is tested against.
    #[cfg(test)]
    pub fn kinds_plain(&self) -> u32 {
        self.iter().fold(0, |m, slot| m | 1 << slot.card)
    }

    /// Slots in the patch: the count kept beside them, read without slicing the slots (which
    /// checks the count against the storage's length: a branch at every read).
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the patch has no slot ([`Patch::len`]).
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Slots holding each kind, in canonical order.
    #[inline]
    pub fn counts(&self) -> &[u8; KINDS] {
        self.counts.first_chunk().expect("a place per kind")
    }

    /// Adds `slot` as the newest slot.
    #[inline]
    pub fn push(&mut self, slot: Slot) {
        if self.len + MOVE + 1 > self.slots.len() {
            self.grow();
        }
        self.slots[self.len] = slot;
        self.len += 1;
        self.counts[kind(slot.card)] += 1;
        self.kinds |= 1 << slot.card;
        if slot.serial >= self.next_serial && slot.serial < TRACKED {
            let bit = 1u64 << slot.serial;
            self.live |= bit;
            self.by_kind[kind(slot.card)] |= bit;
            self.next_serial = slot.serial + 1;
        } else {
            self.push_untracked(slot.serial);
        }
    }

    /// [`Patch::push`] of a slot placed as `serial` that is not tracked as a bit: past
    /// [`TRACKED`], or out of placement order (then nothing is tracked any more: the bits
    /// are cleared, so that [`Patch::first_of`] searches the slots).
    #[cold]
    #[inline(never)]
    fn push_untracked(&mut self, serial: u32) {
        if serial < self.next_serial {
            self.live = 0;
            self.by_kind = [0; KIND_ROOM];
            self.next_serial = u32::MAX;
        } else {
            self.next_serial = serial + 1;
        }
    }

    /// Adds [`NO_SLOT`] places at the end of the storage (rarely: it starts with room for the
    /// whole deck).
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let room = self.slots.len() + 2 * BLOCK;
        self.slots.resize(room, NO_SLOT);
    }

    /// Removes and returns the slot at position `i`; the later slots move down, `MOVE` at
    /// once when no more follow (no loop whose end depends on how many do), else `BLOCK`
    /// at a time (the places after the last slot hold `NO_SLOT`, and move down with them).
    #[inline(always)]
    pub fn take(&mut self, i: usize) -> Slot {
        let slot;
        if self.len - i <= MOVE {
            // One bounds check for the slot and the move (the caller passes a slot's
            // position, as a legal take does: past the last slot lies `NO_SLOT`).
            let window = &mut self.slots[i..i + 1 + MOVE];
            slot = window[0];
            window.copy_within(1.., 0);
        } else {
            slot = self[i];
            let mut at = i;
            while at < self.len {
                self.slots.copy_within(at + 1..at + 1 + BLOCK, at);
                at += BLOCK;
            }
        }
        self.len -= 1;
        let c = &mut self.counts[kind(slot.card)];
        *c -= 1;
        self.kinds &= !(u32::from(*c == 0) << slot.card);
        // Not a bit when not tracked (clearing it then changes nothing).
        let bit = if slot.serial < TRACKED { 1u64 << slot.serial } else { 0 };
        self.live &= !bit;
        self.by_kind[kind(slot.card)] &= !bit;
        slot
    }

    /// [`Patch::take`] slot by slot, the reference it is tested against.
    #[cfg(test)]
    pub fn take_plain(&mut self, i: usize) -> Slot {
        let mut slots: Vec<Slot> = self.iter().copied().collect();
        let slot = slots.remove(i);
        *self = slots.into_iter().collect();
        slot
    }

    /// The position of the oldest slot holding `card`, if any: when that slot is tracked as
    /// a bit, the number of slots placed before it (its bit's lower bits in `live`); else
    /// `BLOCK` slots compared at once (the places after the last slot match no card).
    #[inline(always)]
    pub fn first_of(&self, card: Card) -> Option<usize> {
        // Tracked slots are in placement order and every slot placed before a tracked one
        // is tracked, so the oldest of the kind is the least bit and the slots before it
        // are the lower bits. A tracked slot of the kind is a slot the patch shows, so the
        // kinds are tested only when none is tracked.
        let placed = self.by_kind[kind(card)];
        if placed != 0 {
            let oldest = placed & placed.wrapping_neg();
            return Some((self.live & (oldest - 1)).count_ones() as usize);
        }
        if self.kinds >> card & 1 == 0 {
            return None;
        }
        self.first_of_searched(card)
    }

    /// [`Patch::first_of`] of a kind the patch shows but no tracked slot holds: the slots
    /// searched [`BLOCK`] at a time.
    #[inline(never)]
    fn first_of_searched(&self, card: Card) -> Option<usize> {
        let mut at = 0;
        loop {
            let block = &self.slots[at..at + BLOCK];
            let mut hits = 0u32;
            for (k, slot) in block.iter().enumerate() {
                hits |= u32::from(slot.card == card) << k;
            }
            if hits != 0 {
                return Some(at + hits.trailing_zeros() as usize);
            }
            at += BLOCK;
        }
    }

    /// [`Patch::first_of`] slot by slot, the reference it is tested against.
    #[cfg(test)]
    pub fn first_of_plain(&self, card: Card) -> Option<usize> {
        self.iter().position(|slot| slot.card == card)
    }

    /// The slots as bits of their placement numbers, when every slot is tracked
    /// (`TRACKED`): the live slots, then per kind the slots holding it (bit s: the slot
    /// placed as number s). A slot's position is the number of live bits below its own.
    /// `None` once a slot was placed as `TRACKED` or later, or out of placement order.
    #[inline(always)]
    pub fn placement_bits(&self) -> Option<(u64, &[u64; KINDS])> {
        (self.next_serial <= TRACKED).then_some((self.live, self.by_kind.first_chunk().expect("a place per kind")))
    }

    /// Removes every slot.
    pub fn clear(&mut self) {
        self.slots[..self.len].fill(NO_SLOT);
        self.len = 0;
        self.counts = [0; KIND_ROOM];
        self.kinds = 0;
        self.live = 0;
        self.by_kind = [0; KIND_ROOM];
        self.next_serial = 0;
    }
}

impl std::ops::Deref for Patch {
    type Target = [Slot];

    #[inline]
    fn deref(&self) -> &[Slot] {
        &self.slots[..self.len]
    }
}

impl PartialEq for Patch {
    /// The same slots (whatever room each has after them).
    fn eq(&self, other: &Patch) -> bool {
        **self == **other && self.counts == other.counts && self.kinds == other.kinds
    }
}

impl Eq for Patch {}

impl fmt::Debug for Patch {
    /// The slots, counts and kinds (not the room after them).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Patch").field("slots", &&**self).field("counts", self.counts()).field("kinds", &self.kinds).finish()
    }
}

impl Clone for Patch {
    fn clone(&self) -> Patch {
        let Patch { ref slots, len, counts, kinds, live, by_kind, next_serial } = *self;
        Patch { slots: slots.clone(), len, counts, kinds, live, by_kind, next_serial }
    }

    /// Reuses `self`'s slots (no allocation once they have room): determinizations copy the
    /// patch at every search iteration.
    fn clone_from(&mut self, source: &Patch) {
        self.slots.clear();
        self.slots.extend_from_slice(&source.slots[..source.len + MOVE]);
        self.len = source.len;
        self.counts = source.counts;
        self.kinds = source.kinds;
        self.live = source.live;
        self.by_kind = source.by_kind;
        self.next_serial = source.next_serial;
    }
}

impl FromIterator<Slot> for Patch {
    fn from_iter<I: IntoIterator<Item = Slot>>(slots: I) -> Patch {
        let mut patch = Patch::with_capacity(0);
        for slot in slots {
            patch.push(slot);
        }
        patch
    }
}

/// Where the turn stands. A byte of its own says which phase (`repr(u8)`): read at every
/// decision, it is one compare, where the default layout kept it in `after_pair`'s spare
/// values and took several instructions to decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Phase {
    /// The current seat must draw one card; `left` draws (this one included) remain in
    /// this batch: 1 for the turn's first draw, up to `pair_draws` after a pair.
    Draw {
        /// Draws still owed in this batch, this one included.
        left: u8,
        /// Whether this batch follows a pair (false: the turn's first draw).
        after_pair: bool,
    },
    /// The current seat must place one card of its hand in the patch.
    Place,
    /// The game has ended.
    Over,
}

/// The whole table, hidden cards included. Bots never see this, only a [`super::View`].
#[derive(Clone, Debug)]
pub struct State {
    /// Draw pile, top card last.
    pub pile: Vec<Card>,
    /// The patch, oldest slot first (taken slots are removed; no slot ever moves otherwise).
    pub patch: Patch,
    /// Every seat's hand.
    pub hands: [Hand; MAX_PLAYERS],
    /// Pairs laid face up per seat (the score).
    pub pairs: [u32; MAX_PLAYERS],
    /// Pairs laid face up per kind, all seats together (public).
    pub laid: [u8; KINDS],
    /// The deciding seat.
    pub current: u8,
    /// Where the turn stands.
    pub phase: Phase,
    /// Turns played (the current one included).
    pub turns: u32,
    /// Cards placed in the patch so far (the next slot's serial).
    pub placed: u32,
    /// Draws from the pile and from the patch so far.
    pub pile_draws: u32,
    /// See `pile_draws`.
    pub patch_draws: u32,
    /// Index into [`END_REASONS`] once over.
    pub end_reason: u8,
    /// Copies of each kind in each hand whose identity is public: taken from a patch slot
    /// (its card was announced) and not placed or laid since (determinization).
    pub known: [[u8; KINDS]; MAX_PLAYERS],
    /// Kinds each hand is publicly known not to hold: bit k set when the seat placed a card
    /// of kind k from a hand without pairs, cleared when it draws from the pile
    /// (determinization). The kinds each card's holder passed up are kept in the hand
    /// ([`Hand::passed_up`]).
    pub excluded: [u32; MAX_PLAYERS],
    /// Whether the public record that only samples read (`known`, `excluded`, each card's
    /// passed-up kinds) is kept: from every deal, until no seat samples
    /// ([`HiddenInfo::skip_sample_records`](crate::engine::HiddenInfo::skip_sample_records)); the record is stale after that.
    pub records: bool,
}

/// The pile and the patch were both empty after a player's draws.
pub const END_PATCH_EMPTY: u8 = 0;
/// The turn cap was reached.
pub const END_CAP: u8 = 1;
/// End reason names for reports and JSON.
pub const END_REASONS: &[&str] = &["patch_empty", "cap"];

impl State {
    /// Whether a card can be drawn (the pile or the patch holds one): one test of both sizes
    /// together, not two (the second one, taken only once the pile is empty, was mispredicted
    /// at every place it is inlined when the pile ran out).
    #[inline(always)]
    pub fn can_draw(&self) -> bool {
        self.pile.len() | self.patch.len() != 0
    }
}

impl MatchPatch {
    /// [`Self::deal_hands`] with the version of `log`'s setting.
    #[inline]
    fn deal(&self, s: &mut State, rng: &mut GameRng, log: &mut EventLog<Event>) {
        if log.enabled() { self.deal_hands::<true>(s, rng, log) } else { self.deal_hands::<false>(s, rng, log) }
    }

    /// [`Self::step`] recording its events.
    #[inline(never)]
    fn step_logged(&self, s: &mut State, seat: usize, action: Action, log: &mut EventLog<Event>) {
        if s.records { self.step::<true, true>(s, seat, action, log) } else { self.step::<true, false>(s, seat, action, log) }
    }

    /// Fills the empty pile with the deck, shuffles, deals `deal` cards to each seat (seat 0
    /// first, each hand in deal order) and starts seat 0's first turn.
    #[inline]
    fn deal_hands<const LOG: bool>(&self, s: &mut State, rng: &mut GameRng, log: &mut EventLog<Event>) {
        s.pile.extend_from_slice(&self.deck);
        shuffle_cards(&mut s.pile, rng);
        // The cards popped one by one from the pile's top: seat 0 the top `deal`, the top
        // card first, and so on; dealt from the pile's slice, then cut off it at once.
        let deal = self.params.deal as usize;
        let rest = s.pile.len().checked_sub(self.players * deal).expect("deck size checked against the deal");
        for seat in 0..self.players {
            let end = s.pile.len() - seat * deal;
            let top = &s.pile[end - deal..end];
            s.hands[seat].deal_from_top(top);
            if LOG {
                for &card in top.iter().rev() {
                    log.emit_if::<LOG>(|| Event::Dealt { seat: seat as u8, card });
                }
            }
        }
        s.pile.truncate(rest);
        // A dealt table keeps the public record (until the engine says nobody samples).
        debug_assert!(s.records);
        self.begin_turn::<LOG, true>(s, 0, log);
    }

    /// Starts `seat`'s turn: its first draw, or (nothing to draw, possible only when the
    /// deal took the whole deck) straight to its pairs and the end check.
    fn begin_turn<const LOG: bool, const REC: bool>(&self, s: &mut State, seat: usize, log: &mut EventLog<Event>) {
        s.turns += 1;
        s.current = seat as u8;
        log.emit_if::<LOG>(|| Event::TurnStarts { turn: s.turns, seat: seat as u8 });
        if s.can_draw() {
            s.phase = Phase::Draw { left: 1, after_pair: false };
        } else {
            self.nothing_to_draw::<LOG, REC>(s, seat, log);
        }
    }

    /// [`MatchPatch::begin_turn`]'s rare branch, out of line (it closes the cycle of turns
    /// that the common path inlines): nothing to draw, so straight to the pairs and the end
    /// check.
    #[cold]
    #[inline(never)]
    fn nothing_to_draw<const LOG: bool, const REC: bool>(&self, s: &mut State, seat: usize, log: &mut EventLog<Event>) {
        self.pairs_then_end_check::<LOG, REC>(s, seat, log);
    }

    /// Applies one action of the deciding seat. `LOG`: whether `log` records (the quick
    /// loop's disabled log then costs nothing, not one branch per event); `REC`: whether
    /// the table keeps the public record only samples read (`State::records`: the quick loop
    /// of a table where nobody samples holds no test of it); [`Game::apply`] picks the version.
    #[inline(always)]
    pub(super) fn step<const LOG: bool, const REC: bool>(&self, s: &mut State, seat: usize, action: Action, log: &mut EventLog<Event>) {
        match action {
            Action::Pile | Action::Take(_) => {
                let card = self.draw_card::<LOG, REC>(s, seat, action, log);
                if let Phase::Draw { left, after_pair } = s.phase
                    && self.mid_batch(s, seat, card, left, after_pair)
                {
                    return;
                }
                self.last_draw::<LOG, REC>(s, seat, card, log);
            }
            Action::Place(card) => {
                s.hands[seat].remove(card);
                self.placed::<LOG, REC>(s, seat, card, log);
            }
        }
    }

    /// A draw of a batch with `left` draws owed (this one included): when more follow and a
    /// card can still be drawn, `card` joins the hand and the batch goes on (true); else
    /// false, and the caller settles the batch's last draw ([`Self::last_draw`]).
    #[inline(always)]
    pub(super) fn mid_batch(&self, s: &mut State, seat: usize, card: Card, left: u8, after_pair: bool) -> bool {
        let more = left > 1 && s.can_draw();
        if more {
            s.hands[seat].push(card);
            s.phase = Phase::Draw { left: left - 1, after_pair };
        }
        more
    }

    /// The batch's last draw, `card`: step 2 follows, then the end check and the placement
    /// ([`Self::pairs_then_end_check`]). True when a batch of redraws after a pair is asked
    /// for (the phase is then that batch's first draw).
    ///
    /// When the card pairs the one copy of it held and no other pair is held, that pair is
    /// the one laid first, so the card never joins the hand: the copy held leaves with it (the
    /// same hand as a push then `Hand::remove_pair`, without the second search and move).
    #[inline(always)]
    pub(super) fn last_draw<const LOG: bool, const REC: bool>(&self, s: &mut State, seat: usize, card: Card, log: &mut EventLog<Event>) -> bool {
        let hand = &mut s.hands[seat];
        // Both tests at once (`&`): one branch, whether the draw made a pair.
        if (hand.pair_mask() == 0) & (hand.count(card) == 1) {
            if REC {
                hand.remove(card);
            } else {
                hand.remove_unrecorded(card);
            }
            self.score_pair::<LOG, REC>(s, seat, card, log);
            if self.redraws_after_pair(s) {
                return true;
            }
        } else {
            hand.push(card);
        }
        self.pairs_then_end_check::<LOG, REC>(s, seat, log)
    }

    /// The public record of `seat` placing `card` (already out of its hand) in a new slot,
    /// then the turn's end.
    #[inline(always)]
    pub(super) fn placed<const LOG: bool, const REC: bool>(&self, s: &mut State, seat: usize, card: Card, log: &mut EventLog<Event>) {
        if REC {
            let known = &mut s.known[seat][card as usize];
            *known = known.saturating_sub(1);
            s.excluded[seat] |= 1 << card;
        }
        let serial = s.placed;
        s.placed += 1;
        s.patch.push(Slot { card, serial });
        log.emit_if::<LOG>(|| Event::Placed { seat: seat as u8, card, serial });
        self.end_turn::<LOG, REC>(s, log);
    }

    /// Step 2 (lay the first pair in canonical order, the two copies held longest, then
    /// redraw; repeat while a pair is held), then step 3 (the end check) and step 4 (ask
    /// for the placement, or end the turn when the hand is empty). True when a batch of
    /// redraws is asked for.
    ///
    /// The first pair here, any later one in [`Self::more_pairs_then_end_check`]: written as
    /// a loop, the common path (no pair, or one pair and its redraws) first set up the loop's
    /// addresses in memory.
    #[inline(always)]
    fn pairs_then_end_check<const LOG: bool, const REC: bool>(&self, s: &mut State, seat: usize, log: &mut EventLog<Event>) -> bool {
        if s.hands[seat].pair_mask() != 0 {
            self.lay_pair::<LOG, REC>(s, seat, log);
            if self.redraws_after_pair(s) {
                return true;
            }
            if s.hands[seat].pair_mask() != 0 {
                return self.more_pairs_then_end_check::<LOG, REC>(s, seat, log);
            }
        }
        self.end_check::<LOG, REC>(s, seat, log);
        false
    }

    /// [`Self::pairs_then_end_check`] with a pair still held after one was laid with no
    /// redraw (none owed, or nothing to draw): rare, so out of line.
    #[cold]
    #[inline(never)]
    fn more_pairs_then_end_check<const LOG: bool, const REC: bool>(&self, s: &mut State, seat: usize, log: &mut EventLog<Event>) -> bool {
        self.pairs_then_end_check::<LOG, REC>(s, seat, log)
    }

    /// After a pair is laid: asks for the redraws (true) when there are any and a card can be
    /// drawn.
    #[inline(always)]
    fn redraws_after_pair(&self, s: &mut State) -> bool {
        let redraw = self.params.pair_draws > 0 && s.can_draw();
        if redraw {
            s.phase = Phase::Draw { left: self.params.pair_draws as u8, after_pair: true };
        }
        redraw
    }

    /// `Game::play_out`'s loop, `REC` as [`Self::step`]'s (the table's `records`, fixed for
    /// the rest of the game: no rule sets it).
    #[inline(always)]
    fn play_quietly<const REC: bool, L: Lineup<Self> + ?Sized>(&self, s: &mut State, bots: &mut L, seat_rngs: &mut [GameRng; MAX_SEATS]) {
        debug_assert_eq!(s.records, REC);
        let log: &mut EventLog<Event> = &mut EventLog::new(false);
        loop {
            // Within the table's seats (`current` is below `players`): as a remainder, the
            // seat indexes the hands and the seat streams without a bounds check.
            debug_assert!((s.current as usize) < MAX_PLAYERS);
            let seat = s.current as usize % MAX_PLAYERS;
            match s.phase {
                Phase::Draw { left, after_pair } => {
                    // A turn's first draw (or, from a state in the middle of a batch, the
                    // batch's next draw): `step`'s draw, its parts in line.
                    let action = ask(self, s, seat, bots, seat_rngs);
                    let card = self.draw_card::<false, REC>(s, seat, action, log);
                    if !self.mid_batch(s, seat, card, left, after_pair) && self.last_draw::<false, REC>(s, seat, card, log) {
                        self.play_redraws::<REC, L>(s, seat, bots, seat_rngs, log);
                    }
                }
                Phase::Place => {
                    let action = ask(self, s, seat, bots, seat_rngs);
                    self.step::<false, REC>(s, seat, action, log);
                }
                Phase::Over => return,
            }
        }
    }

    /// Plays the batches of redraws after a pair of `seat` (the phase is a batch's first
    /// draw), each as `step` plays its draws, until one ends with no pair to redraw after:
    /// the batch's draws one after the other in the code (`pair_draws`, the same all game, is
    /// at most 2), so that no test of the phase's count says which draw is the last.
    #[inline(always)]
    fn play_redraws<const REC: bool, L: Lineup<Self> + ?Sized>(
        &self,
        s: &mut State,
        seat: usize,
        bots: &mut L,
        seat_rngs: &mut [GameRng; MAX_SEATS],
        log: &mut EventLog<Event>,
    ) {
        const _: () = assert!(MAX_PAIR_DRAWS <= 2, "a batch of redraws is at most two draws");
        loop {
            debug_assert_eq!(s.phase, Phase::Draw { left: self.params.pair_draws as u8, after_pair: true });
            let action = ask(self, s, seat, bots, seat_rngs);
            let mut card = self.draw_card::<false, REC>(s, seat, action, log);
            if self.params.pair_draws == 2 && self.mid_batch(s, seat, card, 2, true) {
                let action = ask(self, s, seat, bots, seat_rngs);
                card = self.draw_card::<false, REC>(s, seat, action, log);
            }
            if !self.last_draw::<false, REC>(s, seat, card, log) {
                return;
            }
        }
    }

    /// One single draw of `seat` (`action` is [`Action::Pile`] or [`Action::Take`], legal):
    /// the card leaves the pile or its slot, the public record follows; the caller puts the
    /// card in the hand (or lays it at once with its pair).
    #[inline(always)]
    fn draw_card<const LOG: bool, const REC: bool>(&self, s: &mut State, seat: usize, action: Action, log: &mut EventLog<Event>) -> Card {
        let pile = action == Action::Pile;
        let card = match action {
            Action::Take(i) => {
                let slot = s.patch.take(i as usize);
                s.patch_draws += 1;
                log.emit_if::<LOG>(|| Event::Took { seat: seat as u8, index: i, serial: slot.serial });
                if REC {
                    s.known[seat][slot.card as usize] += 1;
                    s.excluded[seat] &= !(1 << slot.card);
                }
                slot.card
            }
            _ => {
                let card = s.pile.pop().expect("a legal pile draw has a card");
                s.pile_draws += 1;
                if REC {
                    s.excluded[seat] = 0;
                    s.hands[seat].pass_up(s.patch.kinds());
                }
                card
            }
        };
        log.emit_if::<LOG>(|| Event::Drew { seat: seat as u8, card, pile });
        card
    }

    /// `seat` lays its first pair in canonical order (it holds one): the two copies held
    /// longest leave its hand, face up.
    #[inline(always)]
    pub(super) fn lay_pair<const LOG: bool, const REC: bool>(&self, s: &mut State, seat: usize, log: &mut EventLog<Event>) {
        let card = s.hands[seat].pair_mask().trailing_zeros() as Card;
        if REC {
            s.hands[seat].remove_pair(card);
        } else {
            // The two copies held longest, one after the other.
            s.hands[seat].remove_unrecorded(card);
            s.hands[seat].remove_unrecorded(card);
        }
        self.score_pair::<LOG, REC>(s, seat, card, log);
    }

    /// The public record of `seat` laying a pair of `card` (both copies already out of its
    /// hand): its score, the pairs laid, what is known of its hand.
    #[inline(always)]
    fn score_pair<const LOG: bool, const REC: bool>(&self, s: &mut State, seat: usize, card: Card, log: &mut EventLog<Event>) {
        s.pairs[seat] += 1;
        s.laid[card as usize] += 1;
        if REC {
            let known = &mut s.known[seat][card as usize];
            *known = known.saturating_sub(2);
        }
        log.emit_if::<LOG>(|| Event::Laid { seat: seat as u8, card });
    }

    /// Step 3 (the end check) after `seat`'s draws and pairs, then step 4: ask for the
    /// placement, or end the turn when the hand is empty.
    #[inline(always)]
    pub(super) fn end_check<const LOG: bool, const REC: bool>(&self, s: &mut State, seat: usize, log: &mut EventLog<Event>) {
        if !s.can_draw() {
            s.phase = Phase::Over;
            s.end_reason = END_PATCH_EMPTY;
            log.emit_if::<LOG>(|| Event::GameOver { reason: END_PATCH_EMPTY, turns: s.turns });
        } else if s.hands[seat].is_empty() {
            self.end_turn::<LOG, REC>(s, log);
        } else {
            s.phase = Phase::Place;
        }
    }

    /// Ends the current turn: the cap, or the next seat's turn.
    #[inline]
    pub(super) fn end_turn<const LOG: bool, const REC: bool>(&self, s: &mut State, log: &mut EventLog<Event>) {
        if s.turns >= self.params.turn_cap {
            s.phase = Phase::Over;
            s.end_reason = END_CAP;
            log.emit_if::<LOG>(|| Event::GameOver { reason: END_CAP, turns: s.turns });
            return;
        }
        let next = if s.current as usize + 1 >= self.players { 0 } else { s.current as usize + 1 };
        self.begin_turn::<LOG, REC>(s, next, log);
    }
}

impl Game for MatchPatch {
    type State = State;
    type Action = Action;
    type View<'a> = View<'a>;
    type Event = Event;
    type Metrics = MatchMetrics;
    const INFO: GameInfo = GameInfo {
        id: "match-patch",
        name: "Match Patch",
        end_reasons: END_REASONS,
        length_unit: "turns",
        standing_unit: "pairs",
        default_cap: 1000,
        default_bot: "memory",
        search: SearchDefaults {
            // Rollouts with `memory` to the end measured stronger than a cut-off.
            depth: 0,
            // `ismcts` models the table with `memory` and rolls out with it: measured stronger
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

    /// Shuffles the deck, deals `deal` cards to each seat (seat 0 first, each hand in deal
    /// order) and starts seat 0's first turn.
    fn deal(&self, rng: &mut GameRng, log: &mut EventLog<Event>) -> State {
        let mut s = State {
            pile: Vec::with_capacity(self.deck.len()),
            patch: Patch::with_capacity(self.deck.len()),
            hands: [Hand::EMPTY; MAX_PLAYERS],
            pairs: [0; MAX_PLAYERS],
            laid: [0; KINDS],
            current: 0,
            phase: Phase::Over,
            turns: 0,
            placed: 0,
            pile_draws: 0,
            patch_draws: 0,
            end_reason: END_PATCH_EMPTY,
            known: [[0; KINDS]; MAX_PLAYERS],
            excluded: [0; MAX_PLAYERS],
            records: true,
        };
        self.deal(&mut s, rng, log);
        s
    }

    /// [`Game::deal`] into `s`, a state of an earlier game: every field reset and the
    /// piles refilled in place (the same draws, the same events, the same state).
    fn deal_into(&self, rng: &mut GameRng, log: &mut EventLog<Event>, s: &mut State) {
        // Every field named, so that a new one cannot be left out.
        let State { pile, patch, hands, pairs, laid, current, phase, turns, placed, pile_draws, patch_draws, end_reason, known, excluded, records } = s;
        pile.clear();
        patch.clear();
        for hand in hands.iter_mut() {
            hand.clear();
        }
        *pairs = [0; MAX_PLAYERS];
        *laid = [0; KINDS];
        *current = 0;
        *phase = Phase::Over;
        *turns = 0;
        *placed = 0;
        *pile_draws = 0;
        *patch_draws = 0;
        *end_reason = END_PATCH_EMPTY;
        *known = [[0; KINDS]; MAX_PLAYERS];
        *excluded = [0; MAX_PLAYERS];
        *records = true;
        self.deal(s, rng, log);
    }

    #[inline]
    fn to_move(&self, s: &State) -> ToMove {
        if s.phase == Phase::Over { ToMove::Over } else { ToMove::Seat(s.current as usize) }
    }

    #[inline]
    fn view<'a>(&self, s: &'a State, seat: usize) -> View<'a> {
        let decision = match s.phase {
            Phase::Draw { after_pair, .. } => Decision::Draw { after_pair },
            Phase::Place | Phase::Over => Decision::Place,
        };
        View { seat, decision, hand: &s.hands[seat], table: s, players: self.players }
    }

    fn legal_actions(&self, view: &View, out: &mut Vec<Action>) {
        match view.decision {
            Decision::Draw { .. } => {
                if view.pile() > 0 {
                    out.push(Action::Pile);
                }
                out.extend((0..view.patch_len() as u16).map(Action::Take));
            }
            Decision::Place => out.extend(view.hand.cards().iter().map(|&c| Action::Place(c))),
        }
    }

    /// The same draw as a uniform pick from [`Game::legal_actions`] (same order, one
    /// [`rng::below`]), without building the list.
    #[inline]
    fn random_action(&self, view: &View, rng: &mut GameRng, _scratch: &mut Vec<Action>) -> Action {
        match view.decision {
            Decision::Draw { .. } => {
                let pile = u32::from(view.pile() > 0);
                let n = pile + view.patch_len() as u32;
                let r = rng::below(n, rng);
                if r < pile { Action::Pile } else { Action::Take((r - pile) as u16) }
            }
            Decision::Place => {
                let cards = view.hand.cards();
                Action::Place(cards[rng::below(cards.len() as u32, rng) as usize])
            }
        }
    }

    fn is_legal(&self, view: &View, action: &Action) -> bool {
        match (*action, view.decision) {
            (Action::Pile, Decision::Draw { .. }) => view.pile() > 0,
            (Action::Take(i), Decision::Draw { .. }) => (i as usize) < view.patch_len(),
            (Action::Place(c), Decision::Place) => (c as usize) < KINDS && view.hand.count(c) > 0,
            _ => false,
        }
    }

    /// Applies `action` of `seat` (`step` with the version of `log`'s setting; the
    /// recording one out of line, the quick loop inlines the other).
    #[inline(always)]
    fn apply(&self, s: &mut State, seat: usize, action: Action, _rng: &mut GameRng, log: &mut EventLog<Event>) {
        if log.enabled() {
            self.step_logged(s, seat, action, log)
        } else if s.records {
            self.step::<false, true>(s, seat, action, log)
        } else {
            self.step::<false, false>(s, seat, action, log)
        }
    }

    /// Plays the dealt game `s` to its end with nothing recorded: every decision asked and
    /// applied in the arm of its phase (Match Patch's rules draw no chance, so `_rng` is
    /// never drawn from).
    ///
    /// The engine's plain loop (`engine::play_decisions`) asks the bot, then applies the action:
    /// the phase is read by the view, again by the bot (draw or place) and the action, built by
    /// the bot, is taken apart again by the rules. Here the decision is asked inside the arm of
    /// the phase, so that with a bot the compiler inlines (a uniform table) the bot's dispatch
    /// and the rules' dispatch on the action fold away: a draw decision yields a draw, a place
    /// decision a placement. The same bots are asked the same questions in the same order with
    /// the same streams, and the same actions are applied by the same rules (`step`):
    /// the same game (`play_out_is_the_plain_loop` compares the two from the deal or any later
    /// decision of random games).
    ///
    /// The redraws after a pair are played where the pair was laid (`play_redraws`), each
    /// draw of the batch at its own place in the code: whether a draw is the batch's last is
    /// where it is played, not a test of the phase's count (which was mispredicted at about
    /// every pair). The loop (`play_quietly`) comes in two versions, with and without the
    /// public record only samples read (`State::records`, chosen once a game).
    #[inline(always)]
    fn play_out<L: Lineup<Self> + ?Sized>(&self, s: &mut State, bots: &mut L, _rng: &mut GameRng, seat_rngs: &mut [GameRng; MAX_SEATS]) {
        if s.records { self.play_quietly::<true, L>(s, bots, seat_rngs) } else { self.play_quietly::<false, L>(s, bots, seat_rngs) }
    }

    fn outcome(&self, s: &State) -> Outcome {
        let mut o = Outcome::new();
        o.length = s.turns;
        o.end_reason = s.end_reason;
        for seat in 0..self.players {
            o.scores[seat] = s.pairs[seat] as i64;
        }
        o.set_winners_by_max_score(self.players);
        o
    }

    /// The invariants `check` and the tests rely on: every card accounted for (pile +
    /// patch + hands + 2 x pairs laid = the deck, kind by kind), bookkeeping consistent,
    /// the phase possible.
    fn check_invariants(&self, s: &State) -> Result<(), String> {
        let n = self.players;
        let mut counts = [0u32; KINDS];
        for &c in s.pile.iter().chain(s.patch.iter().map(|slot| &slot.card)) {
            if c as usize >= KINDS {
                return Err(format!("card {c} is not a base card"));
            }
            counts[c as usize] += 1;
        }
        for (k, &l) in s.laid.iter().enumerate() {
            counts[k] += 2 * l as u32;
        }
        for seat in 0..MAX_PLAYERS {
            let h = &s.hands[seat];
            if seat >= n {
                if !h.is_empty() || s.pairs[seat] != 0 {
                    return Err(format!("seat {seat} is not at the table but holds cards"));
                }
                continue;
            }
            let mut own = [0u8; KINDS];
            for &c in h.cards() {
                if c as usize >= KINDS {
                    return Err(format!("seat {seat} holds card {c}, not a base card"));
                }
                own[c as usize] += 1;
                counts[c as usize] += 1;
            }
            let mask = |least: u8| (0..KINDS).filter(|&k| own[k] >= least).fold(0u32, |m, k| m | 1 << k);
            if &own != h.counts() || mask(2) != h.pair_mask() || mask(1) != h.kinds_mask() {
                return Err(format!("seat {seat}'s hand bookkeeping is off: [{h}]"));
            }
            if s.records && ((0..KINDS).any(|k| s.known[seat][k] > own[k]) || h.kinds_mask() & s.excluded[seat] != 0) {
                return Err(format!("seat {seat}'s public record (known {:?}, excluded {:#x}) does not fit its hand [{h}]", s.known[seat], s.excluded[seat]));
            }
            if s.records && (1..h.len()).any(|i| h.passed_up(i) & !h.passed_up(i - 1) != 0) {
                return Err(format!("seat {seat}'s passed-up kinds do not shrink from its oldest card to its newest: [{h}]"));
            }
            if h.len() > self.params.deal as usize + 1 {
                return Err(format!("seat {seat} holds {} cards, more than deal + 1 = {}", h.len(), self.params.deal + 1));
            }
        }
        let copies = self.params.deck.base_sets;
        for (k, &c) in counts.iter().enumerate() {
            if c != copies {
                return Err(format!("cards not conserved: {c} x {} accounted for, the deck has {copies}", cell_name(k as Card)));
            }
        }
        let laid: u32 = s.laid.iter().map(|&l| l as u32).sum();
        if laid != s.pairs[..n].iter().sum::<u32>() {
            return Err(format!("{laid} pairs on the table but the seats score {}", s.pairs[..n].iter().sum::<u32>()));
        }
        let mut in_patch = [0u8; KINDS];
        for slot in s.patch.iter() {
            in_patch[slot.card as usize] += 1;
        }
        let shown = (0..KINDS).filter(|&k| in_patch[k] > 0).fold(0u32, |m, k| m | 1 << k);
        if &in_patch != s.patch.counts() || s.patch.kinds() != shown {
            return Err(format!("the patch's counts per kind {:?} (kinds {:#x}) do not fit its slots", s.patch.counts(), s.patch.kinds()));
        }
        if s.patch.windows(2).any(|w| w[0].serial >= w[1].serial) || s.patch.last().is_some_and(|slot| slot.serial >= s.placed) {
            return Err("the patch is out of placement order".into());
        }
        if s.turns > self.params.turn_cap {
            return Err(format!("turn {} passed the cap {}", s.turns, self.params.turn_cap));
        }
        if s.current as usize >= n {
            return Err(format!("seat {} is not at the table", s.current));
        }
        let hand = &s.hands[s.current as usize];
        match s.phase {
            Phase::Draw { left, .. } => {
                if !s.can_draw() {
                    return Err("a draw is asked for but the pile and the patch are empty".into());
                }
                if left == 0 || left as u32 > self.params.pair_draws.max(1) {
                    return Err(format!("{left} draws left in a batch"));
                }
            }
            Phase::Place => {
                if hand.is_empty() || hand.pair_mask() != 0 {
                    return Err(format!("seat {} must place from [{hand}] (empty, or a pair still held)", s.current));
                }
                if !s.can_draw() {
                    return Err("a placement is asked for after the game's end".into());
                }
            }
            Phase::Over => {
                if s.end_reason == END_PATCH_EMPTY && s.can_draw() {
                    return Err("the game ended with cards left to draw".into());
                }
                if s.end_reason == END_CAP && s.turns != self.params.turn_cap {
                    return Err(format!("capped after {} turns", s.turns));
                }
            }
        }
        Ok(())
    }

    fn seat_active(&self, s: &State, seat: usize) -> bool {
        seat == s.current as usize && seat < self.players && s.phase != Phase::Over
    }

    /// Standing: the pairs the seat has made so far, the figure that decides the winner.
    fn standing(&self, s: &State, seat: usize) -> i64 {
        s.pairs[seat] as i64
    }
}
