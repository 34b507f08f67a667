//! What a seat's choices may read: the preconditions of an action (its `if`, the range of its
//! number, its cards' `count`, `where` and `set`) decide which choices are legal, and the
//! legal choices are shown to the seat, so they may read only what that seat sees at a real
//! table. Checked once when the file loads; a file that breaks it is refused with the key.

use super::expr::{Expr, Var, Zone};
use super::program::{Visibility, ZoneDecl};

/// How much of a zone the choosing seat sees.
#[derive(Clone, Copy, PartialEq)]
enum Seen {
    /// Every card.
    All,
    /// The top card only.
    Top,
    /// Only how many cards it holds.
    Size,
}

/// What the check needs to know about the choice being checked.
pub struct Chooser<'a> {
    /// The file's zones.
    pub zones: &'a [ZoneDecl],
    /// The bind slot that holds the choosing seat.
    pub seat: u8,
    /// Whether the seat sees the cards it chooses from (`chosen` and the `where` card are
    /// then readable).
    pub sees_from: bool,
    /// The slot of the `where` card, readable only when `sees_from`.
    pub card: Option<u8>,
}

impl Chooser<'_> {
    /// How much of `zone` the seat sees (for `chosen`: whether it sees where it chose from).
    pub fn sees(&self, zone: &Zone) -> bool {
        self.seen(zone) == Seen::All
    }

    fn seen(&self, zone: &Zone) -> Seen {
        let (decl, own) = match zone {
            Zone::Chosen => return if self.sees_from { Seen::All } else { Seen::Size },
            Zone::Shared(i) => (self.zones.iter().find(|z| !z.per_seat && z.first == *i), false),
            Zone::OfSeat(i, s) => (self.zones.iter().find(|z| z.per_seat && z.first == *i), self.is_seat(s)),
        };
        match decl.map(|d| d.visibility) {
            Some(Visibility::Everyone) => Seen::All,
            Some(Visibility::Owner) if own => Seen::All,
            Some(Visibility::Top) => Seen::Top,
            _ => Seen::Size,
        }
    }

    fn is_seat(&self, e: &Expr) -> bool {
        matches!(e, Expr::Var(Var::Bind(s)) if *s == self.seat)
    }

    fn zone_name(&self, zone: &Zone) -> String {
        let name = |i: u16, per_seat: bool| self.zones.iter().find(|z| z.per_seat == per_seat && z.first == i).map(|z| z.name.clone()).unwrap_or_default();
        match zone {
            Zone::Chosen => "`chosen`".into(),
            Zone::Shared(i) => format!("`{}`", name(*i, false)),
            Zone::OfSeat(i, s) if self.is_seat(s) => format!("`{}`", name(*i, true)),
            Zone::OfSeat(i, _) => format!("`{}` of another seat", name(*i, true)),
        }
    }

    /// The first thing `e` reads that the seat cannot see, in words; `None` when it reads only
    /// what the seat sees.
    pub fn unseen(&self, e: &Expr) -> Option<String> {
        let zone = |z: &Zone, need: Seen| -> Option<String> {
            if let Zone::OfSeat(_, s) = z
                && let Some(m) = self.unseen(s)
            {
                return Some(m);
            }
            let seen = self.seen(z);
            let ok = seen == Seen::All || (need == Seen::Top && seen == Seen::Top) || need == Seen::Size;
            (!ok).then(|| {
                let what = if need == Seen::Top { "the top card of" } else { "the cards of" };
                format!("it reads {what} {}, which the choosing seat does not see", self.zone_name(z))
            })
        };
        match e {
            Expr::Const(_) | Expr::Param(_) | Expr::Var(_) | Expr::Rows(_) => None,
            Expr::Counter(_, i) => i.as_deref().and_then(|i| self.unseen(i)),
            Expr::Attr(card, _) => match &**card {
                Expr::Var(Var::Bind(s)) if Some(*s) == self.card && !self.sees_from => {
                    Some("its `where` reads the cards it chooses from, which the choosing seat does not see".into())
                }
                c => self.unseen(c),
            },
            Expr::Size(z) => zone(z, Seen::Size),
            Expr::Top(z) => zone(z, Seen::Top),
            Expr::Count(z, _, x) | Expr::Sum(z, _, x) => zone(z, Seen::All).or_else(|| self.unseen(x)),
            Expr::Same(z, _) | Expr::Largest(z, _) => zone(z, Seen::All),
            Expr::Groups(z, _, _, x) | Expr::GroupSum(z, _, _, x) => zone(z, Seen::All).or_else(|| self.unseen(x)),
            Expr::Seats(_, _, x) | Expr::Row(_, x) | Expr::Next(x) | Expr::Not(x) | Expr::Neg(x) | Expr::Abs(x) => self.unseen(x),
            Expr::Active(x) | Expr::Last(x, _) => self.unseen(x),
            Expr::Chose(s, _) | Expr::ChoseArg(s) => {
                if self.is_seat(s) {
                    None
                } else {
                    Some("it reads another seat's secret choice (read a revealed choice with `last(SEAT)` and `last_arg(SEAT)`)".into())
                }
            }
            Expr::Bin(_, x, y) | Expr::MaxMin(_, x, y) => self.unseen(x).or_else(|| self.unseen(y)),
            Expr::If(c, x, y) => self.unseen(c).or_else(|| self.unseen(x)).or_else(|| self.unseen(y)),
            // Lowered forms exist only after the checks (`Expr::lower`); read as what they replace.
            Expr::ZoneSize(_) | Expr::SeatZoneSize(..) | Expr::CounterOne(_) | Expr::CounterBind(..) => None,
            Expr::AttrBind(s, _) | Expr::CounterAttr(_, _, s, _) => self.unseen(&Expr::Attr(Box::new(Expr::Var(Var::Bind(*s))), 0)),
            Expr::BinConst(_, x, _) | Expr::BinParam(_, x, _) => self.unseen(x),
        }
    }
}
