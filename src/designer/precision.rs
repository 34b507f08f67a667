//! `--precision`: play until a 95% interval is narrow enough instead of a fixed game count.
//!
//! The rule is deterministic: the interval is looked at only at fixed game counts (10,240
//! games, then doubling: 20,480, 40,960, ..., and finally `--max-games`), each a whole number
//! of the simulator's 512-game batches, so the games played, and every number reported,
//! depend only on the results, never on timing or threads; and a run that stops at N games
//! gives exactly the numbers of `--games N`.

use clap::Args;

use crate::error::Error;
use crate::games::handle::{Run, SeatedGame};
use crate::progress::Progress;
use crate::sim::{RowSink, RunConfig};

use super::metrics::{ArmData, Catalogue, Interval, MetricDef, Unit};
use super::runner::{Arm, ArmStats, PlayPlan, Pool, batches};
use super::thousands;

/// First game count at which the interval is looked at (20 batches of 512).
pub const FIRST_CHECK: u64 = 10_240;

/// The `--precision` flags of simulate, report, compare and check.
#[derive(Args, Debug, Clone, Default)]
pub struct PrecisionArgs {
    /// Play until the 95% CI half-width of the first-player advantage (or --precision-metric) is at most this, e.g. 0.005 (shares and their differences are fractions: 0.005 is ±0.5 points); replaces --games.
    #[arg(long, value_name = "HALF_WIDTH", conflicts_with = "games", value_parser = parse_precision)]
    pub precision: Option<f64>,
    /// The metric --precision applies to (default first_player_advantage; for compare, its difference B - A); a figure with an interval, not a p-value.
    #[arg(long, value_name = "NAME", requires = "precision")]
    pub precision_metric: Option<String>,
    /// Most games --precision may play.
    #[arg(long, value_name = "N", default_value_t = 10_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_games: u64,
}

fn parse_precision(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("expected a half-width > 0 such as 0.005, got `{text}`")),
    }
}

impl PrecisionArgs {
    /// The metric the rule looks at.
    pub fn metric(&self) -> &str {
        self.precision_metric.as_deref().unwrap_or("first_player_advantage")
    }
}

/// A usage error unless `--precision target` can apply to `def`: the figure must have an
/// interval (not a p-value), and a share's or a share difference's half-width is a fraction
/// below 1 (`--precision 5` on a share was meant as 5 points, or 0.05).
pub fn check_target(def: &MetricDef, target: f64) -> Result<(), Error> {
    if def.is_p_value() {
        return Err(Error::Usage(format!(
            "--precision-metric: `{}` has no interval (a p-value is not an estimate with a margin); pick a share, a mean or a difference, e.g. first_player_advantage",
            def.name
        )));
    }
    if def.unit == Unit::Share && target >= 1.0 {
        return Err(Error::Usage(format!(
            "--precision {target}: `{}` is a share, and a share's precision is a fraction, e.g. 0.005 for ±0.5 points (--precision {} for ±{target} points)",
            def.name,
            target / 100.0
        )));
    }
    Ok(())
}

/// The game counts at which an adaptive run looks at its interval.
pub fn checkpoints(max_games: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut n = FIRST_CHECK;
    while n < max_games {
        out.push(n);
        n *= 2;
    }
    out.push(max_games);
    out
}

/// How an adaptive run ended.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Reached {
    /// The metric looked at.
    pub metric: String,
    /// The half-width asked for.
    pub target: f64,
    /// The half-width at the end.
    pub half_width: f64,
    /// Games played.
    pub games: u64,
    /// Whether the target was met (else `--max-games` stopped the run).
    pub reached: bool,
    /// Game counts at which the interval was looked at.
    pub checked_at: Vec<u64>,
}

impl Reached {
    /// One line for the terminal.
    pub fn describe(&self) -> String {
        let at: Vec<String> = self.checked_at.iter().map(|&n| thousands(n)).collect();
        if self.reached {
            format!(
                "precision: {} 95% CI half-width {:.5} <= {} after {} games (looked at {})",
                self.metric,
                self.half_width,
                self.target,
                thousands(self.games),
                at.join(", ")
            )
        } else {
            format!(
                "precision not reached: {} 95% CI half-width {:.5} > {} after --max-games {} games (looked at {})",
                self.metric,
                self.half_width,
                self.target,
                thousands(self.games),
                at.join(", ")
            )
        }
    }
}

/// Plays up to each checkpoint in turn (`play(done, target)` plays games `done..target` and
/// returns the half-width then) until the half-width is at most `target`.
pub fn adaptive(
    target: f64,
    metric: &str,
    max_games: u64,
    progress: &mut Progress,
    mut play: impl FnMut(u64, u64, &mut Progress) -> Result<f64, Error>,
) -> Result<Reached, Error> {
    let mut done = 0;
    let mut checked_at = Vec::new();
    let mut half_width = f64::INFINITY;
    for n in checkpoints(max_games) {
        progress.set_total(n);
        half_width = play(done, n, progress)?;
        if crate::interrupt::requested() {
            // Stopped part-way (Ctrl-C): the games played are what the caller reports.
            break;
        }
        done = n;
        checked_at.push(n);
        if half_width <= target {
            return Ok(Reached { metric: metric.into(), target, half_width, games: n, reached: true, checked_at });
        }
    }
    Ok(Reached { metric: metric.into(), target, half_width, games: done, reached: false, checked_at })
}

/// Plays one arm: `games` games, or adaptively when `precision.precision` is given. Returns
/// what it measured and, when adaptive, how it ended. With `rows`, the per-game rows (with
/// `plan.keep_rows`) go to it batch by batch in game order instead of into
/// [`ArmStats::rows`], so memory does not grow with the number of games.
pub fn run_arm(
    arm: &Arm<'_>,
    cat: &Catalogue,
    plan: &PlayPlan,
    (threads, games): (usize, u64),
    precision: &PrecisionArgs,
    progress: &mut Progress,
    mut rows: Option<&mut RowSink<'_>>,
) -> Result<(ArmStats, Option<Reached>), Error> {
    let pool = Pool::new(threads)?;
    let mut stats = ArmStats::default();
    let size = plan.batch_size(arm.acting());
    if plan.rotate && precision.precision.is_some() {
        return Err(Error::Usage("seat rotation cannot be combined with --precision yet: give --games (a multiple of the seats)".into()));
    }
    super::runner::check_blocks(plan, arm.acting(), games)?;
    let mut play = |done: u64, n: u64, progress: &mut Progress, stats: &mut ArmStats| {
        let jobs: Vec<u64> = batches(done, n, size).collect();
        let first = jobs.first().copied().unwrap_or(0);
        let fold = |_: &u64, mut b: super::runner::ArmBatch| {
            if let Some(sink) = rows.as_deref_mut() {
                sink(&b.take_rows())?;
            }
            stats.add(b);
            Ok(())
        };
        pool.try_run(&jobs, |&b| super::runner::arm_batch(arm, cat, plan, b, n), fold, &mut |k| progress.update(((first + k as u64) * size).min(n)))
    };
    let Some(target) = precision.precision else {
        progress.set_total(games);
        play(0, games, progress, &mut stats)?;
        progress.finish();
        return Ok((stats, None));
    };
    let name = precision.metric();
    let def = cat.get(name).ok_or_else(|| Error::Usage(format!("--precision-metric: unknown metric `{name}`; allowed: {}", cat.names())))?.clone();
    check_target(&def, target)?;
    if Catalogue::is_extra(&def) && !plan.detailed {
        return Err(Error::Usage(format!("--precision-metric: `{name}` needs the game's own metrics, which this command does not gather")));
    }
    let reached = adaptive(target, name, precision.max_games, progress, |done, n, progress| {
        play(done, n, progress, &mut stats)?;
        let summary = stats.summary(arm, plan.seed, plan.detailed, 0.0);
        let e = cat.estimate(&def, &ArmData { summary: &summary, tally: &stats.tally, moments: &stats.moments, extras: &stats.extras, ratios: &stats.ratios });
        // No interval yet is not a precise one.
        Ok(if e.interval == Interval::None { f64::INFINITY } else { e.half_width() })
    })?;
    progress.finish();
    Ok((stats, Some(reached)))
}

/// Plays like [`SeatedGame::run`], or adaptively when `--precision` is given (then
/// `cfg.games` is ignored); the per-game rows go to `rows` batch by batch in game order when
/// given (never kept: [`Run::rows`] stays empty). Returns the run and, when adaptive, how it
/// ended.
pub fn run_sim(
    seated: &dyn SeatedGame,
    cfg: RunConfig,
    precision: &PrecisionArgs,
    (variant, replay): (&str, String),
    progress: &mut Progress,
    rows: Option<&mut RowSink<'_>>,
) -> Result<(Run, Option<Reached>), Error> {
    if precision.precision.is_some() && cfg.rotate {
        return Err(Error::Usage("--rotate cannot be combined with --precision yet: give --games (a multiple of the seats)".into()));
    }
    if precision.precision.is_none() {
        let r = seated.run(cfg, &mut |d| progress.update(d), rows)?;
        progress.finish();
        return Ok((r, None));
    }
    let cat = Catalogue::of(seated.facts());
    let detailed = cfg.detailed || cat.get(precision.metric()).is_some_and(Catalogue::is_extra);
    let plan = PlayPlan { seed: cfg.seed, checked: cfg.checked, detailed, keep_rows: rows.is_some(), rotate: false };
    let arm = Arm { seated, variant: variant.to_string(), replay };
    let started = std::time::Instant::now();
    let (stats, reached) = run_arm(&arm, &cat, &plan, (cfg.threads, cfg.games), precision, progress, rows)?;
    let ArmStats { tally, metrics, standing, rows, extras, ratios, .. } = stats;
    let metrics = metrics.unwrap_or_else(|| seated.new_metrics());
    // An adaptive run's batches do not gather their bots' search statistics (no command that
    // runs adaptively prints them).
    let search = crate::engine::SearchStats::default();
    Ok((Run { tally, metrics, standing, rows, seconds: started.elapsed().as_secs_f64(), rotation: None, extras, ratios, search }, reached))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_double_from_whole_batches_and_end_at_the_maximum() {
        assert_eq!(checkpoints(50_000), vec![10_240, 20_480, 40_960, 50_000]);
        assert_eq!(checkpoints(40_960), vec![10_240, 20_480, 40_960]);
        assert_eq!(checkpoints(3_000), vec![3_000]);
        assert!(checkpoints(10_000_000).iter().rev().skip(1).all(|n| n % crate::sim::BATCH == 0));
    }

    #[test]
    fn adaptive_stops_at_the_first_checkpoint_that_is_precise_enough() {
        let mut p = Progress::hidden();
        let mut calls = Vec::new();
        let r = adaptive(0.01, "m", 1_000_000, &mut p, |done, n, _| {
            calls.push((done, n));
            Ok(1.0 / (n as f64).sqrt())
        })
        .unwrap();
        // 1/sqrt(n) <= 0.01 from n = 10,000: the first checkpoint 10,240 already holds.
        assert_eq!(r.games, 10_240);
        assert!(r.reached);
        assert_eq!(calls, vec![(0, 10_240)]);
        let r = adaptive(0.004, "m", 50_000, &mut p, |_, n, _| Ok(1.0 / (n as f64).sqrt())).unwrap();
        // 1/sqrt(n) <= 0.004 needs 62,500 games: the maximum stops it first.
        assert_eq!((r.games, r.reached), (50_000, false));
        assert_eq!(r.checked_at, vec![10_240, 20_480, 40_960, 50_000]);
    }
}
