//! Flower Power's bots: `greedy` (exactly specified in issue 12, reproducible anywhere, no
//! allocation per decision) and `cautious` (completes as many flowers as its budget allows;
//! otherwise lays the one petal that helps the next player least). `random` is the engine's.

use std::cell::RefCell;

use super::params::{COLORS, MAX_HAND, MAX_PLAYERS};
use super::rules::{Hand, color_of};
use super::{Action, Event, FlowerPower, View};
use crate::engine::OwnBots;
use crate::engine::{Bot, BotInfo, BotParamInfo, GameRng, Uniform};
use crate::games::chroma::Card;
#[cfg(target_arch = "x86_64")]
use crate::games::simd::V128;

/// The hand positions of the first `want[c]` cards of each color c, in hand order.
#[inline]
pub fn pick(hand: &Hand, want: [u8; COLORS]) -> Action {
    let mut mask = 0u16;
    for (c, &w) in want.iter().enumerate() {
        let mut p = hand.positions_of(c);
        for _ in 0..w {
            mask |= p & p.wrapping_neg();
            p &= p.wrapping_sub(1);
        }
    }
    Action(mask)
}

/// Cards of further whole flowers of one color after a first one: `petals` more while
/// `held` (cards of the color still held) and `budget` both allow.
#[inline]
fn further_flowers(held: u32, budget: u32, petals: u32) -> u32 {
    held.min(budget) / petals * petals
}

/// `greedy`'s play as cards per color, from its hand's color counts `held`, the garden,
/// `petals` and `max_play`:
/// 1. Completions: colors in canonical order with a budget of `max_play` cards; for a color
///    with k + h >= `petals`, play `petals` - k cards of it when they fit in the budget, then
///    another `petals` while it still holds that many and the budget allows. If at least one
///    flower was completed, that is the whole play.
/// 2. Otherwise one card: of the colors held, the one with the fewest petals in the garden;
///    ties to the color held most, then canonical order.
#[inline]
pub fn greedy_play(held: &[u8; COLORS], garden: &[u16; COLORS], petals: u32, max_play: u32) -> [u8; COLORS] {
    let mut play = [0u8; COLORS];
    let mut budget = max_play;
    let mut completed = false;
    for c in 0..COLORS {
        let k = garden[c] as u32;
        let mut h = held[c] as u32;
        if k + h >= petals {
            let need = petals - k;
            if need <= budget {
                play[c] += need as u8;
                budget -= need;
                h -= need;
                completed = true;
                let more = further_flowers(h, budget, petals);
                play[c] += more as u8;
                budget -= more;
            }
        }
    }
    if completed {
        return play;
    }
    let mut best = usize::MAX;
    for c in 0..COLORS {
        if held[c] == 0 {
            continue;
        }
        if best == usize::MAX || garden[c] < garden[best] || (garden[c] == garden[best] && held[c] > held[best]) {
            best = c;
        }
    }
    play[best] = 1;
    play
}

/// `greedy`: exactly [`greedy_play`], the cards of each color taken from the front of the
/// hand (shapes do not matter).
pub struct GreedyBot;

/// The `greedy` entry.
pub fn greedy_info() -> BotInfo<FlowerPower> {
    BotInfo {
        name: "greedy",
        // Reads the petals a flower needs and the most cards one play may hold.
        reads: &["petals", "max_play"],
        aliases: &[],
        doc: "completes flowers in canonical color order within max_play cards; otherwise plays one card of the held color with the fewest petals (ties: most held, then canonical order)",
        params: &[],
        build: |_, _| Box::new(GreedyBot),
        uniform: Some(|_, seats| Box::new(Uniform::new(seats.iter().map(|_| GreedyBot).collect()))),
    }
}

impl Bot<FlowerPower> for GreedyBot {
    fn name(&self) -> &str {
        "greedy"
    }

    /// `greedy` is deterministic (`greedy_never_draws`): a table of it needs no seat streams.
    fn draws(&self) -> bool {
        false
    }

    /// [`greedy_play`] with fast paths for the two common turns: nothing completes (the
    /// color with the least key (petals, then fewer held, then canonical order) among those
    /// held, its first card), and one color alone can complete (`one_color_completion`).
    #[inline(always)]
    fn decide(&mut self, game: &FlowerPower, view: &View<'_>, _rng: &mut GameRng) -> Action {
        let (completing, first) = single_card(view.hand, view.garden_word(), game.petals);
        if completing != 0 {
            return Action(completion_play(game, view.hand, view.garden_word(), completing));
        }
        Action(first)
    }
}

/// `greedy`'s play when some color can complete a flower (`completing`, bit c for color c,
/// not 0), `garden` the garden's word ([`super::rules::Garden::word`]):
/// [`one_color_completion`] when one color alone can, else [`greedy_play`] picked from the
/// hand. The positions played, as a mask.
#[inline(always)]
pub(super) fn completion_play(game: &FlowerPower, hand: &Hand, garden: u64, completing: u32) -> u16 {
    if let Some(mask) = one_color_completion(hand, completing, garden, game.petals, game.max_play as u32) {
        return mask;
    }
    let petals: [u16; COLORS] = std::array::from_fn(|c| ((garden >> (8 * c)) & 0xff) as u16);
    pick(hand, greedy_play(hand.colors(), &petals, game.petals, game.max_play as u32)).0
}

/// [`greedy_play`] and [`pick`] when `completing` (the colors whose petals plus the cards
/// held reach `petals`) names one color whose flower fits in `max_play` cards: its first
/// cards, for that flower and the further whole ones the budget allows. `None` for any other
/// hand (more than one color can complete, or the flower does not fit), which the plain
/// version plays.
#[inline(always)]
fn one_color_completion(hand: &Hand, completing: u32, garden: u64, petals: u32, max_play: u32) -> Option<u16> {
    if completing & completing.wrapping_sub(1) != 0 {
        return None;
    }
    let c = (completing.trailing_zeros() as usize).min(COLORS - 1);
    let need = petals - ((garden >> (8 * c)) & 0xff) as u32;
    if need > max_play {
        return None;
    }
    // `further_flowers` without its division in the usual case (no room for a second flower).
    let spare = (hand.color(c) - need).min(max_play - need);
    let cards = need + if spare >= petals { further_flowers(spare, spare, petals) } else { 0 };
    Some(hand.first_of_color(c, cards))
}

/// `greedy`'s two questions about a hand: which colors complete a flower (their petals in
/// the garden, `garden`'s first five bytes, plus the cards held reach `petals`; bit c for
/// color c), and the position (one bit) of the first card of the color a single-card play
/// takes: of the colors held, the fewest petals, ties to the most held, then canonical
/// order (0 when no color is held). On x86-64 the five colors at once
/// ([`greedy_turn_sse2`]); the tests compare it with a color-by-color loop.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn single_card(hand: &Hand, garden: u64, petals: u32) -> (u32, u16) {
    let turn = greedy_turn_sse2(hand.colors_word(), garden, petals, hand.slots());
    (turn.completing, turn.first)
}

/// [`single_card`] color by color (no SSE2 off x86-64).
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub fn single_card(hand: &Hand, garden: u64, petals: u32) -> (u32, u16) {
    let held = hand.colors();
    let mut completing = 0;
    let mut best_key = u32::MAX;
    let mut best = 0;
    for c in 0..COLORS {
        let h = held[c] as u32;
        let k = ((garden >> (8 * c)) & 0xff) as u32;
        completing |= u32::from(k + h >= petals) << c;
        let key = if h == 0 { u32::MAX } else { (k << 16) | ((255 - h) << 8) | c as u32 };
        if key < best_key {
            best_key = key;
            best = c;
        }
    }
    (completing, hand.first_of(best))
}

/// `greedy`'s turn as [`greedy_turn_sse2`] sees it.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub struct GreedyTurn {
    /// The colors whose petals plus the cards held reach `petals` (bit c for color c).
    pub completing: u32,
    /// The position (one bit) of the first card of the single-card play's color (0 when no
    /// color is held).
    pub first: u16,
}

/// [`single_card`] on the five colors at once, one 16-bit SSE2 lane per color (SSE2
/// is part of every x86-64 CPU), followed by the single-card play. `held` is the hand's color
/// counts as one word (byte c: color c, bytes 5..8 zero), `garden` the garden's word
/// ([`super::rules::Garden::word`], the same layout; both widened to 16-bit lanes), `slots` the hand's 16 slots
/// ([`Hand::slots`]). A color's key is petals << 8 | (31 - held) << 3 | color, or 0xffff
/// when it is not held: a flower has fewer than 200 petals (at most 40 base sets) and a hand
/// holds at most 16 cards, so every key is a 16-bit number below 0xffff, and the least key
/// is the color wanted, its number in the low 3 bits. SSE2's 16-bit minimum is signed, so
/// the keys are compared with their top bit flipped. The color never leaves the vector
/// registers: the cards of color c are 5c to 5c + 4, found by one range test of the slots,
/// and the lane holding the least key gains the petal. The garden's part of the key is one
/// shift and one OR from the hand's part, so that a table's chain of turns through the
/// garden is short.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn greedy_turn_sse2(held: u64, garden: u64, petals: u32, slots: &[Card; MAX_HAND]) -> GreedyTurn {
    let g = V128::from_u64(garden).unpack_low8(V128::zero());
    let h = V128::from_u64(held).unpack_low8(V128::zero());
    let completing = g.add16(h).gt16(V128::splat16((petals as u16).wrapping_sub(1)));
    // One bit per color: the 16-bit lanes (0 or -1) packed to bytes.
    let completing = completing.pack_i16_to_i8(V128::zero()).mask8();
    // The hand's part of the key (below 0x100), top bit flipped: the garden's part (the
    // petals << 8, low byte 0) joins it by one XOR. A color not held then takes the
    // largest key, 0x7fff, by a maximum with a floor that leaves the held ones alone.
    let colors = V128::from_u16s([0, 1, 2, 3, 4, 5, 6, 7]);
    let absent = h.eq16(V128::zero());
    let top_bit = V128::splat16(0x8000);
    let hand_key = V128::splat16(31).sub16(h).shl16::<3>().or(colors).xor(top_bit);
    let floor = absent.xor(top_bit);
    let key = g.shl16::<8>().xor(hand_key).max_i16(floor);
    let mut m = key.min_i16(key.shuffle32::<0b01_00_11_10>());
    m = m.min_i16(m.shuffle32::<0b10_11_00_01>());
    m = m.min_i16(m.shuffle_low16::<0b10_11_00_01>());
    // Lanes 0 and 1 hold the least key; every lane gets it. Keys differ by color, so
    // exactly one lane equals it when a color is held: that lane gains the petal.
    let least = m.shuffle32::<0>();
    // The color c (the low 3 bits, untouched by the flipped top bit) becomes 5c in every
    // byte. No color held: c = 7, and no card is 35 to 39.
    let c = least.and(V128::splat16(7));
    let first_card = c.shl16::<2>().add16(c);
    let first_card = first_card.pack_i16_to_u8(first_card);
    // A card x is of color c when x - 5c, as an unsigned byte, is at most 4.
    let d = V128::load(slots).sub8(first_card);
    let in_color = d.min_u8(V128::splat8(4)).eq8(d).mask8();
    // The slots past the length come after every card held, so the lowest slot of a held
    // color is a card held.
    GreedyTurn { completing, first: (in_color & in_color.wrapping_neg()) as u16 }
}

/// `cautious`: (1) completes as many flowers as `max_play` allows, cheapest first (a
/// flower's last petals before a second flower of the same color), colors in canonical
/// order on ties; (2) otherwise plays one card, of the held color whose extra petal raises
/// least the chance that the next seat to play can take that flower, the later opponents
/// weighted by `lookahead`; ties to the color it holds fewest of, then the fewest petals,
/// then canonical order.
///
/// An opponent's hand is estimated from what the table shows: its cards of a color are
/// drawn from the unseen cards (the pile and the other hands, known by color since every
/// played card is public), and bounded by what its plays reveal: a seat that could have
/// taken a flower within its budget and did not holds fewer cards of that color than the
/// flower needed (as `greedy` and `cautious` play), until it draws again.
pub struct CautiousBot {
    /// Weight of the seats after the next one (0: only the next seat counts).
    lookahead: f64,
    seat: usize,
    petals: u32,
    max_play: u32,
    /// The garden as the events showed it.
    garden: [u32; COLORS],
    /// Most cards of each color each seat can hold now.
    bound: [[u8; COLORS]; MAX_PLAYERS],
}

const CAUTIOUS_PARAMS: &[BotParamInfo] = &[BotParamInfo {
    name: "lookahead",
    default: 0.5,
    min: 0.0,
    max: 1.0,
    doc: "weight of the later opponents' chance to take a flower, relative to the next seat's",
}];

/// The `cautious` entry.
pub fn cautious_info() -> BotInfo<FlowerPower> {
    BotInfo {
        name: "cautious",
        // Reads as `greedy`, plus the hand size and the deck's copies (cards left for the next player).
        reads: &["petals", "max_play", "hand_size", "deck.*"],
        aliases: &[],
        doc: "completes as many flowers as max_play allows; otherwise lays the one petal least likely to let the next seats take a flower (hands estimated from the unseen cards and what their plays revealed)",
        params: CAUTIOUS_PARAMS,
        build: |_, v| Box::new(CautiousBot::new(v[0])),
        uniform: Some(|_, seats| Box::new(Uniform::new(seats.iter().map(|v| CautiousBot::new(v[0])).collect()))),
    }
}

/// Most cards one distribution below covers (a hand holds at most 16).
const SPAN: usize = MAX_HAND + 1;

/// `out[x]` = P(x cards of one kind among `draws` cards drawn without replacement from
/// `pool` cards of which `kind` are of that kind), x = 0..=16.
#[inline]
fn hypergeometric(draws: u32, kind: u32, pool: u32, out: &mut [f64; SPAN]) {
    *out = [0.0; SPAN];
    out[0] = 1.0;
    let draws = draws.min(pool).min(MAX_HAND as u32);
    for i in 0..draws {
        let left = (pool - i) as f64;
        for x in (0..=i as usize).rev() {
            let p = out[x];
            if p == 0.0 {
                continue;
            }
            let hit = (kind as f64 - x as f64).max(0.0) / left;
            out[x] = p * (1.0 - hit);
            out[x + 1] += p * hit;
        }
    }
}

/// Slots of a [`DrawMemo`] (a power of two).
const MEMO_SLOTS: usize = 1024;

/// One remembered distribution: [`hypergeometric`]'s `out` for a `key` (draws, kind, pool)
/// and its running sums.
#[derive(Clone)]
struct Drawn {
    key: (u32, u32, u32),
    /// P(x cards of the kind), x = 0..=16.
    at: [f64; SPAN],
    /// `below[m]` = P(fewer than m cards of the kind): `at[..m]` summed in order, so each
    /// is the very number a sum of the first m values gives.
    below: [f64; SPAN + 1],
}

/// The hypergeometric distributions `cautious` has computed, by (draws, kind, pool): its
/// estimates at one decision read a few of them, and the next decisions mostly the same
/// ones again (the pool shrinks by a few cards a turn). Each is a function of its key
/// alone, so a remembered one is the number it would compute. Direct-mapped: a key has
/// one slot, a newer key takes it. Empty until the first estimate (a thread that never
/// needs one allocates nothing).
#[derive(Clone, Default)]
struct DrawMemo {
    slots: Vec<Drawn>,
    /// The two chances [`take_chances`] gives an opponent for one color, remembered by
    /// everything they are computed from (direct-mapped as `slots`; empty until first
    /// asked): a search's rollouts ask for the same ones again and again.
    taken: Vec<Taken>,
}

/// Slots of a [`DrawMemo`]'s remembered take chances (a power of two).
const TAKEN_SLOTS: usize = 2048;

/// One remembered pair of take chances: (after, before) for a key (max_play, need, hand
/// size, draws, bound, cards of the color unseen, unseen cards).
#[derive(Clone, Copy)]
struct Taken {
    key: [u32; 7],
    chances: (f64, f64),
}

thread_local! {
    /// The distributions every `cautious` bot on this thread has computed: the bots of a
    /// table, and a search's opponent models, ask for the same ones. A cache only: which
    /// bot or thread computed a number changes nothing.
    static SEEN_DRAWS: RefCell<DrawMemo> = RefCell::new(DrawMemo::default());
}

impl DrawMemo {
    /// The distribution of `kind`-cards among `draws` cards drawn from `pool`, computed
    /// unless remembered.
    #[inline]
    fn get(&mut self, draws: u32, kind: u32, pool: u32) -> &Drawn {
        if self.slots.is_empty() {
            let empty = Drawn { key: (u32::MAX, 0, 0), at: [0.0; SPAN], below: [0.0; SPAN + 1] };
            self.slots = vec![empty; MEMO_SLOTS];
        }
        // One decision's keys (one pool, kinds up to 10 and draws up to 7 in the usual
        // decks) fall in distinct slots; the next pools in slots 89 further on each.
        let i = ((kind as usize) * 8 + draws as usize + (pool as usize) * 89) & (MEMO_SLOTS - 1);
        let slot = &mut self.slots[i];
        if slot.key != (draws, kind, pool) {
            slot.key = (draws, kind, pool);
            hypergeometric(draws, kind, pool, &mut slot.at);
            let mut sum = 0.0;
            for (m, &p) in slot.at.iter().enumerate() {
                slot.below[m] = sum;
                sum += p;
            }
            slot.below[SPAN] = sum;
        }
        slot
    }

    /// [`take_chances`] for an opponent holding `size` cards and drawing `draws`, with at
    /// most `bound` of a color of which `kind` of the `pool` unseen cards are, needing
    /// `need` petals: from [`kept_chances`] and the drawn cards' running sums, computed
    /// unless remembered (a function of its key alone, so a remembered pair is the very
    /// pair it would compute).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn take(&mut self, max_play: u32, need: u32, size: u32, draws: u32, bound: u8, kind: u32, pool: u32) -> (f64, f64) {
        if self.taken.is_empty() {
            self.taken = vec![Taken { key: [u32::MAX; 7], chances: (0.0, 0.0) }; TAKEN_SLOTS];
        }
        let key = [max_play, need, size, draws, bound as u32, kind, pool];
        let i = (kind as usize * 8 + need as usize + (size as usize) * 64 + (draws as usize) * 256 + (bound as usize) * 512 + (pool as usize) * 89)
            & (TAKEN_SLOTS - 1);
        if self.taken[i].key == key {
            return self.taken[i].chances;
        }
        let kept = kept_chances(self, bound, size, kind, pool, need);
        let drawn = &self.get(draws, kind, pool).below;
        let chances = take_chances(max_play, need, (size as usize).min(bound as usize) + 1, &kept, drawn);
        self.taken[i] = Taken { key, chances };
        chances
    }
}

impl OwnBots for FlowerPower {
    fn bots(&self) -> Vec<BotInfo<Self>> {
        vec![greedy_info(), cautious_info()]
    }
}

/// P(X >= need) for X the cards of one kind among `draws` cards drawn without replacement
/// from `pool` cards of which `kind` are of that kind (the tests check the distribution
/// `cautious` uses through it).
#[cfg(test)]
pub fn at_least(need: u32, draws: u32, kind: u32, pool: u32) -> f64 {
    if need == 0 {
        return 1.0;
    }
    if kind < need || draws < need || pool == 0 {
        return 0.0;
    }
    let mut d = [0.0; SPAN];
    hypergeometric(draws, kind, pool, &mut d);
    d[(need as usize).min(SPAN)..].iter().sum()
}

/// [`CautiousBot`]'s chances that an opponent can take the flower of one color on its turn
/// when it needs `need - 1` more petals (after one more is laid) and when it needs `need`
/// (0 past `max_play`; `need - 1` is within it), from the chances of its kept cards of that
/// color (`kept`, the first `need` read) and the running sums of the cards it will draw
/// (`drawn_below`, [`Drawn::below`]): 1 - the sum over y < need of P(y kept) P(fewer than
/// need - y drawn), each sum taken in order of y.
/// `kept` is 0 from `nonzero` on (more than the hand size or the bound): those terms are
/// skipped as the zeros they are.
#[inline]
fn take_chances(max_play: u32, need: u32, nonzero: usize, kept: &[f64; MAX_HAND], drawn_below: &[f64; SPAN + 1]) -> (f64, f64) {
    let need = need as usize;
    let (mut below_after, mut below_before) = (0.0, 0.0);
    for (y, &py) in kept.iter().enumerate().take(need.min(nonzero)) {
        if py == 0.0 {
            continue;
        }
        if y + 1 < need {
            below_after += py * drawn_below[need - 1 - y];
        }
        below_before += py * drawn_below[need - y];
    }
    let before = if need as u32 > max_play { 0.0 } else { (1.0 - below_before).max(0.0) };
    ((1.0 - below_after).max(0.0), before)
}

/// The chances of an opponent's kept cards of one color, 0 to `need - 1` of them (it
/// holds `size` cards drawn from `pool` unseen ones of which `kind` are of that color),
/// bounded by what its plays revealed: at most `bound` cards of it, the chances
/// renormalized (all on the bound when nothing is left below it).
#[inline]
fn kept_chances(memo: &mut DrawMemo, bound: u8, size: u32, kind: u32, pool: u32, need: u32) -> [f64; MAX_HAND] {
    let bound = bound as usize;
    let drawn = memo.get(size, kind, pool);
    let mut kept = [0.0; MAX_HAND];
    let need = (need as usize).min(MAX_HAND);
    if bound >= SPAN - 1 {
        kept[..need].copy_from_slice(&drawn.at[..need]);
        return kept;
    }
    let total = drawn.below[bound + 1];
    if total <= 0.0 {
        let at = bound.min(size as usize);
        if at < need {
            kept[at] = 1.0;
        }
        return kept;
    }
    for (p, &x) in kept.iter_mut().zip(&drawn.at).take(need.min(bound + 1).min(size as usize + 1)) {
        *p = x / total;
    }
    kept
}

impl CautiousBot {
    /// A cautious bot with the given weight of later opponents.
    pub fn new(lookahead: f64) -> Self {
        CautiousBot { lookahead, seat: 0, petals: 5, max_play: 5, garden: [0; COLORS], bound: [[0; COLORS]; MAX_PLAYERS] }
    }

    /// The most flowers within the budget, cheapest first: cards per color.
    pub fn completions(held: &[u8; COLORS], garden: &[u16; COLORS], petals: u32, max_play: u32) -> [u8; COLORS] {
        let mut play = [0u8; COLORS];
        let mut budget = max_play;
        // First flowers of each color by cost (petals - k), canonical order on ties.
        let mut firsts = [(0u32, 0usize); COLORS];
        let mut n = 0;
        for c in 0..COLORS {
            let k = garden[c] as u32;
            if k + held[c] as u32 >= petals {
                firsts[n] = (petals - k, c);
                n += 1;
            }
        }
        firsts[..n].sort_unstable();
        for &(cost, c) in &firsts[..n] {
            if cost <= budget {
                play[c] += cost as u8;
                budget -= cost;
            }
        }
        // Further flowers cost `petals` each.
        for c in 0..COLORS {
            if play[c] == 0 {
                continue;
            }
            let more = further_flowers(held[c] as u32 - play[c] as u32, budget, petals);
            play[c] += more as u8;
            budget -= more;
        }
        play
    }

    /// P(an opponent can take the flower of one color needing `need` more petals on its
    /// turn), given the distribution of its kept cards of that color (`kept`) and of the
    /// cards it will draw (`drawn`).
    #[cfg(test)]
    fn can_take(&self, need: u32, kept: &[f64; SPAN], drawn: &[f64; SPAN]) -> f64 {
        if need > self.max_play {
            return 0.0;
        }
        let need = need as usize;
        let mut below = 0.0;
        for (y, &py) in kept.iter().enumerate().take(need) {
            if py == 0.0 {
                continue;
            }
            let z_below: f64 = drawn[..need - y].iter().sum();
            below += py * z_below;
        }
        (1.0 - below).max(0.0)
    }

    /// [`CautiousBot::risks`] as first written: every distribution computed afresh and
    /// summed in full (the tests compare the two, number for number).
    #[cfg(test)]
    pub(super) fn risks_by_definition(&self, game: &FlowerPower, view: &View) -> [f64; COLORS] {
        let held = view.hand.colors();
        let garden = view.garden();
        let petals = game.petals;
        let (unseen, pool) = unseen_by_color(game, view);
        let n = game.players;
        let pile = view.pile() as u32;
        let mut risk = [0.0f64; COLORS];
        let mut weight = 1.0;
        let mut kept = [0.0; SPAN];
        let mut drawn = [0.0; SPAN];
        for step in 1..n {
            let o = (view.seat + step) % n;
            let size = view.hand_size_of(o) as u32;
            let draws = (game.hand_size as u32).saturating_sub(size).min(pile);
            if size + draws == 0 {
                continue;
            }
            for c in 0..COLORS {
                if held[c] == 0 {
                    continue;
                }
                hypergeometric(size, unseen[c], pool, &mut kept);
                // What its plays revealed: at most `bound` cards of this color.
                let bound = self.bound[o][c] as usize;
                if bound < SPAN - 1 {
                    let total: f64 = kept[..=bound].iter().sum();
                    for (x, p) in kept.iter_mut().enumerate() {
                        *p = if x > bound || total <= 0.0 { 0.0 } else { *p / total };
                    }
                    if total <= 0.0 {
                        kept[bound.min(size as usize)] = 1.0;
                    }
                }
                hypergeometric(draws, unseen[c], pool, &mut drawn);
                let k = garden[c] as u32;
                let after = self.can_take(petals - k - 1, &kept, &drawn);
                let before = self.can_take(petals - k, &kept, &drawn);
                risk[c] += weight * (after - before);
            }
            weight = self.lookahead;
        }
        risk
    }

    /// For each color held, how much one more petal of it raises the chance that the next
    /// seats can take its flower (the next seat weighted 1, the later ones `lookahead`);
    /// 0 for colors not held. [`CautiousBot::risks_by_definition`], with the distributions
    /// remembered ([`DrawMemo`]) and only the kept cards' chances that matter normalized.
    pub(super) fn risks(&self, game: &FlowerPower, view: &View) -> [f64; COLORS] {
        let (unseen, pool) = unseen_by_color(game, view);
        SEEN_DRAWS.with_borrow_mut(|memo| self.risks_from(game, view, memo, unseen, pool))
    }

    /// [`CautiousBot::risks`] reading the distributions from `memo`, with the unseen cards
    /// by color and in all.
    fn risks_from(&self, game: &FlowerPower, view: &View, memo: &mut DrawMemo, unseen: [u32; COLORS], pool: u32) -> [f64; COLORS] {
        let held = view.hand.colors();
        let garden = view.garden();
        let petals = game.petals;
        let n = game.players;
        let pile = view.pile() as u32;
        let mut risk = [0.0f64; COLORS];
        let mut weight = 1.0;
        // Per color, the last opponent's (hand size, bound) and its two chances: a later
        // opponent with the same ones has the same chances.
        let mut last = [(u32::MAX, 0u8, 0.0, 0.0); COLORS];
        for step in 1..n {
            let o = (view.seat + step) % n;
            let size = view.hand_size_of(o) as u32;
            let draws = (game.hand_size as u32).saturating_sub(size).min(pile);
            if size + draws == 0 {
                continue;
            }
            for c in 0..COLORS {
                let need = petals - garden[c] as u32;
                // A flower more than `max_play` petals short either way: both chances are
                // 0, and adding 0 leaves the risk as it is.
                if held[c] == 0 || need - 1 > self.max_play {
                    continue;
                }
                let bound = self.bound[o][c];
                let (after, before) = if last[c].0 == size && last[c].1 == bound {
                    (last[c].2, last[c].3)
                } else {
                    memo.take(self.max_play, need, size, draws, bound, unseen[c], pool)
                };
                last[c] = (size, bound, after, before);
                risk[c] += weight * (after - before);
            }
            weight = self.lookahead;
        }
        risk
    }

    fn safest_card(&mut self, game: &FlowerPower, view: &View) -> usize {
        let held = view.hand.colors();
        let garden = view.garden();
        let risk = self.risks(game, view);
        let mut best = usize::MAX;
        for c in 0..COLORS {
            if held[c] == 0 {
                continue;
            }
            let better = if best == usize::MAX {
                true
            } else if (risk[c] - risk[best]).abs() > 1e-12 {
                risk[c] < risk[best]
            } else if held[c] != held[best] {
                held[c] < held[best]
            } else {
                garden[c] < garden[best]
            };
            if better {
                best = c;
            }
        }
        best
    }
}

impl Bot<FlowerPower> for CautiousBot {
    fn name(&self) -> &str {
        "cautious"
    }

    fn new_game(&mut self, game: &FlowerPower, seat: usize) {
        self.seat = seat;
        self.petals = game.petals;
        self.max_play = game.max_play as u32;
        self.garden = [0; COLORS];
        self.bound = [[0; COLORS]; MAX_PLAYERS];
    }

    fn decide(&mut self, game: &FlowerPower, view: &View<'_>, _rng: &mut GameRng) -> Action {
        let held = view.hand.colors();
        let play = Self::completions(held, &view.garden(), game.petals, game.max_play as u32);
        if play.iter().any(|&p| p > 0) {
            return pick(view.hand, play);
        }
        let mut one = [0u8; COLORS];
        one[self.safest_card(game, view)] = 1;
        pick(view.hand, one)
    }

    fn listens(&self) -> bool {
        true
    }

    fn observe(&mut self, _seat: usize, event: &Event) {
        match event {
            Event::TurnStarts { seat, drew, .. } => {
                for b in self.bound[*seat as usize].iter_mut() {
                    *b = b.saturating_add(*drew).min(MAX_HAND as u8);
                }
            }
            Event::Played { seat, cards } => {
                let seat = *seat as usize;
                let mut played = [0u32; COLORS];
                for &card in cards {
                    played[color_of(card)] += 1;
                }
                let total = cards.len() as u32;
                let completed = (0..COLORS).any(|c| self.garden[c] + played[c] >= self.petals);
                let budget = if completed { self.max_play.saturating_sub(total) } else { self.max_play };
                for ((k, &m), b) in self.garden.iter_mut().zip(&played).zip(&mut self.bound[seat]) {
                    let need = self.petals - *k;
                    let taken = *k + m >= self.petals;
                    if seat != self.seat && !taken && need <= budget {
                        *b = (*b).min((need - 1).min(u8::MAX as u32) as u8);
                    }
                    *b = b.saturating_sub(m as u8);
                    *k = (*k + m) % self.petals;
                }
            }
            _ => {}
        }
    }
}

/// The cards a seat has not seen, by color and in all: not played (flowers and the garden),
/// not in its hand. What `cautious` draws its opponents' hands from.
fn unseen_by_color(game: &FlowerPower, view: &View) -> ([u32; COLORS], u32) {
    let held = view.hand.colors();
    let garden = view.garden();
    let per_color = game.params.per_color();
    let mut unseen = [0u32; COLORS];
    let mut pool = 0;
    for c in 0..COLORS {
        let played = view.flowers_by_color()[c] * game.petals + garden[c] as u32;
        unseen[c] = per_color - played - held[c] as u32;
        pool += unseen[c];
    }
    (unseen, pool)
}
