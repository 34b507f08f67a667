//! Take a Penny's table state and the rules that change it: the secret choices of a round,
//! legality at selection, the six resolution steps, the end of the game and the victory
//! conditions. The resolution is a pure function ([`resolve`]) shared with the exact solver,
//! so the simulator and the Markov chain cannot disagree about a rule.
#![allow(clippy::needless_range_loop)] // seat and card loops index several arrays at once

use super::params::{MAX_CARDS, Setup};
use super::{Action, Event, TakeAPenny};
use crate::engine::EventLog;

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
    /// This round's secret choices of seats `0..next` (hidden from every view).
    pub(super) pending: [Action; MAX_CARDS],
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

/// Appends every legal action of `seat` in a fixed order: take1_block, take2, return1,
/// block_self, take_from by color, give by color. Built without data-dependent branches
/// (random play makes them unpredictable) into a fixed array, then copied.
#[inline]
pub fn legal_actions(
    setup: &Setup,
    pennies: &[u32; MAX_CARDS],
    pot: u32,
    seat: usize,
    last: u8,
    out: &mut Vec<Action>,
) {
    let own = pennies[seat] >= 1;
    let pot = pot >= 1;
    let mut buf = [Action::BlockSelf; 4 + 2 * MAX_CARDS];
    let mut len = 0;
    buf[len] = Action::Take1Block;
    len += (pot & (last != SPOT_TAKE1_BLOCK)) as usize;
    buf[len] = Action::Take2;
    len += (pot & (last != SPOT_TAKE2)) as usize;
    buf[len] = Action::Return1;
    len += (own & (last != SPOT_RETURN1)) as usize;
    buf[len] = Action::BlockSelf;
    len += (last != SPOT_BLOCK_SELF) as usize;
    for c in 0..setup.cards {
        buf[len] = Action::TakeFrom(c as u8);
        len += ((c != seat) & (pennies[c] >= 1) & (last != SPOT_TAKE_FROM + c as u8)) as usize;
    }
    let give = own & (last != SPOT_GIVE);
    for c in 0..setup.cards {
        buf[len] = Action::Give(c as u8);
        len += (give & (c != seat)) as usize;
    }
    // A fixed-size copy (inlined) then a cut, rather than a variable-size memmove call.
    let start = out.len();
    out.extend_from_slice(&buf);
    out.truncate(start + len);
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

/// [`resolve`] without the bookkeeping of effects: the simulator's and the exact solver's
/// hot path, written without data-dependent branches (random choices make them
/// unpredictable). A property test checks it against [`resolve`] on random rounds.
#[inline]
pub fn resolve_quick(
    players: usize,
    pennies: &mut [u32; MAX_CARDS],
    pot: &mut u32,
    actions: &[Action; MAX_CARDS],
) {
    // Bank cards and per-card counts live in 16-bit lanes of one u64 (pennies <= 1000), so
    // the steps are register arithmetic without data-dependent loads and stores.
    #[inline(always)]
    fn lane(x: u64, i: usize) -> u64 {
        (x >> (16 * i)) & 0xFFFF
    }
    let mut p: u64 = 0;
    for (c, &v) in pennies.iter().enumerate() {
        p |= (v as u64) << (16 * c);
    }
    let mut codes = [0u8; MAX_CARDS];
    let (mut take1, mut take2, mut returns) = (0u32, 0u32, 0u32);
    let mut blocked = 0u32;
    let mut takers = 0u64;
    for seat in 0..players {
        let code = actions[seat].code();
        codes[seat] = code;
        take1 += (code == 0) as u32;
        take2 += (code == 1) as u32;
        returns += (code == 2) as u32;
        blocked |= ((code == 3) as u32) << seat;
        takers += ((code >> 2 == 1) as u64) << (16 * (code & 3));
    }
    // 1.-3. The pot: a lone take1_block takes 1; any take1_block blocks take2 and return1.
    let open = (take1 == 0) as u32;
    let solo = (take1 == 1) as u32;
    let after1 = *pot - solo;
    let each2 = open * (after1 / take2.max(1)).min(2);
    for (seat, &code) in codes.iter().enumerate().take(players) {
        let plus = solo * (code == 0) as u32 + each2 * (code == 1) as u32;
        let minus = open * (code == 2) as u32;
        p = p + ((plus as u64) << (16 * seat)) - ((minus as u64) << (16 * seat));
    }
    *pot = after1 - each2 * take2 + open * returns;
    // 5. take_from on the balances at the start of the step.
    let base = p;
    for (seat, &code) in codes.iter().enumerate().take(players) {
        let c = (code & 3) as usize;
        let ok = ((code >> 2 == 1) & (blocked >> c & 1 == 0) & (lane(base, c) >= lane(takers, c)))
            as u64;
        p = p - (ok << (16 * c)) + (ok << (16 * seat));
    }
    // 6. give: from a giver holding at least 1 at the start of the step, to an unblocked card.
    let base = p;
    for (seat, &code) in codes.iter().enumerate().take(players) {
        let c = (code & 3) as usize;
        let ok = ((code >= 8) & (lane(base, seat) >= 1) & (blocked >> c & 1 == 0)) as u64;
        p = p - (ok << (16 * seat)) + (ok << (16 * c));
    }
    for (c, v) in pennies.iter_mut().enumerate() {
        *v = lane(p, c) as u32;
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
        State {
            pennies: setup.start,
            pot: setup.pot,
            last: [NO_SPOT; MAX_CARDS],
            pending: [Action::BlockSelf; MAX_CARDS],
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
        }
    }

    /// Records `seat`'s secret choice; the last seat's choice resolves the round.
    #[inline]
    pub(super) fn choose(
        &self,
        s: &mut State,
        seat: usize,
        action: Action,
        log: &mut EventLog<Event>,
    ) {
        s.pending[seat] = action;
        log.emit(|| Event::Chose {
            seat: seat as u8,
            action,
        });
        if seat + 1 < self.setup.players {
            s.next = seat as u8 + 1;
            return;
        }
        s.next = 0;
        self.resolve_round(s, log);
    }

    fn resolve_round(&self, s: &mut State, log: &mut EventLog<Event>) {
        let n = self.setup.players;
        if log.enabled() {
            log.emit(|| Event::Revealed {
                round: s.round + 1,
                actions: s.pending,
                players: n as u8,
            });
        }
        s.record = RoundRecord {
            actions: s.pending,
            previous: s.last,
            pennies: s.pennies,
            pot: s.pot,
        };
        let tracked = if log.enabled() {
            Some(resolve(n, &mut s.pennies, &mut s.pot, &s.pending))
        } else {
            None
        };
        if tracked.is_none() {
            resolve_quick(n, &mut s.pennies, &mut s.pot, &s.pending);
        }
        for seat in 0..n {
            s.last[seat] = spot(s.pending[seat]);
        }
        s.round += 1;
        if let Some((effects, moved)) = tracked {
            for seat in 0..n {
                log.emit(|| Event::Resolved {
                    seat: seat as u8,
                    action: s.pending[seat],
                    effect: effects[seat],
                    moved: moved[seat],
                });
            }
            log.emit(|| Event::RoundEnds {
                round: s.round,
                pot: s.pot,
                pennies: s.pennies,
                cards: self.setup.cards as u8,
            });
        }
        if s.pot == 0 {
            s.over = true;
            s.end_reason = END_POT_EMPTY;
        } else if s.round >= self.setup.turn_cap {
            s.over = true;
            s.end_reason = END_CAP;
        }
        if s.over {
            log.emit(|| Event::GameOver {
                reason: s.end_reason,
                rounds: s.round,
                winners: winners(&s.pennies[..self.setup.cards]),
            });
        }
    }
}
