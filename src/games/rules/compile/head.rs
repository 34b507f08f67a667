//! The file's head: the header keys (version, id, title, units), the seating, the turn cap,
//! the end checks, and the keys misplaced under `[end]` or `[table]`.

use super::{Compiler, Header, LANGUAGE_VERSION, Res, Seating, VERSION_KEY};
use crate::games::rules::expr::Expr;
use crate::games::rules::program::*;

impl<'v> Compiler<'v> {
    /// Refuses unknown keys in `[end]` and `[table]`, and collects the end reasons: every
    /// `reason` of `[end]` and `end game` in file order, then the engine's own.
    pub(super) fn check_end_and_table_keys(&mut self) -> Res<()> {
        if let Some(end) = self.table("end")? {
            self.check_keys("end", end, &["when", "round_when", "cap", "winners", "standing", "score", "capped_round_scores"], "the end")?;
        }
        self.collect_reasons();
        if let Some(t) = self.table("table")? {
            self.check_keys("table", t, &["seats", "first", "rotate_first", "teams", "rounds"], "the table")?;
        }
        Ok(())
    }

    /// The seat expression at `key` (`what` names it in an error), if the file gives one.
    pub(super) fn optional_seat_expr(&mut self, key: &str, what: &str) -> Res<Option<Expr>> {
        match self.get(key) {
            Some(v) => Ok(Some(self.seat_expr(key, v, what)?)),
            None => Ok(None),
        }
    }

    /// The file's header: the language version, the game id (not a built-in one), the title
    /// and the units of length and standing.
    pub(super) fn read_header(&mut self) -> Res<Header> {
        let version = match self.get(VERSION_KEY) {
            Some(toml::Value::Integer(n)) => *n,
            Some(other) => return Err(self.err(VERSION_KEY, format!("expected the language version (an integer), got {}", other.type_str()))),
            None => return Err(self.err(VERSION_KEY, "missing: a rules file starts with `rules_language = 1`")),
        };
        if version != LANGUAGE_VERSION {
            return Err(self.err(VERSION_KEY, format!("this playtest reads rules language version {LANGUAGE_VERSION}, not {version}")));
        }
        let id = self.v.game.clone();
        if id.is_empty() {
            return Err(self.err("game", "missing: a rules file names its game id (`game = \"my-game\"`)"));
        }
        if crate::games::GAME_IDS.contains(&id.as_str()) {
            return Err(self.err("game", format!("`{id}` is a built-in game's id; a rules file needs an id of its own (say `{id}-rules`)")));
        }
        if !id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_') {
            return Err(self.err("game", "a game id is lowercase letters, digits, `-` and `_`"));
        }
        let title = match self.get("title") {
            Some(v) => self.string("title", v, "title")?,
            None => id.clone(),
        };
        let length_unit = match self.get("length_unit") {
            Some(v) => self.string("length_unit", v, "length_unit")?,
            None => "turns".into(),
        };
        let standing_unit = match self.get("standing_unit") {
            Some(v) => self.string("standing_unit", v, "standing_unit")?,
            None => "points".into(),
        };
        Ok(Header { version, id, title, length_unit, standing_unit })
    }

    /// The end conditions listed under `list` (`end.when` or `end.round_when`), in file order.
    pub(super) fn end_checks(&mut self, list: &str) -> Res<Vec<EndCheck>> {
        let mut out = Vec::new();
        if let Some(v) = self.get(list) {
            let items = v.as_array().ok_or_else(|| self.err(list, "expected a list of `{ if = \"...\", reason = \"...\" }`"))?;
            for (i, item) in items.iter().enumerate() {
                let key = format!("{list}.{i}");
                let t = item.as_table().ok_or_else(|| self.err(&key, "expected `{ if = \"...\", reason = \"...\" }`"))?;
                self.check_keys(&key, t, &["if", "reason"], "an end condition")?;
                let cond = t.get("if").ok_or_else(|| self.err(&key, "missing `if`: the condition that ends it"))?;
                let condition = self.expr(&format!("{key}.if"), cond, "an end condition")?;
                let reason = t.get("reason").map(|r| self.string(&format!("{key}.reason"), r, "an end reason")).transpose()?.unwrap_or_else(|| "ended".into());
                let reason = self.reason_index(&reason);
                out.push(EndCheck { condition, reason });
            }
        }
        Ok(out)
    }

    /// The turn cap (required), whether a capped round still scores, and the rounds of a match.
    pub(super) fn read_cap(&mut self) -> Res<(Expr, bool, Option<Expr>)> {
        let cap_value = self
            .get("end.cap")
            .ok_or_else(|| self.err("end", "missing `cap`: every game needs a turn cap (`cap = 1000` or a parameter `cap = \"turn_cap\"`)"))?;
        let cap = self.expr("end.cap", cap_value, "the turn cap")?;
        let capped_round_scores = match self.get("end.capped_round_scores") {
            Some(toml::Value::Boolean(b)) => *b,
            Some(_) => return Err(self.err("end.capped_round_scores", "expected true or false")),
            None => true,
        };
        let rounds = match self.get("table.rounds") {
            Some(v) => Some(self.expr("table.rounds", v, "the rounds of a match")?),
            None => None,
        };
        Ok((cap, capped_round_scores, rounds))
    }

    /// The table's seats (dummies included), first seat, whether it rotates, and teams.
    pub(super) fn read_seating(&mut self) -> Res<Seating> {
        let seats = match self.get("table.seats") {
            Some(v) => Some(self.expr("table.seats", v, "the seats")?),
            None => None,
        };
        let first_seat = match self.get("table.first") {
            Some(v) => Some(self.expr("table.first", v, "the first seat")?),
            None => None,
        };
        let rotate_first = matches!(self.get("table.rotate_first"), Some(toml::Value::Boolean(true)));
        let teams = match self.get("table.teams") {
            None => Vec::new(),
            Some(v) => {
                let bad = || self.err("table.teams", "expected a list of teams, each a list of seat numbers (`[[0, 2], [1, 3]]`)");
                let mut teams = Vec::new();
                for t in v.as_array().ok_or_else(bad)? {
                    let mut team = Vec::new();
                    for s in t.as_array().ok_or_else(bad)? {
                        let s = s.as_integer().filter(|s| (0..SEAT_SLOTS as i64).contains(s)).ok_or_else(bad)?;
                        team.push(s as usize);
                    }
                    teams.push(team);
                }
                teams
            }
        };
        Ok(Seating { seats, first_seat, rotate_first, teams })
    }
}
