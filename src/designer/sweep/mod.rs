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
//!
//! Files: `values.rs` (the keys and values), `measure.rs` (the measuring part, returning a
//! [`SweepResult`], defined in `result.rs`), and the writers over `&SweepResult`: `text.rs`
//! (the terminal's table), `csv.rs` (`sweep.csv`) and `charts.rs`; this file runs one after
//! the other and does the file I/O.

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::games;
use crate::variant::Variant;

use super::{RunOptions, write_file};

mod charts;
mod csv;
mod measure;
mod result;
mod text;
mod values;

pub use result::{PointResult, SweepResult};
pub use values::{Axis, MANY_DEFAULT_STEPS, axes, default_step_warning, parse_values};

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
    /// Output folder (default `reports/<game>/<variant>/sweep-<keys>/`).
    pub out: Option<PathBuf>,
    /// On Ctrl-C, still write the folder for the games played, marked partial.
    pub keep_partial: bool,
}

/// Runs `sweep`: plays every point, prints the table, writes the CSV and the charts.
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
    let r = measure::measure(&*game, o, &axes, &base)?;
    print(&r);
    if r.partial.is_none() || o.keep_partial {
        write(&r, out.path(), &dir)?;
    }
    match &r.partial {
        None => out.commit(),
        Some(p) => Err(super::interrupted::stopped(Some(out), o.keep_partial, &format!("{} of {} games", p.played, p.asked.unwrap_or(0)))),
    }
}

/// Prints the table (under the partial banner of a stopped run) and the notes on swept keys
/// no bot at the table reads.
fn print(r: &SweepResult) {
    if let Some(p) = &r.partial {
        println!("{} (all values together)", p.banner());
    }
    print!("{}", text::table(r));
    let keys: Vec<String> = r.axes.iter().map(|a| a.key.clone()).collect();
    for note in super::bot_keys::notes(&r.game, &r.lineup, &keys) {
        println!("note: {note}");
    }
}

/// Writes `sweep.csv` and the charts (a line chart per metric, a heat map for a grid) into
/// `dir` (the output's temporary folder; `target` is the folder named to the user), and
/// `PARTIAL.txt` for a stopped run.
fn write(r: &SweepResult, dir: &Path, target: &Path) -> Result<(), Error> {
    if let Some(p) = &r.partial {
        write_file(&dir.join("PARTIAL.txt"), &format!("{} (all values together); sweep.csv gives each value's games\n", p.banner()))?;
    }
    write_file(&dir.join("sweep.csv"), &csv::csv(r))?;
    let charts = if r.axes.len() == 1 { charts::line_charts(r) } else { charts::heatmaps(r) };
    let mut files = vec!["sweep.csv".to_string()];
    for chart in &charts {
        crate::report::charts::render(chart, dir)?;
        files.push(format!("{}.png", chart.file()));
    }
    if r.partial.is_none() {
        println!("wrote {} into {}", files.join(", "), crate::output::shown::tidy(target).display());
    }
    Ok(())
}
