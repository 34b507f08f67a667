//! `[cards]`: the attributes, the kit's sets and the card groups that make the deck, dice
//! included.

use super::{Compiler, RESERVED, Res};
use crate::games::rules::expr::Expr;
use crate::games::rules::program::*;
use crate::variant::explain::nearest;

/// The Chroma kit's `kind` attribute: which kind of card (with wild or action sets).
const CHROMA_KINDS: [&str; 6] = ["base", "color_wild", "shape_wild", "all_colors", "all_shapes", "action"];

impl<'v> Compiler<'v> {
    pub(super) fn read_cards_attrs(&mut self) -> Res<()> {
        let Some(cards) = self.table("cards")? else { return Ok(()) };
        self.check_keys("cards", cards, &["kit", "attributes", "group"], "the cards")?;
        if let Some(kit) = cards.get("kit") {
            match kit.as_str() {
                Some("chroma") => {
                    let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
                    // With wild or action cards (a group's `set`), a color or shape may also be
                    // `any` (a wild) or `none` (an action card), and two attributes say which
                    // kind of card and which action; without them the attributes are as a
                    // base set needs (so such files keep their numbers).
                    self.chroma_wilds = self.kit_sets_used().iter().any(|s| s != "base");
                    let (mut colors, mut shapes) = (names(&crate::games::chroma::COLORS), names(&crate::games::chroma::SHAPES));
                    if self.chroma_wilds {
                        colors.extend(names(&["any", "none"]));
                        shapes.extend(names(&["any", "none"]));
                    }
                    self.attrs.push(AttrDecl { name: "color".into(), values: colors, numeric_from: None });
                    self.attrs.push(AttrDecl { name: "shape".into(), values: shapes, numeric_from: None });
                    if self.chroma_wilds {
                        self.attrs.push(AttrDecl { name: "kind".into(), values: names(&CHROMA_KINDS), numeric_from: None });
                        let mut actions = names(&["none"]);
                        actions.extend(names(&crate::games::chroma::KIND_KEYS_ACTIONS[..8]));
                        self.attrs.push(AttrDecl { name: "action".into(), values: actions, numeric_from: None });
                    }
                }
                _ => return Err(self.err("cards.kit", "unknown kit; allowed: chroma (the Chroma Cards colors and shapes)")),
            }
        }
        if let Some(attrs) = cards.get("attributes") {
            let attrs = attrs.as_table().ok_or_else(|| self.err("cards.attributes", "expected a table of attributes"))?;
            for (name, values) in attrs {
                let at = format!("cards.attributes.{name}");
                if RESERVED.contains(&name.as_str()) {
                    return Err(self.err(&at, format!("`{name}` is a name the language uses; pick another")));
                }
                if self.attrs.iter().any(|a| &a.name == name) {
                    return Err(self.err(&at, format!("attribute `{name}` is declared twice")));
                }
                let decl = match values {
                    toml::Value::Array(list) => {
                        let values: Vec<String> = list
                            .iter()
                            .map(|v| v.as_str().map(str::to_string).ok_or_else(|| self.err(&at, "expected a list of value names")))
                            .collect::<Res<_>>()?;
                        if values.is_empty() || values.len() > 64 {
                            return Err(self.err(&at, "an attribute has 1 to 64 values"));
                        }
                        AttrDecl { name: name.clone(), values, numeric_from: None }
                    }
                    toml::Value::Table(t) => {
                        self.check_keys(&at, t, &["from", "to"], "a numeric attribute")?;
                        let from = t.get("from").and_then(|v| v.as_integer()).ok_or_else(|| self.err(&at, "expected `{ from = 1, to = 13 }`"))?;
                        let to = t.get("to").and_then(|v| v.as_integer()).ok_or_else(|| self.err(&at, "expected `{ from = 1, to = 13 }`"))?;
                        if to < from || to - from >= 64 {
                            return Err(self.err(&at, "a numeric attribute has 1 to 64 values (`to` at least `from`)"));
                        }
                        AttrDecl { name: name.clone(), values: (from..=to).map(|n| n.to_string()).collect(), numeric_from: Some(from) }
                    }
                    _ => return Err(self.err(&at, "expected a list of value names or `{ from = 1, to = 13 }`")),
                };
                self.attrs.push(decl);
            }
        }
        if self.attrs.is_empty() {
            return Err(self.err("cards", "no card attributes: give `kit = \"chroma\"` or `[cards.attributes]` (a game without cards leaves `[cards]` out)"));
        }
        if self.attrs.len() > 8 {
            return Err(self.err("cards.attributes", "at most 8 attributes"));
        }
        Ok(())
    }

    /// The `set` of every card group (the Chroma kit's base, colors, shapes and action sets).
    fn kit_sets_used(&self) -> Vec<String> {
        let Some(toml::Value::Array(list)) = self.get("cards.group") else { return Vec::new() };
        list.iter().filter_map(|g| g.get("set").and_then(|s| s.as_str()).map(str::to_string)).collect()
    }

    /// A group written as one of the Chroma kit's sets: the cards the set holds, as groups of
    /// attribute values (a colors set: the five color wilds, then the all-colors wild).
    fn kit_set(&self, at: &str, t: &toml::Table) -> Res<Option<Vec<Vec<Vec<u16>>>>> {
        let Some(v) = t.get("set") else { return Ok(None) };
        let key = format!("{at}.set");
        let set = self.string(&key, v, "a set of the Chroma kit")?;
        if !self.attrs.first().is_some_and(|a| a.name == "color" && a.values.len() >= 5) || self.attrs.get(1).is_none_or(|a| a.name != "shape") {
            return Err(self.err(&key, "`set` names a set of the Chroma Cards kit: give `kit = \"chroma\"` in `[cards]`"));
        }
        let extra = 2 + if self.chroma_wilds { 2 } else { 0 };
        if let Some(k) = t.keys().find(|k| self.attrs.iter().position(|a| &a.name == *k).is_some_and(|i| i < extra && *k != "action")) {
            return Err(self.err(
                &format!("{at}.{k}"),
                format!("a kit set gives its cards' `{k}`; leave it out (or write the cards as a group of attribute values without `set`)"),
            ));
        }
        let (real, any, none) = (vec![0u16, 1, 2, 3, 4], vec![5u16], vec![6u16]);
        // kind indices in CHROMA_KINDS; action 0 is `none`.
        let card = |color: &Vec<u16>, shape: &Vec<u16>, kind: u16, action: Vec<u16>| {
            let mut v = vec![color.clone(), shape.clone()];
            if self.chroma_wilds {
                v.push(vec![kind]);
                v.push(action);
            }
            v.extend(self.attrs[extra..].iter().map(|_| vec![0u16]));
            v
        };
        let groups = match set.as_str() {
            "base" => vec![card(&real, &real, 0, vec![0])],
            "colors" => vec![card(&real, &any, 1, vec![0]), card(&any, &any, 3, vec![0])],
            "shapes" => vec![card(&any, &real, 2, vec![0]), card(&any, &any, 4, vec![0])],
            "actions" => {
                let names = &self.attrs[3].values;
                let actions: Vec<u16> = match t.get("action") {
                    None => (1..names.len() as u16).collect(),
                    Some(v) => {
                        let list: Vec<String> = match v {
                            toml::Value::Array(a) => a.iter().map(|x| x.as_str().unwrap_or_default().to_string()).collect(),
                            other => vec![other.as_str().unwrap_or_default().to_string()],
                        };
                        list.iter()
                            .map(|n| {
                                names.iter().skip(1).position(|x| x == n).map(|i| i as u16 + 1).ok_or_else(|| {
                                    let hint =
                                        nearest(n, names.iter().skip(1).map(String::as_str)).map(|m| format!("did you mean `{m}`? ")).unwrap_or_default();
                                    self.err(&format!("{at}.action"), format!("`{n}` is not an action card; {hint}allowed: {}", names[1..].join(", ")))
                                })
                            })
                            .collect::<Res<_>>()?
                    }
                };
                vec![card(&none, &none, 5, actions)]
            }
            other => {
                let hint = nearest(other, ["base", "colors", "shapes", "actions"].into_iter()).map(|m| format!("did you mean `{m}`? ")).unwrap_or_default();
                return Err(self.err(&key, format!("`{other}` is not a set of the Chroma kit; {hint}allowed: base, colors, shapes, actions")));
            }
        };
        if set != "actions" && t.contains_key("action") {
            return Err(self.err(&format!("{at}.action"), "`action` picks the action cards of `set = \"actions\"`"));
        }
        Ok(Some(groups))
    }

    pub(super) fn read_groups(&mut self) -> Res<Vec<CardGroup>> {
        if self.attrs.is_empty() {
            return Ok(Vec::new());
        }
        let list = self.get("cards.group").ok_or_else(|| self.err("cards", "missing `[[cards.group]]`: which cards the deck holds"))?;
        let list = list.as_array().ok_or_else(|| self.err("cards.group", "expected `[[cards.group]]` tables"))?;
        let mut groups = Vec::new();
        for (i, g) in list.iter().enumerate() {
            let at = format!("cards.group.{i}");
            let t = g.as_table().ok_or_else(|| self.err(&at, "expected a table"))?;
            let mut allowed: Vec<&str> = vec!["name", "copies", "zone", "die", "set"];
            allowed.extend(self.attrs.iter().map(|a| a.name.as_str()));
            self.check_keys(&at, t, &allowed, "a card group")?;
            let kit = self.kit_set(&at, t)?;
            let values = if kit.is_some() { Vec::new() } else { self.group_values(&at, t)? };
            let copies = match t.get("copies") {
                Some(v) => self.expr(&format!("{at}.copies"), v, "a card group's copies")?,
                None => Expr::Const(1),
            };
            let zone = self.group_zone(&at, t)?;
            let default_name = match t.get("set").and_then(|s| s.as_str()) {
                Some(set) => format!("{set} set"),
                None => format!("group {}", i + 1),
            };
            let name = t.get("name").map(|n| self.string(&format!("{at}.name"), n, "a name")).transpose()?.unwrap_or(default_name);
            match kit {
                Some(sets) => {
                    if t.contains_key("die") {
                        return Err(self.err(&format!("{at}.die"), "a set of the Chroma kit holds cards, not dice"));
                    }
                    let set = t.get("set").and_then(|s| s.as_str()).unwrap_or_default().to_string();
                    for (part, values) in sets.into_iter().enumerate() {
                        groups.push(CardGroup {
                            values,
                            copies: copies.clone(),
                            zone,
                            name: name.clone(),
                            die: None,
                            kit_set: Some((set.clone(), part as u8)),
                        });
                    }
                }
                None => {
                    let die = self.die_attribute(&at, t, &values)?;
                    groups.push(CardGroup { values, copies, zone, name, die, kit_set: None });
                }
            }
        }
        Ok(groups)
    }

    /// A group's attribute values, per attribute: the listed values, `all`, or the first
    /// value when the group leaves the attribute out.
    fn group_values(&self, at: &str, t: &toml::Table) -> Res<Vec<Vec<u16>>> {
        let mut values = Vec::new();
        for attr in &self.attrs {
            let key = format!("{at}.{}", attr.name);
            let chosen: Vec<u16> = match t.get(&attr.name) {
                None => vec![0],
                Some(toml::Value::String(s)) if s == "all" => (0..attr.values.len() as u16).collect(),
                Some(v) => {
                    let items: Vec<String> = match v {
                        toml::Value::Array(a) => a.iter().map(|x| x.to_string().trim_matches('"').to_string()).collect(),
                        other => vec![other.to_string().trim_matches('"').to_string()],
                    };
                    items
                        .iter()
                        .map(|name| {
                            attr.values.iter().position(|v| v == name).map(|p| p as u16).ok_or_else(|| {
                                let hint = nearest(name, attr.values.iter().map(String::as_str)).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
                                self.err(&key, format!("`{name}` is not a value of `{}`; {hint}allowed: all, {}", attr.name, attr.values.join(", ")))
                            })
                        })
                        .collect::<Res<_>>()?
                }
            };
            values.push(chosen);
        }
        Ok(values)
    }

    /// The shared zone a group's cards start in (`zone`, else the first shared zone).
    fn group_zone(&self, at: &str, t: &toml::Table) -> Res<u16> {
        let zone_name = t.get("zone").map(|z| self.string(&format!("{at}.zone"), z, "a zone")).transpose()?;
        match zone_name {
            None => self.zones.iter().find(|z| !z.per_seat).map(|z| z.first).ok_or_else(|| self.err(at, "no shared zone to start the cards in (give `zone`)")),
            Some(name) => {
                let z = self.zone_named(&name).map_err(|m| self.err(&format!("{at}.zone"), m))?;
                if self.zones[z].per_seat {
                    return Err(self.err(&format!("{at}.zone"), "cards start in a shared zone (deal them to the seats in `setup`)"));
                }
                Ok(self.zones[z].first)
            }
        }
    }

    /// A group's `die = ATTRIBUTE`: its cards are dice, and a roll sets that attribute to
    /// one of the values the group lists for it (the die's faces).
    fn die_attribute(&self, at: &str, t: &toml::Table, values: &[Vec<u16>]) -> Res<Option<u8>> {
        let Some(v) = t.get("die") else { return Ok(None) };
        let key = format!("{at}.die");
        let name = self.string(&key, v, "the attribute a roll sets")?;
        let Some(a) = self.attrs.iter().position(|x| x.name == name) else {
            let hint = nearest(&name, self.attrs.iter().map(|x| x.name.as_str())).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
            let names: Vec<&str> = self.attrs.iter().map(|x| x.name.as_str()).collect();
            return Err(self.err(&key, format!("`{name}` is not a card attribute; {hint}allowed: {}", names.join(", "))));
        };
        if values[a].len() < 2 {
            return Err(self.err(&key, format!("a die needs at least two faces: list them as `{name} = \"all\"` or `{name} = [...]` in the group")));
        }
        Ok(Some(a as u8))
    }
}
