//! The measuring part of `compare`: plays A and B on common random numbers (game i of both
//! from one seed), pairs every metric per game or by batch means, and returns a
//! [`Comparison`]; it prints and writes nothing.

use std::path::Path;

use crate::designer::metrics::{self, Catalogue, Estimate, Moments, Unit};
use crate::designer::precision::adaptive;
use crate::designer::runner::{Arm, ArmBatch, ArmStats, PlayPlan, Pool, arm_batch_with, batches, check_blocks, replay_command};
use crate::designer::seat;
use crate::error::Error;
use crate::games::{GameHandle, SeatedGame};
use crate::progress::Progress;
use crate::sim::BATCH;
use crate::stats::Z95;
use crate::variant::Variant;

use super::CompareOptions;
use super::result::{Comparison, MetricComparison, Side};

/// What a comparison is asked: the options and side B's variant, file and overrides.
pub(super) struct Compare<'a> {
    /// The options.
    pub(super) o: &'a CompareOptions,
    /// Variant B as loaded.
    pub(super) vb: &'a Variant,
    /// Its file.
    pub(super) b_path: &'a Path,
    /// Its overrides (`--set` then `--set-b`).
    pub(super) b_sets: &'a [String],
}

/// A metric both sides have: (catalogue index in A, in B, per-game index in A, in B).
#[derive(Clone, Copy)]
struct Common {
    a: usize,
    b: usize,
    per_game: Option<(usize, usize)>,
    extra: Option<(usize, usize)>,
}

/// Everything a paired run measured so far.
struct Acc {
    a: ArmStats,
    b: ArmStats,
    diffs: Moments,
    extra_diffs: Vec<Vec<(f64, f64)>>,
}

impl Acc {
    fn add(&mut self, p: PairedBatch) {
        self.a.add(p.a);
        self.b.add(p.b);
        self.diffs.merge(&p.diffs);
        for (values, x) in self.extra_diffs.iter_mut().zip(p.extra_diffs) {
            values.extend(x);
        }
    }
}

/// What one batch of a paired run measured.
struct PairedBatch {
    a: ArmBatch,
    b: ArmBatch,
    diffs: Moments,
    /// Per sub-batch (games, B - A) of each common figure gathered over whole batches.
    extra_diffs: Vec<Vec<(f64, f64)>>,
}

/// Both arms of a paired run: their catalogues, how each plays, the metrics they share.
struct PairedArms<'a> {
    a: Arm<'a>,
    b: Arm<'a>,
    cat_a: Catalogue,
    cat_b: Catalogue,
    plan_a: PlayPlan,
    plan_b: PlayPlan,
    common: Vec<Common>,
    /// Games per batch.
    size: u64,
}

impl PairedArms<'_> {
    /// Plays batch `batch` of a run of `n` games on both sides and pairs the values game by
    /// game (block by block when rotated) and sub-batch by sub-batch.
    fn batch(&self, batch: u64, n: u64) -> Result<PairedBatch, Error> {
        let (cat_a, common) = (&self.cat_a, &self.common);
        let mut a_values: Vec<f64> = Vec::with_capacity(BATCH as usize * cat_a.per_game_len);
        let a = arm_batch_with(&self.a, cat_a, &self.plan_a, batch, n, &mut |v| a_values.extend_from_slice(v))?;
        let mut d = Moments::new(common.len());
        let mut row = vec![0.0; common.len()];
        let mut k = 0;
        let b = arm_batch_with(&self.b, &self.cat_b, &self.plan_b, batch, n, &mut |v| {
            let va = &a_values[k * cat_a.per_game_len..(k + 1) * cat_a.per_game_len];
            for (x, c) in row.iter_mut().zip(common) {
                *x = c.per_game.map_or(0.0, |(ia, ib)| v[ib] - va[ia]);
            }
            d.add(&row);
            k += 1;
        })?;
        // Paired by sub-batch (the same games' seeds on both sides): the units of the
        // batch-means interval, as for one arm's own figures.
        let extra_diffs = common
            .iter()
            .map(|c| match c.extra {
                Some((ia, ib)) => a.sub_batches().iter().zip(b.sub_batches()).map(|((g, xa), (_, xb))| (*g, xb[ib] - xa[ia])).collect(),
                None => Vec::new(),
            })
            .collect();
        Ok(PairedBatch { a, b, diffs: d, extra_diffs })
    }

    /// Plays the batches that take both sides from `done` to `n` games into `acc`.
    fn play(&self, pool: &Pool, (done, n): (u64, u64), progress: &mut Progress, acc: &mut Acc) -> Result<(), Error> {
        let jobs: Vec<u64> = batches(done, n, self.size).collect();
        let first = jobs.first().copied().unwrap_or(0);
        pool.run(&jobs, |&batch| self.batch(batch, n), |_, p| acc.add(p), &mut |k| progress.update(((first + k as u64) * self.size).min(n)))
    }

    /// Every metric's row: both sides' estimates and the difference B - A with its paired
    /// interval (and the interval of independent runs, for comparison).
    fn rows(&self, acc: &Acc, seconds: f64) -> Vec<MetricComparison> {
        let (cat_a, cat_b) = (&self.cat_a, &self.cat_b);
        let Acc { a: sa, b: sb, diffs, extra_diffs } = acc;
        let (sum_a, sum_b) = (sa.summary(&self.a, self.plan_a.seed, true, seconds), sb.summary(&self.b, self.plan_b.seed, true, seconds));
        let (est_a, est_b) = (sa.estimates(cat_a, &sum_a), sb.estimates(cat_b, &sum_b));
        // Per-game values (per block when rotated) counted, for the independent-runs interval.
        let n = sa.moments.n;
        let mut rows = Vec::new();
        for (k, c) in self.common.iter().enumerate() {
            let d = &cat_a.defs[c.a];
            let (ea, eb) = (est_a[c.a], est_b[c.b]);
            // A figure that applies in neither arm (a card in neither deck) is absent.
            if !ea.value.is_finite() && !eb.value.is_finite() {
                continue;
            }
            let diff = eb.value - ea.value;
            let (paired, independent) = match (c.per_game, c.extra) {
                (Some((ia, ib)), _) if n > 0 => {
                    let indep = Z95 * ((sa.moments.variance(ia) + sb.moments.variance(ib)) / n as f64).sqrt();
                    (Some(diffs.half_width(k)), Some(indep))
                }
                (None, Some(_)) => {
                    let paired = metrics::batch_half_width(&extra_diffs[k]);
                    let indep = (ea.interval != metrics::Interval::None && eb.interval != metrics::Interval::None)
                        .then(|| (ea.half_width().powi(2) + eb.half_width().powi(2)).sqrt());
                    (paired, indep.filter(|_| paired.is_some()))
                }
                // A length quantile: no per-game values to pair, but both arms' intervals.
                _ if ea.interval != metrics::Interval::None && eb.interval != metrics::Interval::None => {
                    (None, Some((ea.half_width().powi(2) + eb.half_width().powi(2)).sqrt()))
                }
                _ => (None, None),
            };
            rows.push(row(d, ea, eb, diff, paired, independent));
        }
        for (ib, d) in cat_b.defs.iter().enumerate() {
            if cat_a.get(&d.name).is_none() {
                rows.push(row(d, Estimate::point(f64::NAN), est_b[ib], f64::NAN, None, None));
            }
        }
        for (ia, d) in cat_a.defs.iter().enumerate() {
            if cat_b.get(&d.name).is_none() {
                rows.push(row(d, est_a[ia], Estimate::point(f64::NAN), f64::NAN, None, None));
            }
        }
        rows
    }
}

/// The metrics both catalogues have, with their places in each.
fn common_metrics(cat_a: &Catalogue, cat_b: &Catalogue) -> Vec<Common> {
    cat_a
        .defs
        .iter()
        .enumerate()
        .filter_map(|(ia, d)| {
            let ib = cat_b.position(&d.name)?;
            let db = &cat_b.defs[ib];
            let per_game = d.per_game.zip(db.per_game);
            let extra = Catalogue::extra_index(d).zip(Catalogue::extra_index(db));
            Some(Common { a: ia, b: ib, per_game, extra })
        })
        .collect()
}

/// The common metric `--precision` plays until narrow enough (`None` without `--precision`).
fn precision_index(o: &CompareOptions, common: &[Common], cat_a: &Catalogue) -> Result<Option<usize>, Error> {
    if o.precision.precision.is_none() {
        return Ok(None);
    }
    let name = o.precision.metric();
    let k = common
        .iter()
        .position(|c| cat_a.defs[c.a].name == name)
        .ok_or_else(|| Error::Usage(format!("--precision-metric: unknown metric `{name}`; allowed: {}", cat_a.names())))?;
    crate::designer::precision::check_target(&cat_a.defs[common[k].a], o.precision.precision.unwrap_or(0.0))?;
    if common[k].per_game.is_none() && common[k].extra.is_none() {
        return Err(Error::Usage(format!("--precision-metric: `{name}` has no paired interval; pick a share, a mean or the game's own figure")));
    }
    Ok(Some(k))
}

/// Both sides seated, checked for a rotated comparison, with their catalogues and plans.
fn paired_arms<'a>(cmp: &Compare<'_>, va: &Variant, (seated_a, seated_b): (&'a dyn SeatedGame, &'a dyn SeatedGame)) -> Result<PairedArms<'a>, Error> {
    let o = cmp.o;
    let bots_b = o.bots_b.as_deref().or(o.bots.as_deref());
    let a = Arm { seated: seated_a, variant: va.name.clone(), replay: replay_command(&o.a, o.bots.as_deref(), &o.sets) };
    let b = Arm { seated: seated_b, variant: cmp.vb.name.clone(), replay: replay_command(cmp.b_path, bots_b, cmp.b_sets) };
    let rotate = o.run.rotate || va.rotate || cmp.vb.rotate;
    let (acting_a, acting_b) = (seated_a.acting(), seated_b.acting());
    let (cat_a, cat_b) = (Catalogue::of(seated_a.facts()).rotated(rotate, acting_a), Catalogue::of(seated_b.facts()).rotated(rotate, acting_b));
    let common = common_metrics(&cat_a, &cat_b);
    let seed_b = o.seed_b.unwrap_or(o.run.seed);
    if rotate && acting_a != acting_b {
        return Err(Error::Usage(format!(
            "seat rotation compares blocks of one game per seat: both sides need the same number of bots (A has {acting_a}, B has {acting_b})"
        )));
    }
    let plan_a = PlayPlan { seed: o.run.seed, checked: o.run.checked, detailed: true, keep_rows: false, rotate };
    if rotate && o.precision.precision.is_some() {
        return Err(Error::Usage("seat rotation cannot be combined with --precision yet: give --games (a multiple of the seats)".into()));
    }
    check_blocks(&plan_a, acting_a, o.run.games)?;
    let size = plan_a.batch_size(acting_a);
    let plan_b = PlayPlan { seed: seed_b, ..plan_a };
    Ok(PairedArms { a, b, cat_a, cat_b, plan_a, plan_b, common, size })
}

/// Plays A (`game_a`, from `va`) and B on common random numbers and measures every metric's
/// difference.
pub(super) fn compare(game_a: &dyn GameHandle, va: &Variant, cmp: &Compare<'_>) -> Result<Comparison, Error> {
    let o = cmp.o;
    let game_b = game_a.with_variant(cmp.vb)?;
    let seated_a = seat(game_a, va, o.bots.as_deref(), "--bots")?;
    let bots_b = o.bots_b.as_deref().or(o.bots.as_deref());
    let seated_b = seat(&*game_b, cmp.vb, bots_b, if o.bots_b.is_some() { "--bots-b" } else { "--bots" })?;
    let p = paired_arms(cmp, va, (&*seated_a, &*seated_b))?;
    let pool = Pool::new(o.run.threads)?;
    let mut progress = Progress::new(o.run.games, o.json || o.run.quiet);
    let mut acc = Acc { a: ArmStats::default(), b: ArmStats::default(), diffs: Moments::new(p.common.len()), extra_diffs: vec![Vec::new(); p.common.len()] };
    let precision_index = precision_index(o, &p.common, &p.cat_a)?;
    let started = std::time::Instant::now();
    let reached = match (o.precision.precision, precision_index) {
        (Some(target), Some(k)) => Some(adaptive(target, o.precision.metric(), o.precision.max_games, &mut progress, |done, n, progress| {
            p.play(&pool, (done, n), progress, &mut acc)?;
            Ok(match p.common[k].per_game {
                Some(_) => acc.diffs.half_width(k),
                None => metrics::batch_half_width(&acc.extra_diffs[k]).unwrap_or(f64::INFINITY),
            })
        })?),
        _ => {
            p.play(&pool, (0, o.run.games), &mut progress, &mut acc)?;
            None
        }
    };
    progress.finish();
    let rows = p.rows(&acc, started.elapsed().as_secs_f64());
    let side = |path: &Path, v: &Variant, arm: &Arm<'_>, sets: &[String], seed: u64| Side {
        path: path.display().to_string(),
        variant: v.name.clone(),
        bots: arm.seated.labels(),
        sets: sets.to_vec(),
        seed,
    };
    let facts = game_a.facts();
    Ok(Comparison {
        game: facts.id.to_string(),
        a: side(&o.a, va, &p.a, &o.sets, o.run.seed),
        b: side(cmp.b_path, cmp.vb, &p.b, cmp.b_sets, p.plan_b.seed),
        games: acc.a.tally.games,
        rotation_block: p.plan_a.rotate.then_some(p.a.acting() as u64),
        common_random_numbers: p.plan_b.seed == o.run.seed,
        length_unit: facts.length_unit.to_string(),
        precision: reached,
        metrics: rows,
    })
}

fn unit_name(u: Unit) -> &'static str {
    match u {
        Unit::Share => "share",
        Unit::Length => "length",
        Unit::Plain => "plain",
    }
}

pub(super) fn row(d: &metrics::MetricDef, a: Estimate, b: Estimate, diff: f64, paired: Option<f64>, independent: Option<f64>) -> MetricComparison {
    // No interval, and no verdict, for a difference with an absent side.
    let ci = |h: Option<f64>| h.filter(|h| h.is_finite() && diff.is_finite()).map(|h| [diff - h, diff + h]);
    let paired_ci = ci(paired);
    MetricComparison {
        name: d.name.clone(),
        about: d.about.clone(),
        unit: unit_name(d.unit),
        own_unit: d.own_unit.clone(),
        own: metrics::Catalogue::extra_index(d).is_some(),
        difference: d.is_share_difference(),
        applies: d.applies,
        a: a.value,
        a_ci: [a.lo, a.hi],
        b: b.value,
        b_ci: [b.lo, b.hi],
        interval: [a.interval.label(), b.interval.label()],
        diff,
        significant: paired_ci.map(|c| c[0] > 0.0 || c[1] < 0.0),
        paired_ci,
        independent_ci: ci(independent),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_difference_is_significant_only_when_its_paired_interval_excludes_zero() {
        let variant = Variant::load(Path::new("variants/pig-farm/standard.toml"), &[]).unwrap();
        let game = crate::games::handle(&variant).unwrap();
        let cat = Catalogue::of(game.facts());
        let fpa = cat.get("first_player_advantage").unwrap();
        let (a, b) = (Estimate::point(0.5), Estimate::point(0.52));
        let judged = |diff: f64, half: Option<f64>| row(fpa, a, b, diff, half, Some(0.03)).significant;
        assert_eq!(judged(0.02, Some(0.01)), Some(true), "95% CI +1 to +3 pts");
        assert_eq!(judged(-0.02, Some(0.01)), Some(true), "95% CI -3 to -1 pts");
        assert_eq!(judged(0.005, Some(0.01)), Some(false), "straddles 0");
        assert_eq!(judged(0.01, Some(0.01)), Some(false), "an interval ending at 0 does not exclude it");
        assert_eq!(judged(0.02, None), None, "no paired interval: not judged");
        assert_eq!(judged(0.02, Some(f64::INFINITY)), None, "an infinite half-width is no interval");
        assert_eq!(judged(f64::NAN, Some(0.01)), None, "a side without the figure: no difference to judge");
        let r = row(fpa, a, b, 0.02, Some(0.01), Some(0.03));
        assert!(r.difference && r.unit == "share");
        assert_eq!(r.paired_ci, Some([0.01, 0.03]));
        assert!((r.width_ratio().unwrap() - 1.0 / 3.0).abs() < 1e-12, "paired over independent width");
    }
}
