//! `[actions]`: each action's choice (cards, a number, a seat), its condition and what its
//! seat may see to choose; the file's own bots (`[strategies]`).

use super::{Compiler, Res};
use crate::games::rules::expr::{Ast, Expr};
use crate::games::rules::program::*;
use crate::games::rules::sight::Chooser;
use crate::variant::explain::nearest;

impl<'v> Compiler<'v> {
    pub(super) fn declare_actions(&mut self) -> Res<()> {
        let Some(table) = self.table("actions")? else { return Err(self.err("actions", "missing `[actions]`: what a seat may choose")) };
        // Names first, so steps and conditions may name any action.
        for (name, _) in table {
            self.actions.push(ActionDecl {
                name: name.clone(),
                condition: None,
                cards: None,
                arg: ArgChoice::None,
                say: Template::default(),
                say_own: None,
                code: 0,
            });
        }
        for (index, (name, decl)) in table.iter().enumerate() {
            let at = format!("actions.{name}");
            let t = decl.as_table().ok_or_else(|| self.err(&at, "expected a table (`if`, `cards`, `number`, `target`, `say`, `do`)"))?;
            self.check_keys(&at, t, &["if", "cards", "number", "target", "say", "say_own", "do"], "an action")?;
            // The chooser is `seat` (slot 0 while legal actions are listed).
            self.scope.push(("seat".into(), 0));
            let arg = if let Some(n) = t.get("number") {
                let key = format!("{at}.number");
                let text = self.string(&key, n, "a number's range")?;
                let node = self.parse(&key, &text, "a number's range")?;
                match node.ast {
                    Ast::Range(lo, hi) => {
                        let lo = self.resolve(&key, &lo)?;
                        let hi = self.resolve(&key, &hi)?;
                        ArgChoice::Number(lo, hi)
                    }
                    _ => return Err(self.err(&key, "expected a range `lo..hi` (both included)")),
                }
            } else if let Some(v) = t.get("target") {
                let key = format!("{at}.target");
                match self.string(&key, v, "a target")?.as_str() {
                    "other" => ArgChoice::Seat { others: true },
                    "any" => ArgChoice::Seat { others: false },
                    other => return Err(self.err(&key, format!("`{other}`: allowed: other (another seat), any (any seat, itself included)"))),
                }
            } else {
                ArgChoice::None
            };
            let cards = match t.get("cards") {
                None => None,
                Some(c) => Some(self.card_choice(&format!("{at}.cards"), c)?),
            };
            let condition = match t.get("if") {
                None => None,
                Some(c) => Some(self.expr(&format!("{at}.if"), c, "an action's condition")?),
            };
            let say = match t.get("say") {
                Some(s) => self.template(&format!("{at}.say"), s)?,
                None => Template { parts: vec![Part::Text(name.replace('_', " ")), Part::Cards] },
            };
            let say_own = t.get("say_own").map(|s| self.template(&format!("{at}.say_own"), s)).transpose()?;
            self.scope.pop();
            self.check_sight(&at, &arg, cards.as_ref(), condition.as_ref())?;
            let steps = t.get("do").cloned().unwrap_or(toml::Value::Array(Vec::new()));
            let a = &mut self.actions[index];
            a.arg = arg;
            a.cards = cards;
            a.condition = condition;
            a.say = say;
            a.say_own = say_own;
            self.action_steps.push((index, steps, format!("{at}.do")));
        }
        Ok(())
    }

    /// Refuses an action whose preconditions read what the choosing seat (slot 0 while legal
    /// choices are listed) cannot see: the legal choices are shown to that seat.
    fn check_sight(&self, at: &str, arg: &ArgChoice, cards: Option<&CardChoice>, condition: Option<&Expr>) -> Res<()> {
        let mut who = Chooser { zones: &self.zones, seat: 0, sees_from: true, card: None };
        let mut reads: Vec<(String, &Expr)> = Vec::new();
        if let Some(c) = condition {
            reads.push((format!("{at}.if"), c));
        }
        if let ArgChoice::Number(lo, hi) = arg {
            reads.push((format!("{at}.number"), lo));
            reads.push((format!("{at}.number"), hi));
        }
        if let Some(c) = cards {
            who.sees_from = who.sees(&c.from);
            who.card = c.each.as_ref().map(|e| e.0);
            reads.push((format!("{at}.cards.count"), &c.min));
            reads.push((format!("{at}.cards.count"), &c.max));
            if let Some((_, e)) = &c.each {
                reads.push((format!("{at}.cards.where"), e));
            }
            if let Some(e) = &c.set {
                reads.push((format!("{at}.cards.set"), e));
            }
        }
        for (key, e) in reads {
            if let Some(what) = who.unseen(e) {
                return Err(self.err(
                    &key,
                    format!(
                        "a seat's choices may read only what that seat sees, but {what}; allowed: the seat's own zones \
                         (`hand`), zones everyone sees, the top card of a zone that shows its top, any zone's size, \
                         counters, parameters and revealed choices"
                    ),
                ));
            }
        }
        Ok(())
    }

    fn card_choice(&mut self, at: &str, value: &toml::Value) -> Res<CardChoice> {
        let t = value.as_table().ok_or_else(|| self.err(at, "expected `{ from = \"hand\", count = \"1..3\", where = \"...\", by = \"position\" }`"))?;
        self.check_keys(at, t, &["from", "count", "where", "set", "by"], "a choice of cards")?;
        let from = t.get("from").ok_or_else(|| self.err(at, "missing `from`: the zone the cards are chosen from"))?;
        let from_text = self.string(&format!("{at}.from"), from, "a zone")?;
        let from = self.zone_ref_text(&format!("{at}.from"), &from_text)?;
        let (min, max) = match t.get("count") {
            None => (Expr::Const(1), Expr::Const(1)),
            Some(c) => {
                let key = format!("{at}.count");
                let text = self.string(&key, c, "a count")?;
                let node = self.parse(&key, &text, "a count")?;
                match &node.ast {
                    Ast::Range(lo, hi) => (self.resolve(&key, lo)?, self.resolve(&key, hi)?),
                    _ => {
                        let e = self.resolve(&key, &node)?;
                        (e.clone(), e)
                    }
                }
            }
        };
        let each = match t.get("where") {
            None => None,
            Some(w) => {
                let slot = self.alloc_expr();
                self.scope.push(("card".into(), slot));
                let e = self.expr(&format!("{at}.where"), w, "a condition on each card");
                self.scope.pop();
                Some((slot, e?))
            }
        };
        let set = t.get("set").map(|s| self.expr(&format!("{at}.set"), s, "a condition on the chosen set")).transpose()?;
        let by = match t.get("by").map(|b| self.string(&format!("{at}.by"), b, "by")).transpose()?.as_deref() {
            None | Some("position") => ChoiceBy::Position,
            Some("kind") => ChoiceBy::Kind,
            Some(other) => {
                return Err(self.err(
                    &format!("{at}.by"),
                    format!("`{other}`: allowed: position (every set of hand places), kind (sets of the same cards are one choice)"),
                ));
            }
        };
        Ok(CardChoice { from, min, max, each, set, by })
    }

    pub(super) fn action_named(&self, name: &str) -> Result<usize, String> {
        self.actions.iter().position(|a| a.name == name).ok_or_else(|| {
            let hint = nearest(name, self.actions.iter().map(|a| a.name.as_str())).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
            format!("unknown action `{name}`; {hint}actions: {}", self.actions.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", "))
        })
    }

    pub(super) fn read_bots(&mut self) -> Res<Vec<FileBot>> {
        let Some(table) = self.table("strategies")? else { return Ok(Vec::new()) };
        let mut bots = Vec::new();
        for (name, decl) in table {
            let at = format!("strategies.{name}");
            if ["random", "ismcts", "greedy"].contains(&name.as_str()) {
                return Err(self.err(&at, format!("`{name}` is a bot every game has; name yours otherwise")));
            }
            let t = decl.as_table().ok_or_else(|| self.err(&at, "expected `{ doc = \"...\", rules = [...] }`"))?;
            self.check_keys(&at, t, &["doc", "rules"], "a bot")?;
            let doc =
                t.get("doc").map(|d| self.string(&format!("{at}.doc"), d, "a doc")).transpose()?.unwrap_or_else(|| format!("the rules file's bot `{name}`"));
            let list = t
                .get("rules")
                .and_then(|r| r.as_array())
                .ok_or_else(|| self.err(&at, "missing `rules`: a list of `{ action = \"...\", when = \"...\", prefer = \"...\" }`, tried in order"))?;
            let mut rules = Vec::new();
            for (i, r) in list.iter().enumerate() {
                let key = format!("{at}.rules.{i}");
                let rt = r.as_table().ok_or_else(|| self.err(&key, "expected `{ action = \"...\", when = \"...\" }`"))?;
                self.check_keys(&key, rt, &["action", "when", "prefer"], "a bot rule")?;
                let actions = match rt.get("action") {
                    None => Vec::new(),
                    Some(toml::Value::String(s)) if s == "any" => Vec::new(),
                    Some(v) => {
                        let names: Vec<String> = match v {
                            toml::Value::Array(a) => a.iter().map(|x| x.as_str().unwrap_or("").to_string()).collect(),
                            other => vec![self.string(&format!("{key}.action"), other, "an action")?],
                        };
                        names.iter().map(|n| self.action_named(n).map(|a| a as u16).map_err(|m| self.err(&format!("{key}.action"), m))).collect::<Res<_>>()?
                    }
                };
                self.scope.push(("seat".into(), 0));
                let when = rt.get("when").map(|w| self.expr(&format!("{key}.when"), w, "a bot rule's condition")).transpose();
                let prefer = rt.get("prefer").map(|w| self.expr(&format!("{key}.prefer"), w, "a bot rule's preference")).transpose();
                self.scope.pop();
                rules.push(BotRule { actions, when: when?, prefer: prefer? });
            }
            bots.push(FileBot { name: name.clone(), doc, rules });
        }
        Ok(bots)
    }
}
