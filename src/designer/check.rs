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
//! Any metric with an interval can be bounded. A bound **holds** when the figure's whole 95%
//! interval lies inside it, **fails** when the whole interval lies outside it (so a gate does
//! not flip on noise), and is **undecided** otherwise (more games would decide). A bound at
//! the edge of a share (`[0, x]`, `[x, 1]`) is judged by the one-sided 95% bound
//! (Clopper-Pearson), so it can be decided: `cap_share = [0, 0]` holds when no game of the run
//! was capped ("none in 20,000 games; below 0.015% at 95%") and fails as soon as one was. A
//! figure with no interval (a game's own figure over fewer than 128 games) is undecided and
//! says why; a p-value (`seat_fairness_p`) cannot be bounded at all.
//!
//! Units, the same everywhere: shares and their differences are **fractions** in `[expect]`,
//! `--precision` and JSON (0.03 is 3%, and a first-player advantage of ±1 point is
//! `[-0.01, 0.01]`), and percent / percentage points ("pts") in text. A bound outside a
//! figure's possible values (a share bound of 5, a negative length), or one that can never
//! fail (`[-1, 1]` on a difference of shares, as if written in points), is refused with the
//! fix, before any game is played; `validate` reports the same errors, all of a file's at once.
//!
//! The last line counts held, undecided and failed bounds. Exit 0 when nothing failed (with
//! `--strict`, when every bound held), 1 when a bound or an invariant fails (with the game
//! seed and the `playtest trace` command that replays it), 2 for a bad variant or bound.

use std::path::PathBuf;

use crate::error::Error;
use crate::games::{self, GameHandle, SeatedGame};
use crate::progress::Progress;
use crate::variant::Variant;

use super::metrics::{self, Catalogue, Estimate, Interval, Unit};
use super::precision::{PrecisionArgs, run_arm};
use super::runner::{Arm, PlayPlan, replay_command};
use super::{RunOptions, seat, thousands};
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
    /// `--strict`: an undecided bound fails the gate too (exit 1).
    pub strict: bool,
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

/// Reads and checks the `[expect]` table of `variant` against the metrics of `cat`; every
/// bad bound of the table is reported at once (unknown metric, not two numbers, reversed,
/// outside the figure's range, a p-value, or a bound that can never fail).
pub fn expectations(variant: &Variant, cat: &Catalogue) -> Result<Vec<Expectation>, Error> {
    let Some(table) = variant.table.get("expect") else {
        return Ok(Vec::new());
    };
    let toml::Value::Table(table) = table else {
        return Err(variant.provenance.invalid("expect", "expected a table: [expect] with lines such as mean_length = [30, 60]").into());
    };
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (name, value) in table {
        let key = format!("expect.{name}");
        match expectation(cat, name, value) {
            Ok((lo, hi)) => out.push(Expectation { metric: name.clone(), lo, hi, at: variant.provenance.locate(&key).to_string() }),
            Err(message) => errors.push(variant.provenance.invalid(&key, message)),
        }
    }
    match errors.len() {
        0 => Ok(out),
        1 => Err(errors.remove(0).into()),
        _ => Err(crate::error::VariantError::Many(errors).into()),
    }
}

/// Reads one bound `name = value`: `(low, high)` or what is wrong with it and the fix.
fn expectation(cat: &Catalogue, name: &str, value: &toml::Value) -> Result<(f64, f64), String> {
    let Some(def) = cat.get(name) else {
        return Err(format!("unknown metric `{name}`; allowed: {}", cat.names()));
    };
    if def.is_p_value() {
        return Err(format!(
            "no interval: a p-value is not an estimate with a margin, so bound `{name}` is refused; bound a share or a difference instead (e.g. first_player_advantage = [-0.02, 0.02])"
        ));
    }
    let share = def.unit == Unit::Share;
    let bad = || format!("expected [low, high]: two numbers, low <= high{}", if share { " (shares are fractions: 0.03 is 3%)" } else { "" });
    let toml::Value::Array(items) = value else {
        return Err(bad());
    };
    let nums: Vec<f64> = items
        .iter()
        .filter_map(|v| match v {
            toml::Value::Integer(i) => Some(*i as f64),
            toml::Value::Float(x) if x.is_finite() => Some(*x),
            _ => None,
        })
        .collect();
    if items.len() != 2 || nums.len() != 2 {
        return Err(bad());
    }
    let (lo, hi) = (nums[0], nums[1]);
    if lo > hi {
        return Err(format!("the bounds are reversed: [{lo}, {hi}]; write [{hi}, {lo}] (low first)"));
    }
    let (min, max) = def.range();
    if lo < min || hi > max {
        let fix = if share && !def.is_share_difference() {
            format!("a share is a fraction from 0 to 1: write [{}, {}] for {lo}% to {hi}%", trim(lo.max(0.0) / 100.0), trim(hi.min(100.0) / 100.0))
        } else if def.is_share_difference() {
            format!("a difference of shares is a fraction from -1 to 1: write [{}, {}] for {lo} to {hi} points", trim(lo / 100.0), trim(hi / 100.0))
        } else {
            format!("`{name}` is never below {min}")
        };
        return Err(format!("[{lo}, {hi}] is outside the values `{name}` can take; {fix}"));
    }
    if share && lo <= min && hi >= max {
        let fix = if def.is_share_difference() {
            let m = lo.abs().max(hi.abs());
            format!("differences of shares are fractions: for ±{} point(s) write [{}, {}]", trim(m), trim(-m / 100.0), trim(m / 100.0))
        } else {
            "write the share you expect as fractions, e.g. [0, 0.05] for at most 5%".to_string()
        };
        return Err(format!("[{lo}, {hi}] covers every value `{name}` can take, so it can never fail; {fix}"));
    }
    Ok((lo, hi))
}

fn trim(x: f64) -> String {
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// How one expectation came out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// The whole interval lies inside the bounds (or the one-sided bound does, at a share's
    /// edge).
    Holds,
    /// The interval overlaps a bound, or the figure has no interval: not decided (more games
    /// would decide).
    Undecided,
    /// The whole interval lies outside the bounds.
    Fails,
}

/// Judges a measured value against `[lo, hi]`: it holds when its whole interval is inside,
/// fails when its whole interval is outside, and is undecided otherwise or without an
/// interval. A share counted over independent games ([`Interval::Share`]) with a bound at
/// its edge (`lo <= 0` or `hi >= 1`) is judged on that side by the one-sided 95% bound
/// ([`crate::stats::interval::upper_one_sided`]); `[0, 0]` holds when nothing was counted and
/// fails when anything was.
pub fn verdict(e: &Estimate, lo: f64, hi: f64) -> Verdict {
    judge(e, lo, hi).0
}

/// [`verdict`] and the measured figure's description for `check` (value and the interval
/// or one-sided bound it was judged by).
pub fn judge(e: &Estimate, lo: f64, hi: f64) -> (Verdict, Option<String>) {
    use crate::stats::interval::{lower_one_sided, upper_one_sided};
    if !e.value.is_finite() || e.interval == Interval::None {
        return (Verdict::Undecided, None);
    }
    if let Interval::Share { games } = e.interval {
        let k = (e.value * games as f64 * 1e9).round() / 1e9;
        let n = thousands(games);
        if lo <= 0.0 && hi >= 1.0 {
            return (Verdict::Holds, None);
        }
        if lo <= 0.0 {
            if hi <= 0.0 {
                return if k == 0.0 {
                    (Verdict::Holds, Some(format!("none in {n} games; below {:.3}% at 95%", 100.0 * upper_one_sided(0.0, games))))
                } else {
                    (Verdict::Fails, Some(format!("{} of {n} games: above 0 for certain", trim(k))))
                };
            }
            let up = upper_one_sided(k, games);
            let said = Some(format!("{} of {n} games; below {:.3}% at 95% (one-sided)", trim(k), 100.0 * up));
            return if up <= hi {
                (Verdict::Holds, said)
            } else if e.lo > hi {
                (Verdict::Fails, None)
            } else {
                (Verdict::Undecided, said)
            };
        }
        if hi >= 1.0 {
            let games_f = games as f64;
            if lo >= 1.0 {
                return if k == games_f {
                    (Verdict::Holds, Some(format!("all {n} games; above {:.3}% at 95%", 100.0 * lower_one_sided(games_f, games))))
                } else {
                    (Verdict::Fails, Some(format!("{} of {n} games: below 100% for certain", trim(k))))
                };
            }
            let down = lower_one_sided(k, games);
            let said = Some(format!("{} of {n} games; above {:.3}% at 95% (one-sided)", trim(k), 100.0 * down));
            return if down >= lo {
                (Verdict::Holds, said)
            } else if e.hi < lo {
                (Verdict::Fails, None)
            } else {
                (Verdict::Undecided, said)
            };
        }
    }
    if e.hi < lo || e.lo > hi {
        (Verdict::Fails, None)
    } else if e.lo >= lo && e.hi <= hi {
        (Verdict::Holds, None)
    } else {
        (Verdict::Undecided, None)
    }
}

/// What `check` found over every variant: bounds held, undecided and failed.
#[derive(Debug, Default)]
struct Counts {
    held: usize,
    undecided: Vec<String>,
    failed: Vec<String>,
}

/// Runs `check` on every variant; `Err(CheckFailed)` when anything failed.
pub fn main(o: &CheckOptions) -> Result<(), Error> {
    // Every variant and every [expect] table is checked before any game is played.
    let mut loaded = Vec::new();
    for path in &o.variants {
        let v = Variant::load(path, &o.sets)?;
        let game = games::handle(&v)?;
        for w in games::handle::unused_key_warnings(&*game, &v) {
            eprintln!("{w}");
        }
        check(&*game, &v, Check { o, path, play: false, traces: None })?;
        loaded.push((path, v, game));
    }
    // The traces folder is taken (locked, probed) before any game is played.
    let out = o.traces.as_deref().map(|dir| OutputDir::create(dir, &crate::output::atomic::invocation())).transpose()?;
    let mut traces = Traces { dir: out.as_ref().map(|o| o.path().to_path_buf()).unwrap_or_default(), ..Traces::default() };
    let mut counts = Counts::default();
    let mut failed = Vec::new();
    for (path, v, game) in &loaded {
        match check(&**game, v, Check { o, path, play: true, traces: out.as_ref().map(|_| &mut traces) }) {
            Ok(c) => {
                counts.held += c.held;
                counts.undecided.extend(c.undecided.into_iter().map(|m| format!("{}: {m}", path.display())));
                failed.extend(c.failed.into_iter().map(|m| format!("{}: {m}", path.display())));
            }
            Err(Error::Invariant(message)) => {
                println!("FAIL  invariant: {message}");
                if out.is_some() {
                    // The failing game, traced up to the broken rule.
                    trace_broken(&**game, v, o, &message, &mut traces)?;
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
    let bounds_failed = failed.iter().filter(|f| !f.ends_with("an invariant failed")).count();
    let total = counts.held + counts.undecided.len() + bounds_failed;
    let tally = format!(
        "{} variant(s), {total} bound(s): {} held, {} undecided, {} failed{}",
        loaded.len(),
        counts.held,
        counts.undecided.len(),
        bounds_failed,
        if failed.len() > bounds_failed { format!(", {} invariant failure(s)", failed.len() - bounds_failed) } else { String::new() }
    );
    if o.strict {
        failed.extend(counts.undecided.iter().map(|u| format!("{u} undecided (--strict fails on it)")));
    }
    if failed.is_empty() {
        let note = if counts.undecided.is_empty() {
            String::new()
        } else {
            " (undecided bounds do not fail the gate; more games would decide them, --strict fails on them)".to_string()
        };
        println!("check: {tally}{note}");
        Ok(())
    } else {
        Err(Error::CheckFailed(format!(
            "check failed ({} of {} variant(s)): {}\ncheck: {tally}{}\n(a bound fails when its whole 95% CI lies outside it{})",
            failed.iter().map(|f| f.split(':').next().unwrap_or_default()).collect::<std::collections::BTreeSet<_>>().len(),
            loaded.len(),
            failed.join("; "),
            if o.strict { "; --strict: undecided fails" } else { "" },
            if o.strict { ", or, with --strict, when it is undecided" } else { "" }
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
    /// Traces game `index` (seed `seed`, line-up turned by `turn`) of `variant` unless
    /// [`MAX_TRACES`] are written.
    fn add(&mut self, seated: &dyn SeatedGame, variant: &Variant, (index, seed, turn): (u64, u64, Option<usize>), why: &str) -> Result<(), Error> {
        if self.files.len() >= MAX_TRACES {
            self.more += 1;
            return Ok(());
        }
        // Gzip-compressed: the games traced are the longest (capped) or broken ones, whose
        // plain traces can pass 100 MB each.
        let name = format!("{}-{}-game-{index:06}-seed-{seed}-{why}.jsonl.gz", seated.facts().id, variant.name);
        let path = self.dir.join(&name);
        let mut writer = TraceWriter::create(&path, true)?;
        let _ = seated.trace(variant, seed, turn, &mut |line| writer.line(&line));
        writer.finish()?;
        self.files.push(name);
        Ok(())
    }
}

/// Traces the game named by an invariant failure of the runner (`game I (seed S)`).
fn trace_broken(game: &dyn GameHandle, variant: &Variant, o: &CheckOptions, message: &str, traces: &mut Traces) -> Result<(), Error> {
    let seated = seat(game, variant, o.bots.as_deref(), "--bots")?;
    // The runner names the game as `game {index} (seed {seed})`.
    let found = message.split_once("game ").and_then(|(_, rest)| {
        let (index, rest) = rest.split_once(" (seed ")?;
        let (seed, _) = rest.split_once(')')?;
        Some((index.parse::<u64>().ok()?, seed.parse::<u64>().ok()?))
    });
    if let Some((index, seed)) = found {
        traces.add(&*seated, variant, (index, seed, None), "invariant")?;
    }
    Ok(())
}

/// Checks one variant: its `[expect]` table, then (with `play`) its games with the invariant
/// checks on and every bound judged. Returns the bounds held, undecided and failed.
fn check(game: &dyn GameHandle, variant: &Variant, c: Check<'_>) -> Result<Counts, Error> {
    let o = c.o;
    let seated = seat(game, variant, o.bots.as_deref(), "--bots")?;
    let rotate = o.run.rotate || variant.rotate;
    let cat = Catalogue::of(game.facts()).rotated(rotate, seated.acting());
    let expect = expectations(variant, &cat)?;
    if !c.play {
        return Ok(Counts::default());
    }
    let detailed = expect.iter().any(|e| cat.get(&e.metric).is_some_and(Catalogue::is_extra)) || cat.get(o.precision.metric()).is_some_and(Catalogue::is_extra);
    // With --traces the rows pass by as they are played: the first games that reached the
    // cap are kept (no more than can be traced), the others only counted.
    let plan = PlayPlan { seed: o.run.seed, checked: true, detailed, keep_rows: c.traces.is_some(), rotate };
    let arm = Arm { seated: &*seated, variant: variant.name.clone(), replay: replay_command(c.path, o.bots.as_deref(), &o.sets) };
    let mut progress = Progress::new(o.run.games, o.run.quiet);
    let cap = game.facts().end_reasons.iter().position(|r| *r == "cap");
    let (mut capped, mut capped_past) = (Vec::new(), 0usize);
    let mut keep_capped = |rows: &[crate::sim::GameRow]| {
        for row in rows.iter().filter(|r| cap.is_some_and(|c| r.outcome.end_reason as usize == c)) {
            if capped.len() < MAX_TRACES { capped.push(*row) } else { capped_past += 1 }
        }
        Ok(())
    };
    let sink: Option<&mut crate::sim::RowSink<'_>> = if c.traces.is_some() { Some(&mut keep_capped) } else { None };
    let (stats, reached) = run_arm(&arm, &cat, &plan, (o.run.threads, o.run.games), &o.precision, &mut progress, sink)?;
    let summary = stats.summary(&arm, o.run.seed, detailed, 0.0);
    println!(
        "check {} ({} / {}): {} games, seed {}; invariants and legality checked after every action: ok",
        c.path.display(),
        game.facts().id,
        variant.name,
        thousands(stats.tally.games),
        o.run.seed
    );
    if let Some(r) = reached {
        println!("  {}", r.describe());
    }
    let acting = seated.acting();
    if rotate {
        println!("  seats rotated: blocks of {acting} games on one deal; seat figures average the bots out, bot<k>_win_share the seats; intervals over blocks");
    }
    if let Some(traces) = c.traces {
        for row in &capped {
            // A rotated game was played by the line-up turned by its place in the block.
            let turn = rotate.then_some((row.index % acting as u64) as usize);
            traces.add(&*seated, variant, (row.index, row.seed, turn), "cap")?;
        }
        // Past the first MAX_TRACES capped games every trace slot is taken: counted only.
        traces.more += capped_past;
    }
    if expect.is_empty() {
        println!("  no [expect] table: only the invariants were checked");
    }
    if let Some(w) = summary.deadlock_warning() {
        println!("  {w}");
    }
    let estimates = stats.estimates(&cat, &summary);
    Ok(judge_bounds(&cat, &estimates, &expect, stats.tally.games))
}

/// Judges and prints every bound of `expect` (`games`: games played, for the reason a figure
/// has no interval).
fn judge_bounds(cat: &Catalogue, estimates: &[Estimate], expect: &[Expectation], games: u64) -> Counts {
    let mut counts = Counts::default();
    for e in expect {
        let Some(def) = cat.get(&e.metric) else {
            continue;
        };
        let est = estimates[cat.position(&e.metric).unwrap_or(0)];
        let (verdict, said) = judge(&est, e.lo, e.hi);
        // One limit per side: a share judged at its edge by the one-sided bound shows that
        // bound, not the two-sided interval as well.
        let measured = match said {
            _ if !est.value.is_finite() => "not measured in this run".to_string(),
            _ if est.interval == Interval::None => {
                format!("{} ({})", metrics::say_value(def, est.value), crate::stats::interval::no_interval_reason(def.is_p_value(), games))
            }
            Some(s) => format!("{} ({s})", metrics::say_value(def, est.value)),
            None => metrics::say(def, &est),
        };
        let bounds =
            format!("{} to {} ([expect] {} = [{}, {}] at {})", metrics::say_value(def, e.lo), metrics::say_value(def, e.hi), e.metric, e.lo, e.hi, e.at);
        match verdict {
            Verdict::Holds => {
                println!("  ok    {} = {measured} within {bounds}", e.metric);
                counts.held += 1;
            }
            Verdict::Undecided => {
                let why = if est.interval == Interval::None || !est.value.is_finite() {
                    "not judged without an interval".to_string()
                } else {
                    format!("the CI overlaps a bound of {bounds}; more games would decide")
                };
                println!("  ??    {} = {measured}: undecided: {why}", e.metric);
                counts.undecided.push(e.metric.clone());
            }
            Verdict::Fails => {
                let why = if est.lo <= e.hi && est.hi >= e.lo { "the share is outside for certain" } else { "the whole 95% CI lies outside the bounds" };
                println!("  FAIL  {} = {measured} outside {bounds}: {why}", e.metric);
                counts.failed.push(format!(
                    "{} = {} outside {} to {}",
                    e.metric,
                    metrics::say_value(def, est.value),
                    metrics::say_value(def, e.lo),
                    metrics::say_value(def, e.hi)
                ));
            }
        }
        // A game's own figure says what it is (a share is a fraction of 1 here).
        if Catalogue::is_extra(def) {
            let unit = if def.unit == Unit::Share { "a share; its [expect] bounds are fractions of 1".to_string() } else { def.own_unit.clone() };
            if unit.is_empty() {
                println!("        ({})", def.about);
            } else {
                println!("        ({}; {unit})", def.about);
            }
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Registered;

    fn est(value: f64, lo: f64, hi: f64) -> Estimate {
        Estimate { value, lo, hi, interval: Interval::Wilson }
    }

    #[test]
    fn an_expectation_fails_only_when_the_whole_interval_is_outside() {
        assert_eq!(verdict(&est(0.5, 0.4, 0.6), 0.0, 1.0), Verdict::Holds);
        assert_eq!(verdict(&est(0.05, 0.02, 0.08), 0.0, 0.04), Verdict::Undecided);
        assert_eq!(verdict(&est(0.06, 0.05, 0.07), 0.0, 0.04), Verdict::Fails);
        assert_eq!(verdict(&est(-0.06, -0.07, -0.05), -0.04, 0.04), Verdict::Fails);
        // No interval, or nothing measured: never judged.
        assert_eq!(verdict(&Estimate::point(0.0), 0.0, 0.0), Verdict::Undecided);
        assert_eq!(verdict(&Estimate::point(f64::NAN), 0.0, 1.0), Verdict::Undecided);
        // At a share's edge: [0, 0] holds with nothing counted, fails with anything counted.
        let share = |value: f64, games: u64| {
            let (lo, hi) = crate::stats::wilson(value * games as f64, games);
            Estimate { value, lo, hi, interval: Interval::Share { games } }
        };
        assert_eq!(verdict(&share(0.0, 20_000), 0.0, 0.0), Verdict::Holds);
        assert_eq!(verdict(&share(1.0 / 20_000.0, 20_000), 0.0, 0.0), Verdict::Fails);
        assert_eq!(verdict(&share(0.0, 300), 0.0, 0.01), Verdict::Holds);
        assert_eq!(verdict(&share(0.0, 100), 0.0, 0.01), Verdict::Undecided);
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
        assert!(expectations(&reversed, &cat).unwrap_err().to_string().contains("reversed"));
        let text = Variant::from_toml_str(path, "game = \"pig-farm\"\n[expect]\nmean_length = \"short\"\n").unwrap();
        assert_eq!(expectations(&text, &cat).unwrap_err().exit_code(), 2);
    }
}
