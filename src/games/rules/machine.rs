//! The machine that plays a compiled rules file: the table state, the evaluation of
//! expressions, the instructions run between two decisions, the legal choices of a seat,
//! what each seat knows of every card (for views, observations and determinizations).

use std::fmt::Write as _;
use std::sync::Arc;

use super::expr::{Expr, Op, SeatAgg, Var, Zone};
use super::program::*;
use crate::engine::{EventLog, GameRng, MAX_SEATS, Outcome, rng};

/// Instructions the machine runs between two decisions before it calls the game stuck (a
/// loop without a decision).
pub const STEP_LIMIT: u32 = 200_000;

/// Most choices one decision may offer (sets of cards from a large zone are cut here;
/// `validate` warns when a sampled game reaches it).
pub const CHOICE_LIMIT: usize = 1 << 16;

/// Most cards in a deck.
pub const MAX_CARDS: usize = 4096;

/// [`State::where_is`] of a die's faces that are not showing: in no zone.
pub const NOWHERE: u16 = u16::MAX;

/// A rules file bound to one variant's parameter values: the program, the values, the deck.
#[derive(Debug)]
pub struct Bound {
    /// The compiled file.
    pub program: Arc<Program>,
    /// Parameter values (rows of a table parameter are in `rows`).
    pub params: Vec<i64>,
    /// Rows of table parameters (empty for others).
    pub rows: Vec<Vec<i64>>,
    /// Acting seats.
    pub players: usize,
    /// Seats, dummies included.
    pub seats: usize,
    /// Attribute values of every card.
    pub attrs: Vec<[u8; 8]>,
    /// Kind (attribute combination) of every card.
    pub kinds: Vec<u32>,
    /// Per card when the deck has dice (else empty): the first card of its die and the
    /// die's faces (0: not a die). A die is one card per face, of which exactly one is on the
    /// table; the others are in no zone ([`NOWHERE`]).
    pub dice: Vec<(u16, u8)>,
    /// The cards each shared zone starts with (instance, cards).
    pub start: Vec<(u16, Vec<u16>)>,
    /// Turn cap.
    pub cap: u32,
    /// Rounds in the match (1: no rounds).
    pub rounds: u32,
    /// The first seat.
    pub first_seat: usize,
    /// The declaration (index in the program's zones) of every zone instance.
    pub instance_decl: Vec<u16>,
    /// The owner of every zone instance (-1: a shared zone).
    pub instance_owner: Vec<i8>,
    /// Seats that see the cards of every zone instance (bit per seat) and whether it shows
    /// its top card only (then the mask is for the top card): [`Bound::see_table`].
    pub see: Vec<(u8, bool)>,
    /// Per action, its choices counted ahead when their number depends only on the size of
    /// the zone chosen from ([`Bound::quick_table`]).
    pub quick: Vec<Option<QuickChoice>>,
}

/// An action whose choices are every set of `lo..=hi` cards by position from a shared zone
/// or the chooser's own, with no argument, no condition and both bounds constants or
/// parameters: how many choices it has for every size of that zone, worked out when the file
/// is bound, so a decision counts them with one look-up.
#[derive(Clone, Debug)]
pub struct QuickChoice {
    /// The zone's instance (shared), or its first instance (per seat: the chooser's).
    zone: u16,
    /// Whether the zone is the chooser's own.
    per_seat: bool,
    /// Fewest cards (at most 64: else no size has a choice).
    lo: u8,
    /// Most cards (at most 64).
    hi: u8,
    /// The number of choices from a zone of n cards (n up to 64); `u32::MAX` when it reaches
    /// [`CHOICE_LIMIT`] (left to the general walk, which cuts the list).
    totals: [u32; 65],
}

/// The table: every zone's cards, every counter, where the machine is in the rules, and
/// what each seat knows of every card.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Cards of each zone instance, bottom first.
    pub zones: Vec<Vec<u16>>,
    /// Counter values.
    pub counters: Vec<i64>,
    /// Bound names.
    pub binds: [i64; BINDS],
    /// Next instruction.
    pub pc: u32,
    /// Return addresses of the actions being applied.
    pub stack: [u32; STACK],
    /// Depth of `stack`.
    pub depth: u8,
    /// The seat whose turn it is.
    pub current: u8,
    /// The round's first seat.
    pub first: u8,
    /// Whether turn order runs backwards.
    pub reversed: bool,
    /// Turns played.
    pub turn: u32,
    /// Turns played this round.
    pub round_turn: u32,
    /// Rounds finished.
    pub round: u32,
    /// The cards the action being applied chose.
    pub chosen: Vec<u16>,
    /// Each seat's secret choice (action + 1, 0: none) and argument.
    pub secret: [(u16, i64); MAX_SEATS],
    /// Whether the secret choices were revealed.
    pub revealed: bool,
    /// The seat that must decide and the choose instruction it decides at.
    pub waiting: Option<(u8, u32)>,
    /// The number of legal choices of the waiting seat when the machine counted them as it
    /// stopped at the decision ([`Bound::random_choice`] draws below it without counting
    /// again); 0 when not counted (a choice that must be listed, or a state changed since).
    pub counted: u32,
    /// When every choice [`State::counted`] counts is one block (one action and argument,
    /// sets of cards of the same candidates), that block: [`Bound::random_choice`] finds the
    /// drawn choice in it without walking the actions again.
    pub block: Option<Block>,
    /// Bit s: seat s knows which zone the card is in.
    pub know_zone: Vec<u8>,
    /// Bit s: seat s knows the card's place in its zone.
    pub know_pos: Vec<u8>,
    /// Zone instance of every card.
    pub where_is: Vec<u16>,
    /// Eliminated seats.
    pub eliminated: u8,
    /// Turn each seat was eliminated in.
    pub eliminated_at: [u32; MAX_SEATS],
    /// The next seat in turn order loses its turn.
    pub skip_next: bool,
    /// The next turn's seat, when a step named it.
    pub next_seat: Option<u8>,
    /// Seats passed over in a row.
    pub passed: u8,
    /// A turn is under way (begun, not yet ended): `end game` and `end round` in it count it
    /// as played, as a player would count the turn in which the game ended.
    pub in_turn: bool,
    /// Whether the game is over.
    pub over: bool,
    /// End reason.
    pub end_reason: u8,
    /// Winners (bit per seat).
    pub winners: u16,
    /// Each seat's last action (+1; 0: none) and argument, for rules against repeating.
    pub last: [(u16, i64); MAX_SEATS],
}

impl Bound {
    /// The program.
    pub fn p(&self) -> &Program {
        &self.program
    }

    /// Attribute `a` of `card`.
    #[inline]
    pub fn attr(&self, card: i64, a: u8) -> i64 {
        if card < 0 || card as usize >= self.attrs.len() { -1 } else { self.attrs[card as usize][a as usize] as i64 }
    }

    /// The zone-instance tables of `program` ([`Bound::instance_decl`], [`Bound::instance_owner`]):
    /// every instance's declaration and owner, looked up by index while a game plays.
    pub fn instance_tables(program: &Program) -> (Vec<u16>, Vec<i8>) {
        let mut decl = vec![0u16; program.zone_slots];
        let mut owner = vec![-1i8; program.zone_slots];
        for (d, z) in program.zones.iter().enumerate().rev() {
            let n = if z.per_seat { SEAT_SLOTS } else { 1 };
            for i in 0..n {
                let at = z.first as usize + i;
                if at < program.zone_slots {
                    decl[at] = d as u16;
                    owner[at] = if z.per_seat { i as i8 } else { -1 };
                }
            }
        }
        (decl, owner)
    }

    /// A card's name: its attribute values (`red star`, `7 hearts`); a die's is `die` and its
    /// face (`die 5`).
    pub fn card_name(&self, card: u16) -> String {
        let name = self.face_name(card);
        if self.is_die(card as usize) { format!("die {name}") } else { name }
    }

    /// A card's attribute values, as its name says them (a die's: its face).
    fn face_name(&self, card: u16) -> String {
        let p = self.p();
        if p.chroma_wilds {
            return self.kit_name(card);
        }
        let mut out = String::new();
        for (i, a) in p.attrs.iter().enumerate() {
            if a.values.len() <= 1 && p.attrs.len() > 1 {
                continue;
            }
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&a.values[self.attrs[card as usize][i] as usize]);
        }
        out
    }

    /// A Chroma kit card's name as the kit says it (`red star`, `red wild`, `star wild`,
    /// `all-colors`, `skip`), then any attribute the file adds.
    fn kit_name(&self, card: u16) -> String {
        let p = self.p();
        let v = &self.attrs[card as usize];
        let value = |a: usize| p.attrs[a].values[v[a] as usize].as_str();
        let mut out = match v[2] {
            0 => format!("{} {}", value(0), value(1)),
            1 => format!("{} wild", value(0)),
            2 => format!("{} wild", value(1)),
            3 => "all-colors".to_string(),
            4 => "all-shapes".to_string(),
            _ => value(3).replace('_', "-"),
        };
        for a in 4..p.attrs.len() {
            if p.attrs[a].values.len() > 1 {
                out.push(' ');
                out.push_str(value(a));
            }
        }
        out
    }

    /// Names of cards, comma-separated.
    pub fn cards_text(&self, cards: &[u16]) -> String {
        cards.iter().map(|&c| self.card_name(c)).collect::<Vec<_>>().join(", ")
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
    fn operand(&self, e: &Expr, st: &State, b: &mut [i64; BINDS]) -> i64 {
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
    fn zone_at(&self, z: &Zone, st: &State) -> Option<usize> {
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

    fn cards_of<'s>(&self, z: &Zone, st: &'s State, b: &mut [i64; BINDS]) -> Cards<'s> {
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

    /// The acting seat after `seat` in turn order, passing over eliminated seats.
    pub fn next_player(&self, st: &State, seat: usize) -> usize {
        let n = self.players;
        let mut s = seat;
        for _ in 0..n {
            s = if st.reversed { (s + n - 1) % n } else { (s + 1) % n };
            if st.eliminated & (1 << s) == 0 {
                return s;
            }
        }
        seat
    }

    // ---- Setting up ----

    /// A new game: the deck in its zones, counters at their start, set-up run up to the first
    /// decision.
    pub fn deal(&self, rng: &mut GameRng, log: &mut EventLog<Event>) -> State {
        let mut st = State::empty();
        self.deal_into(rng, log, &mut st);
        st
    }

    /// [`Bound::deal`] into `st`, a state of an earlier game of this file, keeping its buffers:
    /// afterwards `st` is exactly what `deal` returns from the same stream.
    pub fn deal_into(&self, rng: &mut GameRng, log: &mut EventLog<Event>, st: &mut State) {
        let p = self.p();
        let cards = self.attrs.len();
        let mut zones = std::mem::take(&mut st.zones);
        let mut counters = std::mem::take(&mut st.counters);
        let mut know_zone = std::mem::take(&mut st.know_zone);
        let mut know_pos = std::mem::take(&mut st.know_pos);
        let mut where_is = std::mem::take(&mut st.where_is);
        let mut chosen = std::mem::take(&mut st.chosen);
        *st = State::empty();
        zones.truncate(p.zone_slots);
        for z in &mut zones {
            z.clear();
        }
        zones.resize_with(p.zone_slots, Vec::new);
        let reset = |v: &mut Vec<_>, n: usize| {
            v.clear();
            v.resize(n, 0);
        };
        counters.clear();
        counters.resize(p.counter_slots, 0);
        reset(&mut know_zone, cards);
        reset(&mut know_pos, cards);
        where_is.clear();
        where_is.resize(cards, 0);
        // A die's faces are in no zone but the one it shows (set from `start` below).
        for (c, &(_, faces)) in self.dice.iter().enumerate() {
            if faces > 0 {
                where_is[c] = NOWHERE;
            }
        }
        chosen.clear();
        st.zones = zones;
        st.counters = counters;
        st.know_zone = know_zone;
        st.know_pos = know_pos;
        st.where_is = where_is;
        st.chosen = chosen;
        st.current = self.first_seat as u8;
        st.first = self.first_seat as u8;
        for (zone, list) in &self.start {
            for &c in list {
                st.where_is[c as usize] = *zone;
            }
            st.zones[*zone as usize].extend_from_slice(list);
        }
        let all = self.all_seats_mask();
        for z in 0..p.zone_slots {
            for i in 0..st.zones[z].len() {
                let c = st.zones[z][i] as usize;
                // Every seat knows where the deck starts (not in what order, unless it sees it).
                st.know_zone[c] = all;
                st.know_pos[c] = self.seers(z, st, i);
            }
        }
        let mut b = [0i64; BINDS];
        for decl in &p.counters {
            for i in 0..decl.len {
                b[0] = i as i64;
                st.counters[decl.first as usize + i as usize] = self.eval(&decl.start, st, &mut b);
            }
        }
        self.run(st, rng, log);
    }

    fn all_seats_mask(&self) -> u8 {
        ((1u16 << self.seats) - 1) as u8
    }

    /// The owner of zone instance `z` (None for a shared zone).
    #[inline]
    pub fn owner(&self, z: usize) -> Option<usize> {
        let o = self.instance_owner[z];
        if o < 0 { None } else { Some(o as usize) }
    }

    /// The declaration of zone instance `z`.
    #[inline]
    pub fn zone_decl(&self, z: usize) -> &ZoneDecl {
        &self.program.zones[self.instance_decl[z] as usize]
    }

    /// Seats that see the card at index `i` of zone instance `z` (bit per seat).
    #[inline(always)]
    pub fn seers(&self, z: usize, st: &State, i: usize) -> u8 {
        let (mask, top) = self.see[z];
        if !top || i + 1 == st.zones[z].len() { mask } else { 0 }
    }

    /// [`Bound::quick`]: for every action of the shape [`QuickChoice`] describes, its number of
    /// choices for each size of the zone, the sum `Bound::count_or_pick` makes.
    pub fn quick_table(&self) -> Vec<Option<QuickChoice>> {
        let value = |e: &Expr| match e {
            Expr::Const(n) => Some(*n),
            Expr::Param(p) => Some(self.params[*p as usize]),
            _ => None,
        };
        let quick = |decl: &ActionDecl| -> Option<QuickChoice> {
            let choice = decl.cards.as_ref()?;
            if !matches!(decl.arg, ArgChoice::None)
                || decl.condition.is_some()
                || choice.each.is_some()
                || choice.set.is_some()
                || choice.by != ChoiceBy::Position
            {
                return None;
            }
            let (zone, per_seat) = match &choice.from {
                Zone::Shared(i) => (*i, false),
                Zone::OfSeat(first, seat) if matches!(**seat, Expr::Var(Var::Bind(0))) => (*first, true),
                _ => return None,
            };
            let lo = value(&choice.min)?.max(0);
            let hi = value(&choice.max)?.clamp(0, 64);
            let mut totals = [0u32; 65];
            for (n, t) in totals.iter_mut().enumerate() {
                let mut total = 0usize;
                for k in lo..=hi.min(n as i64) {
                    total += binomial(n, k as usize).min(CHOICE_LIMIT as u64) as usize;
                    if total >= CHOICE_LIMIT {
                        break;
                    }
                }
                *t = if total >= CHOICE_LIMIT { u32::MAX } else { total as u32 };
            }
            Some(QuickChoice { zone, per_seat, lo: lo.min(64) as u8, hi: hi as u8, totals })
        };
        self.program.actions.iter().map(quick).collect()
    }

    /// [`Bound::see`] from the zones' visibility and the seats at the table.
    pub fn see_table(&self) -> Vec<(u8, bool)> {
        (0..self.instance_decl.len())
            .map(|z| match self.zone_decl(z).visibility {
                Visibility::Everyone => (self.all_seats_mask(), false),
                Visibility::Owner => (self.owner(z).map_or(0, |o| 1 << o), false),
                Visibility::Nobody => (0, false),
                Visibility::Top => (self.all_seats_mask(), true),
            })
            .collect()
    }

    // ---- Moving cards ----

    #[inline(always)]
    fn take(&self, st: &mut State, z: usize, end: End) -> Option<u16> {
        let card = match end {
            End::Top => st.zones[z].pop(),
            End::Bottom => {
                if st.zones[z].is_empty() {
                    None
                } else {
                    Some(st.zones[z].remove(0))
                }
            }
        }?;
        // A top-visible zone shows its new top.
        if let Some(&top) = st.zones[z].last()
            && self.see[z].1
        {
            let all = self.all_seats_mask();
            st.know_zone[top as usize] |= all;
            st.know_pos[top as usize] |= all;
        }
        Some(card)
    }

    #[inline(always)]
    fn put(&self, st: &mut State, card: u16, z: usize, end: End) {
        let c = card as usize;
        match end {
            End::Top => st.zones[z].push(card),
            End::Bottom => st.zones[z].insert(0, card),
        }
        st.where_is[c] = z as u16;
        let i = if end == End::Top { st.zones[z].len() - 1 } else { 0 };
        let see = self.seers(z, st, i);
        // A seat that knew the card's place saw which card moved and keeps track of it; a seat
        // that only knew its zone (a card somewhere in the draw pile) saw "a card" move and
        // loses track; whoever sees it where it lands knows it.
        let knew = st.know_pos[c];
        st.know_zone[c] = knew | see;
        st.know_pos[c] = knew | see;
    }

    fn move_cards(&self, st: &mut State, (from, to): (usize, usize), count: usize, (take, put): (End, End), log: &mut EventLog<Event>) {
        if (take, put) == (End::Top, End::Top) && !log.enabled() {
            // `take` and `put` of the tops with what they look up read once: a card put on
            // top is seen by the seats that see the zone's top.
            let see = self.see[to].0;
            let from_shows_top = self.see[from].1;
            for _ in 0..count {
                let Some(card) = st.zones[from].pop() else { break };
                if from_shows_top {
                    self.show_top(st, from);
                }
                st.zones[to].push(card);
                let c = card as usize;
                st.where_is[c] = to as u16;
                let known = st.know_pos[c] | see;
                st.know_zone[c] = known;
                st.know_pos[c] = known;
            }
            return;
        }
        for _ in 0..count {
            let Some(card) = self.take(st, from, take) else { break };
            self.put(st, card, to, put);
            if log.enabled() {
                self.log_move(st, card, from, to, log);
            }
        }
    }

    fn log_move(&self, st: &State, card: u16, from: usize, to: usize, log: &mut EventLog<Event>) {
        let knows = st.know_zone[card as usize] & self.all_seats_mask();
        let (f, t) = (self.zone_label(from), self.zone_label(to));
        if knows != 0 {
            let text = format!("{} moves from {f} to {t}", self.card_name(card));
            log.emit(|| Event { to: knows, text });
        }
        let others = self.all_seats_mask() & !knows;
        if others != 0 {
            log.emit(|| Event { to: others, text: format!("a card moves from {f} to {t}") });
        }
    }

    /// A zone instance in words (`draw`, `hand of seat 2`).
    pub fn zone_label(&self, z: usize) -> String {
        let decl = self.zone_decl(z);
        match self.owner(z) {
            Some(o) => format!("{} of seat {o}", decl.name),
            None => decl.name.clone(),
        }
    }

    fn shuffle(&self, st: &mut State, z: usize, rng: &mut GameRng) {
        let cards = &mut st.zones[z];
        let n = cards.len();
        for i in (1..n).rev() {
            let j = rng::below((i + 1) as u32, rng) as usize;
            cards.swap(i, j);
        }
        let see_all = match self.zone_decl(z).visibility {
            Visibility::Everyone => self.all_seats_mask(),
            Visibility::Owner => self.owner(z).map_or(0, |o| 1 << o),
            _ => 0,
        };
        for i in 0..n {
            let c = st.zones[z][i] as usize;
            st.know_pos[c] = see_all | self.seers(z, st, i);
            st.know_zone[c] |= see_all | self.seers(z, st, i);
        }
    }

    // ---- Running ----

    /// Runs instructions until a seat must decide or the game is over.
    pub fn run(&self, st: &mut State, rng: &mut GameRng, log: &mut EventLog<Event>) {
        let code = &self.program.code[..];
        let mut steps = 0u32;
        st.waiting = None;
        st.counted = 0;
        st.block = None;
        // The bound names the instructions read, kept in step with the state's: every write of
        // a step's slot goes to both, and the two steps that use slot 0 or the last four as
        // scratch (the skip condition, a choice with nothing legal) put them back. The
        // expression slots in between are always written before an expression reads them (and
        // are 0 in a state, which never sets them): one copy of the whole array, no zeroing.
        let mut b = st.binds;
        while !st.over {
            steps += 1;
            if steps > STEP_LIMIT {
                self.stop_stuck(st, log);
                return;
            }
            let pc = st.pc as usize;
            st.pc += 1;
            match &code[pc] {
                Instr::Jump(to) => st.pc = *to,
                Instr::JumpIfNot(c, to) => {
                    if self.operand(c, st, &mut b) == 0 {
                        st.pc = *to;
                    }
                }
                Instr::Assign { slots, index, op, value, .. } => self.assign(st, &mut b, *slots, index.as_ref(), *op, value),
                Instr::Bind(slot, e) => {
                    let v = self.operand(e, st, &mut b);
                    st.binds[*slot as usize] = v;
                    b[*slot as usize] = v;
                }
                Instr::CardLoopStart { slot, index, exit } => {
                    if st.chosen.is_empty() {
                        st.pc = *exit;
                    } else {
                        Self::set_bind(st, &mut b, *index, 0);
                        Self::set_bind(st, &mut b, *slot, st.chosen[0] as i64);
                    }
                }
                Instr::CardLoopNext { slot, index, body } => {
                    let i = st.binds[*index as usize] as usize + 1;
                    if i < st.chosen.len() {
                        Self::set_bind(st, &mut b, *index, i as i64);
                        Self::set_bind(st, &mut b, *slot, st.chosen[i] as i64);
                        st.pc = *body;
                    }
                }
                Instr::Return => {
                    if st.depth > 0 {
                        st.depth -= 1;
                        st.pc = st.stack[st.depth as usize];
                    }
                }
                Instr::MoveChosen { to } => {
                    if let Some(t) = self.zone(to, st, &mut b) {
                        self.move_chosen(st, t, usize::MAX, log);
                    }
                }
                Instr::Choose { seat, .. } => {
                    if self.choose(st, &mut b, seat.as_ref(), pc) {
                        return;
                    }
                }
                Instr::TurnStart => self.turn_start(st, &mut b, pc),
                Instr::TurnEnd => self.turn_end(st, &mut b),
                Instr::Fill { to, size, from } => self.fill(st, &mut b, (to, from), size, log),
                ins @ (Instr::Move { .. } | Instr::MoveWhere { .. } | Instr::MoveCard { .. } | Instr::Deal { .. } | Instr::Shuffle(_) | Instr::Reveal(_)) => {
                    self.step_cards(ins, st, &mut b, rng, log)
                }
                ins @ (Instr::SeatLoopStart { .. } | Instr::SeatLoopNext { .. } | Instr::LoopGuard { .. }) => self.step_loop(ins, st, &mut b),
                ins @ (Instr::EndTurn | Instr::EndRound | Instr::EndGame(_) | Instr::RoundStart | Instr::RoundEnd) => self.step_round(ins, st, &mut b),
                ins => self.step_other(ins, st, &mut b, rng, log),
            }
        }
    }

    /// Sets bind slot `slot` in the state and in the machine's copy `b`.
    #[inline(always)]
    fn set_bind(st: &mut State, b: &mut [i64; BINDS], slot: u8, v: i64) {
        st.binds[slot as usize] = v;
        b[slot as usize] = v;
    }

    /// Stops a game whose steps ran [`STEP_LIMIT`] times without a decision.
    #[cold]
    #[inline(never)]
    fn stop_stuck(&self, st: &mut State, log: &mut EventLog<Event>) {
        self.end_game(st, self.p().reason_stuck);
        log.emit(|| Event::all(format!("the game is stopped: {STEP_LIMIT} steps ran without a decision (end reason `stuck`)")));
    }

    /// `counter[index] op value`, the counter's slots starting at `first` (`len` of them).
    #[inline(always)]
    fn assign(&self, st: &mut State, b: &mut [i64; BINDS], (first, len): (u16, u16), index: Option<&Expr>, op: AssignOp, value: &Expr) {
        let i = index.map_or(0, |i| self.operand(i, st, b));
        let v = self.operand(value, st, b);
        if i >= 0 && i < len as i64 {
            let slot = &mut st.counters[first as usize + i as usize];
            *slot = match op {
                AssignOp::Set => v,
                AssignOp::Add => slot.saturating_add(v),
                AssignOp::Sub => slot.saturating_sub(v),
            };
        }
    }

    /// The choose instruction at `pc`: true when the machine stops there (the seat has a
    /// legal choice), with the count of its choices kept.
    #[inline(never)]
    fn choose(&self, st: &mut State, b: &mut [i64; BINDS], seat: Option<&Expr>, pc: usize) -> bool {
        let s = match seat {
            None => st.current as i64,
            Some(e) => self.operand(e, st, b),
        };
        if s < 0 || s as usize >= self.players || st.eliminated & (1 << s) != 0 {
            return false;
        }
        st.binds[0] = s;
        b[0] = s;
        let (counted, block) = self.any_legal(st, b, s as usize, pc as u32);
        b[0] = st.binds[0];
        b[BINDS - 4..].copy_from_slice(&st.binds[BINDS - 4..]);
        if counted == 0 {
            return false;
        }
        st.pc = pc as u32;
        st.waiting = Some((s as u8, pc as u32));
        st.counted = if counted == usize::MAX { 0 } else { counted as u32 };
        st.block = if counted == usize::MAX { None } else { block };
        st.chosen.clear();
        true
    }

    /// The start of a turn at `pc`: passes over seats the skip condition holds for.
    #[inline(never)]
    fn turn_start(&self, st: &mut State, b: &mut [i64; BINDS], pc: usize) {
        let p = self.p();
        st.depth = 0;
        if st.eliminated & (1 << st.current) != 0 {
            st.current = self.next_player(st, st.current as usize) as u8;
        }
        if let Some(skip) = &p.skip {
            b[0] = st.current as i64;
            let skipped = self.cond(skip, st, b);
            b[0] = st.binds[0];
            if skipped {
                st.passed += 1;
                if st.passed as usize > self.players {
                    self.end_game(st, p.reason_stuck);
                    return;
                }
                st.current = self.next_player(st, st.current as usize) as u8;
                st.pc = pc as u32;
                return;
            }
        }
        st.passed = 0;
        st.in_turn = true;
    }

    /// The end of a turn: counts it, checks the end, the round's end and the cap, passes the
    /// turn on.
    #[inline(never)]
    fn turn_end(&self, st: &mut State, b: &mut [i64; BINDS]) {
        let p = self.p();
        st.depth = 0;
        st.in_turn = false;
        st.turn += 1;
        st.round_turn += 1;
        if let Some(reason) = self.first_end(&p.game_ends, st, b) {
            self.end_game(st, reason);
            return;
        }
        if !p.round_ends.is_empty()
            && let Some(_reason) = self.first_end(&p.round_ends, st, b)
        {
            st.pc = p.round_end;
            return;
        }
        if p.rounds.is_some() {
            if st.round_turn >= self.cap {
                st.pc = if p.capped_round_scores { p.round_end } else { p.round_end + self.round_end_len() };
                return;
            }
        } else if st.turn >= self.cap {
            self.end_game(st, p.reason_cap);
            return;
        }
        self.pass_turn(st);
        st.pc = p.turn_start;
    }

    /// `fill to up to size from from`.
    #[inline(never)]
    fn fill(&self, st: &mut State, b: &mut [i64; BINDS], (to, from): (&Zone, &Zone), size: &Expr, log: &mut EventLog<Event>) {
        let n = self.operand(size, st, b).max(0) as usize;
        if let (Some(t), Some(f)) = (self.zone(to, st, b), self.zone(from, st, b)) {
            let have = st.zones[t].len();
            if have < n {
                self.move_cards(st, (f, t), n - have, (End::Top, End::Top), log);
            }
        }
    }

    /// Moves, deals, shuffles and reveals of cards.
    #[inline(never)]
    fn step_cards(&self, ins: &Instr, st: &mut State, b: &mut [i64; BINDS], rng: &mut GameRng, log: &mut EventLog<Event>) {
        match ins {
            Instr::Move { from, to, count, take, put } => {
                let n = match count {
                    None => usize::MAX,
                    Some(e) => self.operand(e, st, b).max(0) as usize,
                };
                if matches!(from, Zone::Chosen) {
                    if let Some(to) = self.zone(to, st, b) {
                        self.move_chosen(st, to, n, log);
                    }
                } else if let (Some(f), Some(t)) = (self.zone(from, st, b), self.zone(to, st, b)) {
                    self.move_cards(st, (f, t), n, (*take, *put), log);
                }
            }
            Instr::MoveWhere { from, to, count, put, slot, cond } => self.move_where(st, b, (from, to), count.as_ref(), *put, (*slot, cond), log),
            Instr::MoveCard { card, to } => {
                let c = self.operand(card, st, b);
                if c >= 0
                    && (c as usize) < self.attrs.len()
                    && let Some(t) = self.zone(to, st, b)
                {
                    let from = st.where_is[c as usize] as usize;
                    if let Some(i) = st.zones[from].iter().position(|&x| x as i64 == c) {
                        st.zones[from].remove(i);
                        self.put(st, c as u16, t, End::Top);
                    }
                }
            }
            Instr::Deal { from, to, count } => {
                let n = self.operand(count, st, b).max(0) as usize;
                if let Some(f) = self.zone(from, st, b) {
                    for _ in 0..n {
                        if st.zones[f].is_empty() {
                            break;
                        }
                        let mut s = st.first as usize;
                        for _ in 0..self.players {
                            if st.eliminated & (1 << s) == 0 {
                                self.move_cards(st, (f, *to as usize + s), 1, (End::Top, End::Top), log);
                            }
                            s = (s + 1) % self.players;
                        }
                    }
                }
            }
            Instr::Shuffle(z) => {
                if let Some(z) = self.zone(z, st, b) {
                    self.shuffle(st, z, rng);
                }
            }
            Instr::Reveal(z) => self.reveal(st, b, z, log),
            _ => {}
        }
    }

    /// `move N from A to B where C`: the cards of `from` the condition holds for, from the top
    /// down, at most `count`.
    #[allow(clippy::too_many_arguments)]
    fn move_where(
        &self,
        st: &mut State,
        b: &mut [i64; BINDS],
        (from, to): (&Zone, &Zone),
        count: Option<&Expr>,
        put: End,
        (slot, cond): (u8, &Expr),
        log: &mut EventLog<Event>,
    ) {
        let n = match count {
            None => usize::MAX,
            Some(e) => self.operand(e, st, b).max(0) as usize,
        };
        let (Some(f), Some(t)) = (self.zone(from, st, b), self.zone(to, st, b)) else { return };
        let mut picked = Vec::new();
        for i in (0..st.zones[f].len()).rev() {
            if picked.len() >= n {
                break;
            }
            b[slot as usize] = i64::from(st.zones[f][i]);
            if self.operand(cond, st, b) != 0 {
                picked.push(i);
            }
        }
        for i in picked {
            let card = st.zones[f].remove(i);
            self.show_top(st, f);
            self.put(st, card, t, put);
            if log.enabled() {
                self.log_move(st, card, f, t, log);
            }
        }
    }

    /// A top-visible zone shows its new top (after a card left it).
    #[inline(always)]
    fn show_top(&self, st: &mut State, z: usize) {
        if let Some(&top) = st.zones[z].last()
            && self.see[z].1
        {
            let all = self.all_seats_mask();
            st.know_zone[top as usize] |= all;
            st.know_pos[top as usize] |= all;
        }
    }

    /// `reveal Z`: every seat sees the zone's cards.
    fn reveal(&self, st: &mut State, b: &mut [i64; BINDS], z: &Zone, log: &mut EventLog<Event>) {
        let cards: Vec<u16> = self.cards_of(z, st, b).iter().collect();
        let all = self.all_seats_mask();
        for &c in &cards {
            st.know_zone[c as usize] |= all;
            st.know_pos[c as usize] |= all;
        }
        if log.enabled() && !cards.is_empty() {
            let text = format!("revealed: {}", self.cards_text(&cards));
            log.emit(|| Event::all(text));
        }
    }

    /// Seat loops and loop guards.
    #[inline(never)]
    fn step_loop(&self, ins: &Instr, st: &mut State, b: &mut [i64; BINDS]) {
        match ins {
            Instr::SeatLoopStart { which, slot, left, exit } => {
                let (first, n) = match which {
                    SeatLoop::Players => (st.current as usize, self.active_players(st)),
                    SeatLoop::Others => (self.next_player(st, st.current as usize), self.active_players(st).saturating_sub(1)),
                    SeatLoop::Seats => (0, self.seats),
                };
                if n == 0 {
                    st.pc = *exit;
                } else {
                    Self::set_bind(st, b, *slot, first as i64);
                    Self::set_bind(st, b, *left, n as i64 - 1);
                }
            }
            Instr::SeatLoopNext { which, slot, left, body } if st.binds[*left as usize] > 0 => {
                let s = st.binds[*slot as usize] as usize;
                let next = match which {
                    SeatLoop::Seats => s as i64 + 1,
                    _ => self.next_player(st, s) as i64,
                };
                Self::set_bind(st, b, *left, st.binds[*left as usize] - 1);
                Self::set_bind(st, b, *slot, next);
                st.pc = *body;
            }
            Instr::LoopGuard { guard } => {
                Self::set_bind(st, b, *guard, st.binds[*guard as usize] + 1);
                if st.binds[*guard as usize] > STEP_LIMIT as i64 {
                    self.end_game(st, self.p().reason_stuck);
                }
            }
            _ => {}
        }
    }

    /// The ends of turns, rounds and the game.
    #[inline(never)]
    fn step_round(&self, ins: &Instr, st: &mut State, b: &mut [i64; BINDS]) {
        let p = self.p();
        match ins {
            Instr::EndTurn => {
                // Compiled as a jump; kept for safety.
                st.depth = 0;
                st.pc = p.turn_end;
            }
            Instr::EndRound => {
                st.depth = 0;
                Self::count_turn_under_way(st);
                st.pc = p.round_end;
            }
            Instr::EndGame(reason) => {
                Self::count_turn_under_way(st);
                self.end_game(st, *reason);
            }
            Instr::RoundStart => {
                st.round_turn = 0;
                st.current = st.first;
            }
            Instr::RoundEnd => {
                st.round += 1;
                if p.rounds.is_none() {
                    let reason = self.first_end(&p.round_ends, st, b).unwrap_or(p.reason_rounds);
                    self.end_game(st, reason);
                    return;
                }
                if st.round >= self.rounds {
                    let reason = if st.round_turn >= self.cap && self.first_end(&p.round_ends, st, b).is_none() { p.reason_cap } else { p.reason_rounds };
                    self.end_game(st, reason);
                    return;
                }
                if p.rotate_first {
                    st.first = self.next_player(st, st.first as usize) as u8;
                }
                st.pc = p.round_start;
            }
            _ => {}
        }
    }

    /// Rolls, lines of the trace, revealed choices and the turn order's changes.
    #[inline(never)]
    fn step_other(&self, ins: &Instr, st: &mut State, b: &mut [i64; BINDS], rng: &mut GameRng, log: &mut EventLog<Event>) {
        match ins {
            Instr::RevealChoices => self.reveal_choices(st, log),
            Instr::RollDice(z) => self.roll_dice(st, b, z, rng, log),
            Instr::Roll { counter, index, faces } => {
                let decl = &self.program.counters[*counter as usize];
                let i = index.as_ref().map_or(0, |i| self.operand(i, st, b));
                let f = self.operand(faces, st, b).clamp(1, u32::MAX as i64) as u32;
                let v = rng::below(f, rng) as i64 + 1;
                if i >= 0 && i < decl.len as i64 {
                    st.counters[decl.first as usize + i as usize] = v;
                }
                log.emit(|| Event::all(format!("rolled {v} ({})", decl.name)));
            }
            Instr::Say(t) if log.enabled() => {
                let text = self.render(t, st, b);
                log.emit(|| Event::all(text));
            }
            Instr::NextSeat(e) => {
                let s = self.operand(e, st, b);
                if s >= 0 && (s as usize) < self.players {
                    st.next_seat = Some(s as u8);
                }
            }
            Instr::Skip => st.skip_next = true,
            Instr::Reverse => st.reversed = !st.reversed,
            Instr::Eliminate(e) => {
                let s = self.operand(e, st, b);
                if s >= 0 && (s as usize) < self.seats && st.eliminated & (1 << s) == 0 {
                    st.eliminated |= 1 << s;
                    st.eliminated_at[s as usize] = st.turn.max(1);
                    log.emit(|| Event::all(format!("seat {s} is out")));
                }
            }
            // The rest are run in `run` itself.
            _ => {}
        }
    }

    /// `roll Z` / `roll chosen`: every die there shows a fair random face, in the same place;
    /// only the seats that see its place know the new face (cards that are not dice stay).
    fn roll_dice(&self, st: &mut State, b: &mut [i64; BINDS], z: &Zone, rng: &mut GameRng, log: &mut EventLog<Event>) {
        if self.dice.is_empty() {
            return;
        }
        let mut rolled = 0usize;
        if matches!(z, Zone::Chosen) {
            for k in 0..st.chosen.len() {
                let c = st.chosen[k];
                let at = st.where_is[c as usize];
                if at == NOWHERE {
                    continue;
                }
                if let Some(i) = st.zones[at as usize].iter().position(|&x| x == c) {
                    st.chosen[k] = self.roll_one(st, at as usize, i, rng);
                    rolled += 1;
                }
            }
        } else if let Some(at) = self.zone(z, st, b) {
            for i in 0..st.zones[at].len() {
                self.roll_one(st, at, i, rng);
                rolled += 1;
            }
            if log.enabled() && rolled > 0 {
                let see = self.see[at].0 & self.all_seats_mask();
                let label = self.zone_label(at);
                let faces = st.zones[at].iter().map(|&c| self.face_name(c)).collect::<Vec<_>>().join(", ");
                if see != 0 {
                    log.emit(|| Event { to: see, text: format!("{label} is rolled: {faces}") });
                }
                let others = self.all_seats_mask() & !see;
                if others != 0 {
                    log.emit(|| Event { to: others, text: format!("{label} is rolled ({rolled} dice)") });
                }
            }
            return;
        }
        if log.enabled() && rolled > 0 {
            log.emit(|| Event::all(format!("{rolled} chosen dice are rolled")));
        }
    }

    /// Rolls the card at place `i` of zone `z` when it is a die: the card of the new face takes
    /// its place (the old one leaves every zone), known to the seats that see the place.
    fn roll_one(&self, st: &mut State, z: usize, i: usize, rng: &mut GameRng) -> u16 {
        let c = st.zones[z][i];
        let (first, faces) = self.dice[c as usize];
        if faces == 0 {
            return c;
        }
        let n = first + rng::below(u32::from(faces), rng) as u16;
        if n != c {
            st.zones[z][i] = n;
            st.where_is[c as usize] = NOWHERE;
            st.know_zone[c as usize] = 0;
            st.know_pos[c as usize] = 0;
            st.where_is[n as usize] = z as u16;
        }
        let see = self.seers(z, st, i);
        st.know_zone[n as usize] = see;
        st.know_pos[n as usize] = see;
        n
    }

    /// Whether card `c` is a die (its place is public; its face may not be).
    #[inline]
    pub fn is_die(&self, c: usize) -> bool {
        self.dice.get(c).is_some_and(|&(_, faces)| faces > 0)
    }

    /// `reveal choices`: the seats' secret choices become public (and their last choices).
    fn reveal_choices(&self, st: &mut State, log: &mut EventLog<Event>) {
        st.revealed = true;
        for s in 0..MAX_SEATS {
            if st.secret[s].0 > 0 {
                st.last[s] = st.secret[s];
            }
        }
        if log.enabled() {
            let text = (0..self.players)
                .filter(|&s| st.secret[s].0 > 0)
                .map(|s| format!("seat {s} chose {}", self.action_text_short(s, st)))
                .collect::<Vec<_>>()
                .join("; ");
            log.emit(|| Event::all(text));
        }
    }

    fn round_end_len(&self) -> u32 {
        // From the round's end steps to its RoundEnd instruction.
        let p = self.p();
        let mut i = p.round_end as usize;
        while !matches!(p.code[i], Instr::RoundEnd) {
            i += 1;
        }
        (i - p.round_end as usize) as u32
    }

    fn active_players(&self, st: &State) -> usize {
        (0..self.players).filter(|&s| st.eliminated & (1 << s) == 0).count()
    }

    fn pass_turn(&self, st: &mut State) {
        let mut next = match st.next_seat.take() {
            Some(s) => s as usize,
            None => self.next_player(st, st.current as usize),
        };
        if st.skip_next {
            st.skip_next = false;
            next = self.next_player(st, next);
        }
        st.current = next as u8;
    }

    fn first_end(&self, checks: &[EndCheck], st: &State, b: &mut [i64; BINDS]) -> Option<u8> {
        checks.iter().find(|c| self.cond(&c.condition, st, b)).map(|c| c.reason)
    }

    /// Whether a condition holds: an `and` / `or` of operands read in place (short-circuited
    /// as [`Bound::eval`] does), else the expression evaluated. Saves the call of `eval` on
    /// the end and skip conditions, checked every turn.
    #[inline(always)]
    fn cond(&self, e: &Expr, st: &State, b: &mut [i64; BINDS]) -> bool {
        match e {
            Expr::Bin(Op::And, x, y) => self.operand(x, st, b) != 0 && self.operand(y, st, b) != 0,
            Expr::Bin(Op::Or, x, y) => self.operand(x, st, b) != 0 || self.operand(y, st, b) != 0,
            _ => self.operand(e, st, b) != 0,
        }
    }

    /// `end game` or `end round` inside a turn: the turn under way counts as played (in the
    /// game's length, `turn` and the round's cap), as it does when it ends by its last step.
    fn count_turn_under_way(st: &mut State) {
        if st.in_turn {
            st.in_turn = false;
            st.turn += 1;
            st.round_turn += 1;
        }
    }

    fn end_game(&self, st: &mut State, reason: u8) {
        st.over = true;
        st.end_reason = reason;
        st.waiting = None;
        st.winners = self.winners(st);
    }

    /// The winners by the file's rules, tried in order.
    pub fn winners(&self, st: &State) -> u16 {
        let mut b = st.binds;
        // The seats still in the game, as a mask: no list is built (this runs once a game).
        let in_game = (0..self.seats).filter(|&s| st.eliminated & (1 << s) == 0).fold(0u16, |m, s| m | (1 << s));
        let seats_in = move || (0..MAX_SEATS).filter(move |&s| in_game & (1 << s) != 0);
        for rule in &self.program.winners {
            match rule {
                WinRule::Most { value, least, unique, rank } => {
                    let key = |v: i64| if *least { -v } else { v };
                    let mut vals = [i64::MIN; MAX_SEATS];
                    for s in seats_in() {
                        b[0] = s as i64;
                        vals[s] = key(self.eval(value, st, &mut b));
                    }
                    // The rank-th largest distinct value among the seats in the game.
                    let mut target: Option<i64> = None;
                    for _ in 0..*rank {
                        let above = target;
                        target = seats_in().map(|s| vals[s]).filter(|&v| above.is_none_or(|a| v < a)).max();
                        if target.is_none() {
                            break;
                        }
                    }
                    let Some(target) = target else { continue };
                    let mask = seats_in().filter(|&s| vals[s] == target).fold(0u16, |m, s| m | (1 << s));
                    if *unique && mask.count_ones() != 1 {
                        continue;
                    }
                    return mask;
                }
                WinRule::Only(c) => {
                    let mask = seats_in().filter(|&s| {
                        b[0] = s as i64;
                        self.eval(c, st, &mut b) != 0
                    });
                    let mask = mask.fold(0u16, |m, s| m | (1 << s));
                    if mask.count_ones() == 1 {
                        return mask;
                    }
                }
                WinRule::All(c) => {
                    let mask = seats_in().filter(|&s| {
                        b[0] = s as i64;
                        self.eval(c, st, &mut b) != 0
                    });
                    let mask = mask.fold(0u16, |m, s| m | (1 << s));
                    if mask != 0 {
                        return mask;
                    }
                }
            }
        }
        // No rule decided: every seat still in the game shares.
        in_game
    }

    /// A seat's standing by the file's `standing` (0 without one).
    pub fn standing(&self, st: &State, seat: usize) -> i64 {
        match &self.program.standing {
            None => 0,
            Some(e) => {
                let mut b = st.binds;
                b[0] = seat as i64;
                self.eval(e, st, &mut b)
            }
        }
    }

    /// The outcome of a finished game.
    pub fn outcome(&self, st: &State) -> Outcome {
        let mut o = Outcome::new();
        o.length = st.turn;
        o.end_reason = st.end_reason;
        o.winners = st.winners;
        let mut b = st.binds;
        for s in 0..self.seats {
            o.scores[s] = match (&self.program.score, &self.program.standing) {
                (Some(e), _) | (None, Some(e)) => {
                    b[0] = s as i64;
                    self.eval(e, st, &mut b)
                }
                _ => 0,
            };
            o.eliminated_at[s] = st.eliminated_at[s];
        }
        o
    }

    fn move_chosen(&self, st: &mut State, to: usize, limit: usize, log: &mut EventLog<Event>) {
        let chosen = std::mem::take(&mut st.chosen);
        if limit >= chosen.len() && !log.enabled() && self.move_chosen_at_once(st, &chosen, to) {
            st.chosen = chosen;
            return;
        }
        for &card in chosen.iter().take(limit) {
            let from = st.where_is[card as usize] as usize;
            if let Some(i) = st.zones[from].iter().position(|&x| x == card) {
                st.zones[from].remove(i);
                self.show_top(st, from);
                self.put(st, card, to, End::Top);
                if log.enabled() {
                    self.log_move(st, card, from, to, log);
                }
            }
        }
        st.chosen = chosen;
    }

    /// [`Bound::move_chosen`] of every chosen card when they are all in one zone that shows
    /// no top card, in its order (as a choice of positions makes them), other than `to`: the
    /// cards leave it in one pass (no search for each card's place, no shift of the zone per
    /// card) and are put on `to` in order, the same moves as one at a time. False (nothing
    /// moved) for any other case.
    fn move_chosen_at_once(&self, st: &mut State, chosen: &[u16], to: usize) -> bool {
        let Some(&first) = chosen.first() else { return true };
        let from = st.where_is[first as usize] as usize;
        if from == to || self.see[from].1 || st.zones[from].len() > 64 {
            return false;
        }
        // The positions of the chosen cards, matched in order.
        let (mut leaving, mut j) = (0u64, 0usize);
        for (i, &c) in st.zones[from].iter().enumerate() {
            if j < chosen.len() && c == chosen[j] {
                leaving |= 1 << i;
                j += 1;
            }
        }
        if j < chosen.len() {
            return false;
        }
        // The cards that stay slide down over the ones that leave, in order.
        let zone = &mut st.zones[from];
        let mut kept = leaving.trailing_zeros() as usize;
        for i in kept + 1..zone.len() {
            if leaving & (1 << i) == 0 {
                zone[kept] = zone[i];
                kept += 1;
            }
        }
        zone.truncate(kept);
        for &card in chosen {
            self.put(st, card, to, End::Top);
        }
        true
    }

    // ---- Decisions ----

    /// Whether `seat` has a legal choice at the choose instruction `at`: the number of its
    /// legal choices when they can be counted ([`Bound::countable`]), else `usize::MAX` when
    /// it has one; 0 when it has none.
    /// With the count, the one block of choices when they are one ([`State::block`]).
    /// `b` holds the state's bound names (see [`Bound::frame_into`]) and is used as scratch.
    fn any_legal(&self, st: &State, b: &mut [i64; BINDS], seat: usize, at: u32) -> (usize, Option<Block>) {
        if let Instr::Choose { actions, .. } = &self.p().code[at as usize] {
            if let [a] = actions[..] {
                if let Some(Some(q)) = self.quick.get(a as usize)
                    && seat < self.seats
                {
                    // Counted ahead: one look-up by the zone's size.
                    let z = if q.per_seat { q.zone as usize + seat } else { q.zone as usize };
                    let n = st.zones[z].len().min(64);
                    match q.totals[n] {
                        u32::MAX => {}
                        0 => return (0, None),
                        total => {
                            let block = Block { action: a, arg: 0, cand: low_mask(n), n: n as u8, lo: q.lo, hi: q.hi.min(n as u8) };
                            return (total as usize, Some(block));
                        }
                    }
                } else if let Some(counted) = self.count_one_block(st, b, seat, a) {
                    return counted;
                }
            }
            if self.countable(actions) {
                let (n, _, block) = self.count_or_pick(st, b, seat, actions, None);
                return (n, block);
            }
        }
        let mut found = false;
        self.each_choice(st, seat, at, &mut |_| {
            found = true;
            false
        });
        (if found { usize::MAX } else { 0 }, None)
    }

    /// [`Bound::count_or_pick`]'s count and block when the decision is the common shape: one
    /// action, no argument, no condition, a set of cards by position with no condition on a
    /// card or on the set. The same walk without the general one's steps (`None`: another
    /// shape, or as many choices as [`CHOICE_LIMIT`], left to the general walk).
    #[inline(always)]
    fn count_one_block(&self, st: &State, b: &mut [i64; BINDS], seat: usize, a: u16) -> Option<(usize, Option<Block>)> {
        let decl = &self.p().actions[a as usize];
        let choice = decl.cards.as_ref()?;
        if !matches!(decl.arg, ArgChoice::None) || decl.condition.is_some() || choice.each.is_some() || choice.set.is_some() || choice.by != ChoiceBy::Position
        {
            return None;
        }
        // The bound names as `count_or_pick` sets them before its candidates.
        b[BINDS - 4..].copy_from_slice(&st.binds[BINDS - 4..]);
        b[0] = seat as i64;
        b[ARG] = 0;
        b[CHOSEN_ZONE] = -1;
        b[CHOSEN_MASK] = 0;
        let Some(z) = self.zone(&choice.from, st, b) else { return Some((0, None)) };
        let n = st.zones[z].len().min(64);
        let lo = self.operand(&choice.min, st, b).max(0) as usize;
        let hi = (self.operand(&choice.max, st, b).max(0) as usize).min(n);
        if lo > hi {
            return Some((0, None));
        }
        let mut total = 0usize;
        for k in lo..=hi {
            total += binomial(n, k).min(CHOICE_LIMIT as u64) as usize;
            if total >= CHOICE_LIMIT {
                return None;
            }
        }
        if total == 0 {
            return Some((0, None));
        }
        Some((total, Some(Block { action: a, arg: 0, cand: low_mask(n), n: n as u8, lo: lo as u8, hi: hi as u8 })))
    }

    /// Whether every action of a choice can be counted without listing its candidates: no
    /// cards, or cards chosen by position with no condition on the set or on the action (a
    /// condition on each card is fine: it only narrows the candidate positions).
    fn countable(&self, actions: &[u16]) -> bool {
        let p = self.p();
        actions.iter().all(|&a| {
            let d = &p.actions[a as usize];
            d.cards.as_ref().is_none_or(|c| c.by == ChoiceBy::Position && c.set.is_none() && d.condition.is_none())
        })
    }

    /// One legal choice of the waiting seat drawn uniformly at random (one draw below their
    /// number, the same pick as [`Bound::legal`]'s list would give), without listing them;
    /// `None` (nothing drawn) when the choice is not `Bound::countable`.
    pub fn random_choice(&self, st: &State, rng: &mut GameRng) -> Option<Choice> {
        let (seat, at) = st.waiting?;
        if st.counted > 0
            && let Some(block) = &st.block
        {
            // The same draw as below; the choice of that rank found in the block (a block is
            // kept only for a countable choice).
            let r = rng::below(st.counted, rng) as usize;
            return Some(block.choice(r));
        }
        let Instr::Choose { actions, .. } = &self.p().code[at as usize] else { return None };
        if !self.countable(actions) {
            return None;
        }
        let mut b = [0i64; BINDS];
        self.frame_into(st, &mut b);
        let total = if st.counted > 0 { st.counted as usize } else { self.count_or_pick(st, &mut b, seat as usize, actions, None).0 };
        if total == 0 {
            return None;
        }
        let r = rng::below(total as u32, rng) as usize;
        self.count_or_pick(st, &mut b, seat as usize, actions, Some(r)).1
    }

    /// Walks the legal choices of `seat` among `actions` (all [`Bound::countable`]) in the
    /// order [`Bound::each_choice`] lists them, a block (an action and its argument) at a
    /// time, counting each block's sets of cards in closed form. Returns the number of
    /// choices (at most [`CHOICE_LIMIT`], as the list is cut) and, with `pick` = `Some(r)`,
    /// the choice of rank `r`; counting (`pick` = `None`), the one block every choice is in
    /// when there is one ([`State::block`]).
    fn count_or_pick(&self, st: &State, b: &mut [i64; BINDS], seat: usize, actions: &[u16], pick: Option<usize>) -> (usize, Option<Choice>, Option<Block>) {
        let p = self.p();
        b[BINDS - 4..].copy_from_slice(&st.binds[BINDS - 4..]);
        b[0] = seat as i64;
        let mut total = 0usize;
        // The blocks with a choice: the first one's sets of cards, and how many there are.
        let mut block: Option<Block> = None;
        let mut blocks = 0u32;
        for &a in actions {
            let decl = &p.actions[a as usize];
            b[CHOSEN_ZONE] = -1;
            let args: (i64, i64) = match &decl.arg {
                ArgChoice::None => (0, 0),
                ArgChoice::Number(lo, hi) => {
                    let lo = self.eval(lo, st, b);
                    (lo, self.eval(hi, st, b).min(lo.saturating_add(CHOICE_LIMIT as i64)))
                }
                ArgChoice::Seat { .. } => (0, self.seats as i64 - 1),
            };
            let mut arg = args.0;
            while arg <= args.1 {
                if let ArgChoice::Seat { others } = decl.arg
                    && ((others && arg == seat as i64) || st.eliminated & (1 << arg) != 0)
                {
                    arg += 1;
                    continue;
                }
                b[ARG] = arg;
                b[CHOSEN_ZONE] = -1;
                b[CHOSEN_MASK] = 0;
                match &decl.cards {
                    None => {
                        if decl.condition.as_ref().is_none_or(|c| self.eval(c, st, b) != 0) {
                            if pick == Some(total) {
                                return (total + 1, Some(Choice { action: a, arg, cards: 0 }), None);
                            }
                            total += 1;
                            blocks += 2;
                        }
                    }
                    Some(choice) => {
                        if let Some(Candidates { pos, n, lo, hi, .. }) = self.candidates(st, b, choice) {
                            let before = total;
                            for k in lo..=hi {
                                let count = binomial(n, k).min(CHOICE_LIMIT as u64) as usize;
                                if let Some(r) = pick
                                    && r < total + count
                                {
                                    let mask = unrank_combination(r - total, &pos[..n], k);
                                    return (total + count, Some(Choice { action: a, arg, cards: mask }), None);
                                }
                                total += count;
                                if total >= CHOICE_LIMIT {
                                    return (CHOICE_LIMIT, None, None);
                                }
                            }
                            if total > before && pick.is_none() {
                                blocks += 1;
                                if blocks == 1 {
                                    let cand = pos[..n].iter().fold(0u64, |m, &i| m | (1 << i));
                                    block = Some(Block { action: a, arg, cand, n: n as u8, lo: lo as u8, hi: hi as u8 });
                                }
                            }
                        }
                    }
                }
                if total >= CHOICE_LIMIT {
                    return (CHOICE_LIMIT, None, None);
                }
                arg += 1;
            }
        }
        (total, None, if blocks == 1 { block } else { None })
    }

    /// The zone a choice of cards is made from, its candidate positions (those its `where`
    /// holds for, in zone order, at most 64) and the sizes of sets allowed: `None` when there
    /// is no zone or no allowed size.
    fn candidates(&self, st: &State, b: &mut [i64; BINDS], choice: &CardChoice) -> Option<Candidates> {
        let z = self.zone(&choice.from, st, b)?;
        let cards = &st.zones[z];
        let (pos, n) = match &choice.each {
            // Every position is a candidate.
            None => (POSITIONS, cards.len().min(64)),
            Some((slot, e)) => {
                let mut pos: [u8; 64] = [0; 64];
                let mut n = 0usize;
                for (i, &c) in cards.iter().enumerate().take(64) {
                    b[*slot as usize] = c as i64;
                    if self.eval(e, st, b) != 0 {
                        pos[n] = i as u8;
                        n += 1;
                    }
                }
                (pos, n)
            }
        };
        let lo = self.operand(&choice.min, st, b).max(0) as usize;
        let hi = (self.operand(&choice.max, st, b).max(0) as usize).min(n);
        if lo > hi { None } else { Some(Candidates { zone: z, pos, n, lo, hi }) }
    }

    /// Every legal choice of the waiting seat, appended to `out`.
    pub fn legal(&self, st: &State, out: &mut Vec<Choice>) {
        let Some((seat, at)) = st.waiting else { return };
        self.each_choice(st, seat as usize, at, &mut |c| {
            out.push(c);
            out.len() < CHOICE_LIMIT
        });
    }

    /// Calls `f` with every legal choice of `seat` at the choose instruction `at` until it
    /// returns false. Conditions see the candidate's cards as `chosen` and its argument as
    /// `number` / `target` through the bound names (no copy of the state).
    pub fn each_choice(&self, st: &State, seat: usize, at: u32, f: &mut dyn FnMut(Choice) -> bool) {
        let p = self.p();
        let Instr::Choose { actions, .. } = &p.code[at as usize] else { return };
        let mut b = st.binds;
        b[0] = seat as i64;
        for &a in actions {
            let decl = &p.actions[a as usize];
            b[CHOSEN_ZONE] = -1;
            let args: (i64, i64) = match &decl.arg {
                ArgChoice::None => (0, 0),
                ArgChoice::Number(lo, hi) => {
                    let lo = self.eval(lo, st, &mut b);
                    (lo, self.eval(hi, st, &mut b).min(lo.saturating_add(CHOICE_LIMIT as i64)))
                }
                ArgChoice::Seat { .. } => (0, self.seats as i64 - 1),
            };
            let mut arg = args.0;
            while arg <= args.1 {
                if let ArgChoice::Seat { others } = decl.arg
                    && ((others && arg == seat as i64) || st.eliminated & (1 << arg) != 0)
                {
                    arg += 1;
                    continue;
                }
                b[ARG] = arg;
                b[CHOSEN_ZONE] = -1;
                b[CHOSEN_MASK] = 0;
                match &decl.cards {
                    None => {
                        if decl.condition.as_ref().is_none_or(|c| self.eval(c, st, &mut b) != 0) && !f(Choice { action: a, arg, cards: 0 }) {
                            return;
                        }
                    }
                    Some(choice) => {
                        if !self.each_card_set(st, &mut b, decl, choice, a, arg, f) {
                            return;
                        }
                    }
                }
                arg += 1;
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn each_card_set(
        &self,
        st: &State,
        b: &mut [i64; BINDS],
        decl: &ActionDecl,
        choice: &CardChoice,
        a: u16,
        arg: i64,
        f: &mut dyn FnMut(Choice) -> bool,
    ) -> bool {
        let Some(Candidates { zone: z, pos, n, lo, hi }) = self.candidates(st, b, choice) else { return true };
        let cards = &st.zones[z];
        // Sets of sizes lo..=hi of the candidate positions, smallest first, then in
        // lexicographic order of their positions.
        let mut emitted = 0usize;
        let mut idx = [0usize; 64];
        for k in lo..=hi {
            for (i, x) in idx.iter_mut().enumerate().take(k) {
                *x = i;
            }
            loop {
                let set = &idx[..k];
                let mut mask = 0u64;
                for &i in set {
                    mask |= 1 << pos[i];
                }
                let canonical = match choice.by {
                    ChoiceBy::Position => true,
                    ChoiceBy::Kind => self.kind_canonical(cards, &pos[..n], set),
                };
                if canonical {
                    b[CHOSEN_ZONE] = z as i64;
                    b[CHOSEN_MASK] = mask as i64;
                    let ok = choice.set.as_ref().is_none_or(|e| self.eval(e, st, b) != 0) && decl.condition.as_ref().is_none_or(|c| self.eval(c, st, b) != 0);
                    if ok {
                        emitted += 1;
                        if !f(Choice { action: a, arg, cards: mask }) || emitted >= CHOICE_LIMIT {
                            return false;
                        }
                    }
                }
                if !next_combination(&mut idx[..k], n) {
                    break;
                }
            }
        }
        true
    }

    /// Whether the set `idx` (indices into `pos`) is the first of its kinds: within each kind
    /// it takes the earliest candidates of that kind.
    fn kind_canonical(&self, cards: &[u16], pos: &[u8], idx: &[usize]) -> bool {
        let _ = pos.len();
        // For each chosen index, every earlier candidate of the same kind must be chosen too.
        for &i in idx {
            let kind = self.kinds[cards[pos[i] as usize] as usize];
            for j in 0..i {
                if self.kinds[cards[pos[j] as usize] as usize] == kind && !idx.contains(&j) {
                    return false;
                }
            }
        }
        true
    }

    /// Applies `choice` of the waiting seat and runs on to the next decision.
    pub fn apply(&self, st: &mut State, choice: Choice, rng: &mut GameRng, log: &mut EventLog<Event>) {
        let p = self.p();
        let Some((seat, at)) = st.waiting else { return };
        let Instr::Choose { secret, .. } = &p.code[at as usize] else { return };
        let decl = &p.actions[choice.action as usize];
        st.binds[0] = seat as i64;
        st.binds[ARG] = choice.arg;
        st.binds[CHOSEN_ZONE] = -1;
        st.chosen.clear();
        if let Some(c) = &decl.cards
            && let Some(z) = self.zone_at(&c.from, st)
        {
            // The chosen positions in zone order, a set bit at a time.
            let cards = &st.zones[z];
            let mut m = if cards.len() >= 64 { choice.cards } else { choice.cards & ((1u64 << cards.len()) - 1) };
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                st.chosen.push(cards[i]);
            }
        }
        if *secret {
            // Kept secret until `reveal choices`, which makes it the seat's last choice too.
            st.secret[seat as usize] = (choice.action + 1, choice.arg);
            st.revealed = false;
        } else {
            st.last[seat as usize] = (choice.action + 1, choice.arg);
        }
        if log.enabled() {
            let mut b = st.binds;
            let said = format!("seat {seat} {}", self.render(&decl.say, st, &mut b));
            let own = match &decl.say_own {
                Some(t) => format!("seat {seat} {}", self.render(t, st, &mut b)),
                None => said.clone(),
            };
            let me = 1u8 << seat;
            let public = if *secret { format!("seat {seat} chooses in secret") } else { said };
            if own == public {
                log.emit(|| Event::all(own));
            } else {
                log.emit(|| Event { to: me, text: own });
                log.emit(|| Event { to: !me, text: public });
            }
        }
        st.waiting = None;
        // A choice whose next step is the end of the action asking it (a seat that rolls
        // again, say) replaces that action instead of nesting in it, so repeating has no depth.
        let mut next = at as usize + 1;
        while let Instr::Jump(to) = p.code[next] {
            next = to as usize;
        }
        if matches!(p.code[next], Instr::Return) && st.depth > 0 {
            st.pc = decl.code;
        } else if (st.depth as usize) < STACK {
            st.stack[st.depth as usize] = at + 1;
            st.depth += 1;
            st.pc = decl.code;
        } else {
            // Actions nested deeper than the stack: the game stops (`stuck`) rather than skip
            // the action's steps.
            self.end_game(st, p.reason_stuck);
            log.emit(|| Event::all(format!("the game is stopped: actions nested more than {STACK} deep (end reason `stuck`)")));
            return;
        }
        self.run(st, rng, log);
    }

    fn action_text_short(&self, seat: usize, st: &State) -> String {
        let (a, arg) = st.secret[seat];
        if a == 0 {
            return "nothing".into();
        }
        let decl = &self.p().actions[a as usize - 1];
        match decl.arg {
            ArgChoice::None => decl.name.replace('_', " "),
            ArgChoice::Number(..) => format!("{} {arg}", decl.name.replace('_', " ")),
            ArgChoice::Seat { .. } => format!("{} seat {arg}", decl.name.replace('_', " ")),
        }
    }

    /// A template's text at `st`.
    pub fn render(&self, t: &Template, st: &State, b: &mut [i64; BINDS]) -> String {
        let mut out = String::new();
        for part in &t.parts {
            match part {
                Part::Text(s) => out.push_str(s),
                Part::Cards => {
                    if !st.chosen.is_empty() {
                        out.push_str(&self.cards_text(&st.chosen));
                    }
                }
                Part::Card(e) => {
                    let c = self.eval(e, st, b);
                    if c >= 0 && (c as usize) < self.attrs.len() {
                        out.push_str(&self.card_name(c as u16));
                    } else {
                        out.push_str("no card");
                    }
                }
                Part::Seat(e) => {
                    let _ = write!(out, "seat {}", self.eval(e, st, b));
                }
                Part::Attr(a, e) => {
                    let v = self.eval(e, st, b);
                    match self.p().attrs[*a as usize].values.get(v as usize) {
                        Some(name) if v >= 0 => out.push_str(name),
                        _ => {
                            let _ = write!(out, "{v}");
                        }
                    }
                }
                Part::Value(e) => {
                    let _ = write!(out, "{}", self.eval(e, st, b));
                }
            }
        }
        out.trim().to_string()
    }

    /// The table in words, for traces: every zone's cards (top last), counters, whose turn.
    pub fn describe(&self, st: &State) -> String {
        let p = self.p();
        let mut out = format!("turn {}, seat {} to play", st.turn, st.current);
        for z in 0..p.zone_slots {
            if st.zones[z].is_empty() {
                continue;
            }
            let _ = write!(out, "; {}: {}", self.zone_label(z), self.cards_text(&st.zones[z]));
        }
        for c in &p.counters {
            let n = match c.per {
                Per::Seat => self.seats,
                _ => c.len as usize,
            };
            let values: Vec<String> = (0..n).map(|i| st.counters[c.first as usize + i].to_string()).collect();
            let _ = write!(out, "; {} {}", c.name, values.join("/"));
        }
        out
    }

    // ---- What a seat knows ----

    /// Everything `seat` sees, as canonical text (see [`crate::engine::HiddenInfo::observation`]).
    pub fn observation(&self, st: &State, seat: usize) -> String {
        let p = self.p();
        let mut out = String::new();
        let _ = write!(
            out,
            "pc {} depth {} stack {:?} current {} first {} rev {} turn {} rt {} round {} over {} elim {} skip {} next {:?} passed {}|",
            st.pc,
            st.depth,
            &st.stack[..st.depth as usize],
            st.current,
            st.first,
            st.reversed,
            st.turn,
            st.round_turn,
            st.round,
            st.over,
            st.eliminated,
            st.skip_next,
            st.next_seat,
            st.passed
        );
        let _ = write!(out, "waiting {:?}|binds {:?} arg {}|counters {:?}|", st.waiting, &st.binds[..STEP_BINDS], st.binds[ARG], st.counters);
        for s in 0..self.seats {
            let (a, arg) = st.secret[s];
            if s == seat || st.revealed {
                let _ = write!(out, "secret{s} {a} {arg};");
            } else {
                let _ = write!(out, "secret{s} {};", a > 0);
            }
            let _ = write!(out, "last{s} {:?};", st.last[s]);
        }
        let bit = 1u8 << seat;
        for z in 0..p.zone_slots {
            let cards = &st.zones[z];
            if cards.is_empty() {
                continue;
            }
            let _ = write!(out, "|z{z} n{}:", cards.len());
            let mut loose: Vec<u32> = Vec::new();
            for (i, &c) in cards.iter().enumerate() {
                let c = c as usize;
                // A place the seat knows is part of what it sees even in a zone whose order
                // means nothing to the rules: its choices of cards name places.
                if st.know_pos[c] & bit != 0 {
                    let _ = write!(out, " {i}={}", self.kinds[c]);
                } else if st.know_zone[c] & bit != 0 {
                    loose.push(self.kinds[c]);
                }
            }
            loose.sort_unstable();
            if !loose.is_empty() {
                let _ = write!(out, " some {loose:?}");
            }
        }
        // Chosen cards stay known to whoever saw them (their places are in the zones).
        out
    }

    /// Writes into `out` a state `seat` cannot tell from `st`: every card whose zone it does
    /// not know dealt again at random into the places of such cards; cards it knows the zone
    /// of but not the place moved at random within their zone; other seats' secret choices not
    /// yet revealed chosen again at random among their legal ones.
    pub fn determinize(&self, st: &State, seat: usize, rng: &mut GameRng, out: &mut State) {
        out.clone_from(st);
        let p = self.p();
        let bit = 1u8 << seat;
        let mut pool: Vec<u16> = Vec::new();
        let mut free: Vec<(u16, u16)> = Vec::new();
        for z in 0..p.zone_slots {
            let cards = &st.zones[z];
            let mut zone_free: Vec<u16> = Vec::new();
            let mut zone_known: Vec<u16> = Vec::new();
            for (i, &c) in cards.iter().enumerate() {
                let ci = c as usize;
                // A card whose place the seat knows stays there, in an unordered zone too: the
                // seat's choices of cards name places, so a sample that moved its own hand
                // around would make a choice mean other cards.
                if st.know_pos[ci] & bit != 0 || self.is_die(ci) {
                    continue;
                }
                zone_free.push(i as u16);
                if st.know_zone[ci] & bit != 0 {
                    zone_known.push(c);
                } else {
                    pool.push(c);
                }
            }
            if zone_free.is_empty() {
                continue;
            }
            // Known-zone cards to random free places of their zone (in a canonical order first).
            zone_known.sort_unstable_by_key(|&c| (self.kinds[c as usize], c));
            for i in (1..zone_free.len()).rev() {
                let j = rng::below((i + 1) as u32, rng) as usize;
                zone_free.swap(i, j);
            }
            for (k, &slot) in zone_free.iter().enumerate() {
                if k < zone_known.len() {
                    let c = zone_known[k];
                    out.zones[z][slot as usize] = c;
                    out.where_is[c as usize] = z as u16;
                } else {
                    free.push((z as u16, slot));
                }
            }
        }
        free.sort_unstable();
        pool.sort_unstable_by_key(|&c| (self.kinds[c as usize], c));
        for i in (1..pool.len()).rev() {
            let j = rng::below((i + 1) as u32, rng) as usize;
            pool.swap(i, j);
        }
        for (k, &(z, slot)) in free.iter().enumerate() {
            let c = pool[k];
            out.zones[z as usize][slot as usize] = c;
            out.where_is[c as usize] = z;
        }
        if !self.dice.is_empty() {
            self.resample_faces(seat, rng, out);
        }
        // Other seats' unrevealed secret choices, again at random among their legal ones.
        if !st.revealed {
            for s in 0..self.players {
                if s == seat || st.secret[s].0 == 0 {
                    continue;
                }
                if let Some(at) = self.secret_choose_at(st) {
                    let mut options: Vec<Choice> = Vec::new();
                    self.each_choice(out, s, at, &mut |c| {
                        options.push(c);
                        true
                    });
                    if !options.is_empty() {
                        let c = options[rng::below(options.len() as u32, rng) as usize];
                        out.secret[s] = (c.action + 1, c.arg);
                    }
                }
            }
        }
        // The waiting seat's choices may differ in the sample: counted again.
        (out.counted, out.block) = self.recount(out);
    }

    /// A sampled state's dice whose faces `seat` does not know show a fair random face
    /// again (a die's place is public, so it stays; its face was a fair roll nobody showed
    /// the seat). The new face keeps what the seats knew of the die's place.
    fn resample_faces(&self, seat: usize, rng: &mut GameRng, out: &mut State) {
        let bit = 1u8 << seat;
        for z in 0..out.zones.len() {
            for i in 0..out.zones[z].len() {
                let c = out.zones[z][i] as usize;
                let (first, faces) = self.dice[c];
                if faces == 0 || out.know_zone[c] & bit != 0 {
                    continue;
                }
                let n = first as usize + rng::below(u32::from(faces), rng) as usize;
                if n != c {
                    out.zones[z][i] = n as u16;
                    out.where_is[n] = z as u16;
                    out.where_is[c] = NOWHERE;
                    out.know_zone[n] = out.know_zone[c];
                    out.know_pos[n] = out.know_pos[c];
                    out.know_zone[c] = 0;
                    out.know_pos[c] = 0;
                }
            }
        }
    }

    /// [`State::counted`] and [`State::block`] for `st` as the machine would set them
    /// stopping there.
    fn recount(&self, st: &State) -> (u32, Option<Block>) {
        let Some((seat, at)) = st.waiting else { return (0, None) };
        let Instr::Choose { actions, .. } = &self.p().code[at as usize] else { return (0, None) };
        if !self.countable(actions) {
            return (0, None);
        }
        let mut b = [0i64; BINDS];
        self.frame_into(st, &mut b);
        let (n, _, block) = self.count_or_pick(st, &mut b, seat as usize, actions, None);
        (n as u32, block)
    }

    /// The choose instruction of the secret choices under way (the waiting seat's, else the
    /// last secret choose in the code before the machine's place).
    fn secret_choose_at(&self, st: &State) -> Option<u32> {
        let p = self.p();
        if let Some((_, at)) = st.waiting
            && matches!(p.code[at as usize], Instr::Choose { secret: true, .. })
        {
            return Some(at);
        }
        (0..p.code.len()).rev().find(|&i| matches!(p.code[i], Instr::Choose { secret: true, .. })).map(|i| i as u32)
    }
}

/// One line of what happened, with the seats that see it.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// Bit per seat that sees it.
    pub to: u8,
    /// The line, in the file's words.
    pub text: String,
}

impl Event {
    /// A line every seat sees.
    pub fn all(text: String) -> Event {
        Event { to: u8::MAX, text }
    }
}

/// Bind slot of the action's number or seat.
pub const ARG: usize = BINDS - 1;
/// Bind slot of the zone instance whose positions `CHOSEN_MASK` names while choices are
/// listed (-1: `chosen` is the state's list of chosen cards).
pub const CHOSEN_ZONE: usize = BINDS - 2;
/// Bind slot of the positions of a candidate set of cards.
pub const CHOSEN_MASK: usize = BINDS - 3;

/// Bound names as a game starts (`chosen` is the state's list).
pub const BINDS_FRESH: [i64; BINDS] = {
    let mut b = [0; BINDS];
    b[CHOSEN_ZONE] = -1;
    b
};

impl State {
    /// A table with nothing on it.
    pub fn empty() -> State {
        State {
            zones: Vec::new(),
            counters: Vec::new(),
            binds: BINDS_FRESH,
            pc: 0,
            stack: [0; STACK],
            depth: 0,
            current: 0,
            first: 0,
            reversed: false,
            turn: 0,
            round_turn: 0,
            round: 0,
            chosen: Vec::new(),
            secret: [(0, 0); MAX_SEATS],
            revealed: false,
            waiting: None,
            counted: 0,
            block: None,
            know_zone: Vec::new(),
            know_pos: Vec::new(),
            where_is: Vec::new(),
            eliminated: 0,
            eliminated_at: [0; MAX_SEATS],
            skip_next: false,
            next_seat: None,
            passed: 0,
            in_turn: false,
            over: false,
            end_reason: 0,
            winners: 0,
            last: [(0, 0); MAX_SEATS],
        }
    }
}

/// The positions 0..64 in order: the candidates of a choice of cards without a condition.
const POSITIONS: [u8; 64] = {
    let mut p = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        p[i] = i as u8;
        i += 1;
    }
    p
};

/// Binomial coefficients up to 64 (saturated at `u64::MAX`), for counting sets of cards.
static BINOMIAL: [[u64; 65]; 65] = {
    let mut t = [[0u64; 65]; 65];
    let mut n = 0;
    while n <= 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1].saturating_add(t[n - 1][k]);
            k += 1;
        }
        n += 1;
    }
    t
};

/// The number of `k`-sets of `n` things (0 when `k > n`; `n`, `k` at most 64).
#[inline]
fn binomial(n: usize, k: usize) -> u64 {
    if k > n || n > 64 { 0 } else { BINOMIAL[n][k] }
}

/// The set of rank `r` among the `k`-sets of the candidate positions `pos`, in the
/// lexicographic order [`next_combination`] walks, as a mask of positions.
fn unrank_combination(mut r: usize, pos: &[u8], k: usize) -> u64 {
    let n = pos.len();
    let mut mask = 0u64;
    let mut x = 0usize;
    for i in 0..k {
        // Sets whose i-th index is x: those taking their k - i - 1 others above x.
        while x + 1 < n {
            let with_x = binomial(n - x - 1, k - i - 1) as usize;
            if r < with_x {
                break;
            }
            r -= with_x;
            x += 1;
        }
        mask |= 1 << pos[x];
        x += 1;
    }
    mask
}

/// The next combination of `idx.len()` indices below `n` in lexicographic order; false after
/// the last.
fn next_combination(idx: &mut [usize], n: usize) -> bool {
    let k = idx.len();
    let mut i = k;
    while i > 0 {
        i -= 1;
        if idx[i] < n - k + i {
            idx[i] += 1;
            for j in i + 1..k {
                idx[j] = idx[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

/// The candidates of a choice of cards ([`Bound::candidates`]).
struct Candidates {
    /// The zone instance chosen from.
    zone: usize,
    /// Candidate positions in zone order (the first `n`).
    pos: [u8; 64],
    /// How many candidates.
    n: usize,
    /// Fewest cards in a set.
    lo: usize,
    /// Most cards in a set (at most `n`).
    hi: usize,
}

/// The legal choices of a decision when they are all sets of cards of one action and
/// argument ([`State::block`]): the sets of `lo..=hi` of the candidate positions, smallest
/// first, then in lexicographic order, as `Bound::count_or_pick` ranks them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Block {
    /// The action.
    pub action: u16,
    /// Its argument.
    pub arg: i64,
    /// Candidate positions (bit i: position i), `n` of them.
    pub cand: u64,
    /// How many candidates.
    pub n: u8,
    /// Fewest cards in a set.
    pub lo: u8,
    /// Most cards in a set.
    pub hi: u8,
}

impl Block {
    /// The choice of rank `r` (below the block's count).
    fn choice(&self, mut r: usize) -> Choice {
        let n = self.n as usize;
        let mut k = self.lo as usize;
        while k < self.hi as usize {
            let count = binomial(n, k).min(CHOICE_LIMIT as u64) as usize;
            if r < count {
                break;
            }
            r -= count;
            k += 1;
        }
        // The set among candidates 0..n, then each candidate's bit moved to its position.
        let ranks = unrank_combination(r, &POSITIONS[..n], k);
        Choice { action: self.action, arg: self.arg, cards: deposit(ranks, self.cand) }
    }
}

/// The mask of positions `0..n` (`n` at most 64).
#[inline]
fn low_mask(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// Bit i of `bits` moved to the place of the i-th set bit of `places` (lowest first).
#[inline]
fn deposit(bits: u64, places: u64) -> u64 {
    if places & places.wrapping_add(1) == 0 {
        // The candidates are positions 0..n: every bit stays where it is.
        return bits & places;
    }
    let (mut out, mut rest, mut i) = (0u64, places, 0);
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        if bits & (1 << i) != 0 {
            out |= low;
        }
        rest ^= low;
        i += 1;
    }
    out
}

/// The cards of a zone, or the positions of a zone a candidate choice names.
#[derive(Clone, Copy)]
pub struct Cards<'s> {
    cards: &'s [u16],
    mask: u64,
}

impl<'s> Cards<'s> {
    /// The cards in order.
    pub fn iter(&self) -> impl Iterator<Item = u16> + 's {
        let mask = self.mask;
        self.cards.iter().enumerate().filter(move |(i, _)| *i >= 64 || mask & (1 << i) != 0).map(|(_, &c)| c)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many.
    pub fn len(&self) -> usize {
        if self.mask == u64::MAX { self.cards.len() } else { self.mask.count_ones() as usize }
    }
}

/// One choice of a seat: an action, its number or seat, and the positions of the cards it
/// chooses in the zone it chooses from (bit i: position i).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Choice {
    /// The action (index in the file's actions).
    pub action: u16,
    /// Its number or seat (0 when it has none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub arg: i64,
    /// Positions of the chosen cards.
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub cards: u64,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

fn is_zero_u64(n: &u64) -> bool {
    *n == 0
}
