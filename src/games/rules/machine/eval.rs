//! Expressions evaluated on the table: leaves, arithmetic, zones and their cards, counts,
//! sums and groups of cards, conditions.

use super::{ARG, Bound, CHOSEN_MASK, CHOSEN_ZONE, Cards, State};
use crate::engine::MAX_SEATS;
use crate::games::rules::expr::{Expr, Op, SeatAgg, Var, Zone};
use crate::games::rules::program::*;

impl Bound {
    /// Attribute `a` of `card`.
    #[inline]
    pub fn attr(&self, card: i64, a: u8) -> i64 {
        if card < 0 || card as usize >= self.attrs.len() { -1 } else { self.attrs[card as usize][a as usize] as i64 }
    }

    /// Copies the state's bound names into `b` but for the slots no step uses (from
    /// [`Program::step_slots`] up to the last four: never set in a state, they are the
    /// expressions' own, always set before an expression reads them), so `b` reads as the
    /// state's own names.
    #[inline]
    pub fn frame_into(&self, st: &State, b: &mut [i64; BINDS]) {
        if self.program.step_slots <= 8 {
            b[..8].copy_from_slice(&st.binds[..8]);
        } else {
            b[..STEP_BINDS].copy_from_slice(&st.binds[..STEP_BINDS]);
        }
        b[BINDS - 4..].copy_from_slice(&st.binds[BINDS - 4..]);
    }

    /// A leaf of an expression read in place (a constant, a parameter, a bound name), else
    /// the expression evaluated: saves a call per leaf.
    #[inline(always)]
    pub(super) fn operand(&self, e: &Expr, st: &State, b: &mut [i64; BINDS]) -> i64 {
        match e {
            Expr::BinConst(op, x, c) if x.is_leaf() => Self::arith(*op, self.leaf(x, st, b), *c),
            Expr::BinParam(op, x, p) if x.is_leaf() => Self::arith(*op, self.leaf(x, st, b), self.params[*p as usize]),
            _ => self.leaf(e, st, b),
        }
    }

    /// A leaf of an expression (see [`Expr::is_leaf`]) read in place, else the expression
    /// evaluated.
    #[inline(always)]
    fn leaf(&self, e: &Expr, st: &State, b: &mut [i64; BINDS]) -> i64 {
        match e {
            Expr::Const(n) => *n,
            Expr::Param(p) => self.params[*p as usize],
            Expr::Var(Var::Bind(s)) => b[*s as usize],
            Expr::Var(Var::Current) => st.current as i64,
            Expr::ZoneSize(z) => st.zones[*z as usize].len() as i64,
            Expr::SeatZoneSize(first, s) => self.seat_zone_size(st, *first, b[*s as usize]),
            Expr::CounterOne(at) => st.counters[*at as usize],
            Expr::CounterBind(first, len, s) => Self::counter_at(st, *first, *len, b[*s as usize]),
            Expr::CounterAttr(first, len, s, a) => Self::counter_at(st, *first, *len, self.attr(b[*s as usize], *a)),
            Expr::AttrBind(s, a) => self.attr(b[*s as usize], *a),
            _ => self.eval(e, st, b),
        }
    }

    /// Cards in the zone of `seat` whose first instance is `first` (0 for no seat).
    #[inline(always)]
    fn seat_zone_size(&self, st: &State, first: u16, seat: i64) -> i64 {
        if seat < 0 || seat as usize >= self.seats { 0 } else { st.zones[first as usize + seat as usize].len() as i64 }
    }

    /// Slot `i` of the counter whose slots start at `first` (0 out of range).
    #[inline(always)]
    fn counter_at(st: &State, first: u16, len: u16, i: i64) -> i64 {
        if i < 0 || i >= len as i64 { 0 } else { st.counters[first as usize + i as usize] }
    }

    /// A binary operation other than `and` / `or`.
    #[inline(always)]
    fn arith(op: Op, a: i64, c: i64) -> i64 {
        match op {
            Op::Add => a.wrapping_add(c),
            Op::Sub => a.wrapping_sub(c),
            Op::Mul => a.wrapping_mul(c),
            Op::Div => {
                if c == 0 {
                    0
                } else {
                    a.wrapping_div_euclid(c)
                }
            }
            Op::Rem => {
                if c == 0 {
                    0
                } else {
                    a.wrapping_rem_euclid(c)
                }
            }
            Op::Eq => i64::from(a == c),
            Op::Ne => i64::from(a != c),
            Op::Lt => i64::from(a < c),
            Op::Le => i64::from(a <= c),
            Op::Gt => i64::from(a > c),
            Op::Ge => i64::from(a >= c),
            Op::And => i64::from(a != 0 && c != 0),
            Op::Or => i64::from(a != 0 || c != 0),
        }
    }

    /// The zone instance a zone reference names.
    #[inline(always)]
    pub fn zone(&self, z: &Zone, st: &State, b: &mut [i64; BINDS]) -> Option<usize> {
        match z {
            Zone::Shared(i) => Some(*i as usize),
            Zone::OfSeat(first, seat) => {
                let s = self.operand(seat, st, b);
                if s < 0 || s as usize >= self.seats { None } else { Some(*first as usize + s as usize) }
            }
            Zone::Chosen => None,
        }
    }

    /// [`Bound::zone`] with the state's own bound names (a frame is made only for a seat that
    /// is neither a constant nor a bound name).
    #[inline]
    pub(super) fn zone_at(&self, z: &Zone, st: &State) -> Option<usize> {
        match z {
            Zone::OfSeat(first, seat) => {
                let s = match &**seat {
                    Expr::Var(Var::Bind(s)) => st.binds[*s as usize],
                    Expr::Const(n) => *n,
                    _ => {
                        let mut b = [0i64; BINDS];
                        self.frame_into(st, &mut b);
                        return self.zone(z, st, &mut b);
                    }
                };
                if s < 0 || s as usize >= self.seats { None } else { Some(*first as usize + s as usize) }
            }
            Zone::Shared(i) => Some(*i as usize),
            Zone::Chosen => None,
        }
    }

    pub(super) fn cards_of<'s>(&self, z: &Zone, st: &'s State, b: &mut [i64; BINDS]) -> Cards<'s> {
        match z {
            Zone::Chosen => {
                let zone = b[CHOSEN_ZONE];
                if zone >= 0 { Cards { cards: &st.zones[zone as usize], mask: b[CHOSEN_MASK] as u64 } } else { Cards { cards: &st.chosen, mask: u64::MAX } }
            }
            other => match self.zone(other, st, b) {
                Some(i) => Cards { cards: &st.zones[i], mask: u64::MAX },
                None => Cards { cards: &[], mask: 0 },
            },
        }
    }

    /// Evaluates `e` at `st` with bound names `b` (what is read from cards in
    /// `Bound::eval_cards`, the loops over seats and table rows in `Bound::eval_other`, so
    /// a call for a common shape is short).
    pub fn eval(&self, e: &Expr, st: &State, b: &mut [i64; BINDS]) -> i64 {
        match e {
            Expr::Const(n) => *n,
            Expr::Param(p) => self.params[*p as usize],
            Expr::Var(v) => self.var(*v, st, b),
            Expr::Counter(c, index) => {
                let decl = &self.program.counters[*c as usize];
                let i = match index {
                    None => 0,
                    Some(i) => self.operand(i, st, b),
                };
                if i < 0 || i >= decl.len as i64 { 0 } else { st.counters[decl.first as usize + i as usize] }
            }
            Expr::Attr(card, a) => {
                let c = self.operand(card, st, b);
                self.attr(c, *a)
            }
            Expr::Size(z) => self.cards_of(z, st, b).len() as i64,
            Expr::Bin(op, x, y) => self.bin(*op, x, y, st, b),
            Expr::BinConst(op, x, c) => {
                let a = self.operand(x, st, b);
                Self::arith(*op, a, *c)
            }
            Expr::BinParam(op, x, p) => {
                let a = self.operand(x, st, b);
                Self::arith(*op, a, self.params[*p as usize])
            }
            Expr::ZoneSize(_) | Expr::SeatZoneSize(..) | Expr::CounterOne(_) | Expr::CounterBind(..) | Expr::CounterAttr(..) | Expr::AttrBind(..) => {
                self.leaf(e, st, b)
            }
            Expr::Not(x) => i64::from(self.eval(x, st, b) == 0),
            Expr::Count(..) | Expr::Sum(..) | Expr::Top(_) | Expr::Same(..) | Expr::Groups(..) | Expr::GroupSum(..) | Expr::Largest(..) => {
                self.eval_cards(e, st, b)
            }
            Expr::Rows(p) => self.rows[*p as usize].len() as i64,
            Expr::Chose(seat, a) => {
                let s = self.eval(seat, st, b);
                i64::from(s >= 0 && (s as usize) < MAX_SEATS && st.secret[s as usize].0 == *a + 1)
            }
            Expr::ChoseArg(seat) => {
                let s = self.eval(seat, st, b);
                if s >= 0 && (s as usize) < MAX_SEATS { st.secret[s as usize].1 } else { 0 }
            }
            Expr::Next(seat) => {
                let s = self.eval(seat, st, b);
                self.next_player(st, s.clamp(0, self.players as i64 - 1) as usize) as i64
            }
            Expr::MaxMin(max, x, y) => {
                let (a, c) = (self.eval(x, st, b), self.eval(y, st, b));
                if *max { a.max(c) } else { a.min(c) }
            }
            Expr::Abs(x) => self.eval(x, st, b).wrapping_abs(),
            Expr::If(c, x, y) => {
                if self.eval(c, st, b) != 0 {
                    self.eval(x, st, b)
                } else {
                    self.eval(y, st, b)
                }
            }
            Expr::Last(seat, arg) => {
                let s = self.eval(seat, st, b);
                if s < 0 || s as usize >= MAX_SEATS {
                    return -1;
                }
                let (a, v) = st.last[s as usize];
                if *arg { v } else { a as i64 - 1 }
            }
            Expr::Active(seat) => {
                let s = self.eval(seat, st, b);
                i64::from(s >= 0 && (s as usize) < self.seats && st.eliminated & (1 << s) == 0)
            }
            Expr::Neg(x) => self.eval(x, st, b).wrapping_neg(),
            Expr::Seats(..) | Expr::Row(..) => self.eval_other(e, st, b),
        }
    }

    /// A name's value (inlined in [`Bound::eval`]).
    #[inline(always)]
    fn var(&self, v: Var, st: &State, b: &mut [i64; BINDS]) -> i64 {
        match v {
            Var::Current => st.current as i64,
            Var::Players => self.players as i64,
            Var::Seats => self.seats as i64,
            Var::Turn => st.turn as i64,
            Var::RoundTurn => st.round_turn as i64,
            Var::Round => st.round as i64,
            Var::First => st.first as i64,
            Var::Bind(s) => b[s as usize],
            Var::Arg => b[ARG],
            Var::ChosenCount => self.cards_of(&Zone::Chosen, st, b).len() as i64,
        }
    }

    /// A binary operation, `and` / `or` short-circuited (inlined in [`Bound::eval`]).
    #[inline(always)]
    fn bin(&self, op: Op, x: &Expr, y: &Expr, st: &State, b: &mut [i64; BINDS]) -> i64 {
        let a = self.operand(x, st, b);
        match op {
            Op::And => {
                if a == 0 {
                    return 0;
                }
                i64::from(self.operand(y, st, b) != 0)
            }
            Op::Or => {
                if a != 0 {
                    return 1;
                }
                i64::from(self.operand(y, st, b) != 0)
            }
            _ => {
                let c = self.operand(y, st, b);
                Self::arith(op, a, c)
            }
        }
    }

    /// [`Bound::eval`] of what is read from a zone's cards: counts, sums, the top card, groups
    /// (inlined: conditions on candidate cards read them often).
    #[inline(always)]
    fn eval_cards(&self, e: &Expr, st: &State, b: &mut [i64; BINDS]) -> i64 {
        match e {
            Expr::Count(z, slot, cond) => {
                let cards = self.cards_of(z, st, b);
                let mut n = 0;
                for c in cards.iter() {
                    b[*slot as usize] = c as i64;
                    if self.eval(cond, st, b) != 0 {
                        n += 1;
                    }
                }
                n
            }
            Expr::Sum(z, slot, value) => {
                let cards = self.cards_of(z, st, b);
                let mut n = 0i64;
                for c in cards.iter() {
                    b[*slot as usize] = c as i64;
                    n = n.wrapping_add(self.eval(value, st, b));
                }
                n
            }
            Expr::Top(z) => self.cards_of(z, st, b).iter().last().map_or(-1, |c| c as i64),
            Expr::Same(z, a) => {
                let cards = self.cards_of(z, st, b);
                match cards.iter().next() {
                    None => 1,
                    Some(f) => i64::from(cards.iter().all(|c| self.attrs[c as usize][*a as usize] == self.attrs[f as usize][*a as usize])),
                }
            }
            Expr::Groups(z, attrs, slot, cond) | Expr::GroupSum(z, attrs, slot, cond) => {
                let sum = matches!(e, Expr::GroupSum(..));
                let (sizes, n) = self.group_sizes(self.cards_of(z, st, b), attrs);
                let mut total = 0i64;
                for &size in &sizes[..n] {
                    b[*slot as usize] = size as i64;
                    let v = self.eval(cond, st, b);
                    total = total.wrapping_add(if sum { v } else { i64::from(v != 0) });
                }
                total
            }
            Expr::Largest(z, attrs) => {
                let (sizes, n) = self.group_sizes(self.cards_of(z, st, b), attrs);
                sizes[..n].iter().copied().max().unwrap_or(0) as i64
            }
            _ => 0,
        }
    }

    /// [`Bound::eval`] of aggregates over seats and rows of table parameters.
    #[inline(never)]
    fn eval_other(&self, e: &Expr, st: &State, b: &mut [i64; BINDS]) -> i64 {
        match e {
            Expr::Seats(agg, slot, inner) => {
                let mut acc: i64 = match agg {
                    SeatAgg::Every => 1,
                    SeatAgg::Max => i64::MIN,
                    SeatAgg::Min => i64::MAX,
                    _ => 0,
                };
                for s in 0..self.seats {
                    b[*slot as usize] = s as i64;
                    let v = self.operand(inner, st, b);
                    match agg {
                        SeatAgg::Every => {
                            if v == 0 {
                                return 0;
                            }
                        }
                        SeatAgg::Some => {
                            if v != 0 {
                                return 1;
                            }
                        }
                        SeatAgg::Count => acc += i64::from(v != 0),
                        SeatAgg::Sum => acc = acc.wrapping_add(v),
                        SeatAgg::Max => acc = acc.max(v),
                        SeatAgg::Min => acc = acc.min(v),
                    }
                }
                acc
            }
            Expr::Row(p, row) => {
                let rows = &self.rows[*p as usize];
                let r = self.eval(row, st, b);
                let step = match self.program.params[*p as usize].kind {
                    ParamKind::Rows { step } => step,
                    _ => 0,
                };
                if r < 1 || rows.is_empty() {
                    0
                } else if (r as usize) <= rows.len() {
                    rows[r as usize - 1]
                } else {
                    rows[rows.len() - 1].saturating_add(step.saturating_mul(r - rows.len() as i64))
                }
            }
            _ => 0,
        }
    }

    /// The sizes of the groups of equal attribute values among `cards` (at most 64 groups).
    fn group_sizes(&self, cards: Cards<'_>, attrs: &[u8]) -> ([u16; 64], usize) {
        let mut sizes = [0u16; 64];
        let mut keys = [0u64; 64];
        let mut n = 0usize;
        for c in cards.iter() {
            let key = self.group_key(c, attrs);
            match keys[..n].iter().position(|&k| k == key) {
                Some(i) => sizes[i] += 1,
                None if n < 64 => {
                    keys[n] = key;
                    sizes[n] = 1;
                    n += 1;
                }
                None => {}
            }
        }
        (sizes, n)
    }

    fn group_key(&self, card: u16, attrs: &[u8]) -> u64 {
        if attrs.is_empty() {
            return self.kinds[card as usize] as u64;
        }
        let mut key = 0u64;
        for &a in attrs {
            key = key * 64 + self.attrs[card as usize][a as usize] as u64;
        }
        key
    }

    /// Whether a condition holds: an `and` / `or` of operands read in place (short-circuited
    /// as [`Bound::eval`] does), else the expression evaluated. Saves the call of `eval` on
    /// the end and skip conditions, checked every turn.
    #[inline(always)]
    pub(super) fn cond(&self, e: &Expr, st: &State, b: &mut [i64; BINDS]) -> bool {
        match e {
            Expr::Bin(Op::And, x, y) => self.operand(x, st, b) != 0 && self.operand(y, st, b) != 0,
            Expr::Bin(Op::Or, x, y) => self.operand(x, st, b) != 0 || self.operand(y, st, b) != 0,
            _ => self.operand(e, st, b) != 0,
        }
    }
}
