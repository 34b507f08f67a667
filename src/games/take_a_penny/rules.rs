//! Take a Penny's table state and the rules that change it: the secret choices of a round,
//! legality at selection, the six resolution steps, the end of the game and the victory
//! conditions. The resolution is a pure function ([`resolve`]) shared with the exact solver,
//! so the simulator and the Markov chain cannot disagree about a rule.
#![allow(clippy::needless_range_loop)] // seat and card loops index several arrays at once

use super::params::{MAX_CARDS, Setup};
use super::{Action, Event, TakeAPenny};
use crate::engine::{EventLog, GameRng, rng::below};

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
#[derive(Clone, Debug)]
pub struct State {
    /// Pennies on each bank card (dummy included; unused entries 0).
    pub pennies: [u32; MAX_CARDS],
    /// Pennies in the pot.
    pub pot: u32,
    /// Each player's spot in the last resolved round ([`NO_SPOT`] before round 1).
    pub last: [u8; MAX_CARDS],
    /// This round's secret choices of seats `0..next` as [`Action::code`]s (hidden from
    /// every view).
    pub(super) pending: [u8; MAX_CARDS],
    /// Each player's legal actions this round as a [`legal_mask`], computed once per round
    /// (the table does not change while the choices are made).
    pub(super) legal: [u16; MAX_CARDS],
    /// The seat to choose next this round.
    pub next: u8,
    /// Rounds resolved so far (the game length).
    pub round: u32,
    /// Whether the game has ended.
    pub over: bool,
    /// Index into [`END_REASONS`] once over.
    pub end_reason: u8,
    /// The last resolved round (valid when `round > 0`).
    pub record: RoundRecord,
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

/// The spot of every action code: `give` is one spot whatever its target.
const SPOT_BY_CODE: [u8; 4 + 2 * MAX_CARDS] = [0, 1, 2, 3, 4, 5, 6, 7, SPOT_GIVE, SPOT_GIVE, SPOT_GIVE, SPOT_GIVE];

/// Whether `seat` may select `a` with the table as it is: legality at selection plus the
/// no-repeat rule (`last` = the seat's spot of the previous round).
#[inline]
pub fn legal(
    setup: &Setup,
    pennies: &[u32; MAX_CARDS],
    pot: u32,
    seat: usize,
    last: u8,
    a: Action,
) -> bool {
    if spot(a) == last {
        return false;
    }
    let own = pennies[seat];
    match a {
        Action::Take1Block | Action::Take2 => pot >= 1,
        Action::Return1 => own >= 1,
        Action::BlockSelf => true,
        Action::TakeFrom(c) => {
            (c as usize) < setup.cards && c as usize != seat && pennies[c as usize] >= 1
        }
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
    push_actions(legal_mask(setup, pennies, pot, seat, last), out);
}

/// Appends the actions of a [`legal_mask`] in code order.
#[inline]
pub fn push_actions(mut mask: u16, out: &mut Vec<Action>) {
    while mask != 0 {
        out.push(Action::from_code(mask.trailing_zeros() as u8));
        mask &= mask - 1;
    }
}

/// Every action by its [`Action::code`] (a table: no branches on the hot path).
const BY_CODE: [Action; 4 + 2 * MAX_CARDS] = {
    let mut t = [Action::BlockSelf; 4 + 2 * MAX_CARDS];
    t[0] = Action::Take1Block;
    t[1] = Action::Take2;
    t[2] = Action::Return1;
    let mut c = 0;
    while c < MAX_CARDS {
        t[4 + c] = Action::TakeFrom(c as u8);
        t[8 + c] = Action::Give(c as u8);
        c += 1;
    }
    t
};

/// Set bits in each 4-bit nibble.
const NIBBLE_COUNT: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut n = 0;
    while n < 16 {
        t[n] = (n as u32).count_ones() as u8;
        n += 1;
    }
    t
};

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

/// One action of a [`legal_mask`] drawn uniformly: the `k`-th set bit for a uniform `k`,
/// the same distribution (and, for the same random number, the same action) as picking
/// from [`legal_actions`]. The bit is found through per-nibble tables and arithmetic, so
/// random play causes no mispredicted branches.
#[inline(always)]
pub fn random_action(mask: u16, rng: &mut GameRng) -> Action {
    let mask = mask as usize;
    let (n0, n1, n2) = (mask & 0xF, mask >> 4 & 0xF, mask >> 8 & 0xF);
    let (c0, c1, c2) = (NIBBLE_COUNT[n0] as u32, NIBBLE_COUNT[n1] as u32, NIBBLE_COUNT[n2] as u32);
    debug_assert!(c0 + c1 + c2 > 0, "some spot is always legal while the pot holds a penny");
    let k = below(c0 + c1 + c2, rng);
    // Which nibble holds the k-th set bit, and its rank there, by arithmetic (no branches).
    let (in1, in2) = ((k >= c0) as u32, (k >= c0 + c1) as u32);
    let which = in1 + in2;
    let nibble = mask >> (4 * which) & 0xF;
    let j = k - c0 * in1 - c1 * in2;
    let base = 4 * which as usize;
    BY_CODE[base + NIBBLE_NTH[nibble][(j & 3) as usize] as usize]
}

/// What each action of a round did, and the pennies it moved.
pub type Resolution = ([Effect; MAX_CARDS], [u32; MAX_CARDS]);

/// Resolves one round: the six steps of RULES.md in order, each simultaneous. `actions`
/// holds the choices of seats `0..players` (all legal at selection). Returns what each
/// action did and how many pennies it moved; `pennies` and `pot` are updated in place.
#[inline]
pub fn resolve(
    players: usize,
    pennies: &mut [u32; MAX_CARDS],
    pot: &mut u32,
    actions: &[Action; MAX_CARDS],
) -> Resolution {
    resolve_with::<true>(players, pennies, pot, actions)
}

/// [`resolve`] without the bookkeeping of effects: the exact solver's hot path (the
/// simulator calls [`resolve_codes`] directly). A property test checks it against
/// [`resolve`] on random rounds.
#[inline]
pub fn resolve_quick(
    players: usize,
    pennies: &mut [u32; MAX_CARDS],
    pot: &mut u32,
    actions: &[Action; MAX_CARDS],
) {
    let codes = actions.map(Action::code);
    match players {
        2 => resolve_codes::<2>(pennies, pot, &codes),
        3 => resolve_codes::<3>(pennies, pot, &codes),
        _ => resolve_codes::<MAX_CARDS>(pennies, pot, &codes),
    }
}

/// Per action code: +1 in the 16-bit lane of a `take_from` target.
const TAKER: [u64; 16] = [0, 0, 0, 0, 1, 1 << 16, 1 << 32, 1 << 48, 0, 0, 0, 0, 0, 0, 0, 0];
/// 1 in every 16-bit lane.
const LANES: u64 = 0x0001_0001_0001_0001;
/// An action code no action has: fills the lanes of seats that do not play.
const NO_CODE: u64 = 0xF;

/// 1 in each 16-bit lane of `x` that equals `k` (lanes below 0x8000), else 0.
#[inline(always)]
fn lanes_equal(x: u64, k: u64) -> u64 {
    let diff = x ^ (k * LANES);
    (((diff + 0x7FFF * LANES) >> 15) & LANES) ^ LANES
}

/// 1 in each 16-bit lane of `x` that is at least 1 (lanes below 0x8000), else 0.
#[inline(always)]
fn lanes_nonzero(x: u64) -> u64 {
    ((x + 0x7FFF * LANES) >> 15) & LANES
}

/// The 4-bit mask of the lanes of `ones` (each lane 0 or 1) that are 1: one multiply moves
/// the bit of lane i to bit 48 + i, and the other products land on distinct bits below 48.
#[inline(always)]
fn lane_bits(ones: u64) -> u32 {
    ((ones.wrapping_mul((1 << 48) | (1 << 33) | (1 << 18) | (1 << 3)) >> 48) & 0xF) as u32
}

/// The number of lanes of `ones` (each lane 0 or 1) that are 1.
#[inline(always)]
fn lane_count(ones: u64) -> u32 {
    (ones.wrapping_mul(LANES) >> 48) as u32
}

/// The resolution of one round of `PLAYERS` players from their action codes (see
/// [`Action::code`]): the six steps of RULES.md without effects, written without
/// data-dependent branches (random choices make them unpredictable). Bank cards and action
/// codes live in the 16-bit lanes of one `u64` each (pennies <= 1000), one lane per seat, so
/// most steps treat every seat at once.
#[inline(always)]
pub fn resolve_codes<const PLAYERS: usize>(pennies: &mut [u32; MAX_CARDS], pot: &mut u32, codes: &[u8; MAX_CARDS]) {
    let mut p: u64 = 0;
    for (c, &v) in pennies.iter().enumerate() {
        p |= (v as u64) << (16 * c);
    }
    let mut lanes = 0u64;
    let mut takers = 0u64;
    for seat in 0..MAX_CARDS {
        let code = if seat < PLAYERS { codes[seat] as u64 } else { NO_CODE };
        lanes |= code << (16 * seat);
        takers += TAKER[code as usize];
    }
    let take1 = lanes_equal(lanes, 0);
    let take2 = lanes_equal(lanes, 1);
    let returns = lanes_equal(lanes, 2);
    let blocking = lanes_equal(lanes, 3);
    let kind = (lanes >> 2) & (3 * LANES);
    let giving = lanes_equal(kind, 2);
    let blocked = lane_bits(blocking);
    let (n_take1, n_take2, n_returns) = (lane_count(take1), lane_count(take2), lane_count(returns));
    // 1.-3. The pot: a lone take1_block takes 1; any take1_block blocks take2 and return1;
    // t take2 share min(2, floor(pot / t)) each (without a division).
    let open = (n_take1 == 0) as u64;
    let solo = (n_take1 == 1) as u64;
    let after1 = *pot - solo as u32;
    let each2 = open * ((after1 >= n_take2) as u64 + (after1 >= 2 * n_take2) as u64);
    // Return1 lanes hold at least 1 here (legal at selection; steps 1-2 only add): no borrow.
    p = p + solo * take1 + each2 * take2 - open * returns;
    *pot = after1 - (each2 as u32) * n_take2 + (open as u32) * n_returns;
    // 5. take_from, on the balances at the start of the step: the takers of an unblocked
    // card all get 1 if it holds at least one penny per taker, else none of them does.
    let enough = (((p | 0x8000 * LANES) - takers) >> 15) & LANES;
    let paying = enough & !blocking;
    p -= takers & (paying * 0xFFFF);
    let paid = lane_bits(paying);
    for seat in 0..PLAYERS {
        let code = codes[seat] as u32;
        let got = ((code >> 2 == 1) as u32) & (paid >> (code & 3));
        p += ((got & 1) as u64) << (16 * seat);
    }
    // 6. give: from a giver holding at least 1 at the start of the step, to an unblocked card.
    let able = lanes_nonzero(p) & giving;
    for seat in 0..PLAYERS {
        let code = codes[seat] as u32;
        let target = code & 3;
        let ok = ((able >> (16 * seat)) & 1) & (!(blocked >> target) & 1) as u64;
        p = p - (ok << (16 * seat)) + (ok << (16 * target));
    }
    for (c, v) in pennies.iter_mut().enumerate() {
        *v = ((p >> (16 * c)) & 0xFFFF) as u32;
    }
}

/// The one implementation of the resolution; `TRACK` fills in effects and moved pennies.
#[inline(always)]
fn resolve_with<const TRACK: bool>(
    players: usize,
    pennies: &mut [u32; MAX_CARDS],
    pot: &mut u32,
    actions: &[Action; MAX_CARDS],
) -> Resolution {
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
        let each2 = if take2 > 0 && !pot_blocked {
            (*pot / take2).min(2)
        } else {
            0
        };
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
    let mask = |value: u32| {
        pennies
            .iter()
            .enumerate()
            .filter(|(_, p)| **p == value)
            .fold(0u16, |m, (i, _)| m | (1 << i))
    };
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

impl TakeAPenny {
    /// The starting table of the set-up.
    pub fn initial_state(setup: &Setup) -> State {
        let mut s = State {
            pennies: setup.start,
            pot: setup.pot,
            last: [NO_SPOT; MAX_CARDS],
            pending: [SPOT_BLOCK_SELF; MAX_CARDS],
            legal: [0; MAX_CARDS],
            next: 0,
            round: 0,
            over: false,
            end_reason: END_POT_EMPTY,
            record: RoundRecord {
                actions: [Action::BlockSelf; MAX_CARDS],
                previous: [NO_SPOT; MAX_CARDS],
                pennies: setup.start,
                pot: setup.pot,
            },
        };
        Self::update_legal(setup, &mut s);
        s
    }

    /// Recomputes every player's legal mask for the coming round.
    #[inline(always)]
    fn update_legal(setup: &Setup, s: &mut State) {
        for seat in 0..setup.players {
            s.legal[seat] = legal_mask(setup, &s.pennies, s.pot, seat, s.last[seat]);
        }
    }

    /// Records `seat`'s secret choice; the last seat's choice resolves the round.
    #[inline(always)]
    pub(super) fn choose(&self, s: &mut State, seat: usize, action: Action, log: &mut EventLog<Event>) {
        s.pending[seat] = action.code();
        log.emit(|| Event::Chose { seat: seat as u8, action });
        if seat + 1 < self.setup.players {
            s.next = seat as u8 + 1;
            return;
        }
        s.next = 0;
        // One copy of the resolution per player count: every seat loop unrolls.
        match self.setup.players {
            2 => self.resolve_round::<2>(s, log),
            3 => self.resolve_round::<3>(s, log),
            _ => self.resolve_round::<MAX_CARDS>(s, log),
        }
    }

    #[inline(never)]
    fn resolve_round<const PLAYERS: usize>(&self, s: &mut State, log: &mut EventLog<Event>) {
        let actions = s.pending.map(|code| BY_CODE[code as usize]);
        s.record = RoundRecord { actions, previous: s.last, pennies: s.pennies, pot: s.pot };
        if log.enabled() {
            self.resolve_logged(s, log);
        } else {
            resolve_codes::<PLAYERS>(&mut s.pennies, &mut s.pot, &s.pending);
        }
        for seat in 0..PLAYERS {
            s.last[seat] = SPOT_BY_CODE[s.pending[seat] as usize];
        }
        s.round += 1;
        if s.pot == 0 {
            s.over = true;
            s.end_reason = END_POT_EMPTY;
        } else if s.round >= self.setup.turn_cap {
            s.over = true;
            s.end_reason = END_CAP;
        } else {
            Self::update_legal(&self.setup, s);
        }
        if s.over {
            log.emit(|| Event::GameOver {
                reason: s.end_reason,
                rounds: s.round,
                winners: winners(&s.pennies[..self.setup.cards]),
            });
        }
    }

    /// The resolution with every effect reported to the log (traces, listening bots).
    #[cold]
    fn resolve_logged(&self, s: &mut State, log: &mut EventLog<Event>) {
        let n = self.setup.players;
        let actions = s.record.actions;
        log.emit(|| Event::Revealed { round: s.round + 1, actions, players: n as u8 });
        let (effects, moved) = resolve(n, &mut s.pennies, &mut s.pot, &actions);
        for seat in 0..n {
            log.emit(|| Event::Resolved { seat: seat as u8, action: actions[seat], effect: effects[seat], moved: moved[seat] });
        }
        log.emit(|| Event::RoundEnds { round: s.round + 1, pot: s.pot, pennies: s.pennies, cards: self.setup.cards as u8 });
    }
}
