//! `playtest simulate`: play many games and print (or write) the summary.

use super::*;

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
}

pub(super) struct Simulate<'a> {
    pub(super) args: &'a SimulateArgs,
}

impl GameCommand for Simulate<'_> {
    type Output = ();
    fn run<G: Registered>(self, game: G, variant: &Variant) -> Result<(), Error> {
        run_simulate(&game, variant, self.args)
    }
}

pub(super) fn run_simulate<G: Registered>(game: &G, variant: &Variant, a: &SimulateArgs) -> Result<(), Error> {
    let plans = seat_plans_any(game, variant, a.variant.bots.as_deref())?;
    if let Some(text) = &a.shard {
        return scale::simulate_shard(game, variant, &plans, a, text);
    }
    if let Some(dir) = &a.out {
        output::prepare_dir(dir)?;
    }
    let streamed = a.out.is_some() && a.precision.precision.is_none();
    let cfg = RunConfig {
        threads: a.run.threads,
        checked: a.run.checked,
        rotate: a.run.rotate,
        keep_rows: a.out.is_some() && !streamed,
        ..RunConfig::new(a.run.games, a.run.seed)
    };
    let (result, reached) = match &a.out {
        Some(dir) if streamed => (scale::simulate_streamed(game, &plans, cfg, dir, a.json || a.run.quiet)?, None),
        _ => {
            let replay = crate::designer::runner::replay_command(&a.variant.variant, a.variant.bots.as_deref(), &a.variant.sets);
            crate::designer::precision::run_sim(game, &plans, cfg, &a.precision, (&variant.name, replay), &mut progress_bar(cfg.games, a.json || a.run.quiet))?
        }
    };
    if let Some(r) = &reached {
        if a.json { eprintln!("{}", r.describe()) } else { println!("{}", r.describe()) }
    }
    if let (Some(dir), false) = (&a.out, streamed) {
        let labels = seat_labels(game, &plans);
        output::write_rows(dir, &result.rows, &RowContext { seats: game.seats(), seat_bots: &labels, end_reasons: game.end_reasons() })?;
    }
    let summary = summarise(game, variant, &plans, &cfg, &result);
    if let Some(dir) = &a.out {
        crate::output::write_summary(dir, &summary)?;
    }
    if a.json {
        crate::output::print_json(&summary)?;
    } else {
        print!("{}", summary.table());
        if let Some(dir) = &a.out {
            println!("wrote {}/games.parquet, games.csv and summary.json", dir.display());
        }
    }
    Ok(())
}
