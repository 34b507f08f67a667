//! `playtest compare A.toml [B.toml]`: two variants of one game, or two line-ups on one variant
//! (`--bots-b`), played on common random numbers: game i of A and game i of B start from the
//! same seed (and every seat's bot has its own stream), so the deal is the same and the noise
//! that both share cancels in the difference.
//!
//! Pairing costs constant memory: inside each 512-game batch A and B play the same indices and
//! the per-game differences of every metric are summed (Σd, Σd²); the paired 95% interval is
//! mean(d) ± z·sd(d)/√n. The interval two independent runs would give, z·√(var A/n + var B/n),
//! is printed beside it. The game's own figures are paired by batch means.

//!
//! Files: `measure.rs` (the measuring part: plays both sides on common random numbers and
//! returns a [`Comparison`], defined in `result.rs`), `verdict.rs` (what moved: the
//! decisions), and the writers over `&Comparison`: `text.rs` (the terminal's table and the
//! report's section), `html.rs` (`index.html`), `csv.rs` (`compare.csv`) and `charts.rs`; this
//! file runs one after the other and does the file I/O.

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::games;
use crate::output::Partial;
use crate::variant::Variant;

use super::precision::PrecisionArgs;
use super::{RunOptions, write_file};

mod charts;
mod csv;
mod html;
mod measure;
mod result;
mod text;
mod verdict;

pub use result::{Comparison, MetricComparison, Side, value_of};
pub use text::{section, table};
pub use verdict::{partition, verdict};

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

/// Plays the comparison and returns it, printing and writing nothing (`watch` shows what
/// moved between two saves of a variant with it).
pub fn measure(o: &CompareOptions) -> Result<Comparison, Error> {
    let (va, vb, b_path, b_sets) = load(o)?;
    measure::compare(&*games::handle(&va)?, &va, &measure::Compare { o, vb: &vb, b_path: &b_path, b_sets: &b_sets })
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
    let result = measure::compare(&*games::handle(&va)?, &va, &measure::Compare { o, vb: &vb, b_path: &b_path, b_sets: &b_sets })?;
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
    write_file(&dir.join("compare.csv"), &csv::compare_csv(c))?;
    written.push("compare.csv".to_string());
    let mut images = Vec::new();
    for chart in &charts::compare_charts(c) {
        crate::report::charts::render(chart, dir)?;
        written.push(format!("{}.png", chart.file()));
        images.push((chart.title().to_string(), format!("{}.png", chart.file())));
    }
    write_file(&dir.join("index.html"), &html::page(c, &images, partial))?;
    written.push("index.html".to_string());
    Ok(written)
}
