//! `[zones]` and `[counters]`: the zones with who sees them, the counters with their start.

use super::{Compiler, RESERVED, RULES_KEYS, Res};
use crate::games::rules::expr::Expr;
use crate::games::rules::program::*;
use crate::variant::explain::nearest;

impl<'v> Compiler<'v> {
    pub(super) fn zone_named(&self, name: &str) -> Result<usize, String> {
        self.zones.iter().position(|z| z.name == name).ok_or_else(|| {
            let hint = nearest(name, self.zones.iter().map(|z| z.name.as_str())).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
            format!("unknown zone `{name}`; {hint}zones: {}", self.zones.iter().map(|z| z.name.as_str()).collect::<Vec<_>>().join(", "))
        })
    }

    pub(super) fn read_zones(&mut self) -> Res<()> {
        let Some(table) = self.table("zones")? else {
            if self.attrs.is_empty() {
                return Ok(());
            }
            return Err(self.err("zones", "missing `[zones]`: where cards are (a draw pile, hands, ...)"));
        };
        for key in table.keys() {
            self.misplaced("zones", key)?;
        }
        let mut shared = Vec::new();
        let mut seat_zones = Vec::new();
        for (name, decl) in table {
            let at = format!("zones.{name}");
            if RESERVED.contains(&name.as_str()) {
                return Err(self.err(&at, format!("`{name}` is a name the language uses; pick another")));
            }
            let t = decl.as_table().ok_or_else(|| self.err(&at, "expected `{ per = \"seat\", see = \"owner\" }`"))?;
            self.check_keys(&at, t, &["per", "see", "ordered"], "a zone")?;
            let per = t.get("per").map(|p| self.string(&format!("{at}.per"), p, "per")).transpose()?.unwrap_or_else(|| "table".into());
            let per_seat = match per.as_str() {
                "seat" => true,
                "table" => false,
                other => return Err(self.err(&format!("{at}.per"), format!("`{other}`: allowed: seat (one per seat), table (one shared)"))),
            };
            let see = t
                .get("see")
                .map(|p| self.string(&format!("{at}.see"), p, "see"))
                .transpose()?
                .unwrap_or_else(|| if per_seat { "owner".into() } else { "nobody".into() });
            let visibility = match see.as_str() {
                "owner" if per_seat => Visibility::Owner,
                "everyone" => Visibility::Everyone,
                "nobody" => Visibility::Nobody,
                "top" => Visibility::Top,
                other => {
                    return Err(self.err(
                        &format!("{at}.see"),
                        format!("`{other}`: allowed: {}", if per_seat { "owner, everyone, nobody, top" } else { "everyone, nobody, top" }),
                    ));
                }
            };
            let ordered = match t.get("ordered") {
                None => true,
                Some(toml::Value::Boolean(b)) => *b,
                Some(_) => return Err(self.err(&format!("{at}.ordered"), "expected true or false")),
            };
            let decl = ZoneDecl { name: name.clone(), per_seat, visibility, ordered, first: 0 };
            if decl.per_seat { seat_zones.push(decl) } else { shared.push(decl) }
        }
        let mut next = 0u16;
        for mut z in shared.into_iter().chain(seat_zones) {
            z.first = next;
            next += if z.per_seat { SEAT_SLOTS as u16 } else { 1 };
            self.zones.push(z);
        }
        if self.zones.is_empty() && !self.attrs.is_empty() {
            return Err(self.err("zones", "no zones declared"));
        }
        Ok(())
    }

    /// A rules construct written after a `[table]` header lands inside that table (TOML):
    /// say so instead of reading it as a parameter, zone or counter.
    pub(super) fn misplaced(&self, table: &str, key: &str) -> Res<()> {
        if RULES_KEYS.contains(&key) {
            return Err(self.err(
                &format!("{table}.{key}"),
                format!("`{key}` is read as part of `[{table}]`: in TOML a key written after a `[{table}]` header belongs to that table; move `{key} = ...` above the first `[table]` header"),
            ));
        }
        Ok(())
    }

    pub(super) fn read_counters(&mut self) -> Res<()> {
        let Some(table) = self.table("counters")? else { return Ok(()) };
        for key in table.keys() {
            self.misplaced("counters", key)?;
        }
        let mut next = 0u16;
        let mut decls = Vec::new();
        for (name, decl) in table {
            let at = format!("counters.{name}");
            if RESERVED.contains(&name.as_str()) || self.zones.iter().any(|z| &z.name == name) {
                return Err(self.err(&at, format!("`{name}` is already a name (of the language or a zone); pick another")));
            }
            let (per, start, shown) = match decl {
                toml::Value::Table(t) => {
                    self.check_keys(&at, t, &["per", "start", "shown"], "a counter")?;
                    let per = t.get("per").map(|p| self.string(&format!("{at}.per"), p, "per")).transpose()?.unwrap_or_else(|| "table".into());
                    let shown = match t.get("shown") {
                        None => true,
                        Some(toml::Value::Boolean(b)) => *b,
                        Some(_) => return Err(self.err(&format!("{at}.shown"), "expected true or false")),
                    };
                    (per, t.get("start").cloned().unwrap_or(toml::Value::Integer(0)), shown)
                }
                other => ("table".to_string(), other.clone(), true),
            };
            let per = match per.as_str() {
                "table" => Per::One,
                "seat" => Per::Seat,
                other => match self.attrs.iter().position(|a| a.name == other) {
                    Some(a) => Per::Attr(a as u8),
                    None => {
                        let names: Vec<&str> = ["seat", "table"].into_iter().chain(self.attrs.iter().map(|a| a.name.as_str())).collect();
                        return Err(self.err(&format!("{at}.per"), format!("`{other}`: allowed: {}", names.join(", "))));
                    }
                },
            };
            let len = match per {
                Per::One => 1,
                Per::Seat => SEAT_SLOTS as u16,
                Per::Attr(a) => self.attrs[a as usize].values.len() as u16,
            };
            decls.push((name.clone(), per, next, len, start, at, shown));
            next += len;
        }
        // Declared first (so start values may read other counters), compiled after.
        for (name, per, first, len, _, _, shown) in &decls {
            self.counters.push(CounterDecl { name: name.clone(), per: *per, first: *first, len: *len, start: Expr::Const(0), shown: *shown });
        }
        for (i, (_, _, _, _, start, at, _)) in decls.iter().enumerate() {
            let key = if matches!(self.get(at), Some(toml::Value::Table(_))) { format!("{at}.start") } else { at.clone() };
            let e = self.seat_expr(&key, start, "a counter's start")?;
            self.counters[i].start = e;
        }
        Ok(())
    }
}
