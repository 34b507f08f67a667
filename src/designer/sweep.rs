//! `playtest sweep VARIANT --param KEY --values a,b,c` (or `--range START..END:STEP`, END
//! included; repeat `--param` for a grid of two): plays the variant at every value, applied as
//! `--set KEY=value` through the variant loader, so any numeric key works (`bank`,
//! `payout.3.withdrawal`, `deck.counts.skip`, `seats.0.bluff`, ...).
//!
//! Every value plays the same games (the same master seed, so the same deals: a sweep is a
//! chain of common-random-number comparisons), all values in parallel in the simulator's
//! batches, folded in order: the numbers at each value are exactly those of
//! `simulate --set KEY=value`. Writes `sweep.csv` (one row per value, every metric with its
//! 95% interval) and a line chart with a CI band per metric (a heat map per metric for a grid).

use std::path::{Path, PathBuf};

use crate::engine::{ChartSpec, LineSeries};
use crate::error::Error;
use crate::games::{self, GameHandle};
use crate::progress::Progress;
use crate::sim::BATCH;
use crate::variant::Variant;

use super::metrics::{self, Catalogue, Estimate, Unit};
use super::runner::{Arm, ArmStats, PlayPlan, Pool, arm_batch, arms_of, batches, seat_points};
use super::{RunOptions, thousands, write_file};
use crate::output::Partial;
use crate::output::atomic::OutputDir;

/// Most points a sweep may have.
pub const MAX_POINTS: usize = 400;

/// What `sweep` was asked.
#[derive(Clone, Debug)]
pub struct SweepOptions {
    /// The variant.
    pub variant: PathBuf,
    /// Bots (override the variant's).
    pub bots: Option<String>,
    /// Overrides applied before the swept key.
    pub sets: Vec<String>,
    /// Swept keys (one or two).
    pub params: Vec<String>,
    /// One `--values`/`--range` text per key, in order.
    pub values: Vec<String>,
    /// Metrics to chart and print (`--metric a,b`); default: length, end reasons,
    /// first-player advantage, elimination rate.
    pub metric: Option<String>,
    /// Games per value, seed, threads, checks, quiet.
    pub run: RunOptions,
    /// Output folder (default reports/<game>/<variant>/sweep-<keys>/).
    pub out: Option<PathBuf>,
    /// On Ctrl-C, still write the folder for the games played, marked partial.
    pub keep_partial: bool,
}

/// One swept key with its values: (text given to `--set`, number for the axis).
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// The key.
    pub key: String,
    /// The values.
    pub values: Vec<(String, f64)>,
}

/// A number as `--set` should receive it: whole numbers without a decimal point.
fn number_text(x: f64) -> String {
    let r = (x * 1e9).round() / 1e9;
    if r.fract() == 0.0 && r.abs() < 1e15 { format!("{}", r as i64) } else { format!("{r}") }
}

/// Parses `a,b,c` or `START..END[:STEP]` (END included, STEP default 1; an END below START
/// sweeps downward, `10..2:2` is 10, 8, 6, 4, 2).
pub fn parse_values(text: &str) -> Result<Vec<(String, f64)>, String> {
    let text = text.trim();
    if let Some((start, rest)) = text.split_once("..") {
        let (end, step) = rest.split_once(':').unwrap_or((rest, "1"));
        let num =
            |s: &str, what: &str| s.trim().parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| format!("--range {text}: {what} `{s}` is not a number"));
        let (start, end, step) = (num(start, "START")?, num(end, "END")?, num(step, "STEP")?);
        if step <= 0.0 {
            return Err(format!("--range {text}: STEP must be > 0 (an END below START sweeps downward: `10..2:2`)"));
        }
        let count = ((end - start).abs() / step + 1e-9).floor() as usize + 1;
        if count > MAX_POINTS {
            return Err(format!("--range {text}: {count} values; at most {MAX_POINTS}"));
        }
        let step = if end < start { -step } else { step };
        return Ok((0..count).map(|i| start + step * i as f64).map(|x| (number_text(x), x)).collect());
    }
    let values: Vec<(String, f64)> = text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<f64>().ok().filter(|x| x.is_finite()).map(|x| (s.to_string(), x)).ok_or_else(|| format!("--values: `{s}` is not a number")))
        .collect::<Result<_, _>>()?;
    if values.is_empty() {
        return Err(format!("--values `{text}`: give at least one number"));
    }
    Ok(values)
}

/// The axes of a sweep from `--param` and `--values`/`--range` given in order.
/// Values of a `--range` written without `:STEP` above which `sweep` warns before playing.
pub const MANY_DEFAULT_STEPS: usize = 12;

/// The warning a `--range START..END` without `:STEP` deserves when its default step of 1
/// gives many values (`0..40`: 41 values, each a full run of `games`).
pub fn default_step_warning(text: &str, games: u64) -> Option<String> {
    let (_, rest) = text.trim().split_once("..")?;
    if rest.contains(':') {
        return None;
    }
    let n = parse_values(text).ok()?.len();
    (n > MANY_DEFAULT_STEPS).then(|| {
        format!(
            "warning: --range {}: no :STEP, so step 1 gives {n} values ({} games in all); add one, e.g. `{}:{}`",
            text.trim(),
            super::thousands(games * n as u64),
            text.trim(),
            suggested_step(text)
        )
    })
}

/// A step giving about 8 values over `text`'s range (`0..40`: 5).
fn suggested_step(text: &str) -> String {
    let span = parse_values(text).ok().and_then(|v| Some((v.last()?.1 - v.first()?.1).abs())).unwrap_or(8.0);
    number_text((span / 8.0).round().max(1.0))
}

pub fn axes(params: &[String], values: &[String]) -> Result<Vec<Axis>, Error> {
    if params.is_empty() || params.len() > 2 {
        return Err(Error::Usage(format!("sweep takes one or two --param keys, got {}", params.len())));
    }
    if params.len() != values.len() {
        return Err(Error::Usage(format!(
            "every --param needs its own --values or --range after it: {} --param and {} --values/--range given",
            params.len(),
            values.len()
        )));
    }
    let mut out = Vec::new();
    for (key, text) in params.iter().zip(values) {
        let key = key.trim();
        if ["game", "extends", "name", "description", "bots", "seats"].contains(&key) {
            return Err(Error::Usage(format!("--param {key}: not a numeric key; sweep keys such as bank or payout.3.withdrawal")));
        }
        let values = parse_values(text).map_err(Error::Usage)?;
        out.push(Axis { key: key.to_string(), values });
    }
    if out.len() == 2 && out[0].key == out[1].key {
        return Err(Error::Usage(format!("--param {} is given twice", out[0].key)));
    }
    let points: usize = out.iter().map(|a| a.values.len()).product();
    if points > MAX_POINTS {
        return Err(Error::Usage(format!("the sweep has {points} points; at most {MAX_POINTS}")));
    }
    Ok(out)
}

/// One point of a sweep: the value index on each axis and what it measured.
pub struct PointResult {
    /// Value index on each axis.
    pub at: Vec<usize>,
    /// Metric names of this point's game.
    pub names: Vec<String>,
    /// Units of those metrics.
    pub units: Vec<Unit>,
    /// Estimates in the same order.
    pub estimates: Vec<Estimate>,
    /// Games played.
    pub games: u64,
}

impl PointResult {
    fn get(&self, name: &str) -> Option<Estimate> {
        self.names.iter().position(|n| n == name).map(|i| self.estimates[i])
    }
}

/// Runs `sweep`: prints a table, writes the CSV and the charts.
pub fn main(o: &SweepOptions) -> Result<(), Error> {
    let axes = axes(&o.params, &o.values)?;
    let base = Variant::load(&o.variant, &o.sets)?;
    for text in &o.values {
        if let Some(w) = default_step_warning(text, o.run.games) {
            eprintln!("{w}");
        }
    }
    if base.rotate {
        eprintln!("note: sweep does not rotate seats yet; the variant's `rotate = true` is ignored (seat figures mix seat order with bot strength)");
    }
    let keys: Vec<&str> = axes.iter().map(|a| a.key.as_str()).collect();
    let dir = o.out.clone().unwrap_or_else(|| Path::new("reports").join(&base.game).join(&base.name).join(format!("sweep-{}", keys.join("-"))));
    // Before the long run: the folder's lock and a writable temporary folder.
    let out = super::interrupted::open_out(&dir)?;
    let game = games::handle(&base)?;
    match sweep(&*game, &Sweep { o, axes: &axes, base: &base, dir: out.path(), target: &dir })? {
        None => out.commit(),
        Some(p) => Err(super::interrupted::stopped(Some(out), o.keep_partial, &format!("{} of {} games", p.played, p.asked.unwrap_or(0)))),
    }
}

struct Sweep<'a> {
    o: &'a SweepOptions,
    axes: &'a [Axis],
    base: &'a Variant,
    /// Where the files are written (the output's temporary folder).
    dir: &'a Path,
    /// The output folder named to the user.
    target: &'a Path,
}

/// One point's game and variant.
struct Point {
    at: Vec<usize>,
    sets: Vec<String>,
    game: Box<dyn GameHandle>,
    variant: Variant,
}

/// The games of every point of the grid (`--set` of each value on top of the variant's).
fn points(sw: &Sweep<'_>, base: &dyn GameHandle) -> Result<Vec<Point>, Error> {
    let (o, axes) = (sw.o, sw.axes);
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
        if variant.game != sw.base.game {
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

/// Runs the sweep on `base`'s game: plays every point, prints the table, writes the CSV and
/// the charts; returns how Ctrl-C stopped it (`None` when it ran to the end).
fn sweep(base: &dyn GameHandle, sw: &Sweep<'_>) -> Result<Option<Partial>, Error> {
    let (o, axes) = (sw.o, sw.axes);
    let points = points(sw, base)?;
    let seats = seat_points(points.iter().map(|p| (&*p.game, &p.variant)), o.bots.as_deref())?;
    let arms = arms_of(&seats, points.iter().map(|p| (&p.variant, &p.sets[..])), &o.variant, o.bots.as_deref());
    let cats: Vec<Catalogue> = points.iter().map(|p| Catalogue::of(p.game.facts())).collect();
    let names = metric_names(&cats);
    let selected = selected_metrics(o, &names, &cats[0])?;
    let mut results = play_points(o, &arms, &cats)?;
    for (r, p) in results.iter_mut().zip(&points) {
        r.at = p.at.clone();
    }
    let games = o.run.games;
    let game_id = points[0].game.facts().id;
    let played: u64 = results.iter().map(|r| r.games).sum();
    let stopped = super::interrupted::partial(played, Some(games * points.len() as u64));
    if let Some(p) = &stopped {
        println!("{} (all values together)", p.banner());
    }
    print!("{}", table(game_id, &sw.base.name, axes, &results, &selected, o));
    let keys: Vec<String> = axes.iter().map(|a| a.key.clone()).collect();
    for note in super::bot_keys::notes(game_id, &seats[0].labels(), &keys) {
        println!("note: {note}");
    }
    if stopped.is_some() && !o.keep_partial {
        return Ok(stopped);
    }
    write_sweep(sw, (&names, &results, &selected), cats[0].length_unit(), stopped.as_ref())?;
    Ok(stopped)
}

/// Writes `sweep.csv` and the charts (a line chart per metric, a heat map for a grid).
fn write_sweep(
    sw: &Sweep<'_>,
    (names, results, selected): (&[(String, Unit)], &[PointResult], &[String]),
    unit: &str,
    stopped: Option<&Partial>,
) -> Result<(), Error> {
    let (o, axes) = (sw.o, sw.axes);
    if let Some(p) = stopped {
        write_file(&sw.dir.join("PARTIAL.txt"), &format!("{} (all values together); sweep.csv gives each value's games\n", p.banner()))?;
    }
    write_file(&sw.dir.join("sweep.csv"), &csv(axes, names, results))?;
    let charts = if axes.len() == 1 { line_charts(axes, names, results, selected, o, unit) } else { heatmaps(axes, names, results, selected, o, unit) };
    let mut files = vec!["sweep.csv".to_string()];
    for chart in &charts {
        crate::report::charts::render(chart, sw.dir)?;
        files.push(format!("{}.png", chart.file()));
    }
    if stopped.is_none() {
        println!("wrote {} into {}", files.join(", "), crate::output::shown::tidy(sw.target).display());
    }
    Ok(())
}

fn table(game: &str, variant: &str, axes: &[Axis], results: &[PointResult], selected: &[String], o: &SweepOptions) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "sweep ({game} / {variant}): {} values, {} games each, seed {} (the same games at every value)\n",
        results.len(),
        thousands(o.run.games),
        o.run.seed
    );
    let _ = writeln!(out, "| {} | {} |", axes.iter().map(|a| a.key.as_str()).collect::<Vec<_>>().join(" | "), selected.join(" | "));
    let _ = writeln!(out, "|{}|", vec!["---:"; axes.len() + selected.len()].join("|"));
    for r in results {
        let mut cells: Vec<String> = axes.iter().zip(&r.at).map(|(a, &i)| a.values[i].0.clone()).collect();
        for name in selected {
            let i = r.names.iter().position(|n| n == name);
            cells.push(i.map_or("-".into(), |i| metrics::say_in(r.units[i], metrics::is_difference_name(name), &r.estimates[i])));
        }
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    let _ = writeln!(out, "\n(every metric with its interval is in sweep.csv, as fractions)");
    out
}

fn csv(axes: &[Axis], names: &[(String, Unit)], results: &[PointResult]) -> String {
    let mut header: Vec<String> = axes.iter().map(|a| a.key.clone()).collect();
    header.push("games".into());
    for (n, _) in names {
        header.push(n.clone());
        header.push(format!("{n}_lo"));
        header.push(format!("{n}_hi"));
    }
    let mut out = header.join(",") + "\n";
    let f = |x: f64| {
        if x.is_finite() { x.to_string() } else { String::new() }
    };
    for r in results {
        let mut cells: Vec<String> = axes.iter().zip(&r.at).map(|(a, &i)| a.values[i].0.clone()).collect();
        cells.push(r.games.to_string());
        for (n, _) in names {
            match r.get(n) {
                Some(e) if e.interval != metrics::Interval::None => cells.extend([f(e.value), f(e.lo), f(e.hi)]),
                Some(e) => cells.extend([f(e.value), String::new(), String::new()]),
                None => cells.extend([String::new(), String::new(), String::new()]),
            }
        }
        out.push_str(&(cells.join(",") + "\n"));
    }
    out
}

/// Scale and axis label of a metric in charts: shares in %, others as they are.
fn chart_scale(name: &str, unit: Unit, length_unit: &str) -> (f64, String) {
    match unit {
        Unit::Share if name == "first_player_advantage" => (100.0, "first-player advantage (percentage points)".into()),
        Unit::Share => (100.0, format!("{name} (%)")),
        Unit::Length => (1.0, format!("{name} ({length_unit})")),
        Unit::Plain => (1.0, name.to_string()),
    }
}

fn line_charts(axes: &[Axis], names: &[(String, Unit)], results: &[PointResult], selected: &[String], o: &SweepOptions, length_unit: &str) -> Vec<ChartSpec> {
    let axis = &axes[0];
    let games = thousands(o.run.games);
    let series = |name: &str, scale: f64, label: String| {
        let mut points = Vec::new();
        let mut band = Vec::new();
        for r in results {
            if let Some(e) = r.get(name).filter(|e| e.value.is_finite()) {
                points.push((axis.values[r.at[0]].1, e.value * scale));
                band.push((e.lo * scale, e.hi * scale));
            }
        }
        LineSeries { name: label, points, band: Some(band) }
    };
    let mut charts = Vec::new();
    for name in selected {
        let unit = names.iter().find(|(n, _)| n == name).map_or(Unit::Plain, |(_, u)| *u);
        let (scale, y_label) = chart_scale(name, unit, length_unit);
        charts.push(ChartSpec::Lines {
            file: format!("sweep_{name}"),
            title: format!("{name} vs {} ({games} games per value)", axis.key),
            x_label: axis.key.clone(),
            y_label,
            series: vec![series(name, scale, format!("{name} (line: measured value)"))],
        });
    }
    let seat_names: Vec<&String> = names.iter().map(|(n, _)| n).filter(|n| n.starts_with("seat") && n.ends_with("_win_share")).collect();
    if !seat_names.is_empty() {
        charts.push(ChartSpec::Lines {
            file: "sweep_seat_win_shares".into(),
            title: format!("Win share by seat vs {} ({games} games per value)", axis.key),
            x_label: axis.key.clone(),
            y_label: "win share (%), ties shared".into(),
            series: seat_names.iter().map(|n| series(n, 100.0, n.trim_end_matches("_win_share").replace("seat", "seat "))).collect(),
        });
    }
    charts
}

fn heatmaps(axes: &[Axis], names: &[(String, Unit)], results: &[PointResult], selected: &[String], o: &SweepOptions, length_unit: &str) -> Vec<ChartSpec> {
    let (x, y) = (&axes[0], &axes[1]);
    let games = thousands(o.run.games);
    selected
        .iter()
        .map(|name| {
            let unit = names.iter().find(|(n, _)| n == name).map_or(Unit::Plain, |(_, u)| *u);
            let (scale, label) = chart_scale(name, unit, length_unit);
            let value_label = format!("{label}; cells: value ± 95% CI half-width");
            let mut cells = vec![vec![f64::NAN; x.values.len()]; y.values.len()];
            let mut labels = vec![vec![String::new(); x.values.len()]; y.values.len()];
            for r in results {
                if let Some(e) = r.get(name) {
                    let (c, row) = (r.at[0], r.at[1]);
                    cells[row][c] = e.value * scale;
                    labels[row][c] = if e.interval == metrics::Interval::None {
                        format!("{:.2}", e.value * scale)
                    } else {
                        format!("{:.2}\n±{:.2}", e.value * scale, e.half_width() * scale)
                    };
                }
            }
            ChartSpec::Heatmap {
                file: format!("heatmap_{name}"),
                title: format!("{name} by {} and {} ({games} games per cell)", x.key, y.key),
                x_label: x.key.clone(),
                y_label: y.key.clone(),
                columns: x.values.iter().map(|v| v.0.clone()).collect(),
                rows: y.values.iter().map(|v| v.0.clone()).collect(),
                cells,
                cell_labels: labels,
                value_label,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_include_their_end_and_print_whole_numbers_plainly() {
        let v = parse_values("100..300:50").unwrap();
        assert_eq!(v.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(), ["100", "150", "200", "250", "300"]);
        let v = parse_values("0.1..0.5:0.1").unwrap();
        assert_eq!(v.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(), ["0.1", "0.2", "0.3", "0.4", "0.5"]);
        assert_eq!(parse_values("2..4").unwrap().len(), 3);
        assert_eq!(parse_values("-1,0, 2.5").unwrap(), vec![("-1".into(), -1.0), ("0".into(), 0.0), ("2.5".into(), 2.5)]);
    }

    #[test]
    fn bad_values_are_rejected_with_the_reason() {
        assert!(parse_values("a,b").unwrap_err().contains("`a` is not a number"));
        let down: Vec<f64> = parse_values("10..2:2").unwrap().into_iter().map(|v| v.1).collect();
        assert_eq!(down, [10.0, 8.0, 6.0, 4.0, 2.0]);
        assert_eq!(parse_values("5..1").unwrap().len(), 5);
        let w = default_step_warning("0..40", 1000).expect("41 values at step 1");
        assert!(w.contains("41 values") && w.contains("41,000 games") && w.contains("0..40:5"), "{w}");
        assert!(default_step_warning("0..40:5", 1000).is_none() && default_step_warning("2..6", 1000).is_none());
        assert!(parse_values("1..5:0").unwrap_err().contains("STEP must be > 0"));
        assert!(parse_values("0..100000:1").unwrap_err().contains("at most"));
        assert!(axes(&["bank".into()], &[]).is_err());
        assert!(axes(&["game".into()], &["1".into()]).is_err());
        assert!(axes(&["a".into(), "a".into()], &["1".into(), "2".into()]).is_err());
        let a = axes(&["bank".into(), "hand_size".into()], &["100,200".into(), "4..6".into()]).unwrap();
        assert_eq!(a[1].values.len(), 3);
    }
}
