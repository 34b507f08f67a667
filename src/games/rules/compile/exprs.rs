//! Expressions compiled: text parsed, names resolved (parameters, counters, bound names,
//! attribute values), and the calls of the expression language checked.

use super::{Compiler, Res};
use crate::games::rules::expr::{Ast, Expr, ExprError, Node, Op, Parser, SeatAgg, Var, Zone};
use crate::games::rules::program::*;
use crate::variant::explain::nearest;

impl<'v> Compiler<'v> {
    pub(super) fn parse(&self, key: &str, text: &str, what: &str) -> Res<Node> {
        let mut p = Parser::new(text).map_err(|e| self.expr_err(key, e, what))?;
        let node = p.expr().map_err(|e| self.expr_err(key, e, what))?;
        p.finish().map_err(|e| self.expr_err(key, e, what))?;
        Ok(node)
    }

    pub(super) fn expr(&mut self, key: &str, value: &toml::Value, what: &str) -> Res<Expr> {
        match value {
            toml::Value::Integer(n) => Ok(Expr::Const(*n)),
            toml::Value::Boolean(b) => Ok(Expr::Const(i64::from(*b))),
            toml::Value::String(text) => {
                let node = self.parse(key, text, what)?;
                self.resolve(key, &node)
            }
            other => Err(self.err(key, format!("{what}: expected an expression (a string), a number or true/false, got {}", other.type_str()))),
        }
    }

    /// An expression evaluated for each seat (`seat` bound to slot 0).
    pub(super) fn seat_expr(&mut self, key: &str, value: &toml::Value, what: &str) -> Res<Expr> {
        self.scope.push(("seat".into(), 0));
        let e = self.expr(key, value, what);
        self.scope.pop();
        e
    }

    pub(super) fn resolve(&mut self, key: &str, node: &Node) -> Res<Expr> {
        self.resolve_at(key, node, 0)
    }

    pub(super) fn resolve_at(&mut self, key: &str, node: &Node, offset: usize) -> Res<Expr> {
        self.node(node).map_err(|mut e| {
            e.at += offset;
            self.expr_err(key, e, "an expression")
        })
    }

    pub(super) fn node(&mut self, node: &Node) -> Result<Expr, ExprError> {
        let at = node.at;
        Ok(match &node.ast {
            Ast::Num(n) => Expr::Const(*n),
            Ast::Word(w) => {
                // A quoted word: an action's name (for `chose`), a parameter's word, an
                // attribute value.
                if let Some(v) = self.value_named(w) {
                    Expr::Const(v)
                } else if let Some(a) = self.actions.iter().position(|a| &a.name == w) {
                    Expr::Const(a as i64)
                } else {
                    return Err(ExprError::new(at, format!("'{w}' is not a value of any card attribute, an action or a parameter's word")));
                }
            }
            Ast::Range(..) => return Err(ExprError::new(at, "a range `a..b` is allowed only as a count or a number to choose")),
            Ast::Name(name) => self.name(name, at)?,
            Ast::Field(base, field) => {
                // A dotted parameter (`deck.base_sets`), an attribute value (`color.red`), or a
                // card's attribute (`card.color`, `top(pile).color`).
                if let Some(dotted) = dotted_name(node)
                    && let Some(p) = self.params.iter().position(|p| p.key == dotted)
                {
                    return Ok(Expr::Param(p as u16));
                }
                if let Ast::Name(attr) = &base.ast
                    && let Some(a) = self.attrs.iter().position(|x| &x.name == attr)
                    && self.lookup(attr).is_none()
                {
                    let decl = &self.attrs[a];
                    return match decl.values.iter().position(|v| v == field) {
                        Some(v) => Ok(Expr::Const(v as i64 + decl.numeric_from.unwrap_or(0))),
                        None => Err(ExprError::new(at, format!("`{field}` is not a value of `{attr}`; allowed: {}", decl.values.join(", ")))),
                    };
                }
                let card = self.node(base)?;
                let Some(a) = self.attrs.iter().position(|x| &x.name == field) else {
                    let hint = nearest(field, self.attrs.iter().map(|a| a.name.as_str())).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
                    if let Some(d) = dotted_name(node) {
                        let params: Vec<&str> = self.params.iter().map(|p| p.key.as_str()).collect();
                        if let Some(n) = nearest(&d, params.iter().copied()) {
                            return Err(ExprError::new(at, format!("unknown name `{d}`; did you mean `{n}`?")));
                        }
                    }
                    return Err(ExprError::new(
                        at,
                        format!(
                            "`{field}` is not a card attribute; {hint}attributes: {}",
                            self.attrs.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", ")
                        ),
                    ));
                };
                let e = Expr::Attr(Box::new(card), a as u8);
                match self.attrs[a].numeric_from {
                    Some(from) if from != 0 => Expr::Bin(Op::Add, Box::new(e), Box::new(Expr::Const(from))),
                    _ => e,
                }
            }
            Ast::Index(base, index) => {
                let Ast::Name(name) = &base.ast else { return Err(ExprError::new(at, "only a counter or a zone per seat takes `[...]`")) };
                let i = self.node(index)?;
                if let Some(c) = self.counters.iter().position(|c| &c.name == name) {
                    if self.counters[c].per == Per::One {
                        return Err(ExprError::new(at, format!("`{name}` is one counter for the table; it takes no index")));
                    }
                    Expr::Counter(c as u16, Some(Box::new(i)))
                } else if let Some(z) = self.zones.iter().position(|z| &z.name == name) {
                    return Err(ExprError::new(at, format!("`{}` is a zone: use it inside size(...), count(...), top(...)", self.zones[z].name)));
                } else {
                    return Err(ExprError::new(at, format!("`{name}` takes no index (only counters per seat or per attribute do)")));
                }
            }
            Ast::Un(op, inner) => {
                let e = self.node(inner)?;
                if *op == "not" { Expr::Not(Box::new(e)) } else { Expr::Neg(Box::new(e)) }
            }
            Ast::Bin(op, a, b) => Expr::Bin(Op::of(op), Box::new(self.node(a)?), Box::new(self.node(b)?)),
            Ast::Call(f, args) => self.call(f, args, at)?,
        })
    }

    fn value_named(&self, word: &str) -> Option<i64> {
        let mut found = None;
        for a in &self.attrs {
            if a.numeric_from.is_none()
                && let Some(v) = a.values.iter().position(|x| x == word)
            {
                if found.is_some() {
                    return None;
                }
                found = Some(v as i64);
            }
        }
        if found.is_none() {
            for p in &self.params {
                if let ParamKind::Word(words) = &p.kind
                    && let Some(v) = words.iter().position(|x| x == word)
                {
                    return Some(v as i64);
                }
            }
            for p in &self.params {
                if let ParamKind::IntOrWord(words) = &p.kind
                    && let Some(v) = words.iter().position(|x| x == word)
                {
                    return Some(-(v as i64) - 1);
                }
            }
        }
        found
    }

    fn name(&mut self, name: &str, at: usize) -> Result<Expr, ExprError> {
        if let Some(slot) = self.lookup(name) {
            return Ok(Expr::Var(Var::Bind(slot)));
        }
        Ok(match name {
            "seat" => match self.seat_expr_here() {
                Some(e) => e,
                None => return Err(ExprError::new(at, "`seat` means nothing here (it is the seat a turn, a loop or an action is about)")),
            },
            "current" => Expr::Var(Var::Current),
            "players" => Expr::Var(Var::Players),
            "seats" => Expr::Var(Var::Seats),
            "turn" => Expr::Var(Var::Turn),
            "round_turn" => Expr::Var(Var::RoundTurn),
            "round" => Expr::Var(Var::Round),
            "first" => Expr::Var(Var::First),
            "target" | "number" => Expr::Var(Var::Arg),
            "card" => return Err(ExprError::new(at, "`card` means nothing here (it is the card of a `where`, a count or a loop over cards)")),
            _ => {
                if let Some(p) = self.params.iter().position(|p| p.key == name) {
                    return Ok(Expr::Param(p as u16));
                }
                if let Some(c) = self.counters.iter().position(|c| c.name == name) {
                    return match self.counters[c].per {
                        Per::One => Ok(Expr::Counter(c as u16, None)),
                        Per::Seat => match self.seat_expr_here() {
                            Some(s) => Ok(Expr::Counter(c as u16, Some(Box::new(s)))),
                            None => Err(ExprError::new(at, format!("`{name}` is a counter per seat: which seat? write `{name}[current]`"))),
                        },
                        Per::Attr(a) => Err(ExprError::new(
                            at,
                            format!("`{name}` is a counter per {}: write `{name}[card.{}]`", self.attrs[a as usize].name, self.attrs[a as usize].name),
                        )),
                    };
                }
                if let Some(v) = self.value_named(name) {
                    return Ok(Expr::Const(v));
                }
                if self.zones.iter().any(|z| z.name == name) {
                    return Err(ExprError::new(at, format!("`{name}` is a zone: use size({name}), count({name}, ...), top({name})")));
                }
                let mut names: Vec<&str> = vec!["seat", "current", "players", "seats", "turn", "round", "first", "target", "number"];
                names.extend(self.params.iter().map(|p| p.key.as_str()));
                names.extend(self.counters.iter().map(|c| c.name.as_str()));
                names.extend(self.scope.iter().map(|(n, _)| n.as_str()));
                let hint = nearest(name, names.iter().copied()).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
                return Err(ExprError::new(
                    at,
                    format!("unknown name `{name}`; {hint}names here: parameters, counters, seat, current, players, turn, round, target, number"),
                ));
            }
        })
    }

    fn zone_arg(&mut self, node: &Node) -> Result<Zone, ExprError> {
        let at = node.at;
        match &node.ast {
            Ast::Name(n) if n == "chosen" => Ok(Zone::Chosen),
            Ast::Name(n) => {
                let z = self.zone_named(n).map_err(|m| ExprError::new(at, m))?;
                if self.zones[z].per_seat {
                    match self.seat_expr_here() {
                        Some(s) => Ok(Zone::OfSeat(self.zones[z].first, Box::new(s))),
                        None => Err(ExprError::new(at, format!("`{n}` is a zone per seat: which seat? write `{n}[current]`"))),
                    }
                } else {
                    Ok(Zone::Shared(self.zones[z].first))
                }
            }
            Ast::Index(base, index) => {
                let Ast::Name(n) = &base.ast else { return Err(ExprError::new(at, "expected a zone")) };
                let z = self.zone_named(n).map_err(|m| ExprError::new(at, m))?;
                if !self.zones[z].per_seat {
                    return Err(ExprError::new(at, format!("`{n}` is a shared zone; it takes no seat")));
                }
                let s = self.node(index)?;
                Ok(Zone::OfSeat(self.zones[z].first, Box::new(s)))
            }
            _ => Err(ExprError::new(at, "expected a zone (`hand`, `hand[current]`, `draw`, `chosen`)")),
        }
    }

    fn attr_arg(&self, node: &Node) -> Result<u8, ExprError> {
        match &node.ast {
            Ast::Name(n) => self.attrs.iter().position(|a| &a.name == n).map(|a| a as u8).ok_or_else(|| {
                ExprError::new(
                    node.at,
                    format!("`{n}` is not a card attribute; attributes: {}", self.attrs.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", ")),
                )
            }),
            _ => Err(ExprError::new(node.at, "expected a card attribute's name")),
        }
    }

    pub(super) fn bound<T>(&mut self, name: &str, f: impl FnOnce(&mut Self, u8) -> Result<T, ExprError>) -> Result<(T, u8), ExprError> {
        let slot = self.alloc_expr();
        if slot as usize >= BINDS - 4 {
            return Err(ExprError::new(0, "aggregates nested too deeply (at most 12)"));
        }
        self.scope.push((name.to_string(), slot));
        let r = f(self, slot);
        self.scope.pop();
        r.map(|t| (t, slot))
    }

    fn call(&mut self, f: &str, args: &[Node], at: usize) -> Result<Expr, ExprError> {
        match f {
            "size" | "count" | "sum" | "top" | "same" | "groups" | "group_sum" | "largest" => self.zone_call(f, args, at),
            "every" | "some" | "count_seats" | "sum_seats" | "max_seats" | "min_seats" | "row" | "rows" | "chose" | "choice_arg" => {
                self.table_call(f, args, at)
            }
            "next" | "max" | "min" | "abs" | "if" | "last" | "last_arg" | "active" => self.plain_call(f, args, at),
            other => {
                let hint = nearest(other, FUNCTIONS.iter().copied()).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
                Err(ExprError::new(at, format!("unknown function `{other}`; {hint}functions: {}", FUNCTIONS.join(", "))))
            }
        }
    }

    /// The functions over a zone's cards: `size`, `count`, `sum`, `top`, `same`, `groups`,
    /// `group_sum`, `largest`.
    fn zone_call(&mut self, f: &str, args: &[Node], at: usize) -> Result<Expr, ExprError> {
        Ok(match f {
            "size" => {
                arity(f, args, at, 1)?;
                Expr::Size(self.zone_arg(&args[0])?)
            }
            "count" | "sum" => {
                if f == "count" && args.len() == 1 {
                    return Ok(Expr::Size(self.zone_arg(&args[0])?));
                }
                arity(f, args, at, 2)?;
                let z = self.zone_arg(&args[0])?;
                let (e, slot) = self.bound("card", |c, _| c.node(&args[1]))?;
                if f == "count" { Expr::Count(z, slot, Box::new(e)) } else { Expr::Sum(z, slot, Box::new(e)) }
            }
            "top" => {
                arity(f, args, at, 1)?;
                Expr::Top(self.zone_arg(&args[0])?)
            }
            "same" => {
                arity(f, args, at, 2)?;
                Expr::Same(self.zone_arg(&args[0])?, self.attr_arg(&args[1])?)
            }
            "groups" | "group_sum" => {
                if args.len() < 2 {
                    return Err(ExprError::new(
                        at,
                        format!("`{f}` takes a zone, an expression of `size`, then the attributes that make a group (none: identical cards)"),
                    ));
                }
                let z = self.zone_arg(&args[0])?;
                let attrs = args[2..].iter().map(|a| self.attr_arg(a)).collect::<Result<Vec<_>, _>>()?;
                let (e, slot) = self.bound("size", |c, _| c.node(&args[1]))?;
                if f == "groups" { Expr::Groups(z, attrs, slot, Box::new(e)) } else { Expr::GroupSum(z, attrs, slot, Box::new(e)) }
            }
            "largest" => {
                if args.is_empty() {
                    return Err(ExprError::new(at, "`largest` takes a zone, then the attributes that make a group"));
                }
                let z = self.zone_arg(&args[0])?;
                let attrs = args[1..].iter().map(|a| self.attr_arg(a)).collect::<Result<Vec<_>, _>>()?;
                Expr::Largest(z, attrs)
            }
            _ => unreachable!("called for the zone functions only"),
        })
    }

    /// The functions over seats, table parameters and choices made: the seat aggregates,
    /// `row`, `rows`, `chose`, `choice_arg`.
    fn table_call(&mut self, f: &str, args: &[Node], at: usize) -> Result<Expr, ExprError> {
        Ok(match f {
            "every" | "some" | "count_seats" | "sum_seats" | "max_seats" | "min_seats" => {
                arity(f, args, at, 1)?;
                let agg = match f {
                    "every" => SeatAgg::Every,
                    "some" => SeatAgg::Some,
                    "count_seats" => SeatAgg::Count,
                    "sum_seats" => SeatAgg::Sum,
                    "max_seats" => SeatAgg::Max,
                    _ => SeatAgg::Min,
                };
                let (e, slot) = self.bound("seat", |c, _| c.node(&args[0]))?;
                Expr::Seats(agg, slot, Box::new(e))
            }
            "row" => {
                arity(f, args, at, 2)?;
                let p = match dotted_name(&args[0]) {
                    Some(name) => self.params.iter().position(|p| p.key == name && matches!(p.kind, ParamKind::Rows { .. })),
                    None => None,
                }
                .ok_or_else(|| ExprError::new(args[0].at, "`row` reads a table parameter (declared with a list of rows as its default)"))?;
                Expr::Row(p as u16, Box::new(self.node(&args[1])?))
            }
            "rows" => {
                arity(f, args, at, 1)?;
                let p = match dotted_name(&args[0]) {
                    Some(name) => self.params.iter().position(|p| p.key == name && matches!(p.kind, ParamKind::Rows { .. })),
                    None => None,
                }
                .ok_or_else(|| ExprError::new(args[0].at, "`rows` reads a table parameter (declared with a list of rows as its default)"))?;
                Expr::Rows(p as u16)
            }
            "chose" => {
                arity(f, args, at, 2)?;
                let seat = self.node(&args[0])?;
                let a = match &args[1].ast {
                    Ast::Word(w) | Ast::Name(w) => self.action_named(w).map_err(|m| ExprError::new(args[1].at, m))?,
                    _ => return Err(ExprError::new(args[1].at, "expected an action's name")),
                };
                Expr::Chose(Box::new(seat), a as u16)
            }
            "choice_arg" => {
                arity(f, args, at, 1)?;
                Expr::ChoseArg(Box::new(self.node(&args[0])?))
            }
            _ => unreachable!("called for the seat and table functions only"),
        })
    }

    /// The plain functions of values: `next`, `max`, `min`, `abs`, `if`, `last`, `last_arg`,
    /// `active`.
    fn plain_call(&mut self, f: &str, args: &[Node], at: usize) -> Result<Expr, ExprError> {
        Ok(match f {
            "next" => {
                arity(f, args, at, 1)?;
                Expr::Next(Box::new(self.node(&args[0])?))
            }
            "max" | "min" => {
                arity(f, args, at, 2)?;
                Expr::MaxMin(f == "max", Box::new(self.node(&args[0])?), Box::new(self.node(&args[1])?))
            }
            "abs" => {
                arity(f, args, at, 1)?;
                Expr::Abs(Box::new(self.node(&args[0])?))
            }
            "if" => {
                arity(f, args, at, 3)?;
                Expr::If(Box::new(self.node(&args[0])?), Box::new(self.node(&args[1])?), Box::new(self.node(&args[2])?))
            }
            "last" | "last_arg" => {
                arity(f, args, at, 1)?;
                Expr::Last(Box::new(self.node(&args[0])?), f == "last_arg")
            }
            "active" => {
                arity(f, args, at, 1)?;
                Expr::Active(Box::new(self.node(&args[0])?))
            }
            _ => unreachable!("called for the plain functions only"),
        })
    }
}

/// Every function an expression may call (the unknown-function error lists them).
const FUNCTIONS: &[&str] = &[
    "size",
    "count",
    "sum",
    "top",
    "same",
    "groups",
    "group_sum",
    "largest",
    "every",
    "some",
    "count_seats",
    "sum_seats",
    "max_seats",
    "min_seats",
    "row",
    "rows",
    "chose",
    "choice_arg",
    "last",
    "last_arg",
    "next",
    "max",
    "min",
    "abs",
    "if",
    "active",
];

/// Refuses a call of `f` with other than `n` arguments.
fn arity(f: &str, args: &[Node], at: usize, n: usize) -> Result<(), ExprError> {
    if args.len() == n { Ok(()) } else { Err(ExprError::new(at, format!("`{f}` takes {n} argument{}", if n == 1 { "" } else { "s" }))) }
}

/// `a.b.c` written as names and fields, as one dotted name.
fn dotted_name(node: &Node) -> Option<String> {
    match &node.ast {
        Ast::Name(n) => Some(n.clone()),
        Ast::Field(base, field) => dotted_name(base).map(|b| format!("{b}.{field}")),
        _ => None,
    }
}
