//! A game with its bots seated ([`SeatedGame`]): what an arm of a run plays, object-safe, and
//! the one loop compiled per game, [`play_batch`], behind one call per batch.

use crate::engine::trace::Line;
use crate::engine::{Game, Metrics, Outcome, PlayOptions, SearchStats, StandingTrace, all_bots, game_seed};
use crate::error::Error;
use crate::sim::watch::{WatchPlan, Watched};
use crate::sim::{GameRow, RatioParts, RowSink, RunConfig, SeatPlan};
use crate::stats::interval::SUB_BATCH;
use crate::stats::ratio::RatioTally;
use crate::stats::{StandingSummary, StandingTally};
use crate::variant::Variant;

use super::facts::GameFacts;
use super::metrics::{AnyMetrics, MetricsOf, Run};

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
    /// The per-game (per rotation block) parts of the game's ratios (empty unless detailed).
    pub ratios: RatioTally,
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
    /// Plays the game of `seed` with a readable play-by-play written to `out` (`trace`): its
    /// outcome and what the bots' searches did.
    fn play_by_play(&self, seed: u64, out: &mut dyn FnMut(&str)) -> Result<(Outcome, SearchStats), Error>;
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
    pub(super) game: &'a G,
    pub(super) plans: Vec<SeatPlan<G>>,
    pub(super) facts: GameFacts,
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
        let (metrics, standing, subs, ratios) = play_batch(self.game, &self.plans, plan, (batch, games), names, each)?;
        Ok(PlayedBatch { metrics: Box::new(MetricsOf::<G>(metrics)), standing, subs, ratios })
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
    fn play_by_play(&self, seed: u64, out: &mut dyn FnMut(&str)) -> Result<(Outcome, SearchStats), Error> {
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
        let infos = all_bots(self.game);
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
) -> Result<(G::Metrics, StandingTally, SubBatchValues, RatioTally), Error> {
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
    let mut ratios = RatioParts::default();
    let sub_size = sub_batch_size(turns);
    let mut trace = StandingTrace::new(game.seats());
    let options = PlayOptions { checked: plan.checked };
    let size = plan.batch_size(plans.len());
    for index in batch * size..((batch + 1) * size).min(games) {
        let (seed, turn) = if plan.rotate { (game_seed(plan.seed, index / turns), (index % turns) as usize) } else { (game_seed(plan.seed, index), 0) };
        let bots = &mut tables[turn];
        if plan.detailed {
            ratios.before::<G>(&sub.metrics);
        }
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
            ratios.after::<G>(&sub.metrics, turn as u64 + 1 == turns);
            sub.games += 1;
            if sub.games == sub_size {
                sub.flush(game.standing_unit(), (&mut metrics, &mut standing, &mut subs));
            }
        }
        each(index, seed, turn, &outcome);
    }
    sub.flush(game.standing_unit(), (&mut metrics, &mut standing, &mut subs));
    let ratios = ratios.finish::<G>(&metrics);
    Ok((metrics, standing, subs, ratios))
}
