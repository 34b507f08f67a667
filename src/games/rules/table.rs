//! A rules file's table as a person at it sees it (`playtest play`, the replay page, traces):
//! every zone placed where its visibility puts it, the paths a seat may not see, and the
//! zones and counters named as the file names them. Nothing here names a game: it is read
//! from the file's declarations.

use serde_json::{Map, Value, json};

use super::machine::{Bound, State};
use super::program::{Instr, Per, Visibility, ZoneDecl};
use crate::engine::words::{Lay, Pieces, TableWords, Zone as WordsZone};

impl Bound {
    /// The table as traced: shared zones under `table`, each seat's zones and counters under
    /// `seats/K`, shared counters under `counters`. A zone that shows only its top card is
    /// `{ "top": [card], "under": [cards] }`; piles are listed top first.
    pub fn trace_state(&self, st: &State) -> Value {
        let p = self.p();
        let names = |z: usize, pile: bool| -> Vec<String> {
            let mut cards: Vec<String> = st.zones[z].iter().map(|&c| self.card_name(c)).collect();
            if pile {
                cards.reverse();
            }
            cards
        };
        let zone_value = |d: &ZoneDecl, z: usize| -> Value {
            match d.visibility {
                Visibility::Top => {
                    let mut cards = names(z, true);
                    let under = if cards.is_empty() { Vec::new() } else { cards.split_off(1) };
                    json!({ "top": cards, "under": under })
                }
                Visibility::Nobody => names(z, true).into(),
                _ => names(z, d.ordered && d.visibility == Visibility::Everyone && !d.per_seat).into(),
            }
        };
        let mut table = Map::new();
        let mut seats: Vec<Map<String, Value>> = (0..self.seats).map(|_| Map::new()).collect();
        for d in &p.zones {
            if d.per_seat {
                for (s, seat) in seats.iter_mut().enumerate() {
                    seat.insert(d.name.clone(), zone_value(d, d.first as usize + s));
                }
            } else {
                table.insert(d.name.clone(), zone_value(d, d.first as usize));
            }
        }
        let mut counters = Map::new();
        for c in &p.counters {
            let at = c.first as usize;
            match c.per {
                Per::One => {
                    counters.insert(c.name.clone(), st.counters[at].into());
                }
                Per::Seat => {
                    for (s, seat) in seats.iter_mut().enumerate() {
                        seat.insert(c.name.clone(), st.counters[at + s].into());
                    }
                }
                Per::Attr(a) => {
                    let values = &p.attrs[a as usize].values;
                    let per: Map<String, Value> = (0..c.len as usize).map(|i| (values[i].clone(), st.counters[at + i].into())).collect();
                    counters.insert(c.name.clone(), per.into());
                }
            }
        }
        for (s, seat) in seats.iter_mut().enumerate() {
            seat.insert("out".into(), (st.eliminated & (1 << s) != 0).into());
        }
        json!({
            "turn": st.turn,
            "round": st.round + 1,
            "to_play": st.waiting.map(|(s, _)| s),
            "counters": counters,
            "table": table,
            "seats": seats,
        })
    }

    /// The paths of [`Bound::trace_state`] a seat may not see (`*`: every seat but its own;
    /// `[]`: every seat), from the zones' visibility.
    pub fn trace_secrets(&self) -> &'static [&'static str] {
        let mut paths = Vec::new();
        for d in &self.p().zones {
            let at = if d.per_seat {
                format!("seats/{}/{}", if d.visibility == Visibility::Owner { "*" } else { "[]" }, d.name)
            } else {
                format!("table/{}", d.name)
            };
            match d.visibility {
                Visibility::Everyone => {}
                Visibility::Top => paths.push(format!("{at}/under")),
                Visibility::Owner | Visibility::Nobody => paths.push(at),
            }
        }
        super::compile::intern_list(&paths)
    }

    /// The table in the file's words: what decides the game, who chooses what now, the
    /// shared counters, every zone under its name, each seat's counters (those `shown`).
    pub fn table_words(&self, st: &State) -> TableWords {
        let p = self.p();
        let lay = |d: &ZoneDecl| match d.visibility {
            Visibility::Nobody => Lay::Pile,
            _ => Lay::Cards,
        };
        // A deck of dice only: every zone holds dice, so a hidden one says "dice hidden".
        let pieces = if !self.dice.is_empty() && (0..self.dice.len()).all(|c| self.is_die(c)) { Pieces::Dice } else { Pieces::Cards };
        let mut zones = Vec::new();
        let mut seat_zones = Vec::new();
        for d in &p.zones {
            let (list, at) = if d.per_seat { (&mut seat_zones, format!("seats/*/{}", d.name)) } else { (&mut zones, format!("table/{}", d.name)) };
            let name = d.name.replace('_', " ");
            if d.visibility == Visibility::Top {
                list.push(WordsZone::new(&format!("{at}/top"), &format!("{name} (top card)"), Lay::Cards).holding(pieces));
                list.push(WordsZone::new(&format!("{at}/under"), &format!("{name} (under the top)"), Lay::Pile).holding(pieces));
            } else {
                list.push(WordsZone::new(&at, &name, lay(d)).holding(pieces));
            }
        }
        let mut facts = vec![format!("turn {}", st.turn + u32::from(!st.over))];
        if self.rounds > 1 {
            facts.push(format!("round {} of {}", (st.round + 1).min(self.rounds), self.rounds));
        }
        let mut seat_facts = vec![String::new(); self.seats];
        for c in p.counters.iter().filter(|c| c.shown) {
            let at = c.first as usize;
            let name = c.name.replace('_', " ");
            match c.per {
                Per::One => facts.push(format!("{name}: {}", st.counters[at])),
                Per::Seat => {
                    for (s, f) in seat_facts.iter_mut().enumerate() {
                        if !f.is_empty() {
                            f.push_str(", ");
                        }
                        f.push_str(&format!("{name} {}", st.counters[at + s]));
                    }
                }
                Per::Attr(a) => {
                    let values = &p.attrs[a as usize].values;
                    let each: Vec<String> = (0..c.len as usize).map(|i| format!("{} {}", values[i], st.counters[at + i])).collect();
                    facts.push(format!("{name}: {}", each.join(", ")));
                }
            }
        }
        for (s, f) in seat_facts.iter_mut().enumerate() {
            if st.eliminated & (1 << s) != 0 {
                f.insert_str(0, if f.is_empty() { "out of the game" } else { "out of the game; " });
            }
        }
        let now = match st.waiting {
            Some((seat, at)) if !st.over => match &p.code[at as usize] {
                Instr::Choose { actions, secret, .. } => {
                    let names: Vec<String> = actions.iter().map(|&a| p.actions[a as usize].name.replace('_', " ")).collect();
                    format!("seat {seat} chooses{}: {}", if *secret { " in secret" } else { "" }, names.join(", "))
                }
                _ => format!("seat {seat} chooses"),
            },
            _ => String::new(),
        };
        let end = if st.over { p.end_reasons.get(st.end_reason as usize).map_or(String::new(), |r| r.replace('_', " ")) } else { String::new() };
        TableWords { goal: p.goal.to_string(), now, facts, zones, seat_zones, seat_facts, end }
    }
}
