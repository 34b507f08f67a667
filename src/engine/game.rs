//! The rules of one game: the [`Game`] trait and its optional capabilities ([`HiddenInfo`],
//! [`Traces`], [`AuditHooks`], [`OwnBots`]), what the table sees of a decision ([`Seen`]) and
//! the audit's claim checks ([`ClaimCheck`]).

use std::fmt::Debug;

use super::{BotInfo, EventLog, GameEvent, GameInfo, GameRng, Lineup, Metrics, Outcome, SeatRngs, ToMove, play_decisions, rng, words};

/// The rules of one game. Implementors live in `src/games/<game>/`.
///
/// A game writes 13 items here: its types, its static facts ([`Game::INFO`]) and the seven
/// methods of play below them. Everything after those has a default, and a game writes it
/// only when it has something to say: faster or stricter rules checks, invariants, the
/// standing series, a deal in place or a play-out loop.
///
/// The optional capabilities are traits of their own, each written in the game's file where
/// its code lives, every method but one with a default: [`HiddenInfo`] (`determinize.rs`: what
/// a seat sees, [`HiddenInfo::observation`], the one required method; samples of what a seat
/// cannot see; what the table sees of an action), [`Traces`] (`trace.rs`), [`AuditHooks`] (`audit.rs`) and [`OwnBots`]
/// (`bots.rs`). They are supertraits, so code over `G: Game` calls their methods as the
/// game's own (`game.determinize(..)`).
pub trait Game: HiddenInfo + Traces + AuditHooks + OwnBots + Sized + Send + Sync + 'static {
    /// Full table state, hidden information included.
    type State: Clone + Send + Debug;
    /// One decision of one seat. Serialised (serde) as the action notation of traces.
    type Action: Copy + Eq + std::hash::Hash + Debug + Send + serde::Serialize + serde::de::DeserializeOwned;
    /// What one seat sees when it must decide.
    type View<'a>;
    /// What happened, for traces and listening bots.
    type Event: GameEvent + Send;
    /// The game's own report metrics ([`NoMetrics`](super::NoMetrics) for a game with none).
    type Metrics: Metrics<Self>;
    /// The game's static facts: id, name, end reasons, units, default bot, search defaults,
    /// speed hints.
    const INFO: GameInfo;

    /// Number of scored seats, dummy seats included.
    fn seats(&self) -> usize;
    /// The teams, when seats play in teams: each team's seats in seat order, teams numbered
    /// by their place here (default: none, every seat plays for itself). A team's win puts
    /// all its seats among [`Outcome::winners`]; reports then judge the verdict, fairness,
    /// the first mover and the leader by team, and still show the seats.
    fn teams(&self) -> Vec<Vec<usize>> {
        Vec::new()
    }

    /// Sets up a new game (shuffle, deal) from the game's RNG.
    fn deal(&self, rng: &mut GameRng, log: &mut EventLog<Self::Event>) -> Self::State;
    /// Who must decide next.
    fn to_move(&self, state: &Self::State) -> ToMove;
    /// What `seat` may see now.
    fn view<'a>(&self, state: &'a Self::State, seat: usize) -> Self::View<'a>;
    /// Every legal action of the deciding seat, from its view alone, appended to `out`.
    fn legal_actions(&self, view: &Self::View<'_>, out: &mut Vec<Self::Action>);
    /// Applies a legal action of `seat`.
    fn apply(&self, state: &mut Self::State, seat: usize, action: Self::Action, rng: &mut GameRng, log: &mut EventLog<Self::Event>);
    /// The result of a finished game.
    fn outcome(&self, state: &Self::State) -> Outcome;

    // ---- Provided: static facts as methods, and the rules' optional parts. ----

    /// Game id used in variant files ([`GameInfo::id`]).
    fn id(&self) -> &'static str {
        Self::INFO.id
    }
    /// The game's name as players say it ([`GameInfo::name`]; a rules file's `title`).
    fn name(&self) -> &'static str {
        Self::INFO.name
    }
    /// Number of seats that take decisions (seats `0..acting_seats()`); the rest are dummies.
    fn acting_seats(&self) -> usize {
        self.seats()
    }
    /// End-reason names, indexed by [`Outcome::end_reason`] ([`GameInfo::end_reasons`]).
    fn end_reasons(&self) -> &'static [&'static str] {
        Self::INFO.end_reasons
    }
    /// Unit of [`Outcome::length`] ([`GameInfo::length_unit`]).
    fn length_unit(&self) -> &'static str {
        Self::INFO.length_unit
    }
    /// Whether seats can be eliminated ([`GameInfo::has_elimination`]).
    fn has_elimination(&self) -> bool {
        Self::INFO.has_elimination
    }
    /// Keys of this variant that are valid but can never take effect (a table row the rules
    /// never reach), each as "KEY ...: why, and what to do"; commands print them as warnings.
    /// Default: none.
    fn unused_keys(&self) -> Vec<String> {
        Vec::new()
    }
    /// This variant's turn cap, for charts. Default: [`GameInfo::default_cap`]; a game whose
    /// cap is a variant key returns the variant's.
    fn turn_cap(&self) -> u32 {
        Self::INFO.default_cap
    }
    /// [`Game::deal`] into `state`, a state of an earlier game of this same game: afterwards
    /// `state` must be exactly what `deal` would return from the same stream (every field,
    /// the buffers' contents; only their capacity may differ), with the same draws taken and
    /// the same events emitted. A game overriding it sets [`GameInfo::deals_in_place`] and
    /// tests the two against each other.
    fn deal_into(&self, rng: &mut GameRng, log: &mut EventLog<Self::Event>, state: &mut Self::State) {
        *state = self.deal(rng, log);
    }
    /// One legal action of the deciding seat drawn uniformly at random (the `random` bot).
    /// The default lists them into `scratch` and picks one; a game may override it with a
    /// sampler that skips the list, as long as it draws the same distribution (each game
    /// tests its sampler against [`Game::legal_actions`]).
    #[inline]
    fn random_action(&self, view: &Self::View<'_>, rng: &mut GameRng, scratch: &mut Vec<Self::Action>) -> Self::Action {
        scratch.clear();
        self.legal_actions(view, scratch);
        assert!(!scratch.is_empty(), "a seat asked to decide must have a legal action");
        scratch[rng::below(scratch.len() as u32, rng) as usize]
    }
    /// Whether `action` is legal for the deciding seat. The default looks it up in
    /// [`Game::legal_actions`]; a game may answer without the list.
    fn is_legal(&self, view: &Self::View<'_>, action: &Self::Action) -> bool {
        let mut legal = Vec::new();
        self.legal_actions(view, &mut legal);
        legal.contains(action)
    }
    /// Plays a dealt game to its end with nothing recorded: the quick loop's part after the
    /// deal (`play_quick`). Every decision is asked of `bots` for the seat
    /// [`Game::to_move`] names, with its view, its sampler and its stream `seat_rngs[seat]`,
    /// and applied with the chance stream `rng` and a log that records nothing. The default
    /// is that loop ([`play_decisions`]); a game may override it with a loop of its own (a
    /// turn's usual sequence of decisions as straight-line code) that asks the same bots the
    /// same questions in the same order and applies the same actions, so that the game is
    /// the same (the game tests the two against each other). Such a loop serves every
    /// line-up alike: it never asks which bots sit at the table.
    #[inline(always)]
    fn play_out<L: Lineup<Self> + ?Sized>(&self, state: &mut Self::State, bots: &mut L, rng: &mut GameRng, seat_rngs: &mut SeatRngs) {
        play_decisions(self, state, bots, rng, seat_rngs);
    }
    /// Checks the game's invariants (conservation and the like); `Err` names the broken one.
    /// Default: none.
    fn check_invariants(&self, _state: &Self::State) -> Result<(), String> {
        Ok(())
    }
    /// Whether `seat` may act at all now (false for eliminated seats); checked in checked
    /// mode. Default: always.
    fn seat_active(&self, _state: &Self::State, _seat: usize) -> bool {
        true
    }
    // ---- Standing (report metrics and the search's cut-off score). ----

    /// `seat`'s standing now, higher is better (savings, points so far, ...), in
    /// [`GameInfo::standing_unit`]: the series behind the report's lead changes, drama,
    /// decisiveness, comebacks and margin, and the score of a search cut off at its depth.
    /// Default: 0 for every seat (no standing: those figures are flat, a cut-off is a tie).
    fn standing(&self, _state: &Self::State, _seat: usize) -> i64 {
        0
    }
    /// Unit of [`Game::standing`] ([`GameInfo::standing_unit`]).
    fn standing_unit(&self) -> &'static str {
        Self::INFO.standing_unit
    }
    /// Turns played so far, in [`Game::length_unit`] (the default reads [`Game::outcome`]).
    fn turns_played(&self, state: &Self::State) -> u32 {
        self.outcome(state).length
    }
}

/// The state of game `G` (for the capability traits, whose methods name the game's types).
pub type StateOf<G> = <G as Game>::State;
/// The action of game `G`.
pub type ActionOf<G> = <G as Game>::Action;
/// What a seat of game `G` sees.
pub type ViewOf<'a, G> = <G as Game>::View<'a>;
/// The event of game `G`.
pub type EventOf<G> = <G as Game>::Event;

/// Hidden information: what a seat cannot see and what the table sees of an action, for the
/// search's samples and its belief. Written in the game's `determinize.rs`; a game whose only
/// secret is future chance writes only [`HiddenInfo::observation`].
pub trait HiddenInfo {
    /// Everything `seat` can see in `state`, as canonical text: states with the same text are
    /// the same to that seat. The harness checks every determinization against it. Required:
    /// every game writes it, a game without secrets too (its text is then the whole table).
    fn observation(&self, state: &StateOf<Self>, seat: usize) -> String
    where
        Self: Game;
    /// What the other seats see of `action`, as an action: the hidden parts (which cards of a
    /// hand went face down, a card handed over unseen) replaced by a fixed stand-in, so two
    /// actions the table cannot tell apart give the same answer. Opponent models are judged
    /// on it ([`Bot::action_probability`](super::Bot::action_probability)). Default: the whole action is public.
    fn public_action(&self, action: &ActionOf<Self>) -> ActionOf<Self>
    where
        Self: Game,
    {
        *action
    }
    /// What the table sees of the deciding seat taking `action` at `view` ([`Seen`]): equal
    /// for two decisions, at two states, that the table cannot tell apart, and the same for
    /// `action` and `public_action(action)`. Opponent models are judged on it
    /// ([`Bot::action_probability`](super::Bot::action_probability)). Default: the public action alone; a game whose
    /// actions name hand positions adds the cards they held (shown face up once played).
    fn seen(&self, _view: &ViewOf<'_, Self>, action: &ActionOf<Self>) -> Seen<ActionOf<Self>>
    where
        Self: Game,
    {
        Seen { action: self.public_action(action), shown: 0 }
    }
    /// Writes into `out` a complete state consistent with everything `seat` has seen in
    /// `state` (its view and every event visible to it so far): what `seat` cannot know
    /// (other hands, the draw pile's order, face-down cards, secret choices not yet
    /// revealed) is re-sampled from `rng`, so search bots plan on samples (see [`Sampler`](super::Sampler))
    /// and never on the real deal. `out` holds an earlier sample (or a clone of `state`):
    /// reuse its buffers (`clone_from`) so a search allocates nothing per sample. Future
    /// chance (dice, the next draws) needs no work: the sample is played with the searcher's
    /// own random stream. The default copies the state, right only for a game whose only
    /// secret is future chance ([`GameInfo::hidden_state`] false; the harness fails a game
    /// with hidden state whose samples never vary).
    fn determinize(&self, state: &StateOf<Self>, _seat: usize, _rng: &mut GameRng, out: &mut StateOf<Self>)
    where
        Self: Game,
    {
        out.clone_from(state);
    }
    /// No seat of the game in `state` samples its hidden state ([`Bot::samples`](super::Bot::samples)): the game
    /// may stop keeping, for the rest of this game, the public record that only
    /// [`HiddenInfo::determinize`] reads (cards publicly known to be in a hand, choices that
    /// hint at one), since nothing will read it. The simulator's quick loop calls it after the
    /// deal; the checked loop never does, so the harness checks the record. The next deal keeps
    /// it again. Default: nothing (the record, if any, is kept).
    fn skip_sample_records(&self, _state: &mut StateOf<Self>)
    where
        Self: Game,
    {
    }
    /// After [`HiddenInfo::determinize`](crate::engine::HiddenInfo::determinize), for a search that models every other seat as the game's
    /// default bot (`ismcts` with `model=default`): re-deals in `out` the hidden cards that
    /// such a model's observed choices rule out, reading only what `seat` sees. A search that
    /// infers each seat's model from its play (`model=auto`) weighs its samples by those
    /// models instead ([`belief`](super::belief)) and skips this. Default: nothing.
    fn honour_default_model(&self, _state: &StateOf<Self>, _seat: usize, _rng: &mut GameRng, _out: &mut StateOf<Self>)
    where
        Self: Game,
    {
    }
    /// Re-deals `out`, an older sample that may no longer fit what `seat` sees in `state` (a
    /// draw of its own went otherwise in it), into one that does, keeping what it can of
    /// `out`'s other hands: a search that weighs its samples by what the table did with
    /// them ([`belief`](super::belief)) keeps that evidence past its own draws. Reads what `seat` sees only,
    /// as [`HiddenInfo::determinize`](crate::engine::HiddenInfo::determinize). Returns false, leaving `out` alone, when the game keeps
    /// nothing of an old sample (the default): such a sample is dropped once it no longer fits.
    fn mend(&self, _state: &StateOf<Self>, _seat: usize, _rng: &mut GameRng, _out: &mut StateOf<Self>) -> bool
    where
        Self: Game,
    {
        false
    }
}

/// Traces: the table as `trace`, `replay`, the replay page and `play` show it. Written in the
/// game's `trace.rs` ([`trace`](super::trace) has the formats); every method has a default.
pub trait Traces {
    /// A readable dump of the full state for traces. Default: the state's `Debug`.
    fn describe(&self, state: &StateOf<Self>) -> String
    where
        Self: Game,
    {
        format!("{state:?}")
    }
    /// The complete table as a trace records it: every hand, every pile in order (top first),
    /// the display, dice, board, scores, whose turn. A serde-derived type of the game's own,
    /// with card names as the rulebook says them; documented in the game's module doc or
    /// `TRACE.md`. Read only by the tracer and `replay`, never while simulating. Default:
    /// `null` (traces then hold the actions and events only).
    fn trace_state(&self, _state: &StateOf<Self>) -> serde_json::Value
    where
        Self: Game,
    {
        serde_json::Value::Null
    }
    /// Paths into [`Traces::trace_state`](crate::engine::Traces::trace_state) that not every seat sees, `/`-separated; `*` stands
    /// for a seat number (seat k sees the k-th element), `[]` for every element of a list
    /// (`players/*/hand`, `draw`). A decision's view is the state with these hidden.
    fn trace_secrets(&self) -> &'static [&'static str]
    where
        Self: Game,
    {
        &[]
    }
    /// The random result an event records (a card drawn and from where, a die rolled, a
    /// reshuffle, a random card taken), as serde JSON; `None` for events that are no chance.
    fn trace_chance(&self, _event: &EventOf<Self>) -> Option<serde_json::Value>
    where
        Self: Game,
    {
        None
    }
    /// Why `action` is not legal for the deciding seat of `view`: the rule it breaks, in the
    /// designer's words (`replay` names it for a hand-edited trace). `None` (the default, and
    /// for a case the game's own reasons do not cover): the engine's reason
    /// ([`trace::why_illegal`](super::trace::why_illegal)), whether this kind of action is a choice now at all and which
    /// of its kind are. A game names its own rules here (a card not held, a move too long).
    fn why_illegal(&self, _view: &ViewOf<'_, Self>, _action: &ActionOf<Self>) -> Option<String>
    where
        Self: Game,
    {
        None
    }

    /// The table of `state` in the game's words for a person at it (`play`, the replay
    /// page; [`words`]): what decides the game, what the seat to move decides, the public
    /// facts, and the zones of [`Traces::trace_state`](crate::engine::Traces::trace_state) by their rulebook names. Everything it
    /// says must be known to every seat (the zones are hidden by [`Traces::trace_secrets`](crate::engine::Traces::trace_secrets)).
    /// Default: `None`, and the table is drawn field by field.
    fn table_words(&self, _state: &StateOf<Self>) -> Option<words::TableWords>
    where
        Self: Game,
    {
        None
    }
}

/// Audit hooks: what `playtest audit` (src/designer/audit/) reads of the rules. Written in
/// the game's `audit.rs`; every method has a default.
pub trait AuditHooks {
    /// Every kind of action this variant's rules offer, in the designer's words ("play skip",
    /// "claim a set of 3", "challenge"), for the audit's dead-rule and dominant-move findings:
    /// a kind listed here that is never legal, or legal but hardly ever chosen, is reported.
    /// List only kinds this variant can offer (a card with no copies in the deck is left
    /// out). Default: none (the audit then says the game classifies no actions).
    fn action_kinds(&self) -> Vec<&'static str>
    where
        Self: Game,
    {
        Vec::new()
    }
    /// The kind of `action`, one of [`AuditHooks::action_kinds`](crate::engine::AuditHooks::action_kinds) (default: "" = unclassified).
    fn action_kind(&self, _action: &ActionOf<Self>) -> &'static str
    where
        Self: Game,
    {
        ""
    }
    /// A fingerprint of the game's progress: it must change whenever the game gets nearer its
    /// end (a card left the hands, a score changed, a peg moved). The audit counts a game as
    /// stalled when it stays the same for many turns. Default: every seat's
    /// [`Game::standing`] (a game whose standing can stay put while it progresses overrides it).
    fn progress(&self, state: &StateOf<Self>) -> u64
    where
        Self: Game,
    {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for seat in 0..self.seats() {
            h = (h ^ self.standing(state, seat) as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
        h
    }
    /// For bluffing games: every claim a player may make under this variant, with whether
    /// some card of the deck can make it true and whether every card can. The audit reports
    /// claims that can never be true (a free catch) or are always true (never worth a
    /// challenge). Default: none (a game without claims).
    fn claim_audit(&self) -> Vec<ClaimCheck>
    where
        Self: Game,
    {
        Vec::new()
    }
}

/// The game's own bots. Written in the game's `bots.rs`; a game with none writes
/// `impl OwnBots for TheGame {}`.
pub trait OwnBots {
    /// The game's own bots; the engine adds the generic ones (`random`, `ismcts`) for every
    /// game, see [`all_bots`](super::all_bots). Always look bots up through [`all_bots`](super::all_bots). Default: none.
    /// A game whose bots depend on its variant (a rules file's own bots) lists this value's.
    fn bots(&self) -> Vec<BotInfo<Self>>
    where
        Self: Game,
    {
        Vec::new()
    }
    /// Checks a line-up (one canonical bot spec per acting seat) before play; `Err` says why
    /// it cannot be played (e.g. a bot whose precomputation would be too big). Default: any.
    fn check_bots(&self, _bots: &[String]) -> Result<(), String>
    where
        Self: Game,
    {
        Ok(())
    }
}

/// One claim of a bluffing game checked against the variant's deck ([`AuditHooks::claim_audit`](crate::engine::AuditHooks::claim_audit)).
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimCheck {
    /// The claim in the designer's words ("a wild", "a set of 3").
    pub claim: String,
    /// Whether some card (or set of cards) of the deck can make it true.
    pub possible: bool,
    /// Whether it is true whatever cards are discarded.
    pub certain: bool,
    /// The variant keys that decide it (`deck.colors_sets`, `payout.wild`).
    pub keys: Vec<String>,
}

/// What the table sees of one decision ([`HiddenInfo::seen`](crate::engine::HiddenInfo::seen)): two decisions look the same to the
/// table exactly when their `Seen` are equal, whatever the hidden cards around them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen<A> {
    /// The action's public part ([`HiddenInfo::public_action`](crate::engine::HiddenInfo::public_action)).
    pub action: A,
    /// The game's code for what the action showed beyond `action` (the cards of the hand
    /// positions a play names); 0 when `action` says it all.
    pub shown: u128,
}
