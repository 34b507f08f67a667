//! The game-agnostic engine: the `Game` and `Bot` traits every game implements, the
//! per-game outcome, and the driver that plays one game from a seed.
//!
//! A game is a state machine: `to_move` says which seat must decide (or that the game is
//! over), `view` builds what that seat may see, `legal_actions` lists its choices from that
//! view alone, and `apply` changes the state, drawing chance from the game's seeded RNG.
//! Simultaneous rounds (Take a Penny) fit the same shape: the state buffers the round's
//! secret choices and no view shows them until all are in.

pub mod belief;
pub mod bots;
pub mod cpu;
pub mod exact;
pub mod ismcts;
#[cfg(test)]
pub(crate) mod reads;
pub mod rng;
pub mod roster;
pub mod standing;
pub mod trace;
pub mod words;

use std::fmt::{Debug, Display};

pub use bots::{Bot, BotInfo, BotParamInfo, BotSpec, RANDOM, RandomBot, TableFn};
pub use rng::{GameRng, SeedFrom, game_seed, seat_rng};
pub use roster::all_bots;
pub use standing::StandingTrace;

/// Most seats any game supports (dummy seats included); outcomes use fixed arrays of this size.
pub const MAX_SEATS: usize = 8;

/// Every seat's own random stream during one game (the bots' decisions draw from these).
pub type SeatRngs = [GameRng; MAX_SEATS];

/// Who acts next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToMove {
    /// This seat must decide.
    Seat(usize),
    /// The game has ended.
    Over,
}

/// How one game ended: the row every report and statistic is built from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Length in the game's own unit (turns, rounds).
    pub length: u32,
    /// Index into [`Game::end_reasons`].
    pub end_reason: u8,
    /// Final score per seat (savings, pennies, points); unused seats are 0.
    pub scores: [i64; MAX_SEATS],
    /// Bit i set when seat i shares the win; a k-way tie gives each winner 1/k.
    pub winners: u16,
    /// Turn in which seat i was eliminated; 0 when it never was.
    pub eliminated_at: [u32; MAX_SEATS],
}

impl Outcome {
    /// An empty outcome to fill in.
    pub fn new() -> Self {
        Outcome { length: 0, end_reason: 0, scores: [0; MAX_SEATS], winners: 0, eliminated_at: [0; MAX_SEATS] }
    }

    /// Number of seats sharing the win.
    pub fn winner_count(&self) -> u32 {
        self.winners.count_ones()
    }

    /// Win credit of `seat`: 1/k when it is one of k tied winners, else 0.
    pub fn win_share(&self, seat: usize) -> f64 {
        if self.winners & (1 << seat) != 0 { 1.0 / self.winner_count() as f64 } else { 0.0 }
    }

    /// Winners = every seat in `0..seats` holding the highest score.
    pub fn set_winners_by_max_score(&mut self, seats: usize) {
        let best = self.scores[..seats].iter().copied().max().unwrap_or(0);
        self.winners = (0..seats).filter(|&s| self.scores[s] == best).fold(0, |m, s| m | (1 << s));
    }
}

impl Default for Outcome {
    fn default() -> Self {
        Self::new()
    }
}

/// One chart a game adds to its report, described without any drawing library so the
/// report layer can render it (and the game layer stays free of plotting code).
#[derive(Clone, Debug)]
pub enum ChartSpec {
    /// Grouped bars: one group per category, one bar per series, optional 95% CI whiskers.
    Bars {
        /// File stem of the PNG.
        file: String,
        /// Chart title.
        title: String,
        /// X axis label.
        x_label: String,
        /// Y axis label with units.
        y_label: String,
        /// Category names along x.
        categories: Vec<String>,
        /// One entry per series.
        series: Vec<BarSeries>,
        /// Optional horizontal reference line (value, legend label).
        reference: Option<(f64, String)>,
    },
    /// Lines over a numeric x axis, each with an optional band.
    Lines {
        /// File stem of the PNG.
        file: String,
        /// Chart title.
        title: String,
        /// X axis label with units.
        x_label: String,
        /// Y axis label with units.
        y_label: String,
        /// One entry per line.
        series: Vec<LineSeries>,
    },
    /// A histogram over a numeric axis, one or more overlaid series of bins, with optional
    /// vertical markers (mean, median, cap).
    Histogram {
        /// File stem of the PNG.
        file: String,
        /// Chart title.
        title: String,
        /// X axis label with units.
        x_label: String,
        /// Y axis label with units.
        y_label: String,
        /// (legend label, bins) per series.
        series: Vec<(String, Vec<Bin>)>,
        /// Vertical lines: (x, legend label).
        markers: Vec<(f64, String)>,
    },
    /// A grid of cells coloured by value (a sweep over two parameters), each cell labelled.
    Heatmap {
        /// File stem of the PNG.
        file: String,
        /// Chart title.
        title: String,
        /// X axis label (the column parameter).
        x_label: String,
        /// Y axis label (the row parameter).
        y_label: String,
        /// Column labels, left to right.
        columns: Vec<String>,
        /// Row labels, bottom to top.
        rows: Vec<String>,
        /// `cells[row][column]`: the value shown as colour (NaN: no value).
        cells: Vec<Vec<f64>>,
        /// Text written in each cell (value and interval), same shape as `cells`.
        cell_labels: Vec<Vec<String>>,
        /// What the colour means, with units (the colour bar's label).
        value_label: String,
    },
}

impl ChartSpec {
    /// The PNG file stem.
    pub fn file(&self) -> &str {
        match self {
            ChartSpec::Bars { file, .. } | ChartSpec::Lines { file, .. } | ChartSpec::Histogram { file, .. } | ChartSpec::Heatmap { file, .. } => file,
        }
    }

    /// The chart title.
    pub fn title(&self) -> &str {
        match self {
            ChartSpec::Bars { title, .. } | ChartSpec::Lines { title, .. } | ChartSpec::Histogram { title, .. } | ChartSpec::Heatmap { title, .. } => title,
        }
    }
}

/// One bin of a [`ChartSpec::Histogram`].
#[derive(Clone, Copy, Debug)]
pub struct Bin {
    /// Lower edge (inclusive).
    pub lo: f64,
    /// Upper edge (exclusive).
    pub hi: f64,
    /// Height.
    pub value: f64,
}

/// One bar series of a [`ChartSpec::Bars`].
#[derive(Clone, Debug)]
pub struct BarSeries {
    /// Legend label.
    pub name: String,
    /// One value per category.
    pub values: Vec<f64>,
    /// Optional (low, high) 95% interval per category.
    pub ci: Option<Vec<(f64, f64)>>,
}

/// One line of a [`ChartSpec::Lines`].
#[derive(Clone, Debug)]
pub struct LineSeries {
    /// Legend label.
    pub name: String,
    /// (x, y) points in x order.
    pub points: Vec<(f64, f64)>,
    /// Optional (low, high) band per point.
    pub band: Option<Vec<(f64, f64)>>,
}

/// Game-specific metrics gathered while games are played in detail (for reports).
/// They merge in game-index order, so results do not depend on the thread count.
pub trait Metrics<G: Game>: Default + Send {
    /// The file stem of the game's key chart, the one the report's one-picture summary
    /// (`summary.png`) shows beside the win shares and the length ("": the first of
    /// [`Metrics::charts`]).
    const KEY_CHART: &'static str = "";
    /// An empty accumulator for `game` (a game whose figures are known only once it is
    /// built, as a rules file's, names them here). Default: [`Default::default`].
    fn for_game(_game: &G) -> Self {
        Self::default()
    }
    /// Called after every applied action.
    fn after_action(&mut self, game: &G, state: &G::State, seat: usize, action: &G::Action);
    /// Called once when the game is over.
    fn finish(&mut self, game: &G, state: &G::State, outcome: &Outcome);
    /// Adds another accumulator (a later batch of games) into this one.
    fn merge(&mut self, other: Self);
    /// The game's own charts.
    fn charts(&self, games: u64) -> Vec<ChartSpec>;
    /// Extra summary numbers for `summary.json` and the report table.
    fn summary(&self, games: u64) -> Vec<(String, f64)>;
    /// What the figure `name` of [`Metrics::summary`] means: one line in the designer's words
    /// and its unit, shown beside it in every table (`None` for a name the game does not
    /// know; each bundled game describes all of its figures, a test checks it).
    fn meaning(&self, _name: &str) -> Option<Meaning> {
        None
    }
    /// The names of the figures of [`Metrics::summary`] that are a ratio of two sums over
    /// games (right doubts over doubts, plays over rounds, a count over games), in the order
    /// of [`Metrics::ratio_parts`]: their 95% interval is the ratio estimator over games
    /// ([`crate::stats::ratio`]), which counts the events, not the games. The list must not
    /// depend on what was gathered. Empty (the default): every figure by batch means.
    fn ratio_names(&self) -> Vec<String> {
        Vec::new()
    }
    /// The numerator and denominator gathered so far of each ratio of
    /// [`Metrics::ratio_names`], in that order, written over `out` (whole numbers, so the
    /// per-game parts the simulator takes as differences are exact).
    fn ratio_parts(&self, _out: &mut Vec<(i64, i64)>) {}
    /// The accumulated state as JSON, saved by a sharded run (`--shard K/N`) so `playtest
    /// merge` can combine shards; `None` (the default) when the game cannot save it. Merged
    /// shards equal one unsharded run only if `merge` is exact (integer sums, no `f64` sums of
    /// fractions), as the bundled games' metrics are.
    fn save_state(&self) -> Option<serde_json::Value> {
        None
    }
    /// Rebuilds an accumulator saved by [`Metrics::save_state`]; `Err` says why it cannot.
    fn load_state(_state: &serde_json::Value) -> Result<Self, String> {
        Err("this game's report metrics cannot be saved by a sharded run".into())
    }
}

/// What one of a game's own figures means ([`Metrics::meaning`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Meaning {
    /// One line: what is counted, over what.
    pub about: String,
    /// Its unit: [`Meaning::SHARE`] for a share kept as a fraction (shown in %), else the
    /// unit's words ("cards per round", "turns", "win share points").
    pub unit: String,
}

impl Meaning {
    /// The unit of a share (a fraction, shown in %).
    pub const SHARE: &'static str = "%";

    /// A figure described by `about`, in `unit`.
    pub fn new(about: impl Into<String>, unit: impl Into<String>) -> Meaning {
        Meaning { about: about.into(), unit: unit.into() }
    }

    /// A share (a fraction of 1, shown in %) described by `about`.
    pub fn share(about: impl Into<String>) -> Meaning {
        Meaning::new(about, Meaning::SHARE)
    }

    /// Whether the figure is a share.
    pub fn is_share(&self) -> bool {
        self.unit == Meaning::SHARE
    }
}

/// [`Metrics::save_state`] for metrics that derive `Serialize`.
pub fn save_serde<T: serde::Serialize>(metrics: &T) -> Option<serde_json::Value> {
    serde_json::to_value(metrics).ok()
}

/// [`Metrics::load_state`] for metrics that derive `Deserialize`.
pub fn load_serde<T: serde::de::DeserializeOwned>(state: &serde_json::Value) -> Result<T, String> {
    T::deserialize(state).map_err(|e| e.to_string())
}

/// Metrics for a game that adds none.
#[derive(Default)]
pub struct NoMetrics;

impl<G: Game> Metrics<G> for NoMetrics {
    fn after_action(&mut self, _: &G, _: &G::State, _: usize, _: &G::Action) {}
    fn finish(&mut self, _: &G, _: &G::State, _: &Outcome) {}
    fn merge(&mut self, _: Self) {}
    fn charts(&self, _: u64) -> Vec<ChartSpec> {
        Vec::new()
    }
    fn summary(&self, _: u64) -> Vec<(String, f64)> {
        Vec::new()
    }
    fn save_state(&self) -> Option<serde_json::Value> {
        Some(serde_json::Value::Null)
    }
    fn load_state(_: &serde_json::Value) -> Result<Self, String> {
        Ok(NoMetrics)
    }
}

/// Where events go while a game is played: to the trace and to bots that listen.
/// Disabled logs cost one branch per event.
pub struct EventLog<E> {
    enabled: bool,
    events: Vec<E>,
}

impl<E> EventLog<E> {
    /// A log that records when `enabled`.
    pub fn new(enabled: bool) -> Self {
        EventLog { enabled, events: Vec::new() }
    }

    /// Whether events are being recorded; games may skip building costly events otherwise.
    #[inline]
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Records the event built by `make` when the log is enabled.
    #[inline]
    pub fn emit(&mut self, make: impl FnOnce() -> E) {
        if self.enabled {
            self.events.push(make());
        }
    }

    /// [`EventLog::emit`] in rules compiled twice, with and without events (`LOG`: whether
    /// this copy records; the caller picks the copy once from [`EventLog::enabled`]): the
    /// quiet copy holds no event code and no test of the flag.
    #[inline(always)]
    pub fn emit_if<const LOG: bool>(&mut self, make: impl FnOnce() -> E) {
        if LOG {
            self.emit(make);
        }
    }

    /// Takes the recorded events.
    pub fn drain(&mut self) -> std::vec::Drain<'_, E> {
        self.events.drain(..)
    }
}

/// One event of play, with who may see it (a bot only observes what its seat could see).
pub trait GameEvent: Display {
    /// Whether `seat` sees this event at a real table.
    fn visible_to(&self, seat: usize) -> bool;
}

/// A game's static facts, one `const` value per game ([`Game::INFO`]): what it is called,
/// how its games end and are counted, how its bots and the search start, and what the
/// engine may assume of its rules. Read by the registry, reports, the search and the
/// simulator, never changed by a variant (facts a variant can change are methods).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameInfo {
    /// Game id used in variant files (`game = "..."`) and in `variants/<id>/`; written here
    /// only.
    pub id: &'static str,
    /// The game's name as its rulebook writes it ("Pig Farm").
    pub name: &'static str,
    /// End-reason names, indexed by [`Outcome::end_reason`].
    pub end_reasons: &'static [&'static str],
    /// Unit of [`Outcome::length`] ("turns", "rounds").
    pub length_unit: &'static str,
    /// Unit of [`Game::standing`] ("pennies", "points").
    pub standing_unit: &'static str,
    /// The turn cap of the rulebook's game (a variant may set another: [`Game::turn_cap`]).
    pub default_cap: u32,
    /// The bot every seat plays when the variant names none (also the `ismcts` rollout
    /// policy with `rollout=1`).
    pub default_bot: &'static str,
    /// The `ismcts` bot's defaults for this game.
    pub search: SearchDefaults,
    /// Whether a determinization can differ from the real state at all (false for a game
    /// whose only secret is future chance); the harness then expects samples to vary.
    pub hidden_state: bool,
    /// Whether seats can be eliminated (adds survival statistics).
    pub has_elimination: bool,
    /// Whether [`Game::deal_into`] resets a used state in place (set by games whose state
    /// owns buffers or is large: the simulator then keeps one state per batch of games and
    /// deals into it, with no allocation or copy of a fresh state per game).
    pub deals_in_place: bool,
    /// Whether the rules ever draw from the chance stream they are handed (`deal`,
    /// `apply`). A game without chance says `false`, and the simulator's quick games then do
    /// not seed that stream (the same games, since nothing is drawn from it; the tests
    /// compare quick games with checked ones, which seed every stream).
    pub draws_chance: bool,
}

impl GameInfo {
    /// The facts a game usually leaves as they are, for `..GameInfo::DEFAULTS` after the
    /// ones it must write (id, name, end reasons, units, cap, default bot): the engine's
    /// search defaults, hidden state, no elimination, a fresh state per deal, chance drawn.
    pub const DEFAULTS: GameInfo = GameInfo {
        id: "",
        name: "",
        end_reasons: &[],
        length_unit: "turns",
        standing_unit: "points",
        default_cap: 0,
        default_bot: bots::RANDOM,
        search: SearchDefaults::ENGINE,
        hidden_state: true,
        has_elimination: false,
        deals_in_place: false,
        draws_chance: true,
    };

    /// The bot of the `ismcts` seat's own part of a search ([`SearchDefaults::policy`],
    /// else the default bot).
    pub const fn search_policy(&self) -> &'static str {
        match self.search.policy {
            Some(bot) => bot,
            None => self.default_bot,
        }
    }
}

/// The `ismcts` bot's defaults for one game (each is also a bot parameter a seat can set).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchDefaults {
    /// Default `depth`: actions per search iteration before it is cut off and scored by
    /// [`Game::standing`] (0: play every iteration to the end). 20 measured best across the
    /// games (docs/skill.md); a game whose standing misleads in mid-game sets its own.
    pub depth: u32,
    /// Default `rollout` policy (0: uniformly random, 1: the game's default bot), set by a
    /// game whose default bot plays rollouts measurably better.
    pub rollout: u32,
    /// Default `opponents` (0: searched in the tree, each maximising its own share; 1:
    /// played by the game's default bot, an opponent model), set by a game where modelling
    /// the table measured stronger (docs/skill.md).
    pub opponents: u32,
    /// The bot that plays the `ismcts` seat's own part of a search with `policy=1` (its
    /// default): the root's first try, the choice the search trusts (`trust`) and the seat's
    /// own moves in default-bot rollouts; `None`: the default bot. The opponents stay the
    /// default bot (the model of the table). A game names a stronger hand-written bot here
    /// when its default is a simple, exactly defined one (docs/skill.md).
    pub policy: Option<&'static str>,
}

impl SearchDefaults {
    /// The engine's defaults: depth 20, random rollouts, opponents searched, the default
    /// bot as the policy.
    pub const ENGINE: SearchDefaults = SearchDefaults { depth: 20, rollout: 0, opponents: 0, policy: None };
    /// What most games measured best: depth 20, rollouts and opponents played by the
    /// default bot.
    pub const MODELLED: SearchDefaults = SearchDefaults { depth: 20, rollout: 1, opponents: 1, policy: None };
}

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
    /// The game's own report metrics ([`NoMetrics`] for a game with none).
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
    /// on it ([`bots::Bot::action_probability`]). Default: the whole action is public.
    fn public_action(&self, action: &Self::Action) -> Self::Action {
        *action
    }
    /// What the table sees of the deciding seat taking `action` at `view` ([`Seen`]): equal
    /// for two decisions, at two states, that the table cannot tell apart, and the same for
    /// `action` and `public_action(action)`. Opponent models are judged on it
    /// ([`bots::Bot::action_probability`]). Default: the public action alone; a game whose
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
    /// game, see [`all_bots`]. Always look bots up through [`all_bots`]. Default: none.
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
    /// revealed) is re-sampled from `rng`, so search bots plan on samples (see [`Sampler`])
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
    /// models instead ([`belief`]) and skips this. Default: nothing.
    fn honour_default_model(&self, _state: &Self::State, _seat: usize, _rng: &mut GameRng, _out: &mut Self::State) {}
    /// Re-deals `out`, an older sample that may no longer fit what `seat` sees in `state` (a
    /// draw of its own went otherwise in it), into one that does, keeping what it can of
    /// `out`'s other hands: a search that weighs its samples by what the table did with
    /// them ([`belief`]) keeps that evidence past its own draws. Reads what `seat` sees only,
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

/// What a searching bot gets of the table besides its view: samples of the full state
/// consistent with what its seat has seen ([`Game::determinize`]). The real state stays
/// private to the engine, so a bot cannot cheat by construction.
pub struct Sampler<'s, G: Game> {
    state: &'s G::State,
    seat: usize,
}

impl<'s, G: Game> Sampler<'s, G> {
    /// The sampler of `seat` deciding at `state` (engine only).
    #[inline(always)]
    pub(crate) fn new(state: &'s G::State, seat: usize) -> Self {
        Sampler { state, seat }
    }

    /// The deciding seat.
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// Writes a fresh determinization into `out` (an earlier sample, reused), with the
    /// hints of a table of default bots ([`Game::honour_default_model`]).
    #[inline]
    pub fn sample_into(&self, game: &G, rng: &mut GameRng, out: &mut G::State) {
        game.determinize(self.state, self.seat, rng, out);
        game.honour_default_model(self.state, self.seat, rng, out);
    }

    /// A fresh determinization (allocates; [`Sampler::sample_into`] reuses a buffer).
    pub fn sample(&self, game: &G, rng: &mut GameRng) -> G::State {
        let mut out = self.state.clone();
        self.sample_into(game, rng, &mut out);
        out
    }

    /// Writes into `out` a determinization from the seat's view and the public record alone
    /// ([`Game::determinize`], no default-bot hints): for a search that weighs its samples
    /// by the models it infers ([`belief`]).
    #[inline]
    pub fn deal_into(&self, game: &G, rng: &mut GameRng, out: &mut G::State) {
        game.determinize(self.state, self.seat, rng, out);
    }

    /// Re-deals `out`, an older sample, near itself to fit the seat's view ([`Game::mend`]);
    /// false when the game keeps nothing of old samples.
    #[inline]
    pub fn mend(&self, game: &G, rng: &mut GameRng, out: &mut G::State) -> bool {
        game.mend(self.state, self.seat, rng, out)
    }

    /// [`Sampler::deal_into`] into a new state (allocates).
    pub fn deal(&self, game: &G, rng: &mut GameRng) -> G::State {
        let mut out = self.state.clone();
        self.deal_into(game, rng, &mut out);
        out
    }
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

/// Options of one played game.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlayOptions {
    /// Check invariants and action legality after every step (tests, `check`).
    pub checked: bool,
}

/// A broken rule found in checked mode.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// Step (action count) at which it was found.
    pub step: u64,
    /// What broke.
    pub what: String,
}

/// The bots around the table as the driver calls them: a line-up of boxed bots of any
/// kinds, or a [`Uniform`] line-up of one kind, which the driver calls without dynamic dispatch.
pub trait Lineup<G: Game> {
    /// Number of bots (one per acting seat).
    fn len(&self) -> usize;
    /// Whether no seat has a bot.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Whether any bot wants events.
    fn listens(&self) -> bool;
    /// Whether any bot may draw from its seat's random stream ([`Bot::draws`]).
    fn draws(&self) -> bool {
        true
    }
    /// Called before each game.
    fn new_game(&mut self, game: &G);
    /// `seat`'s bot chooses one legal action (searching bots may draw samples from `sampler`).
    fn decide(&mut self, seat: usize, game: &G, view: &G::View<'_>, sampler: &Sampler<'_, G>, rng: &mut GameRng) -> G::Action;
    /// `seat`'s bot name (for messages).
    fn name(&self, seat: usize) -> &str;
    /// Hands an event to every listening bot whose seat can see it.
    fn observe(&mut self, event: &G::Event);
    /// Whether any bot watches the other seats' decisions ([`Bot::watches`]).
    fn watches(&self) -> bool {
        false
    }
    /// Hands `seat`'s decision at `state` (its public part, [`Game::public_action`]) to every
    /// other seat's watching bot, with a sampler of `state` from that bot's own seat.
    fn observe_decision(&mut self, _game: &G, _state: &G::State, _seat: usize, _action: &G::Action) {}
}

impl<G: Game> Lineup<G> for [Box<dyn Bot<G>>] {
    fn len(&self) -> usize {
        <[_]>::len(self)
    }
    fn listens(&self) -> bool {
        self.iter().any(|b| b.listens())
    }
    fn draws(&self) -> bool {
        self.iter().any(|b| b.draws())
    }
    fn new_game(&mut self, game: &G) {
        for (seat, bot) in self.iter_mut().enumerate() {
            bot.new_game(game, seat);
        }
    }
    #[inline]
    fn decide(&mut self, seat: usize, game: &G, view: &G::View<'_>, sampler: &Sampler<'_, G>, rng: &mut GameRng) -> G::Action {
        self[seat].decide_with(game, view, sampler, rng)
    }
    fn name(&self, seat: usize) -> &str {
        self[seat].name()
    }
    fn observe(&mut self, event: &G::Event) {
        for (seat, bot) in self.iter_mut().enumerate() {
            if bot.listens() && event.visible_to(seat) {
                bot.observe(seat, event);
            }
        }
    }
    fn watches(&self) -> bool {
        self.iter().any(|b| b.watches())
    }
    fn observe_decision(&mut self, game: &G, state: &G::State, seat: usize, action: &G::Action) {
        // What the table sees of it, read here where the real state is at hand.
        let seen = game.seen(&game.view(state, seat), action);
        for (other, bot) in self.iter_mut().enumerate() {
            if other != seat && bot.watches() {
                bot.observe_decision(game, seat, &seen, &Sampler::new(state, other));
            }
        }
    }
}

impl<G: Game> Lineup<G> for Vec<Box<dyn Bot<G>>> {
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn listens(&self) -> bool {
        self.as_slice().listens()
    }
    fn draws(&self) -> bool {
        self.as_slice().draws()
    }
    fn new_game(&mut self, game: &G) {
        self.as_mut_slice().new_game(game)
    }
    #[inline]
    fn decide(&mut self, seat: usize, game: &G, view: &G::View<'_>, sampler: &Sampler<'_, G>, rng: &mut GameRng) -> G::Action {
        self.as_mut_slice().decide(seat, game, view, sampler, rng)
    }
    fn name(&self, seat: usize) -> &str {
        self[seat].name()
    }
    fn observe(&mut self, event: &G::Event) {
        self.as_mut_slice().observe(event)
    }
    fn watches(&self) -> bool {
        self.as_slice().watches()
    }
    fn observe_decision(&mut self, game: &G, state: &G::State, seat: usize, action: &G::Action) {
        self.as_mut_slice().observe_decision(game, state, seat, action)
    }
}

/// Every seat played by one bot kind `B`, called without dynamic dispatch (see
/// [`BotInfo::uniform`]): the same choices from the same streams as the boxed bots.
pub struct Uniform<B> {
    bots: Vec<B>,
}

impl<B> Uniform<B> {
    /// One bot per acting seat, in seat order.
    pub fn new(bots: Vec<B>) -> Self {
        Uniform { bots }
    }
}

impl<G: Game, B: Bot<G> + 'static> Lineup<G> for Uniform<B> {
    fn len(&self) -> usize {
        self.bots.len()
    }
    fn listens(&self) -> bool {
        self.bots.iter().any(|b| b.listens())
    }
    fn draws(&self) -> bool {
        self.bots.iter().any(|b| b.draws())
    }
    fn new_game(&mut self, game: &G) {
        for (seat, bot) in self.bots.iter_mut().enumerate() {
            bot.new_game(game, seat);
        }
    }
    #[inline(always)]
    fn decide(&mut self, seat: usize, game: &G, view: &G::View<'_>, sampler: &Sampler<'_, G>, rng: &mut GameRng) -> G::Action {
        self.bots[seat].decide_with(game, view, sampler, rng)
    }
    fn name(&self, seat: usize) -> &str {
        self.bots[seat].name()
    }
    fn observe(&mut self, event: &G::Event) {
        for (seat, bot) in self.bots.iter_mut().enumerate() {
            if bot.listens() && event.visible_to(seat) {
                bot.observe(seat, event);
            }
        }
    }
}

/// The bots of a table, ready to play game after game: any [`Lineup`], behind one dynamic
/// call per game (rather than one per decision).
pub trait Table<G: Game>: Send {
    /// Plays one game, as [`play`].
    fn play(
        &mut self,
        game: &G,
        seed: u64,
        options: PlayOptions,
        metrics: Option<&mut G::Metrics>,
        trace: Option<&mut dyn FnMut(&str)>,
    ) -> Result<Outcome, Violation>;
    /// Plays one game as [`play`] without metrics or trace, dealing into `scratch` (left
    /// holding the finished game's state) when the game deals in place
    /// ([`Game::DEALS_IN_PLACE`]): the simulator keeps one per batch. The same game, the
    /// same outcome.
    fn play_reusing(&mut self, game: &G, seed: u64, options: PlayOptions, scratch: &mut Option<G::State>) -> Result<Outcome, Violation>;
    /// Plays one game in detail, as [`play_watched`]: the game's metrics and every seat's
    /// standing turn by turn.
    fn play_watched(
        &mut self,
        game: &G,
        seed: u64,
        options: PlayOptions,
        metrics: &mut G::Metrics,
        standings: &mut StandingTrace,
    ) -> Result<Outcome, Violation>;
}

impl<G: Game, L: Lineup<G> + Send> Table<G> for L {
    fn play(
        &mut self,
        game: &G,
        seed: u64,
        options: PlayOptions,
        metrics: Option<&mut G::Metrics>,
        trace: Option<&mut dyn FnMut(&str)>,
    ) -> Result<Outcome, Violation> {
        play(game, self, seed, options, metrics, trace)
    }
    fn play_reusing(&mut self, game: &G, seed: u64, options: PlayOptions, scratch: &mut Option<G::State>) -> Result<Outcome, Violation> {
        if G::INFO.deals_in_place && !options.checked && !self.listens() {
            #[cfg(target_arch = "x86_64")]
            if cpu::has_bit_instructions() {
                // SAFETY: the processor has every feature `play_quick_into_bits` is compiled
                // with (`cpu::has_bit_instructions` asked it at run time).
                return Ok(unsafe { play_quick_into_bits(game, self, seed, scratch) });
            }
            return Ok(play_quick_into(game, self, seed, scratch));
        }
        play(game, self, seed, options, None, None)
    }
    fn play_watched(
        &mut self,
        game: &G,
        seed: u64,
        options: PlayOptions,
        metrics: &mut G::Metrics,
        standings: &mut StandingTrace,
    ) -> Result<Outcome, Violation> {
        play_watched(game, self, seed, options, metrics, standings)
    }
}

/// Plays one whole game from `seed` with one bot per acting seat.
///
/// Chance uses one RNG stream and every seat's bot its own, all derived from `seed`, so a
/// change of one seat's bot does not reshuffle the deck (common random numbers).
pub fn play<G: Game, L: Lineup<G> + ?Sized>(
    game: &G,
    bots: &mut L,
    seed: u64,
    options: PlayOptions,
    metrics: Option<&mut G::Metrics>,
    trace: Option<&mut dyn FnMut(&str)>,
) -> Result<Outcome, Violation> {
    if !options.checked && metrics.is_none() && trace.is_none() && !bots.listens() {
        #[cfg(target_arch = "x86_64")]
        if cpu::has_bit_instructions() {
            // SAFETY: the processor has every feature `play_quick_bits` is compiled with
            // (`cpu::has_bit_instructions` asked it at run time).
            return Ok(unsafe { play_quick_bits(game, bots, seed) });
        }
        return Ok(play_quick(game, bots, seed));
    }
    play_detailed(game, bots, seed, options, metrics, None, trace)
}

/// [`play`] with the game's metrics and every seat's standing recorded into `standings` after
/// every action (what reports gather): the same game, the same outcome.
pub fn play_watched<G: Game, L: Lineup<G> + ?Sized>(
    game: &G,
    bots: &mut L,
    seed: u64,
    options: PlayOptions,
    metrics: &mut G::Metrics,
    standings: &mut StandingTrace,
) -> Result<Outcome, Violation> {
    play_detailed(game, bots, seed, options, Some(metrics), Some(standings), None)
}

fn play_detailed<G: Game, L: Lineup<G> + ?Sized>(
    game: &G,
    bots: &mut L,
    seed: u64,
    options: PlayOptions,
    mut metrics: Option<&mut G::Metrics>,
    mut standings: Option<&mut StandingTrace>,
    mut trace: Option<&mut dyn FnMut(&str)>,
) -> Result<Outcome, Violation> {
    let listening = bots.listens();
    let watching = bots.watches();
    let (mut rng, mut seat_rngs) = streams(seed, bots.len());
    let mut log = EventLog::new(listening || trace.is_some());
    let mut state = game.deal(&mut rng, &mut log);
    if let Some(s) = standings.as_deref_mut() {
        s.start(game, &state);
    }
    bots.new_game(game);
    let mut step: u64 = 0;
    loop {
        if log.enabled() {
            deliver(bots, &mut log, &mut trace);
        }
        let seat = match game.to_move(&state) {
            ToMove::Over => break,
            ToMove::Seat(seat) => seat,
        };
        let action = {
            let view = game.view(&state, seat);
            let action = bots.decide(seat, game, &view, &Sampler::new(&state, seat), &mut seat_rngs[seat]);
            if options.checked {
                if !game.seat_active(&state, seat) {
                    return Err(Violation { step, what: format!("seat {seat} was asked to act but is not in the game") });
                }
                if !game.is_legal(&view, &action) {
                    return Err(Violation { step, what: format!("seat {seat} ({}) chose an illegal action {action:?}", bots.name(seat)) });
                }
            }
            action
        };
        if watching {
            bots.observe_decision(game, &state, seat, &game.public_action(&action));
        }
        game.apply(&mut state, seat, action, &mut rng, &mut log);
        if let Some(m) = metrics.as_deref_mut() {
            m.after_action(game, &state, seat, &action);
        }
        if let Some(s) = standings.as_deref_mut() {
            s.observe(game, &state);
        }
        step += 1;
        if options.checked {
            game.check_invariants(&state).map_err(|what| Violation { step, what })?;
        }
    }
    if let Some(s) = standings {
        s.finish(game, &state);
    }
    let outcome = game.outcome(&state);
    if let Some(m) = metrics {
        m.finish(game, &state, &outcome);
    }
    if let Some(t) = trace {
        t(&game.describe(&state));
    }
    Ok(outcome)
}

/// The chance stream of the game with `seed` and the private streams of its first `seats`
/// seats (only seats with a bot get a seeded stream: seeding costs more than the copy).
#[inline]
pub(crate) fn streams(seed: u64, seats: usize) -> (GameRng, [GameRng; MAX_SEATS]) {
    let rng = GameRng::seed_from(seed);
    let mut seat_rngs: [GameRng; MAX_SEATS] = std::array::from_fn(|_| rng.clone());
    for (seat, slot) in seat_rngs.iter_mut().enumerate().take(seats) {
        *slot = seat_rng(seed, seat);
    }
    (rng, seat_rngs)
}

/// The streams of [`play_quick`], written into its own variables (no copy of the array):
/// as [`streams`], except that a stream nobody draws from is not seeded. When no bot draws
/// ([`Lineup::draws`]) the seats get copies of the chance stream instead of their own;
/// when the rules draw no chance ([`Game::DRAWS_CHANCE`]) the chance stream is a copy of
/// another. Neither is ever drawn from, so the game is the same.
macro_rules! quick_streams {
    ($game:ty, $seed:expr, $bots:expr, $rng:ident, $seat_rngs:ident) => {
        let seed = $seed;
        let draws = $bots.draws();
        let mut $rng = if <$game>::INFO.draws_chance || !draws { GameRng::seed_from(seed) } else { seat_rng(seed, 0) };
        let mut $seat_rngs: [GameRng; MAX_SEATS] =
            [$rng.clone(), $rng.clone(), $rng.clone(), $rng.clone(), $rng.clone(), $rng.clone(), $rng.clone(), $rng.clone()];
        if draws {
            // A plain count (no iterator adapters): this runs for every seat of every game.
            let seats = $bots.len().min(MAX_SEATS);
            let mut seat = usize::from(!<$game>::INFO.draws_chance);
            while seat < seats {
                $seat_rngs[seat] = seat_rng(seed, seat);
                seat += 1;
            }
        }
    };
}

/// [`play_quick`] compiled with the bit-manipulation instructions (POPCNT, BMI1/2, LZCNT: every
/// x86-64 processor since about 2013), for processors that have them ([`cpu`]): the rules and
/// bots inlined into the loop count and find set bits in one instruction each instead of a
/// baseline x86-64 sequence (`count_ones` is a dozen instructions without POPCNT). The same
/// code, the same results: only the instructions differ. (AVX2 was tried as well: wider
/// auto-vectorised loops cost Match Patch's short scans 3% more instructions.)
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
fn play_quick_bits<G: Game, L: Lineup<G> + ?Sized>(game: &G, bots: &mut L, seed: u64) -> Outcome {
    play_quick(game, bots, seed)
}

/// [`play_quick_into`] compiled with the bit-manipulation instructions, as [`play_quick_bits`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
fn play_quick_into_bits<G: Game, L: Lineup<G> + ?Sized>(game: &G, bots: &mut L, seed: u64, scratch: &mut Option<G::State>) -> Outcome {
    play_quick_into(game, bots, seed, scratch)
}

/// [`Game::play_out`]'s default: a dealt game played to its end, decision by decision, with
/// a log that records nothing (it is the quick loop's own: the compiler knows that it never
/// records, and no deal saw it).
#[inline(always)]
pub fn play_decisions<G: Game, L: Lineup<G> + ?Sized>(game: &G, state: &mut G::State, bots: &mut L, rng: &mut GameRng, seat_rngs: &mut [GameRng; MAX_SEATS]) {
    let mut log = EventLog::new(false);
    while let ToMove::Seat(seat) = game.to_move(state) {
        let action = ask(game, state, seat, bots, seat_rngs);
        game.apply(state, seat, action, rng, &mut log);
    }
}

/// `seat`'s decision in `state`, asked as [`play_decisions`] asks it (its view, a sampler of
/// the table, its own stream): for a game's own [`Game::play_out`].
#[inline(always)]
pub fn ask<G: Game, L: Lineup<G> + ?Sized>(game: &G, state: &G::State, seat: usize, bots: &mut L, seat_rngs: &mut [GameRng; MAX_SEATS]) -> G::Action {
    bots.decide(seat, game, &game.view(state, seat), &Sampler::new(state, seat), &mut seat_rngs[seat])
}

/// Test support for a bot that says it never draws ([`Bot::draws`] false, so a table of it
/// gets no seat streams): `bots` (one per seat) play `g`'s games from seeds `0..games`, and
/// `Err` names the first decision after which the stream its bot was handed had moved.
#[cfg(test)]
pub(crate) fn check_never_draws<G: Game>(g: &G, bots: &mut [Box<dyn Bot<G>>], games: u64) -> Result<(), String> {
    if let Some(bot) = bots.iter().find(|b| b.draws()) {
        return Err(format!("{} says it draws", bot.name()));
    }
    for seed in 0..games {
        let mut rng = GameRng::seed_from(seed);
        let mut s = g.deal(&mut rng, &mut EventLog::new(false));
        for (seat, bot) in bots.iter_mut().enumerate() {
            bot.new_game(g, seat);
        }
        let mut stream = GameRng::seed_from(!seed);
        while let ToMove::Seat(seat) = g.to_move(&s) {
            let before = stream.clone();
            let action = bots[seat].decide(g, &g.view(&s, seat), &mut stream);
            if stream != before {
                return Err(format!("seed {seed}: {} drew from its stream", bots[seat].name()));
            }
            g.apply(&mut s, seat, action, &mut rng, &mut EventLog::new(false));
        }
    }
    Ok(())
}

/// Test support for a game's own [`Game::play_out`]: a dealt game from `seed`'s streams,
/// played `steps` decisions on by the plain loop (`a` and `b` asked the same questions, which
/// must give the same answers), then to its end by `play_out` with `a` and by
/// [`play_decisions`] with `b` from the same point. `Err` names the first difference: the
/// game not over, the final state, or any stream afterwards.
#[cfg(test)]
pub(crate) fn check_play_out<G: Game, L: Lineup<G> + ?Sized>(g: &G, a: &mut L, b: &mut L, seed: u64, steps: usize) -> Result<(), String> {
    let (mut rng, mut seat_rngs) = streams(seed, MAX_SEATS);
    let mut s = g.deal(&mut rng, &mut EventLog::new(false));
    a.new_game(g);
    b.new_game(g);
    let mut log = EventLog::new(false);
    for _ in 0..steps {
        let ToMove::Seat(seat) = g.to_move(&s) else { break };
        let mut stream = seat_rngs[seat].clone();
        let action = a.decide(seat, g, &g.view(&s, seat), &Sampler::new(&s, seat), &mut seat_rngs[seat]);
        let again = b.decide(seat, g, &g.view(&s, seat), &Sampler::new(&s, seat), &mut stream);
        if action != again {
            return Err(format!("seed {seed}: two bots answered {action:?} and {again:?}"));
        }
        g.apply(&mut s, seat, action, &mut rng, &mut log);
    }
    let (mut s2, mut rng2, mut seat_rngs2) = (s.clone(), rng.clone(), seat_rngs.clone());
    g.play_out(&mut s, a, &mut rng, &mut seat_rngs);
    play_decisions(g, &mut s2, b, &mut rng2, &mut seat_rngs2);
    if !matches!(g.to_move(&s), ToMove::Over) {
        return Err(format!("seed {seed}: play_out stopped before the end"));
    }
    if format!("{s:?}") != format!("{s2:?}") {
        return Err(format!("seed {seed}: play_out left\n{s:?}\nthe plain loop\n{s2:?}"));
    }
    if format!("{rng:?} {seat_rngs:?}") != format!("{rng2:?} {seat_rngs2:?}") {
        return Err(format!("seed {seed}: the streams differ after play_out"));
    }
    Ok(())
}

/// [`play`] when nothing watches the game (no checks, metrics, trace or listening bot): the
/// simulator's hot loop, the same game from the same streams with none of the per-decision
/// tests of what to record.
#[inline(always)]
fn play_quick<G: Game, L: Lineup<G> + ?Sized>(game: &G, bots: &mut L, seed: u64) -> Outcome {
    quick_streams!(G, seed, bots, rng, seat_rngs);
    let mut state = game.deal(&mut rng, &mut EventLog::new(false));
    bots.new_game(game);
    game.play_out(&mut state, bots, &mut rng, &mut seat_rngs);
    game.outcome(&state)
}

/// [`play_quick`] dealing into `scratch` ([`Game::deal_into`]) rather than a fresh state.
#[inline(always)]
fn play_quick_into<G: Game, L: Lineup<G> + ?Sized>(game: &G, bots: &mut L, seed: u64, scratch: &mut Option<G::State>) -> Outcome {
    quick_streams!(G, seed, bots, rng, seat_rngs);
    let state = match scratch {
        Some(state) => {
            game.deal_into(&mut rng, &mut EventLog::new(false), state);
            state
        }
        None => scratch.insert(game.deal(&mut rng, &mut EventLog::new(false))),
    };
    bots.new_game(game);
    game.play_out(state, bots, &mut rng, &mut seat_rngs);
    game.outcome(state)
}

pub(crate) fn deliver<G: Game, L: Lineup<G> + ?Sized>(bots: &mut L, log: &mut EventLog<G::Event>, trace: &mut Option<&mut dyn FnMut(&str)>) {
    for event in log.drain() {
        if let Some(t) = trace.as_deref_mut() {
            t(&event.to_string());
        }
        bots.observe(&event);
    }
}
