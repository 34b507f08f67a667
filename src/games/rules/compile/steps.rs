//! Steps compiled into instructions: the set-up, round and turn code, blocks, `if`, `each`,
//! `while` and `choose`, and the zones and templates steps name.

use super::{Compiler, Layout, Res};
use crate::games::rules::expr::{Expr, ExprError, Parser, Var, Zone};
use crate::games::rules::program::*;
use crate::variant::explain::nearest;

impl<'v> Compiler<'v> {
    /// Emits the set-up, round, turn and actions' code, with every jump to a turn's or
    /// round's end patched; returns where each part starts.
    pub(super) fn compile_code(&mut self) -> Res<Layout> {
        // Set-up.
        self.seat_is_current = false;
        self.steps_at("setup")?;
        let round_start = self.code.len() as u32;
        self.emit(Instr::RoundStart, "round");
        if self.get("round").is_some() {
            let round = self.table("round")?.expect("checked");
            self.check_keys("round", round, &["setup", "end"], "the round")?;
        }
        self.seat_is_current = false;
        self.steps_at("round.setup")?;
        let turn_start = self.code.len() as u32;
        self.emit(Instr::TurnStart, "turn");
        let turn = self.table("turn")?.ok_or_else(|| self.err("turn", "missing: a rules file needs a `[turn]` with `steps`"))?;
        self.check_keys("turn", turn, &["steps", "skip"], "the turn")?;
        self.seat_is_current = true;
        if self.get("turn.steps").is_none() {
            return Err(self.err("turn", "missing `steps`: the list of what a turn does"));
        }
        self.steps_at("turn.steps")?;
        let turn_end = self.code.len() as u32;
        self.emit(Instr::TurnEnd, "turn");
        let round_end = self.code.len() as u32;
        self.seat_is_current = false;
        self.steps_at("round.end")?;
        self.emit(Instr::RoundEnd, "round");
        for i in std::mem::take(&mut self.turn_end_fixups) {
            self.code[i] = Instr::Jump(turn_end);
        }
        // Actions' steps.
        for (index, steps, key) in std::mem::take(&mut self.action_steps) {
            self.actions[index].code = self.code.len() as u32;
            let slot = self.actions[index].code;
            let _ = slot;
            self.seat_is_current = false;
            let chooser = self.alloc();
            self.scope.push(("seat".into(), chooser));
            // The chooser's slot is set by the machine: the choose instruction's slot is
            // copied there (see `Machine::apply`); we record it as the first bind.
            self.code.push(Instr::Bind(chooser, Expr::Var(Var::Bind(0))));
            self.code_keys.push(key.clone());
            self.steps(&steps, &key)?;
            self.scope.pop();
            self.emit(Instr::Return, &key);
            for i in std::mem::take(&mut self.turn_end_fixups) {
                self.code[i] = Instr::Jump(turn_end);
            }
        }
        Ok(Layout { round_start, turn_start, turn_end, round_end })
    }

    fn steps_at(&mut self, key: &str) -> Res<()> {
        match self.get(key) {
            None => Ok(()),
            Some(v) => {
                let v = v.clone();
                self.steps(&v, key)
            }
        }
    }

    fn steps(&mut self, value: &toml::Value, key: &str) -> Res<()> {
        match value {
            toml::Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.step(item, &format!("{key}.{i}"))?;
                }
                Ok(())
            }
            toml::Value::String(_) | toml::Value::Table(_) => self.step(value, key),
            other => Err(self.err(key, format!("expected a list of steps, got {}", other.type_str()))),
        }
    }

    fn step(&mut self, value: &toml::Value, key: &str) -> Res<()> {
        match value {
            toml::Value::String(text) => self.statement(key, text),
            toml::Value::Table(t) => self.block(key, t),
            other => {
                Err(self
                    .err(key, format!("a step is a string (`move 1 from draw to hand`) or a table (`{{ if = ..., then = [...] }}`), got {}", other.type_str())))
            }
        }
    }

    fn block(&mut self, key: &str, t: &toml::Table) -> Res<()> {
        if let Some(cond) = t.get("if") {
            self.if_step(key, t, cond)
        } else if let Some(each) = t.get("each") {
            self.each_step(key, t, each)
        } else if let Some(cond) = t.get("while") {
            self.while_step(key, t, cond)
        } else if let Some(choose) = t.get("choose") {
            self.choose_step(key, t, choose)
        } else {
            Err(self.err(
                key,
                "a step table is one of `{ if = ..., then = [...] }`, `{ each = \"player\", do = [...] }`, `{ while = ..., do = [...] }`, `{ choose = [...] }`",
            ))
        }
    }

    /// `{ if = ..., then = [...], else = [...] }`.
    fn if_step(&mut self, key: &str, t: &toml::Table, cond: &toml::Value) -> Res<()> {
        self.check_keys(key, t, &["if", "then", "else"], "an `if` step")?;
        let c = self.expr(&format!("{key}.if"), cond, "a condition")?;
        let jump = self.code.len();
        self.emit(Instr::Jump(0), key);
        if let Some(then) = t.get("then") {
            self.steps(then, &format!("{key}.then"))?;
        } else {
            return Err(self.err(key, "missing `then`: the steps done when the condition holds"));
        }
        if let Some(otherwise) = t.get("else") {
            let skip = self.code.len();
            self.emit(Instr::Jump(0), key);
            self.code[jump] = Instr::JumpIfNot(c, self.code.len() as u32);
            self.steps(otherwise, &format!("{key}.else"))?;
            self.code[skip] = Instr::Jump(self.code.len() as u32);
        } else {
            self.code[jump] = Instr::JumpIfNot(c, self.code.len() as u32);
        }
        Ok(())
    }

    /// `{ each = "player" | "other" | "seat" | "card", do = [...], as = NAME }`.
    fn each_step(&mut self, key: &str, t: &toml::Table, each: &toml::Value) -> Res<()> {
        self.check_keys(key, t, &["each", "in", "do", "as"], "an `each` step")?;
        let what = self.string(&format!("{key}.each"), each, "each")?;
        let body = t.get("do").ok_or_else(|| self.err(key, "missing `do`: the steps done for each"))?;
        let name = t.get("as").map(|a| self.string(&format!("{key}.as"), a, "a name")).transpose()?;
        match what.as_str() {
            "player" | "other" | "seat" => {
                let which = match what.as_str() {
                    "player" => SeatLoop::Players,
                    "other" => SeatLoop::Others,
                    _ => SeatLoop::Seats,
                };
                let slot = self.alloc();
                let left = self.alloc();
                let start = self.code.len();
                self.emit(Instr::SeatLoopStart { which, slot, left, exit: 0 }, key);
                let body_at = self.code.len() as u32;
                self.scope.push((name.unwrap_or_else(|| "seat".into()), slot));
                self.steps(body, &format!("{key}.do"))?;
                self.scope.pop();
                self.emit(Instr::SeatLoopNext { which, slot, left, body: body_at }, key);
                let exit = self.code.len() as u32;
                self.code[start] = Instr::SeatLoopStart { which, slot, left, exit };
                Ok(())
            }
            "card" => {
                let source = t.get("in").map(|z| self.string(&format!("{key}.in"), z, "a zone")).transpose()?.unwrap_or_else(|| "chosen".into());
                if source != "chosen" {
                    return Err(self.err(&format!("{key}.in"), "a loop over cards runs over `chosen` (the cards the action chose)"));
                }
                let slot = self.alloc();
                let index = self.alloc();
                let start = self.code.len();
                self.emit(Instr::CardLoopStart { slot, index, exit: 0 }, key);
                let body_at = self.code.len() as u32;
                self.scope.push((name.unwrap_or_else(|| "card".into()), slot));
                self.steps(body, &format!("{key}.do"))?;
                self.scope.pop();
                self.emit(Instr::CardLoopNext { slot, index, body: body_at }, key);
                let exit = self.code.len() as u32;
                self.code[start] = Instr::CardLoopStart { slot, index, exit };
                Ok(())
            }
            other => Err(self.err(&format!("{key}.each"), format!("`{other}`: allowed: player (every player from the current one), other (every other player), seat (every seat, dummies included), card (every chosen card)"))),
        }
    }

    /// `{ while = ..., do = [...] }`, guarded against running forever.
    fn while_step(&mut self, key: &str, t: &toml::Table, cond: &toml::Value) -> Res<()> {
        self.check_keys(key, t, &["while", "do"], "a `while` step")?;
        let c = self.expr(&format!("{key}.while"), cond, "a condition")?;
        let body = t.get("do").ok_or_else(|| self.err(key, "missing `do`"))?;
        let guard = self.alloc();
        self.emit(Instr::Bind(guard, Expr::Const(0)), key);
        let top = self.code.len();
        self.emit(Instr::Jump(0), key);
        self.emit(Instr::LoopGuard { guard }, key);
        self.steps(body, &format!("{key}.do"))?;
        self.emit(Instr::Jump(top as u32), key);
        self.code[top] = Instr::JumpIfNot(c, self.code.len() as u32);
        Ok(())
    }

    /// `{ choose = [ACTIONS], by = SEAT, secret = BOOL }`: a decision.
    fn choose_step(&mut self, key: &str, t: &toml::Table, choose: &toml::Value) -> Res<()> {
        self.check_keys(key, t, &["choose", "by", "secret"], "a `choose` step")?;
        let names: Vec<String> = match choose {
            toml::Value::Array(a) => a.iter().map(|x| x.as_str().unwrap_or("").to_string()).collect(),
            other => self.string(&format!("{key}.choose"), other, "actions")?.split(',').map(|s| s.trim().to_string()).collect(),
        };
        let actions =
            names.iter().map(|n| self.action_named(n).map(|a| a as u16).map_err(|m| self.err(&format!("{key}.choose"), m))).collect::<Res<Vec<_>>>()?;
        if actions.is_empty() {
            return Err(self.err(&format!("{key}.choose"), "name at least one action"));
        }
        let seat = match t.get("by") {
            None => None,
            Some(v) => Some(self.expr(&format!("{key}.by"), v, "who chooses")?),
        };
        if seat.is_none() && !self.seat_is_current && !self.scope.iter().any(|(n, _)| n == "seat") {
            return Err(self.err(key, "who chooses? outside the turn's steps give `by` (a seat)"));
        }
        let seat = match seat {
            Some(s) => Some(s),
            None => self.lookup("seat").map(|slot| Expr::Var(Var::Bind(slot))),
        };
        let secret = matches!(t.get("secret"), Some(toml::Value::Boolean(true)));
        self.emit(Instr::Choose { seat, actions, secret, slot: 0 }, key);
        Ok(())
    }

    pub(super) fn seat_expr_here(&self) -> Option<Expr> {
        match self.lookup("seat") {
            Some(slot) => Some(Expr::Var(Var::Bind(slot))),
            None if self.seat_is_current => Some(Expr::Var(Var::Current)),
            None => None,
        }
    }

    pub(super) fn lookup(&self, name: &str) -> Option<u8> {
        self.scope.iter().rev().find(|(n, _)| n == name).map(|(_, s)| *s)
    }

    pub(super) fn zone_in(&mut self, key: &str, p: &mut Parser) -> Res<Zone> {
        let at = p.offset();
        let Some((_, name)) = p.name() else { return Err(self.expr_err(key, ExprError::new(at, "expected a zone name"), "a step")) };
        if name == "chosen" {
            return Ok(Zone::Chosen);
        }
        let z = self.zone_named(&name).map_err(|m| self.expr_err(key, ExprError::new(at, m), "a step"))?;
        if !self.zones[z].per_seat {
            return Ok(Zone::Shared(self.zones[z].first));
        }
        if p.symbol("[") {
            let n = p.expr().map_err(|e| self.expr_err(key, e, "a step"))?;
            if !p.symbol("]") {
                return Err(self.expr_err(key, ExprError::new(p.offset(), "expected `]`"), "a step"));
            }
            let s = self.resolve(key, &n)?;
            return Ok(Zone::OfSeat(self.zones[z].first, Box::new(s)));
        }
        match self.seat_expr_here() {
            Some(s) => Ok(Zone::OfSeat(self.zones[z].first, Box::new(s))),
            None => Err(self.expr_err(key, ExprError::new(at, format!("`{name}` is a zone per seat: which seat? write `{name}[current]`")), "a step")),
        }
    }

    pub(super) fn zone_ref_text(&mut self, key: &str, text: &str) -> Res<Zone> {
        let mut p = Parser::new(text).map_err(|e| self.expr_err(key, e, "a zone"))?;
        let z = self.zone_in(key, &mut p)?;
        p.finish().map_err(|e| self.expr_err(key, e, "a zone"))?;
        Ok(z)
    }

    pub(super) fn template(&mut self, key: &str, value: &toml::Value) -> Res<Template> {
        let text = self.string(key, value, "a text")?;
        self.template_text(key, &text, 0)
    }

    pub(super) fn template_text(&mut self, key: &str, text: &str, offset: usize) -> Res<Template> {
        let mut parts = Vec::new();
        let mut rest = text;
        let mut at = offset;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Text(rest[..open].to_string()));
            }
            let close = rest[open..].find('}').ok_or_else(|| self.expr_err(key, ExprError::new(at + open, "a `{` is not closed by `}`"), "a text"))? + open;
            let inner = rest[open + 1..close].trim();
            let inner_at = at + open + 1;
            let part = match inner {
                "cards" => Part::Cards,
                "seat" => Part::Seat(self.seat_expr_here().unwrap_or(Expr::Var(Var::Current))),
                "target" => Part::Seat(Expr::Var(Var::Arg)),
                "number" => Part::Value(Expr::Var(Var::Arg)),
                _ => {
                    if let Some(card) = inner.strip_prefix("card:") {
                        let e = self.parse_resolve(key, card, inner_at + 5, "a card in a text")?;
                        Part::Card(e)
                    } else if let Some(seat) = inner.strip_prefix("seat:") {
                        let e = self.parse_resolve(key, seat, inner_at + 5, "a seat in a text")?;
                        Part::Seat(e)
                    } else if let Some((name, e)) = inner.split_once(':') {
                        // `{color: number / 5}`: the attribute's value named, not numbered.
                        let name = name.trim();
                        let Some(a) = self.attrs.iter().position(|a| a.name == name) else {
                            let allowed: Vec<&str> = ["card", "seat"].into_iter().chain(self.attrs.iter().map(|a| a.name.as_str())).collect();
                            let hint = nearest(name, allowed.iter().copied()).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
                            let message = format!("`{name}:` names nothing; {hint}allowed before `:` in a text: {}", allowed.join(", "));
                            return Err(self.expr_err(key, ExprError::new(inner_at, message), "a text"));
                        };
                        let skip = inner.len() - e.len();
                        let e = self.parse_resolve(key, e, inner_at + skip, "an attribute's value in a text")?;
                        Part::Attr(a as u8, e)
                    } else {
                        Part::Value(self.parse_resolve(key, inner, inner_at, "a value in a text")?)
                    }
                }
            };
            parts.push(part);
            at += close + 1;
            rest = &rest[close + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Text(rest.to_string()));
        }
        Ok(Template { parts })
    }

    fn parse_resolve(&mut self, key: &str, text: &str, offset: usize, what: &str) -> Res<Expr> {
        let mut p = Parser::new(text).map_err(|mut e| {
            e.at += offset;
            self.expr_err(key, e, what)
        })?;
        let node = p.expr().map_err(|mut e| {
            e.at += offset;
            self.expr_err(key, e, what)
        })?;
        p.finish().map_err(|mut e| {
            e.at += offset;
            self.expr_err(key, e, what)
        })?;
        self.resolve_at(key, &node, offset)
    }
}
