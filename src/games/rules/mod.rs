//! A designer's own game, written as a rules file (docs/rules-language.md) instead of Rust:
//! the file is compiled once when it loads ([`compile`]: declarations checked, expressions
//! and steps turned into instructions, every mistake named with file, line and column), bound
//! to the variant's parameter values, and played by a small machine ([`machine`]) behind the
//! engine's [`Game`] interface, so every command works on it.
//!
//! Nothing here knows a game by name. What a seat sees comes from the zones' visibility and
//! from what each seat saw happen to every card ([`machine::State::know_zone`]); a
//! determinization re-deals everything else. The generic bots are `random`, `ismcts` and
//! `greedy` (one step ahead on the file's standing, decided on a sampled state).

pub mod bind;
mod bots;
pub mod compile;
pub mod expr;
pub mod lint;
pub mod machine;
mod metrics;
pub mod outline;
pub mod program;
mod sight;
mod table;

#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::Arc;

use crate::engine::{AuditHooks, EventLog, Game, GameEvent, GameInfo, GameRng, HiddenInfo, Outcome, ToMove, Traces};
use crate::error::VariantError;
use crate::variant::Variant;

pub use bots::GreedyBot;
pub use machine::{Bound, Choice, Event, State};
pub use metrics::RulesMetrics;
pub use program::Program;

/// A rules file bound to a variant, ready to play.
pub struct RulesGame {
    /// The compiled file and the variant's values.
    pub bound: Arc<Bound>,
}

/// What a seat sees when it decides: the table (read only through the seat's own rights:
/// legal choices read what the rules let that seat read) and the seat.
pub struct View<'a> {
    /// The table.
    pub state: &'a State,
    /// The deciding seat.
    pub seat: usize,
}

impl GameEvent for Event {
    fn visible_to(&self, seat: usize) -> bool {
        self.to & (1 << seat) != 0
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Whether `variant` is a rules file (it carries the language version key).
pub fn is_rules_file(variant: &Variant) -> bool {
    variant.table.contains_key(compile::VERSION_KEY)
}

impl RulesGame {
    /// Compiles the rules file `variant` and binds its parameter values.
    pub fn from_variant(variant: &Variant) -> Result<RulesGame, VariantError> {
        let program = Arc::new(compile::compile(variant)?);
        let bound = bind::bind(program, variant)?;
        Ok(RulesGame { bound: Arc::new(bound) })
    }

    /// The compiled file.
    pub fn program(&self) -> &Program {
        &self.bound.program
    }
}

impl Game for RulesGame {
    type State = State;
    type Action = Choice;
    type View<'a> = View<'a>;
    type Event = Event;
    type Metrics = RulesMetrics;
    /// A rules file's own facts (id, name, end reasons, units) are values of the loaded file,
    /// returned by the methods below; these are the engine's defaults for what a file does not
    /// set.
    const INFO: GameInfo =
        GameInfo { id: "rules-file", name: "a rules file", end_reasons: &["cap"], default_cap: 1000, deals_in_place: true, ..GameInfo::DEFAULTS };

    fn seats(&self) -> usize {
        self.bound.seats
    }

    fn acting_seats(&self) -> usize {
        self.bound.players
    }

    fn teams(&self) -> Vec<Vec<usize>> {
        self.program().teams.clone()
    }

    fn id(&self) -> &'static str {
        self.program().id
    }

    fn name(&self) -> &'static str {
        self.program().name
    }

    fn end_reasons(&self) -> &'static [&'static str] {
        self.program().end_reasons
    }

    fn length_unit(&self) -> &'static str {
        self.program().length_unit
    }

    fn standing_unit(&self) -> &'static str {
        self.program().standing_unit
    }

    fn has_elimination(&self) -> bool {
        self.program().eliminates
    }

    fn turn_cap(&self) -> u32 {
        self.bound.cap
    }

    fn deal(&self, rng: &mut GameRng, log: &mut EventLog<Event>) -> State {
        self.bound.deal(rng, log)
    }

    fn deal_into(&self, rng: &mut GameRng, log: &mut EventLog<Event>, state: &mut State) {
        self.bound.deal_into(rng, log, state);
    }

    #[inline]
    fn to_move(&self, state: &State) -> ToMove {
        match state.waiting {
            Some((seat, _)) if !state.over => ToMove::Seat(seat as usize),
            _ => ToMove::Over,
        }
    }

    fn view<'a>(&self, state: &'a State, seat: usize) -> View<'a> {
        View { state, seat }
    }

    fn legal_actions(&self, view: &View<'_>, out: &mut Vec<Choice>) {
        self.bound.legal(view.state, out);
    }

    /// The legal choices counted and the drawn one found by its rank, without listing them,
    /// when every action offered can be counted so ([`Bound::random_choice`]); else listed.
    /// Either way one draw below the number of legal choices: the same pick as the list's.
    #[inline]
    fn random_action(&self, view: &View<'_>, rng: &mut GameRng, scratch: &mut Vec<Choice>) -> Choice {
        if let Some(choice) = self.bound.random_choice(view.state, rng) {
            return choice;
        }
        scratch.clear();
        self.legal_actions(view, scratch);
        assert!(!scratch.is_empty(), "a seat asked to decide must have a legal action");
        scratch[crate::engine::rng::below(scratch.len() as u32, rng) as usize]
    }

    fn apply(&self, state: &mut State, _seat: usize, action: Choice, rng: &mut GameRng, log: &mut EventLog<Event>) {
        self.bound.apply(state, action, rng, log);
    }

    fn outcome(&self, state: &State) -> Outcome {
        self.bound.outcome(state)
    }

    fn standing(&self, state: &State, seat: usize) -> i64 {
        self.bound.standing(state, seat)
    }

    fn turns_played(&self, state: &State) -> u32 {
        state.turn
    }

    fn seat_active(&self, state: &State, seat: usize) -> bool {
        state.eliminated & (1 << seat) == 0
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        let cards = self.bound.attrs.len();
        let mut seen = vec![false; cards];
        for (z, zone) in state.zones.iter().enumerate() {
            for &c in zone {
                let c = c as usize;
                if c >= cards || seen[c] {
                    return Err(format!("card {c} is in two places or is not a card of the deck ({})", self.bound.zone_label(z)));
                }
                seen[c] = true;
                if state.where_is[c] as usize != z {
                    return Err(format!("card {c} is in {} but recorded in another zone", self.bound.zone_label(z)));
                }
            }
        }
        // A die shows exactly one of its faces; the others are in no zone.
        for (c, &(first, faces)) in self.bound.dice.iter().enumerate() {
            if faces > 0 && c == first as usize {
                let showing = seen[c..c + faces as usize].iter().filter(|&&s| s).count();
                if showing != 1 {
                    return Err(format!("a die shows {showing} faces: {} (a die is on the table once)", self.bound.card_name(c as u16)));
                }
                seen[c..c + faces as usize].fill(true);
            }
        }
        if let Some(c) = seen.iter().position(|s| !s) {
            return Err(format!("a card was lost: {} is in no zone (cards are conserved)", self.bound.card_name(c as u16)));
        }
        Ok(())
    }
}

impl HiddenInfo for RulesGame {
    fn observation(&self, state: &State, seat: usize) -> String {
        self.bound.observation(state, seat)
    }

    fn determinize(&self, state: &State, seat: usize, rng: &mut GameRng, out: &mut State) {
        self.bound.determinize(state, seat, rng, out);
    }
}

impl Traces for RulesGame {
    fn describe(&self, state: &State) -> String {
        self.bound.describe(state)
    }

    fn trace_state(&self, state: &State) -> serde_json::Value {
        self.bound.trace_state(state)
    }

    fn trace_secrets(&self) -> &'static [&'static str] {
        self.bound.trace_secrets()
    }

    fn table_words(&self, state: &State) -> Option<crate::engine::words::TableWords> {
        Some(self.bound.table_words(state))
    }
}

impl AuditHooks for RulesGame {
    fn action_kinds(&self) -> Vec<&'static str> {
        self.program().actions.iter().map(|a| compile::intern(&a.name)).collect()
    }

    fn action_kind(&self, action: &Choice) -> &'static str {
        self.program().actions.get(action.action as usize).map_or("", |a| compile::intern(&a.name))
    }
}

impl crate::games::Registered for RulesGame {
    fn from_variant(variant: &Variant) -> Result<Self, VariantError> {
        RulesGame::from_variant(variant)
    }

    /// The declared parameters with their values (rows of a table parameter as `1 = ...`),
    /// nested by their dots: what `audit` steps, instead of the file's rules.
    fn parameter_table(&self) -> Option<toml::Table> {
        let mut out = toml::Table::new();
        for (i, d) in self.program().params.iter().enumerate() {
            let value = match &d.kind {
                program::ParamKind::Bool => continue,
                program::ParamKind::Word(_) => continue,
                program::ParamKind::Int => toml::Value::Integer(self.bound.params[i]),
                // A word is not a number to step.
                program::ParamKind::IntOrWord(_) if self.bound.params[i] < 0 => continue,
                program::ParamKind::IntOrWord(_) => toml::Value::Integer(self.bound.params[i]),
                program::ParamKind::Rows { .. } => {
                    toml::Value::Table(self.bound.rows[i].iter().enumerate().map(|(r, v)| ((r + 1).to_string(), toml::Value::Integer(*v))).collect())
                }
            };
            let mut parts: Vec<&str> = d.key.split('.').collect();
            let last = parts.pop().expect("a key");
            let mut table = &mut out;
            for part in parts {
                table = table.entry(part.to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new())).as_table_mut().expect("a table of parameters");
            }
            table.insert(last.to_string(), value);
        }
        Some(out)
    }
}
