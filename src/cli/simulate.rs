//! `playtest simulate`: play many games and print (or write) the summary.

use super::*;
use crate::output::stream::RowWriter;

#[derive(Args, Debug)]
pub(super) struct SimulateArgs {
    #[command(flatten)]
    pub(super) variant: VariantArgs,
    #[command(flatten)]
    pub(super) run: RunArgs,
    #[command(flatten)]
    pub(super) precision: PrecisionArgs,
    /// Print exactly one JSON object instead of the table.
    #[arg(long)]
    pub(super) json: bool,
    /// Write one row per game (games.parquet, games.csv) and summary.json into DIR.
    #[arg(long, value_name = "DIR")]
    pub(super) out: Option<PathBuf>,
    /// Play only games with index mod N = K and write shard-K-of-N.* into --out (merge them
    /// with `playtest merge`); `auto/N` reads SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX.
    #[arg(long, value_name = "K/N")]
    pub(super) shard: Option<String>,
    /// On Ctrl-C, still write --out complete for the games played, marked partial (default:
    /// write nothing and leave the folder as it was).
    #[arg(long)]
    pub(super) keep_partial: bool,
}

/// `playtest simulate` on the variant's game.
pub(super) fn simulate(game: &dyn GameHandle, variant: &Variant, a: &SimulateArgs) -> Result<(), Error> {
    let seated = seat_any(game, variant, a.variant.bots.as_deref())?;
    if let Some(text) = &a.shard {
        return scale::simulate_shard(&*seated, variant, a, text);
    }
    crate::interrupt::install();
    // Before the long run: the folder's lock and a writable temporary folder.
    let out = a.out.as_deref().map(open_out).transpose()?;
    let cfg = RunConfig { threads: a.run.threads, checked: a.run.checked, rotate: a.run.rotate || variant.rotate, ..RunConfig::new(a.run.games, a.run.seed) };
    // With --out the rows are streamed to games.parquet/games.csv batch by batch as the run
    // goes (a fixed game count or --precision alike), never all held.
    let labels = seated.seat_labels();
    let facts = seated.facts();
    let mut writer = match &out {
        Some(out) => Some(RowWriter::create(out.path(), "games", RowContext { seats: facts.seats, seat_bots: &labels, end_reasons: facts.end_reasons })?),
        None => None,
    };
    let mut write_rows = |rows: &[sim::GameRow]| writer.as_mut().map_or(Ok(()), |w| w.write(rows));
    let sink: Option<&mut sim::RowSink<'_>> = if out.is_some() { Some(&mut write_rows) } else { None };
    let replay = crate::designer::runner::replay_command(&a.variant.variant, a.variant.bots.as_deref(), &a.variant.sets);
    let (result, reached) =
        crate::designer::precision::run_sim(&*seated, cfg, &a.precision, (&variant.name, replay), &mut progress_bar(cfg.games, a.json || a.run.quiet), sink)?;
    let stopped_at = partial(result.tally.games, a.precision.precision.is_none().then_some(cfg.games));
    if stopped_at.is_some_and(|p| p.played == 0) {
        return Err(stopped_before_any_game(out));
    }
    if let (Some(r), None) = (&reached, &stopped_at) {
        if a.json { eprintln!("{}", r.describe()) } else { println!("{}", r.describe()) }
    }
    // A stopped run writes only with --keep-partial (else its rows are dropped with the folder).
    let write = out.as_ref().filter(|_| stopped_at.is_none() || a.keep_partial);
    if let (Some(_), Some(w)) = (write, writer) {
        w.finish()?;
    }
    let summary = summarise(&*seated, variant, &cfg, &result);
    if let Some(out) = write {
        crate::output::write_summary_marked(out.path(), &summary, stopped_at.as_ref())?;
    }
    if a.json {
        let mut value = crate::output::marked(&summary, stopped_at.as_ref())?;
        // The overrides played, as given (only when there are some: a run without `--set`
        // prints the summary as it is).
        if let (false, Some(map)) = (a.variant.sets.is_empty(), value.as_object_mut()) {
            map.insert("overrides".into(), a.variant.sets.clone().into());
        }
        crate::output::print_json(&value)?;
    } else {
        if let Some(p) = &stopped_at {
            println!("{}", p.banner());
        }
        if let Some(line) = overrides_line(&a.variant.sets) {
            println!("{line}");
        }
        print!("{}", summary.table());
    }
    if let Some(p) = &stopped_at {
        return Err(stopped(out, a.keep_partial, &format!("{} games", p.played)));
    }
    if let Some(out) = out {
        out.commit()?;
        if !a.json {
            println!("wrote games.parquet, games.csv and summary.json into {}", crate::output::shown::tidy(out_dir(a)).display());
        }
    }
    Ok(())
}

/// The overrides played, echoed above the figures ("overrides: --set a=1, --set b=2").
pub(super) fn overrides_line(sets: &[String]) -> Option<String> {
    (!sets.is_empty()).then(|| format!("overrides: {}", sets.iter().map(|s| format!("--set {s}")).collect::<Vec<_>>().join(", ")))
}

fn out_dir(a: &SimulateArgs) -> &Path {
    a.out.as_deref().unwrap_or(Path::new("."))
}
