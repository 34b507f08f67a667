//! `playtest compare A.toml [B.toml]`: two variants of one game, or two line-ups on one variant
//! (`--bots-b`), played on common random numbers: game i of A and game i of B start from the
//! same seed (and every seat's bot has its own stream), so the deal is the same and the noise
//! that both share cancels in the difference.
//!
//! Pairing costs constant memory: inside each 512-game batch A and B play the same indices and
//! the per-game differences of every metric are summed (Σd, Σd²); the paired 95% interval is
//! mean(d) ± z·sd(d)/√n. The interval two independent runs would give, z·√(var A/n + var B/n),
//! is printed beside it. The game's own figures are paired by batch means.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::engine::{BarSeries, ChartSpec};
use crate::error::Error;
use crate::games::{self, GameHandle, SeatedGame};
use crate::output::Partial;
use crate::output::atomic::OutputDir;
use crate::progress::Progress;
use crate::sim::BATCH;
use crate::stats::Z95;
use crate::variant::Variant;

use super::metrics::{self, Catalogue, Estimate, Moments, Unit};
use super::precision::{PrecisionArgs, Reached, adaptive};
use super::runner::{Arm, ArmBatch, ArmStats, PlayPlan, Pool, arm_batch_with, batches, check_blocks, replay_command};
use super::{RunOptions, seat, thousands, write_file};

/// What `compare` was asked.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    /// Variant A.
    pub a: PathBuf,
    /// Variant B (default: A).
    pub b: Option<PathBuf>,
    /// Bots of A, and of B unless `bots_b`.
    pub bots: Option<String>,
    /// Bots of B.
    pub bots_b: Option<String>,
    /// Overrides of both variants.
    pub sets: Vec<String>,
    /// Overrides of B only (after `sets`).
    pub sets_b: Vec<String>,
    /// Games, seed, threads, checks, quiet.
    pub run: RunOptions,
    /// Seed of B (default: the seed of A; another seed makes the runs independent).
    pub seed_b: Option<u64>,
    /// Adaptive game count.
    pub precision: PrecisionArgs,
    /// Print one JSON object.
    pub json: bool,
    /// Write charts, CSV and JSON here.
    pub out: Option<PathBuf>,
    /// On Ctrl-C, still write `out` for the games played, marked partial.
    pub keep_partial: bool,
}

/// One side of a comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Side {
    /// The variant file.
    pub path: String,
    /// The variant's name.
    pub variant: String,
    /// Bot per acting seat.
    pub bots: Vec<String>,
    /// The `--set` overrides this side played, as given (for B: `--set` then `--set-b`).
    pub sets: Vec<String>,
    /// Master seed.
    pub seed: u64,
}

impl Side {
    /// The side in one line: the variant, its file with the overrides, and the bots
    /// (`standard (variants/pig-farm/standard.toml --set scoring.seller.3=15), bots threshold x4`).
    pub fn describe(&self) -> String {
        let mut file = self.path.clone();
        for s in &self.sets {
            file.push_str(&format!(" --set {s}"));
        }
        format!("{} ({file}), bots {}", self.variant, bots_text(&self.bots))
    }

    /// The side as a chart names it: the variant's name and its overrides.
    pub fn short(&self) -> String {
        let mut s = self.variant.clone();
        for set in &self.sets {
            s.push_str(&format!(" {set}"));
        }
        s
    }
}

/// Bots per seat, runs of one bot written once with a count (`threshold x4`, `random, greedy x3`).
fn bots_text(bots: &[String]) -> String {
    let mut runs: Vec<(&str, usize)> = Vec::new();
    for b in bots {
        match runs.last_mut() {
            Some((name, n)) if *name == b.as_str() => *n += 1,
            _ => runs.push((b, 1)),
        }
    }
    runs.iter().map(|(b, n)| if *n > 1 { format!("{b} x{n}") } else { b.to_string() }).collect::<Vec<_>>().join(", ")
}

/// One metric of a comparison.
#[derive(Clone, Debug, Serialize)]
pub struct MetricComparison {
    /// Metric name.
    pub name: String,
    /// What it is.
    pub about: String,
    /// "share" (a fraction), "length" or "plain".
    pub unit: &'static str,
    /// The unit of one of the game's own figures in its words ("pegs per game"; empty for
    /// a share and for the common figures).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub own_unit: String,
    /// Whether it is one of the game's own figures (the table then says what it is).
    #[serde(skip)]
    pub own: bool,
    /// Whether it is a difference of shares (the first-player advantage), shown in points.
    #[serde(skip)]
    pub difference: bool,
    /// Whether the figure applies to the game ([`metrics::MetricDef::applies`]): the
    /// terminal table leaves out the rest (compare.json and compare.csv keep every figure).
    #[serde(skip)]
    pub applies: bool,
    /// Value of A (null when A has no such metric).
    pub a: f64,
    /// 95% interval of A.
    pub a_ci: [f64; 2],
    /// Value of B.
    pub b: f64,
    /// 95% interval of B.
    pub b_ci: [f64; 2],
    /// How A's and B's intervals are computed (`wilson`, `mean`, `ratio estimator`, `batch
    /// means`, `order statistics`; `constant` and `none`: the value alone, no interval).
    pub interval: [&'static str; 2],
    /// B - A.
    pub diff: f64,
    /// Paired 95% interval of B - A (null when the metric has no paired interval).
    pub paired_ci: Option<[f64; 2]>,
    /// The 95% interval of B - A that two independent runs of the same size would give.
    pub independent_ci: Option<[f64; 2]>,
    /// Whether the paired interval excludes 0.
    pub significant: Option<bool>,
}

impl MetricComparison {
    /// Paired width over independent width (below 1: pairing helped).
    pub fn width_ratio(&self) -> Option<f64> {
        let (p, i) = (self.paired_ci?, self.independent_ci?);
        let w = i[1] - i[0];
        (w > 0.0).then(|| (p[1] - p[0]) / w)
    }
}

/// The whole comparison (`--json` prints it).
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// Game id.
    pub game: String,
    /// Side A.
    pub a: Side,
    /// Side B.
    pub b: Side,
    /// Games per side.
    pub games: u64,
    /// Whether game i of A and of B share a seed.
    pub common_random_numbers: bool,
    /// Unit of game length (turns, rounds).
    pub length_unit: String,
    /// How an adaptive run ended.
    pub precision: Option<Reached>,
    /// Seat rotation: games per block (absent when not rotated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation_block: Option<u64>,
    /// Every metric.
    pub metrics: Vec<MetricComparison>,
}

/// Plays the comparison and returns it, printing and writing nothing (`watch` shows what
/// moved between two saves of a variant with it).
pub fn measure(o: &CompareOptions) -> Result<Comparison, Error> {
    let (va, vb, b_path, b_sets) = load(o)?;
    compare(&*games::handle(&va)?, &va, &Compare { o, vb: &vb, b_path: &b_path, b_sets: &b_sets })
}

/// Variant A, variant B, B's path and B's overrides; both of one game.
fn load(o: &CompareOptions) -> Result<(Variant, Variant, PathBuf, Vec<String>), Error> {
    let va = Variant::load(&o.a, &o.sets)?;
    let b_path = o.b.clone().unwrap_or_else(|| o.a.clone());
    let mut b_sets = o.sets.clone();
    b_sets.extend(o.sets_b.iter().cloned());
    let vb = Variant::load(&b_path, &b_sets)?;
    if va.game != vb.game {
        return Err(Error::Usage(format!(
            "compare needs two variants of the same game: {} is `{}`, {} is `{}`",
            o.a.display(),
            va.game,
            b_path.display(),
            vb.game
        )));
    }
    Ok((va, vb, b_path, b_sets))
}

/// Runs `compare`.
pub fn main(o: &CompareOptions) -> Result<Comparison, Error> {
    let (va, vb, b_path, b_sets) = load(o)?;
    // Before the long run: the folder's lock and a writable temporary folder.
    crate::interrupt::install();
    let out = o.out.as_deref().map(super::interrupted::open_out).transpose()?;
    let result = compare(&*games::handle(&va)?, &va, &Compare { o, vb: &vb, b_path: &b_path, b_sets: &b_sets })?;
    let stopped = super::interrupted::partial(result.games, o.precision.precision.is_none().then_some(o.run.games));
    if o.json {
        match &stopped {
            Some(p) => crate::output::print_json(&crate::output::marked(&result, Some(p))?)?,
            None => crate::output::print_json(&result)?,
        }
    } else {
        if let Some(p) = &stopped {
            println!("{}", p.banner());
        }
        print!("{}", table(&result));
        for note in
            super::bot_keys::notes(&va.game, &[result.a.bots.clone(), result.b.bots.clone()].concat(), &super::bot_keys::changed_keys(&va.table, &vb.table))
        {
            println!("note: {note}");
        }
    }
    if let Some(p) = &stopped {
        if let Some(out) = out.as_ref().filter(|_| o.keep_partial) {
            write_outputs(&result, out.path(), Some(p))?;
        }
        return Err(super::interrupted::stopped(out, o.keep_partial, &format!("{} games each", p.played)));
    }
    if let Some(out) = out {
        let written = write_outputs(&result, out.path(), None)?;
        out.commit()?;
        if !o.json {
            println!("wrote {} into {}", written.join(", "), crate::output::shown::tidy(o.out.as_deref().unwrap_or(Path::new("."))).display());
        }
    } else if !o.json {
        println!("(add --out DIR for the page: DIR/index.html with the charts, compare.json and compare.csv)");
    }
    Ok(result)
}

struct Compare<'a> {
    o: &'a CompareOptions,
    vb: &'a Variant,
    b_path: &'a Path,
    b_sets: &'a [String],
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
    super::precision::check_target(&cat_a.defs[common[k].a], o.precision.precision.unwrap_or(0.0))?;
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
fn compare(game_a: &dyn GameHandle, va: &Variant, cmp: &Compare<'_>) -> Result<Comparison, Error> {
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

fn row(d: &metrics::MetricDef, a: Estimate, b: Estimate, diff: f64, paired: Option<f64>, independent: Option<f64>) -> MetricComparison {
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

/// One side's value of `m` as the tables show it: a difference of shares in points, a share
/// in %, others as numbers.
pub fn value_of(m: &MetricComparison, v: f64) -> String {
    if m.difference { crate::stats::format::points(v) } else { metrics::format_value(unit_of(m), v) }
}

fn unit_of(m: &MetricComparison) -> Unit {
    match m.unit {
        "share" => Unit::Share,
        "length" => Unit::Length,
        _ => Unit::Plain,
    }
}

/// The comparison as a table for the terminal.
pub fn table(c: &Comparison) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "compare ({}):\n  A = {}\n  B = {}", c.game, c.a.describe(), c.b.describe());
    if c.common_random_numbers {
        let _ = writeln!(out, "{} games each, seed {}: common random numbers (game i of A and of B start from the same seed)", thousands(c.games), c.a.seed);
    } else {
        let _ = writeln!(out, "{} games each, seeds {} and {}: independent runs", thousands(c.games), c.a.seed, c.b.seed);
    }
    if let Some(p) = &c.precision {
        let _ = writeln!(out, "{}", p.describe());
    }
    if let Some(block) = c.rotation_block {
        let _ = writeln!(
            out,
            "seats rotated: blocks of {block} games on one deal, the line-up turned one seat each; seat figures average the bots out, bot<k>_win_share (the bot listed for seat k) the seats; intervals over blocks"
        );
    }
    let _ = writeln!(out, "\n| metric | A | B | B - A | 95% CI paired | 95% CI independent runs | paired/independent width | significant |");
    let _ = writeln!(out, "|---|---:|---:|---:|---|---|---:|---|");
    let mut ratios = Vec::new();
    for m in c.metrics.iter().filter(|m| m.applies) {
        let u = unit_of(m);
        let ci = |x: Option<[f64; 2]>| x.map_or("-".to_string(), |[lo, hi]| format!("{} to {}", metrics::format_diff(u, lo), metrics::format_diff(u, hi)));
        let ratio = m.width_ratio();
        if let Some(r) = ratio {
            ratios.push(r);
        }
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            m.name,
            value_of(m, m.a),
            value_of(m, m.b),
            metrics::format_diff(u, m.diff),
            ci(m.paired_ci),
            ci(m.independent_ci),
            ratio.map_or("-".into(), |r| format!("{r:.2}")),
            match m.significant {
                Some(true) => "yes",
                Some(false) => "no",
                None => "-",
            }
        );
    }
    let own: Vec<String> = c
        .metrics
        .iter()
        .filter(|m| m.own)
        .map(|m| {
            let unit = if m.unit == "share" { "%".to_string() } else { m.own_unit.clone() };
            if unit.is_empty() { format!("- {}: {}", m.name, m.about) } else { format!("- {}: {} ({unit})", m.name, m.about) }
        })
        .collect();
    if !own.is_empty() {
        let _ = writeln!(out, "\nWhat the game's own and the standing figures are:\n{}", own.join("\n"));
    }
    let unpaired: Vec<&str> = c.metrics.iter().filter(|m| m.paired_ci.is_none()).map(|m| m.name.as_str()).collect();
    if !unpaired.is_empty() {
        let _ = writeln!(
            out,
            "\n-: no paired CI for {}: a p-value has no interval; a length quantile is not a mean of per-game values (its independent-runs CI is shown); a game's own figure needs at least {} games (two batches of {}); a figure measured in one variant only has no difference.",
            unpaired.join(", "),
            2 * crate::stats::interval::SUB_BATCH,
            crate::stats::interval::SUB_BATCH
        );
    }
    if !ratios.is_empty() {
        ratios.sort_by(f64::total_cmp);
        let median = ratios[ratios.len() / 2];
        let _ = writeln!(
            out,
            "\nsignificant: the paired 95% CI excludes 0 (no correction for testing many metrics). Paired CI width / independent-runs width: median {median:.2} over {} metrics (below 1: pairing helped).",
            ratios.len()
        );
    }
    let _ = writeln!(out, "\nverdict (B against A): {}", verdict(c));
    out
}

/// A figure's name in words for a verdict.
fn label(name: &str) -> String {
    match name {
        "first_player_advantage" => "first-player advantage".into(),
        "mean_length" => "game length".into(),
        _ => name.replace('_', " "),
    }
}

/// A difference as a verdict says it, with its paired interval: shares in points, lengths in
/// their unit ([`crate::stats::format`]).
fn said(m: &MetricComparison, length_unit: &str) -> String {
    use crate::stats::format;
    let [lo, hi] = m.paired_ci.unwrap_or([f64::NAN; 2]);
    match unit_of(m) {
        Unit::Share => format::points_ci(m.diff, lo, hi),
        Unit::Length if lo.is_finite() && hi.is_finite() => {
            format!("{} {length_unit}, 95% CI {} to {}", format::signed(m.diff, 1), format::signed(lo, 1), format::signed(hi, 1))
        }
        Unit::Length => format!("{} {length_unit}", format::signed(m.diff, 1)),
        Unit::Plain => format::number_ci(m.diff, lo, hi, 3, true),
    }
}

/// The figures whose paired 95% interval excludes 0 (moved), includes it (did not move), and
/// those with no paired interval (not judged), in the comparison's order.
pub fn partition(c: &Comparison) -> (Vec<&MetricComparison>, Vec<&MetricComparison>, Vec<&MetricComparison>) {
    let mut moved = Vec::new();
    let mut still = Vec::new();
    let mut unjudged = Vec::new();
    for m in &c.metrics {
        match m.significant {
            Some(true) => moved.push(m),
            Some(false) => still.push(m),
            None => unjudged.push(m),
        }
    }
    (moved, still, unjudged)
}

/// The comparison in one line: the first-player advantage (in a team game the first
/// mover's team's) and the game length (moved, with the difference, or unchanged), then how
/// many other figures moved and the ones that moved most, largest first by how many
/// half-widths of its paired interval the difference is ("first-player advantage -1.8 pts
/// (significant); game length unchanged; no other figure moved"). Figures that only restate
/// another are left out of the list: the first team's advantage and every team's and seat
/// 0's win share (they move with the first-player advantage), and a share that mirrors one
/// already listed (its difference the exact negative: two end reasons that share all games).
pub fn verdict(c: &Comparison) -> String {
    const HEADLINE: [&str; 2] = ["first_player_advantage", "mean_length"];
    let teams = c.metrics.iter().any(|m| m.name == "first_team_advantage");
    let mut parts = Vec::new();
    for name in HEADLINE {
        let Some(m) = c.metrics.iter().find(|m| m.name == name) else { continue };
        let label = if teams && name == "first_player_advantage" { "first-player advantage (seat 0's team)".to_string() } else { label(name) };
        parts.push(match m.significant {
            Some(true) => format!("{label} {} (significant)", said(m, &c.length_unit)),
            Some(false) => format!("{label} unchanged"),
            None => format!("{label} not judged (no paired interval)"),
        });
    }
    let (moved, _, _) = partition(c);
    let restates = |name: &str| {
        HEADLINE.contains(&name) || name == "first_team_advantage" || name == "seat0_win_share" || (name.starts_with("team") && name.ends_with("_win_share"))
    };
    // How far a difference is from 0 in half-widths of its paired interval.
    let strength = |m: &MetricComparison| m.paired_ci.map_or(0.0, |[lo, hi]| if hi > lo { m.diff.abs() / ((hi - lo) / 2.0) } else { f64::INFINITY });
    let mut others: Vec<&MetricComparison> = moved.iter().copied().filter(|m| !restates(&m.name)).collect();
    others.sort_by(|x, y| strength(y).total_cmp(&strength(x)));
    let mut listed: Vec<&MetricComparison> = Vec::new();
    for m in others {
        let mirror = listed.iter().any(|l| unit_of(l) == Unit::Share && unit_of(m) == Unit::Share && (l.diff + m.diff).abs() < 1e-12);
        if !mirror {
            listed.push(m);
        }
    }
    const LISTED: usize = 4;
    parts.push(match listed.len() {
        0 => "no other figure moved".into(),
        n => {
            let named: Vec<String> = listed.iter().take(LISTED).map(|m| format!("{} {}", label(&m.name), said(m, &c.length_unit))).collect();
            let more = if n > LISTED { format!(" and {} more", n - LISTED) } else { String::new() };
            format!("{n} other figure{} moved (largest first): {}{more}", if n == 1 { "" } else { "s" }, named.join("; "))
        }
    });
    parts.join("; ")
}

/// The comparison as a report section (`report --baseline`): the verdict and who was compared
/// above a table of every figure with the difference and its paired interval.
pub fn section(c: &Comparison) -> crate::report::Section {
    let ci = |m: &MetricComparison| {
        let u = unit_of(m);
        m.paired_ci.map_or("-".to_string(), |[lo, hi]| format!("{} to {}", metrics::format_diff(u, lo), metrics::format_diff(u, hi)))
    };
    crate::report::Section {
        title: format!("Compared with the baseline ({} games each, common random numbers)", thousands(c.games)),
        lead: format!(
            "Verdict (this variant against the baseline): {}. Baseline (A) = {}; this variant (B) = {}. A figure moved when its paired 95% CI of B - A excludes 0 (no correction for testing many figures).",
            verdict(c),
            c.a.describe(),
            c.b.describe()
        ),
        header: vec!["figure".into(), "baseline (A)".into(), "this variant (B)".into(), "B - A".into(), "95% CI paired".into(), "moved".into()],
        rows: c
            .metrics
            .iter()
            .map(|m| {
                let u = unit_of(m);
                vec![
                    m.name.clone(),
                    value_of(m, m.a),
                    value_of(m, m.b),
                    metrics::format_diff(u, m.diff),
                    ci(m),
                    match m.significant {
                        Some(true) => "yes".into(),
                        Some(false) => "no".into(),
                        None => "not judged".into(),
                    },
                ]
            })
            .collect(),
    }
}

/// `index.html` of a comparison: the verdict, who was compared, the figures that moved, those
/// that did not, the charts and the data files; one self-contained page with relative links.
fn page(c: &Comparison, charts: &[(String, String)], partial: Option<&Partial>) -> String {
    use crate::report::html::escape;
    use std::fmt::Write;
    let mut h = String::new();
    let title = format!("{}: {} against {}", c.game, c.b.variant, c.a.variant);
    let _ = writeln!(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>", escape(&title));
    let _ = writeln!(
        h,
        "<style>body{{font-family:system-ui,sans-serif;max-width:1180px;margin:2em auto;padding:0 1em;color:#222}}table{{border-collapse:collapse;margin:1em 0}}td,th{{border:1px solid #ccc;padding:4px 10px;text-align:right}}th{{background:#f3f3f3}}td.l,th.l{{text-align:left}}img{{max-width:100%;height:auto;border:1px solid #ddd}}</style>\n</head>\n<body>"
    );
    let _ = writeln!(h, "<h1>{}</h1>", escape(&title));
    if let Some(p) = partial {
        let _ = writeln!(h, "<p><strong>{}</strong></p>", escape(&p.banner()));
    }
    let _ = writeln!(h, "<p><strong>Verdict (B against A): {}.</strong></p>", escape(&verdict(c)));
    let _ = writeln!(h, "<ul><li>A = {}</li><li>B = {}</li></ul>", escape(&c.a.describe()), escape(&c.b.describe()));
    let how = if c.common_random_numbers {
        format!("{} games each, seed {}: common random numbers (game i of A and of B start from the same seed).", thousands(c.games), c.a.seed)
    } else {
        format!("{} games each, seeds {} and {}: independent runs.", thousands(c.games), c.a.seed, c.b.seed)
    };
    let _ = writeln!(h, "<p>{} A figure moved when the paired 95% CI of B - A excludes 0 (no correction for testing many figures).</p>", escape(&how));
    let (moved, still, unjudged) = partition(c);
    let table = |h: &mut String, rows: &[&MetricComparison]| {
        let _ =
            writeln!(h, "<table><tr><th class=l>figure</th><th>A</th><th>B</th><th>B - A</th><th class=l>95% CI paired</th><th class=l>what it is</th></tr>");
        for m in rows {
            let u = unit_of(m);
            let ci = m.paired_ci.map_or("-".to_string(), |[lo, hi]| format!("{} to {}", metrics::format_diff(u, lo), metrics::format_diff(u, hi)));
            let _ = writeln!(
                h,
                "<tr><td class=l><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td class=l>{}</td><td class=l>{}</td></tr>",
                escape(&m.name),
                escape(&value_of(m, m.a)),
                escape(&value_of(m, m.b)),
                escape(&metrics::format_diff(u, m.diff)),
                escape(&ci),
                escape(&m.about)
            );
        }
        let _ = writeln!(h, "</table>");
    };
    let _ = writeln!(h, "<h2>Figures that moved ({})</h2>", moved.len());
    if moved.is_empty() {
        let _ = writeln!(h, "<p>None: every paired 95% CI includes 0.</p>");
    } else {
        table(&mut h, &moved);
    }
    let _ = writeln!(h, "<h2>Figures that did not move ({})</h2>", still.len());
    table(&mut h, &still);
    if !unjudged.is_empty() {
        let _ = writeln!(h, "<h2>Figures not judged ({}): no paired interval</h2>", unjudged.len());
        table(&mut h, &unjudged);
    }
    let _ = writeln!(h, "<h2>Charts</h2>");
    for (title, file) in charts {
        let _ = writeln!(h, "<figure><img src=\"{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>", escape(file), escape(title), escape(title));
    }
    let _ = writeln!(
        h,
        "<h2>Data</h2>\n<ul><li><a href=\"compare.json\">compare.json</a>: the comparison (JSON)</li><li><a href=\"compare.csv\">compare.csv</a>: one row per figure</li></ul>\n</body>\n</html>"
    );
    h
}

/// Short chart labels of the share metrics charted.
fn chart_label(name: &str) -> Option<String> {
    if name == "first_player_advantage" {
        return Some("1st-player adv.".into());
    }
    if name == "elimination_rate" {
        return Some("eliminated".into());
    }
    if let Some(s) = name.strip_prefix("seat").and_then(|r| r.strip_suffix("_win_share")) {
        return Some(format!("seat {s} wins"));
    }
    // End-reason shares (`drama_share`, a standing figure, is not one).
    if name.ends_with("_share") && !name.starts_with("seat") && name != "drama_share" {
        return Some(name.trim_end_matches("_share").to_string());
    }
    None
}

/// Writes the comparison's files (compare.json, compare.csv, the charts and index.html) into
/// `dir`, created if missing (`report --baseline` writes them into the report's baseline/).
pub fn write_into(c: &Comparison, dir: &Path) -> Result<Vec<String>, Error> {
    std::fs::create_dir_all(dir).map_err(|e| Error::output(dir, e))?;
    write_outputs(c, dir, None)
}

/// Writes compare.json, compare.csv, the charts and index.html; returns the file names.
fn write_outputs(c: &Comparison, dir: &Path, partial: Option<&Partial>) -> Result<Vec<String>, Error> {
    let mut written = Vec::new();
    match partial {
        Some(p) => crate::output::write_json(&dir.join("compare.json"), &crate::output::marked(c, Some(p))?)?,
        None => crate::output::write_json(&dir.join("compare.json"), c)?,
    }
    written.push("compare.json".to_string());
    write_file(&dir.join("compare.csv"), &compare_csv(c))?;
    written.push("compare.csv".to_string());
    let mut images = Vec::new();
    for chart in &compare_charts(c) {
        crate::report::charts::render(chart, dir)?;
        written.push(format!("{}.png", chart.file()));
        images.push((chart.title().to_string(), format!("{}.png", chart.file())));
    }
    write_file(&dir.join("index.html"), &page(c, &images, partial))?;
    written.push("index.html".to_string());
    Ok(written)
}

/// `compare.csv`: every metric, both sides and the difference with its intervals.
fn compare_csv(c: &Comparison) -> String {
    let mut csv = String::from("metric,unit,a,a_lo,a_hi,b,b_lo,b_hi,diff,paired_lo,paired_hi,independent_lo,independent_hi,significant\n");
    let f = |x: f64| {
        if x.is_finite() { x.to_string() } else { String::new() }
    };
    let pair = |x: Option<[f64; 2]>| x.map_or(",".to_string(), |[lo, hi]| format!("{},{}", f(lo), f(hi)));
    for m in &c.metrics {
        csv.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{}\n",
            m.name,
            m.unit,
            f(m.a),
            f(m.a_ci[0]),
            f(m.a_ci[1]),
            f(m.b),
            f(m.b_ci[0]),
            f(m.b_ci[1]),
            f(m.diff),
            pair(m.paired_ci),
            pair(m.independent_ci),
            m.significant.map_or(String::new(), |s| s.to_string())
        ));
    }
    csv
}

/// The charts of a comparison: shares side by side, their differences, the mean length.
fn compare_charts(c: &Comparison) -> Vec<ChartSpec> {
    let charted: Vec<(&MetricComparison, String)> = c
        .metrics
        .iter()
        .filter(|m| m.unit == "share" && m.paired_ci.is_some() && m.a.is_finite() && m.b.is_finite())
        .filter_map(|m| chart_label(&m.name).map(|l| (m, l)))
        .collect();
    let pct = |x: f64| x * 100.0;
    let who = format!("A = {}, B = {}; {} games each", c.a.short(), c.b.short(), thousands(c.games));
    let (name_a, name_b) = (format!("A: {}", c.a.short()), format!("B: {}", c.b.short()));
    let charts = vec![
        ChartSpec::Bars {
            file: "compare_shares".into(),
            title: format!("A vs B ({who})"),
            x_label: "end-reason shares, first-player advantage, elimination rate, win shares".into(),
            y_label: "share (%); first-player advantage in points".into(),
            categories: charted.iter().map(|(_, l)| l.clone()).collect(),
            series: vec![
                BarSeries {
                    name: name_a.clone(),
                    values: charted.iter().map(|(m, _)| pct(m.a)).collect(),
                    ci: Some(charted.iter().map(|(m, _)| (pct(m.a_ci[0]), pct(m.a_ci[1]))).collect()),
                },
                BarSeries {
                    name: name_b.clone(),
                    values: charted.iter().map(|(m, _)| pct(m.b)).collect(),
                    ci: Some(charted.iter().map(|(m, _)| (pct(m.b_ci[0]), pct(m.b_ci[1]))).collect()),
                },
            ],
            reference: None,
        },
        ChartSpec::Bars {
            file: "compare_differences".into(),
            title: format!("B - A with paired and independent-runs 95% CI ({who})"),
            x_label: "end-reason shares, first-player advantage, elimination rate, win shares".into(),
            y_label: "B - A (percentage points)".into(),
            categories: charted.iter().map(|(_, l)| l.clone()).collect(),
            series: vec![
                BarSeries {
                    name: "B - A, paired CI (common seeds)".into(),
                    values: charted.iter().map(|(m, _)| pct(m.diff)).collect(),
                    ci: Some(charted.iter().map(|(m, _)| m.paired_ci.map_or((0.0, 0.0), |[lo, hi]| (pct(lo), pct(hi)))).collect()),
                },
                BarSeries {
                    name: "B - A, CI of two independent runs".into(),
                    values: charted.iter().map(|(m, _)| pct(m.diff)).collect(),
                    ci: Some(charted.iter().map(|(m, _)| m.independent_ci.map_or((0.0, 0.0), |[lo, hi]| (pct(lo), pct(hi)))).collect()),
                },
            ],
            reference: Some((0.0, "no difference".into())),
        },
    ];
    let mut charts = charts;
    if let Some(m) = c.metrics.iter().find(|m| m.name == "mean_length") {
        charts.push(ChartSpec::Bars {
            file: "compare_length".into(),
            title: format!("Mean game length, A vs B ({who})"),
            x_label: "variant".into(),
            y_label: format!("mean length ({})", c.length_unit),
            categories: vec![name_a, name_b],
            series: vec![BarSeries { name: "mean length".into(), values: vec![m.a, m.b], ci: Some(vec![(m.a_ci[0], m.a_ci[1]), (m.b_ci[0], m.b_ci[1])]) }],
            reference: None,
        });
    }
    charts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moved(name: &str, unit: &'static str, diff: f64, half: f64) -> MetricComparison {
        let ci = [diff - half, diff + half];
        MetricComparison {
            name: name.into(),
            about: String::new(),
            unit,
            own_unit: String::new(),
            own: false,
            applies: true,
            difference: false,
            interval: ["mean", "mean"],
            a: 0.5,
            a_ci: [0.4, 0.6],
            b: 0.5 + diff,
            b_ci: [0.4, 0.6],
            diff,
            paired_ci: Some(ci),
            independent_ci: None,
            significant: Some(ci[0] > 0.0 || ci[1] < 0.0),
        }
    }

    fn comparison(metrics: Vec<MetricComparison>) -> Comparison {
        let side = Side { path: "v.toml".into(), variant: "v".into(), bots: vec!["b".into()], sets: Vec::new(), seed: 1 };
        Comparison {
            game: "g".into(),
            a: side.clone(),
            b: side,
            games: 1000,
            common_random_numbers: true,
            length_unit: "turns".into(),
            precision: None,
            rotation_block: None,
            metrics,
        }
    }

    #[test]
    fn the_verdict_names_what_moved_most_and_leaves_out_restatements() {
        let c = comparison(vec![
            moved("first_player_advantage", "share", 0.03, 0.01),
            moved("mean_length", "length", 0.5, 1.0),
            moved("first_team_advantage", "share", 0.03, 0.01),
            moved("team0_win_share", "share", 0.03, 0.01),
            moved("team1_win_share", "share", -0.03, 0.01),
            moved("seat0_win_share", "share", 0.015, 0.005),
            moved("home_share", "share", 0.02, 0.01),
            moved("cap_share", "share", -0.02, 0.015),
            moved("doubts_per_game", "plain", 3.0, 0.5),
        ]);
        let v = verdict(&c);
        assert_eq!(
            v,
            "first-player advantage (seat 0's team) +3.00 pts, 95% CI +2.00 to +4.00 (significant); game length unchanged; 2 other figures moved (largest first): doubts per game +3.000, 95% CI +2.500 to +3.500; home share +2.00 pts, 95% CI +1.00 to +3.00"
        );
        let plain = comparison(vec![moved("first_player_advantage", "share", 0.0, 0.01)]);
        assert_eq!(verdict(&plain), "first-player advantage unchanged; no other figure moved");
    }
}
