//! Penny Badger's bots: `basic` (exactly specified, reproducible anywhere) and `counter`
//! (a card counter that challenges and bluffs by expected value).

use super::params::{Amount, HAND_CAP, MAX_PLAYERS};
use super::{Action, Claim, Decision, Event, PennyBadger, View};
use crate::engine::{Bot, BotInfo, BotParamInfo, Game, GameRng, SeedFrom, Seen, Uniform, rng::Chance};
use crate::engine::{HiddenInfo, OwnBots};
use crate::games::chroma::{self, ActionCard, Card, Cell, MATCHES, is_action, is_wild, matches};
#[cfg(target_arch = "x86_64")]
use crate::games::simd::V128;

/// The largest set in a hand: cell, size and the hand positions used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BestSet {
    /// The (color, shape) claimed.
    pub cell: Cell,
    /// Cards that match it (capped at the largest claim allowed).
    pub size: usize,
    /// Hand positions of those cards.
    pub mask: u32,
}

/// The best set as `basic` defines it: the most matching cards; ties to fewer wilds, then
/// the earlier (color, shape). At most `max_claim` cards are used, the first in canonical
/// order. `None` when no card matches anything (only action cards).
#[inline]
pub fn best_set(hand: &[Card], max_claim: usize) -> Option<BestSet> {
    let mut slots = [0; HAND_CAP];
    slots[..hand.len()].copy_from_slice(hand);
    best_set_in(&slots, hand.len(), max_claim).map(|(best, _)| best)
}

/// [`best_set`] of a hand given as its fixed slots and length (see [`View::hand_slots`]),
/// with the positions of every card matching the best cell (claimed or not). Loops run
/// over all [`HAND_CAP`] slots, masking the empty ones, so no loop exit depends on the
/// hand size.
#[inline]
pub fn best_set_in(slots: &[Card; HAND_CAP], len: usize, max_claim: usize) -> Option<(BestSet, u32)> {
    best_set_keyed(slots, len, &chroma::cell_keys_of(&slots[..len]), max_claim)
}

/// [`best_set_in`] given the hand's cell keys as well ([`chroma::Hand::cell_keys`], kept up
/// to date as cards come and go), so that nothing is recounted.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
pub fn best_set_keyed(slots: &[Card; HAND_CAP], len: usize, keys: &[u64; 4], max_claim: usize) -> Option<(BestSet, u32)> {
    #[cfg(target_arch = "x86_64")]
    {
        let (cell, count) = best_cell_sse2(keys)?;
        let held = (1u32 << len) - 1;
        Some(set_from_matching(cell, matching_sse2(slots_sse2(slots), cell) & held, count, max_claim))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let (cell, count) = best_set_bit_sliced(&slots[..len], HAND_CAP).map(|b| (b.cell, b.size))?;
        Some(set_of(slots, len, cell, count, max_claim))
    }
}

/// The hand's [`HAND_CAP`] slots in the low lanes of one SSE2 register (SSE2 is part of every
/// x86-64 CPU), the other four lanes zero: two plain loads, no copy through memory.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn slots_sse2(slots: &[Card; HAND_CAP]) -> V128 {
    let low = u64::from_le_bytes(slots[..8].try_into().expect("8 bytes"));
    let high = u32::from_le_bytes(slots[8..].try_into().expect("4 bytes"));
    V128::from_u64s(u64::from(high), low)
}

/// Bit i set when lane i of `lanes` holds a card matching `cell` (every lane: the caller
/// keeps the held ones). A cell is matched by five card kinds (its own card, its color's
/// wild, its shape's wild and the two all-wilds: checked against [`MATCHES`] when this
/// compiles), so five byte comparisons answer for the whole hand at once.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn matching_sse2(lanes: V128, cell: Cell) -> u32 {
    let [_, _, _, all_colors, all_shapes] = cell_kinds(cell);
    // The cell's own three kinds, each already in all 16 lanes (rows past the 25 cells are
    // never asked for; `& 31` only spares the bounds check).
    let [own, color, shape] = &CELL_KIND_LANES[cell as usize & 31];
    let is = |kind: Card| lanes.eq8(V128::splat8(kind));
    let is_row = |row: &[u8; 16]| lanes.eq8(V128::load(row));
    let hit = is_row(own).or(is_row(color)).or(is_row(shape).or(is(all_colors).or(is(all_shapes))));
    hit.mask8()
}

/// Per cell, its own card, its color's wild and its shape's wild ([`cell_kinds`]), each
/// repeated in 16 byte lanes: one load instead of computing the kind and spreading it over a
/// register (five instructions each). 32 rows so that `cell & 31` needs no bounds check.
#[cfg(target_arch = "x86_64")]
static CELL_KIND_LANES: [[[u8; 16]; 3]; 32] = {
    let mut t = [[[0u8; 16]; 3]; 32];
    let mut cell = 0;
    while cell < 25 {
        let kinds = cell_kinds(cell as Cell);
        let mut k = 0;
        while k < 3 {
            t[cell][k] = [kinds[k]; 16];
            k += 1;
        }
        cell += 1;
    }
    t
};

/// The five card kinds that match `cell` (see [`matching_sse2`]).
#[inline(always)]
const fn cell_kinds(cell: Cell) -> [Card; 5] {
    [cell, chroma::COLOR_WILD + cell / 5, chroma::SHAPE_WILD + cell % 5, chroma::ALL_COLORS, chroma::ALL_SHAPES]
}

// The five kinds of `cell_kinds` are exactly the kinds `MATCHES` says match each cell.
const _: () = {
    let mut cell = 0;
    while cell < 25 {
        let kinds = cell_kinds(cell as Cell);
        let mut bits = 0u64;
        let mut k = 0;
        while k < 5 {
            bits |= 1 << kinds[k];
            k += 1;
        }
        assert!(bits == CELL_KINDS[cell], "a cell is matched by exactly its five card kinds");
        cell += 1;
    }
};

/// Positions of the wilds and of the action cards among all 16 lanes of `lanes` (the
/// caller keeps the held ones): two byte comparisons each, as [`wilds_and_actions`] counts.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn wilds_and_actions_sse2(lanes: V128) -> (u32, u32) {
    // Cards are below 128, so the signed comparisons are the card order.
    let after_plain = lanes.gt8(V128::splat8(chroma::COLOR_WILD - 1));
    let actions = lanes.gt8(V128::splat8(chroma::FIRST_ACTION - 1));
    let wilds = actions.and_not(after_plain);
    (wilds.mask8(), actions.mask8())
}

/// Positions of the wilds and of the action cards among the first `len` slots, one slot at a
/// time (the plain version of [`wilds_and_actions_sse2`]; the tests compare them).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
fn wilds_and_actions(slots: &[Card; HAND_CAP], len: usize) -> (u32, u32) {
    let (mut wilds, mut actions) = (0u32, 0u32);
    for (i, &c) in slots[..len].iter().enumerate() {
        wilds |= (is_wild(c) as u32) << i;
        actions |= (is_action(c) as u32) << i;
    }
    (wilds, actions)
}

/// The best cell from the 25 cell keys ([`chroma::CELL_KEY_ADD`]) in two SSE2 registers
/// (SSE2 is part of every x86-64 CPU): one maximum and one comparison for the whole table,
/// the earliest cell winning ties. Returns the cell and how many cards match it; `None`
/// when no card matches any cell.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn best_cell_sse2(keys: &[u64; 4]) -> Option<(Cell, usize)> {
    let low = V128::load64(keys.first_chunk().expect("4 words"));
    let high = V128::load64(keys.last_chunk().expect("4 words"));
    // The largest key, broadcast to every lane.
    let mut top = low.max_u8(high);
    top = top.max_u8(top.bytes_down::<8>());
    top = top.max_u8(top.bytes_down::<4>());
    top = top.max_u8(top.bytes_down::<2>());
    top = top.max_u8(top.bytes_down::<1>());
    let best = top.low_u32() as u8;
    if best == 0 {
        return None;
    }
    let top = V128::splat8(best);
    let at = low.eq8(top).mask8() | (high.eq8(top).mask8() << 16);
    // key = 16 x count - wilds with wilds <= count < 16, so count = key / 16 rounded up.
    let at = (at, (best as usize).div_ceil(16));
    Some((at.0.trailing_zeros() as Cell, at.1))
}

/// Per cell, the card kinds that match it (bit = card kind).
const CELL_KINDS: [u64; 25] = {
    let mut t = [0u64; 25];
    let mut card = 0;
    while card < chroma::CARD_KINDS {
        let mut cell = 0;
        while cell < 25 {
            if MATCHES[card] & (1 << cell) != 0 {
                t[cell] |= 1 << card;
            }
            cell += 1;
        }
        card += 1;
    }
    t
};

/// The first `max_claim` cards of the hand (canonical order) that match `cell` (`count`
/// cards do), and the positions of all the cards that match it.
#[inline(always)]
fn set_of(slots: &[Card; HAND_CAP], len: usize, cell: Cell, count: usize, max_claim: usize) -> (BestSet, u32) {
    let kinds = CELL_KINDS[cell as usize];
    let mut matching = 0u32;
    for (i, &c) in slots[..len].iter().enumerate() {
        matching |= (((kinds >> (c & 63)) & 1) as u32) << i;
    }
    set_from_matching(cell, matching, count, max_claim)
}

/// [`set_of`] given the positions of the cards matching `cell` (`count` of them).
#[inline(always)]
fn set_from_matching(cell: Cell, matching: u32, count: usize, max_claim: usize) -> (BestSet, u32) {
    debug_assert_eq!(matching.count_ones() as usize, count);
    let mut mask = matching;
    let mut size = count;
    // Keep the first `max_claim` (rare: the hand holds more matching cards than a claim).
    while size > max_claim {
        mask &= !(1 << (31 - mask.leading_zeros()));
        size -= 1;
    }
    (BestSet { cell, size, mask }, matching)
}

/// [`best_set`] with bit-sliced counters (any CPU; tests check it against the others).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
pub fn best_set_bit_sliced(hand: &[Card], max_claim: usize) -> Option<BestSet> {
    // Bit-sliced counters: bit `cell` of plane p holds bit p of that cell's count. Each card
    // adds its match mask to every cell at once (25 lanes in one u32).
    /// Adds 1 to every cell of `m` in the bit-sliced counter `planes` (plane p = bit p).
    #[inline(always)]
    fn add(planes: &mut [u32; 4], m: u32) {
        let mut carry = m;
        for plane in planes.iter_mut() {
            let next = *plane & carry;
            *plane ^= carry;
            carry = next;
        }
    }
    let (mut sizes, mut wilds) = ([0u32; 4], [0u32; 4]);
    for &c in hand {
        let m = MATCHES[c as usize];
        add(&mut sizes, m);
        add(&mut wilds, m & (0u32.wrapping_sub(is_wild(c) as u32)));
    }
    let [s0, s1, s2, s3] = sizes;
    let [w0, w1, w2, w3] = wilds;
    let mut cells = s0 | s1 | s2 | s3;
    if cells == 0 {
        return None;
    }
    // The largest count: keep the cells with each bit set, from the top plane down.
    for plane in [s3, s2, s1, s0] {
        let t = cells & plane;
        if t != 0 {
            cells = t;
        }
    }
    // Among them the fewest wilds: keep the cells with each bit clear, from the top down.
    for plane in [w3, w2, w1, w0] {
        let t = cells & !plane;
        if t != 0 {
            cells = t;
        }
    }
    let cell = cells.trailing_zeros() as Cell;
    let mut slots = [0; HAND_CAP];
    slots[..hand.len()].copy_from_slice(hand);
    let count = hand.iter().filter(|&&c| matches(c, cell)).count();
    Some(set_of(&slots, hand.len(), cell, count, max_claim).0)
}

/// [`set_of`]'s positions of the cards matching `cell`, plain and fast, for the tests:
/// `(plain, fast)`, every position past `len` cleared.
#[cfg(all(test, target_arch = "x86_64"))]
pub fn matching_both_ways(slots: &[Card; HAND_CAP], len: usize, cell: Cell) -> (u32, u32) {
    let held = (1u32 << len) - 1;
    let count = slots[..len].iter().filter(|&&c| matches(c, cell)).count();
    (set_of(slots, len, cell, count, HAND_CAP).1, matching_sse2(slots_sse2(slots), cell) & held)
}

/// [`wilds_and_actions`] and its SSE2 version, for the tests: `[plain wilds, plain actions,
/// fast wilds, fast actions]`, every position past `len` cleared.
#[cfg(all(test, target_arch = "x86_64"))]
pub fn wilds_and_actions_both_ways(slots: &[Card; HAND_CAP], len: usize) -> [u32; 4] {
    let held = (1u32 << len) - 1;
    let (w, a) = wilds_and_actions(slots, len);
    let (fw, fa) = wilds_and_actions_sse2(slots_sse2(slots));
    [w, a, fw & held, fa & held]
}

impl OwnBots for PennyBadger {
    fn bots(&self) -> Vec<BotInfo<Self>> {
        vec![basic_info(), counter_info()]
    }
}

#[cfg(test)]
/// The plain definition of [`best_set`]: every cell scored (tests check the fast one
/// against it).
pub fn best_set_by_every_cell(hand: &[Card], max_claim: usize) -> Option<BestSet> {
    let mut best: Option<(usize, usize, Cell)> = None;
    for cell in 0..25u8 {
        let size = hand.iter().filter(|&&c| matches(c, cell)).count();
        let wilds = hand.iter().filter(|&&c| matches(c, cell) && is_wild(c)).count();
        if size == 0 {
            continue;
        }
        if best.is_none_or(|(bs, bw, _)| size > bs || (size == bs && wilds < bw)) {
            best = Some((size, wilds, cell));
        }
    }
    let (_, _, cell) = best?;
    let mut mask = 0u32;
    let mut size = 0;
    for (i, &c) in hand.iter().enumerate() {
        if size < max_claim && matches(c, cell) {
            mask |= 1 << i;
            size += 1;
        }
    }
    Some(BestSet { cell, size, mask })
}

/// `basic`: claims its best set truthfully, bluffs one card more with probability `bluff`,
/// challenges with probability `challenge`; never plays action cards.
pub struct BasicBot {
    bluff: Chance,
    challenge: Chance,
}

const BASIC_PARAMS: &[BotParamInfo] = &[
    BotParamInfo { name: "bluff", default: 0.0, min: 0.0, max: 1.0, doc: "probability of claiming one card more than it holds (or a wild with nothing)" },
    BotParamInfo { name: "challenge", default: 0.0, min: 0.0, max: 1.0, doc: "probability of challenging each challengeable claim of an opponent" },
];

/// The `basic` entry (with its alias `honest`).
pub fn basic_info() -> BotInfo<PennyBadger> {
    BotInfo {
        name: "basic",
        // Reads the payout table (the largest claim, what a claim or a challenge pays).
        reads: &["payout.*"],
        aliases: &[("honest", &[("bluff", 0.0), ("challenge", 0.0)])],
        doc: "claims its largest set, bluffs one card more with probability `bluff`, challenges with probability `challenge`",
        params: BASIC_PARAMS,
        build: |_, v| Box::new(BasicBot::new(v)),
        uniform: Some(|_, seats| Box::new(Uniform::new(seats.iter().map(|v| BasicBot::new(v)).collect()))),
    }
}

impl BasicBot {
    /// A basic bot from its parameter values (`bluff`, `challenge`).
    pub(super) fn new(values: &[f64]) -> Self {
        BasicBot { bluff: Chance::new(values[0]), challenge: Chance::new(values[1]) }
    }

    /// The answer to a claim of an opponent: a challenge with probability `challenge`.
    #[inline(always)]
    pub(super) fn challenges(&self, rng: &mut GameRng) -> bool {
        self.challenge.hit(rng)
    }

    /// The turn decision of the specification in the issue, step by step, over the hand's
    /// fixed slots (`len` cards) so that no loop exit depends on the hand size. (Inlined
    /// into the plain play loop it costs 10% more instructions a game: it stays a call.)
    #[inline(never)]
    fn turn(&self, game: &PennyBadger, slots: &[Card; HAND_CAP], len: usize, keys: &[u64; 4], rng: &mut GameRng) -> Action {
        self.turn_inline(game, slots, len, keys, rng)
    }

    /// [`Self::turn`]'s body, inlined into that call.
    #[inline(always)]
    pub(super) fn turn_inline(&self, game: &PennyBadger, slots: &[Card; HAND_CAP], len: usize, keys: &[u64; 4], rng: &mut GameRng) -> Action {
        let max_claim = game.payout.max_claim();
        let held = (1u32 << len) - 1;
        if let Some((best, matching)) = best_set_keyed(slots, len, keys, max_claim).filter(|(b, _)| b.size >= 2) {
            if len > best.size && best.size < max_claim && self.bluff.hit(rng) {
                // The first card in canonical order that does not match.
                let extra = (held & !matching).trailing_zeros();
                return Action::Discard { cards: best.mask | (1 << extra), claim: Claim::Set(best.cell) };
            }
            return Action::Discard { cards: best.mask, claim: Claim::Set(best.cell) };
        }
        #[cfg(target_arch = "x86_64")]
        let (wilds, actions) = wilds_and_actions_sse2(slots_sse2(slots));
        #[cfg(not(target_arch = "x86_64"))]
        let (wilds, actions) = wilds_and_actions(slots, len);
        let (wilds, actions) = (wilds & held, actions & held);
        if wilds != 0 {
            return Action::Discard { cards: 1 << wilds.trailing_zeros(), claim: Claim::Wild };
        }
        if self.bluff.hit(rng) {
            return Action::Discard { cards: 1, claim: Claim::Wild };
        }
        let i = if actions != 0 { actions.trailing_zeros() } else { 0 };
        Action::Discard { cards: 1 << i, claim: Claim::Nothing }
    }
}

impl Bot<PennyBadger> for BasicBot {
    fn name(&self) -> &str {
        "basic"
    }

    #[inline]
    fn decide(&mut self, game: &PennyBadger, view: &View<'_>, rng: &mut GameRng) -> Action {
        match view.decision {
            Decision::Challenge { .. } => Action::Challenge(self.challenges(rng)),
            Decision::Turn => self.turn(game, view.hand_slots(), view.hand.len(), view.hand_keys(), rng),
        }
    }

    /// Exact: a challenge with its rate; a turn is the honest claim or, with the bluff rate,
    /// the bluff (each found by deciding with the rate at 0 and at 1).
    fn action_probability(&mut self, game: &PennyBadger, view: &View<'_>, seen: &Seen<Action>) -> Option<f64> {
        if let Decision::Challenge { .. } = view.decision {
            let p = self.challenge.probability();
            return Some(match seen.action {
                Action::Challenge(true) => p,
                Action::Challenge(false) => 1.0 - p,
                _ => 0.0,
            });
        }
        let mut rng = GameRng::seed_from(0);
        let honest = BasicBot { bluff: Chance::new(0.0), challenge: Chance::new(0.0) };
        let liar = BasicBot { bluff: Chance::new(1.0), challenge: Chance::new(1.0) };
        let (slots, len, keys) = (view.hand_slots(), view.hand.len(), view.hand_keys());
        let is = |a: Action| f64::from(u8::from(game.seen(view, &a) == *seen));
        let p = self.bluff.probability();
        Some((1.0 - p) * is(honest.turn(game, slots, len, keys, &mut rng)) + p * is(liar.turn(game, slots, len, keys, &mut rng)))
    }
}

/// `counter`: counts cards to judge claims and picks the claim with the best expected
/// pennies given the challenge rates it has observed.
pub struct CounterBot {
    seat: usize,
    /// Copies of each card in the deck.
    copies: [u32; chroma::CARD_KINDS],
    /// Cards known to lie in the discard pile (own discards, reveals); cleared on reshuffle.
    known_discard: [u32; chroma::CARD_KINDS],
    /// Per seat: claims it was asked about, and how many it challenged.
    asked: [u32; MAX_PLAYERS],
    challenged: [u32; MAX_PLAYERS],
    /// Per seat: claims revealed, and how many were bluffs.
    revealed: [u32; MAX_PLAYERS],
    bluffs: [u32; MAX_PLAYERS],
    /// Weight on the downside of a challenge or a bluff.
    caution: f64,
}

/// The `counter` entry.
pub fn counter_info() -> BotInfo<PennyBadger> {
    BotInfo {
        name: "counter",
        // Reads the payout table and the deck's copies (cards it has not seen).
        reads: &["payout.*", "deck.*"],
        aliases: &[],
        doc: "counts cards: challenges when the expected gain is positive, bluffs when the observed challenge rates make it pay, plays action cards",
        params: &[BotParamInfo {
            name: "caution",
            default: 1.0,
            min: 0.0,
            max: 10.0,
            doc: "weight on the risk of a lost challenge or a caught bluff (1 = plain expected value)",
        }],
        build: |game, v| Box::new(CounterBot::new(game, v[0])),
        uniform: Some(|game, seats| Box::new(Uniform::new(seats.iter().map(|v| CounterBot::new(game, v[0])).collect()))),
    }
}

/// P(X >= k) for X hypergeometric: `draws` cards from `pool` holding `good` matching ones.
pub fn prob_at_least(pool: u32, good: u32, draws: u32, k: u32) -> f64 {
    if k == 0 {
        return 1.0;
    }
    if good < k || draws < k || pool == 0 {
        return 0.0;
    }
    let draws = draws.min(pool);
    let bad = pool - good;
    // pmf(0) = C(bad, draws) / C(pool, draws), then the usual ratio recursion.
    let mut p0 = 1.0f64;
    for i in 0..draws {
        if bad < draws {
            p0 = 0.0;
            break;
        }
        p0 *= (bad - i) as f64 / (pool - i) as f64;
    }
    let mut below = 0.0;
    let mut pmf = p0;
    let lo = draws.saturating_sub(bad);
    if p0 == 0.0 {
        // Start at the smallest possible x: compute pmf(lo) directly.
        pmf = hyper_pmf(pool, good, draws, lo);
    }
    let mut x = lo;
    while x < k {
        below += pmf;
        // pmf(x+1) = pmf(x) * (good-x)(draws-x) / ((x+1)(bad-draws+x+1))
        let num = (good - x) as f64 * (draws - x) as f64;
        let den = (x + 1) as f64 * (bad as f64 - draws as f64 + x as f64 + 1.0);
        pmf = if den > 0.0 { pmf * num / den } else { 0.0 };
        x += 1;
    }
    (1.0 - below).clamp(0.0, 1.0)
}

fn hyper_pmf(pool: u32, good: u32, draws: u32, x: u32) -> f64 {
    fn ln_choose(n: u32, k: u32) -> f64 {
        (1..=k).map(|i| ((n - k + i) as f64).ln() - (i as f64).ln()).sum()
    }
    (ln_choose(good, x) + ln_choose(pool - good, draws - x) - ln_choose(pool, draws)).exp()
}

impl CounterBot {
    fn new(game: &PennyBadger, caution: f64) -> Self {
        CounterBot {
            seat: 0,
            copies: game.copies,
            known_discard: [0; chroma::CARD_KINDS],
            asked: [0; MAX_PLAYERS],
            challenged: [0; MAX_PLAYERS],
            revealed: [0; MAX_PLAYERS],
            bluffs: [0; MAX_PLAYERS],
            caution,
        }
    }

    /// Cards whose place this seat does not know: the deck less its hand and known discards.
    fn unknown(&self, hand: &[Card]) -> [u32; chroma::CARD_KINDS] {
        let mut pool = self.copies;
        for (p, k) in pool.iter_mut().zip(self.known_discard) {
            *p = p.saturating_sub(k);
        }
        for &c in hand {
            pool[c as usize] = pool[c as usize].saturating_sub(1);
        }
        pool
    }

    /// Observed challenge rate of `seat` (prior: 1 in 5).
    fn challenge_rate(&self, seat: usize) -> f64 {
        (self.challenged[seat] as f64 + 1.0) / (self.asked[seat] as f64 + 5.0)
    }

    /// Observed bluff rate of `seat` among its revealed claims (prior: 1 in 4).
    fn bluff_rate(&self, seat: usize) -> f64 {
        (self.bluffs[seat] as f64 + 1.0) / (self.revealed[seat] as f64 + 4.0)
    }

    /// Probability that `claimer`'s claim is true, from the unknown cards and its record.
    fn truth_probability(&self, view: &View, claimer: usize, claim: Claim, count: u8) -> f64 {
        let pool = self.unknown(view.hand);
        let total: u32 = pool.iter().sum();
        let held = view.hand_size(claimer) as u32 + count as u32;
        let (good, k) = match claim {
            Claim::Wild => (pool[25..37].iter().sum::<u32>(), 1),
            Claim::Set(cell) => ((0..chroma::CARD_KINDS).filter(|&c| MATCHES[c] & (1 << cell) != 0).map(|c| pool[c]).sum(), count as u32),
            Claim::Nothing => return 1.0,
        };
        let at_least_k = prob_at_least(total, good, held, k);
        if at_least_k == 0.0 {
            return 0.0;
        }
        // A bluff of k is typically a real k-1 plus one card: compare holding k with k-1.
        let at_least_k1 = prob_at_least(total, good, held, k - 1).max(at_least_k);
        let q = at_least_k / at_least_k1;
        let b = self.bluff_rate(claimer);
        (1.0 - b) * q / ((1.0 - b) * q + b)
    }

    /// Withdrawal, accuser penalty and the bluffer's penalty (pennies) of a claim.
    fn amounts(game: &PennyBadger, claim: Claim, count: u8, bank: u32, claimer_savings: u32) -> (u32, Amount, u32) {
        let p = &game.payout;
        match claim {
            Claim::Wild => (p.wild_withdrawal.of(bank).min(bank), p.wild_accuser_penalty, p.wild_bluffer_penalty.of(claimer_savings)),
            Claim::Set(_) => (p.withdrawal[count as usize].of(bank).min(bank), p.penalty[count as usize], p.penalty[count as usize].of(claimer_savings)),
            Claim::Nothing => (0, Amount::Pennies(0), 0),
        }
    }

    fn challenge(&self, game: &PennyBadger, view: &View, claimer: usize, claim: Claim, count: u8) -> bool {
        let truth = self.truth_probability(view, claimer, claim, count);
        let (w, accuser_penalty, bluffer_penalty) = Self::amounts(game, claim, count, view.bank(), view.savings()[claimer]);
        let mine = view.savings()[view.seat];
        let lose = 2.0 * accuser_penalty.of(mine).min(mine) as f64;
        let opponents = (view.alive().count_ones() - 1).max(1) as f64;
        let gain = bluffer_penalty.min(view.savings()[claimer]) as f64 + w as f64 / opponents;
        (1.0 - truth) * gain > truth * lose * self.caution
    }

    /// The action card worth playing now, if any.
    fn action_card(&self, game: &PennyBadger, view: &View) -> Option<Action> {
        let hand = view.hand;
        let n = game.params.players as usize;
        let opponents = || (1..n).map(move |d| (view.seat + d) % n).filter(|&s| view.alive() & (1 << s) != 0);
        let richest = opponents().max_by_key(|&s| view.savings()[s]);
        let next = opponents().next();
        let holds = |a: ActionCard| hand.contains(&(a as Card));
        let weak = best_set(hand, HAND_CAP).is_none_or(|b| b.size < 2) && !hand.iter().any(|&c| is_wild(c));
        if holds(ActionCard::TradeHands)
            && weak
            && let Some(t) = richest.filter(|&t| view.hand_size(t) >= hand.len())
        {
            return Some(Action::Play { card: ActionCard::TradeHands as Card, target: t as u8, give: 0 });
        }
        for a in [ActionCard::AddTwoCards, ActionCard::AddACard] {
            let room = if a == ActionCard::AddTwoCards { hand.len() + 1 < HAND_CAP } else { hand.len() < HAND_CAP };
            if holds(a) && room {
                return Some(Action::Play { card: a as Card, target: 0, give: 0 });
            }
        }
        if holds(ActionCard::TradeOneCard) {
            let set = best_set(hand, HAND_CAP);
            let junk = hand.iter().copied().find(|&c| c != ActionCard::TradeOneCard as Card && set.is_none_or(|b| !matches(c, b.cell)) && !is_wild(c));
            if let (Some(give), Some(t)) = (junk, richest) {
                return Some(Action::Play { card: ActionCard::TradeOneCard as Card, target: t as u8, give });
            }
        }
        if holds(ActionCard::Skip) {
            return Some(Action::Play { card: ActionCard::Skip as Card, target: 0, give: 0 });
        }
        for a in [ActionCard::RemoveTwoCards, ActionCard::RemoveACard] {
            if let (true, Some(t)) = (holds(a), next) {
                return Some(Action::Play { card: a as Card, target: t as u8, give: 0 });
            }
        }
        None
    }

    /// Chance that nobody challenges, and expected challengers, from observed rates.
    fn challenge_odds(&self, view: &View) -> (f64, f64) {
        let mut none = 1.0;
        let mut expected = 0.0;
        for s in (0..MAX_PLAYERS).filter(|&s| s != view.seat && view.alive() & (1 << s) != 0) {
            let c = self.challenge_rate(s);
            none *= 1.0 - c;
            expected += c;
        }
        (none, expected)
    }

    fn claim(&self, game: &PennyBadger, view: &View) -> Action {
        let hand = view.hand;
        let max_claim = game.payout.max_claim();
        let (none, expected) = self.challenge_odds(view);
        let some = 1.0 - none;
        let per_challenger = if some > 0.0 { expected / some } else { 0.0 };
        let mine = view.savings()[view.seat];
        let bank = view.bank();
        let p = &game.payout;
        // Expected pennies of a true claim (withdrawal plus penalties of wrong accusers) and
        // of a bluff (withdrawal if unchallenged, penalties to bank and accusers if caught).
        let truthful = |w: Amount, acc: Amount| w.of(bank).min(bank) as f64 + expected * acc.of(0) as f64;
        let bluff = |w: Amount, pen: Amount| {
            let lose = pen.of(mine).min(mine) as f64 * (1.0 + per_challenger);
            none * w.of(bank).min(bank) as f64 - some * lose * self.caution
        };
        let junk = (0..hand.len()).find(|&i| is_action(hand[i])).unwrap_or(0);
        let mut best = (-1.0f64, Action::Discard { cards: 1 << junk, claim: Claim::Nothing });
        let mut consider = |value: f64, action: Action| {
            if value > best.0 {
                best = (value, action);
            }
        };
        if let Some(i) = hand.iter().position(|&c| is_wild(c)) {
            consider(truthful(p.wild_withdrawal, p.wild_accuser_penalty), Action::Discard { cards: 1 << i, claim: Claim::Wild });
        }
        consider(bluff(p.wild_withdrawal, p.wild_bluffer_penalty), Action::Discard { cards: 1 << junk, claim: Claim::Wild });
        if let Some(set) = best_set(hand, max_claim) {
            if set.size >= 2 {
                consider(truthful(p.withdrawal[set.size], p.penalty[set.size]), Action::Discard { cards: set.mask, claim: Claim::Set(set.cell) });
            }
            let k = set.size + 1;
            if k >= 2 && k <= max_claim && hand.len() >= k && (k as u32) <= self.public_max(set.cell) {
                // Pad with the least useful cards: action cards first, then the last cards.
                let mut mask = set.mask;
                for i in (0..hand.len()).rev() {
                    if mask.count_ones() as usize == k {
                        break;
                    }
                    if mask & (1 << i) == 0 {
                        mask |= 1 << i;
                    }
                }
                consider(bluff(p.withdrawal[k], p.penalty[k]), Action::Discard { cards: mask, claim: Claim::Set(set.cell) });
            }
        }
        best.1
    }

    /// Most cards that could match `cell` as far as every player knows (deck less reveals).
    fn public_max(&self, cell: Cell) -> u32 {
        (0..chroma::CARD_KINDS).filter(|&c| MATCHES[c] & (1 << cell) != 0).map(|c| self.copies[c].saturating_sub(self.known_discard[c])).sum()
    }
}

impl Bot<PennyBadger> for CounterBot {
    fn name(&self) -> &str {
        "counter"
    }

    fn new_game(&mut self, game: &PennyBadger, seat: usize) {
        *self = CounterBot::new(game, self.caution);
        self.seat = seat;
    }

    fn decide(&mut self, game: &PennyBadger, view: &View<'_>, _rng: &mut GameRng) -> Action {
        match view.decision {
            Decision::Challenge { claimer, claim, count, .. } => Action::Challenge(self.challenge(game, view, claimer as usize, claim, count)),
            Decision::Turn => match self.action_card(game, view) {
                Some(a) if game.is_legal(view, &a) => a,
                _ => self.claim(game, view),
            },
        }
    }

    fn listens(&self) -> bool {
        true
    }

    /// Exact: it never draws, so one decision says it (1 or 0).
    fn action_probability(&mut self, game: &PennyBadger, view: &View<'_>, seen: &Seen<Action>) -> Option<f64> {
        let mine = self.decide(game, view, &mut GameRng::seed_from(0));
        Some(f64::from(u8::from(game.seen(view, &mine) == *seen)))
    }

    fn observe(&mut self, _seat: usize, event: &Event) {
        match event {
            Event::Answered { seat, challenge } => {
                self.asked[*seat as usize] += 1;
                self.challenged[*seat as usize] += u32::from(*challenge);
            }
            Event::Revealed { seat, cards, truthful } => {
                self.revealed[*seat as usize] += 1;
                self.bluffs[*seat as usize] += u32::from(!truthful);
                if *seat as usize != self.seat {
                    for &c in cards.cards() {
                        self.known_discard[c as usize] += 1;
                    }
                }
            }
            Event::Claimed { seat, cards, .. } if *seat as usize == self.seat => {
                for &c in cards.cards() {
                    self.known_discard[c as usize] += 1;
                }
            }
            Event::PlayedAction { action, .. } => self.known_discard[*action as usize] += 1,
            Event::Reshuffled { .. } => self.known_discard = [0; chroma::CARD_KINDS],
            _ => {}
        }
    }
}
