//! The CLI side of running at scale: `simulate`/`report` with `--shard K/N` (play one shard,
//! save `shard-K-of-N.*`), `playtest merge` (rebuild the unsharded run's summary, JSON and
//! report from a complete set of shards).

use std::path::{Path, PathBuf};

use clap::Args;

use super::{RunArgs, SimulateArgs, VariantArgs, command_line, progress_printer};
use crate::error::{Error, MergeError};
use crate::games::handle::{AnyMetrics, GameFacts, Run};
use crate::games::{self, GameHandle, SeatedGame};
use crate::output::RowContext;
use crate::output::atomic::OutputDir;
use crate::output::stream::RowWriter;
use crate::report::{self, ReportInput};
use crate::sim::shard::{self, RunKind, Shard, ShardState};
use crate::sim::{self, RunConfig};
use crate::stats::summary::SummaryContext;
use crate::stats::{Summary, Tally};
use crate::variant::Variant;

/// Flags of `playtest merge`.
#[derive(Args, Debug)]
pub(super) struct MergeArgs {
    /// Shard state files (`shard-K-of-N.json`) or folders holding them; every shard of the run once.
    #[arg(required = true, value_name = "SHARD")]
    shards: Vec<PathBuf>,
    /// Output folder for summary.json (and, for `report` shards, the charts and report.md);
    /// default: the folder of the first shard.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print exactly one JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

/// What a sharded run needs besides the game.
struct ShardRun<'a> {
    kind: RunKind,
    shard: Shard,
    dir: &'a Path,
    variant: &'a VariantArgs,
    run: &'a RunArgs,
    /// The unsharded command (for the merged report).
    command: String,
    /// Write the shard's per-game rows too.
    rows: bool,
    quiet: bool,
}

/// The game's summary of `tally` (plus the game's own figures when `metrics` is given).
fn summary_of(game: &GameFacts, variant_name: &str, bots: Vec<String>, seed: u64, seconds: f64, tally: &Tally, metrics: Option<&dyn AnyMetrics>) -> Summary {
    Summary::new(
        tally,
        SummaryContext {
            game: game.id,
            variant: variant_name,
            seed,
            players: game.acting_seats,
            seats: game.seats,
            seat_bots: bots,
            end_reasons: game.end_reasons,
            length_unit: game.length_unit,
            seconds,
            extra: metrics.map(|m| m.summary(tally.games)).unwrap_or_default(),
        },
    )
    .with_teams(&game.teams, tally)
    .with_elimination(game.has_elimination)
}

fn play_shard(seated: &dyn SeatedGame, variant: &Variant, s: ShardRun<'_>) -> Result<(ShardState, Run), Error> {
    let game = seated.facts();
    let detailed = s.kind == RunKind::Report;
    if detailed && seated.new_metrics().save_state().is_none() {
        return Err(Error::Usage(format!("report --shard: game `{}` cannot save its report metrics yet; run `report` without --shard", game.id)));
    }
    // The shard's files are written aside and renamed in only when complete (the state last),
    // so a killed array task leaves nothing `merge` could take for a result.
    crate::interrupt::install();
    let out = OutputDir::create_files(s.dir, &s.shard.stem(), &crate::output::atomic::invocation())?;
    let labels = seated.seat_labels();
    let mut writer = if s.rows {
        Some(RowWriter::create(out.path(), &s.shard.stem(), RowContext { seats: game.seats, seat_bots: &labels, end_reasons: game.end_reasons })?)
    } else {
        None
    };
    let cfg = RunConfig {
        threads: s.run.threads,
        checked: s.run.checked,
        detailed,
        shard_index: s.shard.index,
        shard_count: s.shard.count,
        ..RunConfig::new(s.run.games, s.run.seed)
    };
    let cat = crate::designer::metrics::Catalogue::of(game);
    let mut moments = crate::designer::metrics::Moments::new(cat.per_game_len);
    let mut values = Vec::new();
    let mut sink = |rows: &[sim::GameRow]| {
        if detailed {
            for r in rows {
                cat.per_game(&r.outcome, 0, &mut values);
                moments.add(&values);
            }
        }
        writer.as_mut().map_or(Ok(()), |w| w.write(rows))
    };
    let result = seated.run(cfg, &mut progress_printer(cfg.games, s.quiet), Some(&mut sink))?;
    if crate::interrupt::requested() {
        // A shard is merged only whole: nothing of a stopped one is kept.
        drop(writer);
        drop(out);
        return Err(Error::Interrupted(format!(
            "interrupted after {} of {} games of shard {} of {}: nothing written (a shard is kept only complete)",
            result.tally.games,
            s.shard.games_of(s.run.games),
            s.shard.index,
            s.shard.count
        )));
    }
    if let Some(w) = writer {
        w.finish()?;
    }
    let state = ShardState {
        format: shard::FORMAT.to_string(),
        kind: s.kind,
        shard: s.shard,
        game: game.id.to_string(),
        variant: variant.name.clone(),
        variant_path: s.variant.variant.clone(),
        variant_toml: variant.as_played(),
        description: variant.description.clone(),
        bots: labels,
        seed: s.run.seed,
        games: s.run.games,
        command: s.command,
        seconds: result.seconds,
        tally: result.tally.clone(),
        metrics: if detailed { result.metrics.save_state() } else { None },
        standing: detailed.then(|| result.standing.clone()),
        moments: detailed.then_some(moments),
    };
    state.save(out.path())?;
    out.commit()?;
    Ok((state, result))
}

fn shard_done(state: &ShardState, dir: &Path, rows: bool) {
    let stem = state.shard.stem();
    let files = if rows { format!("{stem}.json, {stem}.parquet and {stem}.csv") } else { format!("{stem}.json") };
    let dir = crate::output::shown::tidy(dir);
    println!(
        "shard {} of {}: {} of {} games in {:.1} s; wrote {files} into {}",
        state.shard.index,
        state.shard.count,
        state.tally.games,
        state.games,
        state.seconds,
        dir.display()
    );
    println!("{}", shards_to_go(&dir, state.shard.count));
}

/// What is left of a run of `count` shards whose states go into `dir`: the shards not yet
/// in it, or that every one is and how to merge them.
fn shards_to_go(dir: &Path, count: u64) -> String {
    let missing: Vec<String> =
        (0..count).filter(|&k| !dir.join(format!("{}.json", crate::sim::shard::Shard { index: k, count }.stem())).is_file()).map(|k| k.to_string()).collect();
    match missing.len() {
        0 => format!("every shard of {count} is done: playtest merge {}", dir.display()),
        n => format!("{n} of {count} shard(s) still to run (shard {}); when every shard is done: playtest merge {}", missing.join(", "), dir.display()),
    }
}

/// `simulate --shard K/N --out DIR`: plays one shard, writes its state and rows.
pub(super) fn simulate_shard(seated: &dyn SeatedGame, variant: &Variant, a: &SimulateArgs, text: &str) -> Result<(), Error> {
    let shard = Shard::from_arg(text)?;
    let Some(dir) = &a.out else {
        return Err(Error::Usage(format!("--shard {text}: needs --out DIR, the folder the shard's state and rows are written to (the same for every shard)")));
    };
    let command = command_line("simulate", &a.variant, &a.run, "");
    let s = ShardRun { kind: RunKind::Simulate, shard, dir, variant: &a.variant, run: &a.run, command, rows: true, quiet: a.json };
    let (state, result) = play_shard(seated, variant, s)?;
    if a.json {
        let partial = summary_of(seated.facts(), &variant.name, state.bots.clone(), state.seed, result.seconds, &result.tally, None);
        crate::output::print_json(&partial)?;
    } else {
        shard_done(&state, dir, true);
    }
    Ok(())
}

/// `report --shard K/N`: plays one shard in detail and writes its state into `dir`.
pub(super) fn report_shard(
    seated: &dyn SeatedGame,
    variant: &Variant,
    args: (&VariantArgs, &RunArgs, Option<&PathBuf>),
    dir: &Path,
    text: &str,
) -> Result<(), Error> {
    let (v, run, out) = args;
    let shard = Shard::from_arg(text)?;
    let command = command_line("report", v, run, &out.map(|o| format!(" --out {}", o.display())).unwrap_or_default());
    let s = ShardRun { kind: RunKind::Report, shard, dir, variant: v, run, command, rows: false, quiet: false };
    let (state, _) = play_shard(seated, variant, s)?;
    shard_done(&state, dir, false);
    Ok(())
}

/// `playtest merge SHARD...`: checks the set, adds the shards up and writes what the
/// unsharded command would have.
pub(super) fn merge(a: &MergeArgs) -> Result<(), Error> {
    let paths = shard::expand_paths(&a.shards)?;
    let states = paths.into_iter().map(|p| ShardState::load(&p).map(|s| (p, s))).collect::<Result<Vec<_>, _>>()?;
    let states = shard::check_set(states)?;
    let (first_path, first) = &states[0];
    let variant = Variant::from_toml_str(&first.variant_path, &first.variant_toml)?;
    let dir = a.out.clone().unwrap_or_else(|| first_path.parent().map(Path::to_path_buf).unwrap_or_default());
    merge_shards(&*games::handle(&variant)?, &variant, (a, &states, &dir))
}

/// The game's own metrics, standing figures and per-game sums of a set of report shards,
/// added up in shard order.
fn merged_details(
    game: &dyn GameHandle,
    states: &[(PathBuf, ShardState)],
) -> Result<(Box<dyn AnyMetrics>, crate::stats::StandingTally, crate::designer::metrics::Moments), Error> {
    let mut metrics = game.new_metrics();
    let mut standing = crate::stats::StandingTally::default();
    let mut moments = crate::designer::metrics::Moments::default();
    for (path, s) in states {
        let bad = |message: String| MergeError::BadShard { path: path.clone(), message };
        let saved = s.metrics.as_ref().ok_or_else(|| bad("a report shard without the game's metrics".into()))?;
        let m = metrics.load_state(saved).map_err(|e| bad(format!("cannot read the game's metrics: {e}")))?;
        metrics.merge(m);
        standing.merge(s.standing.as_ref().ok_or_else(|| bad("a report shard without the standing figures".into()))?);
        moments.merge(s.moments.as_ref().ok_or_else(|| bad("a report shard without its per-game sums".into()))?);
    }
    Ok((metrics, standing, moments))
}

/// Writes the merged report of a set of report shards into `dir`.
fn write_merged_report(game: &dyn GameHandle, variant: &Variant, first: &ShardState, summary: &mut Summary, details: MergedDetails<'_>) -> Result<(), Error> {
    let (tally, metrics, standing, moments, dir) = details;
    let facts = game.facts();
    summary.standing = Some(standing.summary(facts.standing_unit));
    let mut charts = report::common_charts(tally, summary, facts.has_elimination);
    charts.extend(report::standing_charts(standing, summary));
    let own = metrics.charts(tally.games);
    let key_chart = report::key_chart(facts.key_chart, &own);
    charts.extend(own);
    // The exact figures an unsharded `report` adds (games with a solver).
    let acting = first.bots.len().min(facts.acting_seats);
    super::add_exact(variant, &first.bots[..acting], summary, &mut charts);
    let tables = super::report_tables(facts, variant, summary, tally, (moments, 0, &[], &Default::default()))?;
    report::write(ReportInput {
        dir,
        summary,
        charts,
        command: first.command.clone(),
        variant_toml: first.variant_toml.clone(),
        description: first.description.clone(),
        partial: None,
        tables,
        replay: None,
        key_chart,
    })?;
    Ok(())
}

/// What [`write_merged_report`] reads of the merged shards: the tally, the game's metrics,
/// the standing figures, the per-game sums and the folder to write into.
type MergedDetails<'a> = (&'a Tally, &'a dyn AnyMetrics, &'a crate::stats::StandingTally, &'a crate::designer::metrics::Moments, &'a Path);

/// `playtest merge` on the game of the shards: adds them up and writes the summary (and the
/// report of report shards) into `dir`.
fn merge_shards(game: &dyn GameHandle, variant: &Variant, (args, states, dir): (&MergeArgs, &[(PathBuf, ShardState)], &Path)) -> Result<(), Error> {
    let first = &states[0].1;
    let detailed = first.kind == RunKind::Report;
    let mut tally = Tally::default();
    let mut seconds: f64 = 0.0;
    for (_, s) in states {
        tally.merge(&s.tally);
        seconds = seconds.max(s.seconds);
    }
    let details = if detailed { Some(merged_details(game, states)?) } else { None };
    let metrics = details.as_ref().map(|(m, _, _)| &**m);
    let mut summary = summary_of(game.facts(), &variant.name, first.bots.clone(), first.seed, seconds, &tally, metrics);
    let out = super::open_out(dir)?;
    match &details {
        Some((metrics, standing, moments)) => write_merged_report(game, variant, first, &mut summary, (&tally, &**metrics, standing, moments, out.path()))?,
        None => drop(crate::output::write_summary(out.path(), &summary)?),
    }
    if crate::interrupt::requested() {
        drop(out);
        return Err(Error::Interrupted(format!("interrupted: nothing written, {} is left as it was", dir.display())));
    }
    out.commit()?;
    if args.json {
        crate::output::print_json(&summary)?;
    } else {
        // Games per second would mix the shards' machines: the slowest shard's time instead.
        print!("{}", summary.figures());
        println!("slowest shard: {seconds:.1} s");
        let what = if detailed { "summary.json, report.md and the charts" } else { "summary.json" };
        println!(
            "merged {} shards of `{}` ({} games); wrote {what} into {}",
            states.len(),
            first.command,
            tally.games,
            crate::output::shown::tidy(dir).display()
        );
    }
    Ok(())
}
