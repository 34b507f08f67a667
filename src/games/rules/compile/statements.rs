//! One-line statements compiled: `move`, `shuffle` and the other zone steps, `roll`, `end`,
//! and assignments to counters.

use super::{Compiler, Res};
use crate::games::rules::expr::{Expr, ExprError, Parser, Zone};
use crate::games::rules::program::*;
use crate::variant::explain::nearest;

impl<'v> Compiler<'v> {
    pub(super) fn statement(&mut self, key: &str, text: &str) -> Res<()> {
        let mut p = Parser::new(text).map_err(|e| self.expr_err(key, e, "a step"))?;
        let what = "a step";
        let word = p.name().map(|(_, w)| w);
        match word.as_deref() {
            Some("move") => self.move_step(key, &mut p)?,
            Some(w @ ("fill" | "deal" | "shuffle" | "reveal")) => self.zone_step(w, key, &mut p)?,
            Some("roll") if !self.counters.iter().any(|c| c.name == "roll") => self.roll_step(key, &mut p)?,
            Some("say") => {
                let rest = text.trim_start().strip_prefix("say").unwrap_or("").trim_start();
                let offset = text.len() - rest.len();
                let t = self.template_text(key, rest, offset)?;
                self.emit(Instr::Say(t), key);
            }
            Some("end") => self.end_step(key, &mut p)?,
            Some("next") => {
                let n = p.expr().map_err(|e| self.expr_err(key, e, what))?;
                p.finish().map_err(|e| self.expr_err(key, e, what))?;
                let e = self.resolve(key, &n)?;
                self.emit(Instr::NextSeat(e), key);
            }
            Some("skip") => {
                p.finish().map_err(|e| self.expr_err(key, e, what))?;
                self.emit(Instr::Skip, key);
            }
            Some("reverse") => {
                p.finish().map_err(|e| self.expr_err(key, e, what))?;
                self.emit(Instr::Reverse, key);
            }
            Some("eliminate") => {
                let n = p.expr().map_err(|e| self.expr_err(key, e, what))?;
                p.finish().map_err(|e| self.expr_err(key, e, what))?;
                let e = self.resolve(key, &n)?;
                self.eliminates = true;
                self.emit(Instr::Eliminate(e), key);
            }
            Some(name) => self.assign_step(name, key, &mut p)?,
            None => step_fail!(self, key, ExprError::new(0, "an empty step")),
        }
        Ok(())
    }

    /// `move ...`: chosen cards, one card, N cards (from the top or bottom, `where` a
    /// condition holds) or all of a zone, onto another zone's top or bottom.
    fn move_step(&mut self, key: &str, p: &mut Parser) -> Res<()> {
        let what = "a step";
        if p.keyword("chosen") {
            let to = self.zone_after(key, p, "to")?;
            p.finish().map_err(|e| self.expr_err(key, e, what))?;
            self.emit(Instr::MoveChosen { to }, key);
            return Ok(());
        }
        let count = if p.keyword("all") {
            None
        } else {
            let n = p.expr_until(&["from", "to"]).map_err(|e| self.expr_err(key, e, what))?;
            let e = self.resolve(key, &n)?;
            if p.keyword("to") {
                let to = self.zone_in(key, p)?;
                p.finish().map_err(|e| self.expr_err(key, e, what))?;
                self.emit(Instr::MoveCard { card: e, to }, key);
                return Ok(());
            }
            Some(e)
        };
        if !p.keyword("from") {
            step_fail!(self, key, ExprError::new(p.offset(), "expected `from` (move N from ZONE to ZONE)"));
        }
        let take = if p.keyword("bottom") {
            if !p.keyword("of") {
                step_fail!(self, key, ExprError::new(p.offset(), "expected `of` (from bottom of ZONE)"));
            }
            End::Bottom
        } else {
            let _ = p.keyword("top") && p.keyword("of");
            End::Top
        };
        let from = self.zone_in(key, p)?;
        let to = self.zone_after(key, p, "to")?;
        let put = if p.keyword("bottom") { End::Bottom } else { End::Top };
        if p.keyword("where") {
            if matches!(from, Zone::Chosen) || take == End::Bottom {
                step_fail!(self, key, ExprError::new(p.offset(), "`where` filters a zone's cards from the top down (not `chosen`, not `from bottom of`)"));
            }
            let n = p.expr().map_err(|e| self.expr_err(key, e, what))?;
            p.finish().map_err(|e| self.expr_err(key, e, what))?;
            let (cond, slot) = self.bound("card", |c, _| c.node(&n)).map_err(|e| self.expr_err(key, e, what))?;
            self.emit(Instr::MoveWhere { from, to, count, put, slot, cond }, key);
            return Ok(());
        }
        p.finish().map_err(|e| self.expr_err(key, e, what))?;
        self.emit(Instr::Move { from, to, count, take, put }, key);
        Ok(())
    }

    /// The zone after keyword `kw` of a step (`to ZONE`, `from ZONE`).
    fn zone_after(&mut self, key: &str, p: &mut Parser, kw: &str) -> Res<Zone> {
        if !p.keyword(kw) {
            return Err(self.expr_err(key, ExprError::new(p.offset(), format!("expected `{kw}`")), "a step"));
        }
        self.zone_in(key, p)
    }

    /// `fill`, `deal`, `shuffle` and `reveal`: the steps on whole zones.
    fn zone_step(&mut self, word: &str, key: &str, p: &mut Parser) -> Res<()> {
        let what = "a step";
        match word {
            "fill" => {
                let to = self.zone_in(key, p)?;
                if !p.keyword("to") {
                    step_fail!(self, key, ExprError::new(p.offset(), "expected `to` (fill ZONE to SIZE from ZONE)"));
                }
                let n = p.expr_until(&["from"]).map_err(|e| self.expr_err(key, e, what))?;
                let size = self.resolve(key, &n)?;
                let from = self.zone_after(key, p, "from")?;
                p.finish().map_err(|e| self.expr_err(key, e, what))?;
                self.emit(Instr::Fill { to, size, from }, key);
            }
            "deal" => {
                let n = p.expr_until(&["from"]).map_err(|e| self.expr_err(key, e, what))?;
                let count = self.resolve(key, &n)?;
                let from = self.zone_after(key, p, "from")?;
                if !p.keyword("to") {
                    step_fail!(self, key, ExprError::new(p.offset(), "expected `to` (deal N from ZONE to ZONE-PER-SEAT)"));
                }
                let at = p.offset();
                let Some((_, name)) = p.name() else { step_fail!(self, key, ExprError::new(at, "expected a zone per seat")) };
                let z = self.zone_named(&name).map_err(|m| self.expr_err(key, ExprError::new(at, m), what))?;
                if !self.zones[z].per_seat {
                    step_fail!(self, key, ExprError::new(at, format!("`{name}` is a shared zone; deal goes to a zone per seat")));
                }
                p.finish().map_err(|e| self.expr_err(key, e, what))?;
                self.chance = true;
                self.emit(Instr::Deal { from, to: self.zones[z].first, count }, key);
            }
            "shuffle" => {
                let z = self.zone_in(key, p)?;
                p.finish().map_err(|e| self.expr_err(key, e, what))?;
                self.chance = true;
                self.emit(Instr::Shuffle(z), key);
            }
            "reveal" => {
                if p.keyword("choices") {
                    p.finish().map_err(|e| self.expr_err(key, e, what))?;
                    self.emit(Instr::RevealChoices, key);
                } else {
                    let z = self.zone_in(key, p)?;
                    p.finish().map_err(|e| self.expr_err(key, e, what))?;
                    self.emit(Instr::Reveal(z), key);
                }
            }
            _ => unreachable!("called for the zone steps only"),
        }
        Ok(())
    }

    /// `roll ZONE` or `roll chosen`: every die there shows a new random face.
    fn roll_step(&mut self, key: &str, p: &mut Parser) -> Res<()> {
        if !self.has_dice {
            return Err(self.err(key, "`roll ZONE` rolls dice, and this file has none: a `[[cards.group]]` with `die = ATTRIBUTE` declares dice (a roll into a counter is `COUNTER = roll(FACES)`)"));
        }
        let z = if p.keyword("chosen") { Zone::Chosen } else { self.zone_in(key, p)? };
        p.finish().map_err(|e| self.expr_err(key, e, "a step"))?;
        self.chance = true;
        self.emit(Instr::RollDice(z), key);
        Ok(())
    }

    /// `end turn`, `end round` or `end game REASON`.
    fn end_step(&mut self, key: &str, p: &mut Parser) -> Res<()> {
        let what = "a step";
        if p.keyword("turn") {
            p.finish().map_err(|e| self.expr_err(key, e, what))?;
            self.turn_end_fixups.push(self.code.len());
            self.emit(Instr::EndTurn, key);
        } else if p.keyword("round") {
            p.finish().map_err(|e| self.expr_err(key, e, what))?;
            // Kept as an instruction, not a jump: the machine counts the turn under way.
            self.emit(Instr::EndRound, key);
        } else if p.keyword("game") {
            let at = p.offset();
            let reason = match p.name() {
                Some((_, r)) => r,
                None => step_fail!(self, key, ExprError::new(at, "expected an end reason (end game all_played)")),
            };
            p.finish().map_err(|e| self.expr_err(key, e, what))?;
            let r = self.reason_index(&reason);
            self.emit(Instr::EndGame(r), key);
        } else {
            step_fail!(self, key, ExprError::new(p.offset(), "expected `turn`, `round` or `game REASON`"));
        }
        Ok(())
    }

    /// `COUNTER[index] (=|+=|-=) EXPR` or `COUNTER[index] = roll(FACES)`.
    fn assign_step(&mut self, name: &str, key: &str, p: &mut Parser) -> Res<()> {
        let what = "a step";
        // An assignment: COUNTER[ index ] (=|+=|-=) EXPR, or a roll.
        let name = name.to_string();
        let Some(c) = self.counters.iter().position(|c| c.name == name) else {
            let words = ["move", "fill", "deal", "shuffle", "reveal", "roll", "say", "end", "next", "skip", "reverse", "eliminate"];
            let names: Vec<&str> = words.iter().copied().chain(self.counters.iter().map(|c| c.name.as_str())).collect();
            let hint = nearest(&name, names.iter().copied()).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
            step_fail!(
                self,
                key,
                ExprError::new(
                    0,
                    format!(
                        "`{name}` is neither a step nor a counter; {hint}steps: {}; counters: {}",
                        words.join(", "),
                        self.counters.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")
                    )
                )
            );
        };
        let index = if p.symbol("[") {
            let n = p.expr().map_err(|e| self.expr_err(key, e, what))?;
            if !p.symbol("]") {
                step_fail!(self, key, ExprError::new(p.offset(), "expected `]`"));
            }
            Some(self.resolve(key, &n)?)
        } else {
            None
        };
        let index = self.counter_index(key, c, index, 0)?;
        let op = if p.symbol("+=") {
            AssignOp::Add
        } else if p.symbol("-=") {
            AssignOp::Sub
        } else if p.symbol("=") {
            AssignOp::Set
        } else {
            step_fail!(self, key, ExprError::new(p.offset(), "expected `=`, `+=` or `-=`"));
        };
        if op == AssignOp::Set && p.keyword("roll") {
            if !p.symbol("(") {
                step_fail!(self, key, ExprError::new(p.offset(), "expected `(` (roll(FACES))"));
            }
            let n = p.expr().map_err(|e| self.expr_err(key, e, what))?;
            if !p.symbol(")") {
                step_fail!(self, key, ExprError::new(p.offset(), "expected `)`"));
            }
            p.finish().map_err(|e| self.expr_err(key, e, what))?;
            let faces = self.resolve(key, &n)?;
            self.chance = true;
            self.emit(Instr::Roll { counter: c as u16, index, faces }, key);
            return Ok(());
        }
        let n = p.expr().map_err(|e| self.expr_err(key, e, what))?;
        p.finish().map_err(|e| self.expr_err(key, e, what))?;
        let value = self.resolve(key, &n)?;
        self.emit(Instr::Assign { counter: c as u16, slots: (0, 0), index, op, value }, key);
        Ok(())
    }

    /// The index of counter `c` as written (`None`: the counter's own seat or none).
    fn counter_index(&self, key: &str, c: usize, index: Option<Expr>, at: usize) -> Res<Option<Expr>> {
        let decl = &self.counters[c];
        match (decl.per, index) {
            (Per::One, None) => Ok(None),
            (Per::One, Some(_)) => {
                Err(self.expr_err(key, ExprError::new(at, format!("`{}` is one counter for the table; it takes no index", decl.name)), "a counter"))
            }
            (Per::Seat, Some(i)) => Ok(Some(i)),
            (Per::Seat, None) => match self.seat_expr_here() {
                Some(s) => Ok(Some(s)),
                None => Err(self.expr_err(
                    key,
                    ExprError::new(at, format!("`{}` is a counter per seat: which seat? write `{}[current]` or `{}[seat]`", decl.name, decl.name, decl.name)),
                    "a counter",
                )),
            },
            (Per::Attr(_), Some(i)) => Ok(Some(i)),
            (Per::Attr(a), None) => Err(self.expr_err(
                key,
                ExprError::new(
                    at,
                    format!("`{}` is a counter per {}: write `{}[card.{}]`", decl.name, self.attrs[a as usize].name, decl.name, self.attrs[a as usize].name),
                ),
                "a counter",
            )),
        }
    }
}
