//! `[parameters]`: every parameter's kind, default, range and meaning, numbers or words.

use super::{Compiler, ParamShape, RESERVED, Res};
use crate::games::rules::program::*;

impl<'v> Compiler<'v> {
    pub(super) fn read_params(&mut self) -> Res<()> {
        let Some(table) = self.table("parameters")? else { return Ok(()) };
        for key in table.keys() {
            self.misplaced("parameters", key)?;
        }
        // Parameters are read in file order (toml keeps its tables sorted; defaults that are
        // expressions may only use parameters declared before them in this order).
        for (key, decl) in table {
            let at = format!("parameters.{key}");
            if RESERVED.contains(&key.as_str()) && key != "players" {
                return Err(self.err(&at, format!("`{key}` is a name the language uses; pick another")));
            }
            let t = decl.as_table().ok_or_else(|| self.err(&at, "expected `{ default = ..., min = ..., max = ..., meaning = \"...\" }`"))?;
            self.check_keys(&at, t, &["default", "min", "max", "meaning", "words", "step", "kind"], "a parameter")?;
            let meaning = t.get("meaning").map(|m| self.string(&format!("{at}.meaning"), m, "a meaning")).transpose()?.unwrap_or_default();
            let min = t.get("min").map(|m| m.as_integer().ok_or_else(|| self.err(&format!("{at}.min"), "expected an integer"))).transpose()?;
            let max = t.get("max").map(|m| m.as_integer().ok_or_else(|| self.err(&format!("{at}.max"), "expected an integer"))).transpose()?;
            let default = t.get("default").ok_or_else(|| self.err(&at, "missing `default`"))?;
            let (kind, default, lo, hi) = if let Some(words) = t.get("words") {
                self.word_param(&at, words, default, min, max)?
            } else {
                match default {
                    toml::Value::Boolean(b) => (ParamKind::Bool, ParamDefault::Value(i64::from(*b)), 0, 1),
                    toml::Value::Integer(n) => (ParamKind::Int, ParamDefault::Value(*n), min.unwrap_or(i64::MIN), max.unwrap_or(i64::MAX)),
                    toml::Value::Array(rows) => {
                        let rows: Vec<i64> = rows
                            .iter()
                            .map(|r| r.as_integer().ok_or_else(|| self.err(&format!("{at}.default"), "expected a list of integers (rows 1, 2, ...)")))
                            .collect::<Res<_>>()?;
                        let step = t
                            .get("step")
                            .map(|s| s.as_integer().ok_or_else(|| self.err(&format!("{at}.step"), "expected an integer")))
                            .transpose()?
                            .unwrap_or(0);
                        (ParamKind::Rows { step }, ParamDefault::Rows(rows), min.unwrap_or(i64::MIN), max.unwrap_or(i64::MAX))
                    }
                    toml::Value::String(_) => {
                        let e = self.expr(&format!("{at}.default"), default, "a default")?;
                        (ParamKind::Int, ParamDefault::Expr(e), min.unwrap_or(i64::MIN), max.unwrap_or(i64::MAX))
                    }
                    other => {
                        return Err(self.err(
                            &format!("{at}.default"),
                            format!("expected an integer, true/false, a list of rows or an expression, got {}", other.type_str()),
                        ));
                    }
                }
            };
            if lo > hi {
                return Err(self.err(&at, format!("`min` ({lo}) is above `max` ({hi})")));
            }
            self.params.push(ParamDecl { key: key.clone(), kind, default, min: lo, max: hi, meaning });
        }
        if self.params.iter().all(|p| p.key != "players") {
            return Err(self.err("parameters", "missing `players`: declare it (`players = { default = 4, min = 2, max = 8 }`)"));
        }
        let players = &self.params[self.params.iter().position(|p| p.key == "players").expect("checked")];
        if players.min < 1 || players.max > SEAT_SLOTS as i64 {
            return Err(self.err("parameters.players", format!("players may range over 1 to {SEAT_SLOTS}")));
        }
        Ok(())
    }

    /// A parameter with `words`: a word (its index) or, with a range, an integer or a word
    /// (words read as -1, -2, ... below every integer); its kind, default and range.
    fn word_param(&self, at: &str, words: &toml::Value, default: &toml::Value, min: Option<i64>, max: Option<i64>) -> Res<ParamShape> {
        let words: Vec<String> = words
            .as_array()
            .ok_or_else(|| self.err(&format!("{at}.words"), "expected a list of words"))?
            .iter()
            .map(|w| w.as_str().map(str::to_string).ok_or_else(|| self.err(&format!("{at}.words"), "expected a list of words")))
            .collect::<Res<_>>()?;
        let word = |s: &str| {
            words.iter().position(|w| w == s).ok_or_else(|| self.err(&format!("{at}.default"), format!("`{s}` is not one of the words: {}", words.join(", "))))
        };
        if min.is_some() || max.is_some() {
            // An integer or a word: words read as -1, -2, ... below every integer.
            let (lo, hi) = (min.unwrap_or(0), max.unwrap_or(i64::MAX));
            if lo < 0 {
                return Err(self.err(&format!("{at}.min"), "a parameter with `words` and a range takes integers from 0 up (its words read as -1, -2, ...)"));
            }
            let d = match default {
                toml::Value::String(s) => -(word(s)? as i64) - 1,
                toml::Value::Integer(n) if *n >= lo && *n <= hi => *n,
                _ => return Err(self.err(&format!("{at}.default"), format!("expected an integer from {lo} to {hi} or one of the words"))),
            };
            Ok((ParamKind::IntOrWord(words), ParamDefault::Value(d), lo, hi))
        } else {
            let d = match default {
                toml::Value::String(s) => word(s)? as i64,
                _ => return Err(self.err(&format!("{at}.default"), "expected one of the words")),
            };
            let n = words.len() as i64;
            Ok((ParamKind::Word(words), ParamDefault::Value(d), 0, n - 1))
        }
    }
}
