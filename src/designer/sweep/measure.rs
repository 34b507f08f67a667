//! The measuring part of `sweep`: plays every point of the grid on the same games (batches
//! of all points in parallel, folded in order) and returns a [`SweepResult`]; it prints and
//! writes nothing.

use crate::designer::metrics::{Catalogue, Unit};
use crate::designer::runner::{Arm, ArmStats, PlayPlan, Pool, arm_batch, arms_of, batches, seat_points};
use crate::error::Error;
use crate::games::GameHandle;
use crate::progress::Progress;
use crate::sim::BATCH;
use crate::variant::Variant;

use super::SweepOptions;
use super::result::{PointResult, SweepResult};
use super::values::Axis;

/// Plays the sweep of `axes` over `base` (the variant as written, `game` its game).
pub(super) fn measure(game: &dyn GameHandle, o: &SweepOptions, axes: &[Axis], base: &Variant) -> Result<SweepResult, Error> {
    let points = points(o, axes, base, game)?;
    let seats = seat_points(points.iter().map(|p| (&*p.game, &p.variant)), o.bots.as_deref())?;
    let arms = arms_of(&seats, points.iter().map(|p| (&p.variant, &p.sets[..])), &o.variant, o.bots.as_deref());
    let cats: Vec<Catalogue> = points.iter().map(|p| Catalogue::of(p.game.facts())).collect();
    let names = metric_names(&cats);
    let selected = selected_metrics(o, &names, &cats[0])?;
    let mut results = play_points(o, &arms, &cats)?;
    for (r, p) in results.iter_mut().zip(&points) {
        r.at = p.at.clone();
    }
    let played: u64 = results.iter().map(|r| r.games).sum();
    Ok(SweepResult {
        game: points[0].game.facts().id.to_string(),
        variant: base.name.clone(),
        axes: axes.to_vec(),
        games: o.run.games,
        seed: o.run.seed,
        names,
        selected,
        length_unit: cats[0].length_unit().to_string(),
        lineup: seats[0].labels(),
        partial: crate::designer::interrupted::partial(played, Some(o.run.games * points.len() as u64)),
        points: results,
    })
}

/// One point's game and variant.
struct Point {
    at: Vec<usize>,
    sets: Vec<String>,
    game: Box<dyn GameHandle>,
    variant: Variant,
}

/// The games of every point of the grid (`--set` of each value on top of the variant's).
fn points(o: &SweepOptions, axes: &[Axis], base_variant: &Variant, base: &dyn GameHandle) -> Result<Vec<Point>, Error> {
    let mut indices: Vec<Vec<usize>> = vec![Vec::new()];
    for axis in axes {
        indices = indices.into_iter().flat_map(|at| (0..axis.values.len()).map(move |i| [at.clone(), vec![i]].concat())).collect();
    }
    let mut points = Vec::new();
    for at in indices {
        let mut sets = o.sets.clone();
        let swept: Vec<String> = axes.iter().zip(&at).map(|(a, &i)| format!("{}={}", a.key, a.values[i].0)).collect();
        sets.extend(swept.iter().cloned());
        let variant = Variant::load(&o.variant, &sets)?;
        if variant.game != base_variant.game {
            return Err(Error::Usage(format!("{}: the sweep changed the game; sweep numeric keys only", swept.join(" "))));
        }
        let game = base.with_variant(&variant)?;
        points.push(Point { at, sets, game, variant });
    }
    Ok(points)
}

/// Every metric name of any point, in first-seen order (seat counts may change).
fn metric_names(cats: &[Catalogue]) -> Vec<(String, Unit)> {
    let mut names: Vec<(String, Unit)> = Vec::new();
    for cat in cats {
        for d in &cat.defs {
            if !names.iter().any(|(n, _)| n == &d.name) {
                names.push((d.name.clone(), d.unit));
            }
        }
    }
    names
}

/// The metrics the table and the charts show: `--metric`'s, else the catalogue's default.
fn selected_metrics(o: &SweepOptions, names: &[(String, Unit)], cat: &Catalogue) -> Result<Vec<String>, Error> {
    let Some(list) = &o.metric else {
        return Ok(cat.default_selection().into_iter().map(|i| cat.defs[i].name.clone()).collect());
    };
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|n| {
            names.iter().any(|(m, _)| m == n).then(|| n.to_string()).ok_or_else(|| {
                Error::Usage(format!("--metric: unknown metric `{n}`; allowed: {}", names.iter().map(|(m, _)| m.as_str()).collect::<Vec<_>>().join(", ")))
            })
        })
        .collect()
}

/// Plays every point on the same games, batches of all points in parallel, folded in order.
fn play_points(o: &SweepOptions, arms: &[Arm<'_>], cats: &[Catalogue]) -> Result<Vec<PointResult>, Error> {
    let plan = PlayPlan { seed: o.run.seed, checked: o.run.checked, detailed: true, keep_rows: false, rotate: false };
    let games = o.run.games;
    let jobs: Vec<(usize, u64)> = batches(0, games, BATCH).flat_map(|b| (0..arms.len()).map(move |p| (p, b))).collect();
    let pool = Pool::new(o.run.threads)?;
    let mut progress = Progress::new(games * arms.len() as u64, o.run.quiet);
    progress.set_message(format!("{} values", arms.len()));
    let mut stats: Vec<ArmStats> = (0..arms.len()).map(|_| ArmStats::default()).collect();
    let started = std::time::Instant::now();
    pool.run(&jobs, |&(p, b)| arm_batch(&arms[p], &cats[p], &plan, b, games), |&(p, _), batch| stats[p].add(batch), &mut |k| {
        progress.update((k as u64 * BATCH).min(games * arms.len() as u64))
    })?;
    progress.finish();
    let seconds = started.elapsed().as_secs_f64();
    Ok(stats
        .iter()
        .enumerate()
        .map(|(p, stats)| {
            let summary = stats.summary(&arms[p], o.run.seed, true, seconds);
            PointResult {
                at: Vec::new(),
                names: cats[p].defs.iter().map(|d| d.name.clone()).collect(),
                units: cats[p].defs.iter().map(|d| d.unit).collect(),
                estimates: stats.estimates(&cats[p], &summary),
                games: stats.tally.games,
            }
        })
        .collect())
}
