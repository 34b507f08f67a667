//! Flower Power's table state and the rules that change it: the draw to the hand size at
//! the start of a turn, the play of 1 to `max_play` cards onto the flowers of their colors,
//! completed flowers, passed-over seats, the end and the turn cap.

use std::fmt;

use super::params::{COLORS, MAX_HAND, MAX_PLAYERS};
use super::{Action, Event, FlowerMetrics, FlowerPower, View};
use crate::engine::{EventLog, Game, GameInfo, GameRng, Lineup, Outcome, SearchDefaults, SeatRngs, ToMove, ask, rng};
use crate::games::chroma::{COLORS as COLOR_NAMES, Card, card_name, card_str, shuffle_cards};
#[cfg(target_arch = "x86_64")]
use crate::games::simd::V128;

/// The color (0..5, canonical order) of each base card.
const COLOR_OF: [u8; 25] = {
    let mut t = [0u8; 25];
    let mut i = 0;
    while i < 25 {
        t[i] = (i / 5) as u8;
        i += 1;
    }
    t
};

/// [`color_of`] for every byte, without the remainder.
const COLOR_OF_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = COLOR_OF[i % 25];
        i += 1;
    }
    t
};

/// The color (0..5, canonical order) of a base card.
#[inline(always)]
pub fn color_of(card: Card) -> usize {
    COLOR_OF_BYTE[card as usize] as usize
}

/// Each base card's count increment in a hand's color word: 1 in byte `color_of(card)`.
const COLOR_INC: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = 1 << (8 * COLOR_OF[i % 25]);
        i += 1;
    }
    t
};

/// A hand's 16 card slots, aligned so that SSE2 reads them as one 16-byte vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
struct Slots([Card; MAX_HAND]);

/// A hand: cards in the order they came into it (fixed capacity, no heap), with the count
/// of each color kept up to date. The positions of a color are found from the cards
/// themselves ([`Hand::positions_of`]: on x86-64 one SSE2 range test of the 16 slots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hand {
    cards: Slots,
    len: u8,
    /// Cards held per color (bytes 5..8 stay 0, so the counts are one 64-bit word).
    colors: [u8; 8],
}

/// The lowest `n` set bits of `positions` (all of them when it has fewer): the first `n`
/// cards of a color by position, card by card (the plain reading, and the fallback off x86-64).
#[cfg(any(test, not(target_arch = "x86_64")))]
fn lowest_bits(mut positions: u16, n: u32) -> u16 {
    let mut mask = 0u16;
    for _ in 0..n {
        mask |= positions & positions.wrapping_neg();
        positions &= positions.wrapping_sub(1);
    }
    mask
}

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand { cards: Slots([0; MAX_HAND]), len: 0, colors: [0; 8] };

    /// A hand holding `cards` in this order (at most [`MAX_HAND`]).
    pub fn from_cards(cards: &[Card]) -> Hand {
        let mut h = Hand::EMPTY;
        for &c in cards {
            h.push(c);
        }
        h
    }

    /// Number of cards.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the hand holds no card.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The cards, by hand position.
    #[inline(always)]
    pub fn cards(&self) -> &[Card] {
        &self.cards.0[..self.len as usize]
    }

    /// Cards of color `c` held.
    #[inline(always)]
    pub fn color(&self, c: usize) -> u32 {
        self.colors[c] as u32
    }

    /// All 16 slots: the cards held, then whatever the slots past the length hold (cards
    /// played or never written, never a card of a held color ahead of a held one). For a
    /// vector read of the whole hand.
    #[inline(always)]
    pub fn slots(&self) -> &[Card; MAX_HAND] {
        &self.cards.0
    }

    /// Cards held per color, canonical order.
    #[inline(always)]
    pub fn colors(&self) -> &[u8; COLORS] {
        self.colors.first_chunk().expect("8 bytes hold the 5 colors")
    }

    /// Cards held per color as one word: byte c holds color c's count, bytes 5..8 are 0.
    #[inline(always)]
    pub fn colors_word(&self) -> u64 {
        u64::from_le_bytes(self.colors)
    }

    /// Bit mask of the positions holding color `c`.
    #[inline(always)]
    pub fn positions_of(&self, c: usize) -> u16 {
        (self.slots_of(c) as u32 & ((1u32 << self.len) - 1)) as u16
    }

    /// [`Hand::positions_of`] card by card, the plain version (the tests compare the two).
    #[cfg(test)]
    pub fn positions_of_plain(&self, c: usize) -> u16 {
        self.cards().iter().enumerate().filter(|(_, x)| color_of(**x) == c).fold(0u16, |m, (i, _)| m | 1 << i)
    }

    /// The positions of the first `n` cards of color `c` (the hand holds at least `n`), as a
    /// mask. On x86-64 without a loop over the cards: every slot's count of color-`c` cards up
    /// to it (a prefix sum of the 16 slots in four shifted adds), the slots of the color whose
    /// count is at most `n` kept (no branch on `n`, which varies from play to play).
    #[inline(always)]
    pub fn first_of_color(&self, c: usize, n: u32) -> u16 {
        debug_assert!(n <= self.color(c) && n <= MAX_HAND as u32);
        #[cfg(target_arch = "x86_64")]
        {
            let in_color = self.color_slots(c);
            // Lane i: minus the slots of color c among 0..=i (each in_color lane is 0 or -1).
            let count = in_color.add8(in_color.bytes_up::<1>());
            let count = count.add8(count.bytes_up::<2>());
            let count = count.add8(count.bytes_up::<4>());
            let count = count.add8(count.bytes_up::<8>());
            // Count at most n: -count > -n - 1, as signed bytes (counts are 0 to -16). A slot
            // past the length holding color c has a count above the n cards held before it.
            let within = count.gt8(V128::splat8((-(n as i32) - 1) as u8));
            within.and(in_color).mask8() as u16
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            lowest_bits(self.positions_of(c), n)
        }
    }

    /// [`Hand::first_of_color`] card by card, the plain version (the tests compare the two).
    #[cfg(test)]
    pub fn first_of_color_plain(&self, c: usize, n: u32) -> u16 {
        lowest_bits(self.positions_of_plain(c), n)
    }

    /// The position of the first card of color `c` as a one-bit mask, 0 if the hand holds none.
    #[inline(always)]
    pub fn first_of(&self, c: usize) -> u16 {
        // The slots past the length come after every card held: when the hand holds a card
        // of color `c`, the lowest slot of that color is a card held.
        let m = self.slots_of(c);
        let first = m & m.wrapping_neg();
        if self.colors[c] == 0 { 0 } else { first }
    }

    /// The slots (all 16, past the length too, whatever they hold) whose card is of color
    /// `c` (0..5): the cards 5c to 5c + 4, found by SSE2 compares of the 16 slots at once.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn slots_of(&self, c: usize) -> u16 {
        self.color_slots(c).mask8() as u16
    }

    /// [`Hand::slots_of`] as a vector: 0xFF in the byte of each slot holding color `c`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn color_slots(&self, c: usize) -> V128 {
        /// `FIRST[c]`: the first card of color c in every byte.
        static FIRST: [[u8; 16]; COLORS] = [[0; 16], [5; 16], [10; 16], [15; 16], [20; 16]];
        debug_assert!(c < COLORS);
        let first = &FIRST[c.min(COLORS - 1)];
        // A card x is of color c when x - 5c, as an unsigned byte, is at most 4.
        let d = V128::load(&self.cards.0).sub8(V128::load(first));
        d.min_u8(V128::splat8(4)).eq8(d)
    }

    /// [`Hand::slots_of`] without SSE2.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    fn slots_of(&self, c: usize) -> u16 {
        self.cards.0.iter().enumerate().filter(|(_, x)| color_of(**x) == c).fold(0u16, |m, (i, _)| m | 1 << i)
    }

    /// Writes `card` into slot `at` (0..16), all 16 slots at once on x86-64: the next read
    /// of the hand ([`Hand::slots_of`], [`Hand::take_fast`]) loads the 16 slots as one vector,
    /// which a byte store still in flight could not forward (a stall of about 15 cycles).
    #[inline(always)]
    fn put(&mut self, at: usize, card: Card) {
        #[cfg(target_arch = "x86_64")]
        put_slot(V128::load(&self.cards.0), at, card).store(&mut self.cards.0);
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.cards.0[at & (MAX_HAND - 1)] = card;
        }
    }

    /// Adds a card at the end.
    #[inline(always)]
    pub fn push(&mut self, card: Card) {
        debug_assert!((self.len as usize) < MAX_HAND);
        self.put(self.len as usize, card);
        self.len += 1;
        // The counts as one word, as `take_fast` and `colors_word` read and write them: a
        // byte store followed by a word load of the same bytes cannot be forwarded.
        self.colors = (u64::from_le_bytes(self.colors) + COLOR_INC[card as usize]).to_le_bytes();
    }

    /// Removes the cards at the positions in `mask` (the rest keep their order) and returns
    /// how many of each color left. The caller checks `mask` against the hand. The plain
    /// version of [`Hand::take_fast`] (the tests compare the two).
    #[inline]
    pub fn take(&mut self, mask: u16) -> [u8; COLORS] {
        let mut out = [0u8; COLORS];
        let mut kept = 0usize;
        for i in 0..self.len as usize {
            let card = self.cards.0[i];
            if (mask >> i) & 1 == 0 {
                self.cards.0[kept] = card;
                kept += 1;
            } else {
                out[color_of(card)] += 1;
                self.colors[color_of(card)] -= 1;
            }
        }
        self.len = kept as u8;
        out
    }

    /// [`Hand::take`] one card at a time, highest position first (a play is mostly one or two
    /// cards): each removal shifts the cards after it down one slot, all 16 slots at once
    /// (one SSE2 byte shift on x86-64), with no loop over the hand. Returns the cards taken
    /// per color (byte c of the word: color c) and the mask of the colors taken. The caller
    /// checks `mask`. Flower Power's cards are base cards (below 25), whose color is read
    /// by comparisons.
    #[inline(always)]
    pub fn take_fast(&mut self, mask: u16) -> (u64, u32) {
        let mut out = 0u64;
        let mut played = 0u32;
        let mut taken = 0u8;
        #[cfg(target_arch = "x86_64")]
        {
            let mut cards = V128::load(&self.cards.0);
            // Every slot's color at once, before the mask is known (off the play's chain of
            // dependent steps), read back by slot below.
            let mut color_of_slot = [0u8; MAX_HAND];
            slot_colors(cards).store(&mut color_of_slot);
            let mut rest = mask;
            while rest != 0 {
                let i = 15 - rest.leading_zeros() as usize;
                rest &= !(1 << i);
                let c = color_of_slot[i];
                out += 1 << (8 * c);
                played |= 1 << c;
                taken += 1;
                // Slots below i stay; those above move down one.
                let below = V128::load(&BELOW_SLOTS[i]);
                cards = below.and(cards).or(below.and_not(cards.bytes_down::<1>()));
            }
            cards.store(&mut self.cards.0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let mut cards = u128::from_le_bytes(self.cards.0);
            let mut rest = mask;
            while rest != 0 {
                let i = 15 - rest.leading_zeros() as usize;
                rest &= !(1 << i);
                let c = COLOR_OF_BYTE[self.cards.0[i] as usize];
                out += 1 << (8 * c);
                played |= 1 << c;
                taken += 1;
                let below = u128::from_le_bytes(BELOW_SLOTS[i]);
                cards = (cards & below) | ((cards >> 8) & !below);
            }
            self.cards.0 = cards.to_le_bytes();
        }
        // No color count goes below 0, so no byte borrows from the next.
        self.colors = (u64::from_le_bytes(self.colors) - out).to_le_bytes();
        self.len -= taken;
        (out, played)
    }
}

impl Hand {
    /// [`Hand::take_fast`] for a `mask` of one position (the caller checks it): removes that
    /// card (the cards after it move down one slot) and returns its color. No loop; the color
    /// and the count it takes off are table reads of the card (a dozen instructions fewer than
    /// every slot's color at once, which the play's cards need).
    #[inline(always)]
    pub fn take_one(&mut self, mask: u16) -> usize {
        debug_assert!(mask.count_ones() == 1 && (mask.trailing_zeros() as usize) < self.len());
        let i = mask.trailing_zeros() as usize & (MAX_HAND - 1);
        let card = self.cards.0[i];
        #[cfg(target_arch = "x86_64")]
        {
            let cards = V128::load(&self.cards.0);
            let below = V128::load(&BELOW_SLOTS[i]);
            below.and(cards).or(below.and_not(cards.bytes_down::<1>())).store(&mut self.cards.0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        self.cards.0.copy_within(i + 1.., i);
        self.colors = (u64::from_le_bytes(self.colors) - COLOR_INC[card as usize]).to_le_bytes();
        self.len -= 1;
        color_of(card)
    }

    /// Draws `n` cards from the top of `pile` (its end), the top card first, into the end of
    /// the hand (the caller checks that the pile holds `n` and the hand has room): one card
    /// (most draws) pushed; more, the pile cut once and the slots, the length and the counts
    /// written once, whatever `n`.
    #[inline(always)]
    pub fn draw(&mut self, pile: &mut Vec<Card>, n: usize) {
        debug_assert!(n <= pile.len() && self.len() + n <= MAX_HAND);
        if n == 0 {
            // Once the pile is empty: nothing to write.
            return;
        }
        if n == 1 {
            // The usual draw (the seat played one card last turn): the top card pushed, with
            // none of the loop's set-up.
            let top = pile.len() - 1;
            self.push(pile[top]);
            pile.truncate(top);
            return;
        }
        let from = pile.len() - n;
        let mut at = self.len as usize;
        let mut colors = u64::from_le_bytes(self.colors);
        #[cfg(target_arch = "x86_64")]
        let mut slots = V128::load(&self.cards.0);
        for &card in pile[from..].iter().rev() {
            #[cfg(target_arch = "x86_64")]
            {
                slots = put_slot(slots, at, card);
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                self.cards.0[at & (MAX_HAND - 1)] = card;
            }
            colors += COLOR_INC[card as usize];
            at += 1;
        }
        #[cfg(target_arch = "x86_64")]
        slots.store(&mut self.cards.0);
        self.len = at as u8;
        self.colors = colors.to_le_bytes();
        pile.truncate(from);
    }
}

/// `slots` with `card` in slot `at` (0..16): slot `at`'s byte from a table (one load), the
/// card in every byte by one multiplication (fewer instructions than two broadcasts and a
/// compare).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn put_slot(slots: V128, at: usize, card: Card) -> V128 {
    let here = V128::load(&SLOT_AT[at & (MAX_HAND - 1)]);
    let card = V128::splat64((card as u64).wrapping_mul(0x0101_0101_0101_0101));
    here.and_not(slots).or(here.and(card))
}

/// Every slot's color (card x < 25: color x / 5) in one vector, by comparisons: a base card
/// x is of color (x > 4) + (x > 9) + (x > 14) + (x > 19); each signed byte compare gives -1
/// where true.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn slot_colors(cards: V128) -> V128 {
    let above = |edge: u8| cards.gt8(V128::splat8(edge));
    let minus_color = above(4).add8(above(9)).add8(above(14).add8(above(19)));
    V128::zero().sub8(minus_color)
}

/// `SLOT_AT[i]`: the byte of slot i.
static SLOT_AT: [[u8; 16]; MAX_HAND] = {
    let mut t = [[0u8; 16]; MAX_HAND];
    let mut i = 0;
    while i < MAX_HAND {
        t[i][i] = 0xff;
        i += 1;
    }
    t
};

/// `BELOW_SLOTS[i]`: the bytes of slots 0..i (a removal at i keeps them, and moves the
/// slots above i down one).
static BELOW_SLOTS: [[u8; 16]; MAX_HAND] = {
    let mut t = [[0u8; 16]; MAX_HAND];
    let mut i = 0;
    while i < MAX_HAND {
        let mut j = 0;
        while j < i {
            t[i][j] = 0xff;
            j += 1;
        }
        i += 1;
    }
    t
};

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &c) in self.cards().iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            // The name without allocating: the observation text writes every hand.
            f.write_str(card_str(c))?;
        }
        Ok(())
    }
}

/// The garden: petals of each color's flower in progress (0 to `petals` - 1, below 200: a
/// byte each), colors in canonical order, as one 64-bit word of a byte per color (bytes 5..8
/// stay 0), as the hand's color counts are: `greedy`'s scan adds the two words, and a lay is a
/// word operation on it. Read and written whole ([`Garden::word`], [`Garden::set`]): a
/// narrow store followed by a wide read of the same bytes cannot be forwarded from the store
/// buffer (a stall of about 15 cycles a turn).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(8))]
pub struct Garden([u8; 8]);

impl Garden {
    /// No petal of any color.
    pub const EMPTY: Garden = Garden([0; 8]);

    /// Petals per color, canonical order.
    #[inline(always)]
    pub fn petals(&self) -> &[u8; COLORS] {
        self.0.first_chunk().expect("8 bytes hold the 5 colors")
    }

    /// The petals as one word: byte c holds color c's petals, bytes 5..8 are 0.
    #[inline(always)]
    pub fn word(&self) -> u64 {
        u64::from_le_bytes(self.0)
    }

    /// Writes the whole garden from its word (bytes 5..8 must be 0).
    #[inline(always)]
    fn set_word(&mut self, word: u64) {
        debug_assert!(word >> (8 * COLORS) == 0);
        self.0 = word.to_le_bytes();
    }

    /// Sets color `c`'s petals to `k` (below 256), writing the whole word.
    #[inline(always)]
    pub fn set(&mut self, c: usize, k: u16) {
        debug_assert!(c < COLORS && k < 256);
        let shift = 8 * (c & 7);
        self.set_word((self.word() & !(0xff << shift)) | (u64::from(k & 0xff) << shift));
    }
}

impl From<[u16; COLORS]> for Garden {
    /// The garden of these petals per color (each below 256).
    fn from(petals: [u16; COLORS]) -> Garden {
        let mut g = Garden::EMPTY;
        for (c, &k) in petals.iter().enumerate() {
            g.set(c, k);
        }
        g
    }
}

impl std::ops::Deref for Garden {
    type Target = [u8; COLORS];
    #[inline(always)]
    fn deref(&self) -> &[u8; COLORS] {
        self.petals()
    }
}

impl PartialEq<[u16; COLORS]> for Garden {
    fn eq(&self, other: &[u16; COLORS]) -> bool {
        self.petals().iter().zip(other).all(|(&k, &o)| u16::from(k) == o)
    }
}

impl fmt::Debug for Garden {
    /// As the five counts (observations and reports print the garden this way).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.petals().fmt(f)
    }
}

/// The whole table, hidden cards included. Bots never see this, only a [`super::View`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Draw pile, top card last.
    pub pile: Vec<Card>,
    /// Every seat's hand.
    pub hands: [Hand; MAX_PLAYERS],
    /// Petals of the flower in progress of each color (0 to `petals` - 1).
    pub garden: Garden,
    /// Who laid the first petal of each color's flower in progress (meaningless at 0 petals).
    pub starter: [u8; COLORS],
    /// Flowers taken per seat (the score).
    pub flowers: [i64; MAX_PLAYERS],
    /// Flowers taken per color.
    pub flowers_by_color: [u32; COLORS],
    /// Flowers completed by a seat that did not lay their first petal.
    pub finished_by_other: u32,
    /// The seat whose turn it is.
    pub current: u8,
    /// Turns played (passed-over seats count none).
    pub turns: u32,
    /// Seats passed over so far (no card and an empty pile).
    pub passes: u32,
    /// Cards not yet played: the pile plus every hand (0 exactly when the game can end
    /// `all_played`; one compare instead of a scan of the hands).
    pub left: u32,
    /// Whether the game has ended.
    pub over: bool,
    /// Index into [`END_REASONS`] once over.
    pub end_reason: u8,
}

/// The draw pile and every hand are empty.
pub const END_ALL_PLAYED: u8 = 0;
/// The turn cap was reached.
pub const END_CAP: u8 = 1;
/// End reason names for reports and JSON.
pub const END_REASONS: &[&str] = &["all_played", "cap"];

impl FlowerPower {
    /// `seat` starts its turn: it draws until it holds `hand_size` cards or the pile is empty.
    /// `LOG`: whether this copy records events ([`EventLog::emit_if`]).
    #[inline(always)]
    fn begin_turn<const LOG: bool>(&self, s: &mut State, seat: usize, log: &mut EventLog<Event>) {
        s.current = seat as u8;
        let hand = &mut s.hands[seat];
        let before = hand.len();
        let mut n = 0;
        // Once the pile is empty (a third of the turns), nothing to count: the passing over of
        // empty hands has just tested it, and the test is taken once for both.
        if !s.pile.is_empty() {
            // The pile's top card first: mostly one card, the one just played. A hand one card
            // short (the seat played one card last turn) draws one, known without counting.
            n = if before + 1 == self.hand_size { 1 } else { self.hand_size.saturating_sub(before).min(s.pile.len()) };
            hand.draw(&mut s.pile, n);
        }
        log.emit_if::<LOG>(|| Event::TurnStarts { turn: s.turns + 1, seat: seat as u8, drew: n as u8 });
        log.emit_if::<LOG>(|| Event::Drew { seat: seat as u8, cards: s.hands[seat].cards()[before..].to_vec() });
    }

    /// `seat` lays `m` petals of color `c`: it starts that flower if it had none, takes every
    /// flower the petals complete, and leaves the rest in the garden (written as one word).
    #[inline(always)]
    fn lay<const LOG: bool>(&self, s: &mut State, seat: usize, c: usize, m: u32, log: &mut EventLog<Event>) {
        let petals = self.petals;
        // c < 5: no shift passes the word.
        let shift = 8 * c as u32;
        let garden = s.garden.word();
        let k = (garden >> shift) as u32 & 0xff;
        // The first petal makes the seat the flower's starter: a select, not a branch (a lay
        // starts a flower about one time in four, unpredictably).
        let starter = std::hint::select_unpredictable(k == 0, seat as u8, s.starter[c]);
        s.starter[c] = starter;
        let total = k + m;
        if total < petals {
            // The usual play: no flower completed. Byte c stays below `petals`.
            s.garden.set_word(garden + (u64::from(m) << shift));
            return;
        }
        // Flowers taken and petals left (k < petals: one flower unless the play holds more
        // cards than a flower).
        let (taken, left) = if total < 2 * petals { (1, total - petals) } else { (total / petals, total % petals) };
        s.flowers[seat] += i64::from(taken);
        s.flowers_by_color[c] += taken;
        // Only the first flower taken can have been started by another seat; the next ones
        // were started by this play.
        s.finished_by_other += u32::from(starter as usize != seat);
        if LOG {
            for i in 0..taken {
                let starter = if i == 0 { starter } else { seat as u8 };
                log.emit_if::<LOG>(|| Event::Completed { seat: seat as u8, color: c as u8, starter });
            }
        }
        s.starter[c] = seat as u8;
        // Byte c goes from k to `left`, both below 256: no other byte changes.
        s.garden.set_word(garden.wrapping_add(u64::from(left).wrapping_sub(u64::from(k)) << shift));
    }

    /// Ends the game (all played, or the cap) or starts the next seat's turn, passing over
    /// seats with no card while the pile is empty. Called on a game not over, after `seat`'s
    /// turn (the table's current seat, passed rather than read back); returns the seat to play
    /// next, `None` once the game is over.
    #[inline(always)]
    fn after_turn<const LOG: bool>(&self, s: &mut State, seat: usize, log: &mut EventLog<Event>) -> Option<usize> {
        let n = self.players;
        debug_assert!(!s.over);
        if s.left == 0 || s.turns >= self.params.turn_cap {
            s.over = true;
            s.end_reason = if s.left == 0 { END_ALL_PLAYED } else { END_CAP };
            log.emit_if::<LOG>(|| Event::GameOver { reason: s.end_reason, turns: s.turns });
            return None;
        }
        debug_assert_eq!(seat, s.current as usize);
        let mut seat = seat;
        loop {
            seat = if seat + 1 == n { 0 } else { seat + 1 };
            if !s.pile.is_empty() || !s.hands[seat].is_empty() {
                break;
            }
            s.passes += 1;
            log.emit_if::<LOG>(|| Event::PassedOver { seat: seat as u8 });
        }
        self.begin_turn::<LOG>(s, seat, log);
        Some(seat)
    }

    /// `seat`'s turn once it has chosen: the cards at the positions in `mask` leave its hand
    /// and land on their flowers, then the game ends or the next seat starts its turn. The
    /// rules of [`Game::apply`] and [`Game::play_out`] alike; `LOG` as in
    /// [`FlowerPower::begin_turn`]. Returns the seat to play next, `None` once the game is over
    /// (the quick loop keeps the seat in a register rather than reading it back).
    #[inline(always)]
    fn turn<const LOG: bool>(&self, s: &mut State, seat: usize, mask: u16, log: &mut EventLog<Event>) -> Option<usize> {
        if mask != 0 && mask & (mask - 1) == 0 {
            // One card, the usual play: no loop over the cards or the colors.
            let c = s.hands[seat].take_one(mask);
            s.left -= 1;
            self.lay::<LOG>(s, seat, c, 1, log);
        } else {
            let (played, colors) = s.hands[seat].take_fast(mask);
            s.left -= mask.count_ones();
            // The colors played, in canonical order (mostly one).
            let mut rest = colors;
            while rest != 0 {
                let c = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                self.lay::<LOG>(s, seat, c, ((played >> (8 * c)) & 0xff) as u32, log);
            }
        }
        s.turns += 1;
        self.after_turn::<LOG>(s, seat, log)
    }
}

impl Game for FlowerPower {
    type State = State;
    type Action = Action;
    type View<'a> = View<'a>;
    type Event = Event;
    type Metrics = FlowerMetrics;
    const INFO: GameInfo = GameInfo {
        id: "flower-power",
        name: "Flower Power",
        end_reasons: END_REASONS,
        length_unit: "turns",
        standing_unit: "flowers",
        default_cap: 1000,
        default_bot: "greedy",
        search: SearchDefaults {
            // `ismcts` models the table with `greedy` and rolls out with it: measured stronger
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

    /// Shuffles the deck into the draw pile; nobody is dealt; seat 0 starts its first turn
    /// (and so draws up to the hand size).
    fn deal(&self, rng: &mut GameRng, log: &mut EventLog<Event>) -> State {
        let mut pile = Vec::with_capacity(self.deck.len());
        pile.extend_from_slice(&self.deck);
        shuffle_cards(&mut pile, rng);
        let mut s = State {
            pile,
            hands: [Hand::EMPTY; MAX_PLAYERS],
            garden: Garden::EMPTY,
            starter: [0; COLORS],
            flowers: [0; MAX_PLAYERS],
            flowers_by_color: [0; COLORS],
            finished_by_other: 0,
            current: 0,
            turns: 0,
            passes: 0,
            left: self.deck.len() as u32,
            over: false,
            end_reason: END_ALL_PLAYED,
        };
        self.begin_turn::<true>(&mut s, 0, log);
        s
    }

    /// [`Game::deal`] into `s`, a state of an earlier game: every field reset and the
    /// pile refilled in place (the same draws, the same events, the same state).
    fn deal_into(&self, rng: &mut GameRng, log: &mut EventLog<Event>, s: &mut State) {
        // Every field named, so that a new one cannot be left out.
        let State { pile, hands, garden, starter, flowers, flowers_by_color, finished_by_other, current, turns, passes, left, over, end_reason } = s;
        pile.clear();
        pile.extend_from_slice(&self.deck);
        shuffle_cards(pile, rng);
        *hands = [Hand::EMPTY; MAX_PLAYERS];
        *garden = Garden::EMPTY;
        *starter = [0; COLORS];
        *flowers = [0; MAX_PLAYERS];
        *flowers_by_color = [0; COLORS];
        *finished_by_other = 0;
        *current = 0;
        *turns = 0;
        *passes = 0;
        *left = self.deck.len() as u32;
        *over = false;
        *end_reason = END_ALL_PLAYED;
        self.begin_turn::<true>(s, 0, log);
    }

    #[inline(always)]
    fn to_move(&self, s: &State) -> ToMove {
        if s.over { ToMove::Over } else { ToMove::Seat(s.current as usize) }
    }

    #[inline(always)]
    fn view<'a>(&self, s: &'a State, seat: usize) -> View<'a> {
        View::new(seat, s)
    }

    fn legal_actions(&self, view: &View, out: &mut Vec<Action>) {
        let n = view.hand.len();
        for mask in 1..(1u32 << n) {
            if mask.count_ones() as usize <= self.max_play {
                out.push(Action(mask as u16));
            }
        }
    }

    /// Uniform over the legal plays without listing them: one uniform rank, unranked.
    #[inline]
    fn random_action(&self, view: &View<'_>, rng: &mut GameRng, _scratch: &mut Vec<Action>) -> Action {
        let n = view.hand.len();
        let r = rng::below(self.plays[n], rng);
        self.unrank(n, r)
    }

    #[inline]
    fn is_legal(&self, view: &View, action: &Action) -> bool {
        let n = view.hand.len();
        action.0 != 0 && (action.0 as u32) >> n == 0 && action.0.count_ones() as usize <= self.max_play
    }

    /// Plays the cards at the positions in the action's mask of the current seat's hand, scores the
    /// flowers they complete, then ends the game or starts the next seat's turn.
    #[inline(always)]
    fn apply(&self, s: &mut State, seat: usize, action: Action, _rng: &mut GameRng, log: &mut EventLog<Event>) {
        let mask = action.0;
        if log.enabled() {
            let cards: Vec<Card> = s.hands[seat].cards().iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, &c)| c).collect();
            log.emit(|| Event::Played { seat: seat as u8, cards });
            self.turn::<true>(s, seat, mask, log);
        } else {
            self.turn::<false>(s, seat, mask, log);
        }
    }

    /// Plays the dealt game `s` to its end with nothing recorded, a turn at a time: each turn
    /// the seat [`Game::to_move`] names (as the last turn returned it) is asked as the plain
    /// loop asks it ([`ask`]) and its
    /// play applied by the rules [`Game::apply`] uses (`turn`), in the copy
    /// that holds no event code, the end known from the turn itself. The same game
    /// (`play_out_is_the_plain_loop` compares the two from the deal or any later decision).
    #[inline(always)]
    fn play_out<L: Lineup<Self> + ?Sized>(&self, s: &mut State, bots: &mut L, _rng: &mut GameRng, seat_rngs: &mut SeatRngs) {
        let log = &mut EventLog::new(false);
        if s.over {
            return;
        }
        let mut seat = s.current as usize;
        loop {
            let action = ask(self, s, seat, bots, seat_rngs);
            match self.turn::<false>(s, seat, action.0, log) {
                Some(next) => seat = next,
                None => return,
            }
        }
    }

    fn outcome(&self, s: &State) -> Outcome {
        let mut o = Outcome::new();
        o.length = s.turns;
        o.end_reason = s.end_reason;
        o.scores[..self.players].copy_from_slice(&s.flowers[..self.players]);
        o.set_winners_by_max_score(self.players);
        o
    }

    /// The invariants `check` and the tests rely on: every card accounted for (pile +
    /// hands + garden petals + taken flowers = deck, per color and per card kind where cards
    /// are still individual), bookkeeping consistent, the turn sane.
    fn check_invariants(&self, s: &State) -> Result<(), String> {
        let n = self.players;
        let copies = self.params.deck.copies();
        let mut kinds = [0u32; 25];
        let mut per_color = [0u32; COLORS];
        for &c in &s.pile {
            if c >= 25 {
                return Err(format!("card {c} in the pile is not a base card"));
            }
            kinds[c as usize] += 1;
            per_color[color_of(c)] += 1;
        }
        for seat in 0..MAX_PLAYERS {
            let h = &s.hands[seat];
            if seat >= n && !h.is_empty() {
                return Err(format!("seat {seat} is not at the table but holds cards"));
            }
            if h.len() > self.hand_size {
                return Err(format!("seat {seat} holds {} cards, more than the hand size {}", h.len(), self.hand_size));
            }
            let mut colors = [0u8; COLORS];
            for &c in h.cards() {
                if c >= 25 {
                    return Err(format!("card {c} in seat {seat}'s hand is not a base card"));
                }
                kinds[c as usize] += 1;
                per_color[color_of(c)] += 1;
                colors[color_of(c)] += 1;
            }
            for (c, name) in COLOR_NAMES.iter().enumerate() {
                let held = h.cards().iter().enumerate().filter(|(_, x)| color_of(**x) == c).fold(0u16, |m, (i, _)| m | 1 << i);
                if h.positions_of(c) != held {
                    return Err(format!("seat {seat}'s {name} positions are off"));
                }
            }
            if &colors != h.colors() {
                return Err(format!("seat {seat}'s color counts {:?} do not match its cards {colors:?}", h.colors()));
            }
        }
        for (k, &have) in kinds.iter().enumerate() {
            if have > copies {
                return Err(format!("{have} copies of {} in pile and hands; the deck has {copies}", card_name(k as Card)));
            }
        }
        for c in 0..COLORS {
            if s.garden[c] as u32 >= self.params.petals {
                return Err(format!("the {} flower has {} petals, not taken at {}", COLOR_NAMES[c], s.garden[c], self.params.petals));
            }
            let total = per_color[c] + s.garden[c] as u32 + s.flowers_by_color[c] * self.params.petals;
            if total != copies * 5 {
                return Err(format!(
                    "{} cards not conserved: pile + hands {} + garden {} + flowers {} x {} = {total}, the deck has {}",
                    COLOR_NAMES[c],
                    per_color[c],
                    s.garden[c],
                    s.flowers_by_color[c],
                    self.params.petals,
                    copies * 5
                ));
            }
        }
        let held: usize = s.hands.iter().map(Hand::len).sum();
        if s.left as usize != s.pile.len() + held {
            return Err(format!("{} cards counted left, but the pile and the hands hold {}", s.left, s.pile.len() + held));
        }
        let scored: i64 = s.flowers[..n].iter().sum();
        let taken: u32 = s.flowers_by_color.iter().sum();
        if scored != taken as i64 || s.flowers[n..].iter().any(|&f| f != 0) {
            return Err(format!("seats hold {scored} flowers but {taken} were taken"));
        }
        if s.finished_by_other > taken {
            return Err(format!("{} flowers finished by another seat out of {taken}", s.finished_by_other));
        }
        if s.turns > self.params.turn_cap {
            return Err(format!("turn {} passed the cap {}", s.turns, self.params.turn_cap));
        }
        if s.current as usize >= n {
            return Err(format!("seat {} is not at the table", s.current));
        }
        let all_empty = s.pile.is_empty() && s.hands[..n].iter().all(Hand::is_empty);
        if s.over {
            match s.end_reason {
                END_ALL_PLAYED if !all_empty => {
                    return Err("the game ended `all_played` with cards left".into());
                }
                END_CAP if s.turns != self.params.turn_cap => {
                    return Err(format!("the game was capped after {} turns", s.turns));
                }
                END_ALL_PLAYED | END_CAP => {}
                r => return Err(format!("unknown end reason {r}")),
            }
        } else {
            if all_empty {
                return Err("every card is played but the game goes on".into());
            }
            let h = &s.hands[s.current as usize];
            if h.is_empty() {
                return Err(format!("seat {} must play from an empty hand", s.current));
            }
            if h.len() < self.hand_size && !s.pile.is_empty() {
                return Err(format!("seat {} holds {} cards after drawing, with cards left in the pile", s.current, h.len()));
            }
        }
        Ok(())
    }

    fn seat_active(&self, s: &State, seat: usize) -> bool {
        !s.over && seat == s.current as usize && seat < self.players && !s.hands[seat].is_empty()
    }

    /// Standing: the seat's flowers so far, the figure that decides the winner.
    fn standing(&self, s: &State, seat: usize) -> i64 {
        s.flowers[seat]
    }
}
