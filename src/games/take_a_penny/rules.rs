//! Take a Penny's table state and the rules that change it: the secret choices of a round,
//! legality at selection, the six resolution steps, the end of the game and the victory
//! conditions. The resolution is a pure function ([`resolve`]) shared with the exact solver,
//! so the simulator and the Markov chain cannot disagree about a rule.
#![allow(clippy::needless_range_loop)] // seat and card loops index several arrays at once

use super::params::{MAX_CARDS, Setup};
use super::{Action, Choice, Event, PennyMetrics, TakeAPenny, View};
use crate::engine::{EventLog, Game, GameInfo, GameRng, Outcome, ToMove, rng::below};

/// Spot ids (the places on the action card). `take_from(c)` is spot `SPOT_TAKE_FROM + c`.
pub const SPOT_TAKE1_BLOCK: u8 = 0;
/// `take2`.
pub const SPOT_TAKE2: u8 = 1;
/// `return1`.
pub const SPOT_RETURN1: u8 = 2;
/// `block_self`.
pub const SPOT_BLOCK_SELF: u8 = 3;
/// `take_from(red)`; the other colors follow.
pub const SPOT_TAKE_FROM: u8 = 4;
/// `give`, whatever its target: one spot.
pub const SPOT_GIVE: u8 = 8;
/// Number of spot ids.
pub const SPOTS: usize = 9;
/// "No spot yet" (before the first round).
pub const NO_SPOT: u8 = u8::MAX;

/// End reason: the pot was empty after a round.
pub const END_POT_EMPTY: u8 = 0;
/// End reason: the turn cap was reached.
pub const END_CAP: u8 = 1;
/// End reason names for reports and JSON.
pub const END_REASONS: &[&str] = &["pot_empty", "cap"];

/// What one chosen action did in its resolution step (for traces and the spot chart).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Effect {
    /// The action did all it says (block_self: it stopped at least one take or give).
    #[default]
    Done,
    /// `take2` got 1 penny instead of 2 (split rule).
    Partial,
    /// Stopped by a block: the pot blocked (`take1_block` chosen by two or more, or by
    /// another player) or the target's `block_self`.
    Blocked,
    /// Not enough pennies: the split rule gave nothing, or a giver held none at step 6.
    Short,
    /// `block_self` that stopped nobody.
    Idle,
}

/// The round just resolved: for metrics and the no-repeat check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundRecord {
    /// Each player's action (unused seats `BlockSelf`).
    pub actions: [Action; MAX_CARDS],
    /// Each player's spot in the round before it ([`NO_SPOT`] in round 1).
    pub previous: [u8; MAX_CARDS],
    /// The bank cards before the round.
    pub pennies: [u32; MAX_CARDS],
    /// The pot before the round.
    pub pot: u32,
}

impl RoundRecord {
    /// What each action did and the pennies it moved (resolves the round again from its
    /// starting table: the hot path does not keep this).
    pub fn effects(&self, players: usize) -> Resolution {
        let mut p = self.pennies;
        let mut pot = self.pot;
        resolve(players, &mut p, &mut pot, &self.actions)
    }
}

/// The whole table. Bots never see it, only a [`super::View`], which leaves out the
/// choices already made this round.
///
/// Per-seat data lives in the 16-bit lanes of a `u64`, lane `seat` in bits `16 * seat ..
/// 16 * seat + 16`, so a round resolves and every legal mask is rebuilt for all seats at
/// once (see [`resolve_lanes`], [`legal_lanes`]). A choice is kept as the bit
/// [`Action::code`] of its seat's lane (no bit: no choice).
#[derive(Clone, Debug)]
pub struct State {
    /// Pennies on each bank card, one lane per card (dummy included; unused lanes 0); see
    /// [`State::pennies`].
    table: u64,
    /// Pennies in the pot.
    pub pot: u32,
    /// Every player's choice in the last resolved round, one bit per lane (none before
    /// round 1); public once revealed, see [`State::last`].
    revealed: u64,
    /// This round's secret choices of seats `0..next`, one bit per lane (hidden from every
    /// view).
    chosen: u64,
    /// Each player's legal actions this round, its [`legal_mask`] (computed once per round
    /// for all seats as lanes by [`legal_lanes`]: the table does not change while the
    /// choices are made), one entry per seat so a decision reads its own with one load.
    legal: [u16; MAX_CARDS],
    /// The seat to choose next this round.
    pub next: u8,
    /// Rounds resolved so far (the game length).
    pub round: u32,
    /// Whether the game has ended.
    pub over: bool,
    /// Index into [`END_REASONS`] once over.
    pub end_reason: u8,
    /// The bank cards before the last resolved round (for [`State::record`]).
    before: u64,
    /// The pot before the last resolved round.
    before_pot: u32,
    /// The choices of the round before the last one, as in `revealed`.
    previous: u64,
}

impl State {
    /// Pennies on each bank card (dummy included; unused entries 0).
    #[inline]
    pub fn pennies(&self) -> [u32; MAX_CARDS] {
        unpack(self.table)
    }

    /// Every player's spot in the last resolved round ([`NO_SPOT`] before round 1 and for
    /// the dummy).
    #[inline]
    pub fn last(&self) -> [u8; MAX_CARDS] {
        std::array::from_fn(|seat| spot_of_lane(lane(self.revealed, seat)))
    }

    /// `seat`'s legal actions this round as a [`legal_mask`].
    #[inline(always)]
    pub fn legal_mask(&self, seat: usize) -> u16 {
        // Seats are below MAX_CARDS (4): the mask only spares the bounds check.
        self.legal[seat % MAX_CARDS]
    }

    /// One of `seat`'s legal actions this round drawn uniformly (see [`random_action`];
    /// [`draw_ranked`] draws the same action for the same random number).
    #[inline(always)]
    pub fn random_choice(&self, seat: usize, rng: &mut GameRng) -> Choice {
        draw_ranked(self.legal[seat % MAX_CARDS], rng)
    }

    /// Sets every seat's legal actions from their lanes (see [`legal_lanes`]).
    #[inline(always)]
    fn set_legal(&mut self, lanes: u64) {
        self.legal = split_lanes(lanes);
    }

    /// Replaces the secret choices already made this round by seats other than `seat`
    /// with uniformly random legal ones: what `seat` may assume of choices it cannot see
    /// (a determinization, see [`super::TakeAPenny`]'s `determinize`).
    pub fn resample_hidden_choices(&mut self, seat: usize, rng: &mut GameRng) {
        for other in 0..self.next as usize {
            if other != seat {
                let choice = self.random_choice(other, rng);
                self.chosen = (self.chosen & !(0xFFFFu64 << (16 * other))) | choice_bit(other, choice.code());
            }
        }
    }

    /// `seat`'s secret choice this round, if it has made one (its own, or hidden from others).
    pub fn chosen_by(&self, seat: usize) -> Option<Choice> {
        let l = lane(self.chosen, seat);
        (l != 0).then(|| Choice::from_code(l.trailing_zeros() as u8))
    }

    /// The last resolved round (meaningful when `round > 0`), rebuilt from what the state
    /// keeps: the hot path does not copy it every round.
    pub fn record(&self) -> RoundRecord {
        RoundRecord {
            actions: std::array::from_fn(|seat| action_of_lane(lane(self.revealed, seat))),
            previous: std::array::from_fn(|seat| spot_of_lane(lane(self.previous, seat))),
            pennies: unpack(self.before),
            pot: self.before_pot,
        }
    }
}

/// The step of the round's resolution (1 to 6, docs/games/take-a-penny.md) at which `action`
/// takes effect.
fn resolution_step(action: Action) -> u8 {
    match action {
        Action::Take1Block => 1,
        Action::Take2 => 2,
        Action::Return1 => 3,
        Action::BlockSelf => 4,
        Action::TakeFrom(_) => 5,
        Action::Give(_) => 6,
    }
}

/// Lane `index` (16 bits) of `lanes`.
#[inline(always)]
fn lane(lanes: u64, index: usize) -> u64 {
    lanes.wrapping_shr(16 * index as u32) & 0xFFFF
}

/// The four 16-bit lanes of `lanes`, lane `i` at index `i`.
#[inline(always)]
fn split_lanes(lanes: u64) -> [u16; MAX_CARDS] {
    const { assert!(MAX_CARDS == 4, "four 16-bit lanes in a u64") };
    [lanes as u16, (lanes >> 16) as u16, (lanes >> 32) as u16, (lanes >> 48) as u16]
}

/// Bank cards as lanes (each at most [`super::params::MAX_PENNIES`], far below a lane's
/// 0x8000).
#[inline]
pub fn pack(pennies: [u32; MAX_CARDS]) -> u64 {
    pennies.iter().enumerate().fold(0, |t, (c, &v)| {
        debug_assert!(v < 0x8000, "a bank card's pennies fit a lane");
        t | (v as u64) << (16 * c)
    })
}

/// Bank cards from lanes.
#[inline]
pub fn unpack(table: u64) -> [u32; MAX_CARDS] {
    std::array::from_fn(|c| lane(table, c) as u32)
}

/// The choices of seats `0..players` as lanes (bit [`Action::code`] in each seat's lane).
#[inline]
pub fn choice_lanes(players: usize, actions: &[Action; MAX_CARDS]) -> u64 {
    actions.iter().take(players).enumerate().fold(0, |m, (seat, a)| m | choice_bit(seat, a.code()))
}

/// `seat`'s choice of the action with code `code` as a bit of its lane.
#[inline(always)]
fn choice_bit(seat: usize, code: u8) -> u64 {
    1u64.wrapping_shl(16 * seat as u32 + code as u32)
}

/// The action of a choice lane (a lane without a choice reads `BlockSelf`, as the unused
/// seats of a [`RoundRecord`]).
fn action_of_lane(lane: u64) -> Action {
    if lane == 0 { Action::BlockSelf } else { Action::from_code(lane.trailing_zeros() as u8) }
}

/// The spot of a choice lane ([`NO_SPOT`] without a choice).
fn spot_of_lane(lane: u64) -> u8 {
    if lane == 0 { NO_SPOT } else { (lane.trailing_zeros() as u8).min(SPOT_GIVE) }
}

/// The spot an action occupies on the action card.
#[inline]
pub fn spot(a: Action) -> u8 {
    match a {
        Action::Take1Block => SPOT_TAKE1_BLOCK,
        Action::Take2 => SPOT_TAKE2,
        Action::Return1 => SPOT_RETURN1,
        Action::BlockSelf => SPOT_BLOCK_SELF,
        Action::TakeFrom(c) => SPOT_TAKE_FROM + c,
        Action::Give(_) => SPOT_GIVE,
    }
}

/// Whether `seat` may select `a` with the table as it is: legality at selection plus the
/// no-repeat rule (`last` = the seat's spot of the previous round).
#[inline]
pub fn legal(setup: &Setup, pennies: &[u32; MAX_CARDS], pot: u32, seat: usize, last: u8, a: Action) -> bool {
    if spot(a) == last {
        return false;
    }
    let own = pennies[seat];
    match a {
        Action::Take1Block | Action::Take2 => pot >= 1,
        Action::Return1 => own >= 1,
        Action::BlockSelf => true,
        Action::TakeFrom(c) => (c as usize) < setup.cards && c as usize != seat && pennies[c as usize] >= 1,
        Action::Give(c) => (c as usize) < setup.cards && c as usize != seat && own >= 1,
    }
}

/// Every legal action of `seat` as a bit mask over [`Action::code`]s (bit `code` set when
/// legal), built without data-dependent branches (random play makes them unpredictable).
/// Code order is the listing order of [`legal_actions`]: take1_block, take2, return1,
/// block_self, take_from by color, give by color.
#[inline]
pub fn legal_mask(setup: &Setup, pennies: &[u32; MAX_CARDS], pot: u32, seat: usize, last: u8) -> u16 {
    let own = (pennies[seat] >= 1) as u16;
    let pot = (pot >= 1) as u16;
    let cards = (1u16 << setup.cards) - 1;
    let others = cards & !(1u16 << seat);
    let mut holding = 0u16;
    for c in 0..MAX_CARDS {
        holding |= ((pennies[c] >= 1) as u16) << c;
    }
    let mut mask = pot | pot << 1 | own << 2 | 1 << 3;
    mask |= (others & holding) << SPOT_TAKE_FROM;
    mask |= (others * own) << SPOT_GIVE;
    // The no-repeat rule: the previous spot (give is one spot for every target).
    let repeat = if last == SPOT_GIVE { 0xF << SPOT_GIVE } else { 1u16.checked_shl(last as u32).unwrap_or(0) };
    mask & !repeat
}

/// Appends every legal action of `seat` in code order (see [`legal_mask`]).
#[inline]
pub fn legal_actions(setup: &Setup, pennies: &[u32; MAX_CARDS], pot: u32, seat: usize, last: u8, out: &mut Vec<Action>) {
    let mut mask = legal_mask(setup, pennies, pot, seat, last);
    while mask != 0 {
        out.push(Action::from_code(mask.trailing_zeros() as u8));
        mask &= mask - 1;
    }
}

/// Appends the choices of a [`legal_mask`] in code order.
#[inline]
pub fn push_choices(mut mask: u16, out: &mut Vec<Choice>) {
    while mask != 0 {
        out.push(Choice::from_code(mask.trailing_zeros() as u8));
        mask &= mask - 1;
    }
}

/// `NIBBLE_NTH[n][j]`: position of the `j`-th set bit of nibble `n` (0 where it has none).
const NIBBLE_NTH: [[u8; 4]; 16] = {
    let mut t = [[0u8; 4]; 16];
    let mut n = 0;
    while n < 16 {
        let (mut j, mut bit) = (0, 0);
        while bit < 4 {
            if n >> bit & 1 == 1 {
                t[n][j] = bit as u8;
                j += 1;
            }
            bit += 1;
        }
        n += 1;
    }
    t
};

/// For lanes of [`legal_mask`]s (12 bits each), the running counts of legal actions the
/// sampler needs, per lane: bits 0-3 the legal codes below 4, bits 4-7 below 8, bits 8-11
/// all of them. A SWAR population count per nibble, then prefix sums (no carries: at most
/// 12).
#[inline(always)]
pub fn running_counts(masks: u64) -> u64 {
    let pairs = masks - ((masks >> 1) & (0x5555 * LANES));
    let nibbles = (pairs & (0x3333 * LANES)) + ((pairs >> 2) & (0x3333 * LANES));
    nibbles + ((nibbles << 4) & (0x0FF0 * LANES)) + ((nibbles << 8) & (0x0F00 * LANES))
}

/// One action of a [`legal_mask`] drawn uniformly: the `k`-th set bit for a uniform `k`,
/// the same distribution (and, for the same random number, the same action) as picking
/// from [`legal_actions`].
#[inline]
pub fn random_action(mask: u16, rng: &mut GameRng) -> Choice {
    draw(mask, running_counts(mask as u64) as u16, rng)
}

/// [`random_action`] with the mask's [`running_counts`] already known (the state keeps them
/// for every seat). The bit is found by arithmetic and one table look-up, so random play
/// causes no mispredicted branches.
#[inline(always)]
pub fn draw(mask: u16, counts: u16, rng: &mut GameRng) -> Choice {
    let (mask, counts) = (mask as u32, counts as u32);
    debug_assert!(counts >> 8 > 0, "some spot is always legal while the pot holds a penny");
    let k = below(counts >> 8, rng);
    // Which nibble of codes holds the k-th legal action, and its rank there.
    let which = (k >= (counts & 0xF)) as u32 + (k >= ((counts >> 4) & 0xF)) as u32;
    let before = ((counts << 4) >> (4 * which)) & 0xF;
    let nibble = (mask >> (4 * which)) & 0xF;
    let j = (k - before) & 3;
    Choice::from_code(4 * which as u8 + NIBBLE_NTH[nibble as usize][j as usize])
}

/// `RANKED[mask]` for every 12-bit [`legal_mask`]: nibble `j` (bits `4j..4j+4`, `j < 12`) is
/// the code of the mask's `j`-th legal action in code order, bits 48-51 how many there are.
/// 32 KB, of which a game touches the few lines of the masks that occur.
static RANKED: [u64; 1 << 12] = {
    let mut t = [0u64; 1 << 12];
    let mut mask = 0;
    while mask < 1 << 12 {
        let (mut entry, mut n, mut code) = (0u64, 0u64, 0u64);
        while code < 12 {
            if mask >> code & 1 == 1 {
                entry |= code << (4 * n);
                n += 1;
            }
            code += 1;
        }
        t[mask] = entry | n << 48;
        mask += 1;
    }
    t
};

/// [`random_action`] by one look-up in a table of every mask's legal codes in rank order:
/// the same draw from `rng` (`below` the number of legal actions) and the same action,
/// with neither the running counts nor the search for the nibble that holds the `k`-th
/// action (`draw_ranked_matches_random_action` checks every mask and rank).
#[inline(always)]
pub fn draw_ranked(mask: u16, rng: &mut GameRng) -> Choice {
    let entry = RANKED[mask as usize & 0xFFF];
    debug_assert!(entry >> 48 > 0, "some spot is always legal while the pot holds a penny");
    let k = below((entry >> 48) as u32, rng);
    Choice::from_code(((entry >> (4 * k)) & 0xF) as u8)
}

/// What each action of a round did, and the pennies it moved.
pub type Resolution = ([Effect; MAX_CARDS], [u32; MAX_CARDS]);

/// Resolves one round: the six steps of docs/games/take-a-penny.md in order, each simultaneous. `actions`
/// holds the choices of seats `0..players` (all legal at selection). Returns what each
/// action did and how many pennies it moved; `pennies` and `pot` are updated in place.
#[inline]
pub fn resolve(players: usize, pennies: &mut [u32; MAX_CARDS], pot: &mut u32, actions: &[Action; MAX_CARDS]) -> Resolution {
    resolve_with::<true>(players, pennies, pot, actions)
}

/// [`resolve`] without the bookkeeping of effects: the exact solver's hot path (the
/// simulator calls [`resolve_lanes`] directly). A property test checks it against
/// [`resolve`] on random rounds.
#[inline]
pub fn resolve_quick(players: usize, pennies: &mut [u32; MAX_CARDS], pot: &mut u32, actions: &[Action; MAX_CARDS]) {
    let (table, after) = resolve_lanes(pack(*pennies), *pot, choice_lanes(players, actions));
    *pennies = unpack(table);
    *pot = after;
}

/// 1 in every 16-bit lane.
const LANES: u64 = 0x0001_0001_0001_0001;
/// The low nibble of every lane.
const NIBBLES: u64 = 0xF * LANES;
/// Bit `seat` in lane `seat`: a seat's own card in lanes of card masks.
const OWN_CARD: u64 = 1 | 2 << 16 | 4 << 32 | 8 << 48;

/// 1 in each lane of `x` that is at least 1 (lanes below 0x8000), else 0.
#[inline(always)]
fn lanes_nonzero(x: u64) -> u64 {
    ((x + 0x7FFF * LANES) >> 15) & LANES
}

/// 1 in each lane of `x` that is at least 1 (lanes below 16), else 0.
#[inline(always)]
fn nibbles_nonzero(x: u64) -> u64 {
    ((x + NIBBLES) >> 4) & LANES
}

/// The 4-bit mask of the lanes of `ones` (each lane 0 or 1) that are 1: one multiply moves
/// the bit of lane i to bit 48 + i, and the other products land on distinct bits below 48.
#[inline(always)]
fn lane_bits(ones: u64) -> u64 {
    (ones.wrapping_mul((1 << 48) | (1 << 33) | (1 << 18) | (1 << 3)) >> 48) & 0xF
}

/// Per lane, a card mask of at most one bit (bit `c`) moved to nibble `c` (bit `4c`): a
/// counter per card that lanes can add up without carries.
#[inline(always)]
fn one_hot_nibbles(cards: u64) -> u64 {
    cards.wrapping_mul(1 | 1 << 3 | 1 << 6 | 1 << 9) & (0x1111 * LANES)
}

/// Adds up the lanes of per-card nibble counters (see [`one_hot_nibbles`]; totals below 16):
/// nibble `c` of the result is card `c`'s total.
#[inline(always)]
fn nibble_totals(counters: u64) -> u64 {
    counters.wrapping_mul(LANES) >> 48
}

/// Per-card totals of [`nibble_totals`] moved to the card's lane (nibble `c` to lane `c`;
/// the other products of the multiply fall outside the lanes' low nibbles).
#[inline(always)]
fn totals_by_lane(totals: u64) -> u64 {
    totals.wrapping_mul(1 | 1 << 12 | 1 << 24 | 1 << 36) & NIBBLES
}

/// The resolution of one round on lanes: the bank cards `table`, the pot and every seat's
/// choice `chosen` (bit [`Action::code`] of its lane; seats without a choice do nothing) give
/// the bank cards and pot after the six steps of docs/games/take-a-penny.md. No data-dependent branches (random
/// choices make them unpredictable): every step treats all seats at once.
#[inline(always)]
pub fn resolve_lanes(table: u64, pot: u32, chosen: u64) -> (u64, u32) {
    let mut p = table;
    let take1 = chosen & LANES;
    let take2 = (chosen >> 1) & LANES;
    let returns = (chosen >> 2) & LANES;
    let blocking = (chosen >> 3) & LANES;
    // The card each take_from and each give aims at, as a one-bit card mask per lane.
    let taking = (chosen >> 4) & NIBBLES;
    let giving = (chosen >> 8) & NIBBLES;
    // Choosers of the first four spots: nibble k = how many chose code k.
    let counts = nibble_totals(one_hot_nibbles(chosen & NIBBLES)) as u32;
    let (n_take1, n_take2, n_returns) = (counts & 0xF, (counts >> 4) & 0xF, (counts >> 8) & 0xF);
    // 1.-3. The pot: a lone take1_block takes 1; any take1_block blocks take2 and return1;
    // t take2 share min(2, floor(pot / t)) each (without a division).
    let open = (n_take1 == 0) as u64;
    let solo = (n_take1 == 1) as u64;
    let after1 = pot - solo as u32;
    let each2 = open * ((after1 >= n_take2) as u64 + (after1 >= 2 * n_take2) as u64);
    // Return1 lanes hold at least 1 here (legal at selection; steps 1-2 only add): no borrow.
    p = p + solo * take1 + each2 * take2 - open * returns;
    let pot = after1 - (each2 as u32) * n_take2 + (open as u32) * n_returns;
    // 5. take_from, on the balances at the start of the step: the takers of an unblocked
    // card all get 1 if it holds at least one penny per taker, else none of them does.
    let takers = totals_by_lane(nibble_totals(one_hot_nibbles(taking)));
    let enough = (((p | (0x8000 * LANES)) - takers) >> 15) & LANES;
    let paying = enough & !blocking;
    let got = nibbles_nonzero(taking & (lane_bits(paying) * LANES));
    p = p - (takers & (paying * 0xFFFF)) + got;
    // 6. give: from a giver holding at least 1 at the start of the step, to an unblocked card.
    let open_cards = (!lane_bits(blocking) & 0xF) * LANES;
    let gives = lanes_nonzero(p) & nibbles_nonzero(giving & open_cards);
    let received = totals_by_lane(nibble_totals(one_hot_nibbles(giving & (gives * 0xF))));
    p = p - gives + received;
    (p, pot)
}

/// Lanes of the spots each seat may not choose again (the no-repeat rule), from the
/// choices of the last round (one bit per lane): that action, or every `give` after a give.
#[inline(always)]
pub fn repeat_lanes(revealed: u64) -> u64 {
    revealed | (nibbles_nonzero((revealed >> 8) & NIBBLES) * (0xF << SPOT_GIVE))
}

/// Every seat's [`legal_mask`] at once, lane `seat` for seat `seat`, from the bank cards
/// (`table`), the pot, the number of bank cards and the [`repeat_lanes`] of the last round.
/// Lanes of seats that do not play hold masks nobody reads.
#[inline(always)]
pub fn legal_lanes(table: u64, pot: u32, cards: usize, repeat: u64) -> u64 {
    let own = lanes_nonzero(table);
    let holding = lane_bits(own) * LANES;
    let others = (((1u64 << cards) - 1) * LANES) & !OWN_CARD;
    let pot = (pot >= 1) as u64 * (3 * LANES);
    let mask = pot | own << 2 | (8 * LANES) | (others & holding) << SPOT_TAKE_FROM | (others & (own * 0xF)) << SPOT_GIVE;
    mask & !repeat
}

/// The one implementation of the resolution; `TRACK` fills in effects and moved pennies.
#[inline(always)]
fn resolve_with<const TRACK: bool>(players: usize, pennies: &mut [u32; MAX_CARDS], pot: &mut u32, actions: &[Action; MAX_CARDS]) -> Resolution {
    let mut effects = [Effect::Done; MAX_CARDS];
    let mut moved = [0u32; MAX_CARDS];
    let mut take1 = 0u32;
    let mut take1_seat = 0;
    let mut take2 = 0u32;
    let mut returns = 0u32;
    let mut blocked = [false; MAX_CARDS];
    let mut takers = [0u32; MAX_CARDS];
    let mut any_take_from = false;
    let mut any_give = false;
    for (seat, a) in actions.iter().enumerate().take(players) {
        match *a {
            Action::Take1Block => {
                take1 += 1;
                take1_seat = seat;
            }
            Action::Take2 => take2 += 1,
            Action::Return1 => returns += 1,
            Action::BlockSelf => blocked[seat] = true,
            Action::TakeFrom(c) => {
                takers[c as usize] += 1;
                any_take_from = true;
            }
            Action::Give(_) => any_give = true,
        }
    }
    // 1. take1_block: one chooser takes 1 and blocks the pot; two or more block each other.
    let pot_blocked = take1 >= 1;
    if take1 == 1 {
        pennies[take1_seat] += 1;
        *pot -= 1;
        if TRACK {
            moved[take1_seat] = 1;
        }
    }
    if take2 + returns > 0 || (TRACK && take1 > 1) {
        // 2. take2, pot not blocked: t takers get min(2, floor(pot / t)) each.
        let each2 = if take2 > 0 && !pot_blocked { (*pot / take2).min(2) } else { 0 };
        for seat in 0..players {
            match actions[seat] {
                Action::Take1Block if TRACK && take1 > 1 => effects[seat] = Effect::Blocked,
                Action::Take2 => {
                    pennies[seat] += each2;
                    if TRACK {
                        moved[seat] = each2;
                        effects[seat] = match (pot_blocked, each2) {
                            (true, _) => Effect::Blocked,
                            (_, 2) => Effect::Done,
                            (_, 1) => Effect::Partial,
                            _ => Effect::Short,
                        };
                    }
                }
                _ => {}
            }
        }
        *pot -= each2 * take2;
        // 3. return1, pot not blocked.
        if returns > 0 {
            for seat in 0..players {
                if actions[seat] == Action::Return1 {
                    if pot_blocked {
                        if TRACK {
                            effects[seat] = Effect::Blocked;
                        }
                    } else {
                        pennies[seat] -= 1;
                        *pot += 1;
                        if TRACK {
                            moved[seat] = 1;
                        }
                    }
                }
            }
        }
    }
    // 4. block_self: `blocked` was set above; it matters from step 5 on.
    let mut stopped = [false; MAX_CARDS];
    // 5. take_from, on the balances at the start of this step.
    if any_take_from {
        let base = *pennies;
        for seat in 0..players {
            if let Action::TakeFrom(c) = actions[seat] {
                let c = c as usize;
                if blocked[c] {
                    if TRACK {
                        effects[seat] = Effect::Blocked;
                        stopped[c] = true;
                    }
                } else if base[c] >= takers[c] {
                    pennies[c] -= 1;
                    pennies[seat] += 1;
                    if TRACK {
                        moved[seat] = 1;
                    }
                } else if TRACK {
                    effects[seat] = Effect::Short;
                }
            }
        }
    }
    // 6. give: a giver holding at least 1 at the start of this step gives 1.
    if any_give {
        let base = *pennies;
        for seat in 0..players {
            if let Action::Give(c) = actions[seat] {
                let c = c as usize;
                if base[seat] == 0 {
                    if TRACK {
                        effects[seat] = Effect::Short;
                    }
                } else if blocked[c] {
                    if TRACK {
                        effects[seat] = Effect::Blocked;
                        stopped[c] = true;
                    }
                } else {
                    pennies[seat] -= 1;
                    pennies[c] += 1;
                    if TRACK {
                        moved[seat] = 1;
                    }
                }
            }
        }
    }
    if TRACK {
        for seat in 0..players {
            if blocked[seat] && !stopped[seat] {
                effects[seat] = Effect::Idle;
            }
        }
    }
    (effects, moved)
}

/// The winners by the victory conditions, as a bit mask over the bank cards: the only card
/// with 0 pennies; else the unique most; else the unique second most; else every card
/// holding the second-highest amount; if every card holds the same amount, all of them.
#[inline]
pub fn winners(pennies: &[u32]) -> u16 {
    let mask = |value: u32| pennies.iter().enumerate().filter(|(_, p)| **p == value).fold(0u16, |m, (i, _)| m | (1 << i));
    let zeros = mask(0);
    if zeros.count_ones() == 1 {
        return zeros;
    }
    let max = pennies.iter().copied().max().unwrap_or(0);
    let most = mask(max);
    if most.count_ones() == 1 {
        return most;
    }
    match pennies.iter().copied().filter(|&p| p < max).max() {
        Some(second) => mask(second),
        None => most,
    }
}

/// [`winners`] of the first `cards` bank cards (the others hold 0), with fixed-length loops
/// over the four lanes instead of a pass per condition over a slice: what `outcome` reads
/// once a game. `winners_quick_matches_winners` checks it against [`winners`] on every
/// table of small amounts.
#[inline]
pub fn winners_quick(pennies: &[u32; MAX_CARDS], cards: usize) -> u16 {
    let used = (1u16 << cards) - 1;
    let mask = |value: u32| (0..MAX_CARDS).fold(0u16, |m, c| m | u16::from(pennies[c] == value) << c) & used;
    let zeros = mask(0);
    if zeros.count_ones() == 1 {
        return zeros;
    }
    // Unused cards hold 0, so they never raise the maximum.
    let max = pennies.iter().fold(0, |m, &p| m.max(p));
    let most = mask(max);
    if most.count_ones() == 1 {
        return most;
    }
    // The second most among the cards in play: the largest amount below the maximum.
    let (mut below, mut second) = (0u16, 0u32);
    for (c, &p) in pennies.iter().enumerate() {
        let less = used >> c & 1 == 1 && p < max;
        below |= u16::from(less) << c;
        second = if less { second.max(p) } else { second };
    }
    if below == 0 { most } else { mask(second) }
}

impl TakeAPenny {
    /// The starting table of the set-up.
    pub fn initial_state(setup: &Setup) -> State {
        Self::state_at(setup, setup.start, setup.pot)
    }

    /// A table before round 1 with these bank cards (each at most
    /// [`super::params::MAX_PENNIES`]; unused entries 0) and pot.
    pub fn state_at(setup: &Setup, pennies: [u32; MAX_CARDS], pot: u32) -> State {
        let table = pack(pennies);
        let mut s = State {
            table,
            pot,
            revealed: 0,
            chosen: 0,
            legal: [0; MAX_CARDS],
            next: 0,
            round: 0,
            over: false,
            end_reason: END_POT_EMPTY,
            before: table,
            before_pot: pot,
            previous: 0,
        };
        s.set_legal(legal_lanes(table, pot, setup.cards, 0));
        s
    }

    /// Reveals and resolves the round's choices, then ends the game or prepares every
    /// seat's legal actions for the next round. Inlined into the play loop: a call would
    /// cost more than the resolution's own arithmetic saves.
    #[inline(always)]
    fn resolve_round(&self, s: &mut State, log: &mut EventLog<Event>) {
        s.before = s.table;
        s.before_pot = s.pot;
        s.previous = s.revealed;
        s.revealed = s.chosen;
        s.chosen = 0;
        if log.enabled() {
            self.resolve_logged(s, log);
        } else {
            (s.table, s.pot) = resolve_lanes(s.table, s.pot, s.revealed);
        }
        s.round += 1;
        // Rebuilt even after the last round: cheaper than a branch, and never read then.
        s.set_legal(legal_lanes(s.table, s.pot, self.setup.cards, repeat_lanes(s.revealed)));
        if s.pot == 0 {
            s.over = true;
            s.end_reason = END_POT_EMPTY;
        } else if s.round >= self.setup.turn_cap {
            s.over = true;
            s.end_reason = END_CAP;
        }
        if s.over {
            log.emit(|| Event::GameOver { reason: s.end_reason, rounds: s.round, winners: winners_quick(&s.pennies(), self.setup.cards) });
        }
    }

    /// The resolution with every effect reported to the log (traces, listening bots).
    #[cold]
    fn resolve_logged(&self, s: &mut State, log: &mut EventLog<Event>) {
        let n = self.setup.players;
        let actions = s.record().actions;
        log.emit(|| Event::Revealed { round: s.round + 1, actions, players: n as u8 });
        let mut pennies = s.pennies();
        let (effects, moved) = resolve(n, &mut pennies, &mut s.pot, &actions);
        s.table = pack(pennies);
        // In the order the rules resolve them (the six steps: take1_block, take2, return1,
        // block_self, take_from, give), seat by seat within a step.
        let mut order: [usize; MAX_CARDS] = std::array::from_fn(|seat| seat);
        order[..n].sort_by_key(|&seat| (resolution_step(actions[seat]), seat));
        for &seat in &order[..n] {
            log.emit(|| Event::Resolved { seat: seat as u8, action: actions[seat], effect: effects[seat], moved: moved[seat] });
        }
        log.emit(|| Event::RoundEnds { round: s.round + 1, pot: s.pot, pennies, cards: self.setup.cards as u8 });
    }
}

impl Game for TakeAPenny {
    type State = State;
    type Action = Choice;
    type View<'a> = View<'a>;
    type Event = Event;
    type Metrics = PennyMetrics;
    const INFO: GameInfo = GameInfo {
        id: "take-a-penny",
        name: "Take a Penny",
        end_reasons: END_REASONS,
        length_unit: "rounds",
        standing_unit: "pennies",
        default_cap: 1000,
        default_bot: "random",
        // Take a Penny has no chance: the choices are the bots' own.
        draws_chance: false,
        ..GameInfo::DEFAULTS
    };

    fn seats(&self) -> usize {
        self.setup.cards
    }

    fn acting_seats(&self) -> usize {
        self.setup.players
    }

    fn turn_cap(&self) -> u32 {
        self.setup.turn_cap
    }

    #[inline]
    fn deal(&self, _rng: &mut GameRng, log: &mut EventLog<Event>) -> State {
        let s = self.initial.clone();
        log.emit(|| Event::RoundEnds { round: 0, pot: s.pot, pennies: s.pennies(), cards: self.setup.cards as u8 });
        s
    }

    #[inline(always)]
    fn to_move(&self, s: &State) -> ToMove {
        if s.over { ToMove::Over } else { ToMove::Seat(s.next as usize) }
    }

    #[inline(always)]
    fn view<'a>(&self, s: &'a State, seat: usize) -> View<'a> {
        View { seat, table: s }
    }

    #[inline]
    fn legal_actions(&self, v: &View, out: &mut Vec<Choice>) {
        push_choices(v.legal(), out);
    }

    #[inline(always)]
    fn random_action(&self, v: &View, rng: &mut GameRng, _scratch: &mut Vec<Choice>) -> Choice {
        v.table.random_choice(v.seat, rng)
    }

    fn is_legal(&self, v: &View, choice: &Choice) -> bool {
        v.seat < self.setup.players && legal(&self.setup, &v.pennies(), v.pot(), v.seat, v.last()[v.seat], choice.action())
    }

    /// Records `seat`'s secret choice; the last seat's choice resolves the round.
    #[inline(always)]
    fn apply(&self, s: &mut State, seat: usize, choice: Choice, _rng: &mut GameRng, log: &mut EventLog<Event>) {
        s.chosen |= choice_bit(seat, choice.code());
        log.emit(|| Event::Chose { seat: seat as u8, action: choice.action() });
        if seat + 1 < self.setup.players {
            s.next = seat as u8 + 1;
            return;
        }
        s.next = 0;
        self.resolve_round(s, log);
    }

    fn outcome(&self, s: &State) -> Outcome {
        let cards = self.setup.cards;
        let mut o = Outcome::new();
        o.length = s.round;
        o.end_reason = s.end_reason;
        let pennies = s.pennies();
        for (score, &p) in o.scores.iter_mut().zip(&pennies[..cards]) {
            *score = p as i64;
        }
        o.winners = winners_quick(&pennies, cards);
        o
    }

    fn check_invariants(&self, s: &State) -> Result<(), String> {
        let cards = self.setup.cards;
        let pennies = s.pennies();
        let sum: u64 = s.pot as u64 + pennies[..cards].iter().map(|&p| p as u64).sum::<u64>();
        if sum != self.setup.total as u64 || pennies[cards..].iter().any(|&p| p != 0) {
            return Err(format!("pennies not conserved: pot {} + bank cards {:?} = {sum}, the game has {}", s.pot, &pennies[..cards], self.setup.total));
        }
        if s.round > 0 && s.next == 0 {
            let r = s.record();
            for seat in 0..self.setup.players {
                if spot(r.actions[seat]) == r.previous[seat] {
                    return Err(format!("seat {seat} chose spot {} two rounds in a row (round {})", r.actions[seat], s.round));
                }
            }
        }
        if s.round > self.setup.turn_cap {
            return Err(format!("round {} passed the cap {}", s.round, self.setup.turn_cap));
        }
        if s.over != (s.pot == 0 || s.round >= self.setup.turn_cap) && s.next == 0 {
            return Err(format!("game over flag {} with pot {} after round {}", s.over, s.pot, s.round));
        }
        Ok(())
    }

    fn seat_active(&self, s: &State, seat: usize) -> bool {
        !s.over && seat < self.setup.players
    }

    /// Standing: the pennies on the seat's bank card (dummy cards included). The rules do not
    /// always crown the most pennies (the only empty card wins; a tie for the most gives the
    /// win to the second most): in those games the winner does not lead at the end, so its
    /// decisiveness is 1 and its margin may be negative; `leader_wins.png` ends below 100%.
    fn standing(&self, s: &State, seat: usize) -> i64 {
        s.pennies()[seat] as i64
    }
}
