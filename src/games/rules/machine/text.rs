//! Names and text: a card's and a zone's name, a template rendered, an action and the table
//! described in the file's words.

use std::fmt::Write as _;

use super::{Bound, State};
use crate::games::rules::program::*;

impl Bound {
    /// A card's name: its attribute values (`red star`, `7 hearts`); a die's is `die` and its
    /// face (`die 5`).
    pub fn card_name(&self, card: u16) -> String {
        let name = self.face_name(card);
        if self.is_die(card as usize) { format!("die {name}") } else { name }
    }

    /// A card's attribute values, as its name says them (a die's: its face).
    pub(super) fn face_name(&self, card: u16) -> String {
        let p = self.p();
        if p.chroma_wilds {
            return self.kit_name(card);
        }
        let mut out = String::new();
        for (i, a) in p.attrs.iter().enumerate() {
            if a.values.len() <= 1 && p.attrs.len() > 1 {
                continue;
            }
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&a.values[self.attrs[card as usize][i] as usize]);
        }
        out
    }

    /// A Chroma kit card's name as the kit says it (`red star`, `red wild`, `star wild`,
    /// `all-colors`, `skip`), then any attribute the file adds.
    fn kit_name(&self, card: u16) -> String {
        let p = self.p();
        let v = &self.attrs[card as usize];
        let value = |a: usize| p.attrs[a].values[v[a] as usize].as_str();
        let mut out = match v[2] {
            0 => format!("{} {}", value(0), value(1)),
            1 => format!("{} wild", value(0)),
            2 => format!("{} wild", value(1)),
            3 => "all-colors".to_string(),
            4 => "all-shapes".to_string(),
            _ => value(3).replace('_', "-"),
        };
        for a in 4..p.attrs.len() {
            if p.attrs[a].values.len() > 1 {
                out.push(' ');
                out.push_str(value(a));
            }
        }
        out
    }

    /// Names of cards, comma-separated.
    pub fn cards_text(&self, cards: &[u16]) -> String {
        cards.iter().map(|&c| self.card_name(c)).collect::<Vec<_>>().join(", ")
    }

    /// A zone instance in words (`draw`, `hand of seat 2`).
    pub fn zone_label(&self, z: usize) -> String {
        let decl = self.zone_decl(z);
        match self.owner(z) {
            Some(o) => format!("{} of seat {o}", decl.name),
            None => decl.name.clone(),
        }
    }

    pub(super) fn action_text_short(&self, seat: usize, st: &State) -> String {
        let (a, arg) = st.secret[seat];
        if a == 0 {
            return "nothing".into();
        }
        let decl = &self.p().actions[a as usize - 1];
        match decl.arg {
            ArgChoice::None => decl.name.replace('_', " "),
            ArgChoice::Number(..) => format!("{} {arg}", decl.name.replace('_', " ")),
            ArgChoice::Seat { .. } => format!("{} seat {arg}", decl.name.replace('_', " ")),
        }
    }

    /// A template's text at `st`.
    pub fn render(&self, t: &Template, st: &State, b: &mut [i64; BINDS]) -> String {
        let mut out = String::new();
        for part in &t.parts {
            match part {
                Part::Text(s) => out.push_str(s),
                Part::Cards => {
                    if !st.chosen.is_empty() {
                        out.push_str(&self.cards_text(&st.chosen));
                    }
                }
                Part::Card(e) => {
                    let c = self.eval(e, st, b);
                    if c >= 0 && (c as usize) < self.attrs.len() {
                        out.push_str(&self.card_name(c as u16));
                    } else {
                        out.push_str("no card");
                    }
                }
                Part::Seat(e) => {
                    let _ = write!(out, "seat {}", self.eval(e, st, b));
                }
                Part::Attr(a, e) => {
                    let v = self.eval(e, st, b);
                    match self.p().attrs[*a as usize].values.get(v as usize) {
                        Some(name) if v >= 0 => out.push_str(name),
                        _ => {
                            let _ = write!(out, "{v}");
                        }
                    }
                }
                Part::Value(e) => {
                    let _ = write!(out, "{}", self.eval(e, st, b));
                }
            }
        }
        out.trim().to_string()
    }

    /// The table in words, for traces: every zone's cards (top last), counters, whose turn.
    pub fn describe(&self, st: &State) -> String {
        let p = self.p();
        let mut out = format!("turn {}, seat {} to play", st.turn, st.current);
        for z in 0..p.zone_slots {
            if st.zones[z].is_empty() {
                continue;
            }
            let _ = write!(out, "; {}: {}", self.zone_label(z), self.cards_text(&st.zones[z]));
        }
        for c in &p.counters {
            let n = match c.per {
                Per::Seat => self.seats,
                _ => c.len as usize,
            };
            let values: Vec<String> = (0..n).map(|i| st.counters[c.first as usize + i].to_string()).collect();
            let _ = write!(out, "; {} {}", c.name, values.join("/"));
        }
        out
    }
}
