//! Reads a rules file (the variant's merged TOML table) into a [`Program`]: every
//! declaration checked, every expression and step compiled, every mistake named with the
//! file, line and column, the construct, what is allowed there and the nearest name.

use std::collections::HashMap;

use super::expr::{Ast, Expr, ExprError, Node, Op, Parser, SeatAgg, Var, Zone};
use super::program::*;
use super::sight::Chooser;
use crate::error::VariantError;
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

/// The Chroma kit's `kind` attribute: which kind of card (with wild or action sets).
const CHROMA_KINDS: [&str; 6] = ["base", "color_wild", "shape_wild", "all_colors", "all_shapes", "action"];

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

    /// Refuses unknown keys in `[end]` and `[table]`, and collects the end reasons: every
    /// `reason` of `[end]` and `end game` in file order, then the engine's own.
    fn check_end_and_table_keys(&mut self) -> Res<()> {
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
    fn optional_seat_expr(&mut self, key: &str, what: &str) -> Res<Option<Expr>> {
        match self.get(key) {
            Some(v) => Ok(Some(self.seat_expr(key, v, what)?)),
            None => Ok(None),
        }
    }

    /// The file's header: the language version, the game id (not a built-in one), the title
    /// and the units of length and standing.
    fn read_header(&mut self) -> Res<Header> {
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

    /// Emits the set-up, round, turn and actions' code, with every jump to a turn's or
    /// round's end patched; returns where each part starts.
    fn compile_code(&mut self) -> Res<Layout> {
        // Set-up.
        self.seat_is_current = false;
        self.steps_at("setup")?;
        let round_start = self.code.len() as u32;
        self.emit(Instr::RoundStart, "round");
        if self.get("round").is_some() {
            let round = self.table("round")?.expect("checked");
            self.check_keys("round", round, &["setup", "end"], "the round")?;
        }
        self.seat_is_current = false;
        self.steps_at("round.setup")?;
        let turn_start = self.code.len() as u32;
        self.emit(Instr::TurnStart, "turn");
        let turn = self.table("turn")?.ok_or_else(|| self.err("turn", "missing: a rules file needs a `[turn]` with `steps`"))?;
        self.check_keys("turn", turn, &["steps", "skip"], "the turn")?;
        self.seat_is_current = true;
        if self.get("turn.steps").is_none() {
            return Err(self.err("turn", "missing `steps`: the list of what a turn does"));
        }
        self.steps_at("turn.steps")?;
        let turn_end = self.code.len() as u32;
        self.emit(Instr::TurnEnd, "turn");
        let round_end = self.code.len() as u32;
        self.seat_is_current = false;
        self.steps_at("round.end")?;
        self.emit(Instr::RoundEnd, "round");
        for i in std::mem::take(&mut self.turn_end_fixups) {
            self.code[i] = Instr::Jump(turn_end);
        }
        // Actions' steps.
        for (index, steps, key) in std::mem::take(&mut self.action_steps) {
            self.actions[index].code = self.code.len() as u32;
            let slot = self.actions[index].code;
            let _ = slot;
            self.seat_is_current = false;
            let chooser = self.alloc();
            self.scope.push(("seat".into(), chooser));
            // The chooser's slot is set by the machine: the choose instruction's slot is
            // copied there (see `Machine::apply`); we record it as the first bind.
            self.code.push(Instr::Bind(chooser, Expr::Var(Var::Bind(0))));
            self.code_keys.push(key.clone());
            self.steps(&steps, &key)?;
            self.scope.pop();
            self.emit(Instr::Return, &key);
            for i in std::mem::take(&mut self.turn_end_fixups) {
                self.code[i] = Instr::Jump(turn_end);
            }
        }
        Ok(Layout { round_start, turn_start, turn_end, round_end })
    }

    /// The end conditions listed under `list` (`end.when` or `end.round_when`), in file order.
    fn end_checks(&mut self, list: &str) -> Res<Vec<EndCheck>> {
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
    fn read_cap(&mut self) -> Res<(Expr, bool, Option<Expr>)> {
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
    fn read_seating(&mut self) -> Res<Seating> {
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

    // ---- Declarations ----

    fn read_params(&mut self) -> Res<()> {
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

    fn read_cards_attrs(&mut self) -> Res<()> {
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

    fn read_groups(&mut self) -> Res<Vec<CardGroup>> {
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

    fn zone_named(&self, name: &str) -> Result<usize, String> {
        self.zones.iter().position(|z| z.name == name).ok_or_else(|| {
            let hint = nearest(name, self.zones.iter().map(|z| z.name.as_str())).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
            format!("unknown zone `{name}`; {hint}zones: {}", self.zones.iter().map(|z| z.name.as_str()).collect::<Vec<_>>().join(", "))
        })
    }

    fn read_zones(&mut self) -> Res<()> {
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
    fn misplaced(&self, table: &str, key: &str) -> Res<()> {
        if RULES_KEYS.contains(&key) {
            return Err(self.err(
                &format!("{table}.{key}"),
                format!("`{key}` is read as part of `[{table}]`: in TOML a key written after a `[{table}]` header belongs to that table; move `{key} = ...` above the first `[table]` header"),
            ));
        }
        Ok(())
    }

    fn read_counters(&mut self) -> Res<()> {
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

    fn declare_actions(&mut self) -> Res<()> {
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

    /// What decides the game in words, from `[end]` as written: its end reasons and its
    /// winners rules ("Ends on hand empty, or at the turn cap. Wins: the least size(hand).").
    fn goal_text(&self) -> String {
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

    fn collect_reasons(&mut self) {
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

    fn reason_index(&mut self, name: &str) -> u8 {
        match self.reasons.iter().position(|r| r == name) {
            Some(i) => i as u8,
            None => {
                self.reasons.push(name.to_string());
                (self.reasons.len() - 1) as u8
            }
        }
    }

    fn read_winners(&mut self) -> Res<Vec<WinRule>> {
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

    fn read_figures(&mut self) -> Res<Vec<FigureDecl>> {
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

    fn action_named(&self, name: &str) -> Result<usize, String> {
        self.actions.iter().position(|a| a.name == name).ok_or_else(|| {
            let hint = nearest(name, self.actions.iter().map(|a| a.name.as_str())).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
            format!("unknown action `{name}`; {hint}actions: {}", self.actions.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", "))
        })
    }

    fn read_bots(&mut self) -> Res<Vec<FileBot>> {
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

    fn read_requires(&mut self) -> Res<Vec<(Expr, String, String)>> {
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

    // ---- Steps ----

    fn steps_at(&mut self, key: &str) -> Res<()> {
        match self.get(key) {
            None => Ok(()),
            Some(v) => {
                let v = v.clone();
                self.steps(&v, key)
            }
        }
    }

    fn steps(&mut self, value: &toml::Value, key: &str) -> Res<()> {
        match value {
            toml::Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.step(item, &format!("{key}.{i}"))?;
                }
                Ok(())
            }
            toml::Value::String(_) | toml::Value::Table(_) => self.step(value, key),
            other => Err(self.err(key, format!("expected a list of steps, got {}", other.type_str()))),
        }
    }

    fn step(&mut self, value: &toml::Value, key: &str) -> Res<()> {
        match value {
            toml::Value::String(text) => self.statement(key, text),
            toml::Value::Table(t) => self.block(key, t),
            other => {
                Err(self
                    .err(key, format!("a step is a string (`move 1 from draw to hand`) or a table (`{{ if = ..., then = [...] }}`), got {}", other.type_str())))
            }
        }
    }

    fn block(&mut self, key: &str, t: &toml::Table) -> Res<()> {
        if let Some(cond) = t.get("if") {
            self.if_step(key, t, cond)
        } else if let Some(each) = t.get("each") {
            self.each_step(key, t, each)
        } else if let Some(cond) = t.get("while") {
            self.while_step(key, t, cond)
        } else if let Some(choose) = t.get("choose") {
            self.choose_step(key, t, choose)
        } else {
            Err(self.err(
                key,
                "a step table is one of `{ if = ..., then = [...] }`, `{ each = \"player\", do = [...] }`, `{ while = ..., do = [...] }`, `{ choose = [...] }`",
            ))
        }
    }

    /// `{ if = ..., then = [...], else = [...] }`.
    fn if_step(&mut self, key: &str, t: &toml::Table, cond: &toml::Value) -> Res<()> {
        self.check_keys(key, t, &["if", "then", "else"], "an `if` step")?;
        let c = self.expr(&format!("{key}.if"), cond, "a condition")?;
        let jump = self.code.len();
        self.emit(Instr::Jump(0), key);
        if let Some(then) = t.get("then") {
            self.steps(then, &format!("{key}.then"))?;
        } else {
            return Err(self.err(key, "missing `then`: the steps done when the condition holds"));
        }
        if let Some(otherwise) = t.get("else") {
            let skip = self.code.len();
            self.emit(Instr::Jump(0), key);
            self.code[jump] = Instr::JumpIfNot(c, self.code.len() as u32);
            self.steps(otherwise, &format!("{key}.else"))?;
            self.code[skip] = Instr::Jump(self.code.len() as u32);
        } else {
            self.code[jump] = Instr::JumpIfNot(c, self.code.len() as u32);
        }
        Ok(())
    }

    /// `{ each = "player" | "other" | "seat" | "card", do = [...], as = NAME }`.
    fn each_step(&mut self, key: &str, t: &toml::Table, each: &toml::Value) -> Res<()> {
        self.check_keys(key, t, &["each", "in", "do", "as"], "an `each` step")?;
        let what = self.string(&format!("{key}.each"), each, "each")?;
        let body = t.get("do").ok_or_else(|| self.err(key, "missing `do`: the steps done for each"))?;
        let name = t.get("as").map(|a| self.string(&format!("{key}.as"), a, "a name")).transpose()?;
        match what.as_str() {
            "player" | "other" | "seat" => {
                let which = match what.as_str() {
                    "player" => SeatLoop::Players,
                    "other" => SeatLoop::Others,
                    _ => SeatLoop::Seats,
                };
                let slot = self.alloc();
                let left = self.alloc();
                let start = self.code.len();
                self.emit(Instr::SeatLoopStart { which, slot, left, exit: 0 }, key);
                let body_at = self.code.len() as u32;
                self.scope.push((name.unwrap_or_else(|| "seat".into()), slot));
                self.steps(body, &format!("{key}.do"))?;
                self.scope.pop();
                self.emit(Instr::SeatLoopNext { which, slot, left, body: body_at }, key);
                let exit = self.code.len() as u32;
                self.code[start] = Instr::SeatLoopStart { which, slot, left, exit };
                Ok(())
            }
            "card" => {
                let source = t.get("in").map(|z| self.string(&format!("{key}.in"), z, "a zone")).transpose()?.unwrap_or_else(|| "chosen".into());
                if source != "chosen" {
                    return Err(self.err(&format!("{key}.in"), "a loop over cards runs over `chosen` (the cards the action chose)"));
                }
                let slot = self.alloc();
                let index = self.alloc();
                let start = self.code.len();
                self.emit(Instr::CardLoopStart { slot, index, exit: 0 }, key);
                let body_at = self.code.len() as u32;
                self.scope.push((name.unwrap_or_else(|| "card".into()), slot));
                self.steps(body, &format!("{key}.do"))?;
                self.scope.pop();
                self.emit(Instr::CardLoopNext { slot, index, body: body_at }, key);
                let exit = self.code.len() as u32;
                self.code[start] = Instr::CardLoopStart { slot, index, exit };
                Ok(())
            }
            other => Err(self.err(&format!("{key}.each"), format!("`{other}`: allowed: player (every player from the current one), other (every other player), seat (every seat, dummies included), card (every chosen card)"))),
        }
    }

    /// `{ while = ..., do = [...] }`, guarded against running forever.
    fn while_step(&mut self, key: &str, t: &toml::Table, cond: &toml::Value) -> Res<()> {
        self.check_keys(key, t, &["while", "do"], "a `while` step")?;
        let c = self.expr(&format!("{key}.while"), cond, "a condition")?;
        let body = t.get("do").ok_or_else(|| self.err(key, "missing `do`"))?;
        let guard = self.alloc();
        self.emit(Instr::Bind(guard, Expr::Const(0)), key);
        let top = self.code.len();
        self.emit(Instr::Jump(0), key);
        self.emit(Instr::LoopGuard { guard }, key);
        self.steps(body, &format!("{key}.do"))?;
        self.emit(Instr::Jump(top as u32), key);
        self.code[top] = Instr::JumpIfNot(c, self.code.len() as u32);
        Ok(())
    }

    /// `{ choose = [ACTIONS], by = SEAT, secret = BOOL }`: a decision.
    fn choose_step(&mut self, key: &str, t: &toml::Table, choose: &toml::Value) -> Res<()> {
        self.check_keys(key, t, &["choose", "by", "secret"], "a `choose` step")?;
        let names: Vec<String> = match choose {
            toml::Value::Array(a) => a.iter().map(|x| x.as_str().unwrap_or("").to_string()).collect(),
            other => self.string(&format!("{key}.choose"), other, "actions")?.split(',').map(|s| s.trim().to_string()).collect(),
        };
        let actions =
            names.iter().map(|n| self.action_named(n).map(|a| a as u16).map_err(|m| self.err(&format!("{key}.choose"), m))).collect::<Res<Vec<_>>>()?;
        if actions.is_empty() {
            return Err(self.err(&format!("{key}.choose"), "name at least one action"));
        }
        let seat = match t.get("by") {
            None => None,
            Some(v) => Some(self.expr(&format!("{key}.by"), v, "who chooses")?),
        };
        if seat.is_none() && !self.seat_is_current && !self.scope.iter().any(|(n, _)| n == "seat") {
            return Err(self.err(key, "who chooses? outside the turn's steps give `by` (a seat)"));
        }
        let seat = match seat {
            Some(s) => Some(s),
            None => self.lookup("seat").map(|slot| Expr::Var(Var::Bind(slot))),
        };
        let secret = matches!(t.get("secret"), Some(toml::Value::Boolean(true)));
        self.emit(Instr::Choose { seat, actions, secret, slot: 0 }, key);
        Ok(())
    }

    fn statement(&mut self, key: &str, text: &str) -> Res<()> {
        let mut p = Parser::new(text).map_err(|e| self.expr_err(key, e, "a step"))?;
        let what = "a step";
        let word = p.name().map(|(_, w)| w);
        match word.as_deref() {
            Some("move") => self.move_step(key, &mut p)?,
            Some(w @ ("fill" | "deal" | "shuffle" | "reveal")) => self.zone_step(w, key, &mut p)?,
            Some("roll") if !self.counters.iter().any(|c| c.name == "roll") => self.roll_step(key, &mut p)?,
            Some("say") => {
                let rest = text.trim_start().strip_prefix("say").unwrap_or("").trim_start();
                let offset = text.len() - rest.len();
                let t = self.template_text(key, rest, offset)?;
                self.emit(Instr::Say(t), key);
            }
            Some("end") => self.end_step(key, &mut p)?,
            Some("next") => {
                let n = p.expr().map_err(|e| self.expr_err(key, e, what))?;
                p.finish().map_err(|e| self.expr_err(key, e, what))?;
                let e = self.resolve(key, &n)?;
                self.emit(Instr::NextSeat(e), key);
            }
            Some("skip") => {
                p.finish().map_err(|e| self.expr_err(key, e, what))?;
                self.emit(Instr::Skip, key);
            }
            Some("reverse") => {
                p.finish().map_err(|e| self.expr_err(key, e, what))?;
                self.emit(Instr::Reverse, key);
            }
            Some("eliminate") => {
                let n = p.expr().map_err(|e| self.expr_err(key, e, what))?;
                p.finish().map_err(|e| self.expr_err(key, e, what))?;
                let e = self.resolve(key, &n)?;
                self.eliminates = true;
                self.emit(Instr::Eliminate(e), key);
            }
            Some(name) => self.assign_step(name, key, &mut p)?,
            None => step_fail!(self, key, ExprError::new(0, "an empty step")),
        }
        Ok(())
    }

    /// `move ...`: chosen cards, one card, N cards (from the top or bottom, `where` a
    /// condition holds) or all of a zone, onto another zone's top or bottom.
    fn move_step(&mut self, key: &str, p: &mut Parser) -> Res<()> {
        let what = "a step";
        if p.keyword("chosen") {
            let to = self.zone_after(key, p, "to")?;
            p.finish().map_err(|e| self.expr_err(key, e, what))?;
            self.emit(Instr::MoveChosen { to }, key);
            return Ok(());
        }
        let count = if p.keyword("all") {
            None
        } else {
            let n = p.expr_until(&["from", "to"]).map_err(|e| self.expr_err(key, e, what))?;
            let e = self.resolve(key, &n)?;
            if p.keyword("to") {
                let to = self.zone_in(key, p)?;
                p.finish().map_err(|e| self.expr_err(key, e, what))?;
                self.emit(Instr::MoveCard { card: e, to }, key);
                return Ok(());
            }
            Some(e)
        };
        if !p.keyword("from") {
            step_fail!(self, key, ExprError::new(p.offset(), "expected `from` (move N from ZONE to ZONE)"));
        }
        let take = if p.keyword("bottom") {
            if !p.keyword("of") {
                step_fail!(self, key, ExprError::new(p.offset(), "expected `of` (from bottom of ZONE)"));
            }
            End::Bottom
        } else {
            let _ = p.keyword("top") && p.keyword("of");
            End::Top
        };
        let from = self.zone_in(key, p)?;
        let to = self.zone_after(key, p, "to")?;
        let put = if p.keyword("bottom") { End::Bottom } else { End::Top };
        if p.keyword("where") {
            if matches!(from, Zone::Chosen) || take == End::Bottom {
                step_fail!(self, key, ExprError::new(p.offset(), "`where` filters a zone's cards from the top down (not `chosen`, not `from bottom of`)"));
            }
            let n = p.expr().map_err(|e| self.expr_err(key, e, what))?;
            p.finish().map_err(|e| self.expr_err(key, e, what))?;
            let (cond, slot) = self.bound("card", |c, _| c.node(&n)).map_err(|e| self.expr_err(key, e, what))?;
            self.emit(Instr::MoveWhere { from, to, count, put, slot, cond }, key);
            return Ok(());
        }
        p.finish().map_err(|e| self.expr_err(key, e, what))?;
        self.emit(Instr::Move { from, to, count, take, put }, key);
        Ok(())
    }

    /// The zone after keyword `kw` of a step (`to ZONE`, `from ZONE`).
    fn zone_after(&mut self, key: &str, p: &mut Parser, kw: &str) -> Res<Zone> {
        if !p.keyword(kw) {
            return Err(self.expr_err(key, ExprError::new(p.offset(), format!("expected `{kw}`")), "a step"));
        }
        self.zone_in(key, p)
    }

    /// `fill`, `deal`, `shuffle` and `reveal`: the steps on whole zones.
    fn zone_step(&mut self, word: &str, key: &str, p: &mut Parser) -> Res<()> {
        let what = "a step";
        match word {
            "fill" => {
                let to = self.zone_in(key, p)?;
                if !p.keyword("to") {
                    step_fail!(self, key, ExprError::new(p.offset(), "expected `to` (fill ZONE to SIZE from ZONE)"));
                }
                let n = p.expr_until(&["from"]).map_err(|e| self.expr_err(key, e, what))?;
                let size = self.resolve(key, &n)?;
                let from = self.zone_after(key, p, "from")?;
                p.finish().map_err(|e| self.expr_err(key, e, what))?;
                self.emit(Instr::Fill { to, size, from }, key);
            }
            "deal" => {
                let n = p.expr_until(&["from"]).map_err(|e| self.expr_err(key, e, what))?;
                let count = self.resolve(key, &n)?;
                let from = self.zone_after(key, p, "from")?;
                if !p.keyword("to") {
                    step_fail!(self, key, ExprError::new(p.offset(), "expected `to` (deal N from ZONE to ZONE-PER-SEAT)"));
                }
                let at = p.offset();
                let Some((_, name)) = p.name() else { step_fail!(self, key, ExprError::new(at, "expected a zone per seat")) };
                let z = self.zone_named(&name).map_err(|m| self.expr_err(key, ExprError::new(at, m), what))?;
                if !self.zones[z].per_seat {
                    step_fail!(self, key, ExprError::new(at, format!("`{name}` is a shared zone; deal goes to a zone per seat")));
                }
                p.finish().map_err(|e| self.expr_err(key, e, what))?;
                self.chance = true;
                self.emit(Instr::Deal { from, to: self.zones[z].first, count }, key);
            }
            "shuffle" => {
                let z = self.zone_in(key, p)?;
                p.finish().map_err(|e| self.expr_err(key, e, what))?;
                self.chance = true;
                self.emit(Instr::Shuffle(z), key);
            }
            "reveal" => {
                if p.keyword("choices") {
                    p.finish().map_err(|e| self.expr_err(key, e, what))?;
                    self.emit(Instr::RevealChoices, key);
                } else {
                    let z = self.zone_in(key, p)?;
                    p.finish().map_err(|e| self.expr_err(key, e, what))?;
                    self.emit(Instr::Reveal(z), key);
                }
            }
            _ => unreachable!("called for the zone steps only"),
        }
        Ok(())
    }

    /// `roll ZONE` or `roll chosen`: every die there shows a new random face.
    fn roll_step(&mut self, key: &str, p: &mut Parser) -> Res<()> {
        if !self.has_dice {
            return Err(self.err(key, "`roll ZONE` rolls dice, and this file has none: a `[[cards.group]]` with `die = ATTRIBUTE` declares dice (a roll into a counter is `COUNTER = roll(FACES)`)"));
        }
        let z = if p.keyword("chosen") { Zone::Chosen } else { self.zone_in(key, p)? };
        p.finish().map_err(|e| self.expr_err(key, e, "a step"))?;
        self.chance = true;
        self.emit(Instr::RollDice(z), key);
        Ok(())
    }

    /// `end turn`, `end round` or `end game REASON`.
    fn end_step(&mut self, key: &str, p: &mut Parser) -> Res<()> {
        let what = "a step";
        if p.keyword("turn") {
            p.finish().map_err(|e| self.expr_err(key, e, what))?;
            self.turn_end_fixups.push(self.code.len());
            self.emit(Instr::EndTurn, key);
        } else if p.keyword("round") {
            p.finish().map_err(|e| self.expr_err(key, e, what))?;
            // Kept as an instruction, not a jump: the machine counts the turn under way.
            self.emit(Instr::EndRound, key);
        } else if p.keyword("game") {
            let at = p.offset();
            let reason = match p.name() {
                Some((_, r)) => r,
                None => step_fail!(self, key, ExprError::new(at, "expected an end reason (end game all_played)")),
            };
            p.finish().map_err(|e| self.expr_err(key, e, what))?;
            let r = self.reason_index(&reason);
            self.emit(Instr::EndGame(r), key);
        } else {
            step_fail!(self, key, ExprError::new(p.offset(), "expected `turn`, `round` or `game REASON`"));
        }
        Ok(())
    }

    /// `COUNTER[index] (=|+=|-=) EXPR` or `COUNTER[index] = roll(FACES)`.
    fn assign_step(&mut self, name: &str, key: &str, p: &mut Parser) -> Res<()> {
        let what = "a step";
        // An assignment: COUNTER[ index ] (=|+=|-=) EXPR, or a roll.
        let name = name.to_string();
        let Some(c) = self.counters.iter().position(|c| c.name == name) else {
            let words = ["move", "fill", "deal", "shuffle", "reveal", "roll", "say", "end", "next", "skip", "reverse", "eliminate"];
            let names: Vec<&str> = words.iter().copied().chain(self.counters.iter().map(|c| c.name.as_str())).collect();
            let hint = nearest(&name, names.iter().copied()).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
            step_fail!(
                self,
                key,
                ExprError::new(
                    0,
                    format!(
                        "`{name}` is neither a step nor a counter; {hint}steps: {}; counters: {}",
                        words.join(", "),
                        self.counters.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")
                    )
                )
            );
        };
        let index = if p.symbol("[") {
            let n = p.expr().map_err(|e| self.expr_err(key, e, what))?;
            if !p.symbol("]") {
                step_fail!(self, key, ExprError::new(p.offset(), "expected `]`"));
            }
            Some(self.resolve(key, &n)?)
        } else {
            None
        };
        let index = self.counter_index(key, c, index, 0)?;
        let op = if p.symbol("+=") {
            AssignOp::Add
        } else if p.symbol("-=") {
            AssignOp::Sub
        } else if p.symbol("=") {
            AssignOp::Set
        } else {
            step_fail!(self, key, ExprError::new(p.offset(), "expected `=`, `+=` or `-=`"));
        };
        if op == AssignOp::Set && p.keyword("roll") {
            if !p.symbol("(") {
                step_fail!(self, key, ExprError::new(p.offset(), "expected `(` (roll(FACES))"));
            }
            let n = p.expr().map_err(|e| self.expr_err(key, e, what))?;
            if !p.symbol(")") {
                step_fail!(self, key, ExprError::new(p.offset(), "expected `)`"));
            }
            p.finish().map_err(|e| self.expr_err(key, e, what))?;
            let faces = self.resolve(key, &n)?;
            self.chance = true;
            self.emit(Instr::Roll { counter: c as u16, index, faces }, key);
            return Ok(());
        }
        let n = p.expr().map_err(|e| self.expr_err(key, e, what))?;
        p.finish().map_err(|e| self.expr_err(key, e, what))?;
        let value = self.resolve(key, &n)?;
        self.emit(Instr::Assign { counter: c as u16, slots: (0, 0), index, op, value }, key);
        Ok(())
    }

    /// The index of counter `c` as written (`None`: the counter's own seat or none).
    fn counter_index(&self, key: &str, c: usize, index: Option<Expr>, at: usize) -> Res<Option<Expr>> {
        let decl = &self.counters[c];
        match (decl.per, index) {
            (Per::One, None) => Ok(None),
            (Per::One, Some(_)) => {
                Err(self.expr_err(key, ExprError::new(at, format!("`{}` is one counter for the table; it takes no index", decl.name)), "a counter"))
            }
            (Per::Seat, Some(i)) => Ok(Some(i)),
            (Per::Seat, None) => match self.seat_expr_here() {
                Some(s) => Ok(Some(s)),
                None => Err(self.expr_err(
                    key,
                    ExprError::new(at, format!("`{}` is a counter per seat: which seat? write `{}[current]` or `{}[seat]`", decl.name, decl.name, decl.name)),
                    "a counter",
                )),
            },
            (Per::Attr(_), Some(i)) => Ok(Some(i)),
            (Per::Attr(a), None) => Err(self.expr_err(
                key,
                ExprError::new(
                    at,
                    format!("`{}` is a counter per {}: write `{}[card.{}]`", decl.name, self.attrs[a as usize].name, decl.name, self.attrs[a as usize].name),
                ),
                "a counter",
            )),
        }
    }

    fn seat_expr_here(&self) -> Option<Expr> {
        match self.lookup("seat") {
            Some(slot) => Some(Expr::Var(Var::Bind(slot))),
            None if self.seat_is_current => Some(Expr::Var(Var::Current)),
            None => None,
        }
    }

    fn lookup(&self, name: &str) -> Option<u8> {
        self.scope.iter().rev().find(|(n, _)| n == name).map(|(_, s)| *s)
    }

    fn zone_in(&mut self, key: &str, p: &mut Parser) -> Res<Zone> {
        let at = p.offset();
        let Some((_, name)) = p.name() else { return Err(self.expr_err(key, ExprError::new(at, "expected a zone name"), "a step")) };
        if name == "chosen" {
            return Ok(Zone::Chosen);
        }
        let z = self.zone_named(&name).map_err(|m| self.expr_err(key, ExprError::new(at, m), "a step"))?;
        if !self.zones[z].per_seat {
            return Ok(Zone::Shared(self.zones[z].first));
        }
        if p.symbol("[") {
            let n = p.expr().map_err(|e| self.expr_err(key, e, "a step"))?;
            if !p.symbol("]") {
                return Err(self.expr_err(key, ExprError::new(p.offset(), "expected `]`"), "a step"));
            }
            let s = self.resolve(key, &n)?;
            return Ok(Zone::OfSeat(self.zones[z].first, Box::new(s)));
        }
        match self.seat_expr_here() {
            Some(s) => Ok(Zone::OfSeat(self.zones[z].first, Box::new(s))),
            None => Err(self.expr_err(key, ExprError::new(at, format!("`{name}` is a zone per seat: which seat? write `{name}[current]`")), "a step")),
        }
    }

    fn zone_ref_text(&mut self, key: &str, text: &str) -> Res<Zone> {
        let mut p = Parser::new(text).map_err(|e| self.expr_err(key, e, "a zone"))?;
        let z = self.zone_in(key, &mut p)?;
        p.finish().map_err(|e| self.expr_err(key, e, "a zone"))?;
        Ok(z)
    }

    fn template(&mut self, key: &str, value: &toml::Value) -> Res<Template> {
        let text = self.string(key, value, "a text")?;
        self.template_text(key, &text, 0)
    }

    fn template_text(&mut self, key: &str, text: &str, offset: usize) -> Res<Template> {
        let mut parts = Vec::new();
        let mut rest = text;
        let mut at = offset;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Text(rest[..open].to_string()));
            }
            let close = rest[open..].find('}').ok_or_else(|| self.expr_err(key, ExprError::new(at + open, "a `{` is not closed by `}`"), "a text"))? + open;
            let inner = rest[open + 1..close].trim();
            let inner_at = at + open + 1;
            let part = match inner {
                "cards" => Part::Cards,
                "seat" => Part::Seat(self.seat_expr_here().unwrap_or(Expr::Var(Var::Current))),
                "target" => Part::Seat(Expr::Var(Var::Arg)),
                "number" => Part::Value(Expr::Var(Var::Arg)),
                _ => {
                    if let Some(card) = inner.strip_prefix("card:") {
                        let e = self.parse_resolve(key, card, inner_at + 5, "a card in a text")?;
                        Part::Card(e)
                    } else if let Some(seat) = inner.strip_prefix("seat:") {
                        let e = self.parse_resolve(key, seat, inner_at + 5, "a seat in a text")?;
                        Part::Seat(e)
                    } else if let Some((name, e)) = inner.split_once(':') {
                        // `{color: number / 5}`: the attribute's value named, not numbered.
                        let name = name.trim();
                        let Some(a) = self.attrs.iter().position(|a| a.name == name) else {
                            let allowed: Vec<&str> = ["card", "seat"].into_iter().chain(self.attrs.iter().map(|a| a.name.as_str())).collect();
                            let hint = nearest(name, allowed.iter().copied()).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
                            let message = format!("`{name}:` names nothing; {hint}allowed before `:` in a text: {}", allowed.join(", "));
                            return Err(self.expr_err(key, ExprError::new(inner_at, message), "a text"));
                        };
                        let skip = inner.len() - e.len();
                        let e = self.parse_resolve(key, e, inner_at + skip, "an attribute's value in a text")?;
                        Part::Attr(a as u8, e)
                    } else {
                        Part::Value(self.parse_resolve(key, inner, inner_at, "a value in a text")?)
                    }
                }
            };
            parts.push(part);
            at += close + 1;
            rest = &rest[close + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Text(rest.to_string()));
        }
        Ok(Template { parts })
    }

    fn parse_resolve(&mut self, key: &str, text: &str, offset: usize, what: &str) -> Res<Expr> {
        let mut p = Parser::new(text).map_err(|mut e| {
            e.at += offset;
            self.expr_err(key, e, what)
        })?;
        let node = p.expr().map_err(|mut e| {
            e.at += offset;
            self.expr_err(key, e, what)
        })?;
        p.finish().map_err(|mut e| {
            e.at += offset;
            self.expr_err(key, e, what)
        })?;
        self.resolve_at(key, &node, offset)
    }

    // ---- Expressions ----

    fn parse(&self, key: &str, text: &str, what: &str) -> Res<Node> {
        let mut p = Parser::new(text).map_err(|e| self.expr_err(key, e, what))?;
        let node = p.expr().map_err(|e| self.expr_err(key, e, what))?;
        p.finish().map_err(|e| self.expr_err(key, e, what))?;
        Ok(node)
    }

    fn expr(&mut self, key: &str, value: &toml::Value, what: &str) -> Res<Expr> {
        match value {
            toml::Value::Integer(n) => Ok(Expr::Const(*n)),
            toml::Value::Boolean(b) => Ok(Expr::Const(i64::from(*b))),
            toml::Value::String(text) => {
                let node = self.parse(key, text, what)?;
                self.resolve(key, &node)
            }
            other => Err(self.err(key, format!("{what}: expected an expression (a string), a number or true/false, got {}", other.type_str()))),
        }
    }

    /// An expression evaluated for each seat (`seat` bound to slot 0).
    fn seat_expr(&mut self, key: &str, value: &toml::Value, what: &str) -> Res<Expr> {
        self.scope.push(("seat".into(), 0));
        let e = self.expr(key, value, what);
        self.scope.pop();
        e
    }

    fn resolve(&mut self, key: &str, node: &Node) -> Res<Expr> {
        self.resolve_at(key, node, 0)
    }

    fn resolve_at(&mut self, key: &str, node: &Node, offset: usize) -> Res<Expr> {
        self.node(node).map_err(|mut e| {
            e.at += offset;
            self.expr_err(key, e, "an expression")
        })
    }

    fn node(&mut self, node: &Node) -> Result<Expr, ExprError> {
        let at = node.at;
        Ok(match &node.ast {
            Ast::Num(n) => Expr::Const(*n),
            Ast::Word(w) => {
                // A quoted word: an action's name (for `chose`), a parameter's word, an
                // attribute value.
                if let Some(v) = self.value_named(w) {
                    Expr::Const(v)
                } else if let Some(a) = self.actions.iter().position(|a| &a.name == w) {
                    Expr::Const(a as i64)
                } else {
                    return Err(ExprError::new(at, format!("'{w}' is not a value of any card attribute, an action or a parameter's word")));
                }
            }
            Ast::Range(..) => return Err(ExprError::new(at, "a range `a..b` is allowed only as a count or a number to choose")),
            Ast::Name(name) => self.name(name, at)?,
            Ast::Field(base, field) => {
                // A dotted parameter (`deck.base_sets`), an attribute value (`color.red`), or a
                // card's attribute (`card.color`, `top(pile).color`).
                if let Some(dotted) = dotted_name(node)
                    && let Some(p) = self.params.iter().position(|p| p.key == dotted)
                {
                    return Ok(Expr::Param(p as u16));
                }
                if let Ast::Name(attr) = &base.ast
                    && let Some(a) = self.attrs.iter().position(|x| &x.name == attr)
                    && self.lookup(attr).is_none()
                {
                    let decl = &self.attrs[a];
                    return match decl.values.iter().position(|v| v == field) {
                        Some(v) => Ok(Expr::Const(v as i64 + decl.numeric_from.unwrap_or(0))),
                        None => Err(ExprError::new(at, format!("`{field}` is not a value of `{attr}`; allowed: {}", decl.values.join(", ")))),
                    };
                }
                let card = self.node(base)?;
                let Some(a) = self.attrs.iter().position(|x| &x.name == field) else {
                    let hint = nearest(field, self.attrs.iter().map(|a| a.name.as_str())).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
                    if let Some(d) = dotted_name(node) {
                        let params: Vec<&str> = self.params.iter().map(|p| p.key.as_str()).collect();
                        if let Some(n) = nearest(&d, params.iter().copied()) {
                            return Err(ExprError::new(at, format!("unknown name `{d}`; did you mean `{n}`?")));
                        }
                    }
                    return Err(ExprError::new(
                        at,
                        format!(
                            "`{field}` is not a card attribute; {hint}attributes: {}",
                            self.attrs.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", ")
                        ),
                    ));
                };
                let e = Expr::Attr(Box::new(card), a as u8);
                match self.attrs[a].numeric_from {
                    Some(from) if from != 0 => Expr::Bin(Op::Add, Box::new(e), Box::new(Expr::Const(from))),
                    _ => e,
                }
            }
            Ast::Index(base, index) => {
                let Ast::Name(name) = &base.ast else { return Err(ExprError::new(at, "only a counter or a zone per seat takes `[...]`")) };
                let i = self.node(index)?;
                if let Some(c) = self.counters.iter().position(|c| &c.name == name) {
                    if self.counters[c].per == Per::One {
                        return Err(ExprError::new(at, format!("`{name}` is one counter for the table; it takes no index")));
                    }
                    Expr::Counter(c as u16, Some(Box::new(i)))
                } else if let Some(z) = self.zones.iter().position(|z| &z.name == name) {
                    return Err(ExprError::new(at, format!("`{}` is a zone: use it inside size(...), count(...), top(...)", self.zones[z].name)));
                } else {
                    return Err(ExprError::new(at, format!("`{name}` takes no index (only counters per seat or per attribute do)")));
                }
            }
            Ast::Un(op, inner) => {
                let e = self.node(inner)?;
                if *op == "not" { Expr::Not(Box::new(e)) } else { Expr::Neg(Box::new(e)) }
            }
            Ast::Bin(op, a, b) => Expr::Bin(Op::of(op), Box::new(self.node(a)?), Box::new(self.node(b)?)),
            Ast::Call(f, args) => self.call(f, args, at)?,
        })
    }

    fn value_named(&self, word: &str) -> Option<i64> {
        let mut found = None;
        for a in &self.attrs {
            if a.numeric_from.is_none()
                && let Some(v) = a.values.iter().position(|x| x == word)
            {
                if found.is_some() {
                    return None;
                }
                found = Some(v as i64);
            }
        }
        if found.is_none() {
            for p in &self.params {
                if let ParamKind::Word(words) = &p.kind
                    && let Some(v) = words.iter().position(|x| x == word)
                {
                    return Some(v as i64);
                }
            }
            for p in &self.params {
                if let ParamKind::IntOrWord(words) = &p.kind
                    && let Some(v) = words.iter().position(|x| x == word)
                {
                    return Some(-(v as i64) - 1);
                }
            }
        }
        found
    }

    fn name(&mut self, name: &str, at: usize) -> Result<Expr, ExprError> {
        if let Some(slot) = self.lookup(name) {
            return Ok(Expr::Var(Var::Bind(slot)));
        }
        Ok(match name {
            "seat" => match self.seat_expr_here() {
                Some(e) => e,
                None => return Err(ExprError::new(at, "`seat` means nothing here (it is the seat a turn, a loop or an action is about)")),
            },
            "current" => Expr::Var(Var::Current),
            "players" => Expr::Var(Var::Players),
            "seats" => Expr::Var(Var::Seats),
            "turn" => Expr::Var(Var::Turn),
            "round_turn" => Expr::Var(Var::RoundTurn),
            "round" => Expr::Var(Var::Round),
            "first" => Expr::Var(Var::First),
            "target" | "number" => Expr::Var(Var::Arg),
            "card" => return Err(ExprError::new(at, "`card` means nothing here (it is the card of a `where`, a count or a loop over cards)")),
            _ => {
                if let Some(p) = self.params.iter().position(|p| p.key == name) {
                    return Ok(Expr::Param(p as u16));
                }
                if let Some(c) = self.counters.iter().position(|c| c.name == name) {
                    return match self.counters[c].per {
                        Per::One => Ok(Expr::Counter(c as u16, None)),
                        Per::Seat => match self.seat_expr_here() {
                            Some(s) => Ok(Expr::Counter(c as u16, Some(Box::new(s)))),
                            None => Err(ExprError::new(at, format!("`{name}` is a counter per seat: which seat? write `{name}[current]`"))),
                        },
                        Per::Attr(a) => Err(ExprError::new(
                            at,
                            format!("`{name}` is a counter per {}: write `{name}[card.{}]`", self.attrs[a as usize].name, self.attrs[a as usize].name),
                        )),
                    };
                }
                if let Some(v) = self.value_named(name) {
                    return Ok(Expr::Const(v));
                }
                if self.zones.iter().any(|z| z.name == name) {
                    return Err(ExprError::new(at, format!("`{name}` is a zone: use size({name}), count({name}, ...), top({name})")));
                }
                let mut names: Vec<&str> = vec!["seat", "current", "players", "seats", "turn", "round", "first", "target", "number"];
                names.extend(self.params.iter().map(|p| p.key.as_str()));
                names.extend(self.counters.iter().map(|c| c.name.as_str()));
                names.extend(self.scope.iter().map(|(n, _)| n.as_str()));
                let hint = nearest(name, names.iter().copied()).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
                return Err(ExprError::new(
                    at,
                    format!("unknown name `{name}`; {hint}names here: parameters, counters, seat, current, players, turn, round, target, number"),
                ));
            }
        })
    }

    fn zone_arg(&mut self, node: &Node) -> Result<Zone, ExprError> {
        let at = node.at;
        match &node.ast {
            Ast::Name(n) if n == "chosen" => Ok(Zone::Chosen),
            Ast::Name(n) => {
                let z = self.zone_named(n).map_err(|m| ExprError::new(at, m))?;
                if self.zones[z].per_seat {
                    match self.seat_expr_here() {
                        Some(s) => Ok(Zone::OfSeat(self.zones[z].first, Box::new(s))),
                        None => Err(ExprError::new(at, format!("`{n}` is a zone per seat: which seat? write `{n}[current]`"))),
                    }
                } else {
                    Ok(Zone::Shared(self.zones[z].first))
                }
            }
            Ast::Index(base, index) => {
                let Ast::Name(n) = &base.ast else { return Err(ExprError::new(at, "expected a zone")) };
                let z = self.zone_named(n).map_err(|m| ExprError::new(at, m))?;
                if !self.zones[z].per_seat {
                    return Err(ExprError::new(at, format!("`{n}` is a shared zone; it takes no seat")));
                }
                let s = self.node(index)?;
                Ok(Zone::OfSeat(self.zones[z].first, Box::new(s)))
            }
            _ => Err(ExprError::new(at, "expected a zone (`hand`, `hand[current]`, `draw`, `chosen`)")),
        }
    }

    fn attr_arg(&self, node: &Node) -> Result<u8, ExprError> {
        match &node.ast {
            Ast::Name(n) => self.attrs.iter().position(|a| &a.name == n).map(|a| a as u8).ok_or_else(|| {
                ExprError::new(
                    node.at,
                    format!("`{n}` is not a card attribute; attributes: {}", self.attrs.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", ")),
                )
            }),
            _ => Err(ExprError::new(node.at, "expected a card attribute's name")),
        }
    }

    fn bound<T>(&mut self, name: &str, f: impl FnOnce(&mut Self, u8) -> Result<T, ExprError>) -> Result<(T, u8), ExprError> {
        let slot = self.alloc_expr();
        if slot as usize >= BINDS - 4 {
            return Err(ExprError::new(0, "aggregates nested too deeply (at most 12)"));
        }
        self.scope.push((name.to_string(), slot));
        let r = f(self, slot);
        self.scope.pop();
        r.map(|t| (t, slot))
    }

    fn call(&mut self, f: &str, args: &[Node], at: usize) -> Result<Expr, ExprError> {
        match f {
            "size" | "count" | "sum" | "top" | "same" | "groups" | "group_sum" | "largest" => self.zone_call(f, args, at),
            "every" | "some" | "count_seats" | "sum_seats" | "max_seats" | "min_seats" | "row" | "rows" | "chose" | "choice_arg" => {
                self.table_call(f, args, at)
            }
            "next" | "max" | "min" | "abs" | "if" | "last" | "last_arg" | "active" => self.plain_call(f, args, at),
            other => {
                let hint = nearest(other, FUNCTIONS.iter().copied()).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
                Err(ExprError::new(at, format!("unknown function `{other}`; {hint}functions: {}", FUNCTIONS.join(", "))))
            }
        }
    }

    /// The functions over a zone's cards: `size`, `count`, `sum`, `top`, `same`, `groups`,
    /// `group_sum`, `largest`.
    fn zone_call(&mut self, f: &str, args: &[Node], at: usize) -> Result<Expr, ExprError> {
        Ok(match f {
            "size" => {
                arity(f, args, at, 1)?;
                Expr::Size(self.zone_arg(&args[0])?)
            }
            "count" | "sum" => {
                if f == "count" && args.len() == 1 {
                    return Ok(Expr::Size(self.zone_arg(&args[0])?));
                }
                arity(f, args, at, 2)?;
                let z = self.zone_arg(&args[0])?;
                let (e, slot) = self.bound("card", |c, _| c.node(&args[1]))?;
                if f == "count" { Expr::Count(z, slot, Box::new(e)) } else { Expr::Sum(z, slot, Box::new(e)) }
            }
            "top" => {
                arity(f, args, at, 1)?;
                Expr::Top(self.zone_arg(&args[0])?)
            }
            "same" => {
                arity(f, args, at, 2)?;
                Expr::Same(self.zone_arg(&args[0])?, self.attr_arg(&args[1])?)
            }
            "groups" | "group_sum" => {
                if args.len() < 2 {
                    return Err(ExprError::new(
                        at,
                        format!("`{f}` takes a zone, an expression of `size`, then the attributes that make a group (none: identical cards)"),
                    ));
                }
                let z = self.zone_arg(&args[0])?;
                let attrs = args[2..].iter().map(|a| self.attr_arg(a)).collect::<Result<Vec<_>, _>>()?;
                let (e, slot) = self.bound("size", |c, _| c.node(&args[1]))?;
                if f == "groups" { Expr::Groups(z, attrs, slot, Box::new(e)) } else { Expr::GroupSum(z, attrs, slot, Box::new(e)) }
            }
            "largest" => {
                if args.is_empty() {
                    return Err(ExprError::new(at, "`largest` takes a zone, then the attributes that make a group"));
                }
                let z = self.zone_arg(&args[0])?;
                let attrs = args[1..].iter().map(|a| self.attr_arg(a)).collect::<Result<Vec<_>, _>>()?;
                Expr::Largest(z, attrs)
            }
            _ => unreachable!("called for the zone functions only"),
        })
    }

    /// The functions over seats, table parameters and choices made: the seat aggregates,
    /// `row`, `rows`, `chose`, `choice_arg`.
    fn table_call(&mut self, f: &str, args: &[Node], at: usize) -> Result<Expr, ExprError> {
        Ok(match f {
            "every" | "some" | "count_seats" | "sum_seats" | "max_seats" | "min_seats" => {
                arity(f, args, at, 1)?;
                let agg = match f {
                    "every" => SeatAgg::Every,
                    "some" => SeatAgg::Some,
                    "count_seats" => SeatAgg::Count,
                    "sum_seats" => SeatAgg::Sum,
                    "max_seats" => SeatAgg::Max,
                    _ => SeatAgg::Min,
                };
                let (e, slot) = self.bound("seat", |c, _| c.node(&args[0]))?;
                Expr::Seats(agg, slot, Box::new(e))
            }
            "row" => {
                arity(f, args, at, 2)?;
                let p = match dotted_name(&args[0]) {
                    Some(name) => self.params.iter().position(|p| p.key == name && matches!(p.kind, ParamKind::Rows { .. })),
                    None => None,
                }
                .ok_or_else(|| ExprError::new(args[0].at, "`row` reads a table parameter (declared with a list of rows as its default)"))?;
                Expr::Row(p as u16, Box::new(self.node(&args[1])?))
            }
            "rows" => {
                arity(f, args, at, 1)?;
                let p = match dotted_name(&args[0]) {
                    Some(name) => self.params.iter().position(|p| p.key == name && matches!(p.kind, ParamKind::Rows { .. })),
                    None => None,
                }
                .ok_or_else(|| ExprError::new(args[0].at, "`rows` reads a table parameter (declared with a list of rows as its default)"))?;
                Expr::Rows(p as u16)
            }
            "chose" => {
                arity(f, args, at, 2)?;
                let seat = self.node(&args[0])?;
                let a = match &args[1].ast {
                    Ast::Word(w) | Ast::Name(w) => self.action_named(w).map_err(|m| ExprError::new(args[1].at, m))?,
                    _ => return Err(ExprError::new(args[1].at, "expected an action's name")),
                };
                Expr::Chose(Box::new(seat), a as u16)
            }
            "choice_arg" => {
                arity(f, args, at, 1)?;
                Expr::ChoseArg(Box::new(self.node(&args[0])?))
            }
            _ => unreachable!("called for the seat and table functions only"),
        })
    }

    /// The plain functions of values: `next`, `max`, `min`, `abs`, `if`, `last`, `last_arg`,
    /// `active`.
    fn plain_call(&mut self, f: &str, args: &[Node], at: usize) -> Result<Expr, ExprError> {
        Ok(match f {
            "next" => {
                arity(f, args, at, 1)?;
                Expr::Next(Box::new(self.node(&args[0])?))
            }
            "max" | "min" => {
                arity(f, args, at, 2)?;
                Expr::MaxMin(f == "max", Box::new(self.node(&args[0])?), Box::new(self.node(&args[1])?))
            }
            "abs" => {
                arity(f, args, at, 1)?;
                Expr::Abs(Box::new(self.node(&args[0])?))
            }
            "if" => {
                arity(f, args, at, 3)?;
                Expr::If(Box::new(self.node(&args[0])?), Box::new(self.node(&args[1])?), Box::new(self.node(&args[2])?))
            }
            "last" | "last_arg" => {
                arity(f, args, at, 1)?;
                Expr::Last(Box::new(self.node(&args[0])?), f == "last_arg")
            }
            "active" => {
                arity(f, args, at, 1)?;
                Expr::Active(Box::new(self.node(&args[0])?))
            }
            _ => unreachable!("called for the plain functions only"),
        })
    }
}

/// Every function an expression may call (the unknown-function error lists them).
const FUNCTIONS: &[&str] = &[
    "size",
    "count",
    "sum",
    "top",
    "same",
    "groups",
    "group_sum",
    "largest",
    "every",
    "some",
    "count_seats",
    "sum_seats",
    "max_seats",
    "min_seats",
    "row",
    "rows",
    "chose",
    "choice_arg",
    "last",
    "last_arg",
    "next",
    "max",
    "min",
    "abs",
    "if",
    "active",
];

/// Refuses a call of `f` with other than `n` arguments.
fn arity(f: &str, args: &[Node], at: usize, n: usize) -> Result<(), ExprError> {
    if args.len() == n { Ok(()) } else { Err(ExprError::new(at, format!("`{f}` takes {n} argument{}", if n == 1 { "" } else { "s" }))) }
}

/// `a.b.c` written as names and fields, as one dotted name.
fn dotted_name(node: &Node) -> Option<String> {
    match &node.ast {
        Ast::Name(n) => Some(n.clone()),
        Ast::Field(base, field) => dotted_name(base).map(|b| format!("{b}.{field}")),
        _ => None,
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
