//! The rules of one game: the [`Game`] trait, what the table sees of a decision ([`Seen`]) and
//! the audit's claim checks ([`ClaimCheck`]).

use std::fmt::Debug;

use super::{BotInfo, EventLog, GameEvent, GameInfo, GameRng, Lineup, Metrics, Outcome, SeatRngs, ToMove, play_decisions, rng, trace, words};

/// The rules of one game. Implementors live in `src/games/<game>/`.
///
/// A game writes 14 items: its types, its static facts ([`Game::INFO`]) and the eight
/// methods of play below them. Everything after those has a default, and a game writes it
/// only when it has something to say: faster or stricter rules checks, invariants, its own
/// bots, the standing series, traces, audit hooks, a deal in place or a play-out loop.
pub trait Game: Sized + Send + Sync + 'static {
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
    /// Everything `seat` can see in `state`, as canonical text: states with the same text are
    /// the same to that seat. The harness checks every determinization against it.
    fn observation(&self, state: &Self::State, seat: usize) -> String;

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
    /// What the other seats see of `action`, as an action: the hidden parts (which cards of a
    /// hand went face down, a card handed over unseen) replaced by a fixed stand-in, so two
    /// actions the table cannot tell apart give the same answer. Opponent models are judged
    /// on it ([`Bot::action_probability`](super::Bot::action_probability)). Default: the whole action is public.
    fn public_action(&self, action: &Self::Action) -> Self::Action {
        *action
    }
    /// What the table sees of the deciding seat taking `action` at `view` ([`Seen`]): equal
    /// for two decisions, at two states, that the table cannot tell apart, and the same for
    /// `action` and `public_action(action)`. Opponent models are judged on it
    /// ([`Bot::action_probability`](super::Bot::action_probability)). Default: the public action alone; a game whose
    /// actions name hand positions adds the cards they held (shown face up once played).
    fn seen(&self, _view: &Self::View<'_>, action: &Self::Action) -> Seen<Self::Action> {
        Seen { action: self.public_action(action), shown: 0 }
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
    /// The game's own bots; the engine adds the generic ones (`random`, `ismcts`) for every
    /// game, see [`all_bots`](super::all_bots). Always look bots up through [`all_bots`](super::all_bots). Default: none.
    fn bots() -> Vec<BotInfo<Self>> {
        Vec::new()
    }
    /// Checks a line-up (one canonical bot spec per acting seat) before play; `Err` says why
    /// it cannot be played (e.g. a bot whose precomputation would be too big). Default: any.
    fn check_bots(&self, _bots: &[String]) -> Result<(), String> {
        Ok(())
    }
    /// A readable dump of the full state for traces. Default: the state's `Debug`.
    fn describe(&self, state: &Self::State) -> String {
        format!("{state:?}")
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
    fn determinize(&self, state: &Self::State, _seat: usize, _rng: &mut GameRng, out: &mut Self::State) {
        out.clone_from(state);
    }
    /// After [`Game::determinize`], for a search that models every other seat as the game's
    /// default bot (`ismcts` with `model=default`): re-deals in `out` the hidden cards that
    /// such a model's observed choices rule out, reading only what `seat` sees. A search that
    /// infers each seat's model from its play (`model=auto`) weighs its samples by those
    /// models instead ([`belief`](super::belief)) and skips this. Default: nothing.
    fn honour_default_model(&self, _state: &Self::State, _seat: usize, _rng: &mut GameRng, _out: &mut Self::State) {}
    /// Re-deals `out`, an older sample that may no longer fit what `seat` sees in `state` (a
    /// draw of its own went otherwise in it), into one that does, keeping what it can of
    /// `out`'s other hands: a search that weighs its samples by what the table did with
    /// them ([`belief`](super::belief)) keeps that evidence past its own draws. Reads what `seat` sees only,
    /// as [`Game::determinize`]. Returns false, leaving `out` alone, when the game keeps
    /// nothing of an old sample (the default): such a sample is dropped once it no longer fits.
    fn mend(&self, _state: &Self::State, _seat: usize, _rng: &mut GameRng, _out: &mut Self::State) -> bool {
        false
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

    // ---- Traces (issue 19: `trace --json`, `replay`, the replay page; see [`trace`]) ----

    /// The complete table as a trace records it: every hand, every pile in order (top first),
    /// the display, dice, board, scores, whose turn. A serde-derived type of the game's own,
    /// with card names as the rulebook says them; documented in the game's module doc or
    /// `TRACE.md`. Read only by the tracer and `replay`, never while simulating. Default:
    /// `null` (traces then hold the actions and events only).
    fn trace_state(&self, _state: &Self::State) -> serde_json::Value {
        serde_json::Value::Null
    }
    /// Paths into [`Game::trace_state`] that not every seat sees, `/`-separated; `*` stands
    /// for a seat number (seat k sees the k-th element), `[]` for every element of a list
    /// (`players/*/hand`, `draw`). A decision's view is the state with these hidden.
    fn trace_secrets(&self) -> &'static [&'static str] {
        &[]
    }
    /// The random result an event records (a card drawn and from where, a die rolled, a
    /// reshuffle, a random card taken), as serde JSON; `None` for events that are no chance.
    fn trace_chance(&self, _event: &Self::Event) -> Option<serde_json::Value> {
        None
    }
    /// Why `action` is not legal for the deciding seat of `view`: the rule it breaks, in the
    /// designer's words (`replay` names it for a hand-edited trace). The default says whether
    /// this kind of action is a choice now at all ([`trace::action_kind`]) and which of its
    /// kind are; a game overrides it to name its own rules (a card not held, a move too long).
    fn why_illegal(&self, view: &Self::View<'_>, action: &Self::Action) -> String {
        trace::generic_why(self, view, action)
    }

    /// The table of `state` in the game's words for a person at it (`play`, the replay
    /// page; [`words`]): what decides the game, what the seat to move decides, the public
    /// facts, and the zones of [`Game::trace_state`] by their rulebook names. Everything it
    /// says must be known to every seat (the zones are hidden by [`Game::trace_secrets`]).
    /// Default: `None`, and the table is drawn field by field.
    fn table_words(&self, _state: &Self::State) -> Option<words::TableWords> {
        None
    }

    // --- Rules audit (`playtest audit`, src/designer/audit/): read only by the audit. ---

    /// Every kind of action this variant's rules offer, in the designer's words ("play skip",
    /// "claim a set of 3", "challenge"), for the audit's dead-rule and dominant-move findings:
    /// a kind listed here that is never legal, or legal but hardly ever chosen, is reported.
    /// List only kinds this variant can offer (a card with no copies in the deck is left
    /// out). Default: none (the audit then says the game classifies no actions).
    fn action_kinds(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// The kind of `action`, one of [`Game::action_kinds`] (default: "" = unclassified).
    fn action_kind(&self, _action: &Self::Action) -> &'static str {
        ""
    }
    /// A fingerprint of the game's progress: it must change whenever the game gets nearer its
    /// end (a card left the hands, a score changed, a peg moved). The audit counts a game as
    /// stalled when it stays the same for many turns. Default: every seat's
    /// [`Game::standing`] (a game whose standing can stay put while it progresses overrides it).
    fn progress(&self, state: &Self::State) -> u64 {
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
    fn claim_audit(&self) -> Vec<ClaimCheck> {
        Vec::new()
    }
}

/// One claim of a bluffing game checked against the variant's deck ([`Game::claim_audit`]).
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

/// What the table sees of one decision ([`Game::seen`]): two decisions look the same to the
/// table exactly when their `Seen` are equal, whatever the hidden cards around them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen<A> {
    /// The action's public part ([`Game::public_action`]).
    pub action: A,
    /// The game's code for what the action showed beyond `action` (the cards of the hand
    /// positions a play names); 0 when `action` says it all.
    pub shown: u128,
}
