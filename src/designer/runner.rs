//! The designer's batch runner: plays games in the simulator's fixed 512-game batches from the
//! simulator's seeds (`game_seed(seed, i)`), on a rayon pool, and folds every batch in index
//! order, so a run here gives bit for bit the tally of `simulate` with the same games and seed.
//!
//! Unlike [`crate::sim::run`] it runs any list of jobs (several arms, several sweep values, a
//! range of batches that an adaptive run extends) and keeps the extra sums the designer's
//! commands need: per-game moments of every metric and per-sub-batch values of the game's own
//! figures (for batch-means intervals over batches of 64 games).

use crate::engine::Outcome;
use crate::error::Error;
use crate::games::GameHandle;
use crate::games::handle::{AnyMetrics, SeatedGame};
pub use crate::games::handle::{PlayPlan, SubBatchValues, sub_batch_size};
use crate::sim::GameRow;
use crate::stats::ratio::RatioTally;
use crate::stats::summary::SummaryContext;
use crate::stats::{StandingTally, Summary, Tally};
use crate::variant::Variant;

use super::metrics::{ArmData, BatchValues, Catalogue, Estimate, Moments};

/// One line-up on one game: what an arm of a run plays.
pub struct Arm<'a> {
    /// The game (parameters included) with its bots seated.
    pub seated: &'a dyn SeatedGame,
    /// The variant's name (for summaries).
    pub variant: String,
    /// `playtest trace ...` without `--game-seed`: replays a game of this arm.
    pub replay: String,
}

impl Arm<'_> {
    /// The bot label of every scored seat (`dummy` for seats that never act).
    pub fn seat_labels(&self) -> Vec<String> {
        self.seated.seat_labels()
    }

    /// Bots seated (one per acting seat).
    pub fn acting(&self) -> usize {
        self.seated.acting()
    }
}

/// Seats `bots` (a `--bots` value, else each variant's own) at every (game, variant) of a
/// sweep or a tuning race.
pub fn seat_points<'a>(points: impl Iterator<Item = (&'a dyn GameHandle, &'a Variant)>, bots: Option<&str>) -> Result<Vec<Box<dyn SeatedGame + 'a>>, Error> {
    points.map(|(game, variant)| super::seat(game, variant, bots, "--bots")).collect()
}

/// The arms of seated points: each named by its variant, with the command that replays its
/// games (the variant file `path`, `bots` and the point's `--set`s).
pub fn arms_of<'a>(
    seats: &'a [Box<dyn SeatedGame + 'a>],
    points: impl Iterator<Item = (&'a Variant, &'a [String])>,
    path: &std::path::Path,
    bots: Option<&str>,
) -> Vec<Arm<'a>> {
    seats.iter().zip(points).map(|(s, (variant, sets))| Arm { seated: &**s, variant: variant.name.clone(), replay: replay_command(path, bots, sets) }).collect()
}

/// A usage error unless `games` is whole rotation blocks of `acting` games.
pub fn check_blocks(plan: &PlayPlan, acting: usize, games: u64) -> Result<(), Error> {
    let block = plan.block(acting);
    if !games.is_multiple_of(block) {
        return Err(Error::Usage(format!(
            "seat rotation plays whole blocks of {block} games (one per seat): --games must be a multiple of {block}, got {games}"
        )));
    }
    Ok(())
}

/// Plays the games of batch `batch` of a run of `games` games, calling `each(index, seed,
/// rotation, outcome)` in index order (see [`SeatedGame::play_batch`]).
pub fn play_batch(
    arm: &Arm<'_>,
    plan: &PlayPlan,
    batch: u64,
    games: u64,
    each: &mut dyn FnMut(u64, u64, usize, &Outcome),
) -> Result<crate::games::handle::PlayedBatch, Error> {
    arm.seated.play_batch(plan, (batch, games), (&arm.variant, &arm.replay), each)
}

/// What one batch of one arm measured.
pub struct ArmBatch {
    tally: Tally,
    moments: Moments,
    metrics: Box<dyn AnyMetrics>,
    standing: StandingTally,
    extras: Vec<f64>,
    subs: SubBatchValues,
    ratios: RatioTally,
    rows: Vec<GameRow>,
}

impl ArmBatch {
    /// The values of the game's own figures and the standing figures over each sub-batch of
    /// [`sub_batch_size`] games (empty unless detailed).
    pub fn sub_batches(&self) -> &SubBatchValues {
        &self.subs
    }

    /// Games in the batch.
    pub fn games(&self) -> u64 {
        self.tally.games
    }

    /// The batch's value of each of the game's own figures (empty unless detailed).
    pub fn extras(&self) -> &[f64] {
        &self.extras
    }

    /// The batch's per-game rows (empty unless kept), taken out so they can be handed on
    /// (written, summed) instead of kept in [`ArmStats::rows`].
    pub fn take_rows(&mut self) -> Vec<GameRow> {
        std::mem::take(&mut self.rows)
    }
}

/// Plays batch `batch` of one arm and measures it.
pub fn arm_batch(arm: &Arm<'_>, cat: &Catalogue, plan: &PlayPlan, batch: u64, games: u64) -> Result<ArmBatch, Error> {
    arm_batch_with(arm, cat, plan, batch, games, &mut |_| {})
}

/// As [`arm_batch`], handing every game's per-game vector to `hook` in index order.
pub fn arm_batch_with(arm: &Arm<'_>, cat: &Catalogue, plan: &PlayPlan, batch: u64, games: u64, hook: &mut dyn FnMut(&[f64])) -> Result<ArmBatch, Error> {
    let mut tally = Tally::default();
    let mut moments = Moments::new(cat.per_game_len);
    let mut rows = Vec::new();
    let mut values = Vec::with_capacity(cat.per_game_len);
    // A rotated run counts one value per block: the mean of its games' values.
    let block = plan.block(arm.acting());
    let mut block_sum = vec![0.0; cat.per_game_len];
    let (seats, reasons, teams) = (arm.seated.facts().seats, arm.seated.facts().end_reasons.len(), &arm.seated.facts().teams);
    let crate::games::handle::PlayedBatch { metrics, standing, subs, ratios } = play_batch(arm, plan, batch, games, &mut |index, seed, turn, outcome| {
        tally.add(outcome, seats, reasons);
        tally.record_teams(outcome, teams);
        cat.per_game(outcome, turn, &mut values);
        if block == 1 {
            moments.add(&values);
            hook(&values);
        } else {
            for (s, v) in block_sum.iter_mut().zip(&values) {
                *s += v;
            }
            if turn as u64 + 1 == block {
                block_sum.iter_mut().for_each(|s| *s /= block as f64);
                moments.add(&block_sum);
                hook(&block_sum);
                block_sum.iter_mut().for_each(|s| *s = 0.0);
            }
        }
        if plan.keep_rows {
            rows.push(GameRow { index, seed, outcome: *outcome });
        }
    })?;
    // The game's own figures, then the standing figures (see `Catalogue::extra_index`).
    let extras = if plan.detailed {
        let mut x: Vec<f64> = metrics.summary(tally.games).into_iter().map(|(_, v)| v).collect();
        x.extend(super::metrics::standing_values(&standing.summary(arm.seated.facts().standing_unit)));
        x
    } else {
        Vec::new()
    };
    Ok(ArmBatch { tally, moments, metrics, standing, extras, subs, ratios, rows })
}

/// Everything one arm measured so far, folded batch by batch in index order.
#[derive(Default)]
pub struct ArmStats {
    /// The tally (identical to `simulate`'s for the same games).
    pub tally: Tally,
    /// Sums of the per-game vector.
    pub moments: Moments,
    /// The game's own metrics (`None` before the first batch; empty unless detailed).
    pub metrics: Option<Box<dyn AnyMetrics>>,
    /// The standing figures (empty unless detailed).
    pub standing: StandingTally,
    /// Per-sub-batch values (batches of [`sub_batch_size`] games) of each of the game's own
    /// figures, then of the standing figures: the units of their batch-means intervals.
    pub extras: Vec<BatchValues>,
    /// Per-game (per rotation block) sums of the game's ratios: the units of their
    /// ratio-estimator intervals (empty unless detailed).
    pub ratios: RatioTally,
    /// Per-game rows (empty unless kept).
    pub rows: Vec<GameRow>,
}

impl ArmStats {
    /// Folds the next batch in.
    pub fn add(&mut self, b: ArmBatch) {
        self.tally.merge(&b.tally);
        self.moments.merge(&b.moments);
        self.merge_metrics(b.metrics);
        self.standing.merge(&b.standing);
        self.ratios.merge(&b.ratios);
        for (games, sub) in b.subs {
            if self.extras.len() < sub.len() {
                self.extras.resize(sub.len(), Vec::new());
            }
            for (values, x) in self.extras.iter_mut().zip(sub) {
                values.push((games, x));
            }
        }
        self.rows.extend(b.rows);
    }

    /// Folds in another arm's stats of the batches that follow (a run measured in pieces,
    /// as `tune` does to read each batch's own value before adding it to the total).
    pub fn merge(&mut self, other: ArmStats) {
        self.tally.merge(&other.tally);
        self.moments.merge(&other.moments);
        if let Some(metrics) = other.metrics {
            self.merge_metrics(metrics);
        }
        self.standing.merge(&other.standing);
        self.ratios.merge(&other.ratios);
        if self.extras.len() < other.extras.len() {
            self.extras.resize(other.extras.len(), Vec::new());
        }
        for (values, x) in self.extras.iter_mut().zip(other.extras) {
            values.extend(x);
        }
        self.rows.extend(other.rows);
    }

    /// Folds a later batch's metrics into the run's (into an empty accumulator first, as
    /// the game's own metrics always start).
    fn merge_metrics(&mut self, metrics: Box<dyn AnyMetrics>) {
        self.metrics.get_or_insert_with(|| metrics.empty()).merge(metrics);
    }

    /// The game's own figures over the games so far.
    pub fn own_figures(&self, seated: &dyn SeatedGame) -> Vec<(String, f64)> {
        match &self.metrics {
            Some(m) => m.summary(self.tally.games),
            None => seated.new_metrics().summary(self.tally.games),
        }
    }

    /// The run's summary, exactly as `simulate` builds it.
    pub fn summary(&self, arm: &Arm<'_>, seed: u64, detailed: bool, seconds: f64) -> Summary {
        let game = arm.seated.facts();
        let mut summary = Summary::new(
            &self.tally,
            SummaryContext {
                game: game.id,
                variant: &arm.variant,
                seed,
                players: game.acting_seats,
                seats: game.seats,
                seat_bots: arm.seat_labels(),
                end_reasons: game.end_reasons,
                length_unit: game.length_unit,
                seconds,
                extra: if detailed { self.own_figures(arm.seated) } else { Vec::new() },
            },
        )
        .with_teams(&game.teams, &self.tally)
        .with_elimination(game.has_elimination);
        if detailed {
            summary.standing = Some(self.standing.summary(game.standing_unit));
        }
        summary
    }

    /// Every metric's estimate, given this arm's summary.
    pub fn estimates(&self, cat: &Catalogue, summary: &Summary) -> Vec<Estimate> {
        cat.estimates(&ArmData { summary, tally: &self.tally, moments: &self.moments, extras: &self.extras, ratios: &self.ratios })
    }
}

/// A rayon pool that runs jobs in windows and folds their results in job order.
pub struct Pool {
    pool: rayon::ThreadPool,
}

impl Pool {
    /// A pool of `threads` workers (0 = all cores).
    pub fn new(threads: usize) -> Result<Pool, Error> {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| Error::Usage(format!("cannot start {threads} threads: {e}")))?;
        Ok(Pool { pool })
    }

    /// Runs `task` on every job in parallel and calls `fold` on the results in job order, a
    /// window of jobs at a time (memory stays flat); `progress(jobs done)` after each window.
    /// The first error in job order stops the run; a stop asked for with Ctrl-C ends it early
    /// (`Ok`, with fewer jobs folded).
    pub fn run<J: Sync, T: Send>(
        &self,
        jobs: &[J],
        task: impl Fn(&J) -> Result<T, Error> + Sync,
        mut fold: impl FnMut(&J, T),
        progress: &mut dyn FnMut(usize),
    ) -> Result<(), Error> {
        self.try_run(
            jobs,
            task,
            |job, part| {
                fold(job, part);
                Ok(())
            },
            progress,
        )
    }

    /// As [`Pool::run`], with a `fold` that may fail (writing a batch's rows): its first
    /// error stops the run and is returned.
    pub fn try_run<J: Sync, T: Send>(
        &self,
        jobs: &[J],
        task: impl Fn(&J) -> Result<T, Error> + Sync,
        mut fold: impl FnMut(&J, T) -> Result<(), Error>,
        progress: &mut dyn FnMut(usize),
    ) -> Result<(), Error> {
        use rayon::prelude::*;
        let window = (self.pool.current_num_threads() * 8).max(1);
        for (w, chunk) in jobs.chunks(window).enumerate() {
            // A stop asked for (Ctrl-C) ends the run here, between windows: the jobs folded
            // so far are whole, and the caller sees `crate::interrupt::requested()`.
            if crate::interrupt::requested() {
                break;
            }
            let parts: Vec<Result<T, Error>> = self.pool.install(|| chunk.par_iter().map(&task).collect());
            for (job, part) in chunk.iter().zip(parts) {
                fold(job, part?)?;
            }
            progress(w * window + chunk.len());
        }
        Ok(())
    }
}

/// The batches of `size` games (see [`PlayPlan::batch_size`]) that take a run from `done`
/// games to `target` games (both multiples of the batch size, or `target` the run's last
/// count).
pub fn batches(done: u64, target: u64, size: u64) -> std::ops::Range<u64> {
    done / size..target.div_ceil(size)
}

/// `playtest trace PATH [--bots B] [--set S]...`: the command that replays a game of an arm.
pub fn replay_command(path: &std::path::Path, bots: Option<&str>, sets: &[String]) -> String {
    let mut c = format!("playtest trace {}", path.display());
    if let Some(b) = bots {
        c.push_str(&format!(" --bots {b}"));
    }
    for s in sets {
        c.push_str(&format!(" --set {s}"));
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Bot, Game, GameRng, game_seed};
    use crate::games::Registered;
    use crate::games::handle::seated;
    use crate::games::pig_farm::{Action, PigFarm};
    use crate::sim::SeatPlan;

    /// A broken bot: sells whatever it holds, which the rules forbid before three sets.
    struct AlwaysSell;

    impl Bot<PigFarm> for AlwaysSell {
        fn name(&self) -> &str {
            "always-sell"
        }
        fn decide(&mut self, _: &PigFarm, _: &<PigFarm as Game>::View<'_>, _: &mut GameRng) -> Action {
            Action::Sell
        }
    }

    #[test]
    fn a_broken_rule_names_the_game_seed_and_the_trace_command_that_replays_it() {
        let variant = crate::variant::Variant::load(std::path::Path::new("variants/pig-farm/standard.toml"), &[]).unwrap();
        let game = PigFarm::from_variant(&variant).unwrap();
        let build: fn(&PigFarm, &[f64]) -> Box<dyn Bot<PigFarm>> = |_, _| Box::new(AlwaysSell);
        let plans: Vec<SeatPlan<PigFarm>> = (0..4).map(|_| SeatPlan { label: "always-sell".into(), values: Vec::new(), build }).collect();
        let replay = replay_command(std::path::Path::new("v.toml"), Some("always-sell"), &["bank=3".into()]);
        let seated = seated(&game, &plans);
        let arm = Arm { seated: &seated, variant: "standard".into(), replay };
        let plan = PlayPlan { seed: 7, checked: true, detailed: false, keep_rows: false, rotate: false };
        let Err(Error::Invariant(message)) = play_batch(&arm, &plan, 0, 10, &mut |_, _, _, _| {}) else { panic!("the illegal sale is caught") };
        let seed = game_seed(7, 0);
        assert!(message.contains(&format!("game 0 (seed {seed})")), "{message}");
        assert!(message.contains("illegal action Sell"), "{message}");
        assert!(message.ends_with(&format!("replay it with: playtest trace v.toml --bots always-sell --set bank=3 --game-seed {seed}")), "{message}");
    }

    /// A rotated designer run of a 3-seat game (batches of 510 games, whole blocks) gives the
    /// simulator's rotated tally and per-bot win shares, and intervals over blocks.
    #[test]
    fn rotated_runs_match_the_simulator_and_count_blocks() {
        use crate::designer::metrics::Catalogue;
        use crate::games::take_a_penny::TakeAPenny;
        let variant = crate::variant::Variant::load(std::path::Path::new("variants/take-a-penny/three-players.toml"), &[]).unwrap();
        let game = TakeAPenny::from_variant(&variant).unwrap();
        let specs: Vec<crate::engine::BotSpec> = ["greedy", "random", "random"].iter().map(|s| crate::engine::BotSpec::parse(s).unwrap()).collect();
        let plans = crate::games::seat_plans(&game, &variant, Some(&specs), <TakeAPenny as crate::engine::Game>::INFO.default_bot).unwrap();
        let games = 1_200;
        let plan = PlayPlan { seed: 11, checked: false, detailed: false, keep_rows: false, rotate: true };
        assert_eq!(plan.batch_size(3), 510);
        assert!(check_blocks(&plan, 3, 1_201).is_err());
        let seated = seated(&game, &plans);
        let arm = Arm { seated: &seated, variant: "three-players".into(), replay: String::new() };
        let cat = Catalogue::new(&game).rotated(true, plans.len());
        let mut stats = ArmStats::default();
        for b in batches(0, games, plan.batch_size(3)) {
            stats.add(arm_batch(&arm, &cat, &plan, b, games).unwrap());
        }
        assert_eq!(stats.moments.n, games / 3, "one value per block");
        let cfg = crate::sim::RunConfig { rotate: true, ..crate::sim::RunConfig::new(games, 11) };
        let sim = crate::sim::run(&game, &plans, cfg).unwrap();
        assert_eq!(stats.tally.games, sim.tally.games);
        assert_eq!(stats.tally.wins, sim.tally.wins, "the same games as simulate --rotate");
        let rot = sim.rotation.as_ref().unwrap().summary();
        let summary = stats.summary(&arm, 11, false, 0.0);
        let est = stats.estimates(&cat, &summary);
        let greedy = est[cat.position("bot0_win_share").unwrap()];
        assert!((greedy.value - rot.bots[0].win_share).abs() < 1e-12, "{} vs {}", greedy.value, rot.bots[0].win_share);
        assert!((greedy.lo - rot.bots[0].ci95[0]).abs() < 0.005, "{greedy:?} vs {:?}", rot.bots[0].ci95);
        let random = (est[cat.position("bot1_win_share").unwrap()].value + est[cat.position("bot2_win_share").unwrap()].value) / 2.0;
        assert!((random - rot.bots[1].win_share).abs() < 1e-12);
    }
}
