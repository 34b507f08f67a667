//! `playtest check VARIANT...`: a designer's CI gate. Plays every variant with the invariant
//! checks of the test suite on (conservation, legality, termination and the game's own
//! invariants after every action) and checks the variant's `[expect]` table:
//!
//! ```toml
//! [expect]
//! first_player_advantage = [-0.03, 0.03]   # shares are fractions
//! mean_length = [30, 60]                   # in the game's unit (turns, rounds)
//! ```
//!
//! Any metric of the catalogue can be bounded. An expectation fails only when its whole 95%
//! interval lies outside the bounds, so a gate does not flip on noise; an interval that
//! overlaps a bound is reported as undecided, not failed. Exit 0 when everything holds, 1 when
//! an expectation or an invariant fails (with the game seed and the `playtest trace` command
//! that replays it), 2 for a bad variant or an unknown metric name.

use std::path::PathBuf;

use crate::error::Error;
use crate::games::{self, GameCommand, Registered};
use crate::progress::Progress;
use crate::variant::Variant;

use super::metrics::{Catalogue, Estimate, Interval, Unit};
use super::precision::{PrecisionArgs, run_arm};
use super::runner::{Arm, PlayPlan, replay_command};
use super::{RunOptions, plans, thousands};
use crate::output::atomic::OutputDir;
use crate::output::trace_file::TraceWriter;

/// What `check` was asked.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Variant files.
    pub variants: Vec<PathBuf>,
    /// Bots (override every variant's).
    pub bots: Option<String>,
    /// Overrides applied to every variant.
    pub sets: Vec<String>,
    /// Games, seed, threads, quiet (invariants are always checked).
    pub run: RunOptions,
    /// Adaptive game count.
    pub precision: PrecisionArgs,
    /// `--traces DIR`: write the JSON trace of every game that breaks an invariant or ends at
    /// the cap (at most [`MAX_TRACES`] per run) into this folder, gzip-compressed
    /// (`.jsonl.gz`).
    pub traces: Option<PathBuf>,
}

/// Most traces `check --traces` writes in one run.
pub const MAX_TRACES: usize = 20;

/// One bound of a variant's `[expect]` table.
#[derive(Clone, Debug, PartialEq)]
pub struct Expectation {
    /// Metric name.
    pub metric: String,
    /// Lowest value allowed.
    pub lo: f64,
    /// Highest value allowed.
    pub hi: f64,
    /// Where it was written (file:line:col or a --set).
    pub at: String,
}

/// Reads and checks the `[expect]` table of `variant` against the metrics of `cat`.
pub fn expectations(variant: &Variant, cat: &Catalogue) -> Result<Vec<Expectation>, Error> {
    let Some(table) = variant.table.get("expect") else {
        return Ok(Vec::new());
    };
    let toml::Value::Table(table) = table else {
        return Err(variant.provenance.invalid("expect", "expected a table: [expect] with lines such as mean_length = [30, 60]").into());
    };
    let mut out = Vec::new();
    for (name, value) in table {
        let key = format!("expect.{name}");
        if cat.get(name).is_none() {
            return Err(variant.provenance.invalid(&key, format!("unknown metric `{name}`; allowed: {}", cat.names())).into());
        }
        let bad = || variant.provenance.invalid(&key, "expected [low, high]: two numbers, low <= high (shares are fractions: 0.03 is 3%)");
        let toml::Value::Array(items) = value else {
            return Err(bad().into());
        };
        let nums: Vec<f64> = items
            .iter()
            .filter_map(|v| match v {
                toml::Value::Integer(i) => Some(*i as f64),
                toml::Value::Float(x) if x.is_finite() => Some(*x),
                _ => None,
            })
            .collect();
        if items.len() != 2 || nums.len() != 2 || nums[0] > nums[1] {
            return Err(bad().into());
        }
        out.push(Expectation { metric: name.clone(), lo: nums[0], hi: nums[1], at: variant.provenance.locate(&key).to_string() });
    }
    Ok(out)
}

/// How one expectation came out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// The whole interval lies inside the bounds.
    Holds,
    /// The interval overlaps a bound: not a failure (more games would decide).
    Undecided,
    /// The whole interval lies outside the bounds.
    Fails,
}

/// Judges a measured value against `[lo, hi]`: it fails only when its whole interval is outside.
pub fn verdict(e: &Estimate, lo: f64, hi: f64) -> Verdict {
    if !e.value.is_finite() || e.hi < lo || e.lo > hi {
        Verdict::Fails
    } else if e.lo >= lo && e.hi <= hi {
        Verdict::Holds
    } else {
        Verdict::Undecided
    }
}

fn raw(unit: Unit, x: f64) -> String {
    match unit {
        Unit::Length => format!("{x:.2}"),
        _ => format!("{x:.4}"),
    }
}

/// Runs `check` on every variant; `Err(CheckFailed)` when anything failed.
pub fn main(o: &CheckOptions) -> Result<(), Error> {
    // Every variant and every [expect] table is checked before any game is played.
    let mut loaded = Vec::new();
    for path in &o.variants {
        let v = Variant::load(path, &o.sets)?;
        games::dispatch(&v, Check { o, path, play: false, traces: None })?;
        loaded.push((path, v));
    }
    // The traces folder is taken (locked, probed) before any game is played.
    let out = o.traces.as_deref().map(|dir| OutputDir::create(dir, &crate::output::atomic::invocation())).transpose()?;
    let mut traces = Traces { dir: out.as_ref().map(|o| o.path().to_path_buf()).unwrap_or_default(), ..Traces::default() };
    let (mut failed, mut total) = (Vec::new(), 0);
    for (path, v) in &loaded {
        match games::dispatch(v, Check { o, path, play: true, traces: out.as_ref().map(|_| &mut traces) }) {
            Ok((n, fails)) => {
                total += n;
                failed.extend(fails.into_iter().map(|m| format!("{}: {m}", path.display())));
            }
            Err(Error::Invariant(message)) => {
                println!("FAIL  invariant: {message}");
                if out.is_some() {
                    // The failing game, traced up to the broken rule.
                    games::dispatch(v, TraceBroken { o, message: &message, traces: &mut traces })?;
                }
                failed.push(format!("{}: an invariant failed", path.display()));
            }
            Err(e) => return Err(e),
        }
    }
    if let Some(out) = out {
        out.commit()?;
        let dir = o.traces.as_deref().unwrap_or(std::path::Path::new("."));
        match traces.files.len() {
            0 => println!("traces: no game broke an invariant or reached the cap; nothing written to {}", dir.display()),
            n => println!(
                "traces: {n} JSON trace(s) of games that broke an invariant or reached the cap written to {}{} (gzip-compressed JSON Lines: `playtest replay FILE` re-checks one, `zcat FILE` prints it)",
                dir.display(),
                if traces.more > 0 { format!("; {} more not written (at most {MAX_TRACES})", traces.more) } else { String::new() }
            ),
        }
    }
    if failed.is_empty() {
        println!("check: {} variant(s), {total} expectation(s): all hold", loaded.len());
        Ok(())
    } else {
        Err(Error::CheckFailed(format!(
            "check failed ({} of {} variant(s)): {}\n(an expectation fails only when its whole 95% CI lies outside its bounds)",
            failed.iter().map(|f| f.split(':').next().unwrap_or_default()).collect::<std::collections::BTreeSet<_>>().len(),
            loaded.len(),
            failed.join("; ")
        )))
    }
}

struct Check<'a> {
    o: &'a CheckOptions,
    path: &'a PathBuf,
    play: bool,
    traces: Option<&'a mut Traces>,
}

/// The traces `check --traces` writes, each straight into the output's temporary folder
/// `dir` (a long game's trace is never held in memory), and how many more games would have
/// been traced past [`MAX_TRACES`].
#[derive(Default)]
struct Traces {
    dir: PathBuf,
    files: Vec<String>,
    more: usize,
}

impl Traces {
    /// Traces game `index` (seed `seed`) of `variant` unless [`MAX_TRACES`] are written.
    fn add<G: Registered>(&mut self, game: &G, variant: &Variant, plans: &[crate::sim::SeatPlan<G>], index: u64, seed: u64, why: &str) -> Result<(), Error> {
        if self.files.len() >= MAX_TRACES {
            self.more += 1;
            return Ok(());
        }
        // Gzip-compressed: the games traced are the longest (capped) or broken ones, whose
        // plain traces can pass 100 MB each.
        let name = format!("{}-{}-game-{index:06}-seed-{seed}-{why}.jsonl.gz", game.id(), variant.name);
        let path = self.dir.join(&name);
        let mut writer = TraceWriter::create(&path, true)?;
        let mut bots: Vec<Box<dyn crate::engine::Bot<G>>> = plans.iter().map(|p| (p.build)(game, &p.values)).collect();
        let header = crate::sim::trace_header(variant, plans);
        let _ = crate::engine::trace::play_traced(game, &mut bots, seed, &header, true, crate::sim::MAX_TRACE_STEPS, &mut |line| writer.line(&line));
        writer.finish()?;
        self.files.push(name);
        Ok(())
    }
}

/// Traces the game named by an invariant failure of the runner (`game I (seed S)`).
struct TraceBroken<'a> {
    o: &'a CheckOptions,
    message: &'a str,
    traces: &'a mut Traces,
}

impl GameCommand for TraceBroken<'_> {
    type Output = ();
    fn run<G: Registered>(self, game: G, variant: &Variant) -> Result<(), Error> {
        let plans = plans(&game, variant, self.o.bots.as_deref(), "--bots")?;
        // The runner names the game as `game {index} (seed {seed})`.
        let found = self.message.split_once("game ").and_then(|(_, rest)| {
            let (index, rest) = rest.split_once(" (seed ")?;
            let (seed, _) = rest.split_once(')')?;
            Some((index.parse::<u64>().ok()?, seed.parse::<u64>().ok()?))
        });
        if let Some((index, seed)) = found {
            self.traces.add(&game, variant, &plans, index, seed, "invariant")?;
        }
        Ok(())
    }
}

impl GameCommand for Check<'_> {
    /// (expectations checked, the failed ones).
    type Output = (usize, Vec<String>);
    fn run<G: Registered>(self, game: G, variant: &Variant) -> Result<(usize, Vec<String>), Error> {
        let o = self.o;
        let plans = plans(&game, variant, o.bots.as_deref(), "--bots")?;
        let rotate = o.run.rotate || variant.rotate;
        let cat = Catalogue::new(&game).rotated(rotate, plans.len());
        let expect = expectations(variant, &cat)?;
        if !self.play {
            return Ok((expect.len(), Vec::new()));
        }
        let detailed =
            expect.iter().any(|e| cat.get(&e.metric).is_some_and(Catalogue::is_extra)) || cat.get(o.precision.metric()).is_some_and(Catalogue::is_extra);
        // With --traces every game's row is kept, to find the games that reached the cap.
        let plan = PlayPlan { seed: o.run.seed, checked: true, detailed, keep_rows: self.traces.is_some(), rotate };
        let arm = Arm { game: &game, plans: &plans, variant: variant.name.clone(), replay: replay_command(self.path, o.bots.as_deref(), &o.sets) };
        let mut progress = Progress::new(o.run.games, o.run.quiet);
        let (stats, reached) = run_arm(&arm, &cat, &plan, (o.run.threads, o.run.games), &o.precision, &mut progress)?;
        let summary = stats.summary(&arm, o.run.seed, detailed, 0.0);
        println!(
            "check {} ({} / {}): {} games, seed {}; invariants and legality checked after every action: ok",
            self.path.display(),
            game.id(),
            variant.name,
            thousands(stats.tally.games),
            o.run.seed
        );
        if let Some(r) = reached {
            println!("  {}", r.describe());
        }
        if rotate {
            println!(
                "  seats rotated: blocks of {} games on one deal; seat figures average the bots out, bot<k>_win_share the seats; intervals over blocks",
                plans.len()
            );
        }
        if let Some(traces) = self.traces {
            let cap = game.end_reasons().iter().position(|r| *r == "cap");
            for row in stats.rows.iter().filter(|r| cap.is_some_and(|c| r.outcome.end_reason as usize == c)) {
                // A rotated game was played by the line-up turned by its place in the block.
                let seated = if rotate { crate::sim::rotated(&plans, (row.index % plans.len() as u64) as usize) } else { plans.clone() };
                traces.add(&game, variant, &seated, row.index, row.seed, "cap")?;
            }
        }
        if expect.is_empty() {
            println!("  no [expect] table: only the invariants were checked");
        }
        let mut failed = Vec::new();
        for e in &expect {
            let Some(def) = cat.get(&e.metric) else {
                continue;
            };
            let est = stats.estimates(&cat, &summary)[cat.position(&e.metric).unwrap_or(0)];
            let measured = if est.interval == Interval::None {
                format!("{} (no CI: compared as a point)", raw(def.unit, est.value))
            } else {
                format!("{} (95% CI {} to {})", raw(def.unit, est.value), raw(def.unit, est.lo), raw(def.unit, est.hi))
            };
            let bounds = format!("[{}, {}] ({})", e.lo, e.hi, e.at);
            match verdict(&est, e.lo, e.hi) {
                Verdict::Holds => println!("  ok    {} = {measured} within {bounds}", e.metric),
                Verdict::Undecided => {
                    println!("  ok?   {} = {measured}: the CI overlaps a bound of {bounds}; not a failure (more games would decide)", e.metric)
                }
                Verdict::Fails => {
                    println!("  FAIL  {} = {measured} outside {bounds}: the whole 95% CI lies outside the bounds", e.metric);
                    failed.push(format!("{} = {} outside [{}, {}]", e.metric, raw(def.unit, est.value), e.lo, e.hi));
                }
            }
            // A game's own figure says what it is (a share is a fraction of 1 here).
            if Catalogue::is_extra(def) {
                let unit = if def.unit == Unit::Share { "a share, as a fraction of 1".to_string() } else { def.own_unit.clone() };
                if unit.is_empty() {
                    println!("        ({})", def.about);
                } else {
                    println!("        ({}; {unit})", def.about);
                }
            }
        }
        Ok((expect.len(), failed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(value: f64, lo: f64, hi: f64) -> Estimate {
        Estimate { value, lo, hi, interval: Interval::Wilson }
    }

    #[test]
    fn an_expectation_fails_only_when_the_whole_interval_is_outside() {
        assert_eq!(verdict(&est(0.5, 0.4, 0.6), 0.0, 1.0), Verdict::Holds);
        assert_eq!(verdict(&est(0.05, 0.02, 0.08), 0.0, 0.04), Verdict::Undecided);
        assert_eq!(verdict(&est(0.06, 0.05, 0.07), 0.0, 0.04), Verdict::Fails);
        assert_eq!(verdict(&est(-0.06, -0.07, -0.05), -0.04, 0.04), Verdict::Fails);
        assert_eq!(verdict(&Estimate::point(0.0), 0.0, 0.0), Verdict::Holds);
        assert_eq!(verdict(&Estimate::point(f64::NAN), 0.0, 1.0), Verdict::Fails);
    }

    #[test]
    fn expect_tables_are_checked_with_locations() {
        let game =
            crate::games::pig_farm::PigFarm::from_variant(&Variant::load(std::path::Path::new("variants/pig-farm/standard.toml"), &[]).unwrap()).unwrap();
        let cat = Catalogue::new(&game);
        let path = std::path::Path::new("x.toml");
        let ok = Variant::from_toml_str(path, "game = \"pig-farm\"\n[expect]\nmean_length = [1, 2.5]\ncap_share = [0, 0]\n").unwrap();
        let e = expectations(&ok, &cat).unwrap();
        assert_eq!(e.len(), 2);
        let len = e.iter().find(|x| x.metric == "mean_length").unwrap();
        assert_eq!((len.lo, len.hi), (1.0, 2.5));
        assert_eq!(len.at, "x.toml:3:1");
        let unknown = Variant::from_toml_str(path, "game = \"pig-farm\"\n[expect]\nfun = [0, 1]\n").unwrap();
        let msg = expectations(&unknown, &cat).unwrap_err().to_string();
        assert!(msg.contains("x.toml:3:1") && msg.contains("unknown metric `fun`") && msg.contains("first_player_advantage"), "{msg}");
        let reversed = Variant::from_toml_str(path, "game = \"pig-farm\"\n[expect]\nmean_length = [5, 1]\n").unwrap();
        assert!(expectations(&reversed, &cat).unwrap_err().to_string().contains("low <= high"));
        let text = Variant::from_toml_str(path, "game = \"pig-farm\"\n[expect]\nmean_length = \"short\"\n").unwrap();
        assert_eq!(expectations(&text, &cat).unwrap_err().exit_code(), 2);
    }
}
