//! The game handle: the one place where a variant's game type is chosen. [`handle`] builds a
//! [`GameHandle`] from a variant; the commands are plain functions over `&dyn GameHandle`
//! and [`SeatedGame`] (a game with its bots seated), so each is compiled once, not once per
//! game. Only what must be fast, playing a batch of games, is monomorphised per game, behind
//! one call per batch (never per game or action).

use std::any::Any;

use crate::engine::bots::BotSpecError;
use crate::engine::exact::ExactReport;
use crate::engine::trace::{Line, ReplayError, Replayed};
use crate::engine::{BotParamInfo, BotSpec, ChartSpec, ClaimCheck, Game, Meaning, Metrics, Outcome, PlayOptions, StandingTrace, all_bots, game_seed};
use crate::error::{Error, Location, VariantError};
use crate::sim::harness::{HarnessFailure, HarnessPlan};
use crate::sim::session::{PlayTable, Session};
use crate::sim::watch::{WatchPlan, Watched};
use crate::sim::{GameRow, RowSink, RunConfig, SeatPlan};
use crate::stats::interval::SUB_BATCH;
use crate::stats::rotation::RotationTally;
use crate::stats::{StandingSummary, StandingTally, Tally};
use crate::variant::Variant;

use super::{GAME_IDS, GameVisitor, Registered, seat_plans, visit};

/// A game's static facts and the names of its own figures: what summaries, catalogues and
/// tables read of a game without knowing its type.
#[derive(Clone, Debug)]
pub struct GameFacts {
    /// Game id (`pig-farm`).
    pub id: &'static str,
    /// Seats at the table, dummy seats included.
    pub seats: usize,
    /// Seats that decide (a bot each).
    pub acting_seats: usize,
    /// Why a game can end, in outcome order.
    pub end_reasons: &'static [&'static str],
    /// The unit of a game's length (turns, rounds).
    pub length_unit: &'static str,
    /// The unit of a seat's standing (pennies, points).
    pub standing_unit: &'static str,
    /// Teams of seats (empty or one team: every seat for itself).
    pub teams: Vec<Vec<usize>>,
    /// Whether a seat can be eliminated.
    pub has_elimination: bool,
    /// The game's own figures ([`Metrics::summary`] order) with what each means.
    pub own_figures: Vec<(String, Option<Meaning>)>,
    /// The file stem of the game's key chart ([`Metrics::KEY_CHART`]; "": the first chart).
    pub key_chart: &'static str,
}

impl GameFacts {
    /// The facts of `game`.
    pub fn of<G: Game>(game: &G) -> GameFacts {
        let own = G::Metrics::default();
        let own_figures = own.summary(0).into_iter().map(|(name, _)| (name.clone(), own.meaning(&name))).collect();
        GameFacts {
            id: game.id(),
            seats: game.seats(),
            acting_seats: game.acting_seats(),
            end_reasons: game.end_reasons(),
            length_unit: game.length_unit(),
            standing_unit: game.standing_unit(),
            teams: game.teams(),
            has_elimination: game.has_elimination(),
            own_figures,
            key_chart: <G::Metrics as Metrics<G>>::KEY_CHART,
        }
    }
}

/// A game's own metrics with the type erased: gathered by a batch, merged in index order,
/// read as figures and charts.
pub trait AnyMetrics: Send {
    /// The figures over `games` games ([`Metrics::summary`]).
    fn summary(&self, games: u64) -> Vec<(String, f64)>;
    /// The game's own charts ([`Metrics::charts`]).
    fn charts(&self, games: u64) -> Vec<ChartSpec>;
    /// An empty accumulator of the same game.
    fn empty(&self) -> Box<dyn AnyMetrics>;
    /// Adds a later batch's metrics of the same game ([`Metrics::merge`]).
    fn merge(&mut self, other: Box<dyn AnyMetrics>);
    /// The accumulator itself, for a caller that knows the game type.
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
    /// The accumulated state as JSON for a shard's state file ([`Metrics::save_state`]);
    /// `None` when the game cannot save it.
    fn save_state(&self) -> Option<serde_json::Value>;
    /// An accumulator of the same game rebuilt from a saved state ([`Metrics::load_state`]).
    fn load_state(&self, saved: &serde_json::Value) -> Result<Box<dyn AnyMetrics>, String>;
}

/// The metrics of game `G` behind [`AnyMetrics`].
pub struct MetricsOf<G: Game>(pub G::Metrics);

impl<G: Game> AnyMetrics for MetricsOf<G> {
    fn summary(&self, games: u64) -> Vec<(String, f64)> {
        self.0.summary(games)
    }
    fn charts(&self, games: u64) -> Vec<ChartSpec> {
        self.0.charts(games)
    }
    fn empty(&self) -> Box<dyn AnyMetrics> {
        Box::new(MetricsOf::<G>(G::Metrics::default()))
    }
    fn merge(&mut self, other: Box<dyn AnyMetrics>) {
        let other = other.into_any().downcast::<MetricsOf<G>>().expect("metrics of one game merge only with the same game's");
        Metrics::merge(&mut self.0, other.0);
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
    fn save_state(&self) -> Option<serde_json::Value> {
        self.0.save_state()
    }
    fn load_state(&self, saved: &serde_json::Value) -> Result<Box<dyn AnyMetrics>, String> {
        Ok(Box::new(MetricsOf::<G>(G::Metrics::load_state(saved)?)))
    }
}

/// Everything a run of the simulator produced ([`crate::sim::RunResult`] with the game's
/// metrics type-erased): what `simulate`, `report`, `ladder`, `bench` and shards read.
pub struct Run {
    /// Aggregated figures.
    pub tally: Tally,
    /// The game's own metrics (empty unless detailed).
    pub metrics: Box<dyn AnyMetrics>,
    /// Lead changes, drama, margin and standings by turn (empty unless detailed).
    pub standing: StandingTally,
    /// Per-game rows (empty unless kept).
    pub rows: Vec<GameRow>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Per-seat and per-bot sums of a rotated run (`None` unless rotated).
    pub rotation: Option<RotationTally>,
    /// Per figure of the game's own, its value over each sub-batch with the games: the
    /// units of its batch-means interval (empty unless detailed).
    pub extras: Vec<Vec<(f64, f64)>>,
}

impl Run {
    /// The run of game `G`, its metrics erased.
    fn of<G: Game>(r: crate::sim::RunResult<G>) -> Run {
        let crate::sim::RunResult { tally, metrics, standing, rows, seconds, rotation, extras } = r;
        Run { tally, metrics: Box::new(MetricsOf::<G>(metrics)), standing, rows, seconds, rotation, extras }
    }
}

/// How every game of a batch is played.
#[derive(Clone, Copy, Debug)]
pub struct PlayPlan {
    /// Master seed.
    pub seed: u64,
    /// Check invariants and legality after every action.
    pub checked: bool,
    /// Gather the game's own metrics.
    pub detailed: bool,
    /// Keep one row per game.
    pub keep_rows: bool,
    /// Seat rotation (`--rotate`, or `rotate = true` in the variant): games come in blocks of
    /// one game per acting seat from the block's seed, the line-up turned by one seat each
    /// (as `simulate --rotate`); per-game values are averaged over each block, which is the
    /// unit of every interval.
    pub rotate: bool,
}

impl PlayPlan {
    /// Games per batch for a line-up of `acting` bots: the simulator's [`crate::sim::BATCH`],
    /// cut down to whole rotation blocks when rotating (so no block straddles two batches).
    pub fn batch_size(&self, acting: usize) -> u64 {
        if self.rotate && acting > 1 { crate::sim::BATCH - crate::sim::BATCH % acting as u64 } else { crate::sim::BATCH }
    }

    /// Games per rotation block (1 without rotation).
    pub fn block(&self, acting: usize) -> u64 {
        if self.rotate { acting.max(1) as u64 } else { 1 }
    }
}

/// The per-sub-batch values of the game's own figures, then of the standing figures:
/// (games in the sub-batch, one value per figure), in game order.
pub type SubBatchValues = Vec<(f64, Vec<f64>)>;

/// Games per sub-batch of the batch-means interval ([`SUB_BATCH`], cut down to whole rotation
/// blocks of `block` games).
pub fn sub_batch_size(block: u64) -> u64 {
    (SUB_BATCH - SUB_BATCH % block.max(1)).max(block.max(1))
}

/// The standing figures' values in [`StandingSummary::estimates`] order (per-batch values).
pub fn standing_values(s: &StandingSummary) -> Vec<f64> {
    s.estimates().iter().map(|e| e.value).collect()
}

/// What a batch of games measured beyond each game's outcome.
pub struct PlayedBatch {
    /// The game's own metrics (empty unless detailed).
    pub metrics: Box<dyn AnyMetrics>,
    /// The standing figures (empty unless detailed).
    pub standing: StandingTally,
    /// Per sub-batch of [`sub_batch_size`] games, the values of the game's own figures, then
    /// of the standing figures (empty unless detailed).
    pub subs: SubBatchValues,
}

/// A game with its bots seated: what an arm of a run plays. The batch loop behind
/// [`SeatedGame::play_batch`] is compiled per game; everything around it is not.
pub trait SeatedGame: Sync {
    /// The game's facts.
    fn facts(&self) -> &GameFacts;
    /// The bot label of every acting seat.
    fn labels(&self) -> Vec<String>;
    /// The bot label of every scored seat (`dummy` for seats that never act).
    fn seat_labels(&self) -> Vec<String> {
        let labels = self.labels();
        (0..self.facts().seats).map(|s| labels.get(s).cloned().unwrap_or_else(|| "dummy".into())).collect()
    }
    /// Bots seated (one per acting seat).
    fn acting(&self) -> usize {
        self.labels().len()
    }
    /// The complete parameter values of every acting seat's bot.
    fn values(&self) -> Vec<Vec<f64>>;
    /// An empty accumulator of the game's own metrics.
    fn new_metrics(&self) -> Box<dyn AnyMetrics>;
    /// Plays the games of batch `batch_of.0` of a run of `batch_of.1` games, calling
    /// `each(index, seed, rotation, outcome)` in index order; a broken rule names the
    /// variant and the replay command of `names` (`playtest trace ...`) that replays it.
    fn play_batch(
        &self,
        plan: &PlayPlan,
        batch_of: (u64, u64),
        names: (&str, &str),
        each: &mut dyn FnMut(u64, u64, usize, &Outcome),
    ) -> Result<PlayedBatch, Error>;
    /// Plays the game of `seed` with invariant checks, handing every line of its trace to
    /// `sink` (at most [`crate::sim::MAX_TRACE_STEPS`] steps); `turn` turns the line-up as
    /// a rotated game's place in its block does. `Err` is (step, what) of a broken rule.
    fn trace(&self, variant: &Variant, seed: u64, turn: Option<usize>, sink: &mut dyn FnMut(Line)) -> Result<Outcome, (u64, String)>;
    /// The checked JSON Lines trace of game `seed` ([`crate::sim::json_trace`]), the line-up
    /// turned by `turn` as in [`SeatedGame::trace`]: the text, and the outcome or (step, what).
    fn json_trace(&self, variant: &Variant, seed: u64, turn: Option<usize>) -> (String, Result<Outcome, (u64, String)>);
    /// Plays the game of `seed` with a readable play-by-play written to `out` (`trace`).
    fn play_by_play(&self, seed: u64, out: &mut dyn FnMut(&str)) -> Result<Outcome, Error>;
    /// Plays batch `batch` of a run of `games` games watching every decision (the audit's
    /// loop, [`crate::sim::watch::watch_batch`]): `kinds` are the game's kinds of action.
    fn watch_batch(&self, kinds: &[&'static str], plan: &WatchPlan, batch: u64, games: u64) -> Result<Watched, Error>;
    /// Plays the game of every seed of `seeds` in turn, unchecked, calling `each(seed,
    /// outcome)`: the audit's exploit sweep, whose seeds follow its own numbering.
    fn play_seeds(&self, seeds: &mut dyn Iterator<Item = u64>, each: &mut dyn FnMut(u64, &Outcome)) -> Result<(), Error>;
    /// The same table with seat `seat` played by bot `bot` at the raw parameter values
    /// `values` (no spec parsed, so no rounding), labelled `label`: a candidate of the
    /// audit's exploit sweep. `Err` names an unknown bot.
    fn with_seat<'s>(&'s self, seat: usize, bot: (&str, &[f64], String)) -> Result<Box<dyn SeatedGame + 's>, Error>;
    /// Plays a run on the simulator ([`crate::sim::run_streaming`]): one dynamic call per
    /// run, the run itself compiled per game. Rows go to `rows` batch by batch when given.
    fn run(&self, cfg: RunConfig, progress: &mut dyn FnMut(u64), rows: Option<&mut RowSink<'_>>) -> Result<Run, Error>;
    /// As [`SeatedGame::run`], the rows kept in [`Run::rows`] when `cfg.keep_rows`
    /// ([`crate::sim::run_with_progress`]).
    fn run_kept(&self, cfg: RunConfig, progress: &mut dyn FnMut(u64)) -> Result<Run, Error> {
        let mut kept = Vec::new();
        let mut keep = |rows: &[GameRow]| {
            kept.extend_from_slice(rows);
            Ok(())
        };
        let sink: Option<&mut RowSink<'_>> = if cfg.keep_rows { Some(&mut keep) } else { None };
        let mut result = self.run(cfg, progress, sink)?;
        result.rows = kept;
        Ok(result)
    }
}

/// Game `G` with its seat plans, borrowed or owned by a handle.
pub struct Seated<'a, G: Game> {
    game: &'a G,
    plans: Vec<SeatPlan<G>>,
    facts: GameFacts,
}

/// Seats `plans` at `game` (for code that still holds the game type).
pub fn seated<'a, G: Game>(game: &'a G, plans: &[SeatPlan<G>]) -> Seated<'a, G> {
    Seated { game, plans: plans.to_vec(), facts: GameFacts::of(game) }
}

impl<G: Game> SeatedGame for Seated<'_, G> {
    fn facts(&self) -> &GameFacts {
        &self.facts
    }
    fn labels(&self) -> Vec<String> {
        self.plans.iter().map(|p| p.label.clone()).collect()
    }
    fn acting(&self) -> usize {
        self.plans.len()
    }
    fn values(&self) -> Vec<Vec<f64>> {
        self.plans.iter().map(|p| p.values.clone()).collect()
    }
    fn new_metrics(&self) -> Box<dyn AnyMetrics> {
        Box::new(MetricsOf::<G>(G::Metrics::default()))
    }
    fn play_batch(
        &self,
        plan: &PlayPlan,
        (batch, games): (u64, u64),
        names: (&str, &str),
        each: &mut dyn FnMut(u64, u64, usize, &Outcome),
    ) -> Result<PlayedBatch, Error> {
        let (metrics, standing, subs) = play_batch(self.game, &self.plans, plan, (batch, games), names, each)?;
        Ok(PlayedBatch { metrics: Box::new(MetricsOf::<G>(metrics)), standing, subs })
    }
    fn trace(&self, variant: &Variant, seed: u64, turn: Option<usize>, sink: &mut dyn FnMut(Line)) -> Result<Outcome, (u64, String)> {
        let plans = match turn {
            Some(turn) => crate::sim::rotated(&self.plans, turn),
            None => self.plans.clone(),
        };
        let mut bots: Vec<Box<dyn crate::engine::Bot<G>>> = plans.iter().map(|p| (p.build)(self.game, &p.values)).collect();
        let header = crate::sim::trace_header(variant, &plans);
        crate::engine::trace::play_traced(self.game, &mut bots, seed, &header, true, crate::sim::MAX_TRACE_STEPS, sink)
    }
    fn json_trace(&self, variant: &Variant, seed: u64, turn: Option<usize>) -> (String, Result<Outcome, (u64, String)>) {
        match turn {
            Some(turn) => crate::sim::json_trace(self.game, variant, &crate::sim::rotated(&self.plans, turn), seed),
            None => crate::sim::json_trace(self.game, variant, &self.plans, seed),
        }
    }
    fn play_by_play(&self, seed: u64, out: &mut dyn FnMut(&str)) -> Result<Outcome, Error> {
        crate::sim::trace(self.game, &self.plans, seed, out)
    }
    fn watch_batch(&self, kinds: &[&'static str], plan: &WatchPlan, batch: u64, games: u64) -> Result<Watched, Error> {
        crate::sim::watch::watch_batch(self.game, &self.plans, kinds, plan, batch, games)
    }
    fn play_seeds(&self, seeds: &mut dyn Iterator<Item = u64>, each: &mut dyn FnMut(u64, &Outcome)) -> Result<(), Error> {
        let mut table = crate::sim::table(self.game, &self.plans);
        for seed in seeds {
            let outcome = table.play(self.game, seed, PlayOptions::default(), None, None).map_err(|v| Error::Invariant(v.what))?;
            each(seed, &outcome);
        }
        Ok(())
    }
    fn with_seat<'s>(&'s self, seat: usize, (bot, values, label): (&str, &[f64], String)) -> Result<Box<dyn SeatedGame + 's>, Error> {
        let infos = all_bots::<G>();
        let info = infos.iter().find(|b| b.name == bot).ok_or_else(|| Error::Usage(format!("--exploit: unknown bot `{bot}`")))?;
        let mut plans = self.plans.clone();
        plans[seat] = SeatPlan { label, values: values.to_vec(), build: info.build };
        Ok(Box::new(Seated { game: self.game, plans, facts: self.facts.clone() }))
    }
    fn run(&self, cfg: RunConfig, progress: &mut dyn FnMut(u64), rows: Option<&mut RowSink<'_>>) -> Result<Run, Error> {
        crate::sim::run_streaming(self.game, &self.plans, cfg, progress, rows).map(Run::of)
    }
}

/// The games of one sub-batch being measured, folded into the batch's totals when full.
struct SubBatch<G: Game> {
    metrics: G::Metrics,
    standing: StandingTally,
    games: u64,
}

impl<G: Game> SubBatch<G> {
    /// Folds the sub-batch (if any game) into the totals and records its values.
    fn flush(&mut self, unit: &str, (metrics, standing, subs): (&mut G::Metrics, &mut StandingTally, &mut SubBatchValues)) {
        if self.games == 0 {
            return;
        }
        let mut values: Vec<f64> = self.metrics.summary(self.games).into_iter().map(|(_, v)| v).collect();
        values.extend(standing_values(&self.standing.summary(unit)));
        subs.push((self.games as f64, values));
        Metrics::merge(metrics, std::mem::take(&mut self.metrics));
        standing.merge(&self.standing);
        self.standing = StandingTally::default();
        self.games = 0;
    }
}

/// The batch loop of [`SeatedGame::play_batch`], monomorphised per game.
fn play_batch<G: Game>(
    game: &G,
    plans: &[SeatPlan<G>],
    plan: &PlayPlan,
    (batch, games): (u64, u64),
    (variant, replay): (&str, &str),
    each: &mut dyn FnMut(u64, u64, usize, &Outcome),
) -> Result<(G::Metrics, StandingTally, SubBatchValues), Error> {
    let turns = plan.block(plans.len());
    let mut tables: Vec<_> = if plan.rotate {
        (0..turns as usize).map(|turn| crate::sim::table(game, &crate::sim::rotated(plans, turn))).collect()
    } else {
        vec![crate::sim::table(game, plans)]
    };
    let mut metrics = G::Metrics::default();
    let mut standing = StandingTally::default();
    let mut sub = SubBatch::<G> { metrics: G::Metrics::default(), standing: StandingTally::default(), games: 0 };
    let mut subs = Vec::new();
    let sub_size = sub_batch_size(turns);
    let mut trace = StandingTrace::new(game.seats());
    let options = PlayOptions { checked: plan.checked };
    let size = plan.batch_size(plans.len());
    for index in batch * size..((batch + 1) * size).min(games) {
        let (seed, turn) = if plan.rotate { (game_seed(plan.seed, index / turns), (index % turns) as usize) } else { (game_seed(plan.seed, index), 0) };
        let bots = &mut tables[turn];
        let played =
            if plan.detailed { bots.play_watched(game, seed, options, &mut sub.metrics, &mut trace) } else { bots.play(game, seed, options, None, None) };
        let outcome = played.map_err(|v| {
            Error::Invariant(format!(
                "{variant}: game {index} (seed {seed}) broke a rule at step {}: {}\nreplay it with: {replay} --game-seed {seed}",
                v.step, v.what
            ))
        })?;
        if plan.detailed {
            sub.standing.record(&trace, outcome.winners);
            sub.games += 1;
            if sub.games == sub_size {
                sub.flush(game.standing_unit(), (&mut metrics, &mut standing, &mut subs));
            }
        }
        each(index, seed, turn, &outcome);
    }
    sub.flush(game.standing_unit(), (&mut metrics, &mut standing, &mut subs));
    Ok((metrics, standing, subs))
}

/// A variant's game, its type chosen once (by [`handle`]): what every command needs of a
/// game, object-safe, so the commands are written once.
pub trait GameHandle: Sync {
    /// The game's facts.
    fn facts(&self) -> &GameFacts;
    /// The bot every seat plays when a variant names none.
    fn default_bot(&self) -> &'static str;
    /// The same game built from another variant (a candidate of `tune`, a value of `sweep`,
    /// the other side of `compare`); errors name the variant's key as [`handle`] does.
    fn with_variant(&self, variant: &Variant) -> Result<Box<dyn GameHandle>, Error>;
    /// The bots of every seat of `variant`'s table: `cli` (`--bots`) when given, else the
    /// variant's, else the default bot (see [`seat_plans`]).
    fn seat<'a>(&'a self, variant: &Variant, cli: Option<&[BotSpec]>) -> Result<Box<dyn SeatedGame + 'a>, Error>;
    /// An empty accumulator of the game's own metrics.
    fn new_metrics(&self) -> Box<dyn AnyMetrics>;
    /// The exact solution of the variant ([`Registered::exact`]) with one bot label per
    /// acting seat; `None` when the game has no solver.
    fn exact(&self, variant: &Variant, labels: &[String], max_states: u64) -> Option<Result<ExactReport, Error>>;
    /// The charts of the game's seat sweeps ([`Registered::extra_charts`]) that `report` adds.
    fn extra_charts(&self, variant: &Variant, games: u64, seed: u64, threads: usize) -> Result<Vec<ChartSpec>, Error>;
    /// Replays the parsed lines of a JSON trace through the rules
    /// ([`crate::engine::trace::replay_to_stop`]); `Err` says where it differs or which line
    /// cannot be read.
    fn replay(&self, lines: &[(usize, Line)]) -> Result<Replayed, ReplayError>;
    /// Runs the invariant harness on the variant's game ([`super::check_rules`]).
    fn check_rules(&self, variant: &Variant, plan: HarnessPlan) -> Result<Result<u64, HarnessFailure>, Error>;
    /// The game built from a stepped variant (the audit's sensitivity steps): as
    /// [`GameHandle::with_variant`], but a refusal is the game's own words, not explained
    /// against the file (the stepped value is not in it).
    fn with_step(&self, variant: &Variant) -> Result<Box<dyn GameHandle>, Error>;
    /// The turn cap of the variant (in [`GameFacts::length_unit`]).
    fn turn_cap(&self) -> u32;
    /// The game's kinds of action in the designer's words ([`Game::action_kinds`]).
    fn action_kinds(&self) -> Vec<&'static str>;
    /// The claims of a bluffing game checked against the deck ([`Game::claim_audit`]).
    fn claim_audit(&self) -> Vec<ClaimCheck>;
    /// Every bot of the game by name, with its parameters.
    fn bots(&self) -> Vec<(&'static str, &'static [BotParamInfo])>;
    /// The bot `spec` names (an alias resolved) with its complete parameter values.
    fn resolve_bot(&self, spec: &BotSpec) -> Result<(&'static str, &'static [BotParamInfo], Vec<f64>), BotSpecError>;
    /// Deals a game of `variant` for `playtest play`: the person in seat `seat`, the bots of
    /// `cli` (`--bots`) or the variant's in the other seats, from `seed`. The session is
    /// typed by the game; the page's server reads it through [`PlayTable`].
    fn open_session(&self, variant: &Variant, seat: usize, cli: Option<&[BotSpec]>, seed: u64) -> Result<Box<dyn PlayTable>, Error>;
}

/// Game `G`, built from a variant, behind [`GameHandle`].
pub struct Handle<G: Registered> {
    game: G,
    facts: GameFacts,
}

impl<G: Registered> Handle<G> {
    /// The handle of `game`.
    pub fn new(game: G) -> Handle<G> {
        let facts = GameFacts::of(&game);
        Handle { game, facts }
    }

    /// The game itself.
    pub fn game(&self) -> &G {
        &self.game
    }
}

impl<G: Registered> GameHandle for Handle<G> {
    fn facts(&self) -> &GameFacts {
        &self.facts
    }
    fn default_bot(&self) -> &'static str {
        G::INFO.default_bot
    }
    fn with_variant(&self, variant: &Variant) -> Result<Box<dyn GameHandle>, Error> {
        Ok(Box::new(Handle::new(build::<G>(variant)?)))
    }
    fn seat<'a>(&'a self, variant: &Variant, cli: Option<&[BotSpec]>) -> Result<Box<dyn SeatedGame + 'a>, Error> {
        let plans = seat_plans(&self.game, variant, cli, G::INFO.default_bot)?;
        Ok(Box::new(Seated { game: &self.game, plans, facts: self.facts.clone() }))
    }
    fn new_metrics(&self) -> Box<dyn AnyMetrics> {
        Box::new(MetricsOf::<G>(G::Metrics::default()))
    }
    fn exact(&self, variant: &Variant, labels: &[String], max_states: u64) -> Option<Result<ExactReport, Error>> {
        self.game.exact(variant, labels, max_states)
    }
    fn extra_charts(&self, variant: &Variant, games: u64, seed: u64, threads: usize) -> Result<Vec<ChartSpec>, Error> {
        self.game.extra_charts(variant, games, seed, threads)
    }
    fn replay(&self, lines: &[(usize, Line)]) -> Result<Replayed, ReplayError> {
        crate::engine::trace::replay_to_stop(&self.game, lines, crate::sim::MAX_TRACE_STEPS)
    }
    fn check_rules(&self, variant: &Variant, plan: HarnessPlan) -> Result<Result<u64, HarnessFailure>, Error> {
        super::check_game(&self.game, variant, plan)
    }
    fn with_step(&self, variant: &Variant) -> Result<Box<dyn GameHandle>, Error> {
        Ok(Box::new(Handle::new(G::from_variant(variant)?)))
    }
    fn turn_cap(&self) -> u32 {
        self.game.turn_cap()
    }
    fn action_kinds(&self) -> Vec<&'static str> {
        self.game.action_kinds()
    }
    fn claim_audit(&self) -> Vec<ClaimCheck> {
        self.game.claim_audit()
    }
    fn bots(&self) -> Vec<(&'static str, &'static [BotParamInfo])> {
        all_bots::<G>().iter().map(|b| (b.name, b.params)).collect()
    }
    fn resolve_bot(&self, spec: &BotSpec) -> Result<(&'static str, &'static [BotParamInfo], Vec<f64>), BotSpecError> {
        let infos = all_bots::<G>();
        let (info, values) = spec.resolve(&infos)?;
        Ok((info.name, info.params, values))
    }
    fn open_session(&self, variant: &Variant, seat: usize, cli: Option<&[BotSpec]>, seed: u64) -> Result<Box<dyn PlayTable>, Error> {
        // The session owns its game: built again from the variant, as the handle's was.
        let game = build::<G>(variant)?;
        let plans = seat_plans(&game, variant, cli, G::INFO.default_bot)?;
        let header = crate::sim::trace_header(variant, &plans);
        let bots: Vec<Box<dyn crate::engine::Bot<G>>> = plans.iter().map(|p| (p.build)(&game, &p.values)).collect();
        let session = Session::new(game, seat, bots, seed, &header).map_err(Error::Usage)?;
        Ok(Box::new(crate::sim::session::Named { session, variant: variant.name.clone() }))
    }
}

/// Builds game `G` from `variant`, a bad key named with its file, line and column.
pub(super) fn build<G: Registered>(variant: &Variant) -> Result<G, Error> {
    Ok(G::from_variant(variant).map_err(|e| variant.explain(e, |v| G::from_variant(v).map(drop)))?)
}

/// The handle of the variant's game: the one place where the game type is chosen. A missing
/// or unknown `game` is an error that lists the registered ones.
pub fn handle(variant: &Variant) -> Result<Box<dyn GameHandle>, Error> {
    struct Build<'a>(&'a Variant);
    impl GameVisitor for Build<'_> {
        type Output = Result<Box<dyn GameHandle>, Error>;
        fn visit<G: Registered>(self) -> Self::Output {
            Ok(Box::new(Handle::new(build::<G>(self.0)?)))
        }
    }
    if variant.game.is_empty() {
        let message = format!("missing key `game`; allowed: {}", GAME_IDS.join(", "));
        return Err(VariantError::Invalid { at: Location::file(&variant.path), key: "game".into(), message }.into());
    }
    visit(&variant.game, Build(variant))
        .unwrap_or_else(|| Err(variant.provenance.invalid("game", format!("unknown game `{}`; allowed: {}", variant.game, GAME_IDS.join(", "))).into()))
}
