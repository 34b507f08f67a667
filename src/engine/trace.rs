//! Every game as data: the JSON Lines trace of one game (`playtest trace --json`) and its
//! replay through the engine (`playtest replay`).
//!
//! A trace is one JSON object per line, each with a `type` first:
//! - `start`: the game id, the variant as played, the seats with their bots, the game seed,
//!   the paths of the state that not every seat sees ([`Traces::trace_secrets`](crate::engine::Traces::trace_secrets)) and the
//!   complete state after set-up ([`Traces::trace_state`](crate::engine::Traces::trace_state));
//! - `chance`: a random event the rules made (a card drawn, a die rolled, a reshuffle with
//!   the new order of the pile, a random card taken), [`Traces::trace_chance`](crate::engine::Traces::trace_chance) of the game's
//!   own events, with the number of actions applied before it (`step`; 0 for the set-up);
//! - `decision`: the step, the turn, the deciding seat, what it sees (`view`: the state with
//!   what it cannot see hidden), every legal action in the game's action notation (the
//!   serde form of [`Game::Action`]) and the action chosen;
//! - `state`: the complete state after every action (same schema as in `start`);
//! - `end`: the end reason, winners with their shares, scores, the length and the number of
//!   decisions; or `violation` when a rule invariant broke (only in checked play).
//!
//! Tracing is a separate driver ([`play_traced`]): the simulator's loops never see it, so
//! tracing costs nothing when it is off. The chance stream and every seat's stream are the
//! engine's ([`super::play`]), so a trace is the very game `simulate` plays from that seed.
//!
//! [`replay`] re-deals from the recorded seed, re-applies the recorded actions and checks
//! every line: the state after set-up, every legal set and view, every chance result, every
//! state and the end; the first line that differs is named with the first differing field.
//! Recorded actions (the chosen one and the legal ones) are compared as the actions they read
//! as, so a trace in a notation a game still reads but no longer writes (an older form of
//! its actions) replays.
//!
//! This module knows lines and text only: trace files (`trace --out FILE`, `check --traces`),
//! gzip-compressed or plain, are written and read by [`crate::output::trace_file`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{EventLog, Game, GameRng, Lineup, Outcome, Sampler, SeedFrom, ToMove, seat_rng};

/// One seat of a traced table.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TraceSeat {
    /// Seat number.
    pub seat: usize,
    /// Its bot spec (`basic:bluff=0.3`), or `dummy` for a seat that never decides.
    pub bot: String,
}

/// The `start` line.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StartLine {
    /// Game id.
    pub game: String,
    /// Variant name.
    pub variant_name: String,
    /// The variant as played: the merged table after `extends` and `--set`.
    pub variant: Value,
    /// Every seat with its bot.
    pub seats: Vec<TraceSeat>,
    /// The game's own seed (`--game-seed`).
    pub game_seed: u64,
    /// Unit of the game's length (`turns`, `rounds`).
    pub length_unit: String,
    /// Paths of the state that not every seat sees ([`Traces::trace_secrets`](crate::engine::Traces::trace_secrets)).
    pub secrets: Vec<String>,
    /// The complete state after set-up.
    pub state: Value,
}

/// A `decision` line.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DecisionLine {
    /// Actions applied before this one.
    pub step: u64,
    /// Turns played so far ([`Game::turns_played`]).
    pub turn: u32,
    /// The deciding seat.
    pub seat: usize,
    /// What the deciding seat sees: the state with its secrets hidden.
    pub view: Value,
    /// Every legal action, in the game's order.
    pub legal: Vec<Value>,
    /// The action chosen.
    pub action: Value,
}

/// A `chance` line.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ChanceLine {
    /// Actions applied before it (0: the set-up).
    pub step: u64,
    /// The random event and its result ([`Traces::trace_chance`](crate::engine::Traces::trace_chance)).
    pub event: Value,
}

/// A `state` line.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StateLine {
    /// Actions applied so far.
    pub step: u64,
    /// The complete state.
    pub state: Value,
}

/// One winner of an `end` line.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WinnerShare {
    /// Seat.
    pub seat: usize,
    /// Its share of the win (1/k for k tied winners).
    pub share: f64,
}

/// The `end` line.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EndLine {
    /// End reason ([`Game::end_reasons`]).
    pub reason: String,
    /// Winners with their shares.
    pub winners: Vec<WinnerShare>,
    /// Final score of every seat.
    pub scores: Vec<i64>,
    /// Length in the game's unit.
    pub length: u32,
    /// Decisions taken (actions applied).
    pub decisions: u64,
}

/// A `violation` line: a rule invariant broke (checked play only); the trace ends here.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ViolationLine {
    /// Actions applied when it was found.
    pub step: u64,
    /// What broke.
    pub what: String,
}

/// One line of a JSON trace (module doc); serialised with its `type` first.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Line {
    /// The table after set-up.
    Start(StartLine),
    /// A decision with its legal alternatives.
    Decision(DecisionLine),
    /// A random event.
    Chance(ChanceLine),
    /// The state after an action.
    State(StateLine),
    /// The end of the game.
    End(EndLine),
    /// A broken invariant.
    Violation(ViolationLine),
}

impl Line {
    /// The line as one line of JSON (stable key order: the declared field order).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("trace lines serialise")
    }
}

/// What a trace records besides the game itself.
#[derive(Clone, Debug)]
pub struct TraceHeader {
    /// Variant name.
    pub variant_name: String,
    /// The variant as played.
    pub variant: Value,
    /// Bot spec of every acting seat.
    pub bots: Vec<String>,
}

/// `value` with every path of `secrets` that `seat` may not see replaced by `"hidden"` (an
/// array by `{"hidden": n}`, its length). A `*` in a path is a seat number: seat k sees the
/// k-th element. `seat` `None` hides nothing.
pub fn seen_by(value: &Value, secrets: &[&str], seat: Option<usize>) -> Value {
    let mut v = value.clone();
    if let Some(seat) = seat {
        for path in secrets {
            let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
            hide(&mut v, &parts, seat);
        }
    }
    v
}

fn hide(v: &mut Value, parts: &[&str], seat: usize) {
    let Some((first, rest)) = parts.split_first() else {
        *v = match v {
            Value::Array(items) => serde_json::json!({ "hidden": items.len() }),
            _ => Value::String("hidden".into()),
        };
        return;
    };
    match (*first, v) {
        ("*", Value::Array(items)) => {
            for (i, item) in items.iter_mut().enumerate() {
                if i != seat {
                    hide(item, rest, seat);
                }
            }
        }
        ("*", Value::Object(map)) => {
            for (k, item) in map.iter_mut() {
                if k.parse::<usize>().ok() != Some(seat) {
                    hide(item, rest, seat);
                }
            }
        }
        ("[]", Value::Array(items)) => {
            for item in items.iter_mut() {
                hide(item, rest, seat);
            }
        }
        (key, Value::Object(map)) => {
            if let Some(item) = map.get_mut(key) {
                hide(item, rest, seat);
            }
        }
        (key, Value::Array(items)) => {
            if let Some(item) = key.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                hide(item, rest, seat);
            }
        }
        _ => {}
    }
}

/// The first place where `recorded` and `replayed` differ, as `path: recorded X, replayed Y`.
pub fn first_difference(recorded: &Value, replayed: &Value) -> Option<String> {
    fn walk(a: &Value, b: &Value, path: &mut String) -> Option<String> {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for (k, va) in x {
                    let len = path.len();
                    path.push('/');
                    path.push_str(k);
                    let found = match y.get(k) {
                        Some(vb) => walk(va, vb, path),
                        None => Some(format!("{path}: recorded {}, not in the replayed state", short(va))),
                    };
                    if found.is_some() {
                        return found;
                    }
                    path.truncate(len);
                }
                y.iter().find(|(k, _)| !x.contains_key(*k)).map(|(k, vb)| format!("{path}/{k}: missing from the trace, replayed {}", short(vb)))
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                    let len = path.len();
                    path.push_str(&format!("/{i}"));
                    if let Some(found) = walk(va, vb, path) {
                        return Some(found);
                    }
                    path.truncate(len);
                }
                None
            }
            _ if a == b => None,
            _ => Some(format!("{}: recorded {}, replayed {}", if path.is_empty() { "/" } else { path }, short(a), short(b))),
        }
    }
    walk(recorded, replayed, &mut String::new())
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 160 { format!("{}...", s.chars().take(160).collect::<String>()) } else { s }
}

/// Why a driven game stopped early.
#[derive(Clone, Debug, PartialEq)]
pub enum Stop {
    /// A rule invariant broke at this step (checked play).
    Violation(u64, String),
    /// A replayed trace differs from the engine at this (1-based) line.
    Differs(usize, String),
    /// A replayed trace ends where a seat must decide, after this many decisions: a game
    /// abandoned part-way (`playtest play` stopped before its end).
    Abandoned(u64),
    /// A replayed trace's decision at this (1-based) line records an action the game cannot
    /// read at all: bad input rather than a game that differs.
    Unreadable(usize, String),
}

/// Why a trace does not replay ([`replay_to_stop`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The line differs from what the engine replays (or records an illegal action, a broken
    /// rule, or the game goes on past the trace's end).
    #[error("{line}: {what}")]
    Differs {
        /// The 1-based line.
        line: usize,
        /// What differs.
        what: String,
    },
    /// The value of `key` on the line is not of the game at all (an action it cannot read):
    /// the file is malformed.
    #[error("{line}: key `{key}`: {what}")]
    Unreadable {
        /// The 1-based line.
        line: usize,
        /// The line's key whose value is unreadable.
        key: &'static str,
        /// What the value is and what is allowed.
        what: String,
    },
}

/// Who takes the decisions and where the lines go while [`drive`] plays a game.
trait Driver<G: Game> {
    /// The action of the deciding seat; `decision` is the line without its action yet.
    fn decide(&mut self, game: &G, state: &G::State, view: &G::View<'_>, legal: &[G::Action], decision: &DecisionLine) -> Result<G::Action, Stop>;
    /// A game event, for listening bots.
    fn observe(&mut self, event: &G::Event);
    /// One finished line.
    fn emit(&mut self, line: Line) -> Result<(), Stop>;
}

/// Plays one game from `seed`, writing every line (module doc) through `driver`.
fn drive<G: Game, D: Driver<G>>(game: &G, seed: u64, start: StartLine, checked: bool, max_steps: u64, driver: &mut D) -> Result<Outcome, Stop> {
    let mut rng = GameRng::seed_from(seed);
    let mut log = EventLog::new(true);
    let mut state = game.deal(&mut rng, &mut log);
    let secrets = game.trace_secrets();
    driver.emit(Line::Start(StartLine { state: game.trace_state(&state), ..start }))?;
    if checked {
        game.check_invariants(&state).map_err(|what| Stop::Violation(0, format!("after the deal: {what}")))?;
    }
    let mut step: u64 = 0;
    let mut legal = Vec::new();
    loop {
        for event in log.drain() {
            if let Some(event) = game.trace_chance(&event) {
                driver.emit(Line::Chance(ChanceLine { step, event }))?;
            }
            driver.observe(&event);
        }
        let seat = match game.to_move(&state) {
            ToMove::Over => break,
            ToMove::Seat(seat) => seat,
        };
        if step >= max_steps {
            return Err(Stop::Violation(step, format!("no end after {max_steps} decisions")));
        }
        let action = {
            let view = game.view(&state, seat);
            legal.clear();
            game.legal_actions(&view, &mut legal);
            let full = game.trace_state(&state);
            let mut decision = DecisionLine {
                step,
                turn: game.turns_played(&state),
                seat,
                view: seen_by(&full, secrets, Some(seat)),
                legal: legal.iter().map(|a| serde_json::to_value(a).expect("actions serialise")).collect(),
                action: Value::Null,
            };
            let action = driver.decide(game, &state, &view, &legal, &decision)?;
            if checked {
                if !game.seat_active(&state, seat) {
                    return Err(Stop::Violation(step, format!("seat {seat} was asked to act but is not in the game")));
                }
                if !game.is_legal(&view, &action) {
                    return Err(Stop::Violation(step, format!("seat {seat} chose an illegal action {action:?}: {}", why_illegal(game, &view, &action))));
                }
            }
            decision.action = serde_json::to_value(action).expect("actions serialise");
            driver.emit(Line::Decision(decision))?;
            action
        };
        game.apply(&mut state, seat, action, &mut rng, &mut log);
        step += 1;
        // The events of the action come before the state it leaves.
        for event in log.drain() {
            if let Some(event) = game.trace_chance(&event) {
                driver.emit(Line::Chance(ChanceLine { step, event }))?;
            }
            driver.observe(&event);
        }
        driver.emit(Line::State(StateLine { step, state: game.trace_state(&state) }))?;
        if checked {
            game.check_invariants(&state).map_err(|what| Stop::Violation(step, what))?;
        }
    }
    let outcome = game.outcome(&state);
    driver.emit(Line::End(end_line(game, &outcome, step)))?;
    Ok(outcome)
}

fn end_line<G: Game>(game: &G, outcome: &Outcome, decisions: u64) -> EndLine {
    let seats = game.seats();
    EndLine {
        reason: game.end_reasons().get(outcome.end_reason as usize).copied().unwrap_or("?").to_string(),
        winners: (0..seats).filter(|&s| outcome.winners & (1 << s) != 0).map(|seat| WinnerShare { seat, share: outcome.win_share(seat) }).collect(),
        scores: outcome.scores[..seats].to_vec(),
        length: outcome.length,
        decisions,
    }
}

fn start_line<G: Game>(game: &G, seed: u64, header: &TraceHeader) -> StartLine {
    StartLine {
        game: game.id().to_string(),
        variant_name: header.variant_name.clone(),
        variant: header.variant.clone(),
        seats: (0..game.seats()).map(|seat| TraceSeat { seat, bot: header.bots.get(seat).cloned().unwrap_or_else(|| "dummy".into()) }).collect(),
        game_seed: seed,
        length_unit: game.length_unit().to_string(),
        secrets: game.trace_secrets().iter().map(|s| s.to_string()).collect(),
        state: Value::Null,
    }
}

struct Tracer<'a, G: Game, L: Lineup<G> + ?Sized> {
    bots: &'a mut L,
    seat_rngs: Vec<GameRng>,
    sink: &'a mut dyn FnMut(Line),
    _game: std::marker::PhantomData<G>,
}

impl<G: Game, L: Lineup<G> + ?Sized> Driver<G> for Tracer<'_, G, L> {
    fn decide(&mut self, game: &G, state: &G::State, view: &G::View<'_>, _: &[G::Action], decision: &DecisionLine) -> Result<G::Action, Stop> {
        let seat = decision.seat;
        let action = self.bots.decide(seat, game, view, &Sampler::new(state, seat), &mut self.seat_rngs[seat]);
        if self.bots.watches() {
            self.bots.observe_decision(game, state, seat, &game.public_action(&action));
        }
        Ok(action)
    }
    fn observe(&mut self, event: &G::Event) {
        self.bots.observe(event);
    }
    fn emit(&mut self, line: Line) -> Result<(), Stop> {
        (self.sink)(line);
        Ok(())
    }
}

/// Plays one game from `seed` with `bots` (the engine's streams, as [`super::play`]: the same
/// game and outcome) and hands every trace line to `sink` as it happens. With `checked`, every
/// action's legality and every invariant are checked; a broken one ends the trace with a
/// `violation` line and is returned as `Err((step, what))`, as is a game that takes more than
/// `max_steps` decisions.
pub fn play_traced<G: Game, L: Lineup<G> + ?Sized>(
    game: &G,
    bots: &mut L,
    seed: u64,
    header: &TraceHeader,
    checked: bool,
    max_steps: u64,
    sink: &mut dyn FnMut(Line),
) -> Result<Outcome, (u64, String)> {
    let seat_rngs = (0..bots.len()).map(|seat| seat_rng(seed, seat)).collect();
    bots.new_game(game);
    let start = start_line(game, seed, header);
    let mut tracer = Tracer { bots, seat_rngs, sink, _game: std::marker::PhantomData };
    match drive(game, seed, start, checked, max_steps, &mut tracer) {
        Ok(outcome) => Ok(outcome),
        Err(Stop::Violation(step, what)) => {
            (tracer.sink)(Line::Violation(ViolationLine { step, what: what.clone() }));
            Err((step, what))
        }
        Err(Stop::Differs(..) | Stop::Abandoned(_) | Stop::Unreadable(..)) => unreachable!("a tracer never compares"),
    }
}

/// The trace of one game as JSON Lines text (every line ends with a newline).
pub fn trace_text<G: Game, L: Lineup<G> + ?Sized>(
    game: &G,
    bots: &mut L,
    seed: u64,
    header: &TraceHeader,
    checked: bool,
    max_steps: u64,
) -> (String, Result<Outcome, (u64, String)>) {
    let mut text = String::new();
    let result = play_traced(game, bots, seed, header, checked, max_steps, &mut |line| {
        text.push_str(&line.to_json());
        text.push('\n');
    });
    (text, result)
}

struct Replayer<'a, G: Game> {
    /// The recorded lines with their 1-based line numbers.
    lines: &'a [(usize, Line)],
    /// The next line to compare.
    next: usize,
    _game: std::marker::PhantomData<G>,
}

impl<G: Game> Replayer<'_, G> {
    fn current(&self) -> Result<&(usize, Line), Stop> {
        let last = self.lines.last().map_or(0, |(n, _)| *n);
        self.lines.get(self.next).ok_or_else(|| Stop::Differs(last + 1, "the trace ends here, but the game goes on".into()))
    }
}

fn kind(line: &Line) -> &'static str {
    match line {
        Line::Start(_) => "start",
        Line::Decision(_) => "decision",
        Line::Chance(_) => "chance",
        Line::State(_) => "state",
        Line::End(_) => "end",
        Line::Violation(_) => "violation",
    }
}

fn differs(what: &str, recorded: &Value, replayed: &Value) -> Option<String> {
    first_difference(recorded, replayed).map(|d| format!("{what} differs at {d}"))
}

/// A recorded action in the notation the game writes now: read as an action and written
/// again, so a notation the game still reads but no longer writes is compared as the action
/// it is; a value that is no action stays as it is, to be named.
fn as_written<G: Game>(recorded: &Value) -> Value {
    serde_json::from_value::<G::Action>(recorded.clone()).ok().and_then(|a| serde_json::to_value(a).ok()).unwrap_or_else(|| recorded.clone())
}

impl<G: Game> Driver<G> for Replayer<'_, G> {
    fn decide(&mut self, game: &G, _: &G::State, view: &G::View<'_>, legal: &[G::Action], replayed: &DecisionLine) -> Result<G::Action, Stop> {
        // The trace ends between two actions, where a seat must decide: an abandoned game.
        if self.next == self.lines.len() {
            return Err(Stop::Abandoned(replayed.step));
        }
        let (n, line) = self.current()?;
        let n = *n;
        let recorded = match line {
            Line::Decision(d) => d,
            // A trace of a game whose bot broke a rule (`check --traces`) ends here.
            Line::Violation(v) => return Err(Stop::Differs(n, format!("the trace records a broken rule at step {}: {}", v.step, v.what))),
            _ => return Err(Stop::Differs(n, format!("expected a decision of seat {}, the trace has a `{}` line", replayed.seat, kind(line)))),
        };
        let header = |what: String| Stop::Differs(n, what);
        if (recorded.step, recorded.turn, recorded.seat) != (replayed.step, replayed.turn, replayed.seat) {
            return Err(header(format!(
                "decision of seat {} at step {} (turn {}) recorded, the rules give seat {} at step {} (turn {})",
                recorded.seat, recorded.step, recorded.turn, replayed.seat, replayed.step, replayed.turn
            )));
        }
        let listed = Value::Array(recorded.legal.iter().map(as_written::<G>).collect());
        if let Some(d) = differs("the legal actions", &listed, &Value::Array(replayed.legal.clone())) {
            return Err(header(d));
        }
        if let Some(d) = differs("the view", &recorded.view, &replayed.view) {
            return Err(header(d));
        }
        let action: G::Action = serde_json::from_value(recorded.action.clone())
            .map_err(|e| Stop::Unreadable(n, format!("{} is not an action of {}: {}", recorded.action, game.id(), unreadable_action(&recorded.action, &e))))?;
        if !legal.contains(&action) || !game.is_legal(view, &action) {
            return Err(header(format!("illegal action {} of seat {}: {}", recorded.action, recorded.seat, why_illegal(game, view, &action))));
        }
        Ok(action)
    }
    fn observe(&mut self, _: &G::Event) {}
    fn emit(&mut self, replayed: Line) -> Result<(), Stop> {
        let (n, recorded) = self.current()?;
        let n = *n;
        let fail = |what: String| Err(Stop::Differs(n, what));
        match (recorded, &replayed) {
            (Line::Start(r), Line::Start(p)) => {
                if r.game != p.game || r.game_seed != p.game_seed {
                    return fail(format!("start of {} seed {} recorded, replayed {} seed {}", r.game, r.game_seed, p.game, p.game_seed));
                }
                if r.secrets != p.secrets {
                    return fail(format!("secrets {:?} recorded, the game hides {:?}", r.secrets, p.secrets));
                }
                if let Some(d) = differs("the state after set-up", &r.state, &p.state) {
                    return fail(d);
                }
            }
            (Line::Decision(r), Line::Decision(p)) => {
                if as_written::<G>(&r.action) != p.action {
                    return fail(format!("action {} recorded, replayed as {}", r.action, p.action));
                }
            }
            (Line::Chance(r), Line::Chance(p)) => {
                if r.step != p.step {
                    return fail(format!("chance at step {} recorded, replayed at step {}", r.step, p.step));
                }
                if let Some(d) = differs("the chance result", &r.event, &p.event) {
                    return fail(d);
                }
            }
            (Line::State(r), Line::State(p)) => {
                if r.step != p.step {
                    return fail(format!("state after step {} recorded, replayed after step {}", r.step, p.step));
                }
                if let Some(d) = differs(&format!("the state after step {}", p.step), &r.state, &p.state) {
                    return fail(d);
                }
            }
            (Line::End(r), Line::End(p)) => {
                let (a, b) = (serde_json::to_value(r).expect("serialises"), serde_json::to_value(p).expect("serialises"));
                if let Some(d) = differs("the end", &a, &b) {
                    return fail(d);
                }
            }
            (r, p) => return fail(format!("the trace has a `{}` line, the replay gives a `{}` line", kind(r), kind(p))),
        }
        self.next += 1;
        Ok(())
    }
}

/// How a replayed trace ends ([`replay_to_stop`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Replayed {
    /// The game ends as the trace's `end` line says.
    Finished(Outcome),
    /// The trace stops where a seat must decide, after `decisions` decisions, with no `end`
    /// line: a game abandoned part-way (`playtest play` stopped by Ctrl-C or left).
    Abandoned {
        /// Decisions replayed.
        decisions: u64,
    },
}

/// Replays `lines` (numbered from 1, the first one `start`) on `game`: re-deals from the
/// recorded seed and re-applies every recorded action, checking every line (module doc) and
/// every invariant. `Err((line, what))` names the first line that differs or the illegal action;
/// a trace that stops before the game's end is an error too ([`replay_to_stop`] accepts it).
pub fn replay<G: Game>(game: &G, lines: &[(usize, Line)], max_steps: u64) -> Result<Outcome, (usize, String)> {
    let replayed = replay_to_stop(game, lines, max_steps).map_err(|e| match e {
        ReplayError::Differs { line, what } => (line, what),
        ReplayError::Unreadable { line, key, what } => (line, format!("key `{key}`: {what}")),
    })?;
    match replayed {
        Replayed::Finished(outcome) => Ok(outcome),
        Replayed::Abandoned { .. } => Err((lines.last().map_or(0, |(n, _)| *n) + 1, "the trace ends here, but the game goes on".into())),
    }
}

/// [`replay`], accepting a trace that stops cleanly between two actions where a seat must
/// decide (an abandoned game): it replays to where it stops and says so.
pub fn replay_to_stop<G: Game>(game: &G, lines: &[(usize, Line)], max_steps: u64) -> Result<Replayed, ReplayError> {
    let differs = |line: usize, what: String| ReplayError::Differs { line, what };
    let Some((first, Line::Start(start))) = lines.first() else {
        return Err(differs(lines.first().map_or(1, |(n, _)| *n), "a trace starts with a `start` line".into()));
    };
    let mut replayer = Replayer::<G> { lines, next: 0, _game: std::marker::PhantomData };
    let start = StartLine { state: Value::Null, ..start.clone() };
    let result = drive(game, start.game_seed, start, true, max_steps, &mut replayer);
    // A broken invariant is named at the line the replay had reached (the state it breaks in).
    let at = lines.get(replayer.next).or(lines.last()).map_or(*first, |(n, _)| *n);
    match result {
        Ok(outcome) => match lines.get(replayer.next) {
            Some((n, line)) => Err(differs(*n, format!("the game is over, but the trace goes on with a `{}` line", kind(line)))),
            None => Ok(Replayed::Finished(outcome)),
        },
        Err(Stop::Abandoned(decisions)) => Ok(Replayed::Abandoned { decisions }),
        Err(Stop::Differs(n, what)) => Err(differs(n, what)),
        Err(Stop::Unreadable(line, what)) => Err(ReplayError::Unreadable { line, key: "action", what }),
        Err(Stop::Violation(step, what)) => Err(differs(at, format!("after step {step} a rule invariant breaks: {what}"))),
    }
}

/// Parses JSON Lines trace text into numbered lines; `Err((line, column, what))` for the first
/// malformed line (blank lines are skipped).
pub fn parse(text: &str) -> Result<Vec<(usize, Line)>, (usize, usize, String)> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let line: Line = serde_json::from_str(raw).map_err(|e| (i + 1, e.column().max(1), line_error(&e)))?;
        lines.push((i + 1, line));
    }
    Ok(lines)
}

/// The 1-based column (in characters) where the value of the top-level `key` starts in the
/// JSON object `raw` (one trace line), to point at a value that reads as JSON but not as what
/// the game needs; 1 when the line has no such key.
pub fn value_column(raw: &str, key: &str) -> usize {
    let (mut depth, mut in_string, mut escaped, mut start) = (0usize, false, false, 0usize);
    let mut last_string: Option<&str> = None;
    let mut at_value = false;
    for (i, c) in raw.char_indices() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
                last_string = Some(&raw[start..i]);
            }
            continue;
        }
        if at_value && !c.is_whitespace() {
            return raw[..i].chars().count() + 1;
        }
        match c {
            '"' => {
                in_string = true;
                start = i + 1;
            }
            '{' | '[' => depth += 1,
            '}' | ']' => depth = depth.saturating_sub(1),
            ':' if depth == 1 && last_string == Some(key) => at_value = true,
            _ => {}
        }
        if !c.is_whitespace() && c != '"' {
            last_string = None;
        }
    }
    1
}

/// Why a line is no trace line: serde's "unknown variant" of the `type` tag as "unknown line
/// type `x`; allowed: start, ...".
fn line_error(e: &serde_json::Error) -> String {
    let message = message_of(e);
    match message.strip_prefix("unknown variant ").and_then(|r| r.split_once(", expected one of ")) {
        Some((name, allowed)) => format!("unknown line type {name}; allowed: {}", allowed.replace('`', "")),
        None => message,
    }
}

/// serde_json's message without its own "at line 1 column N" (the caller names the place).
fn message_of(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// Why `value` does not read as an action, in the tool's words: serde's "unknown variant `x`,
/// expected one of `a`, `b`" becomes "unknown action `x`; allowed: a, b" (or "unknown value"
/// for a part of the action, such as a card), without serde's place in the text.
pub fn unreadable_action(value: &Value, e: &serde_json::Error) -> String {
    let message = message_of(e);
    let Some(rest) = message.strip_prefix("unknown variant ") else { return message };
    let (name, allowed) = match rest.split_once(", expected ") {
        Some((name, allowed)) => (name.trim_matches('`'), allowed.trim_start_matches("one of ")),
        None => (rest.trim_matches('`'), ""),
    };
    let what = if action_kind(value) == name { "action" } else { "value" };
    // serde lists two as "`a` or `b`", more as "one of `a`, `b`, `c`".
    let allowed = allowed.replace("` or `", "`, `");
    let allowed: Vec<&str> = allowed.split(", ").map(|a| a.trim_matches('`')).filter(|a| !a.is_empty()).collect();
    if allowed.is_empty() { format!("unknown {what} `{name}`") } else { format!("unknown {what} `{name}`; allowed: {}", allowed.join(", ")) }
}

/// The kind of a serialised action: its tag (`discard` of `{"discard": "blue star"}`, `pass`
/// of `"pass"`), or `value` for a number.
pub fn action_kind(action: &Value) -> String {
    match action {
        Value::String(s) => s.clone(),
        Value::Object(m) => m.keys().next().cloned().unwrap_or_default(),
        _ => "value".into(),
    }
}

/// The generic reason an action is not among `legal` (see [`Traces::why_illegal`](crate::engine::Traces::why_illegal)): its kind
/// is no choice now (and which kinds are), or which of its kind are legal.
pub fn why_not_listed<A: Serialize>(action: &A, legal: &[A]) -> String {
    let a = serde_json::to_value(action).unwrap_or(Value::Null);
    let kind = action_kind(&a);
    let listed: Vec<Value> = legal.iter().map(|l| serde_json::to_value(l).unwrap_or(Value::Null)).collect();
    let same: Vec<&Value> = listed.iter().filter(|l| action_kind(l) == kind).collect();
    if same.is_empty() {
        let mut kinds: Vec<String> = listed.iter().map(action_kind).collect();
        kinds.dedup();
        return format!("`{kind}` is not a choice at this point of the turn; the seat must choose one of: {}", kinds.join(", "));
    }
    let shown: Vec<String> = same.iter().take(8).map(|v| v.to_string()).collect();
    format!("not one of the {} legal `{kind}` actions here: {}{}", same.len(), shown.join(", "), if same.len() > 8 { ", ..." } else { "" })
}

/// Why `action` is not legal for the deciding seat of `view`: the game's own reason
/// ([`Traces::why_illegal`](crate::engine::Traces::why_illegal)) or, when it has none, the
/// generic one ([`why_not_listed`]: whether this kind of action is a choice now at all and
/// which of its kind are).
pub fn why_illegal<G: Game>(game: &G, view: &G::View<'_>, action: &G::Action) -> String {
    game.why_illegal(view, action).unwrap_or_else(|| {
        let mut legal = Vec::new();
        game.legal_actions(view, &mut legal);
        why_not_listed(action, &legal)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "snake_case")]
    #[allow(dead_code)]
    enum Act {
        Pass,
        Discard(Color),
    }

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Color {
        Red,
        Blue,
    }

    #[test]
    fn unreadable_actions_and_lines_are_named_in_the_tools_words() {
        let fly = serde_json::json!({"fly": 3});
        let e = serde_json::from_value::<Act>(fly.clone()).unwrap_err();
        assert_eq!(unreadable_action(&fly, &e), "unknown action `fly`; allowed: pass, discard");
        let purple = serde_json::json!({"discard": "purple"});
        let e = serde_json::from_value::<Act>(purple.clone()).unwrap_err();
        assert_eq!(unreadable_action(&purple, &e), "unknown value `purple`; allowed: red, blue");
        let (line, _, what) = parse("{\"type\":\"start\"\n\n{\"type\":\"finish\"}\n").unwrap_err();
        assert_eq!(line, 1);
        assert!(!what.contains("variant"), "{what}");
        let (line, _, what) = parse("{\"type\":\"finish\"}\n").unwrap_err();
        assert_eq!((line, what.as_str()), (1, "unknown line type `finish`; allowed: start, decision, chance, state, end, violation"));
    }

    #[test]
    fn a_value_is_pointed_at_by_its_column_on_the_line() {
        let line = r#"{"type":"decision","view":{"action":"x"},"legal":["a:\"action\":"],"action":"bogus"}"#;
        assert_eq!(&line[value_column(line, "action") - 1..], "\"bogus\"}");
        assert_eq!(value_column(r#"{ "action" :  {"fly": 3} }"#, "action"), 15);
        assert_eq!(value_column(r#"{"type":"state"}"#, "action"), 1);
    }
}
