//! What is worked out when a file is bound (the zone instances, who sees them, the choices
//! counted ahead) and the deal: the deck in its zones and the set-up run.

use super::sets::binomial;
use super::{Bound, CHOICE_LIMIT, Event, NOWHERE, QuickChoice, State};
use crate::engine::{EventLog, GameRng};
use crate::games::rules::expr::{Expr, Var, Zone};
use crate::games::rules::program::*;

impl Bound {
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
}
