//! `playtest report`: play and write every chart, report.md, index.html and summary.json.

use super::*;

#[derive(Args, Debug)]
pub(super) struct ReportArgs {
    #[command(flatten)]
    pub(super) variant: VariantArgs,
    #[command(flatten)]
    pub(super) run: RunArgs,
    #[command(flatten)]
    pub(super) precision: PrecisionArgs,
    /// Output folder (default reports/<game>/<variant>/).
    #[arg(long, value_name = "DIR")]
    pub(super) out: Option<PathBuf>,
    /// Play only games with index mod N = K and write shard-K-of-N.json into the output
    /// folder (merge them with `playtest merge`); `auto/N` reads SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX.
    #[arg(long, value_name = "K/N")]
    pub(super) shard: Option<String>,
    /// On Ctrl-C, still write the report complete for the games played, marked partial
    /// (default: write nothing and leave the folder as it was).
    #[arg(long)]
    pub(super) keep_partial: bool,
    /// Also audit the rules (`playtest audit` with its defaults, same seed and threads) into
    /// the report's audit/ folder and add its section to report.md and index.html.
    #[arg(long)]
    pub(super) audit: bool,
}

pub(super) struct Report<'a> {
    pub(super) args: &'a ReportArgs,
}

impl GameCommand for Report<'_> {
    type Output = ();
    fn run<G: Registered>(self, game: G, variant: &Variant) -> Result<(), Error> {
        use crate::engine::Metrics;
        let a = self.args;
        let plans = seat_plans_any(&game, variant, a.variant.bots.as_deref())?;
        let dir = a.out.clone().unwrap_or_else(|| Path::new("reports").join(game.id()).join(&variant.name));
        if let Some(text) = &a.shard {
            return scale::report_shard(&game, variant, &plans, (&a.variant, &a.run, a.out.as_ref()), &dir, text);
        }
        // Before the long run: the folder's lock and a writable temporary folder.
        let out = open_out(&dir)?;
        let cfg = RunConfig {
            threads: a.run.threads,
            checked: a.run.checked,
            rotate: a.run.rotate,
            detailed: true,
            keep_rows: true,
            ..RunConfig::new(a.run.games, a.run.seed)
        };
        let replay = crate::designer::runner::replay_command(&a.variant.variant, a.variant.bots.as_deref(), &a.variant.sets);
        let (result, reached) =
            crate::designer::precision::run_sim(&game, &plans, cfg, &a.precision, (&variant.name, replay), &mut progress_bar(cfg.games, a.run.quiet))?;
        let stopped_at = partial(result.tally.games, a.precision.precision.is_none().then_some(cfg.games));
        if let (Some(r), None) = (&reached, &stopped_at) {
            println!("{}", r.describe());
        }
        let mut summary = summarise(&game, variant, &plans, &cfg, &result);
        if let Some(p) = &stopped_at {
            println!("{}", p.banner());
            if !a.keep_partial {
                print!("{}", summary.table());
                return Err(stopped(Some(out), false, p));
            }
        }
        let labels = seat_labels(&game, &plans);
        output::write_rows(out.path(), &result.rows, &RowContext { seats: game.seats(), seat_bots: &labels, end_reasons: game.end_reasons() })?;
        let run = RunArgs { games: result.tally.games, ..a.run.clone() };
        let mut charts = crate::report::common_charts(&result.tally, &summary, game.has_elimination());
        charts.extend(crate::report::standing_charts(&result.standing, &summary));
        charts.extend(result.metrics.charts(result.tally.games));
        charts.extend(game.extra_charts(variant, result.tally.games, a.run.seed, a.run.threads)?);
        let labels: Vec<String> = plans.iter().map(|p| p.label.clone()).collect();
        add_exact(variant, &labels, &mut summary, &mut charts);
        let tables = report_tables(&game, variant, &summary, &result.tally, &row_moments(&game, &result.rows))?;
        let written = crate::report::write(ReportInput {
            dir: out.path(),
            summary: &summary,
            charts,
            command: command_line("report", &a.variant, &run, &a.out.as_ref().map(|o| format!(" --out {}", o.display())).unwrap_or_default()),
            variant_toml: variant.as_played(),
            description: variant.description.clone(),
            partial: stopped_at,
            tables,
        })?;
        if let Some(p) = &stopped_at {
            print!("{}", summary.table());
            return Err(stopped(Some(out), true, p));
        }
        if a.audit {
            let audit = crate::designer::audit::run(&crate::designer::audit::AuditOptions {
                variant: a.variant.variant.clone(),
                bots: a.variant.bots.clone(),
                sets: a.variant.sets.clone(),
                seed: a.run.seed,
                threads: a.run.threads,
                quiet: a.run.quiet,
                write_into: Some(out.path().join("audit")),
                ..Default::default()
            })?;
            crate::designer::audit::write::append_to_report(&audit, out.path())?;
            println!("audit: {}", audit.verdict);
        }
        out.commit()?;
        print!("{}", summary.table());
        println!("wrote {} files into {}", written.len(), dir.display());
        Ok(())
    }
}

/// Adds a variant's exact figures to a report when its game has a solver and the line-up is
/// one it can solve (else the report is left as it is).
pub(super) fn add_exact(variant: &Variant, labels: &[String], summary: &mut Summary, charts: &mut Vec<crate::engine::ChartSpec>) {
    use crate::engine::{BarSeries, ChartSpec};
    let Ok(exact) = games::exact(variant, labels, 5_000_000) else {
        return;
    };
    let num = |x: f64| serde_json::Number::from_f64(x).map(serde_json::Value::Number).unwrap_or(serde_json::Value::Null);
    summary.extra.insert("exact_expected_length".into(), num(exact.expected_length));
    for s in &exact.seats {
        summary.extra.insert(format!("exact_win_share_seat{}", s.seat), num(s.win_share));
    }
    for h in &exact.skill_headroom {
        summary.extra.insert(format!("skill_headroom_seat{}", h.seat), num(h.headroom));
    }
    charts.push(ChartSpec::Bars {
        file: "seat_win_shares_exact".into(),
        title: format!("Win share by seat: Monte Carlo ({} games, 95% CI) vs exact", summary.games),
        x_label: "seat (turn order) and bot".into(),
        y_label: "win share (%)".into(),
        categories: summary.seats.iter().map(|s| format!("seat {} ({})", s.seat, s.bot)).collect(),
        series: vec![
            BarSeries {
                name: "Monte Carlo".into(),
                values: summary.seats.iter().map(|s| s.win_share * 100.0).collect(),
                ci: Some(summary.seats.iter().map(|s| (s.ci95[0] * 100.0, s.ci95[1] * 100.0)).collect()),
            },
            BarSeries { name: "exact".into(), values: exact.seats.iter().map(|s| s.win_share * 100.0).collect(), ci: None },
        ],
        reference: Some((100.0 * crate::stats::summary::fair_share(&summary.seats, summary.players), "fair share".into())),
    });
}
