//! The parallel simulator: plays games in fixed batches on a rayon pool, one seed per game
//! from (master seed, game index), and folds the batches in index order; every accumulator
//! is exact, so every number is identical for any thread count, window or shard split.
//! Memory stays flat: batches are folded as they finish (at most a window of them ahead),
//! and per-game rows go to a sink batch by batch (never all held).
//! A shard (`shard_index`/`shard_count`) plays only its own games, with the same seeds.
//! A stop asked for with Ctrl-C ([`crate::interrupt::requested`]) ends a run between two
//! folded batches: its result is then exactly that of a shorter run (`tally.games` tells how
//! many games), and the caller decides what to write.

pub mod harness;
pub mod hints;
pub mod label;
pub mod session;
pub mod shard;
pub mod watch;
pub mod words;

use std::collections::BTreeMap;
use std::time::Instant;

use crate::engine::{Bot, BotInfo, BotSpec, Game, GameRng, Metrics, Outcome, PlayOptions, SearchStats, StandingTrace, Table, game_seed, play};
use crate::error::Error;
use crate::stats::interval::SUB_BATCH;
use crate::stats::ratio::RatioTally;
use crate::stats::rotation::RotationTally;
use crate::stats::{StandingTally, Tally};

/// Games per batch: the unit of parallel work and of deterministic merging.
pub const BATCH: u64 = 512;

/// Batches per thread that may be played ahead of the fold: bounds memory (results and rows
/// waiting to be folded) while keeping every thread busy.
pub const WINDOW_PER_THREAD: u64 = 32;

/// One seat's bot, ready to be built for every batch.
pub struct SeatPlan<G: Game> {
    /// The spec as a designer reads it (`basic:bluff=0.3`).
    pub label: String,
    /// Complete parameter values.
    pub values: Vec<f64>,
    /// Builder from the game's bot list.
    pub build: fn(&G, &[f64]) -> Box<dyn Bot<G>>,
}

impl<G: Game> Clone for SeatPlan<G> {
    fn clone(&self) -> Self {
        SeatPlan { label: self.label.clone(), values: self.values.clone(), build: self.build }
    }
}

/// What to play.
#[derive(Clone, Copy, Debug)]
pub struct RunConfig {
    /// Number of games.
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// Worker threads (0 = all cores).
    pub threads: usize,
    /// Check invariants and legality after every action.
    pub checked: bool,
    /// Gather the game's own metrics (slower; for reports).
    pub detailed: bool,
    /// Keep one row per game (for `--out`).
    pub keep_rows: bool,
    /// Play only games whose index i has i mod `shard_count` == `shard_index`.
    pub shard_index: u64,
    /// See `shard_index` (1 = no sharding).
    pub shard_count: u64,
    /// Seat rotation (`--rotate`): game i is rotation i mod seats of block i / seats, played
    /// from the block's seed with bot k at seat k + rotation (see [`crate::stats::rotation`]).
    pub rotate: bool,
}

impl RunConfig {
    /// `games` games from `seed` on all cores, no extras.
    pub fn new(games: u64, seed: u64) -> Self {
        RunConfig { games, seed, threads: 0, checked: false, detailed: false, keep_rows: false, shard_index: 0, shard_count: 1, rotate: false }
    }
}

/// One played game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameRow {
    /// Index in the run.
    pub index: u64,
    /// The game's own seed (replays it with `trace`).
    pub seed: u64,
    /// How it ended.
    pub outcome: Outcome,
}

/// Everything a run produced.
pub struct RunResult<G: Game> {
    /// Aggregated figures.
    pub tally: Tally,
    /// The game's own metrics (empty unless `detailed`).
    pub metrics: G::Metrics,
    /// Lead changes, drama, margin and standings by turn (empty unless `detailed`).
    pub standing: StandingTally,
    /// Per-game rows (empty unless `keep_rows`).
    pub rows: Vec<GameRow>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Per-seat and per-bot sums of a rotated run (`None` unless `rotate`).
    pub rotation: Option<RotationTally>,
    /// Per figure of the game's own (`Metrics::summary` order), its value over each
    /// sub-batch of [`SUB_BATCH`] games, with the games: the units of its batch-means
    /// interval (empty unless `detailed`).
    pub extras: Vec<Vec<(f64, f64)>>,
    /// Per-game (per rotation block when rotated) sums of the ratios the game declares
    /// ([`Metrics::ratio_names`]): the units of their ratio-estimator intervals (empty unless
    /// `detailed`).
    pub ratios: RatioTally,
    /// What the bots' searches did over the run, added over its batches' line-ups.
    pub search: SearchStats,
}

struct BatchResult<G: Game> {
    tally: Tally,
    metrics: G::Metrics,
    standing: StandingTally,
    rows: Vec<GameRow>,
    /// Rotated runs: (rotation, outcome) of every game, in order.
    rotated: Vec<(u8, Outcome)>,
    /// Detailed runs: (games, the game's own figures) of every sub-batch, in order.
    subs: Vec<(f64, Vec<f64>)>,
    /// Detailed runs: the per-game (per-block) parts of the game's ratios.
    ratios: RatioTally,
    /// What the batch's bots' searches did.
    search: SearchStats,
}

/// The bots of `seats` as one [`Table`]: when every seat plays the same bot kind and that
/// bot offers [`crate::engine::BotInfo::uniform`], a table that calls it without dynamic
/// dispatch; otherwise the boxed bots. Both play exactly the same games.
pub fn table<G: Game>(game: &G, seats: &[SeatPlan<G>]) -> Box<dyn Table<G>> {
    let infos = crate::engine::all_bots(game);
    let kinds: Option<Vec<&BotInfo<G>>> =
        seats.iter().map(|s| BotSpec::parse(&s.label).ok().and_then(|spec| spec.resolve(&infos).ok()).map(|(info, _)| info)).collect();
    if let Some(kinds) = kinds
        && let Some(first) = kinds.first()
        && kinds.iter().all(|k| k.name == first.name)
        && let Some(uniform) = first.uniform
    {
        let values: Vec<Vec<f64>> = seats.iter().map(|s| s.values.clone()).collect();
        return uniform(game, &values);
    }
    Box::new(seats.iter().map(|s| (s.build)(game, &s.values)).collect::<Vec<Box<dyn Bot<G>>>>())
}

fn run_batch<G: Game>(game: &G, seats: &[SeatPlan<G>], cfg: &RunConfig, batch: u64) -> Result<BatchResult<G>, Error> {
    if cfg.rotate {
        let n = seats.len();
        let mut tables: Vec<Box<dyn Table<G>>> = (0..n).map(|turn| table(game, &rotated(seats, turn))).collect();
        return run_batch_with(game, &mut tables, cfg, batch);
    }
    run_batch_with(game, &mut [table(game, seats)], cfg, batch)
}

/// The line-up of rotation `turn`: bot k at seat k + turn.
pub fn rotated<G: Game>(seats: &[SeatPlan<G>], turn: usize) -> Vec<SeatPlan<G>> {
    let n = seats.len();
    (0..n).map(|seat| seats[crate::stats::rotation::bot_at(seat, turn, n)].clone()).collect()
}

/// Plays the games of batch `batch`: with one table, every game at it; with one table per
/// rotation (a rotated run), game i at table i mod tables from the seed of block i / tables.
fn run_batch_with<G: Game>(game: &G, tables: &mut [Box<dyn Table<G>>], cfg: &RunConfig, batch: u64) -> Result<BatchResult<G>, Error> {
    let mut tally = Tally::default();
    let mut metrics = <G::Metrics as Metrics<G>>::for_game(game);
    let mut standing = StandingTally::default();
    let mut trace = StandingTrace::new(game.seats());
    let mut rows = Vec::new();
    let mut rotated = Vec::new();
    let teams = game.teams();
    // Detailed: the game's metrics gathered per sub-batch (whole rotation blocks), each
    // summarised for the batch-means interval and merged (exactly) into the batch's.
    let (mut sub, mut sub_games, mut subs) = (<G::Metrics as Metrics<G>>::for_game(game), 0u64, Vec::new());
    let sub_size = (SUB_BATCH - SUB_BATCH % tables.len().max(1) as u64).max(tables.len().max(1) as u64);
    let mut flush = |sub: &mut G::Metrics, sub_games: &mut u64| {
        if *sub_games > 0 {
            subs.push((*sub_games as f64, sub.summary(*sub_games).into_iter().map(|(_, v)| v).collect::<Vec<f64>>()));
            Metrics::merge(&mut metrics, std::mem::take(sub));
            *sub_games = 0;
        }
    };
    // One state for the batch's games, dealt into game after game (`Game::deal_into`).
    let mut scratch: Option<G::State> = None;
    let turns = tables.len() as u64;
    let mut ratios = RatioParts::default();
    let start = batch * BATCH;
    let end = (start + BATCH).min(cfg.games);
    let options = PlayOptions { checked: cfg.checked };
    let count = cfg.shard_count.max(1);
    // The first index >= start with index mod count == shard_index, then every count-th.
    let first = start + (cfg.shard_index % count + count - start % count) % count;
    for index in (first..end).step_by(count as usize) {
        let (seed, turn) = if cfg.rotate { (game_seed(cfg.seed, index / turns), index % turns) } else { (game_seed(cfg.seed, index), 0) };
        let bots = &mut tables[turn as usize];
        if cfg.detailed {
            ratios.before::<G>(&sub);
        }
        let played =
            if cfg.detailed { bots.play_watched(game, seed, options, &mut sub, &mut trace) } else { bots.play_reusing(game, seed, options, &mut scratch) };
        let outcome = played.map_err(|v| {
            Error::Invariant(format!(
                "game {index} (seed {seed}) broke a rule at step {}: {}\nreplay it with: playtest trace VARIANT --game-seed {seed}",
                v.step, v.what
            ))
        })?;
        tally.record(&outcome, game.seats(), game.end_reasons().len());
        tally.record_teams(&outcome, &teams);
        if cfg.rotate {
            rotated.push((turn as u8, outcome));
        }
        if cfg.detailed {
            standing.record(&trace, outcome.winners);
            ratios.after::<G>(&sub, turn + 1 == turns);
            sub_games += 1;
            if sub_games == sub_size {
                flush(&mut sub, &mut sub_games);
            }
        }
        if cfg.keep_rows {
            rows.push(GameRow { index, seed, outcome });
        }
    }
    flush(&mut sub, &mut sub_games);
    tally.refresh_views();
    let ratios = ratios.finish::<G>(&metrics);
    let mut search = SearchStats::default();
    for table in tables.iter() {
        search.add(table.search_stats());
    }
    Ok(BatchResult { tally, metrics, standing, rows, rotated, subs, ratios, search })
}

/// Plays the run and folds the results in game order.
pub fn run<G: Game>(game: &G, seats: &[SeatPlan<G>], cfg: RunConfig) -> Result<RunResult<G>, Error> {
    run_with_progress(game, seats, cfg, &mut |_| {})
}

/// As [`run`], calling `progress(games_done)` as batches are folded.
pub fn run_with_progress<G: Game>(game: &G, seats: &[SeatPlan<G>], cfg: RunConfig, progress: &mut dyn FnMut(u64)) -> Result<RunResult<G>, Error> {
    let mut kept = Vec::new();
    let mut keep = |rows: &[GameRow]| {
        kept.extend_from_slice(rows);
        Ok(())
    };
    let sink: Option<&mut RowSink<'_>> = if cfg.keep_rows { Some(&mut keep) } else { None };
    let mut result = run_streaming(game, seats, cfg, progress, sink)?;
    result.rows = kept;
    Ok(result)
}

/// Receives the per-game rows of a run in game order, a batch at a time.
pub type RowSink<'a> = dyn FnMut(&[GameRow]) -> Result<(), Error> + 'a;

/// As [`run_with_progress`], handing the per-game rows to `rows` as each batch is folded
/// (`RunResult::rows` stays empty), so memory does not grow with the number of games.
pub fn run_streaming<G: Game>(
    game: &G,
    seats: &[SeatPlan<G>],
    cfg: RunConfig,
    progress: &mut dyn FnMut(u64),
    mut rows: Option<&mut RowSink<'_>>,
) -> Result<RunResult<G>, Error> {
    let cfg = RunConfig { keep_rows: rows.is_some(), ..cfg };
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(cfg.threads).build().map_err(|e| Error::Usage(format!("cannot start {} threads: {e}", cfg.threads)))?;
    let started = Instant::now();
    let batches = cfg.games.div_ceil(BATCH);
    let window = (pool.current_num_threads() as u64 * WINDOW_PER_THREAD).max(1);
    let mut result = empty_result(game, seats, &cfg)?;
    // No barrier between windows: batches are queued on the pool as long as fewer than
    // `window` are played but not yet folded; this thread folds them in game order as they
    // arrive (out-of-order ones wait in `ready`) and hands their rows to the sink, off the
    // workers' hot path. Memory is bounded by `window` batches.
    let (send, receive) = std::sync::mpsc::channel::<(u64, Result<BatchResult<G>, Error>)>();
    let mut outcome = Ok(());
    pool.in_place_scope(|scope| {
        let mut ready: BTreeMap<u64, Result<BatchResult<G>, Error>> = BTreeMap::new();
        let (mut queued, mut folded) = (0u64, 0u64);
        let cfg = &cfg;
        while folded < batches {
            // A stop asked for (Ctrl-C, SIGTERM) ends the run at this batch boundary: the
            // result holds exactly the games of the batches folded so far.
            if crate::interrupt::requested() {
                break;
            }
            while outcome.is_ok() && queued < batches && queued - folded < window {
                let send = send.clone();
                let b = queued;
                scope.spawn(move |_| {
                    // Stopping (Ctrl-C): batches not yet started are skipped, never folded.
                    if crate::interrupt::requested() {
                        let _ = send.send((b, Err(Error::Interrupted(String::new()))));
                        return;
                    }
                    // A panic (a bug) becomes an error, so the fold below never waits for it.
                    let part = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_batch(game, seats, cfg, b)))
                        .unwrap_or_else(|_| Err(Error::Invariant(format!("batch {b} panicked (a bug); see the message above"))));
                    let _ = send.send((b, part));
                });
                queued += 1;
            }
            if outcome.is_err() {
                break;
            }
            let Ok((b, part)) = next_batch(&receive) else { break };
            ready.insert(b, part);
            while let Some(part) = ready.remove(&folded) {
                if crate::interrupt::requested() {
                    break;
                }
                outcome = fold(&mut result, part, rows.as_deref_mut());
                if outcome.is_err() {
                    break;
                }
                folded += 1;
                if folded % window == 0 || folded == batches {
                    progress((folded * BATCH).min(cfg.games));
                }
            }
        }
    });
    outcome?;
    result.seconds = started.elapsed().as_secs_f64();
    Ok(result)
}

/// The result of a run before its first batch is folded; a usage error for a rotated run
/// that is not whole blocks of one game per seat, or is sharded.
fn empty_result<G: Game>(game: &G, seats: &[SeatPlan<G>], cfg: &RunConfig) -> Result<RunResult<G>, Error> {
    if cfg.rotate && (cfg.shard_count > 1 || !cfg.games.is_multiple_of(seats.len() as u64)) {
        return Err(Error::Usage(format!("--rotate plays whole blocks of {} games (one per seat) and no shards; got {} games", seats.len(), cfg.games)));
    }
    let rotation = cfg.rotate.then(|| RotationTally::new(&seats.iter().map(|s| s.label.clone()).collect::<Vec<_>>(), game.seats()).with_teams(&game.teams()));
    Ok(RunResult {
        tally: Tally::default(),
        metrics: <G::Metrics as Metrics<G>>::for_game(game),
        rows: Vec::new(),
        standing: StandingTally::default(),
        seconds: 0.0,
        rotation,
        extras: Vec::new(),
        ratios: RatioTally::default(),
        search: SearchStats::default(),
    })
}

/// The next batch to arrive from the workers, polled: the folding thread sleeps [`POLL`]
/// between looks instead of waiting on the channel, so that a worker's send never has to
/// wake it (a wake-up is a system call on the worker's core, once per batch, and wakes an
/// idle processor: 7% of the worker's time in a one-thread Dice Factor run). Batches are
/// queued `window` ahead (milliseconds of work), so a fold that starts up to a poll later
/// keeps the workers fed. `Err` when every sender is gone.
fn next_batch<T>(receive: &std::sync::mpsc::Receiver<T>) -> Result<T, std::sync::mpsc::RecvError> {
    use std::sync::mpsc::TryRecvError;
    loop {
        match receive.try_recv() {
            Ok(item) => return Ok(item),
            Err(TryRecvError::Disconnected) => return Err(std::sync::mpsc::RecvError),
            Err(TryRecvError::Empty) => std::thread::sleep(POLL),
        }
    }
}

/// How long the folding thread sleeps between looks for a finished batch ([`next_batch`]).
const POLL: std::time::Duration = std::time::Duration::from_millis(2);

/// Adds the next batch to `result`, its rows to `sink`.
fn fold<G: Game>(result: &mut RunResult<G>, part: Result<BatchResult<G>, Error>, sink: Option<&mut RowSink<'_>>) -> Result<(), Error> {
    let part = part?;
    result.tally.merge(&part.tally);
    if let Some(rotation) = result.rotation.as_mut() {
        for (turn, outcome) in &part.rotated {
            rotation.record(outcome, *turn as usize);
        }
    }
    Metrics::merge(&mut result.metrics, part.metrics);
    result.standing.merge(&part.standing);
    result.ratios.merge(&part.ratios);
    result.search.add(part.search);
    for (games, values) in part.subs {
        if result.extras.len() < values.len() {
            result.extras.resize(values.len(), Vec::new());
        }
        for (figure, x) in result.extras.iter_mut().zip(values) {
            figure.push((games, x));
        }
    }
    if let Some(sink) = sink {
        sink(&part.rows)?;
    }
    Ok(())
}

/// Gathers the per-game parts of a game's ratios ([`Metrics::ratio_parts`]) as the
/// differences of its accumulator before and after each game, one cluster per game or per
/// rotation block.
#[derive(Default)]
pub struct RatioParts {
    before: Vec<(i64, i64)>,
    after: Vec<(i64, i64)>,
    cluster: Vec<(i64, i64)>,
    tally: RatioTally,
}

impl RatioParts {
    /// Notes the accumulator's parts before a game.
    pub fn before<G: Game>(&mut self, metrics: &G::Metrics) {
        metrics.ratio_parts(&mut self.before);
    }

    /// Adds the game's parts (the accumulator now, less before); `closes`: the game ends its
    /// cluster (always without rotation, the block's last game with it).
    pub fn after<G: Game>(&mut self, metrics: &G::Metrics, closes: bool) {
        metrics.ratio_parts(&mut self.after);
        if self.after.is_empty() {
            return;
        }
        if self.cluster.len() < self.after.len() {
            self.cluster.resize(self.after.len(), (0, 0));
        }
        for (k, (c, a)) in self.cluster.iter_mut().zip(&self.after).enumerate() {
            let b = self.before.get(k).copied().unwrap_or((0, 0));
            c.0 += a.0 - b.0;
            c.1 += a.1 - b.1;
        }
        if closes {
            self.tally.add(&self.cluster);
            self.cluster.iter_mut().for_each(|c| *c = (0, 0));
        }
    }

    /// The tally, named after `metrics`' ratios.
    pub fn finish<G: Game>(mut self, metrics: &G::Metrics) -> RatioTally {
        if self.tally.clusters > 0 {
            self.tally.names = metrics.ratio_names();
        }
        self.tally
    }
}

/// Plays one game with a play-by-play written to `out` (the `trace` command): its outcome
/// and what the bots' searches did.
pub fn trace<G: Game>(game: &G, seats: &[SeatPlan<G>], seed: u64, out: &mut dyn FnMut(&str)) -> Result<(Outcome, SearchStats), Error> {
    let mut bots: Vec<Box<dyn Bot<G>>> = seats.iter().map(|s| (s.build)(game, &s.values)).collect();
    let outcome = play(game, &mut bots, seed, PlayOptions { checked: true }, None, Some(out))
        .map_err(|v| Error::Invariant(format!("seed {seed}: step {}: {}", v.step, v.what)))?;
    Ok((outcome, crate::engine::Lineup::search_stats(&bots)))
}

/// Most decisions a traced or replayed game may take (a bound against a game that never ends).
pub const MAX_TRACE_STEPS: u64 = 5_000_000;

/// What a JSON trace records of the variant and the seats.
pub fn trace_header<G: Game>(variant: &crate::variant::Variant, seats: &[SeatPlan<G>]) -> crate::engine::trace::TraceHeader {
    crate::engine::trace::TraceHeader {
        variant_name: variant.name.clone(),
        variant: serde_json::to_value(&variant.table).unwrap_or(serde_json::Value::Null),
        bots: seats.iter().map(|p| p.label.clone()).collect(),
    }
}

/// The checked JSON trace of game `seed` (`trace --json`, `check --traces`): the JSON Lines
/// text, and the outcome or, when a rule broke, `(step, what)` (the text then ends with a
/// `violation` line).
pub fn json_trace<G: Game>(game: &G, variant: &crate::variant::Variant, seats: &[SeatPlan<G>], seed: u64) -> (String, Result<Outcome, (u64, String)>) {
    let mut bots: Vec<Box<dyn Bot<G>>> = seats.iter().map(|s| (s.build)(game, &s.values)).collect();
    crate::engine::trace::trace_text(game, &mut bots, seed, &trace_header(variant, seats), true, MAX_TRACE_STEPS)
}

/// Keeps the RNG type in this module's public surface for benches.
pub type Rng = GameRng;
