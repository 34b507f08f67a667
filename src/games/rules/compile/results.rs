//! How a game ends and is judged: the end reasons, the winners, the goal's text, the figures
//! a report shows and the checks between parameters (`require`).

use super::{Compiler, Res};
use crate::games::rules::expr::Expr;
use crate::games::rules::program::*;

impl<'v> Compiler<'v> {
    /// What decides the game in words, from `[end]` as written: its end reasons and its
    /// winners rules ("Ends on hand empty, or at the turn cap. Wins: the least size(hand).").
    pub(super) fn goal_text(&self) -> String {
        let reasons: Vec<String> = self.reasons.iter().filter(|r| !matches!(r.as_str(), "cap" | "stuck" | "rounds")).map(|r| r.replace('_', " ")).collect();
        let mut out = if reasons.is_empty() { "Ends at the turn cap".to_string() } else { format!("Ends on {}, or at the turn cap", reasons.join(", ")) };
        let mut rules = Vec::new();
        if let Some(toml::Value::Array(items)) = self.get("end.winners") {
            for t in items.iter().filter_map(|i| i.as_table()) {
                for (key, words) in [("most", "the most"), ("least", "the least"), ("only", "the only seat where"), ("all", "every seat where")] {
                    if let Some(toml::Value::String(e)) = t.get(key) {
                        let unique = if t.get("unique").and_then(|u| u.as_bool()) == Some(true) { " (alone)" } else { "" };
                        rules.push(format!("{words} {e}{unique}"));
                    }
                }
            }
        }
        if !rules.is_empty() {
            out.push_str(&format!(". Wins: {}", rules.join(", else ")));
        }
        out.push('.');
        out
    }

    pub(super) fn collect_reasons(&mut self) {
        for list in ["end.when", "end.round_when"] {
            if let Some(toml::Value::Array(items)) = self.get(list) {
                for item in items {
                    if let Some(toml::Value::String(r)) = item.get("reason")
                        && !self.reasons.contains(r)
                    {
                        self.reasons.push(r.clone());
                    }
                }
            }
        }
        // The engine's own reasons, each only where it can happen: `cap` always, `stuck` with
        // a `while` loop or a `skip` condition, `rounds` with rounds.
        let text = format!("{:?}", self.v.table);
        let mut engine = vec!["cap"];
        if self.get("turn.skip").is_some() || text.contains("\"while\"") {
            engine.push("stuck");
        }
        if self.get("table.rounds").is_some() || self.get("end.round_when").is_some() || text.contains("end round") {
            engine.push("rounds");
        }
        for r in engine {
            if !self.reasons.iter().any(|x| x == r) {
                self.reasons.push(r.into());
            }
        }
    }

    pub(super) fn reason_index(&mut self, name: &str) -> u8 {
        match self.reasons.iter().position(|r| r == name) {
            Some(i) => i as u8,
            None => {
                self.reasons.push(name.to_string());
                (self.reasons.len() - 1) as u8
            }
        }
    }

    pub(super) fn read_winners(&mut self) -> Res<Vec<WinRule>> {
        let Some(list) = self.get("end.winners") else { return Err(self.err("end", "missing `winners`: who wins (`winners = [{ most = \"points\" }]`)")) };
        let list = list.as_array().ok_or_else(|| self.err("end.winners", "expected a list of rules, tried in order"))?;
        let mut rules = Vec::new();
        for (i, item) in list.iter().enumerate() {
            let at = format!("end.winners.{i}");
            let t = item
                .as_table()
                .ok_or_else(|| self.err(&at, "expected `{ most = \"...\" }`, `{ least = \"...\" }`, `{ only = \"...\" }` or `{ all = \"...\" }`"))?;
            self.check_keys(&at, t, &["most", "least", "only", "all", "unique", "rank"], "a winners rule")?;
            let unique = matches!(t.get("unique"), Some(toml::Value::Boolean(true)));
            let rank = match t.get("rank") {
                None => 1,
                Some(toml::Value::Integer(r @ 1..=2)) => *r as u8,
                Some(_) => return Err(self.err(&format!("{at}.rank"), "allowed: 1 (the most), 2 (the second most)")),
            };
            let rule = if let Some(v) = t.get("most") {
                WinRule::Most { value: self.seat_expr(&format!("{at}.most"), v, "a winners rule")?, least: false, unique, rank }
            } else if let Some(v) = t.get("least") {
                WinRule::Most { value: self.seat_expr(&format!("{at}.least"), v, "a winners rule")?, least: true, unique, rank }
            } else if let Some(v) = t.get("only") {
                WinRule::Only(self.seat_expr(&format!("{at}.only"), v, "a winners rule")?)
            } else if let Some(v) = t.get("all") {
                WinRule::All(self.seat_expr(&format!("{at}.all"), v, "a winners rule")?)
            } else {
                return Err(self.err(&at, "a winners rule needs one of `most`, `least`, `only`, `all`"));
            };
            rules.push(rule);
        }
        Ok(rules)
    }

    pub(super) fn read_figures(&mut self) -> Res<Vec<FigureDecl>> {
        let Some(table) = self.table("figures")? else { return Ok(Vec::new()) };
        let mut figures = Vec::new();
        for (name, decl) in table {
            let at = format!("figures.{name}");
            let t = decl.as_table().ok_or_else(|| self.err(&at, "expected `{ value = \"...\", meaning = \"...\", unit = \"...\" }`"))?;
            self.check_keys(&at, t, &["value", "share", "count", "when", "meaning", "unit"], "a figure")?;
            let meaning =
                t.get("meaning").map(|m| self.string(&format!("{at}.meaning"), m, "a meaning")).transpose()?.unwrap_or_else(|| name.replace('_', " "));
            let unit = t.get("unit").map(|m| self.string(&format!("{at}.unit"), m, "a unit")).transpose()?;
            let (kind, unit) = if let Some(v) = t.get("value") {
                (FigureKind::Value(self.expr(&format!("{at}.value"), v, "a figure")?), unit.unwrap_or_else(|| "per game".into()))
            } else if let Some(v) = t.get("share") {
                (FigureKind::Share(self.expr(&format!("{at}.share"), v, "a figure")?), "%".into())
            } else if let Some(v) = t.get("count") {
                let key = format!("{at}.count");
                let action = self.string(&key, v, "an action")?;
                let a = self.action_named(&action).map_err(|m| self.err(&key, m))?;
                self.scope.push(("seat".into(), 0));
                let when = t.get("when").map(|w| self.expr(&format!("{at}.when"), w, "a figure's condition")).transpose();
                self.scope.pop();
                (FigureKind::Count(a as u16, when?), unit.unwrap_or_else(|| "per game".into()))
            } else {
                return Err(self.err(&at, "a figure needs `value` (mean at the end of a game), `share` (share of games at whose end it holds) or `count` (an action's plays per game)"));
            };
            figures.push(FigureDecl { name: name.clone(), kind, meaning, unit });
        }
        Ok(figures)
    }

    pub(super) fn read_requires(&mut self) -> Res<Vec<(Expr, String, String)>> {
        let Some(list) = self.get("require") else { return Ok(Vec::new()) };
        let list = list.as_array().ok_or_else(|| self.err("require", "expected a list of `{ if = \"...\", message = \"...\" }`"))?;
        let mut out = Vec::new();
        for (i, item) in list.iter().enumerate() {
            let at = format!("require.{i}");
            let t = item.as_table().ok_or_else(|| self.err(&at, "expected `{ if = \"...\", message = \"...\", key = \"...\" }`"))?;
            self.check_keys(&at, t, &["if", "message", "key"], "a requirement")?;
            let cond = t.get("if").ok_or_else(|| self.err(&at, "missing `if`"))?;
            let e = self.expr(&format!("{at}.if"), cond, "a requirement")?;
            let message = t
                .get("message")
                .map(|m| self.string(&format!("{at}.message"), m, "a message"))
                .transpose()?
                .unwrap_or_else(|| "a requirement of the rules file fails".into());
            let key = t.get("key").map(|m| self.string(&format!("{at}.key"), m, "a key")).transpose()?.unwrap_or_else(|| at.clone());
            out.push((e, message, key));
        }
        Ok(out)
    }
}
