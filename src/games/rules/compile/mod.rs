//! Reads a rules file (the variant's merged TOML table) into a [`Program`]: every
//! declaration checked, every expression and step compiled, every mistake named with the
//! file, line and column, the construct, what is allowed there and the nearest name.
//!
//! This file holds the compiler's state (`Compiler`), the pipeline that reads the file's
//! sections in order (`run`) and its error helpers; each section is a file of its own with
//! its own `impl Compiler`: `head` (header, seating, cap, end checks), `params`, `cards`,
//! `zones` (zones and counters), `actions` (actions and the file's bots), `results` (end
//! reasons, winners, figures, `require`), `steps` and `statements` (steps compiled into
//! instructions) and `exprs` (expressions).

use std::collections::HashMap;

use crate::error::VariantError;
use crate::games::rules::expr::{Expr, ExprError};
use crate::games::rules::program::*;
use crate::variant::Variant;
use crate::variant::explain::nearest;

/// The language version this engine reads.
pub const LANGUAGE_VERSION: i64 = 1;

/// The key that marks a variant as a rules file (its value is the language version).
pub const VERSION_KEY: &str = "rules_language";

/// Top-level keys of a rules file besides the parameters' values and the common variant keys.
pub const RULES_KEYS: &[&str] = &[
    VERSION_KEY,
    "title",
    "length_unit",
    "standing_unit",
    "parameters",
    "require",
    "cards",
    "zones",
    "counters",
    "table",
    "setup",
    "round",
    "turn",
    "actions",
    "end",
    "figures",
    "strategies",
];

/// Names an expression may not use for a declaration (they mean something already).
const RESERVED: &[&str] = &[
    "seat",
    "current",
    "players",
    "seats",
    "turn",
    "round",
    "round_turn",
    "first",
    "card",
    "chosen",
    "target",
    "number",
    "size",
    "true",
    "false",
    "and",
    "or",
    "not",
    "all",
];

/// Compiles the rules file `variant` (the merged table of the file, the files it extends and
/// `--set`).
pub fn compile(variant: &Variant) -> Result<Program, VariantError> {
    Compiler::new(variant).run()
}

/// A parameter's kind, default, lowest and highest value.
type ParamShape = (ParamKind, ParamDefault, i64, i64);

/// Returns the error `$e` of a step at `$key` from the enclosing compiler method.
macro_rules! step_fail {
    ($c:expr, $key:expr, $e:expr) => {
        return Err($c.expr_err($key, $e, "a step"))
    };
}

mod actions;
mod cards;
mod exprs;
mod head;
mod params;
mod results;
mod statements;
mod steps;
mod zones;

/// A rules file's header, read first.
struct Header {
    /// The language version the file is written in.
    version: i64,
    /// The game id.
    id: String,
    /// The game's name as shown (the id when not given).
    title: String,
    /// What a game's length is counted in.
    length_unit: String,
    /// What the standing is counted in.
    standing_unit: String,
}

/// The table's seating as the file gives it.
struct Seating {
    /// Seats at the table, dummies included (the players when not given).
    seats: Option<Expr>,
    /// The seat that starts.
    first_seat: Option<Expr>,
    /// Whether the first seat moves on each round.
    rotate_first: bool,
    /// The teams, each a list of seats.
    teams: Vec<Vec<usize>>,
}

/// Where the set-up, round and turn code start and end in the program.
struct Layout {
    /// The first instruction of a round.
    round_start: u32,
    /// The first instruction of a turn.
    turn_start: u32,
    /// The instruction that ends a turn.
    turn_end: u32,
    /// The first instruction of a round's end.
    round_end: u32,
}

struct Compiler<'v> {
    v: &'v Variant,
    params: Vec<ParamDecl>,
    attrs: Vec<AttrDecl>,
    zones: Vec<ZoneDecl>,
    counters: Vec<CounterDecl>,
    actions: Vec<ActionDecl>,
    action_steps: Vec<(usize, toml::Value, String)>,
    code: Vec<Instr>,
    code_keys: Vec<String>,
    reasons: Vec<String>,
    next_slot: u8,
    /// Names bound in the current scope: (name, slot); later entries shadow earlier ones.
    scope: Vec<(String, u8)>,
    /// Whether `seat` means the current seat here (turn steps) when not bound.
    seat_is_current: bool,
    eliminates: bool,
    chance: bool,
    /// Whether the Chroma kit's wild or action sets are in the deck ([`Program::chroma_wilds`]).
    chroma_wilds: bool,
    /// Whether a card group is dice (`roll ZONE` is allowed).
    has_dice: bool,
    errors: Vec<VariantError>,
    /// Open loops' exits for `end turn` inside them (not needed) and while-loop guards.
    turn_end_fixups: Vec<usize>,
}

type Res<T> = Result<T, VariantError>;

impl<'v> Compiler<'v> {
    fn new(v: &'v Variant) -> Self {
        Compiler {
            v,
            params: Vec::new(),
            attrs: Vec::new(),
            zones: Vec::new(),
            counters: Vec::new(),
            actions: Vec::new(),
            action_steps: Vec::new(),
            code: Vec::new(),
            code_keys: Vec::new(),
            reasons: Vec::new(),
            next_slot: 1,
            scope: Vec::new(),
            seat_is_current: false,
            eliminates: false,
            chance: false,
            chroma_wilds: false,
            has_dice: false,
            errors: Vec::new(),
            turn_end_fixups: Vec::new(),
        }
    }

    fn get(&self, key: &str) -> Option<&'v toml::Value> {
        let mut parts = key.split('.');
        let mut value = self.v.table.get(parts.next()?)?;
        for part in parts {
            value = value.as_table()?.get(part)?;
        }
        Some(value)
    }

    fn err(&self, key: &str, message: impl Into<String>) -> VariantError {
        self.v.provenance.invalid(key, message)
    }

    fn expr_err(&self, key: &str, e: ExprError, what: &str) -> VariantError {
        VariantError::Invalid { at: self.v.provenance.locate_in_string(key, e.at), key: key.to_string(), message: format!("{what}: {}", e.message) }
    }

    fn string(&self, key: &str, value: &toml::Value, what: &str) -> Res<String> {
        match value {
            toml::Value::String(s) => Ok(s.clone()),
            toml::Value::Integer(n) => Ok(n.to_string()),
            toml::Value::Boolean(b) => Ok(b.to_string()),
            other => Err(self.err(key, format!("{what}: expected a string, got {}", other.type_str()))),
        }
    }

    fn table(&self, key: &str) -> Res<Option<&'v toml::Table>> {
        match self.get(key) {
            None => Ok(None),
            Some(toml::Value::Table(t)) => Ok(Some(t)),
            Some(other) => Err(self.err(key, format!("expected a table, got {}", other.type_str()))),
        }
    }

    fn check_keys(&self, key: &str, table: &toml::Table, allowed: &[&str], construct: &str) -> Res<()> {
        for k in table.keys() {
            if !allowed.contains(&k.as_str()) {
                let hint = nearest(k, allowed.iter().copied()).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
                let full = if key.is_empty() { k.clone() } else { format!("{key}.{k}") };
                return Err(self.err(&full, format!("unknown key in {construct}; {hint}allowed: {}", allowed.join(", "))));
            }
        }
        Ok(())
    }

    fn run(mut self) -> Res<Program> {
        let Header { version, id, title, length_unit, standing_unit } = self.read_header()?;
        self.read_params()?;
        self.read_cards_attrs()?;
        self.read_zones()?;
        self.read_counters()?;
        let groups = self.read_groups()?;
        self.has_dice = groups.iter().any(|g| g.die.is_some());
        self.declare_actions()?;
        self.check_end_and_table_keys()?;
        let Layout { round_start, turn_start, turn_end, round_end } = self.compile_code()?;
        let skip = self.optional_seat_expr("turn.skip", "the turn's skip condition")?;
        let (game_ends, round_ends) = (self.end_checks("end.when")?, self.end_checks("end.round_when")?);
        let (cap, capped_round_scores, rounds) = self.read_cap()?;
        let standing = self.optional_seat_expr("end.standing", "the standing")?;
        let score = self.optional_seat_expr("end.score", "the score")?;
        let winners = self.read_winners()?;
        let Seating { seats, first_seat, rotate_first, teams } = self.read_seating()?;
        let figures = self.read_figures()?;
        let bots = self.read_bots()?;
        let requires = self.read_requires()?;
        if let Some(e) = self.errors.pop() {
            return Err(e);
        }
        let reasons = self.reasons.clone();
        let cap_index = reasons.iter().position(|r| r == "cap").expect("always added") as u8;
        let index = |name: &str| reasons.iter().position(|r| r == name).map_or(cap_index, |i| i as u8);
        let mut program = Program {
            id: intern(&id),
            name: intern(&title),
            goal: intern(&self.goal_text()),
            version,
            length_unit: intern(&length_unit),
            standing_unit: intern(&standing_unit),
            zone_slots: self.zones.iter().map(|z| if z.per_seat { SEAT_SLOTS } else { 1 }).sum(),
            counter_slots: self.counters.iter().map(|c| c.len as usize).sum(),
            params: self.params,
            attrs: self.attrs,
            chroma_wilds: self.chroma_wilds,
            groups,
            zones: self.zones,
            counters: self.counters,
            actions: self.actions,
            code: self.code,
            code_keys: self.code_keys,
            round_start,
            turn_start,
            turn_end,
            round_end,
            skip,
            game_ends,
            round_ends,
            rounds,
            cap,
            capped_round_scores,
            reason_cap: index("cap"),
            reason_stuck: index("stuck"),
            reason_rounds: index("rounds"),
            end_reasons: intern_list(&reasons),
            winners,
            standing,
            score,
            seats,
            first_seat,
            rotate_first,
            teams,
            figures,
            bots,
            eliminates: self.eliminates,
            draws_chance: self.chance,
            requires,
            step_slots: self.next_slot,
        };
        program.lower();
        Ok(program)
    }

    fn emit(&mut self, instr: Instr, key: &str) {
        self.code.push(instr);
        self.code_keys.push(key.to_string());
    }

    /// A bind slot of its own for a step's name (a loop's seat or card, an action's chooser):
    /// kept while decisions wait, so never shared.
    fn alloc(&mut self) -> u8 {
        let slot = self.next_slot;
        if (slot as usize) < STEP_BINDS - 1 {
            self.next_slot += 1;
        } else {
            self.errors.push(self.err("turn", format!("too many loops and actions in one file (at most {})", STEP_BINDS - 2)));
        }
        slot
    }

    /// A bind slot for a name an expression binds while it is evaluated (an aggregate's seat
    /// or card): by nesting depth, above the steps' slots.
    fn alloc_expr(&mut self) -> u8 {
        let depth = self.scope.iter().filter(|(_, s)| *s as usize >= STEP_BINDS).count();
        (STEP_BINDS + depth.min(BINDS - STEP_BINDS - 4)) as u8
    }
}

/// A string kept for the life of the process, each distinct text once: a rules game's facts
/// (id, name, end reasons) are `&'static str` like a built-in game's, and `tune` or `audit`
/// rebuilding the game from the same file many times adds nothing.
pub fn intern(text: &str) -> &'static str {
    use std::sync::{Mutex, OnceLock};
    static TEXTS: OnceLock<Mutex<std::collections::HashSet<&'static str>>> = OnceLock::new();
    let mut set = TEXTS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = set.get(text) {
        return s;
    }
    let s: &'static str = Box::leak(text.to_string().into_boxed_str());
    set.insert(s);
    s
}

/// A list of interned strings kept for the life of the process, each distinct list once.
pub fn intern_list(items: &[String]) -> &'static [&'static str] {
    use std::sync::{Mutex, OnceLock};
    static LISTS: OnceLock<Mutex<HashMap<Vec<String>, &'static [&'static str]>>> = OnceLock::new();
    let mut map = LISTS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(l) = map.get(items) {
        return l;
    }
    let list: &'static [&'static str] = Box::leak(items.iter().map(|s| intern(s)).collect::<Vec<_>>().into_boxed_slice());
    map.insert(items.to_vec(), list);
    list
}
