//! One game with a person in one seat and bots in the others, played decision by decision
//! as the page asks (`playtest play`).
//!
//! The session is the trace driver ([`crate::engine::trace`]) turned inside out: instead of a
//! loop that asks a driver for every decision, it stops whenever the person's seat must decide
//! and waits for [`Session::act`], and it plays one bot decision per [`Session::advance`], so
//! the page sets the pace. Every line it records is the line `trace --json` writes for the same
//! game (the same deal from the seed, the same chance stream, each bot its own seat stream), so
//! the saved game replays with `playtest replay` and shows on the replay page.
//!
//! What leaves the session for the page is what the person's seat may see: the table with the
//! game's secrets hidden ([`Traces::trace_secrets`](crate::engine::Traces::trace_secrets)), the events its seat sees
//! ([`GameEvent::visible_to`]) and their chance results, and its own legal actions.

use serde::Serialize;
use serde_json::{Value, json};

use crate::engine::trace::{self, ChanceLine, DecisionLine, EndLine, Line, StartLine, StateLine, TraceHeader, ViolationLine, WinnerShare, seen_by};
use crate::engine::{Bot, EventLog, Game, GameEvent, GameRng, Outcome, Sampler, SeedFrom, ToMove, game_seed, seat_rng};

use super::hints::{Hints, hints};
pub use super::label::label;

/// Decisions after which a session stops a game that never ends (as `trace` does).
pub const MAX_DECISIONS: u64 = crate::sim::MAX_TRACE_STEPS;

/// A request the session refuses, with the HTTP status that says why and the rule broken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// 400 malformed, 409 not now (another seat's turn, the game over, a stale step), 422 illegal.
    pub status: u16,
    /// The rule broken, in the designer's words.
    pub message: String,
}

impl Refusal {
    fn new(status: u16, message: impl Into<String>) -> Self {
        Refusal { status, message: message.into() }
    }
}

/// One entry of the narration: what the person's seat saw of one action (or of the set-up),
/// and the table as it stood afterwards.
#[derive(Clone, Debug, Serialize)]
pub struct Narrated {
    /// Index of the entry (0: the set-up).
    pub n: usize,
    /// Actions applied when it was recorded.
    pub step: u64,
    /// The seat that acted (`None` for the set-up).
    pub seat: Option<usize>,
    /// Who sits there (`you`, or the bot's spec).
    pub who: String,
    /// The person's own action, in readable words (`None` for a bot's, which the events tell).
    pub action: Option<String>,
    /// The game's events this seat sees, in order, as the play-by-play words them.
    pub events: Vec<String>,
    /// The chance results among them (cards drawn, dice rolled), as trace records with what
    /// this seat may not see hidden (the new order of a reshuffled pile).
    pub chance: Vec<Value>,
    /// The table afterwards as this seat sees it.
    pub view: Value,
    /// The table afterwards in the game's words ([`Traces::table_words`](crate::engine::Traces::table_words); `null` for a game
    /// without them).
    pub words: Value,
    /// Every seat's score afterwards as this seat may know it (`null`: hidden from it).
    pub scores: Value,
}

/// One legal action as the page offers it.
#[derive(Clone, Debug, Serialize)]
pub struct Offered {
    /// Its place among the legal actions.
    pub index: usize,
    /// The action in the game's trace notation (what [`Session::act`] takes back).
    pub action: Value,
    /// The action in words.
    pub label: String,
}

/// One game of `G` with a person in seat `seat` (see the module doc).
pub struct Session<G: Game> {
    game: G,
    seat: usize,
    seed: u64,
    state: G::State,
    rng: GameRng,
    seat_rngs: Vec<GameRng>,
    bots: Vec<Box<dyn Bot<G>>>,
    /// Who sits in every seat (`you`, a bot spec, `dummy`).
    who: Vec<String>,
    lines: Vec<Line>,
    step: u64,
    narration: Vec<Narrated>,
    finished: Option<Result<Outcome, String>>,
}

impl<G: Game> Session<G> {
    /// Deals game `seed` of `game` with the person in `seat` and `bots` (one per acting seat;
    /// the person's own is never asked) in the others; `header` names the variant and the
    /// line-up as the trace records it. `Err` for a seat the game does not have.
    pub fn new(game: G, seat: usize, mut bots: Vec<Box<dyn Bot<G>>>, seed: u64, header: &TraceHeader) -> Result<Self, String> {
        let acting = game.acting_seats();
        if seat >= acting {
            return Err(format!("--seat {seat}: this game's seats that decide are 0 to {}", acting - 1));
        }
        if bots.len() != acting {
            return Err(format!("{} bots for {acting} seats", bots.len()));
        }
        let who: Vec<String> =
            (0..game.seats()).map(|s| if s == seat { "you".to_string() } else { header.bots.get(s).cloned().unwrap_or_else(|| "dummy".into()) }).collect();
        let seat_rngs = (0..bots.len()).map(|s| seat_rng(seed, s)).collect();
        for (s, bot) in bots.iter_mut().enumerate() {
            bot.new_game(&game, s);
        }
        let mut rng = GameRng::seed_from(seed);
        let mut log = EventLog::new(true);
        let state = game.deal(&mut rng, &mut log);
        let start = StartLine {
            game: game.id().to_string(),
            variant_name: header.variant_name.clone(),
            variant: header.variant.clone(),
            seats: (0..game.seats()).map(|s| trace::TraceSeat { seat: s, bot: if s == seat { "human".to_string() } else { who[s].clone() } }).collect(),
            game_seed: seed,
            length_unit: game.length_unit().to_string(),
            secrets: game.trace_secrets().iter().map(|s| s.to_string()).collect(),
            state: game.trace_state(&state),
        };
        let mut session =
            Session { game, seat, seed, state, rng, seat_rngs, bots, who, lines: vec![Line::Start(start)], step: 0, narration: Vec::new(), finished: None };
        let (events, chance) = session.drain(&mut log);
        session.narrate(None, None, events, chance);
        if let Err(what) = session.game.check_invariants(&session.state) {
            session.broken(format!("after the deal: {what}"));
        }
        session.end_if_over();
        Ok(session)
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The person's seat.
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// The game's seed (`--seed` replays the same deal).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Actions applied so far.
    pub fn step(&self) -> u64 {
        self.step
    }

    /// The seat that must decide now, `None` when the game is over (or stopped by a broken rule).
    pub fn to_move(&self) -> Option<usize> {
        if self.finished.is_some() {
            return None;
        }
        match self.game.to_move(&self.state) {
            ToMove::Seat(s) => Some(s),
            ToMove::Over => None,
        }
    }

    /// Whether the person must decide now.
    pub fn your_turn(&self) -> bool {
        self.to_move() == Some(self.seat)
    }

    /// The real state (for tests and the hints' own tests; never sent to the page).
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// The table as the person's seat sees it now.
    pub fn view(&self) -> Value {
        seen_by(&self.game.trace_state(&self.state), self.game.trace_secrets(), Some(self.seat))
    }

    /// The table now in the game's words ([`Traces::table_words`](crate::engine::Traces::table_words)), `null` for a game without them.
    pub fn words(&self) -> Value {
        self.game.table_words(&self.state).map_or(Value::Null, |w| serde_json::to_value(w).expect("serialises"))
    }

    /// Every seat's score now ([`Game::standing`]) as the person's seat may know it.
    pub fn scores(&self) -> Value {
        super::words::scores_json(&super::words::scores(&self.game, &self.state, Some(self.seat)))
    }

    /// The person's legal actions now (empty when another seat must decide).
    pub fn legal(&self) -> Vec<Offered> {
        if !self.your_turn() {
            return Vec::new();
        }
        let mut legal = Vec::new();
        self.game.legal_actions(&self.game.view(&self.state, self.seat), &mut legal);
        legal
            .iter()
            .enumerate()
            .map(|(index, a)| {
                let action = serde_json::to_value(a).expect("actions serialise");
                let label = super::words::action_words(&self.game, &self.state, self.seat, *a).unwrap_or_else(|| label(&action));
                Offered { index, label, action }
            })
            .collect()
    }

    /// The narration from entry `since` on.
    pub fn events_since(&self, since: usize) -> &[Narrated] {
        &self.narration[since.min(self.narration.len())..]
    }

    /// Entries of the narration so far.
    pub fn events_count(&self) -> usize {
        self.narration.len()
    }

    /// The game's end (`None` while it goes on): the `end` line as the trace records it, or
    /// the broken rule that stopped it.
    pub fn end(&self) -> Option<Value> {
        match self.lines.last() {
            Some(Line::End(e)) => Some(serde_json::to_value(e).expect("serialises")),
            Some(Line::Violation(v)) => Some(json!({ "violation": v.what, "step": v.step })),
            _ => None,
        }
    }

    /// Who sits in every seat (`you`, a bot spec, `dummy`).
    pub fn seats(&self) -> &[String] {
        &self.who
    }

    /// The game so far as JSON Lines trace text (what `playtest replay` reads).
    pub fn trace_text(&self) -> String {
        let mut text = String::new();
        for line in &self.lines {
            text.push_str(&line.to_json());
            text.push('\n');
        }
        text
    }

    /// The trace lines from line `from` on (0: the `start` line) as JSON Lines text, and the
    /// number of lines so far: the server appends them to the save file after every action.
    pub fn trace_from(&self, from: usize) -> (String, usize) {
        let mut text = String::new();
        for line in &self.lines[from.min(self.lines.len())..] {
            text.push_str(&line.to_json());
            text.push('\n');
        }
        (text, self.lines.len())
    }

    /// Decisions recorded so far.
    pub fn decisions(&self) -> u64 {
        self.lines.iter().filter(|l| matches!(l, Line::Decision(_))).count() as u64
    }

    /// The person's action `action` (the game's trace notation), applied when it is the
    /// person's turn, it reads as an action of this game and it is legal; otherwise a
    /// [`Refusal`] naming the rule broken, and nothing changes. With `expected_step`, an action
    /// sent for an earlier table (a double click, a second tab) is refused too.
    pub fn act(&mut self, action: &Value, expected_step: Option<u64>) -> Result<&Narrated, Refusal> {
        self.can_decide(true)?;
        if let Some(step) = expected_step
            && step != self.step
        {
            return Err(Refusal::new(409, format!("the action was chosen at step {step}, but the table has moved on to step {}: look again", self.step)));
        }
        let parsed: G::Action = serde_json::from_value(action.clone())
            .map_err(|e| Refusal::new(400, format!("{action} is not an action of {}: {}", self.game.id(), trace::unreadable_action(action, &e))))?;
        {
            let view = self.game.view(&self.state, self.seat);
            let mut legal = Vec::new();
            self.game.legal_actions(&view, &mut legal);
            if !legal.contains(&parsed) || !self.game.is_legal(&view, &parsed) {
                return Err(Refusal::new(422, format!("illegal action {action}: {}", crate::engine::trace::why_illegal(&self.game, &view, &parsed))));
            }
        }
        self.decide(Some(parsed));
        Ok(self.narration.last().expect("an action is narrated"))
    }

    /// Plays again the first `steps` decisions recorded in the trace `lines` of a game of the
    /// same game and seed (`play --from TRACE --step K`), whoever took them, so that the
    /// person takes over from there: each recorded action must be legal where it is applied.
    /// The bots hear every event as they would have; their own random streams start afresh.
    pub fn replay_decisions(&mut self, lines: &[(usize, Line)], steps: u64) -> Result<(), String> {
        if let Some((_, Line::Start(start))) = lines.first()
            && (start.game != self.game.id() || start.game_seed != self.seed)
        {
            return Err(format!("the trace is of {} seed {}, not {} seed {}", start.game, start.game_seed, self.game.id(), self.seed));
        }
        let decisions: Vec<(usize, &DecisionLine)> = lines.iter().filter_map(|(n, l)| if let Line::Decision(d) = l { Some((*n, d)) } else { None }).collect();
        if steps > decisions.len() as u64 {
            return Err(format!("--step {steps}: the trace records {} decisions", decisions.len()));
        }
        for (n, d) in decisions.into_iter().take(steps as usize) {
            let seat = self.to_move().ok_or_else(|| format!("line {n}: the game is over before this decision"))?;
            if seat != d.seat {
                return Err(format!("line {n}: seat {} decides in the trace, seat {seat} in the game", d.seat));
            }
            let action: G::Action =
                serde_json::from_value(d.action.clone()).map_err(|e| format!("line {n}: {} is not an action of {}: {e}", d.action, self.game.id()))?;
            if !self.game.is_legal(&self.game.view(&self.state, seat), &action) {
                return Err(format!("line {n}: {} is not legal here", d.action));
            }
            self.decide(Some(action));
        }
        Ok(())
    }

    /// Plays the decision of the bot whose turn it is (one bot action: the page's pace);
    /// refused when it is the person's turn or the game is over.
    pub fn advance(&mut self) -> Result<&Narrated, Refusal> {
        self.can_decide(false)?;
        self.decide(None);
        Ok(self.narration.last().expect("an action is narrated"))
    }

    /// The search bot's estimate of the person's win chance after each legal action, from
    /// samples of what its seat cannot see ([`super::hints`]); refused when it is not the
    /// person's turn.
    pub fn hints(&self, iterations: u32, seed: u64) -> Result<Hints, Refusal> {
        self.can_decide(true)?;
        Ok(hints(&self.game, &self.state, self.seat, iterations, seed))
    }

    /// Refuses unless the game goes on and it is (`mine`) or is not the person's turn.
    fn can_decide(&self, mine: bool) -> Result<(), Refusal> {
        let Some(seat) = self.to_move() else {
            return Err(Refusal::new(409, "the game is over: no seat decides any more"));
        };
        match (mine, seat == self.seat) {
            (true, false) => {
                Err(Refusal::new(409, format!("it is seat {seat}'s turn ({}), not yours (seat {}): wait for the bots to play", self.who[seat], self.seat)))
            }
            (false, true) => Err(Refusal::new(409, format!("it is your turn (seat {}): the bots wait for your action", self.seat))),
            _ => Ok(()),
        }
    }

    /// Applies one decision of the seat to move: the person's `action`, or its bot's choice
    /// when `None`; records it as the trace does (decision, chance, state; the end).
    fn decide(&mut self, action: Option<G::Action>) {
        let seat = self.to_move().expect("checked by the caller");
        if self.step >= MAX_DECISIONS {
            self.broken(format!("no end after {MAX_DECISIONS} decisions"));
            return;
        }
        let mut legal = Vec::new();
        let action = {
            let view = self.game.view(&self.state, seat);
            self.game.legal_actions(&view, &mut legal);
            let action = match action {
                Some(a) => a,
                None => self.bots[seat].decide_with(&self.game, &view, &Sampler::new(&self.state, seat), &mut self.seat_rngs[seat]),
            };
            if !self.game.seat_active(&self.state, seat) {
                Err(format!("seat {seat} was asked to act but is not in the game"))
            } else if !self.game.is_legal(&view, &action) {
                Err(format!("seat {seat} chose an illegal action {action:?}: {}", crate::engine::trace::why_illegal(&self.game, &view, &action)))
            } else {
                Ok(action)
            }
        };
        let action = match action {
            Ok(a) => a,
            Err(what) => {
                self.broken(what);
                return;
            }
        };
        let full = self.game.trace_state(&self.state);
        let value = serde_json::to_value(action).expect("actions serialise");
        let own = (seat == self.seat).then(|| super::words::action_words(&self.game, &self.state, seat, action).unwrap_or_else(|| label(&value)));
        self.lines.push(Line::Decision(DecisionLine {
            step: self.step,
            turn: self.game.turns_played(&self.state),
            seat,
            view: seen_by(&full, self.game.trace_secrets(), Some(seat)),
            legal: legal.iter().map(|a| serde_json::to_value(a).expect("actions serialise")).collect(),
            action: value.clone(),
        }));
        let mut log = EventLog::new(true);
        self.game.apply(&mut self.state, seat, action, &mut self.rng, &mut log);
        self.step += 1;
        let (events, chance) = self.drain(&mut log);
        self.lines.push(Line::State(StateLine { step: self.step, state: self.game.trace_state(&self.state) }));
        self.narrate(Some(seat), own, events, chance);
        if let Err(what) = self.game.check_invariants(&self.state) {
            self.broken(what);
            return;
        }
        self.end_if_over();
    }

    /// The events of the last action: chance lines recorded, bots told, and what the person's
    /// seat sees of them returned (their words, their chance results).
    fn drain(&mut self, log: &mut EventLog<G::Event>) -> (Vec<String>, Vec<Value>) {
        let (mut words, mut chance) = (Vec::new(), Vec::new());
        for event in log.drain() {
            let record = self.game.trace_chance(&event);
            if let Some(record) = &record {
                self.lines.push(Line::Chance(ChanceLine { step: self.step, event: record.clone() }));
            }
            if event.visible_to(self.seat) {
                let text = event.to_string();
                let text = text.trim();
                if !text.is_empty() {
                    words.push(text.to_string());
                }
                if let Some(record) = record {
                    chance.push(unordered(record));
                }
            }
            crate::engine::Lineup::observe(&mut self.bots, &event);
        }
        (words, chance)
    }

    fn narrate(&mut self, seat: Option<usize>, action: Option<String>, events: Vec<String>, chance: Vec<Value>) {
        let who = seat.map_or_else(|| "the deal".to_string(), |s| self.who[s].clone());
        let (words, scores) = (self.words(), self.scores());
        self.narration.push(Narrated { n: self.narration.len(), step: self.step, seat, who, action, events, chance, view: self.view(), words, scores });
    }

    /// Records a broken rule: the trace ends with a `violation` line and nobody decides any more.
    fn broken(&mut self, what: String) {
        self.lines.push(Line::Violation(ViolationLine { step: self.step, what: what.clone() }));
        self.finished = Some(Err(what));
    }

    fn end_if_over(&mut self) {
        if self.finished.is_none() && matches!(self.game.to_move(&self.state), ToMove::Over) {
            let outcome = self.game.outcome(&self.state);
            let seats = self.game.seats();
            self.lines.push(Line::End(EndLine {
                reason: self.game.end_reasons().get(outcome.end_reason as usize).copied().unwrap_or("?").to_string(),
                winners: (0..seats).filter(|&s| outcome.winners & (1 << s) != 0).map(|seat| WinnerShare { seat, share: outcome.win_share(seat) }).collect(),
                scores: outcome.scores[..seats].to_vec(),
                length: outcome.length,
                decisions: self.step,
            }));
            self.finished = Some(Ok(outcome));
        }
    }
}

/// A chance record as a seat sees it: the new order of a reshuffled pile (an `order` list)
/// is seen by no seat, so it is replaced by its length (as the replay page hides it).
fn unordered(mut record: Value) -> Value {
    if let Value::Object(kinds) = &mut record {
        for body in kinds.values_mut() {
            if let Value::Object(fields) = body
                && let Some(Value::Array(order)) = fields.get("order")
            {
                let n = order.len();
                fields.insert("order".into(), json!({ "hidden": n }));
            }
        }
    }
    record
}

/// A game in play, whatever its type: what `playtest play`'s server asks of a [`Session`], in JSON.
pub trait PlayTable: Send {
    /// Everything the page shows now: the game, the seats, whose turn, the seat's view of the
    /// table, its legal actions when it must decide, the end when it is over.
    fn status(&self) -> Value;
    /// The person's action (see [`Session::act`]): the narration entry it made.
    fn act(&mut self, action: &Value, expected_step: Option<u64>) -> Result<Value, Refusal>;
    /// One bot decision (see [`Session::advance`]): the narration entry it made.
    fn advance(&mut self) -> Result<Value, Refusal>;
    /// The narration from entry `since` on.
    fn events_since(&self, since: usize) -> Value;
    /// The search bot's advice with `iterations` iterations, and its time in milliseconds.
    fn hints(&self, iterations: u32) -> Result<(Value, f64), Refusal>;
    /// The game so far as JSON Lines trace text.
    fn trace_text(&self) -> String;
    /// The trace lines from line `from` on, and the number of lines so far.
    fn trace_from(&self, from: usize) -> (String, usize);
    /// Decisions recorded so far.
    fn decisions(&self) -> u64;
    /// Whether the game is over.
    fn over(&self) -> bool;
    /// Game id and variant name, for messages.
    fn title(&self) -> String;
    /// The game's seed.
    fn seed(&self) -> u64;
    /// Plays again the first `steps` decisions of the trace `lines` (see
    /// [`Session::replay_decisions`]).
    fn replay_decisions(&mut self, lines: &[(usize, Line)], steps: u64) -> Result<(), String>;
}

/// A [`Session`] with the variant's name, as a [`PlayTable`].
pub struct Named<G: Game> {
    /// The game in play.
    pub session: Session<G>,
    /// The variant's name.
    pub variant: String,
}

impl<G: Game> PlayTable for Named<G> {
    fn status(&self) -> Value {
        let s = &self.session;
        json!({
            "game": s.game().id(),
            "variant": self.variant,
            "seat": s.seat(),
            "seed": s.seed(),
            "step": s.step(),
            "to_move": s.to_move(),
            "your_turn": s.your_turn(),
            "over": s.to_move().is_none(),
            "end": s.end(),
            "seats": s.seats(),
            "length_unit": s.game().length_unit(),
            "secrets": s.game().trace_secrets(),
            "events": s.events_count(),
            "view": s.view(),
            "words": s.words(),
            "scores": s.scores(),
            "standing_unit": s.game().standing_unit(),
            "teams": s.game().teams(),
            "name": s.game().name(),
            "legal": s.legal(),
        })
    }
    fn act(&mut self, action: &Value, expected_step: Option<u64>) -> Result<Value, Refusal> {
        self.session.act(action, expected_step).map(|n| serde_json::to_value(n).expect("serialises"))
    }
    fn advance(&mut self) -> Result<Value, Refusal> {
        self.session.advance().map(|n| serde_json::to_value(n).expect("serialises"))
    }
    fn events_since(&self, since: usize) -> Value {
        json!({ "since": since, "next": self.session.events_count(), "events": self.session.events_since(since) })
    }
    fn hints(&self, iterations: u32) -> Result<(Value, f64), Refusal> {
        // A seed of the decision's own (game seed and step): asking twice gives the same advice.
        let seed = game_seed(self.session.seed() ^ 0x6869_6e74, self.session.step());
        let h = self.session.hints(iterations, seed)?;
        let ms = h.millis;
        let mut v = serde_json::to_value(&h).expect("serialises");
        v["millis"] = json!((ms * 10.0).round() / 10.0);
        Ok((v, ms))
    }
    fn trace_text(&self) -> String {
        self.session.trace_text()
    }
    fn trace_from(&self, from: usize) -> (String, usize) {
        self.session.trace_from(from)
    }
    fn decisions(&self) -> u64 {
        self.session.decisions()
    }
    fn over(&self) -> bool {
        self.session.to_move().is_none()
    }
    fn title(&self) -> String {
        format!("{} / {}", self.session.game().id(), self.variant)
    }
    fn seed(&self) -> u64 {
        self.session.seed()
    }
    fn replay_decisions(&mut self, lines: &[(usize, Line)], steps: u64) -> Result<(), String> {
        self.session.replay_decisions(lines, steps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_read_as_words() {
        assert_eq!(label(&json!("take_penny")), "take penny");
        assert_eq!(label(&json!({"discard": "blue star"})), "discard blue star");
        assert_eq!(label(&json!({"play": {"card": "7", "mv": {"split": [3, 4]}}})), "play card 7, mv split 3 + 4");
    }

    #[test]
    fn a_reshuffle_order_is_hidden() {
        let r = unordered(json!({"reshuffle": {"pile": "draw", "order": ["a", "b"]}}));
        assert_eq!(r, json!({"reshuffle": {"pile": "draw", "order": {"hidden": 2}}}));
    }
}
